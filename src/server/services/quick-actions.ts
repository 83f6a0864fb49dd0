/**
 * Quick actions: `/command args` lines in notes. The parser is pure (no database); the executor
 * applies the commands to an issue through services/issues.ts with the caller's permissions.
 */

export type QuickActionName =
  | 'label' | 'unlabel' | 'relabel' | 'assign' | 'unassign' | 'reassign' | 'close' | 'reopen' | 'estimate' | 'remove_estimate'
  | 'spend' | 'remove_time_spent' | 'milestone' | 'remove_milestone' | 'due' | 'remove_due_date' | 'promote'
  | 'title' | 'confidential' | 'lock' | 'unlock'

/** Command names and their aliases, as GitLab spells them. */
const ALIASES: Readonly<Record<string, QuickActionName>> = {
  label: 'label', labels: 'label',
  unlabel: 'unlabel', remove_label: 'unlabel',
  relabel: 'relabel',
  assign: 'assign',
  unassign: 'unassign',
  reassign: 'reassign',
  close: 'close',
  reopen: 'reopen',
  estimate: 'estimate', estimate_time: 'estimate',
  remove_estimate: 'remove_estimate', remove_time_estimate: 'remove_estimate',
  spend: 'spend', spent: 'spend', spend_time: 'spend',
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
}

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
export function parseQuickActions(text: string, available: (name: QuickActionName) => boolean = () => true): ParsedQuickActions {
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
