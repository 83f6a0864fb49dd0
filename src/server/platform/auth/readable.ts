/**
 * What a caller may read, item by item: the one rule every list asks before it shows another
 * item's title or a note's body (activity events, to-dos, system note cross-references). The
 * rules themselves belong to the families (issues, merge requests, epics, snippets, notes,
 * milestones, alerts), which register them at startup with `registerReadable`: this file knows
 * the questions, not the families, so no list carries a copy of a rule and the platform imports no
 * module.
 */

import type { Permissions } from './permissions'
import type { Db } from '../db/connection'
import { findNamespaceById, findProjectById } from '../db/platform-queries'
import type { ProjectRow } from '../db/rows'
import { canReadCodeWith } from '../http/repository'

/** Whether the holder of `items` may read the family's item with this id (false when it is gone). */
export type ItemReader = (items: ReadableItems, id: number) => boolean

/** Whether whoever holds `perms` may read a feature of the project (its issues, its merge requests…). */
export type FeatureReader = (perms: Permissions, project: ProjectRow) => boolean

/** What an activity event shows, as its list reads it. */
export interface EventTarget {
  readonly project_id: number | null
  readonly action: string
  readonly target_type: string | null
  readonly target_id: number | null
}

/** A to-do, as its list reads it. */
export interface TodoTarget {
  readonly project_id: number | null
  readonly group_id: number | null
  readonly target_type: string
  readonly target_id: number
  readonly note_id: number | null
}

/** A note as the read rules need it; undefined from a NoteReader when the note is gone. */
export interface NoteAccess {
  readonly noteableType: string
  readonly noteableId: number
  /** False for an internal note the caller may not see (Reporters and above may). */
  readonly bodyReadable: boolean
}

/** The rules one family adds: each key names an item type, a project feature or a target type. */
export interface ReadableFamily {
  /** Items by type (`Issue`, `Snippet`…), for `item(type, id)`. */
  readonly items?: Readonly<Record<string, ItemReader>>
  /** Project features by name (`issues`, `merge_requests`, `alerts`…), for `feature(name, projectId)`. */
  readonly features?: Readonly<Record<string, FeatureReader>>
  /** Activity events by target type, once the event's project or group is readable. */
  readonly eventTargets?: Readonly<Record<string, (items: ReadableItems, event: EventTarget) => boolean>>
  /** To-dos by target type, once the to-do's project, group and quoted note are readable. */
  readonly todoTargets?: Readonly<Record<string, (items: ReadableItems, todo: TodoTarget) => boolean>>
  /** How a note is read (the notes family). */
  readonly notes?: (items: ReadableItems, id: number) => NoteAccess | undefined
}

const itemReaders = new Map<string, ItemReader>()
const featureReaders = new Map<string, FeatureReader>()
const eventTargetReaders = new Map<string, NonNullable<ReadableFamily['eventTargets']>[string]>()
const todoTargetReaders = new Map<string, NonNullable<ReadableFamily['todoTargets']>[string]>()
let noteReader: ReadableFamily['notes']

/** Adds a family's read rules (modules/index.ts registers every family once at startup; again is harmless). */
export function registerReadable(family: ReadableFamily): void {
  for (const [type, reader] of Object.entries(family.items ?? {})) itemReaders.set(type, reader)
  for (const [name, reader] of Object.entries(family.features ?? {})) featureReaders.set(name, reader)
  for (const [type, reader] of Object.entries(family.eventTargets ?? {})) eventTargetReaders.set(type, reader)
  for (const [type, reader] of Object.entries(family.todoTargets ?? {})) todoTargetReaders.set(type, reader)
  if (family.notes) noteReader = family.notes
}

// The repository is the platform's own: pushes and to-dos on commits need the project's code.
registerReadable({
  features: { code: canReadCodeWith },
  todoTargets: { Commit: (items, t) => t.project_id !== null && items.feature('code', t.project_id) },
})

/**
 * Read answers for one caller, memoised: one instance serves one list, whose rows often name the
 * same project or item again.
 */
export class ReadableItems {
  private readonly answers = new Map<string, boolean>()
  private readonly projects = new Map<number, ProjectRow | undefined>()

  constructor(
    readonly db: Db,
    readonly perms: Permissions,
  ) {}

  /** The item of a registered family (issue, merge request, epic, snippet) with this id; false when it is gone. */
  item(type: string, id: number): boolean {
    return this.memo(`${type}:${id}`, () => {
      // A type no family claims is nothing the caller may read.
      const reader = itemReaders.get(type)
      return reader !== undefined && reader(this, id)
    })
  }

  /** A note: its body (internal notes are for Reporters and above) and its noteable; false when it is gone. */
  note(id: number): boolean {
    return this.memo(`Note:${id}`, () => {
      const note = this.noteAccess(id)
      return note !== undefined && note.bodyReadable && this.item(note.noteableType, note.noteableId)
    })
  }

  /** Whether a note's body is for the caller, whatever its noteable: a note that is gone hides nothing. */
  noteBody(id: number): boolean {
    return this.noteAccess(id)?.bodyReadable ?? true
  }

  /** The project itself (its visibility and the caller's membership). */
  project(id: number): boolean {
    const project = this.projectRow(id)
    return project !== undefined && this.perms.canReadProject(project)
  }

  /** The group itself. */
  group(id: number): boolean {
    return this.memo(`Group:${id}`, () => {
      const group = findNamespaceById(this.db, id)
      return group !== undefined && this.perms.canReadGroup(group)
    })
  }

  /** A registered feature of the project (`issues`, `merge_requests`, `code`, `alerts`); false when the project is gone. */
  feature(name: string, projectId: number): boolean {
    return this.memo(`${name}:${projectId}`, () => {
      const project = this.projectRow(projectId)
      const reader = featureReaders.get(name)
      return project !== undefined && reader !== undefined && reader(this.perms, project)
    })
  }

  /**
   * An activity event of a readable project or group: what it names must be readable too — the
   * repository for pushes, and for a target its family's rule (GitLab's Event#visible_to_user?).
   * Project events (created, joined, left) and targets no family claims need nothing more.
   */
  event(e: EventTarget): boolean {
    if (e.action === 'pushed') return e.project_id === null || this.feature('code', e.project_id)
    if (e.target_id === null || e.target_type === null) return true
    return eventTargetReaders.get(e.target_type)?.(this, e) ?? true
  }

  /**
   * A to-do of the caller: the project or group it belongs to, its target and the note it quotes
   * must all still be readable — a target made confidential, or a project the user left, hides it
   * (GitLab filters to-dos by their target's read permission).
   */
  todo(t: TodoTarget): boolean {
    if (t.project_id !== null && !this.project(t.project_id)) return false
    if (t.group_id !== null && !this.group(t.group_id)) return false
    if (t.note_id !== null && !this.note(t.note_id)) return false
    return todoTargetReaders.get(t.target_type)?.(this, t) ?? true
  }

  /** The project row (memoised for this list), for the families' rules. */
  projectRow(id: number): ProjectRow | undefined {
    if (!this.projects.has(id)) this.projects.set(id, findProjectById(this.db, id))
    return this.projects.get(id)
  }

  private noteAccess(id: number): NoteAccess | undefined {
    return noteReader?.(this, id)
  }

  private memo(key: string, answer: () => boolean): boolean {
    let known = this.answers.get(key)
    if (known === undefined) {
      known = answer()
      this.answers.set(key, known)
    }
    return known
  }
}
