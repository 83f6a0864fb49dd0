/**
 * GitLab's human time-tracking durations. A working day has 8 hours, a week 5 days and a month
 * 4 weeks, so `1mo` = 4w = 20d = 160h.
 */
const MINUTE = 60
const HOUR = 60 * MINUTE
const DAY = 8 * HOUR
const WEEK = 5 * DAY
const MONTH = 4 * WEEK

const UNITS: readonly (readonly [RegExp, number])[] = [
  [/^(mo|mos|months?)$/, MONTH],
  [/^(w|wk|wks|weeks?)$/, WEEK],
  [/^(d|days?)$/, DAY],
  [/^(h|hr|hrs|hours?)$/, HOUR],
  [/^(m|min|mins|minutes?)$/, MINUTE],
  [/^(s|sec|secs|seconds?)$/, 1],
]

/**
 * Parses GitLab's time-tracking durations — `1h30m`, `1h 30m`, `1w 2d`, `1mo`, `-2h`, `45 minutes` —
 * into seconds; a bare number counts hours (GitLab's default unit). Returns null when the text is
 * not a duration. The server reads `/estimate`, `/spend` and the time tracking API with it, the
 * app its time fields.
 */
export function parseDuration(text: string): number | null {
  let rest = text.trim().toLowerCase()
  let sign = 1
  if (rest.startsWith('-')) {
    sign = -1
    rest = rest.slice(1).trim()
  }
  if (rest === '') return null
  if (/^\d+(\.\d+)?$/.test(rest)) return sign * Math.round(Number(rest) * HOUR)
  const token = /(\d+(?:\.\d+)?)\s*([a-z]+)[\s,]*/y
  let seconds = 0
  let matched = 0
  while (token.lastIndex < rest.length) {
    const m = token.exec(rest)
    if (!m) return null
    const unit = UNITS.find(([re]) => re.test(m[2]))
    if (!unit) return null
    seconds += Number(m[1]) * unit[1]
    matched += 1
  }
  return matched === 0 ? null : sign * Math.round(seconds)
}

/** `5400` → `1h 30m`, `1d` for 8 hours, `1w 2d 3h` (GitLab's short output); null for 0. */
export function humanDuration(seconds: number): string | null {
  if (seconds === 0) return null
  let rest = Math.abs(seconds)
  const parts: string[] = []
  for (const [unit, size] of [
    ['mo', MONTH],
    ['w', WEEK],
    ['d', DAY],
    ['h', HOUR],
    ['m', MINUTE],
    ['s', 1],
  ] as const) {
    const n = Math.floor(rest / size)
    if (n > 0) parts.push(`${n}${unit}`)
    rest -= n * size
  }
  return `${seconds < 0 ? '-' : ''}${parts.join(' ')}`
}
