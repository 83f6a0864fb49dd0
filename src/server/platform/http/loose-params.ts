import { checkLengths, TEXT_LIMITS } from '../text/limits'
import { Type, type Static } from 'typebox'
import { invalidParam, notFound, validationFailed } from './errors'
import { textParam } from './text-param'

// Readers for routes that take their parameters without a schema (the issue and epic lists and
// writes, which accept GitLab's many loose forms). A parameter can arrive as a string, a number,
// a list (`a[]=`) or a hash (`a[b]=`, an object without a prototype that String() cannot
// convert); each reader answers 400 for a shape it cannot use instead of throwing a TypeError.

/** True when the parameter was given with a value (not absent, null or empty). */
export function given(v: unknown): boolean {
  return v !== undefined && v !== null && v !== ''
}

// Grape's Boolean (dry-types Params::Bool), in any case: the one reading of a boolean parameter.
const TRUE_WORDS: ReadonlySet<string> = new Set(['true', 't', '1', 'yes', 'y', 'on'])
const FALSE_WORDS: ReadonlySet<string> = new Set(['false', 'f', '0', 'no', 'n', 'off'])

/** `true`/`t`/`1`/`yes`/`y`/`on` are true, `false`/`f`/`0`/`no`/`n`/`off` false (any case, trimmed); otherwise undefined. */
export function booleanWord(text: string): boolean | undefined {
  const word = text.trim().toLowerCase()
  return TRUE_WORDS.has(word) ? true : FALSE_WORDS.has(word) ? false : undefined
}

/** Grape's Boolean as booleanWord reads it, any other text false; absent is `fallback`. */
export function boolOf(name: string, raw: unknown, fallback: boolean): boolean
export function boolOf(name: string, raw: unknown): boolean | undefined
export function boolOf(name: string, raw: unknown, fallback?: boolean): boolean | undefined {
  if (!given(raw)) return fallback
  if (typeof raw === 'boolean') return raw
  return booleanWord(textParam(name, raw)) === true
}

/** A comma-separated text or a list of them as trimmed, non-empty items; 400 for a hash. */
export function listOf(name: string, raw: unknown): string[] {
  if (raw === undefined || raw === null) return []
  return splitItems(Array.isArray(raw) ? raw.map((v: unknown) => textParam(name, v)) : [textParam(name, raw)])
}

/**
 * An array parameter given either way GitLab accepts (`a[]=x&a[]=y` or comma-separated `a=x,y`,
 * typed by the route's schema as a list of strings), every value checked against `allowed`: 400
 * `<name> does not have a valid value` otherwise.
 */
export function listParam(
  name: string,
  values: readonly string[] | undefined,
  allowed: readonly string[],
): string[] | undefined {
  if (values === undefined) return undefined
  const list = splitItems(values)
  if (list.some((v) => !allowed.includes(v))) throw invalidParam(name, 'does not have a valid value')
  return list
}

/** Items of comma-separated texts, trimmed, empty ones left out. */
function splitItems(texts: readonly string[]): string[] {
  return texts
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '')
}

/** An integer; 400 `<name> is invalid` for anything else. */
export function intOf(name: string, raw: unknown): number {
  const n = typeof raw === 'object' ? Number.NaN : Number(raw)
  if (!Number.isInteger(n)) throw invalidParam(name)
  return n
}

/** An ISO 8601 date-time as stored (UTC `toISOString`), or undefined when not given; 400 when not a date. */
export function datetimeOf(name: string, raw: unknown): string | undefined {
  if (!given(raw)) return undefined
  const t = Date.parse(textParam(name, raw))
  if (Number.isNaN(t)) throw invalidParam(name)
  return new Date(t).toISOString()
}

/** GitLab's `None`/`Any` filter wildcards, in any case; undefined for any other value. */
export function wildcardOf(raw: unknown): 'none' | 'any' | undefined {
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined
  const s = String(raw).toLowerCase()
  return s === 'none' ? 'none' : s === 'any' ? 'any' : undefined
}

/** A request body or query read as named parameters: an object as it is, anything else (no body) as none. */
export function paramsOf(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Readonly<Record<string, unknown>>)
    : {}
}

/**
 * Params schema of a route built for several families whose path keys are named at runtime
 * (award emoji under issues, merge requests, epics, snippets and notes): every segment a string.
 */
export const PathParams = Type.Record(Type.String(), Type.String())
export type PathParams = Static<typeof PathParams>

/** A numeric path segment (`:issue_iid`, `:award_id`), or 404 for the thing it names, as GitLab answers `/issues/abc`. */
export function pathId(raw: string | undefined, what: string): number {
  const n = Number(raw)
  if (raw === undefined || raw === '' || !Number.isInteger(n)) throw notFound(what)
  return n
}

/**
 * An integer array given as `name[]=1&name[]=2`, a JSON array or `name=1,2` (GitLab's
 * CommaSeparatedToIntegerArray). Undefined when absent; 400 `name is invalid` otherwise.
 */
export function intListOf(name: string, raw: unknown): number[] | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined
  const parts = (Array.isArray(raw) ? raw : [raw]).flatMap((v: unknown) => (typeof v === 'string' ? v.split(',') : [v]))
  const out: number[] = []
  for (const p of parts) {
    if (typeof p === 'string' && p.trim() === '') continue
    const n = typeof p === 'number' ? p : typeof p === 'string' && /^\s*-?\d+\s*$/.test(p) ? Number(p) : Number.NaN
    if (!Number.isInteger(n)) throw invalidParam(name)
    out.push(n)
  }
  return out
}

// The texts and dates of issues, merge requests, epics and milestones.

/** Labels given as `a,b` or `['a', 'b']` → trimmed distinct titles. */
export function labelList(raw: unknown): string[] | undefined {
  if (raw === undefined || raw === null) return raw === null ? [] : undefined
  const out: string[] = []
  for (const item of listOf('labels', raw)) {
    if (!out.some((t) => t.toLowerCase() === item.toLowerCase())) out.push(item)
  }
  return out
}

/** A `YYYY-MM-DD` parameter: undefined when absent, null when cleared (null or ''), 400 when not a real date. */
export function dateParam(name: string, raw: unknown): string | null | undefined {
  if (raw === undefined) return undefined
  if (raw === null || raw === '') return null
  const text = textParam(name, raw)
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null
  if (!d || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== text) throw invalidParam(name)
  return text
}

/** A description parameter of an issue, merge request or epic: undefined when absent, 400 over GitLab's length limit. */
export function descriptionOf(raw: unknown): string | null | undefined {
  if (raw === undefined) return undefined
  if (raw === null) return null
  const description = textParam('description', raw)
  checkLengths({ description }, { description: TEXT_LIMITS.issuable.description })
  return description
}

/** A title parameter of an issue, merge request or epic, trimmed: 400 when blank or over 255 characters, as GitLab validates it. */
export function titleOf(raw: unknown): string {
  const title = textParam('title', raw).trim()
  if (title === '') throw validationFailed({ title: ["can't be blank"] })
  checkLengths({ title }, { title: TEXT_LIMITS.issuable.title })
  return title
}
