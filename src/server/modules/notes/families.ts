/**
 * The noteable families: what notes, discussions, award emoji of notes, references and system
 * notes know of issues, merge requests, snippets and epics. Each family fills these registries
 * (modules/index.ts registers them at startup); the notes module knows none of them by name.
 */
import type { Caller } from '../../platform/caller'
import type { Permissions } from '../../platform/auth/permissions'
import type { Db } from '../../platform/db/connection'
import type { NamespaceRow, ProjectRow } from '../../platform/db/rows'
import type { Noteable } from './service'
import type { SystemNoteTarget } from './system-notes'

interface NoteableKindOf<Parent extends 'projects' | 'groups', Row> {
  readonly parent: Parent
  readonly segment: 'issues' | 'merge_requests' | 'snippets' | 'epics'
  readonly param: 'issue_iid' | 'merge_request_iid' | 'snippet_id' | 'epic_id' | 'epic_iid'
  /** Refusals that come before the parent is looked up (sign-in, a feature switched off). */
  precheck?(caller: Caller): void
  /** The noteable `key` of the parent, which the caller may read; 404 when missing or unreadable. */
  find(caller: Caller, parent: Row, key: number): Noteable
  /** How award emoji routes of this family's notes name the noteable, when not as its notes routes do (epics: by iid). */
  readonly awardKind?: NoteableKindOf<Parent, Row>
}

/**
 * One family of noteables under `/<parent>/:id/<segment>/:<param>`: how to find the one named in
 * the URL once the route has loaded `:id`, the project or group.
 */
export type NoteableKind = NoteableKindOf<'projects', ProjectRow> | NoteableKindOf<'groups', NamespaceRow>

/**
 * A family whose URL names its noteable by a string found through git (a commit by SHA, branch or
 * tag under `/projects/:id/repository/commits/:sha`). GitLab gives such noteables discussions only
 * (no notes, award emoji or resource event routes), so only the discussions routes are built for it.
 */
export interface RefNoteableKind {
  readonly parent: 'projects'
  readonly segment: 'repository/commits'
  readonly param: 'sha'
  readonly byRef: true
  /** The noteable `ref` names in the project, which the caller may read; 404 when it names none. */
  find(caller: Caller, project: ProjectRow, ref: string): Promise<Noteable>
}

/** Any family the discussions routes serve. */
export type DiscussionKind = NoteableKind | RefNoteableKind

/** The items references name: `#5` issues, `!3` merge requests, `&2` epics. */
export type ReferableType = SystemNoteTarget['type']

/** The labels and milestone `/copy_metadata` copies from an item. */
export interface ItemMetadata {
  readonly labels: readonly string[]
  readonly milestoneId: number | null
}

/** How references (`#5`, `group/project!3`, `&2`) and system notes find and name a family's items. */
export interface ReferenceFamily {
  readonly type: ReferableType
  readonly sigil: '#' | '!' | '&'
  /** Where an iid is unique: in a project (issues, merge requests) or a group (epics). */
  readonly scope: 'project' | 'group'
  /** The item `iid` of the project or group when `reader` may read it, else null. */
  find(db: Db, parentId: number, iid: number, reader: Permissions): SystemNoteTarget | null
  /** The item with this id, or undefined when it is gone. */
  target(db: Db, id: number): SystemNoteTarget | undefined
  /** The item's kind as GitLab writes it before a reference (`issue`, `incident`, `merge request`, `epic`). */
  noun(db: Db, id: number): string
  /** Marks the item updated at `at` (a mention is news on the item it mentions). */
  touch(db: Db, id: number, at: string): void
  /** Labels and milestone, for families whose metadata other items copy (issues, merge requests). */
  metadata?(db: Db, id: number): ItemMetadata
}

const kinds: NoteableKind[] = []
const refKinds: RefNoteableKind[] = []
const references = new Map<ReferableType, ReferenceFamily>()

/** Adds a family to the notes and discussions routes (once; the routes are built from the list at startup). */
export function registerNoteableKind(kind: NoteableKind): void {
  if (!kinds.includes(kind)) kinds.push(kind)
}

/** The registered noteable families, in registration order. */
export function noteableKinds(): readonly NoteableKind[] {
  return kinds
}

/** Adds a family named by ref to the discussions routes (once; built at startup like the others). */
export function registerRefNoteableKind(kind: RefNoteableKind): void {
  if (!refKinds.includes(kind)) refKinds.push(kind)
}

/** The families the discussions routes serve: every noteable family, then those named by ref. */
export function discussionKinds(): readonly DiscussionKind[] {
  return [...kinds, ...refKinds]
}

/** Makes a family's items referable (once per type). */
export function registerReferenceFamily(family: ReferenceFamily): void {
  references.set(family.type, family)
}

/** The reference family of `type`; a type nobody registered is a programming error. */
export function referenceFamily(type: ReferableType): ReferenceFamily {
  const family = references.get(type)
  if (!family) throw new Error(`no reference family registered for ${type}`)
  return family
}

/** The family a reference sigil names, if one is registered. */
export function referenceFamilyOf(sigil: string): ReferenceFamily | undefined {
  return [...references.values()].find((f) => f.sigil === sigil)
}
