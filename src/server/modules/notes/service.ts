import { signedInUser, type Caller } from '../../platform/caller'
import { assertCanComment, assertCanDeleteNote, assertCanEditNote, canSeeInternalNotes, hasLevelIn } from './policy'
import { AccessLevel } from '../../platform/auth/access'
import { Permissions } from '../../platform/auth/permissions'
import { nowIso } from '../../platform/db/connection'
import {
  convertToThread,
  deleteNoteRow,
  discussionNotes,
  insertNote,
  listNotes,
  referencingSystemNotes,
  setResolved,
  updateNoteBody,
  type NoteableType,
  type NoteRow,
  type NoteScope,
  type NoteType,
  newDiscussionId,
  type DiffAnchor,
} from './queries'
import type { TextPosition } from './diff-position'
import type { NamespaceRow, ProjectRow, UserRow } from '../../platform/db/rows'
import { insertTodoRow, resolveTodosForTarget } from '../todos'
import { findUserByUsername, userRef } from '../users'
import type { CommandsChanges } from './entity'
import { eventNote } from './entity'
import { badRequest, forbidden, unauthorized } from '../../platform/http/errors'
import { recordEvent } from '../events'
import { findProjectWithNamespace } from '../../platform/db/platform-queries'
import { parseMentions } from '../../platform/text/mentions'
import type { ParsedQuickActions, QuickAction, QuickActionFollowUp, QuickActionParams } from '../quick-actions'
import { createCrossReferences, readableNotes, type SystemNoteTarget } from './system-notes'
import { checkNoteLength } from '../../platform/text/limits'

/** The result of running a note's quick actions on its noteable. */
export interface QuickActionOutcome {
  readonly changes: CommandsChanges
  /** One message per command, as GitLab's `summary` ("Added ~bug label."). */
  readonly messages: readonly string[]
  /** Repository work (`/merge`, `/rebase`, `/target_branch`) for `settleQuickActions` once the comment is saved. */
  readonly followUps?: readonly QuickActionFollowUp[]
}

/** A noteable family's quick actions, as a comment meets them. */
export interface QuickActionSet {
  /** The command lines of `text` this caller may run here, and the text without them. */
  extract(caller: Caller, text: string): ParsedQuickActions
  run(caller: Caller, actions: readonly QuickAction[], params: QuickActionParams): QuickActionOutcome
}

/** Where a noteable lives: a project (issues, merge requests, snippets) or a group (epics). */
export type NoteContainer =
  { readonly kind: 'project'; readonly project: ProjectRow } | { readonly kind: 'group'; readonly group: NamespaceRow }

/** The project_id / group_id a note, event or to-do of this container records. */
export function containerIds(container: NoteContainer): { projectId: number | null; groupId: number | null } {
  return container.kind === 'project'
    ? { projectId: container.project.id, groupId: null }
    : { projectId: null, groupId: container.group.id }
}

/**
 * Anything notes attach to: an issue, a merge request, a snippet, an epic. Each family supplies
 * one of these; notes, discussions, events and mention to-dos only see this shape.
 */
export interface Noteable {
  readonly type: NoteableType
  readonly id: number
  /** Issues, merge requests and epics have iids; snippets do not. */
  readonly iid: number | null
  readonly container: NoteContainer
  readonly title: string
  readonly webUrl: string
  readonly discussionLocked: boolean
  /** Whether the holder of these permissions may read the noteable (mention to-dos use other users' permissions). */
  canRead(perms: Permissions): boolean
  /** GitLab raises to-dos on issues, merge requests and epics, not on snippets. */
  readonly todoTarget: boolean
  /** Thread notes can be resolved (merge requests only, as in GitLab). */
  readonly resolvableThreads?: boolean
  /** Whether the caller may resolve threads here (the merge request's author or a Developer). */
  canResolve?(caller: Caller): boolean
  /**
   * Checks a diff note's text position against the noteable's diff (merge requests and commits):
   * the position as stored and the line code it names, or a 400 when it names no line of the
   * diff. `commitId` names the merge request commit the thread is started on (GitLab's `commit_id`).
   */
  checkDiffPosition?(caller: Caller, position: TextPosition, commitId?: string): Promise<CheckedPosition>
  /**
   * The commit noteables whose comments show in this noteable's discussions list (a merge
   * request's commits, as in GitLab); they are read and answered on their commit.
   */
  relatedCommitNoteables?(caller: Caller): Promise<readonly number[]>
  /** The family's quick actions on this noteable (none when the family has none). */
  readonly quickActions?: QuickActionSet
  /** Marks the noteable updated (notes touch their noteable, as in GitLab). */
  touch(caller: Caller, at: string): void
}

/** A diff note position a noteable accepted: as stored (line range ends completed) and the line code it names. */
export interface CheckedPosition {
  readonly position: TextPosition
  readonly lineCode: string
}

/** The web URL of a project noteables live in (their `web_url` starts with it). */
export function projectWebUrl(caller: Caller, project: ProjectRow): string {
  const p = findProjectWithNamespace(caller.db, project.id)
  return `${caller.baseUrl}/${p?.ns_full_path}/${project.path}`
}

/**
 * The notes of a noteable the caller may list: internal ones only for Reporters and above, and no
 * system note naming an item the caller may not read (readableNotes). Both are left out in the
 * query, so neither a page nor its counts show anything of them.
 */
export function readableNoteScope(caller: Caller, noteable: Noteable, system?: boolean): NoteScope {
  const scope: NoteScope = {
    noteableType: noteable.type,
    noteableId: noteable.id,
    includeInternal: canSeeInternalNotes(caller.perms, noteable.container),
    system,
  }
  const candidates = referencingSystemNotes(caller.db, scope)
  const readable = new Set(readableNotes(caller, candidates).map((n) => n.id))
  return { ...scope, hiddenIds: candidates.filter((n) => !readable.has(n.id)).map((n) => n.id) }
}

/** The order of a notes list: by creation or last update, `asc` or `desc`, id breaking ties. */
export interface NoteOrder {
  readonly by: 'created_at' | 'updated_at'
  readonly sort: 'asc' | 'desc'
}

/** One page of the notes of a noteable the caller may list (see readableNoteScope), with their total. */
export function readableNotesPage(
  caller: Caller,
  noteable: Noteable,
  filter: { readonly system?: boolean; readonly order: NoteOrder },
  page: { readonly limit: number; readonly offset: number },
): { rows: NoteRow[]; total: number } {
  return listNotes(caller.db, readableNoteScope(caller, noteable, filter.system), filter.order, page.limit, page.offset)
}

export interface NoteOptions {
  readonly createdAt?: string
  readonly internal?: boolean
  /** Start a thread (POST /discussions): the note is a DiscussionNote in a new discussion. */
  readonly thread?: boolean
  /** Reply to this existing discussion (its notes, oldest first). */
  readonly replyTo?: readonly NoteRow[]
  /** What the request carries for the note's quick actions besides its text. */
  readonly quickActionParams?: QuickActionParams
  /** False when the caller raises the mention to-dos itself (a review, in one batch). */
  readonly mentionTodos?: boolean
  /** Start a diff thread here (with `thread`): the note is a DiffNote anchored at this checked position. */
  readonly diff?: DiffAnchor
}

/** The anchor of a reply to `discussion`: a diff thread's replies are diff notes at its position, as in GitLab. */
function replyAnchor(discussion: readonly NoteRow[]): DiffAnchor | undefined {
  const first = discussion[0]
  if (first.type !== 'DiffNote' || first.position === null || first.line_code === null) return undefined
  return { position: first.position, lineCode: first.line_code, commitId: first.commit_id }
}

export type CreateNoteResult =
  | {
      readonly kind: 'note'
      readonly note: NoteRow
      readonly commandsChanges?: CommandsChanges
      readonly followUps?: readonly QuickActionFollowUp[]
    }
  /** The body held only quick actions: nothing saved, GitLab answers 202 with what they did. */
  | {
      readonly kind: 'commands'
      readonly commandsChanges: CommandsChanges
      readonly summary: readonly string[]
      readonly followUps?: readonly QuickActionFollowUp[]
    }

/**
 * Creates a comment, thread or reply: runs quick actions the caller may use (stripping them from
 * the body), honours created_at only for administrators and project owners (others' values are
 * ignored, as GitLab does), records a `commented` event and raises mention to-dos. A body over
 * GitLab's Note limit is a 400 before any quick action runs.
 */
export function createNote(
  caller: Caller,
  noteable: Noteable,
  rawBody: string,
  options: NoteOptions = {},
): CreateNoteResult {
  const db = caller.db
  const user = assertCanComment(caller, noteable)
  const internal = options.replyTo ? options.replyTo[0].internal === 1 : options.internal === true
  if (internal && !canSeeInternalNotes(caller.perms, noteable.container)) throw forbidden()
  checkNoteLength(rawBody)

  let body = rawBody
  let actions: readonly QuickAction[] = []
  const quickActions = noteable.quickActions
  const run = (): QuickActionOutcome | undefined =>
    quickActions && actions.length > 0 ? quickActions.run(caller, actions, options.quickActionParams ?? {}) : undefined
  if (quickActions) {
    const parsed = quickActions.extract(caller, rawBody)
    if (parsed.actions.length > 0) {
      actions = parsed.actions
      body = parsed.body
      if (body === '') {
        const outcome = run() as QuickActionOutcome
        return {
          kind: 'commands',
          commandsChanges: outcome.changes,
          summary: outcome.messages,
          followUps: outcome.followUps,
        }
      }
    }
  }
  if (body.trim() === '') throw badRequest(`Note {:note=>["can't be blank"]}`)

  const canBackdate = caller.perms.isAdmin || hasLevelIn(caller.perms, noteable.container, AccessLevel.OWNER)
  const where = containerIds(noteable.container)
  const now = nowIso()
  const createdAt = canBackdate && options.createdAt ? new Date(options.createdAt).toISOString() : now
  let type: NoteType = null
  let discussionId = newDiscussionId()
  const diff = options.replyTo ? replyAnchor(options.replyTo) : options.diff
  if (diff) type = 'DiffNote'
  else if (options.replyTo || options.thread) type = 'DiscussionNote'
  if (options.replyTo) discussionId = options.replyTo[0].discussion_id

  const note = db.transaction(() => {
    if (options.replyTo) convertToThread(db, discussionId, noteable.resolvableThreads === true)
    const row = insertNote(db, {
      noteableType: noteable.type,
      noteableId: noteable.id,
      projectId: where.projectId,
      groupId: where.groupId,
      authorId: user.id,
      body,
      type,
      discussionId,
      internal,
      resolvable: noteable.resolvableThreads === true && type !== null,
      diff,
      createdAt,
      updatedAt: createdAt,
    })
    noteable.touch(caller, now)
    if (noteable.todoTarget) resolveTodosForTarget(db, user.id, noteable.type, noteable.id)
    recordEvent(db, {
      authorId: user.id,
      action: 'commented',
      projectId: where.projectId,
      groupId: where.groupId,
      targetType: row.type ?? 'Note',
      targetId: row.id,
      targetTitle: noteable.title,
      note: eventNote(row, userRef(user, caller.baseUrl), noteable),
    })
    if (options.mentionTodos !== false) raiseMentionTodos(caller, noteable, row, user)
    const mentioner = mentionerOf(noteable)
    if (mentioner) createCrossReferences(db, { target: mentioner, noteId: row.id }, user.id, row.body)
    // The comment is saved before its commands run, as in GitLab: `/promote` copies it to the
    // epic with the other notes. A command that fails takes the comment back with it.
    const outcome = run()
    return { row, outcome }
  })()
  return { kind: 'note', note: note.row, commandsChanges: note.outcome?.changes, followUps: note.outcome?.followUps }
}

/**
 * Runs the repository work a comment's commands left for after it was saved (`/merge` merges
 * then), in command order, and folds what each did into the result the client gets.
 */
export async function settleQuickActions(result: CreateNoteResult): Promise<CreateNoteResult> {
  if (!result.followUps || result.followUps.length === 0) return result
  let changes: Record<string, unknown> = { ...(result.commandsChanges ?? {}) }
  const messages: string[] = []
  for (const followUp of result.followUps) {
    const done = await followUp()
    changes = { ...changes, ...done.changes }
    messages.push(...done.messages)
  }
  if (result.kind === 'commands')
    return { ...result, commandsChanges: changes, summary: [...result.summary, ...messages], followUps: [] }
  return { ...result, commandsChanges: changes, followUps: [] }
}

/** A user a note mentions who gets a to-do for it. */
interface MentionTodo {
  readonly userId: number
  readonly note: NoteRow
  readonly action: 'directly_addressed' | 'mentioned'
}

/**
 * The to-dos a note's mentions raise: 'directly_addressed' for users named before any other word,
 * 'mentioned' for the rest; never the author, nor a user who may not read the noteable or the note.
 */
function mentionTodosOf(caller: Caller, noteable: Noteable, note: NoteRow, author: UserRow): MentionTodo[] {
  if (!noteable.todoTarget) return []
  const db = caller.db
  const mentions = parseMentions(note.body)
  return mentions.all.flatMap((username) => {
    const user = findUserByUsername(db, username)
    if (!user || user.id === author.id || user.state !== 'active') return []
    const perms = new Permissions(db, user)
    if (!noteable.canRead(perms)) return []
    if (note.internal === 1 && !canSeeInternalNotes(perms, noteable.container)) return []
    return [{ userId: user.id, note, action: mentions.direct.includes(username) ? 'directly_addressed' : 'mentioned' }]
  })
}

function insertMentionTodo(caller: Caller, noteable: Noteable, author: UserRow, todo: MentionTodo): void {
  insertTodoRow(caller.db, {
    userId: todo.userId,
    authorId: author.id,
    ...containerIds(noteable.container),
    targetType: noteable.type,
    targetId: noteable.id,
    action: todo.action,
    body: todo.note.body,
    noteId: todo.note.id,
  })
}

function raiseMentionTodos(caller: Caller, noteable: Noteable, note: NoteRow, author: UserRow): void {
  for (const todo of mentionTodosOf(caller, noteable, note, author)) insertMentionTodo(caller, noteable, author, todo)
}

/**
 * The mention to-dos of a published review, as one batch: one to-do per user the review's notes
 * mention (created with `mentionTodos: false`), on the first note naming them, 'directly_addressed'
 * when any of them addresses the user directly.
 */
export function raiseReviewMentionTodos(
  caller: Caller,
  noteable: Noteable,
  notes: readonly NoteRow[],
  author: UserRow,
): void {
  const byUser = new Map<number, MentionTodo>()
  for (const todo of notes.flatMap((n) => mentionTodosOf(caller, noteable, n, author))) {
    const first = byUser.get(todo.userId)
    if (!first) byUser.set(todo.userId, todo)
    else if (todo.action === 'directly_addressed') byUser.set(todo.userId, { ...first, action: todo.action })
  }
  for (const todo of byUser.values()) insertMentionTodo(caller, noteable, author, todo)
}

/** readableNoteScope with the noteable's related commit notes (what its discussions list and shows). */
export async function readableDiscussionScope(caller: Caller, noteable: Noteable): Promise<NoteScope> {
  const related = (await noteable.relatedCommitNoteables?.(caller)) ?? []
  return { ...readableNoteScope(caller, noteable), relatedCommitIds: related }
}

/** The notes of a discussion of this noteable that the caller may see (empty when there is none). */
export function readableDiscussion(caller: Caller, noteable: Noteable, discussionId: string): NoteRow[] {
  return discussionNotes(caller.db, readableNoteScope(caller, noteable), discussionId.toLowerCase())
}

/**
 * What publishing a reply of a review does to its thread (GitLab's draft publish): resolved when
 * the draft asked for it and the caller may resolve threads here, unresolved otherwise.
 */
export function settleRepliedThread(caller: Caller, noteable: Noteable, discussionId: string, resolve: boolean): void {
  const user = signedInUser(caller)
  const by = resolve && noteable.canResolve?.(caller) ? { userId: user.id, at: nowIso() } : null
  setResolved(caller.db, { discussionId }, by)
}

/** Replaces a note's body (quick actions are not run again on edits that GitLab would not run). */
export function updateNote(caller: Caller, noteable: Noteable, note: NoteRow, body: string): NoteRow {
  assertCanEditNote(caller, note)
  if (body.trim() === '') throw badRequest(`Note {:note=>["can't be blank"]}`)
  checkNoteLength(body)
  const now = nowIso()
  const db = caller.db
  return db.transaction(() => {
    const row = updateNoteBody(db, note.id, body, now)
    noteable.touch(caller, now)
    const mentioner = mentionerOf(noteable)
    if (mentioner) createCrossReferences(db, { target: mentioner, noteId: row.id }, note.author_id, row.body, note.body)
    return row
  })()
}

/** The noteable as the item whose comments mention others (issues, merge requests and epics; not snippets or commits). */
function mentionerOf(noteable: Noteable): SystemNoteTarget | null {
  if (noteable.type === 'Snippet' || noteable.type === 'Commit' || noteable.iid === null) return null
  const where = containerIds(noteable.container)
  return { type: noteable.type, id: noteable.id, iid: noteable.iid, projectId: where.projectId, groupId: where.groupId }
}

/**
 * Resolves or unresolves a whole thread (`PUT …/discussions/:id?resolved=`) or one note of it
 * (`PUT …/notes/:note_id` with `resolved`): 403 for callers who may not resolve or a thread with
 * nothing resolvable, 400 for a note that is not resolvable (GitLab's answers).
 */
export function resolveNotes(
  caller: Caller,
  noteable: Noteable,
  notes: readonly NoteRow[],
  resolved: boolean,
  single: boolean,
): void {
  const user = caller.user
  if (!user) throw unauthorized()
  if (single && notes.every((n) => n.resolvable !== 1)) throw badRequest('Note is not resolvable')
  if (!noteable.canResolve?.(caller) || notes.every((n) => n.resolvable !== 1)) throw forbidden()
  const db = caller.db
  const by = resolved ? { userId: user.id, at: nowIso() } : null
  db.transaction(() => {
    setResolved(db, single ? { noteId: notes[0].id } : { discussionId: notes[0].discussion_id }, by)
    resolveTodosForTarget(db, user.id, noteable.type, noteable.id)
  })()
}

/** Deletes a note (its to-dos go with it through the foreign key). */
export function deleteNote(caller: Caller, noteable: Noteable, note: NoteRow): void {
  assertCanDeleteNote(caller, noteable, note)
  deleteNoteRow(caller.db, note.id)
  noteable.touch(caller, nowIso())
}
