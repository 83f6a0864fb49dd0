/**
 * Quick actions: `/command args` lines in notes. The parser is pure (no database); the commands
 * every family shares (labels, assignees, milestone, time tracking, to-dos, subscriptions,
 * reactions) run here into an update each family writes itself. The families' own executors
 * (issues, merge requests, epics) live in their modules and reach notes through quickActionSet.
 */

import type { Caller } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'
import { toggleAward } from '../award-emoji'
import { findMilestoneTitle } from '../milestones'
import { findNamespaceById, namespaceAncestors } from '../namespaces'
import { referenceFamily } from '../notes'
import type { QuickActionSet } from '../notes'
import { referencedItems, type SystemNoteTarget } from '../notes'
import { isSubscribed, subscribe, unsubscribe } from '../subscriptions'
import { addSpentTime, resetSpentTime, setTimeEstimate } from '../time-tracking'
import { resolveTodosForTarget } from '../todos'
import { createTodo, pendingTodoFor } from '../todos'
import { findUserByUsername } from '../users'
import { humanDuration, parseHumanDuration } from '../time-tracking'

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
export const MERGE_REQUEST_ONLY: ReadonlySet<QuickActionName> = new Set<QuickActionName>([
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
export const EPIC_ONLY: ReadonlySet<QuickActionName> = new Set<QuickActionName>([
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
// What every family's commands share: results, the personal commands, users, labels and metadata.

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

/** The to-do, subscription and reaction commands: offered to anyone who may comment, when they change something. */
export function personalCommandAvailable(
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
export function referencedIssuable(caller: Caller, project: ProjectRow, arg: string): SystemNoteTarget | undefined {
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
): { labels: readonly string[]; milestoneId: number | null; reference: string } | undefined {
  const source = referencedIssuable(caller, project, arg)
  if (!source || source.projectId !== project.id) return undefined
  const family = referenceFamily(source.type)
  const metadata = family.metadata?.(caller.db, source.id)
  return metadata ? { ...metadata, reference: `${family.sigil}${source.iid}` } : undefined
}

export const ADMIN_COMMANDS: ReadonlySet<QuickActionName> = new Set<QuickActionName>([
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

export function groupChain(caller: Caller, project: ProjectRow): number[] {
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
export function labelIdsNamed(
  names: unknown,
  labels: readonly { readonly id: number; readonly title: string }[],
): number[] {
  const wanted = new Set((names as string[]).map((n) => n.toLowerCase()))
  return labels.filter((l) => wanted.has(l.title.toLowerCase())).map((l) => l.id)
}

/**
 * A user list after `/assign` or `/assign_reviewer` (add), `/reassign` (replace), `/unassign` or
 * `/unassign_reviewer` (remove; all of them without an argument), with the names the argument
 * gave; undefined when adding or replacing names nobody.
 */
export function userListCommand(
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
export interface ItemCommands {
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
export function itemCommand(action: QuickAction, into: ItemCommands): void {
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
export interface IssuableCommands extends ItemCommands {
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
export function issuableCommand(
  caller: Caller,
  project: ProjectRow,
  action: QuickAction,
  into: IssuableCommands,
): void {
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
 * A family's quick actions on one noteable: the command lines `available` admits for the caller
 * are taken out of a comment, and `run` applies them.
 */
export function quickActionSet(
  available: (caller: Caller, name: QuickActionName) => boolean,
  run: QuickActionSet['run'],
): QuickActionSet {
  return { extract: (caller, text) => parseQuickActions(text, (name) => available(caller, name)), run }
}
