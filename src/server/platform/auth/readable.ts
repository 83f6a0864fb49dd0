/**
 * What a caller may read, item by item: the one rule every list asks before it shows another
 * item's title or a note's body (activity events, to-dos, system note cross-references). Each
 * family's own rule decides — canUserReadIssue, canReadMergeRequestsWith, canReadEpicWith,
 * canReadSnippet, canSeeInternalNotes, canReadCodeWith, canReadAlertsWith — so no list carries a
 * copy of it.
 */

import type { Permissions } from './permissions'
import type { Db } from '../db/connection'
import { findEpicById } from '../../modules/epics/queries'
import { assigneeIdsOf, findIssueById } from '../../modules/issues/queries'
import { findMergeRequestById } from '../../modules/merge-requests/queries'
import { findNamespaceById, findProjectById } from '../../modules/namespaces/queries'
import { findNoteById, NOTE_EVENT_TARGET_TYPES, type NoteRow } from '../../modules/notes/queries'
import type { ProjectRow } from '../db/rows'
import { findSnippetById } from '../../modules/snippets/queries'
import type { TodoRow } from '../../modules/todos/queries'
import { canReadCodeWith } from '../http/repository'
// Cycles with the families below are used at call time only.
import { ALERT_TARGET_TYPE, canReadAlertsWith } from '../../modules/alerts'
import { canReadEpicWith } from '../../modules/epics/service'
import { canReadIssuesWith, canUserReadIssue } from '../../modules/issues/policy'
import { canReadMergeRequestsWith } from '../../modules/merge-requests/service'
import { canSeeInternalNotes, type NoteContainer } from '../../modules/notes/service'
import { canReadSnippet } from '../../modules/snippets/policy'

/** Items a list may name by id: the noteable families. */
export type ReadableType = NoteRow['noteable_type']

/** What an activity event shows, as its list reads it. */
export interface EventTarget {
  readonly project_id: number | null
  readonly action: string
  readonly target_type: string | null
  readonly target_id: number | null
}

const NOTE_TARGETS: ReadonlySet<string> = new Set(NOTE_EVENT_TARGET_TYPES)

/**
 * Read answers for one caller, memoised: one instance serves one list, whose rows often name the
 * same project or item again.
 */
export class ReadableItems {
  private readonly answers = new Map<string, boolean>()
  private readonly projects = new Map<number, ProjectRow | undefined>()

  constructor(
    private readonly db: Db,
    private readonly perms: Permissions,
  ) {}

  /** The issue, merge request, epic or snippet with this id; false when it is gone. */
  item(type: ReadableType, id: number): boolean {
    return this.memo(`${type}:${id}`, () => this.readItem(type, id))
  }

  /** A note: its body (internal notes are for Reporters and above) and its noteable; false when it is gone. */
  note(id: number): boolean {
    return this.memo(`Note:${id}`, () => {
      const note = findNoteById(this.db, id)
      return note !== undefined && this.internalNoteReadable(note) && this.item(note.noteable_type, note.noteable_id)
    })
  }

  /** Whether a note's body is for the caller, whatever its noteable: a note that is gone hides nothing. */
  noteBody(id: number): boolean {
    const note = findNoteById(this.db, id)
    return note === undefined || this.internalNoteReadable(note)
  }

  /** The project itself (its visibility and the caller's membership). */
  project(id: number): boolean {
    const project = this.projectOf(id)
    return project !== undefined && this.perms.canReadProject(project)
  }

  /** The group itself. */
  group(id: number): boolean {
    return this.memo(`Group:${id}`, () => {
      const group = findNamespaceById(this.db, id)
      return group !== undefined && this.perms.canReadGroup(group)
    })
  }

  /**
   * An activity event of a readable project or group: what it names must be readable too — the
   * repository for pushes, the issue, epic or note (its noteable, and internal notes for Reporters),
   * the merge requests feature, and a milestone through the issues or merge requests feature
   * (GitLab's Event#visible_to_user?). Project events (created, joined, left) need nothing more.
   */
  event(e: EventTarget): boolean {
    const projectId = e.project_id
    if (e.action === 'pushed') return projectId === null || this.feature('code', projectId)
    if (e.target_id === null || e.target_type === null) return true
    if (NOTE_TARGETS.has(e.target_type)) return this.note(e.target_id)
    switch (e.target_type) {
      case 'Issue':
      case 'Epic':
        return this.item(e.target_type, e.target_id)
      case 'MergeRequest':
        return projectId === null || this.feature('merge_requests', projectId)
      case 'Milestone':
        return projectId === null || this.feature('issues', projectId) || this.feature('merge_requests', projectId)
      default:
        return true
    }
  }

  /**
   * A to-do of the caller: the project or group it belongs to, its target and the note it quotes
   * must all still be readable — a target made confidential, or a project the user left, hides it
   * (GitLab filters to-dos by their target's read permission).
   */
  todo(t: Pick<TodoRow, 'project_id' | 'group_id' | 'target_type' | 'target_id' | 'note_id'>): boolean {
    if (t.project_id !== null && !this.project(t.project_id)) return false
    if (t.group_id !== null && !this.group(t.group_id)) return false
    if (t.note_id !== null && !this.note(t.note_id)) return false
    switch (t.target_type) {
      case 'Issue':
      case 'MergeRequest':
      case 'Epic':
        return this.item(t.target_type, t.target_id)
      case ALERT_TARGET_TYPE:
        return t.project_id !== null && this.feature('alerts', t.project_id)
      case 'Commit':
        return t.project_id !== null && this.feature('code', t.project_id)
      default:
        return true
    }
  }

  private feature(name: 'issues' | 'merge_requests' | 'code' | 'alerts', projectId: number): boolean {
    return this.memo(`${name}:${projectId}`, () => {
      const project = this.projectOf(projectId)
      if (!project) return false
      switch (name) {
        case 'issues':
          return canReadIssuesWith(this.perms, project)
        case 'merge_requests':
          return canReadMergeRequestsWith(this.perms, project)
        case 'code':
          return canReadCodeWith(this.perms, project)
        case 'alerts':
          return canReadAlertsWith(this.perms, project)
      }
    })
  }

  private readItem(type: ReadableType, id: number): boolean {
    switch (type) {
      case 'Issue': {
        const issue = findIssueById(this.db, id)
        const project = issue ? this.projectOf(issue.project_id) : undefined
        if (!issue || !project) return false
        const assignees = issue.confidential === 1 ? (assigneeIdsOf(this.db, [issue.id]).get(issue.id) ?? []) : []
        return canUserReadIssue(this.perms, project, issue, assignees)
      }
      case 'MergeRequest': {
        const mr = findMergeRequestById(this.db, id)
        return mr !== undefined && this.feature('merge_requests', mr.project_id)
      }
      case 'Epic': {
        const epic = findEpicById(this.db, id)
        const group = epic ? findNamespaceById(this.db, epic.group_id) : undefined
        return epic !== undefined && group !== undefined && canReadEpicWith(this.perms, group, epic)
      }
      case 'Snippet': {
        const snippet = findSnippetById(this.db, id)
        const project = snippet?.project_id != null ? this.projectOf(snippet.project_id) : undefined
        return snippet !== undefined && project !== undefined && canReadSnippet(this.perms, project, snippet)
      }
    }
  }

  private internalNoteReadable(note: NoteRow): boolean {
    if (note.internal === 0) return true
    const container = this.containerOf(note)
    return container !== undefined && canSeeInternalNotes(this.perms, container)
  }

  private containerOf(note: NoteRow): NoteContainer | undefined {
    if (note.project_id !== null) {
      const project = this.projectOf(note.project_id)
      return project ? { kind: 'project', project } : undefined
    }
    const group = note.group_id !== null ? findNamespaceById(this.db, note.group_id) : undefined
    return group ? { kind: 'group', group } : undefined
  }

  private projectOf(id: number): ProjectRow | undefined {
    if (!this.projects.has(id)) this.projects.set(id, findProjectById(this.db, id))
    return this.projects.get(id)
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
