import { isRecord } from '../json'
import { isAccountId } from './account-id'

/**
 * The app preferences part of the IPC contract (contract.ts imports it): one set of settings
 * per installation, kept by core (core/preferences.ts) so they survive restarts in both shells
 * (browser mode gets a new origin each launch, which empties the page's localStorage).
 */

export type ThemePreference = 'system' | 'light' | 'dark'

/**
 * What can announce itself (a toast, the inbox, a desktop notification): to-dos by why they
 * were made — mentions (`mentioned`, `directly_addressed`), assignments, review requests
 * (`review_requested`, `approval_required`), every other to-do — and alerts.
 */
export type NotifyTopic = 'mentions' | 'assignments' | 'reviews' | 'otherTodos' | 'alerts'
export const NOTIFY_TOPICS: readonly NotifyTopic[] = ['mentions', 'assignments', 'reviews', 'otherTodos', 'alerts']

/** A named issue filter: the query string of the renderer's lib/issue-filter.ts, for one account or all. */
export interface SavedFilter {
  readonly id: string
  readonly name: string
  /** `serializeIssueFilter` output (the REST API's own parameter names). */
  readonly query: string
  /** An account id, or `all`. */
  readonly account: string
}

/** An item opened lately (an issue, merge request, epic or milestone), for the palette's Recent list. */
export interface RecentItem {
  readonly accountId: string
  readonly kind: 'issue' | 'merge_request' | 'epic' | 'milestone'
  /** The app route of its page (`/a/ACCOUNT/projects/P/issues/IID`…). */
  readonly route: string
  readonly title: string
  /** GitLab's reference (`group/project#12`). */
  readonly reference: string
}

/** The files of one merge request marked viewed in review, at one head: a push starts the marks again. */
export interface ViewedFiles {
  readonly accountId: string
  readonly projectId: number
  readonly iid: number
  /** The head commit the marks were made at. */
  readonly headSha: string
  /** New paths of the files marked viewed. */
  readonly paths: readonly string[]
}

export interface Preferences {
  /** Desktop notifications for new to-dos and alerts (native in Electron, Web Notifications in browser mode). */
  readonly notifications: boolean
  /** How often each account's to-dos and alerts are checked, in seconds (30–3600). */
  readonly notifyIntervalSeconds: number
  /** `system` follows the OS (prefers-color-scheme). */
  readonly theme: ThemePreference
  readonly sidebarCollapsed: boolean
  /** Saved issue filters, in the order they were saved (at most 200). */
  readonly savedFilters: readonly SavedFilter[]
  /** Time between the periodic syncs of each account, in minutes (1–1440). */
  readonly syncIntervalMinutes: number
  /** Items opened lately, most recent first (at most 20). */
  readonly recentItems: readonly RecentItem[]
  /** Per account id, the topics that do not announce themselves (an account not listed hears of everything). */
  readonly mutedTopics: Readonly<Record<string, readonly NotifyTopic[]>>
  /** Files marked viewed in review, per merge request at its head, most recently reviewed first (at most 100). */
  readonly viewedFiles: readonly ViewedFiles[]
}

export const DEFAULT_PREFERENCES: Preferences = {
  notifications: true,
  notifyIntervalSeconds: 60,
  theme: 'system',
  sidebarCollapsed: false,
  savedFilters: [],
  syncIntervalMinutes: 5,
  recentItems: [],
  mutedTopics: {},
  viewedFiles: [],
}

/** Whether `topic` announces itself for the account under these preferences. */
export function topicAnnounces(
  preferences: Pick<Preferences, 'mutedTopics'>,
  accountId: string,
  topic: NotifyTopic,
): boolean {
  return !(preferences.mutedTopics[accountId] ?? []).includes(topic)
}

export const MAX_SAVED_FILTERS = 200
export const MAX_RECENT_ITEMS = 20
export const MAX_VIEWED_MERGE_REQUESTS = 100
export const MAX_VIEWED_PATHS = 5_000

// ---- validation ------------------------------------------------------------------------------

const isIntIn = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max
const isText = (v: unknown, min: number, max: number): v is string =>
  typeof v === 'string' && v.length >= min && v.length <= max

function savedFiltersProblem(v: unknown): string | null {
  if (!Array.isArray(v)) return 'savedFilters must be a list'
  if (v.length > MAX_SAVED_FILTERS) return `savedFilters holds at most ${MAX_SAVED_FILTERS} filters`
  for (const [i, f] of v.entries()) {
    if (!isRecord(f)) return `savedFilters[${i}] must be an object {id, name, query, account}`
    const extra = Object.keys(f).filter((k) => !['id', 'name', 'query', 'account'].includes(k))
    if (extra.length > 0) return `savedFilters[${i}]: unknown field(s): ${extra.join(', ')}`
    if (!isText(f.id, 1, 100)) return `savedFilters[${i}].id must be a string of 1 to 100 characters`
    if (!isText(f.name, 1, 200) || f.name.trim() !== f.name)
      return `savedFilters[${i}].name must be a trimmed string of 1 to 200 characters`
    if (!isText(f.query, 0, 4000)) return `savedFilters[${i}].query must be a string of at most 4000 characters`
    if (!isAccountId(f.account)) return `savedFilters[${i}].account must be an account id or all`
  }
  const ids = new Set(v.map((f: { id: string }) => f.id))
  return ids.size === v.length ? null : 'savedFilters ids must be unique'
}

function recentItemsProblem(v: unknown): string | null {
  if (!Array.isArray(v)) return 'recentItems must be a list'
  if (v.length > MAX_RECENT_ITEMS) return `recentItems holds at most ${MAX_RECENT_ITEMS} items`
  for (const [i, item] of v.entries()) {
    if (!isRecord(item)) return `recentItems[${i}] must be an object {accountId, kind, route, title, reference}`
    const extra = Object.keys(item).filter((k) => !['accountId', 'kind', 'route', 'title', 'reference'].includes(k))
    if (extra.length > 0) return `recentItems[${i}]: unknown field(s): ${extra.join(', ')}`
    if (!isAccountId(item.accountId)) return `recentItems[${i}].accountId must be an account id`
    if (!['issue', 'merge_request', 'epic', 'milestone'].includes(item.kind as string))
      return `recentItems[${i}].kind must be one of issue, merge_request, epic, milestone`
    if (!isText(item.route, 2, 500) || !item.route.startsWith('/a/'))
      return `recentItems[${i}].route must be an item route (/a/…)`
    if (!isText(item.title, 0, 1000)) return `recentItems[${i}].title must be a string of at most 1000 characters`
    if (!isText(item.reference, 1, 1000)) return `recentItems[${i}].reference must be a string of 1 to 1000 characters`
  }
  return null
}

function viewedFilesProblem(v: unknown): string | null {
  if (!Array.isArray(v)) return 'viewedFiles must be a list'
  if (v.length > MAX_VIEWED_MERGE_REQUESTS)
    return `viewedFiles holds at most ${MAX_VIEWED_MERGE_REQUESTS} merge requests`
  for (const [i, entry] of v.entries()) {
    if (!isRecord(entry)) return `viewedFiles[${i}] must be an object {accountId, projectId, iid, headSha, paths}`
    const extra = Object.keys(entry).filter((k) => !['accountId', 'projectId', 'iid', 'headSha', 'paths'].includes(k))
    if (extra.length > 0) return `viewedFiles[${i}]: unknown field(s): ${extra.join(', ')}`
    if (!isAccountId(entry.accountId)) return `viewedFiles[${i}].accountId must be an account id`
    if (!isIntIn(entry.projectId, 1, Number.MAX_SAFE_INTEGER) || !isIntIn(entry.iid, 1, Number.MAX_SAFE_INTEGER))
      return `viewedFiles[${i}] must name a project id and an iid (positive integers)`
    if (typeof entry.headSha !== 'string' || !/^[0-9a-f]{7,64}$/.test(entry.headSha))
      return `viewedFiles[${i}].headSha must be a commit id`
    const paths = entry.paths
    if (!Array.isArray(paths) || paths.length > MAX_VIEWED_PATHS || !paths.every((p) => isText(p, 1, 4096)))
      return `viewedFiles[${i}].paths must be a list of at most ${MAX_VIEWED_PATHS} file paths`
  }
  return null
}

const MAX_MUTED_ACCOUNTS = 200

function mutedTopicsProblem(v: unknown): string | null {
  if (!isRecord(v)) return 'mutedTopics must be an object of account ids to lists of topics'
  const entries = Object.entries(v)
  if (entries.length > MAX_MUTED_ACCOUNTS) return `mutedTopics holds at most ${MAX_MUTED_ACCOUNTS} accounts`
  for (const [accountId, topics] of entries) {
    if (!isAccountId(accountId)) return 'mutedTopics keys must be account ids of 1 to 200 characters'
    if (
      !Array.isArray(topics) ||
      !topics.every((t) => (NOTIFY_TOPICS as readonly unknown[]).includes(t)) ||
      new Set(topics).size !== topics.length
    ) {
      return `mutedTopics[${accountId}] must be a list of distinct topics among ${NOTIFY_TOPICS.join(', ')}`
    }
  }
  return null
}

/** Why a value is not valid for its key (null when it is), for the IPC boundary and for stored rows. */
const PROBLEMS: { readonly [K in keyof Preferences]: (v: unknown) => string | null } = {
  notifications: (v) => (typeof v === 'boolean' ? null : 'notifications must be a boolean'),
  notifyIntervalSeconds: (v) =>
    isIntIn(v, 30, 3600) ? null : 'notifyIntervalSeconds must be an integer from 30 to 3600',
  theme: (v) => (v === 'system' || v === 'light' || v === 'dark' ? null : 'theme must be one of system, light, dark'),
  sidebarCollapsed: (v) => (typeof v === 'boolean' ? null : 'sidebarCollapsed must be a boolean'),
  savedFilters: savedFiltersProblem,
  syncIntervalMinutes: (v) => (isIntIn(v, 1, 1440) ? null : 'syncIntervalMinutes must be an integer from 1 to 1440'),
  recentItems: recentItemsProblem,
  mutedTopics: mutedTopicsProblem,
  viewedFiles: viewedFilesProblem,
}

export const PREFERENCE_KEYS = Object.keys(PROBLEMS) as readonly (keyof Preferences)[]

export function isPreferenceKey(key: string): key is keyof Preferences {
  return Object.prototype.hasOwnProperty.call(PROBLEMS, key)
}

/** Why `value` cannot be stored under `key`, or null. */
export function preferenceProblem<K extends keyof Preferences>(key: K, value: unknown): string | null {
  return PROBLEMS[key](value)
}

function setPreferencesArgs(args: readonly unknown[]): string | null {
  if (args.length !== 1 || !isRecord(args[0])) return `expected one object with some of ${PREFERENCE_KEYS.join(', ')}`
  const changes = args[0]
  const extra = Object.keys(changes).filter((k) => !isPreferenceKey(k))
  if (extra.length > 0) return `unknown field(s): ${extra.join(', ')}`
  if (Object.keys(changes).length === 0) return 'give at least one preference'
  for (const key of PREFERENCE_KEYS) {
    if (changes[key] === undefined) continue
    const problem = preferenceProblem(key, changes[key])
    if (problem !== null) return problem
  }
  return null
}

const noArgs = (args: readonly unknown[]): string | null =>
  args.length === 0 ? null : `expected no arguments, got ${args.length}`

/** The validators of the preferences channels, spread into request-validators.ts. */
export const preferencesValidators = {
  'preferences:get': noArgs,
  'preferences:set': setPreferencesArgs,
} as const

export interface PreferencesRequests {
  'preferences:get': { readonly args: readonly []; readonly result: Preferences }
  /** Changes the given preferences (each validated); the whole set after the change. */
  'preferences:set': { readonly args: readonly [changes: Partial<Preferences>]; readonly result: Preferences }
}

export interface PreferencesEvents {
  /** The whole set after a change, whoever made it (another window, the tray). */
  'preferences:did-change': Preferences
}
