import type { Option, Role, Tone } from './types'

/** GitLab's access levels, as the members and access-request APIs number them. */
export const ACCESS_LEVELS: readonly Option[] = [
  { value: 5, label: 'Minimal access' },
  { value: 10, label: 'Guest' },
  { value: 15, label: 'Planner' },
  { value: 20, label: 'Reporter' },
  { value: 30, label: 'Developer' },
  { value: 40, label: 'Maintainer' },
  { value: 50, label: 'Owner' },
]

/** The name of an access level (`40` → `Maintainer`); unknown numbers stay numbers. */
export function accessLevelName(level: unknown): string {
  const n =
    typeof level === 'object' && level !== null
      ? ((level as { integer_value?: unknown; access_level?: unknown }).integer_value ??
        (level as { access_level?: unknown }).access_level)
      : level
  if (n === 0) return 'No access'
  if (n === 60) return 'Administrator'
  return ACCESS_LEVELS.find((o) => o.value === n)?.label ?? (n === undefined || n === null ? '—' : String(n))
}

/** The least access level each role needs; `admin` is the instance's own flag, not a level. */
export const ROLE_LEVEL: Readonly<Record<Exclude<Role, 'admin'>, number>> = {
  'signed-in': 0,
  reporter: 20,
  developer: 30,
  maintainer: 40,
  owner: 50,
}

export const ROLE_NAME: Readonly<Record<Role, string>> = {
  'signed-in': 'a signed-in user',
  reporter: 'the Reporter role',
  developer: 'the Developer role',
  maintainer: 'the Maintainer role',
  owner: 'the Owner role',
  admin: 'an administrator',
}

/** Whether a viewer (admin flag, access level in the context) has a role. Administrators have every role. */
export function hasRole(
  role: Role | undefined,
  viewer: { readonly admin: boolean; readonly level: number | null },
): boolean {
  if (role === undefined || viewer.admin) return true
  if (role === 'admin') return false
  return (viewer.level ?? 0) >= ROLE_LEVEL[role]
}

const DEFAULT_TONES: Readonly<Record<string, Tone>> = {
  active: 'success',
  online: 'success',
  success: 'success',
  available: 'success',
  finished: 'success',
  opened: 'info',
  detected: 'warning',
  confirmed: 'error',
  resolved: 'success',
  dismissed: 'default',
  healthy: 'success',
  running: 'info',
  pending: 'warning',
  created: 'default',
  scheduled: 'info',
  started: 'info',
  preparing: 'info',
  waiting_for_resource: 'warning',
  manual: 'default',
  blocked: 'error',
  banned: 'error',
  deactivated: 'warning',
  failed: 'error',
  offline: 'error',
  never_contacted: 'default',
  stale: 'warning',
  paused: 'warning',
  stopped: 'default',
  stopping: 'warning',
  canceled: 'default',
  skipped: 'default',
  closed: 'default',
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'info',
  info: 'info',
  unknown: 'default',
  true: 'success',
  false: 'default',
}

/** The tag colour of a state value: the description's own tones first, then the usual meanings. */
export function stateTone(value: unknown, tones: Readonly<Record<string, Tone>> = {}): Tone {
  const key = String(value)
  return tones[key] ?? DEFAULT_TONES[key.toLowerCase()] ?? 'default'
}

/** `never_contacted` → `Never contacted`. */
export function humanize(value: unknown): string {
  const text = String(value).replace(/_/g, ' ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** A date (`2024-05-01`) or datetime as the user's locale writes the day. */
export function formatDate(value: unknown, locale?: string): string {
  if (typeof value !== 'string' || value === '') return '—'
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00`) : new Date(value)
  if (Number.isNaN(date.getTime())) return value
  return date.toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric' })
}

export function formatDateTime(value: unknown, locale?: string): string {
  if (typeof value !== 'string' || value === '') return '—'
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return value
  return date.toLocaleString(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  })
}

/** Seconds as a short duration (`1h 5m 3s`); jobs and timeouts count in seconds. */
export function formatSeconds(value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '—'
  let rest = Math.round(value)
  if (rest === 0) return '0s'
  const parts: string[] = []
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    const n = Math.floor(rest / size)
    if (n > 0) parts.push(`${n}${unit}`)
    rest -= n * size
  }
  return parts.join(' ')
}

/** Any value as one line of text: lists joined, objects by their name, nothing as a dash. */
export function plainText(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—'
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.map(plainText).join(', ')
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>
    for (const key of ['name', 'title', 'username', 'path_with_namespace', 'full_path', 'string_value'])
      if (typeof o[key] === 'string') return o[key] as string
    return JSON.stringify(value)
  }
  return String(value)
}

/** How much of a job log the detail shows: its end, where failures are. */
export const LOG_TAIL_CHARS = 200_000

/**
 * The end of a CI job log, as the runner wrote it (lib/ci-log.ts reads its colours and
 * sections): its last `limit` characters from the start of a line (`cut` says whether the
 * start was left out).
 */
export function logTail(raw: unknown, limit = LOG_TAIL_CHARS): { text: string; cut: boolean } {
  if (typeof raw !== 'string') return { text: '', cut: false }
  if (raw.length <= limit) return { text: raw, cut: false }
  const tail = raw.slice(raw.length - limit)
  const lineStart = tail.indexOf('\n')
  return { text: lineStart < 0 ? tail : tail.slice(lineStart + 1), cut: true }
}

/** A size in bytes as `12.3 KB` (powers of 1024, as file managers show them). */
export function formatBytes(value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return '—'
  if (value < 1024) return `${value} B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let size = value / 1024
  let unit = 0
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024
    unit += 1
  }
  return `${size < 10 ? size.toFixed(1) : Math.round(size)} ${units[unit]}`
}
