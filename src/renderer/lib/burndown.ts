/**
 * Burndown of a milestone: how many issues (or how much weight) stayed open at the end of each
 * day from its start date to its due date, and the ideal straight line to zero. Pure, so the
 * chart component only draws.
 */

import type { Issue } from '../../shared/api/issue'

/** The fields of an issue the chart needs. */
export type BurndownIssue = Readonly<Pick<Issue, 'created_at' | 'closed_at'> & Partial<Pick<Issue, 'weight'>>>

export interface BurndownPoint {
  /** `YYYY-MM-DD` (UTC). */
  readonly date: string
  readonly value: number
}

export interface Burndown {
  /** One point per day from the start to the due date or today, whichever comes first. */
  readonly actual: readonly BurndownPoint[]
  /** Straight line from the open total at the start to zero on the due date. */
  readonly ideal: readonly [BurndownPoint, BurndownPoint]
  /** Every day of the milestone, for the x axis. */
  readonly days: readonly string[]
  readonly max: number
}

const DAY_MS = 86_400_000

function dayStart(date: string): number {
  const ms = Date.parse(`${date}T00:00:00Z`)
  if (Number.isNaN(ms)) throw new RangeError(`Not a date: ${date}`)
  return ms
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

/**
 * Computes the burndown between `startDate` and `dueDate` (inclusive, `YYYY-MM-DD`), counting
 * issues (or summing weights when `byWeight`) open at the end of each day up to `today`.
 */
export function computeBurndown(
  issues: readonly BurndownIssue[],
  startDate: string,
  dueDate: string,
  today: string,
  byWeight = false,
): Burndown {
  const start = dayStart(startDate)
  const due = dayStart(dueDate)
  if (due < start) throw new RangeError('The due date is before the start date')
  const last = Math.min(due, dayStart(today))
  const size = (issue: BurndownIssue): number => (byWeight ? (issue.weight ?? 0) : 1)
  const span = Math.round((due - start) / DAY_MS)
  const days = Array.from({ length: span + 1 }, (_, i) => isoDay(start + i * DAY_MS))

  // Open at the end of day d: created before d ends, not closed before d ends.
  const openAt = (endOfDay: number): number =>
    issues.reduce((sum, issue) => {
      const created = Date.parse(issue.created_at)
      const closed = issue.closed_at === null ? Number.POSITIVE_INFINITY : Date.parse(issue.closed_at)
      return created < endOfDay && closed >= endOfDay ? sum + size(issue) : sum
    }, 0)

  const actual: BurndownPoint[] = []
  for (let t = start; t <= last; t += DAY_MS) actual.push({ date: isoDay(t), value: openAt(t + DAY_MS) })
  // What was open when the milestone began, plus what was added on its first day.
  const initial = actual[0]?.value ?? openAt(start + DAY_MS)
  const ideal: [BurndownPoint, BurndownPoint] = [
    { date: startDate, value: initial },
    { date: dueDate, value: 0 },
  ]
  const max = Math.max(initial, ...actual.map((p) => p.value))
  return { actual, ideal, days, max }
}

/** Round axis steps (1, 2, 5 × 10ⁿ) so that about `count` ticks cover 0…max. */
export function niceTicks(max: number, count = 4): number[] {
  if (max <= 0) return [0]
  const raw = max / count
  const magnitude = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw
  const wholeStep = Math.max(1, Math.round(step))
  const ticks: number[] = []
  for (let v = 0; v < max + wholeStep; v += wholeStep) ticks.push(v)
  return ticks
}
