/** Calendar days (`YYYY-MM-DD`: due dates, start dates) as the app shows them. */

/**
 * A calendar day as the user's locale writes it (`Nov 30, 2026`), the way an issue's due date
 * reads. Read at local noon, so no time zone moves it to the day before; anything else is
 * returned as it came.
 */
export function formatDay(day: string, locale?: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return day
  const date = new Date(`${day}T12:00:00`)
  if (Number.isNaN(date.getTime())) return day
  return date.toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric' })
}

/** A start and due day as one phrase: `Jun 18, 2026 → Dec 2, 2026`, `from …`, `until …`, or `No dates`. */
export function formatDayRange(
  start: string | null | undefined,
  due: string | null | undefined,
  locale?: string,
): string {
  if (start && due) return `${formatDay(start, locale)} → ${formatDay(due, locale)}`
  if (start) return `from ${formatDay(start, locale)}`
  if (due) return `until ${formatDay(due, locale)}`
  return 'No dates'
}
