const UNITS: Readonly<Record<string, number>> = {
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  mins: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hr: 3600,
  hrs: 3600,
  hour: 3600,
  hours: 3600,
  d: 86400,
  day: 86400,
  days: 86400,
  w: 604800,
  week: 604800,
  weeks: 604800,
  mo: 2592000,
  month: 2592000,
  months: 2592000,
  y: 31536000,
  yr: 31536000,
  year: 31536000,
  years: 31536000,
}

/**
 * Seconds in a CI duration (`timeout: 1h 30m`, `expire_in: 2 days`, `start_in: 30 minutes`, or a
 * bare number of seconds), as GitLab's ChronicDuration reads them; null when unreadable.
 */
export function parseCiDuration(input: unknown): number | null {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? Math.floor(input) : null
  if (typeof input !== 'string') return null
  const text = input.trim().toLowerCase()
  if (text === '') return null
  if (/^\d+$/.test(text)) return Number(text)
  let total = 0
  let matched = false
  const re = /(\d+(?:\.\d+)?)\s*([a-z]+)\s*(?:and\s+|,\s*)?/gy
  let m: RegExpExecArray | null
  let end = 0
  while ((m = re.exec(text)) !== null) {
    const unit = UNITS[m[2]]
    if (unit === undefined) return null
    total += Number(m[1]) * unit
    matched = true
    end = re.lastIndex
  }
  if (!matched || end !== text.length) return null
  return Math.round(total)
}
