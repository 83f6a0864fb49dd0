import type { Caller } from '../../platform/caller'
import { Permissions } from '../../platform/auth/permissions'
import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'
import type { EpicRow } from '../epics'
import type { IssueRow } from '../issues'
import type { MergeRequestRow } from '../merge-requests'
import { findNamespaceById, findProject, findProjectById, findNamespaceByFullPath } from '../namespaces'
import { insertNote, insertNoteCopies, newDiscussionId, noteBodiesOf, rewriteNoteBody, type NoteRow } from './queries'
import {
  copySystemNoteMetadata,
  crossReferenceExists,
  insertLabelEvent,
  insertMilestoneEvent,
  insertStateEvent,
  insertSystemNoteMetadata,
  systemNoteMetadataOf,
  type ResourceRef,
  type ResourceState,
  type StateSource,
} from '../resource-events'
import type { NamespaceRow, ProjectRow } from '../../platform/db/rows'
import { findUserById, usersByIds } from '../users'
import { ReadableItems } from '../../platform/auth/readable'
import { referenceFamily, referenceFamilyOf } from './families'

// ---------------------------------------------------------------------------------------------
// Targets and references.

/** The issue, merge request or epic a system note or resource event is recorded on. */
export interface SystemNoteTarget extends ResourceRef {
  readonly projectId: number | null
  readonly groupId: number | null
  readonly iid: number
}

/** An issue as a target. */
export function issueTarget(issue: Pick<IssueRow, 'id' | 'iid' | 'project_id'>): SystemNoteTarget {
  return { type: 'Issue', id: issue.id, iid: issue.iid, projectId: issue.project_id, groupId: null }
}

/** A merge request as a target. */
export function mergeRequestTarget(mr: Pick<MergeRequestRow, 'id' | 'iid' | 'project_id'>): SystemNoteTarget {
  return { type: 'MergeRequest', id: mr.id, iid: mr.iid, projectId: mr.project_id, groupId: null }
}

/** An epic as a target. */
export function epicTarget(epic: Pick<EpicRow, 'id' | 'iid' | 'group_id'>): SystemNoteTarget {
  return { type: 'Epic', id: epic.id, iid: epic.iid, projectId: null, groupId: epic.group_id }
}

/** Where a reference is written: inside a project or a group. */
export type ReferenceContext = { readonly projectId: number } | { readonly groupId: number }

/** Where a target's own references are written: its project, or its group. */
export function contextOf(t: SystemNoteTarget): ReferenceContext {
  return t.projectId !== null ? { projectId: t.projectId } : { groupId: t.groupId as number }
}

function projectPath(db: Db, projectId: number): { fullPath: string; path: string; namespaceId: number } {
  const project = findProjectById(db, projectId) as ProjectRow
  const ns = findNamespaceById(db, project.namespace_id)
  return { fullPath: `${ns?.full_path ?? ''}/${project.path}`, path: project.path, namespaceId: project.namespace_id }
}

/**
 * GitLab's `to_reference(from)` for `t` written inside `from`: `#5` / `!5` in its own project,
 * `project#5` from a sibling project or the project's own group, the full path otherwise; `&2` for an epic of the group (or
 * of the project's group), `group/path&2` elsewhere.
 */
export function referenceOf(db: Db, t: SystemNoteTarget, from: ReferenceContext): string {
  const { sigil, scope } = referenceFamily(t.type)
  if (scope === 'group') {
    const groupId = t.groupId as number
    const local =
      'groupId' in from ? from.groupId === groupId : findProjectById(db, from.projectId)?.namespace_id === groupId
    return local ? `${sigil}${t.iid}` : `${findNamespaceById(db, groupId)?.full_path ?? ''}${sigil}${t.iid}`
  }
  const projectId = t.projectId as number
  if ('projectId' in from && from.projectId === projectId) return `${sigil}${t.iid}`
  const path = projectPath(db, projectId)
  // From a sibling project, or from the group the project sits directly in, its path is enough.
  const near =
    'projectId' in from
      ? findProjectById(db, from.projectId)?.namespace_id === path.namespaceId
      : from.groupId === path.namespaceId
  return `${near ? path.path : path.fullPath}${sigil}${t.iid}`
}

/** GitLab's `gfm_reference`: the kind of item, then its reference (`issue #5`, `merge request !3`, `epic &2`). */
function gfmReference(db: Db, t: SystemNoteTarget, from: ReferenceContext): string {
  return `${referenceFamily(t.type).noun(db, t.id)} ${referenceOf(db, t, from)}`
}

/** An issue type as GitLab names it in notes: `issue`, `incident`, `test case`. */
export function issueNoun(issueType: string): string {
  return issueType.replace(/_/g, ' ')
}

// ---------------------------------------------------------------------------------------------
// Writing notes and events.

/** What a system note refers to that its readers must be able to see (a cross-reference's source, a linked issue). */
export interface NoteSource {
  readonly ref: ResourceRef
  /** The comment that mentioned the noteable, for cross-references from comments. */
  readonly noteId?: number | null
}

/**
 * Adds a system note: `system: true`, `type: null`, its own individual discussion, the actor as
 * author and the (possibly simulated) current time. No event, to-do or mention comes of it, and
 * it does not count as a user note.
 */
export function addSystemNote(
  db: Db,
  target: SystemNoteTarget,
  authorId: number,
  body: string,
  action: string,
  source?: NoteSource,
): NoteRow {
  const now = nowIso()
  const note = insertNote(db, {
    noteableType: target.type,
    noteableId: target.id,
    projectId: target.projectId,
    groupId: target.groupId,
    authorId,
    body,
    type: null,
    discussionId: newDiscussionId(),
    system: true,
    internal: false,
    createdAt: now,
    updatedAt: now,
  })
  insertSystemNoteMetadata(db, {
    note_id: note.id,
    action,
    source_type: source?.ref.type ?? null,
    source_id: source?.ref.id ?? null,
    source_note_id: source?.noteId ?? null,
  })
  return note
}

/** Records a state change as a resource state event (GitLab keeps no system note for it). */
export function recordStateEvent(
  db: Db,
  target: ResourceRef,
  userId: number,
  state: ResourceState,
  source: StateSource = {},
): void {
  insertStateEvent(db, target, userId, state, source, nowIso())
}

// ---------------------------------------------------------------------------------------------
// Texts.

/** Rails' `to_sentence`: `a`, `a and b`, `a, b, and c`. */
function toSentence(words: readonly string[]): string {
  if (words.length <= 2) return words.join(' and ')
  return `${words.slice(0, -1).join(', ')}, and ${words[words.length - 1]}`
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

/** `2024-01-05` → `January 5, 2024` (Ruby's `to_fs(:long)` for dates). */
function longDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number)
  return `${MONTHS[m - 1]} ${d}, ${y}`
}

/** `2024-01-05` → `Jan 5, 2024` (epic dates, `%b %-d, %Y`). */
function shortDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number)
  return `${MONTHS[m - 1].slice(0, 3)} ${d}, ${y}`
}

/**
 * The title change with GitLab's inline-diff markers: the part between the common prefix and
 * suffix is wrapped in `{-…-}` in the old title and `{+…+}` in the new one.
 */
export function titleChangeBody(oldTitle: string, newTitle: string): string {
  let prefix = 0
  while (prefix < oldTitle.length && prefix < newTitle.length && oldTitle[prefix] === newTitle[prefix]) prefix += 1
  let suffix = 0
  while (
    suffix < oldTitle.length - prefix &&
    suffix < newTitle.length - prefix &&
    oldTitle[oldTitle.length - 1 - suffix] === newTitle[newTitle.length - 1 - suffix]
  )
    suffix += 1
  const mark = (text: string, sign: '-' | '+'): string => {
    const middle = text.slice(prefix, text.length - suffix)
    return middle === '' ? text : `${text.slice(0, prefix)}{${sign}${middle}${sign}}${text.slice(text.length - suffix)}`
  }
  return `changed title from **${mark(oldTitle, '-')}** to **${mark(newTitle, '+')}**`
}

interface Task {
  readonly source: string
  readonly complete: boolean
}

const TASK = /^[ \t]*(?:[-*+]|\d+[.)])[ \t]+\[([ xX])\][ \t]+(.*\S)[ \t]*$/gm

function tasksOf(text: string | null): Task[] {
  return [...(text ?? '').matchAll(TASK)].map((m) => ({ source: m[2], complete: m[1] !== ' ' }))
}

/** Task-list items whose box was ticked or cleared (same position, same text), as GitLab's `updated_tasks`. */
export function updatedTasks(oldText: string | null, newText: string | null): Task[] {
  const before = tasksOf(oldText)
  return tasksOf(newText).filter(
    (task, i) => before[i] !== undefined && before[i].source === task.source && before[i].complete !== task.complete,
  )
}

function usernames(db: Db, ids: readonly number[]): string[] {
  const users = usersByIds(db, ids)
  return ids.map((id) => `@${users.get(id)?.username ?? 'ghost'}`)
}

function linkChangeBody(
  db: Db,
  before: readonly number[],
  after: readonly number[],
  added: string,
  removed: string,
): string | null {
  const gained = after.filter((id) => !before.includes(id))
  const lost = before.filter((id) => !after.includes(id))
  const parts: string[] = []
  if (gained.length > 0) parts.push(`${added} ${toSentence(usernames(db, gained))}`)
  if (lost.length > 0) parts.push(`${removed} ${toSentence(usernames(db, lost))}`)
  return parts.length === 0 ? null : parts.join(' and ')
}

const DRAFT = /^\s*(\[draft\]|\(draft\)|draft:|draft\s-\s|draft$)\s*/i

function withoutDraft(title: string): string {
  return title.replace(DRAFT, '')
}

// ---------------------------------------------------------------------------------------------
// Issuable changes: one diff of two snapshots taken in the same transaction as the change.

/** What a change to an issue, merge request or epic is compared on. */
export interface IssuableSnapshot {
  readonly title: string
  readonly description: string | null
  readonly state: string
  readonly confidential: boolean
  readonly discussionLocked: boolean
  readonly labelIds: readonly number[]
  readonly milestoneId: number | null
  readonly dueDate: string | null
  readonly weight: number | null
  readonly issueType: string | null
  readonly assigneeIds: readonly number[]
  readonly reviewerIds: readonly number[]
  readonly targetBranch: string | null
  readonly startDateFixed: string | null
  readonly dueDateFixed: string | null
  readonly parentId: number | null
}

/** A snapshot's fields left at their empty values, for families without them. */
export const EMPTY_SNAPSHOT: Omit<IssuableSnapshot, 'title' | 'description' | 'state'> = {
  confidential: false,
  discussionLocked: false,
  labelIds: [],
  milestoneId: null,
  dueDate: null,
  weight: null,
  issueType: null,
  assigneeIds: [],
  reviewerIds: [],
  targetBranch: null,
  startDateFixed: null,
  dueDateFixed: null,
  parentId: null,
}

/** How a change came about, when it changes how it is recorded. */
export interface ChangeOptions {
  /** A new item: only what GitLab records on creation (labels, milestone, due date, weight, parent). */
  readonly created?: boolean
  /** What closed or reopened it (a merge request closing an issue). */
  readonly stateSource?: StateSource
}

/**
 * Records what changed between two snapshots of one item, as GitLab's update services do:
 * system notes for title (and draft status), description or ticked tasks, confidentiality, the
 * discussion lock, due date, weight, type, assignees, reviewers, target branch, epic dates and
 * parent; resource events for labels, milestone and state. Call it inside the change's transaction.
 */
export function recordIssuableChanges(
  db: Db,
  target: SystemNoteTarget,
  actorId: number,
  before: IssuableSnapshot,
  after: IssuableSnapshot,
  options: ChangeOptions = {},
): void {
  const note = (body: string, action: string): void => void addSystemNote(db, target, actorId, body, action)
  const kind = target.type === 'MergeRequest' ? 'merge request' : target.type === 'Epic' ? 'epic' : 'issue'
  const noun = target.type === 'Issue' ? issueNoun(after.issueType ?? 'issue') : kind
  if (!options.created) {
    if (before.title !== after.title) {
      if (target.type === 'MergeRequest' && DRAFT.test(before.title) !== DRAFT.test(after.title)) {
        note(`marked this merge request as **${DRAFT.test(after.title) ? 'draft' : 'ready'}**`, 'title')
      }
      if (target.type !== 'MergeRequest' || withoutDraft(before.title) !== withoutDraft(after.title))
        note(titleChangeBody(before.title, after.title), 'title')
    }
    if ((before.description ?? '') !== (after.description ?? '')) {
      const tasks = updatedTasks(before.description, after.description)
      if (tasks.length > 0)
        for (const t of tasks)
          note(`marked the checklist item **${t.source}** as ${t.complete ? 'completed' : 'incomplete'}`, 'task')
      else note('changed the description', 'description')
    }
    if (before.confidential !== after.confidential) {
      note(
        after.confidential ? `made the ${noun} confidential` : `made the ${noun} visible to everyone`,
        after.confidential ? 'confidential' : 'visible',
      )
    }
    if (before.discussionLocked !== after.discussionLocked) {
      const action = after.discussionLocked ? 'locked' : 'unlocked'
      note(`${action} the discussion in this ${kind}`, action)
    }
    if (before.issueType !== after.issueType && before.issueType !== null && after.issueType !== null) {
      note(`changed type from ${issueNoun(before.issueType)} to ${issueNoun(after.issueType)}`, 'issue_type')
    }
  }
  if (before.dueDate !== after.dueDate) {
    note(
      after.dueDate !== null
        ? `changed due date to ${longDate(after.dueDate)}`
        : `removed due date ${longDate(before.dueDate as string)}`,
      'start_date_or_due_date',
    )
  }
  if (before.weight !== after.weight)
    note(after.weight !== null ? `changed weight to **${after.weight}**` : 'removed the weight', 'weight')
  for (const [field, label] of [
    ['startDateFixed', 'start date'],
    ['dueDateFixed', 'due date'],
  ] as const) {
    if (before[field] === after[field] || (options.created && after[field] === null)) continue
    const date = after[field]
    note(date !== null ? `changed ${label} to ${shortDate(date)}` : `removed the ${label}`, 'epic_date_changed')
  }
  const now = nowIso()
  if (before.milestoneId !== after.milestoneId) {
    const milestoneId = after.milestoneId ?? before.milestoneId
    if (milestoneId !== null)
      insertMilestoneEvent(
        db,
        target,
        milestoneId,
        actorId,
        after.milestoneId !== null ? 'add' : 'remove',
        after.state,
        now,
      )
  }
  for (const id of after.labelIds)
    if (!before.labelIds.includes(id)) insertLabelEvent(db, target, id, actorId, 'add', now)
  for (const id of before.labelIds)
    if (!after.labelIds.includes(id)) insertLabelEvent(db, target, id, actorId, 'remove', now)
  if (!options.created) {
    const assignees = linkChangeBody(db, before.assigneeIds, after.assigneeIds, 'assigned to', 'unassigned')
    if (assignees) note(assignees, 'assignee')
    const reviewers = linkChangeBody(
      db,
      before.reviewerIds,
      after.reviewerIds,
      'requested review from',
      'removed review request for',
    )
    if (reviewers) note(reviewers, 'reviewer')
    if (before.targetBranch !== after.targetBranch && before.targetBranch !== null && after.targetBranch !== null) {
      note(`changed target branch from \`${before.targetBranch}\` to \`${after.targetBranch}\``, 'branch')
    }
  }
  if (target.type === 'Epic' && before.parentId !== after.parentId)
    recordEpicParentChange(db, target, actorId, before.parentId, after.parentId)
  if (before.state !== after.state && !options.created) {
    const state: ResourceState = after.state === 'opened' ? 'reopened' : (after.state as ResourceState)
    recordStateEvent(db, target, actorId, state, options.stateSource)
  }
}

/**
 * What GitLab records when an item is created with metadata: label and milestone events, due
 * date, weight, epic dates and parent notes (no assignee or title notes), and the items its text
 * mentions.
 */
export function recordCreation(db: Db, target: SystemNoteTarget, actorId: number, after: IssuableSnapshot): void {
  const before: IssuableSnapshot = {
    ...after,
    ...EMPTY_SNAPSHOT,
    issueType: after.issueType,
    confidential: after.confidential,
    discussionLocked: after.discussionLocked,
  }
  recordIssuableChanges(db, target, actorId, before, after, { created: true })
  createCrossReferences(db, { target }, actorId, mentionableText(after))
}

/** The text whose references are cross-referenced: title and description, as GitLab's mentionable attributes. */
export function mentionableText(s: Pick<IssuableSnapshot, 'title' | 'description'>): string {
  return `${s.title}\n\n${s.description ?? ''}`
}

/**
 * `recordIssuableChanges` plus the cross-references a new title or description adds: the one
 * call an update makes once its change is written.
 */
export function recordUpdate(
  db: Db,
  target: SystemNoteTarget,
  actorId: number,
  before: IssuableSnapshot,
  after: IssuableSnapshot,
  options: ChangeOptions = {},
): void {
  recordIssuableChanges(db, target, actorId, before, after, options)
  if (before.title !== after.title || before.description !== after.description) {
    createCrossReferences(db, { target }, actorId, mentionableText(after), mentionableText(before))
  }
}

function recordEpicParentChange(
  db: Db,
  child: SystemNoteTarget,
  actorId: number,
  oldParentId: number | null,
  newParentId: number | null,
): void {
  for (const [parentId, added] of [
    [oldParentId, false],
    [newParentId, true],
  ] as const) {
    if (parentId === null) continue
    const parent = referenceFamily('Epic').target(db, parentId) as SystemNoteTarget
    const childRef = referenceOf(db, child, contextOf(parent))
    const parentRef = referenceOf(db, parent, contextOf(child))
    const action = added ? 'relate_epic' : 'unrelate_epic'
    addSystemNote(
      db,
      parent,
      actorId,
      added ? `added epic ${childRef} as child epic` : `removed child epic ${childRef}`,
      action,
      { ref: child },
    )
    addSystemNote(
      db,
      child,
      actorId,
      added ? `added epic ${parentRef} as parent epic` : `removed parent epic ${parentRef}`,
      action,
      { ref: parent },
    )
  }
}

// ---------------------------------------------------------------------------------------------
// Other notes the families write.

// ---------------------------------------------------------------------------------------------
// Cross-references ("mentioned in issue #3").

/** Something whose text can mention other items: an issue, merge request or epic, or a comment on one. */
export interface Mentioner {
  readonly target: SystemNoteTarget
  /** The comment whose body mentions, when it is a comment. */
  readonly noteId?: number | null
}

function withoutCode(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?(^\1[^\n]*$|(?![\s\S]))/gm, '').replace(/(`+)[\s\S]*?\1/g, '')
}

// `#12`, `!3`, `&2`, with an optional project (`project#12`, `group/project!3`) or group (`group/sub&2`) path.
const REFERENCE = /(?<![\w/&#!.-])(?:([A-Za-z0-9_.][\w.-]*(?:\/[A-Za-z0-9_.][\w.-]*)*))?([#!&])(\d+)\b/g

/** The items a text references that `reader` may see, resolved from where the text is written. */
export function referencedItems(db: Db, text: string, from: ReferenceContext, reader: Permissions): SystemNoteTarget[] {
  const out = new Map<string, SystemNoteTarget>()
  for (const m of withoutCode(text).matchAll(REFERENCE)) {
    const [, path, sigil, digits] = m
    const found = resolveReference(db, path, sigil, Number(digits), from, reader)
    if (found) out.set(`${found.type}:${found.id}`, found)
  }
  return [...out.values()]
}

/** The item `path` + `sigil` + `iid` names from `from`, when `reader` may see it. */
function resolveReference(
  db: Db,
  path: string | undefined,
  sigil: string,
  iid: number,
  from: ReferenceContext,
  reader: Permissions,
): SystemNoteTarget | null {
  const family = referenceFamilyOf(sigil)
  if (!family) return null
  const parentId = family.scope === 'project' ? referencedProjectId(db, path, from) : referencedGroupId(db, path, from)
  return parentId === undefined ? null : family.find(db, parentId, iid, reader)
}

/** The project of `path#5`: the text's own without a path, a sibling's for a bare name, else the full path's. */
function referencedProjectId(db: Db, path: string | undefined, from: ReferenceContext): number | undefined {
  let project: ProjectRow | undefined
  if (path === undefined) {
    if (!('projectId' in from)) return undefined
    project = findProjectById(db, from.projectId)
  } else if (path.includes('/')) {
    project = findProject(db, path)
  } else if ('projectId' in from) {
    const here = findProjectById(db, from.projectId)
    const ns = here ? findNamespaceById(db, here.namespace_id) : undefined
    project = ns ? findProject(db, `${ns.full_path}/${path}`) : undefined
  }
  return project?.id
}

/** The group of `path&2`: the full path's, else the text's group (or its project's group). */
function referencedGroupId(db: Db, path: string | undefined, from: ReferenceContext): number | undefined {
  let group: NamespaceRow | undefined
  if (path !== undefined) group = findNamespaceByFullPath(db, path)
  else if ('groupId' in from) group = findNamespaceById(db, from.groupId)
  else {
    const project = findProjectById(db, from.projectId)
    group = project ? findNamespaceById(db, project.namespace_id) : undefined
  }
  return group && group.kind === 'group' ? group.id : undefined
}

/**
 * Adds `mentioned in …` to every item `text` references that its author may see, once per
 * mentioning item (GitLab's cross_reference_exists?), never on the mentioner itself. With
 * `previousText` (an edit), only references the edit added count.
 */
export function createCrossReferences(
  db: Db,
  mentioner: Mentioner,
  authorId: number,
  text: string | null,
  previousText: string | null = null,
): void {
  if (!text) return
  const author = findUserById(db, authorId)
  if (!author) return
  const reader = new Permissions(db, author)
  const from = contextOf(mentioner.target)
  const earlier = new Set(
    previousText ? referencedItems(db, previousText, from, reader).map((t) => `${t.type}:${t.id}`) : [],
  )
  for (const target of referencedItems(db, text, from, reader)) {
    if (earlier.has(`${target.type}:${target.id}`)) continue
    if (target.type === mentioner.target.type && target.id === mentioner.target.id) continue
    if (crossReferenceExists(db, target, mentioner.target)) continue
    addSystemNote(
      db,
      target,
      authorId,
      `mentioned in ${gfmReference(db, mentioner.target, contextOf(target))}`,
      'cross_reference',
      { ref: mentioner.target, noteId: mentioner.noteId ?? null },
    )
    // A mention is news on the mentioned item: it moves up in "recently updated" and syncs.
    referenceFamily(target.type).touch(db, target.id, nowIso())
  }
}

/** Where the text's code blocks and code spans are, which hold no references. */
function codeRanges(text: string): [number, number][] {
  const ranges: [number, number][] = []
  for (const m of text.matchAll(/^(```|~~~)[^\n]*\n[\s\S]*?(^\1[^\n]*$|(?![\s\S]))/gm))
    ranges.push([m.index, m.index + m[0].length])
  const inFence = (i: number) => ranges.some(([a, b]) => i >= a && i < b)
  for (const m of text.matchAll(/(`+)[\s\S]*?\1/g)) if (!inFence(m.index)) ranges.push([m.index, m.index + m[0].length])
  return ranges
}

/**
 * GitLab's ReferenceRewriter: the references `text` makes from `from`, written again as seen from
 * `to`, so a note copied to another project or to an epic still points at the same items (`#2`
 * becomes `app#2`). References `reader` cannot see, unknown ones and code stay as they are.
 */
export function rewriteReferences(
  db: Db,
  text: string,
  from: ReferenceContext,
  to: ReferenceContext,
  reader: Permissions,
): string {
  const code = codeRanges(text)
  return text.replace(
    REFERENCE,
    (match: string, path: string | undefined, sigil: string, digits: string, offset: number) => {
      if (code.some(([a, b]) => offset >= a && offset < b)) return match
      const found = resolveReference(db, path, sigil, Number(digits), from, reader)
      return found ? referenceOf(db, found, to) : match
    },
  )
}

/**
 * Copies a noteable's notes to another (move, clone, promotion), as GitLab's Notes::CopyService
 * does: the copies go to the end of `to` in the originals' order, each thread with a fresh
 * discussion id; each copy gets its original's system note metadata, and its references are
 * rewritten for its new place.
 */
export function copyNotes(db: Db, from: SystemNoteTarget, to: SystemNoteTarget, reader: Permissions): void {
  insertNoteCopies(db, from, to)
  copySystemNoteMetadata(db, from, to)
  const originals = noteBodiesOf(db, from.type, from.id)
  const copies = noteBodiesOf(db, to.type, to.id)
  const fromContext = contextOf(from)
  const toContext = contextOf(to)
  copies.slice(copies.length - originals.length).forEach((copy) => {
    const body = rewriteReferences(db, copy.body, fromContext, toContext, reader)
    if (body !== copy.body) rewriteNoteBody(db, copy.id, body)
  })
}

// ---------------------------------------------------------------------------------------------
// Reading: system notes whose source the reader cannot see are left out.

/**
 * The notes the caller may read: system notes that name an item (a cross-reference's source, a
 * moved or linked issue) the caller cannot see are left out, as GitLab's `readable_by?` does —
 * so a confidential issue mentioning a public one stays unknown to that issue's other readers.
 */
export function readableNotes<T extends NoteRow>(caller: Caller, rows: readonly T[]): T[] {
  const system = rows.filter((r) => r.system === 1).map((r) => r.id)
  if (system.length === 0) return [...rows]
  const meta = systemNoteMetadataOf(caller.db, system)
  const readable = new ReadableItems(caller.db, caller.perms)
  return rows.filter((r) => {
    const m = meta.get(r.id)
    if (!m || m.source_type === null || m.source_id === null) return true
    return (
      readable.item(m.source_type, m.source_id) && (m.source_note_id === null || readable.noteBody(m.source_note_id))
    )
  })
}
