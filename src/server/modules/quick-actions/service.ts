/**
 * Quick actions: `/command args` lines in notes. The parser is pure (no database); the executor
 * applies the commands to an issue through services/issues.ts with the caller's permissions.
 */

import type { Caller } from '../../platform/caller'
import { AccessLevel } from '../../platform/auth/access'
import { type EpicRow, findEpicById, findEpicByIid, findEpicIssueByIssue } from '../epics/queries'
import {
  assigneeIdsOf,
  findIssueById,
  HEALTH_STATUSES,
  labelsOf,
  updateIssueRow,
  type HealthStatus,
  type IssueRow,
} from '../issues/queries'
import { findMilestoneTitle } from '../milestones/queries'
import {
  findNamespaceByFullPath,
  findNamespaceById,
  findProject,
  findProjectById,
  namespaceAncestors,
} from '../namespaces'
import { resolveTodosForTarget } from '../todos/queries'
import type { NamespaceRow, ProjectRow, UserRow } from '../../platform/db/rows'
import { findUserByUsername } from '../users'
import { canAdminEpics, canReadEpicWith, promoteIssueToEpic, setIssueEpic, updateEpic } from '../epics/service'
import {
  approvalsOf,
  findMergeRequestById,
  labelsOf as mergeRequestLabelsOf,
  updateMergeRequestRow,
  userLinksOf,
  type MergeRequestRow,
} from '../merge-requests/queries'
import { isDraftTitle } from '../merge-requests/entity'
import { ApiError } from '../../platform/http/errors'
import { toggleAward } from '../award-emoji/routes'
import {
  applyMergeRequestUpdate,
  approveMergeRequest,
  canApproveMergeRequest,
  participantIds,
  unapproveMergeRequest,
  updateMergeRequest,
  type MergeRequestInput,
} from '../merge-requests/service'
import {
  addSpentTime,
  canAdminIssues,
  cloneIssue,
  moveIssue,
  requireIssuesFeature,
  resetSpentTime,
  setTimeEstimate,
  updateIssue,
  type IssueChanges,
} from '../issues/service'
import { startRebase } from '../merge-requests/merge'
import { availableMergeStrategy, mergeOrSchedule } from '../merge-requests/merge-orchestration'
import { queueMergeabilityCheck } from '../merge-requests/mergeability'
import { canPushToBranch, listProtectedBranches } from '../branches'
import { isSubscribed, subscribe, unsubscribe } from '../subscriptions/service'
import { addSystemNote, issueTarget, referencedItems, referenceOf, type SystemNoteTarget } from '../notes/system-notes'
import { createTodo, pendingTodoFor } from '../todos/service'
import { humanDuration, parseHumanDuration } from '../time-tracking/service'

export type QuickActionName =
  | 'label'
  | 'unlabel'
  | 'relabel'
  | 'assign'
  | 'unassign'
  | 'reassign'
  | 'close'
  | 'reopen'
  | 'estimate'
  | 'remove_estimate'
  | 'spend'
  | 'remove_time_spent'
  | 'milestone'
  | 'remove_milestone'
  | 'due'
  | 'remove_due_date'
  | 'promote'
  | 'title'
  | 'confidential'
  | 'lock'
  | 'unlock'
  | 'epic'
  | 'remove_epic'
  | 'parent_epic'
  | 'remove_parent_epic'
  | 'child_epic'
  | 'remove_child_epic'
  | 'assign_reviewer'
  | 'unassign_reviewer'
  | 'draft'
  | 'ready'
  | 'approve'
  | 'unapprove'
  | 'merge'
  | 'rebase'
  | 'target_branch'
  | 'todo'
  | 'done'
  | 'subscribe'
  | 'unsubscribe'
  | 'award'
  | 'copy_metadata'
  | 'weight'
  | 'clear_weight'
  | 'health_status'
  | 'clear_health_status'
  | 'duplicate'
  | 'move'
  | 'clone'

/** Command names and their aliases, as GitLab spells them. */
const ALIASES: Readonly<Record<string, QuickActionName>> = {
  label: 'label',
  labels: 'label',
  unlabel: 'unlabel',
  remove_label: 'unlabel',
  relabel: 'relabel',
  assign: 'assign',
  unassign: 'unassign',
  reassign: 'reassign',
  close: 'close',
  reopen: 'reopen',
  estimate: 'estimate',
  estimate_time: 'estimate',
  remove_estimate: 'remove_estimate',
  remove_time_estimate: 'remove_estimate',
  spend: 'spend',
  spent: 'spend',
  spend_time: 'spend',
  remove_time_spent: 'remove_time_spent',
  milestone: 'milestone',
  remove_milestone: 'remove_milestone',
  due: 'due',
  remove_due_date: 'remove_due_date',
  promote: 'promote',
  title: 'title',
  confidential: 'confidential',
  lock: 'lock',
  unlock: 'unlock',
  epic: 'epic',
  set_epic: 'epic',
  remove_epic: 'remove_epic',
  parent_epic: 'parent_epic',
  set_parent_epic: 'parent_epic',
  remove_parent_epic: 'remove_parent_epic',
  child_epic: 'child_epic',
  remove_child_epic: 'remove_child_epic',
  assign_reviewer: 'assign_reviewer',
  reviewer: 'assign_reviewer',
  request_review: 'assign_reviewer',
  unassign_reviewer: 'unassign_reviewer',
  remove_reviewer: 'unassign_reviewer',
  draft: 'draft',
  ready: 'ready',
  approve: 'approve',
  unapprove: 'unapprove',
  merge: 'merge',
  rebase: 'rebase',
  target_branch: 'target_branch',
  todo: 'todo',
  done: 'done',
  subscribe: 'subscribe',
  unsubscribe: 'unsubscribe',
  award: 'award',
  react: 'award',
  copy_metadata: 'copy_metadata',
  weight: 'weight',
  clear_weight: 'clear_weight',
  health_status: 'health_status',
  clear_health_status: 'clear_health_status',
  duplicate: 'duplicate',
  move: 'move',
  clone: 'clone',
}

/** Commands of merge requests only (never offered on issues). */
const MERGE_REQUEST_ONLY: ReadonlySet<QuickActionName> = new Set<QuickActionName>([
  'assign_reviewer',
  'unassign_reviewer',
  'draft',
  'ready',
  'approve',
  'unapprove',
  'merge',
  'rebase',
  'target_branch',
])

/** Commands of epics only (never offered on issues). */
const EPIC_ONLY: ReadonlySet<QuickActionName> = new Set<QuickActionName>([
  'parent_epic',
  'remove_parent_epic',
  'child_epic',
  'remove_child_epic',
])

export interface QuickAction {
  readonly name: QuickActionName
  /** The text after the command name, trimmed ('' when none). */
  readonly arg: string
}

export interface ParsedQuickActions {
  /** The text with the extracted command lines removed. */
  readonly body: string
  readonly actions: readonly QuickAction[]
}

const COMMAND_LINE = /^\/([a-z_]+)(?:[ \t]+(.*))?$/

/**
 * Extracts command lines: a line that starts with `/name` where `name` is a known command that
 * `available` admits. Lines inside fenced code blocks or block quotes stay text, and so do
 * commands the caller may not use (GitLab leaves unavailable commands in the note).
 */
export function parseQuickActions(
  text: string,
  available: (name: QuickActionName) => boolean = () => true,
): ParsedQuickActions {
  const kept: string[] = []
  const actions: QuickAction[] = []
  let fence: string | null = null
  for (const line of text.split('\n')) {
    const fenceMatch = /^\s*(```|~~~)/.exec(line)
    if (fenceMatch) {
      if (fence === null) fence = fenceMatch[1]
      else if (fence === fenceMatch[1]) fence = null
      kept.push(line)
      continue
    }
    const m = fence === null ? COMMAND_LINE.exec(line.replace(/\r$/, '')) : null
    const name = m ? ALIASES[m[1]] : undefined
    if (m && name && available(name)) {
      actions.push({ name, arg: (m[2] ?? '').trim() })
      continue
    }
    kept.push(line)
  }
  return { body: kept.join('\n').trim(), actions }
}

/**
 * Label names of a `/label` argument: `~a ~"b c" ~scoped::x` or bare words, without duplicates.
 */
export function parseLabelArg(arg: string): string[] {
  const names: string[] = []
  const re = /~"([^"]+)"|~(\S+)|"([^"]+)"|(\S+)/g
  for (const m of arg.matchAll(re)) {
    const name = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').trim()
    if (name && !names.includes(name)) names.push(name)
  }
  return names
}

/** Usernames of an `/assign` argument (`@a @b`, `a, b`, `me`), lowercased, `me` kept as is. */
export function parseUsersArg(arg: string): string[] {
  const names: string[] = []
  for (const part of arg.split(/[\s,]+/)) {
    const name = part.replace(/^@/, '').toLowerCase()
    if (name && !names.includes(name)) names.push(name)
  }
  return names
}

/** The milestone title of `/milestone %"m 1"`, `%m1` or a bare title. */
export function parseMilestoneArg(arg: string): string {
  const m = /^%"([^"]+)"$/.exec(arg) ?? /^%(\S+)$/.exec(arg)
  return (m ? m[1] : arg.replace(/^"|"$/g, '')).trim()
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']

function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10)
}

function addDays(d: Date, n: number): Date {
  const out = new Date(d)
  out.setUTCDate(out.getUTCDate() + n)
  return out
}

/**
 * A `/due` date: `YYYY-MM-DD`, `today`, `tomorrow`, `yesterday`, `in N days|weeks|months`,
 * `next week|month`, a weekday name (`friday`, `next friday`). Null when not understood
 * (GitLab's natural-language parser accepts more; these are the forms in its docs).
 */
export function parseDueDate(arg: string, today: Date = new Date()): string | null {
  const text = arg.trim().toLowerCase()
  const base = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()))
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (iso) {
    const d = new Date(Date.UTC(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3])))
    return Number.isNaN(d.getTime()) || isoDay(d) !== text ? null : text
  }
  if (text === 'today') return isoDay(base)
  if (text === 'tomorrow') return isoDay(addDays(base, 1))
  if (text === 'yesterday') return isoDay(addDays(base, -1))
  if (text === 'next week') return isoDay(addDays(base, 7))
  if (text === 'next month') {
    const d = new Date(base)
    d.setUTCMonth(d.getUTCMonth() + 1)
    return isoDay(d)
  }
  const rel = /^in (\d+) (day|week|month)s?$/.exec(text)
  if (rel) {
    const n = Number(rel[1])
    if (rel[2] === 'day') return isoDay(addDays(base, n))
    if (rel[2] === 'week') return isoDay(addDays(base, 7 * n))
    const d = new Date(base)
    d.setUTCMonth(d.getUTCMonth() + n)
    return isoDay(d)
  }
  const wd = /^(next )?([a-z]+)$/.exec(text)
  if (wd && WEEKDAYS.includes(wd[2])) {
    // Both `friday` and `next friday` mean the first Friday after today.
    const delta = (WEEKDAYS.indexOf(wd[2]) - base.getUTCDay() + 7) % 7 || 7
    return isoDay(addDays(base, delta))
  }
  return null
}

/** `/spend 1h30m [YYYY-MM-DD]`: the duration text and the optional date. */
export function parseSpendArg(arg: string): { readonly duration: string; readonly date: string | null } {
  const m = /^(.*?)(?:\s+(\d{4}-\d{2}-\d{2}))?$/.exec(arg.trim())
  return { duration: (m?.[1] ?? '').trim(), date: m?.[2] ?? null }
}

// ---------------------------------------------------------------------------------------------
// Executor for issues: turns parsed commands into one updateIssue call plus time tracking.

export interface QuickActionResult {
  /** GitLab's commands_changes: what the commands set, keyed as GitLab keys them. */
  readonly changes: Readonly<Record<string, unknown>>
  /** GitLab's summary: one message per command. */
  readonly messages: readonly string[]
  /** Repository work to run, in order, once the comment's transaction has committed. */
  readonly followUps?: readonly QuickActionFollowUp[]
}

/**
 * Work a command cannot do inside the comment's transaction because it needs the repository
 * (`/merge`, `/rebase`, `/target_branch`): it runs after the commit and reports what it did.
 */
export type QuickActionFollowUp = () => Promise<Pick<QuickActionResult, 'changes' | 'messages'>>

/** What the note request carries for the commands besides its text (GitLab's notes API parameters). */
export interface QuickActionParams {
  /** `merge_request_diff_head_sha`: `/merge` merges only this head, so a push in between stops it. */
  readonly diffHeadSha?: string
}

const ISSUE_ADMIN_COMMANDS: ReadonlySet<QuickActionName> = new Set<QuickActionName>([
  'weight',
  'clear_weight',
  'health_status',
  'clear_health_status',
  'duplicate',
  'copy_metadata',
  'move',
  'clone',
])

/** The to-do, subscription and reaction commands: offered to anyone who may comment, when they change something. */
function personalCommandAvailable(
  caller: Caller,
  type: 'Issue' | 'MergeRequest',
  id: number,
  participants: readonly number[],
  name: QuickActionName,
): boolean | undefined {
  const db = caller.db
  const userId = caller.user?.id ?? null
  if (userId === null) return undefined
  switch (name) {
    case 'todo':
      return pendingTodoFor(db, userId, type, id) === undefined
    case 'done':
      return pendingTodoFor(db, userId, type, id) !== undefined
    case 'subscribe':
      return !isSubscribed(db, type, id, userId, participants)
    case 'unsubscribe':
      return isSubscribed(db, type, id, userId, participants)
    case 'award':
      return true
    default:
      return undefined
  }
}

/** GitLab's `:emoji:` argument of `/award`; null when it is not one. */
export function parseEmojiArg(arg: string): string | null {
  const m = /^:([a-z0-9_+-]{1,64}):$/.exec(arg.trim())
  return m ? m[1] : null
}

/**
 * Applies the to-do, subscription and reaction commands (shared by issues and merge requests):
 * each adds its change and message and queues its write for the transaction's end, after the
 * metadata update (which marks the actor's to-dos done, as acting on an item does).
 */
function personalCommand(
  caller: Caller,
  target: {
    readonly type: 'Issue' | 'MergeRequest'
    readonly id: number
    readonly projectId: number
    readonly title: string
  },
  action: QuickAction,
  out: { changes: Record<string, unknown>; messages: string[]; steps: (() => void)[]; last: (() => void)[] },
): void {
  const db = caller.db
  const user = caller.user
  if (!user) return
  switch (action.name) {
    // After every other write: reacting or editing marks the actor's to-dos done, as in GitLab.
    case 'todo':
      out.last.push(() => {
        if (!pendingTodoFor(db, user.id, target.type, target.id)) {
          createTodo(db, {
            userId: user.id,
            authorId: user.id,
            projectId: target.projectId,
            targetType: target.type,
            targetId: target.id,
            action: 'marked',
            body: target.title,
          })
        }
      })
      out.changes.todo_event = 'add'
      out.messages.push('Added a to-do item.')
      break
    case 'done':
      out.steps.push(() => void resolveTodosForTarget(db, user.id, target.type, target.id))
      out.changes.todo_event = 'done'
      out.messages.push('Marked to-do item as done.')
      break
    case 'subscribe':
    case 'unsubscribe':
      out.steps.push(() =>
        (action.name === 'subscribe' ? subscribe : unsubscribe)(db, target.type, target.id, user.id, target.projectId),
      )
      out.changes.subscription_event = action.name
      out.messages.push(
        action.name === 'subscribe' ? 'Subscribed to notifications.' : 'Unsubscribed from notifications.',
      )
      break
    case 'award': {
      const name = parseEmojiArg(action.arg)
      if (!name) break
      out.steps.push(() => void toggleAward(db, { type: target.type, id: target.id }, user.id, name))
      out.changes.emoji_award = name
      out.messages.push(`Toggled :${name}: emoji reaction.`)
      break
    }
    default:
      break
  }
}

/** An issue or merge request an argument names: `#5`, `!3`, `path/to/project#5`, or its URL. */
function referencedIssuable(caller: Caller, project: ProjectRow, arg: string): SystemNoteTarget | undefined {
  const text = arg.trim()
  const url = /^(?:https?:\/\/[^/]+)?\/(.+?)\/-\/(issues|merge_requests)\/(\d+)\/?$/.exec(text)
  const reference = url ? `${url[1]}${url[2] === 'issues' ? '#' : '!'}${url[3]}` : text
  if (!/^[\w.\-/]*[#!]\d+$/.test(reference)) return undefined
  return referencedItems(caller.db, reference, { projectId: project.id }, caller.perms)[0]
}

/**
 * `/copy_metadata`: the labels and milestone of an issue or merge request of the same project
 * (GitLab copies only within one), or undefined.
 */
function metadataSource(
  caller: Caller,
  project: ProjectRow,
  arg: string,
): { labels: string[]; milestoneId: number | null; reference: string } | undefined {
  const db = caller.db
  const source = referencedIssuable(caller, project, arg)
  if (!source || source.projectId !== project.id) return undefined
  if (source.type === 'Issue') {
    const row = findIssueById(db, source.id) as IssueRow
    return {
      labels: (labelsOf(db, [row.id]).get(row.id) ?? []).map((l) => l.title),
      milestoneId: row.milestone_id,
      reference: `#${row.iid}`,
    }
  }
  const row = findMergeRequestById(db, source.id) as MergeRequestRow
  return {
    labels: (mergeRequestLabelsOf(db, [row.id]).get(row.id) ?? []).map((l) => l.title),
    milestoneId: row.milestone_id,
    reference: `!${row.iid}`,
  }
}

/** The project `/move` or `/clone` names, when the caller can see it and file issues there; else why not. */
function copyTarget(caller: Caller, path: string, verb: 'move' | 'clone'): ProjectRow | string {
  const project = findProject(caller.db, path)
  const missing = `Unable to ${verb}. Target project or group doesn't exist or doesn't support this item type.`
  if (!project || !caller.perms.canReadProject(project) || project.archived === 1) return missing
  try {
    requireIssuesFeature(caller, project)
  } catch {
    return missing
  }
  return canAdminIssues(caller, project) ? project : `Unable to ${verb}. Insufficient permissions.`
}

const ADMIN_COMMANDS: ReadonlySet<QuickActionName> = new Set<QuickActionName>([
  'label',
  'unlabel',
  'relabel',
  'assign',
  'unassign',
  'reassign',
  'milestone',
  'remove_milestone',
  'due',
  'remove_due_date',
  'estimate',
  'remove_estimate',
  'spend',
  'remove_time_spent',
  'lock',
  'unlock',
  'confidential',
  'promote',
  'epic',
  'remove_epic',
])

function epicsAvailableFor(caller: Caller, project: ProjectRow): boolean {
  return (
    caller.ctx.settings.get('epics_enabled') === true &&
    findNamespaceById(caller.db, project.namespace_id)?.kind === 'group'
  )
}

/**
 * Whether the caller may run this command on the issue now (GitLab offers a command only when
 * it applies: /close on an open issue, /unlabel when labelled…). Metadata commands need Reporter;
 * /close, /reopen and /title also suit the issue's author. /promote is offered to Reporters
 * everywhere, so that a personal project or missing group rights answer GitLab's promotion error
 * instead of leaving the command in the text.
 */
export function issueCommandAvailable(
  caller: Caller,
  project: ProjectRow,
  issue: IssueRow,
  name: QuickActionName,
): boolean {
  const user = caller.user
  if (!user) return false
  const admin = caller.perms.canInProject(project, AccessLevel.REPORTER)
  const canUpdate = admin || user.id === issue.author_id
  if (EPIC_ONLY.has(name) || MERGE_REQUEST_ONLY.has(name)) return false
  if ((ADMIN_COMMANDS.has(name) || ISSUE_ADMIN_COMMANDS.has(name)) && !admin) return false
  const personal = personalCommandAvailable(
    caller,
    'Issue',
    issue.id,
    [issue.author_id, ...(assigneeIdsOf(caller.db, [issue.id]).get(issue.id) ?? [])],
    name,
  )
  if (personal !== undefined) return personal
  switch (name) {
    // Epics are offered in group projects while the feature is on, as GitLab does.
    case 'epic':
      return epicsAvailableFor(caller, project)
    case 'remove_epic':
      return epicsAvailableFor(caller, project) && findEpicIssueByIssue(caller.db, issue.id) !== undefined
    case 'close':
      return canUpdate && issue.state === 'opened'
    case 'reopen':
      return canUpdate && issue.state === 'closed'
    case 'title':
      return canUpdate
    case 'remove_milestone':
      return issue.milestone_id !== null
    case 'remove_due_date':
      return issue.due_date !== null
    case 'remove_estimate':
      return issue.time_estimate > 0
    case 'confidential':
      return issue.confidential === 0
    case 'lock':
      return issue.discussion_locked !== 1
    case 'unlock':
      return issue.discussion_locked === 1
    case 'clear_weight':
      return issue.weight !== null
    case 'clear_health_status':
      return issue.health_status !== null
    // A moved issue is closed for good: GitLab offers neither command on it.
    case 'move':
    case 'clone':
      return issue.moved_to_id === null
    default:
      return true
  }
}

function groupChain(caller: Caller, project: ProjectRow): number[] {
  const db = caller.db
  const ns = findNamespaceById(db, project.namespace_id)
  return ns && ns.kind === 'group' ? [ns.id, ...namespaceAncestors(db, ns.id).map((g) => g.id)] : []
}

function userIdsOf(caller: Caller, arg: string): { ids: number[]; names: string[] } {
  const ids: number[] = []
  const names: string[] = []
  for (const name of parseUsersArg(arg)) {
    const user = name === 'me' ? caller.user : findUserByUsername(caller.db, name)
    if (user && !ids.includes(user.id)) {
      ids.push(user.id)
      names.push(`@${user.username}`)
    }
  }
  return { ids, names }
}

function labelRefs(names: readonly string[]): string {
  return names.map((n) => (/\s/.test(n) ? `~"${n}"` : `~${n}`)).join(' ')
}

/** Ids of the item's labels (as they are after the update, when new ones exist) that `names` names, as GitLab reports labels. */
function labelIdsNamed(names: unknown, labels: readonly { readonly id: number; readonly title: string }[]): number[] {
  const wanted = new Set((names as string[]).map((n) => n.toLowerCase()))
  return labels.filter((l) => wanted.has(l.title.toLowerCase())).map((l) => l.id)
}

/**
 * A user list after `/assign` or `/assign_reviewer` (add), `/reassign` (replace), `/unassign` or
 * `/unassign_reviewer` (remove; all of them without an argument), with the names the argument
 * gave; undefined when adding or replacing names nobody.
 */
function userListCommand(
  caller: Caller,
  action: QuickAction,
  current: readonly number[],
  op: 'add' | 'replace' | 'remove',
): { readonly list: number[]; readonly ids: number[]; readonly names: string[] } | undefined {
  const { ids, names } = userIdsOf(caller, action.arg)
  if (op === 'remove')
    return { list: action.arg.trim() === '' ? [] : current.filter((id) => !ids.includes(id)), ids, names }
  if (ids.length === 0) return undefined
  return { list: op === 'replace' ? ids : [...new Set([...current, ...ids])], ids, names }
}

/** The update fields that commands set on every kind of item (as issues and merge requests spell them). */
interface ItemUpdate {
  title?: string
  state_event?: 'close' | 'reopen'
  labels?: readonly string[]
  add_labels?: readonly string[]
  remove_labels?: readonly string[]
}

/** What the commands every kind of item runs collect: the update to write, GitLab's changes and messages. */
interface ItemCommands {
  readonly update: ItemUpdate
  readonly changes: Record<string, unknown>
  readonly messages: string[]
  /** The item in messages: 'issue', 'merge request' or 'epic'. */
  readonly noun: string
  /** Where `/unlabel` alone is reported: issues report labels by id, the others by name. */
  readonly clearedLabelsAs: 'label_ids' | 'remove_label_names'
}

/**
 * Runs a command every kind of item runs alike (`/label`, `/relabel`, `/unlabel`, `/close`,
 * `/reopen`, `/title`) into `into`, and leaves any other alone. Commands whose argument names
 * nothing do nothing; `/unlabel` alone removes every label.
 */
function itemCommand(action: QuickAction, into: ItemCommands): void {
  const { update, changes, messages } = into
  switch (action.name) {
    case 'label':
    case 'relabel':
    case 'unlabel': {
      const names = parseLabelArg(action.arg)
      const labels = `${labelRefs(names)} ${names.length > 1 ? 'labels' : 'label'}`
      if (action.name === 'unlabel') {
        if (names.length === 0) update.labels = []
        else update.remove_labels = [...(update.remove_labels ?? []), ...names]
        changes[names.length === 0 ? into.clearedLabelsAs : 'remove_label_names'] = names
        messages.push(names.length === 0 ? 'Removed all labels.' : `Removed ${labels}.`)
        break
      }
      if (names.length === 0) break
      if (action.name === 'relabel') update.labels = names
      else update.add_labels = [...(update.add_labels ?? []), ...names]
      changes[action.name === 'relabel' ? 'label_names' : 'add_label_names'] = names
      messages.push(`${action.name === 'relabel' ? 'Replaced all labels with' : 'Added'} ${labels}.`)
      break
    }
    case 'close':
    case 'reopen':
      update.state_event = action.name
      changes.state_event = action.name
      messages.push(`${action.name === 'close' ? 'Closed' : 'Reopened'} this ${into.noun}.`)
      break
    case 'title':
      if (!action.arg) break
      update.title = action.arg
      changes.title = action.arg
      messages.push(`Changed the title to "${action.arg}".`)
      break
    default:
      break
  }
}

/** The update fields that commands set on issues and merge requests (both services spell them alike). */
interface IssuableUpdate extends ItemUpdate {
  assignee_ids?: readonly number[]
  milestone_id?: number | null
  discussion_locked?: boolean
}

/** What an issue's or merge request's commands collect for the transaction that writes them. */
interface IssuableCommands extends ItemCommands {
  readonly update: IssuableUpdate
  readonly item: {
    readonly type: 'Issue' | 'MergeRequest'
    readonly id: number
    readonly projectId: number
    readonly title: string
  }
  /** The assignees before the note; once a command changes them, the update holds them. */
  readonly assignees: readonly number[]
  /** Time-tracking writes, in command order. */
  readonly timeSteps: (() => void)[]
  /** Writes after the update, in command order, and the ones after those (see personalCommand). */
  readonly steps: (() => void)[]
  readonly last: (() => void)[]
}

/**
 * Runs a command issues and merge requests run alike (those of every item, assignees, milestone,
 * lock, time tracking, `/copy_metadata`, to-dos, subscriptions and reactions) into `into`, and
 * leaves any other alone.
 */
function issuableCommand(caller: Caller, project: ProjectRow, action: QuickAction, into: IssuableCommands): void {
  const db = caller.db
  const { update, changes, messages, item } = into
  switch (action.name) {
    case 'assign':
    case 'reassign':
    case 'unassign': {
      const op = action.name === 'assign' ? 'add' : action.name === 'reassign' ? 'replace' : 'remove'
      const edit = userListCommand(caller, action, update.assignee_ids ?? into.assignees, op)
      if (!edit) break
      update.assignee_ids = edit.list
      changes.assignee_ids = edit.list
      if (op === 'remove')
        messages.push(
          action.arg.trim() === '' ? 'Removed all assignees.' : `Removed assignee ${edit.names.join(', ')}.`,
        )
      else messages.push(`${op === 'replace' ? 'Reassigned to' : 'Assigned'} ${edit.names.join(', ')}.`)
      break
    }
    case 'milestone': {
      const title = parseMilestoneArg(action.arg)
      const milestone = title ? findMilestoneTitle(db, title, [project.id], groupChain(caller, project)) : undefined
      if (!milestone) break
      update.milestone_id = milestone.id
      changes.milestone_id = milestone.id
      messages.push(`Set the milestone to %"${milestone.title}".`)
      break
    }
    case 'remove_milestone':
      update.milestone_id = null
      changes.milestone_id = null
      messages.push('Removed the milestone.')
      break
    case 'lock':
    case 'unlock':
      update.discussion_locked = action.name === 'lock'
      changes.discussion_locked = action.name === 'lock'
      messages.push(action.name === 'lock' ? 'Locked the discussion.' : 'Unlocked the discussion.')
      break
    case 'estimate':
    case 'remove_estimate': {
      const seconds = action.name === 'remove_estimate' ? 0 : parseHumanDuration(action.arg)
      if (seconds === null || seconds < 0) break
      into.timeSteps.push(() => setTimeEstimate(caller, item, seconds))
      changes.time_estimate = seconds
      messages.push(seconds === 0 ? 'Removed time estimate.' : `Set time estimate to ${humanDuration(seconds)}.`)
      break
    }
    case 'spend': {
      const { duration, date } = parseSpendArg(action.arg)
      const seconds = parseHumanDuration(duration)
      if (seconds === null || seconds === 0) break
      into.timeSteps.push(() => addSpentTime(caller, item, seconds))
      changes.spend_time = { duration: seconds, user_id: caller.user?.id, spent_at: date }
      messages.push(`${seconds < 0 ? 'Subtracted' : 'Added'} ${humanDuration(Math.abs(seconds))} spent time.`)
      break
    }
    case 'remove_time_spent':
      into.timeSteps.push(() => resetSpentTime(caller, item))
      changes.spend_time = { duration: 'reset', user_id: caller.user?.id }
      messages.push('Removed spent time.')
      break
    case 'copy_metadata': {
      const source = metadataSource(caller, project, action.arg)
      if (!source) break
      if (source.labels.length > 0) {
        update.add_labels = [...(update.add_labels ?? []), ...source.labels]
        changes.add_label_names = [...((changes.add_label_names as string[] | undefined) ?? []), ...source.labels]
      }
      if (source.milestoneId !== null) {
        update.milestone_id = source.milestoneId
        changes.milestone_id = source.milestoneId
      }
      messages.push(`Copied labels and milestone from ${source.reference}.`)
      break
    }
    case 'todo':
    case 'done':
    case 'subscribe':
    case 'unsubscribe':
    case 'award':
      personalCommand(caller, item, action, into)
      break
    default:
      itemCommand(action, into)
      break
  }
}

/**
 * Runs an issue's commands with the caller's permissions (availability was checked by the
 * parser): metadata goes through one updateIssue call, estimates and spent time through the
 * time-tracking services. Commands whose argument is not understood do nothing.
 */
export function executeIssueQuickActions(
  caller: Caller,
  project: ProjectRow,
  issue: IssueRow,
  actions: readonly QuickAction[],
): QuickActionResult {
  const db = caller.db
  const changes: Record<string, unknown> = {}
  const messages: string[] = []
  const update: { -readonly [K in keyof IssueChanges]: IssueChanges[K] } = {}
  const timeSteps: (() => void)[] = []
  const steps: (() => void)[] = []
  const last: (() => void)[] = []
  const shared: IssuableCommands = {
    update,
    changes,
    messages,
    timeSteps,
    steps,
    last,
    item: { type: 'Issue', id: issue.id, projectId: project.id, title: issue.title },
    assignees: assigneeIdsOf(db, [issue.id]).get(issue.id) ?? [],
    noun: 'issue',
    clearedLabelsAs: 'label_ids',
  }
  // Moving or cloning copies the issue as the other commands left it, so it comes last.
  let copy: (() => void) | undefined
  let promote = false
  let epicChoice: EpicRow | null | undefined

  for (const action of actions) {
    switch (action.name) {
      case 'due': {
        const date = parseDueDate(action.arg)
        if (!date) break
        update.due_date = date
        changes.due_date = date
        messages.push(`Set the due date to ${date}.`)
        break
      }
      case 'remove_due_date':
        update.due_date = null
        changes.due_date = null
        messages.push('Removed the due date.')
        break
      case 'confidential':
        update.confidential = true
        changes.confidential = true
        messages.push('Made this issue confidential.')
        break
      case 'promote':
        promote = true
        changes.promote_to_epic = true
        messages.push('Promoted issue to an epic.')
        break
      case 'epic': {
        // An issue can join epics of its project's group and that group's ancestors.
        const group = findNamespaceById(db, project.namespace_id)
        const epic = group ? findEpicByReference(caller, group, action.arg) : undefined
        if (
          !epic ||
          !groupChain(caller, project).includes(epic.group_id) ||
          !canAdminEpics(caller.perms, epic.group_id)
        ) {
          messages.push("This epic does not exist or you don't have sufficient permission.")
          break
        }
        epicChoice = epic
        changes.epic = epic.id
        messages.push('Added an issue to an epic.')
        break
      }
      case 'remove_epic':
        epicChoice = null
        changes.epic = null
        messages.push('Removed an issue from an epic.')
        break
      case 'weight':
      case 'clear_weight': {
        const weight = action.name === 'clear_weight' ? null : /^\d+$/.test(action.arg) ? Number(action.arg) : undefined
        if (weight === undefined || (weight !== null && !Number.isSafeInteger(weight))) break
        update.weight = weight
        changes.weight = weight
        messages.push(weight === null ? 'Cleared weight.' : `Set weight to ${weight}.`)
        break
      }
      case 'health_status':
      case 'clear_health_status': {
        const value = action.arg.trim().toLowerCase()
        const status =
          action.name === 'clear_health_status'
            ? null
            : (HEALTH_STATUSES as readonly string[]).includes(value)
              ? (value as HealthStatus)
              : undefined
        if (status === undefined) break
        steps.push(() => setHealthStatus(caller, issue, status))
        changes.health_status = status
        messages.push(status === null ? 'Cleared health status.' : `Set health status to ${status}.`)
        break
      }
      case 'duplicate': {
        const found = referencedIssuable(caller, project, action.arg)
        const canonical = found?.type === 'Issue' ? findIssueById(db, found.id) : undefined
        if (!canonical) {
          messages.push('Failed to mark this issue as a duplicate because referenced issue was not found.')
          break
        }
        if (canonical.id === issue.id) {
          messages.push('Failed to mark the issue as duplicate of itself.')
          break
        }
        const canonicalProject = findProjectById(db, canonical.project_id) as ProjectRow
        // GitLab asks for the right to comment on the original: members only while it is locked.
        if (canonical.discussion_locked === 1 && !caller.perms.canInProject(canonicalProject, AccessLevel.GUEST)) {
          messages.push('Failed to mark this issue as duplicate due to insufficient permissions.')
          break
        }
        if (issue.state === 'opened') update.state_event = 'close'
        steps.push(() => markAsDuplicate(caller, issue, canonical))
        changes.canonical_issue_id = canonical.id
        messages.push(`Marked this issue as a duplicate of ${action.arg.trim()}.`)
        break
      }
      case 'move': {
        const path = action.arg.trim()
        const target = path
          ? copyTarget(caller, path, 'move')
          : "Unable to move. Target project or group doesn't exist or doesn't support this item type."
        if (typeof target === 'string') {
          messages.push(target)
          break
        }
        copy = () => void moveIssue(caller, project, findIssueById(db, issue.id) as IssueRow, target)
        changes.target_project_id = target.id
        messages.push(`Moved this issue to ${path}.`)
        break
      }
      case 'clone': {
        const words = action.arg.split(/\s+/).filter((w) => w !== '')
        const withNotes = words.includes('--with_notes')
        const paths = words.filter((w) => w !== '--with_notes')
        if (paths.length > 1) {
          messages.push('Failed to clone this issue: wrong parameters.')
          break
        }
        const path = paths[0] ?? projectFullPath(caller, project)
        const target = copyTarget(caller, path, 'clone')
        if (typeof target === 'string') {
          messages.push(target)
          break
        }
        copy = () => void cloneIssue(caller, project, findIssueById(db, issue.id) as IssueRow, target, withNotes)
        changes.target_clone_project_id = target.id
        changes.clone_with_notes = withNotes
        messages.push(`Cloned this issue to ${path}.`)
        break
      }
      default:
        issuableCommand(caller, project, action, shared)
        break
    }
  }

  // The labels a command removes are gone after the update: take their ids now.
  const removedIds = labelIdsNamed(update.remove_labels ?? [], labelsOf(db, [issue.id]).get(issue.id) ?? [])
  db.transaction(() => {
    if (Object.keys(update).length > 0) updateIssue(caller, project, issue, update)
    for (const step of timeSteps) step()
    const actor = caller.user
    if (epicChoice !== undefined && actor)
      setIssueEpic(db, findIssueById(db, issue.id) as IssueRow, epicChoice, actor.id)
    if (promote) promoteIssueToEpic(caller, project, issue)
    for (const step of [...steps, ...last]) step()
    if (copy) copy()
  })()
  // Labels are reported by id as GitLab does; resolve the names now that any new ones exist.
  const labelIds = (names: unknown): number[] => labelIdsNamed(names, labelsOf(db, [issue.id]).get(issue.id) ?? [])
  if (changes.add_label_names) {
    changes.add_label_ids = labelIds(changes.add_label_names)
    delete changes.add_label_names
  }
  if (changes.label_names) {
    changes.label_ids = labelIds(changes.label_names)
    delete changes.label_names
  }
  if (changes.remove_label_names) {
    changes.remove_label_ids = removedIds
    delete changes.remove_label_names
  }
  return { changes, messages }
}

// ---------------------------------------------------------------------------------------------
// Epics: references and the epic family's commands.

/**
 * The epic an argument names, as GitLab's `/epic` and `/parent_epic` take it: `&5` (an epic of
 * `context`), `group/path&5`, or the epic's URL (`…/groups/group/path/-/epics/5`). Undefined when
 * nothing matches or the caller may not read it.
 */
export function findEpicByReference(caller: Caller, context: NamespaceRow, arg: string): EpicRow | undefined {
  const db = caller.db
  const text = arg.trim()
  const m = /^(?:https?:\/\/[^/]+)?\/groups\/(.+?)\/-\/epics\/(\d+)\/?$/.exec(text) ?? /^([\w.\-/]*)&(\d+)$/.exec(text)
  if (!m) return undefined
  const group = m[1] === '' ? context : findNamespaceByFullPath(db, m[1])
  if (!group || group.kind !== 'group') return undefined
  const epic = findEpicByIid(db, group.id, Number(m[2]))
  return epic && canReadEpicWith(caller.perms, group, epic) ? epic : undefined
}

/**
 * Whether the caller may run this command on the epic now: the epic family's commands (labels,
 * state, title, confidentiality, parent and child epics) need the right to edit the group's
 * epics (Reporter), and each is offered only when it applies, as GitLab does.
 */
export function epicCommandAvailable(caller: Caller, epic: EpicRow, name: QuickActionName): boolean {
  if (!caller.user || !canAdminEpics(caller.perms, epic.group_id)) return false
  switch (name) {
    case 'label':
    case 'relabel':
    case 'unlabel':
    case 'title':
    case 'parent_epic':
    case 'child_epic':
      return true
    case 'close':
      return epic.state === 'opened'
    case 'reopen':
      return epic.state === 'closed'
    case 'confidential':
      return epic.confidential === 0
    case 'remove_parent_epic':
      return epic.parent_id !== null
    case 'remove_child_epic':
      return (caller.db.prepare('SELECT 1 FROM epics WHERE parent_id = ? LIMIT 1').get(epic.id) ?? null) !== null
    default:
      return false
  }
}

/**
 * Runs an epic's commands: labels, state, title, confidentiality and parent through one
 * updateEpic call, children through updates of the children (each needing the right to edit its
 * own group's epics). GitLab's hierarchy and confidentiality rules answer as they do for PUT.
 */
export function executeEpicQuickActions(
  caller: Caller,
  group: NamespaceRow,
  epic: EpicRow,
  actions: readonly QuickAction[],
): QuickActionResult {
  const db = caller.db
  const user = caller.user
  if (!user) return { changes: {}, messages: [] }
  const changes: Record<string, unknown> = {}
  const messages: string[] = []
  const update: { -readonly [K in keyof Parameters<typeof updateEpic>[2]]: Parameters<typeof updateEpic>[2][K] } = {}
  // Labels, state and title collect as every item's commands spell them; the epic's own fields above.
  const common: ItemCommands = { update: {}, changes, messages, noun: 'epic', clearedLabelsAs: 'remove_label_names' }
  const childSteps: (() => void)[] = []
  const refOf = (e: EpicRow): string =>
    e.group_id === epic.group_id ? `&${e.iid}` : `${findNamespaceById(db, e.group_id)?.full_path ?? ''}&${e.iid}`
  const other = (arg: string): EpicRow | undefined => {
    const found = findEpicByReference(caller, group, arg)
    return found && found.id !== epic.id ? found : undefined
  }

  for (const action of actions) {
    switch (action.name) {
      case 'confidential':
        update.confidential = true
        changes.confidential = true
        messages.push('Made this epic confidential.')
        break
      case 'parent_epic': {
        const parent = other(action.arg)
        if (!parent || !canAdminEpics(caller.perms, parent.group_id)) {
          messages.push("This parent epic does not exist or you don't have sufficient permission.")
          break
        }
        update.parentId = parent.id
        changes.parent_epic = parent.id
        messages.push(`Set ${refOf(parent)} as the parent epic.`)
        break
      }
      case 'remove_parent_epic':
        update.parentId = null
        changes.parent_epic = null
        messages.push('Removed the parent epic.')
        break
      case 'child_epic':
      case 'remove_child_epic': {
        const child = other(action.arg)
        const adding = action.name === 'child_epic'
        if (!child || !canAdminEpics(caller.perms, child.group_id) || (!adding && child.parent_id !== epic.id)) {
          messages.push(
            adding
              ? "This child epic does not exist or you don't have sufficient permission."
              : 'Child epic does not exist.',
          )
          break
        }
        childSteps.push(() =>
          updateEpic(db, findEpicById(db, child.id) as EpicRow, { parentId: adding ? epic.id : null }, user.id),
        )
        changes[adding ? 'child_epic' : 'remove_child_epic'] = child.id
        messages.push(adding ? `Added ${refOf(child)} as a child epic.` : `Removed ${refOf(child)} from child epics.`)
        break
      }
      default:
        itemCommand(action, common)
        break
    }
  }
  const { title, state_event: stateEvent, labels, add_labels: addLabels, remove_labels: removeLabels } = common.update
  db.transaction(() => {
    if (Object.keys(update).length + Object.keys(common.update).length > 0)
      updateEpic(db, epic, { ...update, title, stateEvent, labels, addLabels, removeLabels }, user.id)
    for (const step of childSteps) step()
  })()
  return { changes, messages }
}

// ---------------------------------------------------------------------------------------------
// Merge requests: the commands GitLab offers on them that need no repository work.

const MERGE_REQUEST_COMMANDS: ReadonlySet<QuickActionName> = new Set<QuickActionName>([
  'label',
  'unlabel',
  'relabel',
  'assign',
  'unassign',
  'reassign',
  'assign_reviewer',
  'unassign_reviewer',
  'close',
  'reopen',
  'milestone',
  'remove_milestone',
  'title',
  'draft',
  'ready',
  'lock',
  'unlock',
  'approve',
  'unapprove',
  'estimate',
  'remove_estimate',
  'spend',
  'remove_time_spent',
  'merge',
  'rebase',
  'target_branch',
  'todo',
  'done',
  'subscribe',
  'unsubscribe',
  'award',
  'copy_metadata',
])

/**
 * Whether the caller may run this command on the merge request now: metadata needs Developer
 * (GitLab's admin_merge_request); the author may also close, reopen, retitle and mark it draft or
 * ready; /approve needs the right to approve and no approval yet, /unapprove an approval.
 */
export function mergeRequestCommandAvailable(
  caller: Caller,
  project: ProjectRow,
  mr: MergeRequestRow,
  name: QuickActionName,
): boolean {
  const user = caller.user
  if (!user || !MERGE_REQUEST_COMMANDS.has(name)) return false
  const developer = caller.perms.canInProject(project, AccessLevel.DEVELOPER)
  const canUpdate = developer || user.id === mr.author_id
  const open = mr.state === 'opened' || mr.state === 'locked'
  const personal = personalCommandAvailable(caller, 'MergeRequest', mr.id, participantIds(caller.db, mr), name)
  if (personal !== undefined) return personal
  switch (name) {
    // The checks of PUT …/merge (rights on the target branch, state, draft, conflicts, pipeline).
    case 'merge':
      return availableMergeStrategy(caller, project, mr) !== null
    // PUT …/rebase answers 403 without push rights on the source branch; the command is not offered then.
    case 'rebase':
      return mr.state === 'opened' && canRebase(caller, project, mr)
    case 'target_branch':
      return canUpdate && open
    case 'close':
      return canUpdate && open
    case 'reopen':
      return canUpdate && mr.state === 'closed'
    case 'title':
      return canUpdate && mr.state !== 'merged'
    case 'draft':
      return canUpdate && open && !isDraftTitle(mr.title)
    case 'ready':
      return canUpdate && open && isDraftTitle(mr.title)
    case 'approve':
      return (
        open &&
        canApproveMergeRequest(caller, project, mr, user) &&
        !approvalsOf(caller.db, mr.id).some((u) => u.id === user.id)
      )
    case 'unapprove':
      return open && approvalsOf(caller.db, mr.id).some((u) => u.id === user.id)
    case 'remove_milestone':
      return developer && mr.milestone_id !== null
    case 'remove_estimate':
      return developer && mr.time_estimate > 0
    case 'lock':
      return developer && mr.discussion_locked !== 1
    case 'unlock':
      return developer && mr.discussion_locked === 1
    default:
      return developer
  }
}

function canRebase(caller: Caller, project: ProjectRow, mr: MergeRequestRow): boolean {
  const source = findProjectById(caller.db, mr.source_project_id) ?? project
  return canPushToBranch(caller.perms, source, listProtectedBranches(caller.db, source.id), mr.source_branch)
}

/** The merge request as it is now (a follow-up runs after other commands changed it). */
function currentMergeRequest(caller: Caller, mr: MergeRequestRow): MergeRequestRow {
  return findMergeRequestById(caller.db, mr.id) ?? mr
}

/** `/merge` after the commit: through `mergeOrSchedule`, the service of PUT …/merge, so its every check holds. */
function mergeFollowUp(
  caller: Caller,
  project: ProjectRow,
  mr: MergeRequestRow,
  user: UserRow,
  sha: string,
): QuickActionFollowUp {
  return async () => {
    try {
      const { strategy } = await mergeOrSchedule(caller, project, currentMergeRequest(caller, mr), user, { sha }, true)
      const message =
        strategy === 'now'
          ? 'Merged this merge request.'
          : 'Scheduled to merge this merge request (Merge when pipeline succeeds).'
      return { changes: { merge: sha }, messages: [message] }
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      // Something changed since the command was offered (a push, a conflict found while merging).
      updateMergeRequestRow(caller.db, mr.id, { merge_error: error.message }, false)
      return { changes: {}, messages: [error.message] }
    }
  }
}

/** `/target_branch` after the commit: the PUT update's repository checks decide; an unknown branch changes nothing. */
function targetBranchFollowUp(
  caller: Caller,
  project: ProjectRow,
  mr: MergeRequestRow,
  user: UserRow,
  branch: string,
): QuickActionFollowUp {
  return async () => {
    try {
      const row = await updateMergeRequest(
        caller,
        project,
        currentMergeRequest(caller, mr),
        { target_branch: branch },
        user,
      )
      if (row.state === 'opened') queueMergeabilityCheck(caller.ctx, row.id)
      return { changes: { target_branch: branch }, messages: [`Set target branch to ${branch}.`] }
    } catch (error) {
      if (error instanceof ApiError) return { changes: {}, messages: [] }
      throw error
    }
  }
}

/**
 * Runs a merge request's commands: metadata through one `applyMergeRequestUpdate` (labels,
 * assignees, reviewers, milestone, state, title, lock), then approvals, time tracking, to-dos,
 * subscriptions and reactions; `/target_branch`, `/rebase` and `/merge` need the repository and
 * follow once the comment is saved. `/merge` wants the head SHA the caller saw, as GitLab does.
 */
export function executeMergeRequestQuickActions(
  caller: Caller,
  project: ProjectRow,
  mr: MergeRequestRow,
  actions: readonly QuickAction[],
  params: QuickActionParams = {},
): QuickActionResult {
  const db = caller.db
  const user = caller.user
  if (!user) return { changes: {}, messages: [] }
  const changes: Record<string, unknown> = {}
  const messages: string[] = []
  const update: { -readonly [K in keyof MergeRequestInput]: MergeRequestInput[K] } = {}
  let reviewers = (userLinksOf(db, 'merge_request_reviewers', [mr.id]).get(mr.id) ?? []).map((u) => u.id)
  const steps: (() => void)[] = []
  const last: (() => void)[] = []
  const followUps: QuickActionFollowUp[] = []
  const shared: IssuableCommands = {
    update,
    changes,
    messages,
    steps,
    last,
    // Time tracking writes in command order with the approvals and the rest.
    timeSteps: steps,
    item: { type: 'MergeRequest', id: mr.id, projectId: project.id, title: mr.title },
    assignees: (userLinksOf(db, 'merge_request_assignees', [mr.id]).get(mr.id) ?? []).map((u) => u.id),
    noun: 'merge request',
    clearedLabelsAs: 'remove_label_names',
  }
  // GitLab does not merge and rebase at once: with both, the rebase wins.
  const rebasing = actions.some((a) => a.name === 'rebase')

  for (const action of actions) {
    switch (action.name) {
      case 'assign_reviewer':
      case 'unassign_reviewer': {
        const adding = action.name === 'assign_reviewer'
        const edit = userListCommand(caller, action, reviewers, adding ? 'add' : 'remove')
        if (!edit) break
        reviewers = edit.list
        update.reviewer_ids = reviewers
        changes.reviewer_ids = reviewers
        if (adding)
          messages.push(`Assigned ${edit.names.join(', ')} as ${edit.ids.length > 1 ? 'reviewers' : 'reviewer'}.`)
        else
          messages.push(
            action.arg.trim() === '' ? 'Removed all reviewers.' : `Removed reviewer ${edit.names.join(', ')}.`,
          )
        break
      }
      case 'draft':
        update.title = `Draft: ${update.title ?? mr.title}`
        changes.draft = true
        messages.push('Marked this merge request as a draft.')
        break
      case 'ready':
        update.title = (update.title ?? mr.title).replace(/^\s*(\[draft\]|\(draft\)|draft:|draft\s-\s|draft$)\s*/i, '')
        changes.draft = false
        messages.push('Marked this merge request as ready.')
        break
      case 'approve':
        steps.push(() => approveMergeRequest(caller, project, findMergeRequestById(db, mr.id) as MergeRequestRow, user))
        changes.approve = true
        messages.push('Approved the current merge request.')
        break
      case 'unapprove':
        steps.push(() => unapproveMergeRequest(caller, mr, user))
        changes.unapprove = true
        messages.push('Unapproved the current merge request.')
        break
      case 'target_branch': {
        const branch = action.arg.trim()
        if (branch) followUps.push(targetBranchFollowUp(caller, project, mr, user, branch))
        break
      }
      case 'rebase':
        if (mr.merge_status === 'cannot_be_merged') {
          messages.push('This merge request cannot be rebased while there are conflicts.')
          break
        }
        if (mr.rebase_in_progress === 1) {
          messages.push('A rebase is already in progress.')
          break
        }
        followUps.push(async () => {
          startRebase(caller.ctx, project, currentMergeRequest(caller, mr), user)
          return { changes: {}, messages: [] }
        })
        changes.rebase = true
        messages.push(`Scheduled a rebase of branch ${mr.source_branch}.`)
        break
      case 'merge':
        if (rebasing) break
        if (!params.diffHeadSha) {
          messages.push('The `/merge` quick action requires the SHA of the head of the branch.')
          break
        }
        if (params.diffHeadSha !== mr.head_sha) {
          messages.push('Branch has been updated since the merge was requested.')
          break
        }
        followUps.push(mergeFollowUp(caller, project, mr, user, params.diffHeadSha))
        break
      default:
        issuableCommand(caller, project, action, shared)
        break
    }
  }
  db.transaction(() => {
    if (Object.keys(update).length > 0)
      applyMergeRequestUpdate(caller, project, findMergeRequestById(db, mr.id) as MergeRequestRow, update, user)
    for (const step of [...steps, ...last]) step()
  })()
  // Labels are reported by id as GitLab does; resolve the names now that any new ones exist.
  if (changes.add_label_names) {
    changes.add_label_ids = labelIdsNamed(changes.add_label_names, mergeRequestLabelsOf(db, [mr.id]).get(mr.id) ?? [])
    delete changes.add_label_names
  }
  return { changes, messages, followUps }
}

// ---------------------------------------------------------------------------------------------
// Issue writes that only quick actions make.

/**
 * Sets or clears an issue's health status (GitLab's Ultimate field; the REST issue edit does not
 * take it), with GitLab's system note.
 */
function setHealthStatus(caller: Caller, issue: IssueRow, status: HealthStatus | null): void {
  const db = caller.db
  const user = caller.user
  const before = (findIssueById(db, issue.id) as IssueRow).health_status
  if (!user || before === status) return
  updateIssueRow(db, issue.id, { health_status: status })
  const words = (s: string): string => s.replace(/_/g, ' ')
  const body =
    status !== null
      ? `changed health status to **${words(status)}**`
      : `removed health status **${words(before ?? '')}**`
  addSystemNote(db, issueTarget(issue), user.id, body, 'health_status')
}

/**
 * GitLab's duplicate service, after the command closed the issue: remembers the original
 * (`closed_as_duplicate_of`) and notes the link on both issues.
 */
function markAsDuplicate(caller: Caller, issue: IssueRow, canonical: IssueRow): void {
  const db = caller.db
  const user = caller.user
  if (!user) return
  updateIssueRow(db, issue.id, { duplicated_to_id: canonical.id })
  const dup = issueTarget(issue)
  const original = issueTarget(canonical)
  addSystemNote(
    db,
    dup,
    user.id,
    `marked this issue as a duplicate of ${referenceOf(db, original, { projectId: issue.project_id })}`,
    'duplicate',
    { ref: original },
  )
  addSystemNote(
    db,
    original,
    user.id,
    `marked ${referenceOf(db, dup, { projectId: canonical.project_id })} as a duplicate of this issue`,
    'duplicate',
    { ref: dup },
  )
}

function projectFullPath(caller: Caller, project: ProjectRow): string {
  return `${findNamespaceById(caller.db, project.namespace_id)?.full_path ?? ''}/${project.path}`
}
