/** "3 minutes ago", "in 2 days": what the lists and timelines show next to a date. */

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
]

// Building an Intl formatter costs about a millisecond (locale data is resolved each time), and a
// list shows a date on every row: one formatter per locale, kept.
const relativeFormats = new Map<string | undefined, Intl.RelativeTimeFormat>()
const absoluteFormats = new Map<string | undefined, Intl.DateTimeFormat>()

function relativeFormat(locale: string | undefined): Intl.RelativeTimeFormat {
  let format = relativeFormats.get(locale)
  if (format === undefined) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })
    relativeFormats.set(locale, format)
  }
  return format
}

function absoluteFormat(locale: string | undefined): Intl.DateTimeFormat {
  let format = absoluteFormats.get(locale)
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' })
    absoluteFormats.set(locale, format)
  }
  return format
}

/** Formats `date` relative to `now`; under 45 seconds either way is "just now". Null for an unparsable date. */
export function formatRelativeTime(date: string | Date, now: Date = new Date(), locale?: string): string | null {
  const ms = typeof date === 'string' ? Date.parse(date) : date.getTime()
  if (Number.isNaN(ms)) return null
  const seconds = (ms - now.getTime()) / 1000
  if (Math.abs(seconds) < 45) return 'just now'
  const format = relativeFormat(locale)
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size * 0.9 || unit === 'minute') return format.format(Math.round(seconds / size), unit)
  }
  return null
}

/** The full date and time, for a tooltip. */
export function formatAbsoluteTime(date: string | Date, locale?: string): string | null {
  const ms = typeof date === 'string' ? Date.parse(date) : date.getTime()
  if (Number.isNaN(ms)) return null
  return absoluteFormat(locale).format(ms)
}
