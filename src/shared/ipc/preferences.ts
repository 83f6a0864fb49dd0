import type { NotifyTopic, Preferences } from './preferences-schema'

/**
 * The app preferences part of the IPC contract (contract.ts imports it): one set of settings
 * per installation, kept by core (core/preferences.ts) so they survive restarts in both shells
 * (browser mode gets a new origin each launch, which empties the page's localStorage). The
 * shapes and their checks are TypeBox schemas in preferences-schema.ts; this module, which the
 * page imports for the defaults, takes only their types.
 */

export type {
  NotifyTopic,
  Preferences,
  RecentItem,
  SavedFilter,
  ThemePreference,
  ViewedFiles,
} from './preferences-schema'

export const MAX_SAVED_FILTERS = 200
export const MAX_RECENT_ITEMS = 20
export const MAX_VIEWED_MERGE_REQUESTS = 100
export const MAX_VIEWED_PATHS = 5_000

/**
 * What can announce itself (a toast, the inbox, a desktop notification): to-dos by why they
 * were made — mentions (`mentioned`, `directly_addressed`), assignments, review requests
 * (`review_requested`, `approval_required`), every other to-do — and alerts.
 */
export const NOTIFY_TOPICS = ['mentions', 'assignments', 'reviews', 'otherTodos', 'alerts'] as const

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

export interface PreferencesRequests {
  'preferences:get': { readonly args: readonly []; readonly result: Preferences }
  /** Changes the given preferences (each validated); the whole set after the change. */
  'preferences:set': { readonly args: readonly [changes: Partial<Preferences>]; readonly result: Preferences }
}

export interface PreferencesEvents {
  /** The whole set after a change, whoever made it (another window, the tray). */
  'preferences:did-change': Preferences
}
