/**
 * Cron expressions as pipeline schedules use them (GitLab's Fugit-backed `Gitlab::Ci::CronParser`):
 * five fields — minute, hour, day of month, month, day of week — each `*`, a value, a range
 * `a-b`, a step `*\/n`, `a-b/n` or `a/n`, or a comma list of those; months and weekdays may be
 * named (`JAN`, `MON`); Sunday is 0 or 7. The `@hourly`…`@yearly` shorthands are accepted. Runs
 * are computed in an IANA timezone through Intl, so they follow its daylight-saving changes.
 */

/** A parsed expression: the allowed values of each field, and whether the day fields were `*`. */
export interface Cron {
  readonly minutes: readonly number[]
  readonly hours: readonly number[]
  readonly daysOfMonth: ReadonlySet<number>
  readonly months: ReadonlySet<number>
  readonly daysOfWeek: ReadonlySet<number>
  readonly anyDayOfMonth: boolean
  readonly anyDayOfWeek: boolean
}

const SHORTHANDS: Readonly<Record<string, string>> = {
  '@hourly': '0 * * * *',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@weekly': '0 0 * * 0',
  '@monthly': '0 0 1 * *',
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
}

const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC']
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT']

interface FieldSpec {
  readonly min: number
  readonly max: number
  /** Names standing for `min`, `min + 1`… */
  readonly names?: readonly string[]
}

const FIELDS: readonly FieldSpec[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTH_NAMES },
  { min: 0, max: 7, names: DAY_NAMES },
]

function valueOf(text: string, spec: FieldSpec): number | null {
  const named = spec.names?.indexOf(text.toUpperCase()) ?? -1
  if (named >= 0) return spec.min + named
  if (!/^\d+$/.test(text)) return null
  const n = Number(text)
  return n >= spec.min && n <= spec.max ? n : null
}

/** One comma-separated item's values, or null when it is malformed or out of range. */
function itemValues(item: string, spec: FieldSpec): number[] | null {
  const [range, stepText, ...extra] = item.split('/')
  if (extra.length > 0) return null
  const step = stepText === undefined ? 1 : /^\d+$/.test(stepText) ? Number(stepText) : 0
  if (step < 1) return null
  let low: number | null
  let high: number | null
  if (range === '*') {
    low = spec.min
    high = spec.max
  } else if (range.includes('-')) {
    const [a, b, ...rest] = range.split('-')
    if (rest.length > 0) return null
    low = valueOf(a, spec)
    high = valueOf(b, spec)
  } else {
    low = valueOf(range, spec)
    // `a/n` runs from a to the field's end, as in Vixie cron.
    high = stepText === undefined ? low : spec.max
  }
  if (low === null || high === null || low > high) return null
  const values: number[] = []
  for (let v = low; v <= high; v += step) values.push(v)
  return values
}

function fieldValues(text: string, spec: FieldSpec): number[] | null {
  const values = new Set<number>()
  for (const item of text.split(',')) {
    const some = itemValues(item, spec)
    if (!some) return null
    for (const v of some) values.add(v)
  }
  return [...values].sort((a, b) => a - b)
}

/** Parses a cron expression; null when it is not valid five-field cron. */
export function parseCron(expression: string): Cron | null {
  const trimmed = expression.trim()
  const fields = (SHORTHANDS[trimmed.toLowerCase()] ?? trimmed).split(/\s+/)
  if (fields.length !== FIELDS.length) return null
  const values = fields.map((f, i) => fieldValues(f, FIELDS[i]))
  const [minutes, hours, days, months, weekdays] = values
  if (!minutes || !hours || !days || !months || !weekdays) return null
  return {
    minutes,
    hours,
    daysOfMonth: new Set(days),
    months: new Set(months),
    daysOfWeek: new Set(weekdays.map((d) => d % 7)),
    anyDayOfMonth: fields[2] === '*',
    anyDayOfWeek: fields[4] === '*',
  }
}

/** True when `timezone` is an IANA zone name this runtime knows (`Europe/Berlin`, `UTC`…). */
export function isKnownTimezone(timezone: string): boolean {
  if (timezone.trim() === '') return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone })
    return true
  } catch {
    return false
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterOf(timezone: string): Intl.DateTimeFormat {
  let f = formatters.get(timezone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    })
    formatters.set(timezone, f)
  }
  return f
}

/** The wall-clock time at `epochMs` in `timezone`, as if it were UTC (minutes precision). */
function wallClock(epochMs: number, timezone: string): number {
  const parts: Record<string, number> = {}
  for (const p of formatterOf(timezone).formatToParts(new Date(epochMs))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value)
  }
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute)
}

/**
 * The instant whose wall clock in `timezone` reads `wall` (a UTC-encoded local time), or null when
 * that local time does not exist (skipped by a daylight-saving change). When it exists twice (the
 * clocks go back), the first one.
 */
function instantOf(wall: number, timezone: string): number | null {
  const first = wall - (wallClock(wall, timezone) - wall)
  if (wallClock(first, timezone) === wall) return first
  const second = wall - (wallClock(first, timezone) - first)
  return wallClock(second, timezone) === wall ? second : null
}

function dayMatches(cron: Cron, day: Date): boolean {
  if (!cron.months.has(day.getUTCMonth() + 1)) return false
  const byMonthDay = cron.daysOfMonth.has(day.getUTCDate())
  const byWeekday = cron.daysOfWeek.has(day.getUTCDay())
  // Classic cron: when both day fields are restricted, either one matching is enough.
  if (cron.anyDayOfMonth) return byWeekday
  if (cron.anyDayOfWeek) return byMonthDay
  return byMonthDay || byWeekday
}

const DAY_MS = 24 * 60 * 60 * 1000
/** Far enough to reach any date a valid expression names (a 29 February every four years, or eight across a century year). */
const SEARCH_DAYS = 366 * 9

/**
 * The first time after `after` at which `cron` fires in `timezone`, or null when it never does
 * (`0 0 30 2 *`). Local times skipped by a daylight-saving change do not fire; local times that
 * happen twice fire once, the first time.
 */
export function nextRunAfter(cron: Cron, timezone: string, after: Date): Date | null {
  const afterMs = after.getTime()
  const start = wallClock(afterMs, timezone)
  const firstDay = start - (start % DAY_MS)
  for (let n = 0; n < SEARCH_DAYS; n++) {
    const day = firstDay + n * DAY_MS
    if (!dayMatches(cron, new Date(day))) continue
    for (const hour of cron.hours) {
      for (const minute of cron.minutes) {
        const wall = day + (hour * 60 + minute) * 60_000
        const at = instantOf(wall, timezone)
        if (at !== null && at > afterMs) return new Date(at)
      }
    }
  }
  return null
}
