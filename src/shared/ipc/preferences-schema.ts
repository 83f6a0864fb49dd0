import { Type, type Static, type TSchema } from 'typebox'
import { Entity } from '../api/common'
import { isAccountId } from './account-id'
import {
  MAX_RECENT_ITEMS,
  MAX_SAVED_FILTERS,
  MAX_VIEWED_MERGE_REQUESTS,
  MAX_VIEWED_PATHS,
  NOTIFY_TOPICS,
} from './preferences'
import { AccountId, Explained, PositiveInteger, mustBeOneOf, schemaCheck } from './schema-check'

/**
 * The app preferences' shapes (preferences.ts re-exports their types), each one TypeBox schema:
 * its type comes from `Static`, and its check, at the IPC boundary and for stored rows
 * (core/preferences.ts), from the schema. Refusals are sentences naming the value
 * (`savedFilters[0].name must be a trimmed string of 1 to 200 characters`). A module of its own so
 * the page, which imports preferences.ts for the defaults, does not bundle typebox.
 */

const MAX_MUTED_ACCOUNTS = 200

export const ThemePreference = Type.Enum(['system', 'light', 'dark'])
export type ThemePreference = Static<typeof ThemePreference>

/** What can announce itself (NOTIFY_TOPICS). */
export const NotifyTopic = Type.Enum(NOTIFY_TOPICS)
export type NotifyTopic = Static<typeof NotifyTopic>

/** A list of at most `max` items, refused as `must be a list` or `holds at most <max> <noun>`. */
function List<T extends TSchema>(item: T, max: number, noun: string) {
  return Explained(Type.Immutable(Type.Array(item, { maxItems: max })), {
    type: 'must be a list',
    maxItems: `holds at most ${max} ${noun}`,
  })
}

/** An object of the named fields and no other, refused as `must be an object {…}` when it is not one. */
function Item<T extends Parameters<typeof Entity>[0]>(fields: T) {
  return Explained(Entity(fields), { type: `must be an object {${Object.keys(fields).join(', ')}}` })
}

/** A string of `min` to `max` characters, refused with `why`. */
const Str = (min: number, max: number, why: string) => Explained(Type.String({ minLength: min, maxLength: max }), why)

/** A named issue filter: the query string of the renderer's lib/issue-filter.ts, for one account or all. */
export const SavedFilter = Item({
  id: Str(1, 100, 'must be a string of 1 to 100 characters'),
  name: Explained(
    Type.String({ minLength: 1, maxLength: 200, pattern: '^\\S([\\s\\S]*\\S)?$' }),
    'must be a trimmed string of 1 to 200 characters',
  ),
  /** `serializeIssueFilter` output (the REST API's own parameter names). */
  query: Str(0, 4000, 'must be a string of at most 4000 characters'),
  /** An account id, or `all`. */
  account: Explained(AccountId, 'must be an account id or all'),
})
export type SavedFilter = Static<typeof SavedFilter>

const SavedFilters = Type.Refine(
  List(SavedFilter, MAX_SAVED_FILTERS, 'filters'),
  (filters) => new Set(filters.map((f) => f.id)).size === filters.length,
  () => 'ids must be unique',
)

const RECENT_KINDS = ['issue', 'merge_request', 'epic', 'milestone'] as const

/** An item opened lately (an issue, merge request, epic or milestone), for the palette's Recent list. */
export const RecentItem = Item({
  accountId: Explained(AccountId, 'must be an account id'),
  kind: Explained(Type.Enum(RECENT_KINDS), mustBeOneOf(RECENT_KINDS)),
  /** The app route of its page (`/a/ACCOUNT/projects/P/issues/IID`…). */
  route: Explained(Type.String({ minLength: 3, maxLength: 500, pattern: '^/a/' }), 'must be an item route (/a/…)'),
  title: Str(0, 1000, 'must be a string of at most 1000 characters'),
  /** GitLab's reference (`group/project#12`). */
  reference: Str(1, 1000, 'must be a string of 1 to 1000 characters'),
})
export type RecentItem = Static<typeof RecentItem>

/** The files of one merge request marked viewed in review, at one head: a push starts the marks again. */
export const ViewedFiles = Item({
  accountId: Explained(AccountId, 'must be an account id'),
  projectId: Explained(PositiveInteger, 'must be a positive integer'),
  iid: Explained(PositiveInteger, 'must be a positive integer'),
  /** The head commit the marks were made at. */
  headSha: Explained(Type.String({ pattern: '^[0-9a-f]{7,64}$' }), 'must be a commit id'),
  /** New paths of the files marked viewed. */
  paths: Explained(
    Type.Immutable(Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), { maxItems: MAX_VIEWED_PATHS })),
    `must be a list of at most ${MAX_VIEWED_PATHS} file paths`,
  ),
})
export type ViewedFiles = Static<typeof ViewedFiles>

/** Per account id, the topics that do not announce themselves. */
const MutedTopics = Type.Refine(
  Explained(
    Type.Record(
      Type.String(),
      Explained(
        Type.Immutable(Type.Array(NotifyTopic, { uniqueItems: true })),
        `must be a list of distinct topics among ${NOTIFY_TOPICS.join(', ')}`,
      ),
      { maxProperties: MAX_MUTED_ACCOUNTS },
    ),
    {
      type: 'must be an object of account ids to lists of topics',
      maxProperties: `holds at most ${MAX_MUTED_ACCOUNTS} accounts`,
    },
  ),
  (muted) => Object.keys(muted).every(isAccountId),
  () => 'keys must be account ids of 1 to 200 characters',
)

const IntegerFrom = (min: number, max: number) =>
  Explained(Type.Integer({ minimum: min, maximum: max }), `must be an integer from ${min} to ${max}`)

export const Preferences = Entity({
  /** Desktop notifications for new to-dos and alerts (native in Electron, Web Notifications in browser mode). */
  notifications: Explained(Type.Boolean(), 'must be a boolean'),
  /** How often each account's to-dos and alerts are checked, in seconds (30–3600). */
  notifyIntervalSeconds: IntegerFrom(30, 3600),
  /** `system` follows the OS (prefers-color-scheme). */
  theme: Explained(ThemePreference, mustBeOneOf(ThemePreference.enum)),
  sidebarCollapsed: Explained(Type.Boolean(), 'must be a boolean'),
  /** Saved issue filters, in the order they were saved (at most 200). */
  savedFilters: SavedFilters,
  /** Time between the periodic syncs of each account, in minutes (1–1440). */
  syncIntervalMinutes: IntegerFrom(1, 1440),
  /** Items opened lately, most recent first (at most 20). */
  recentItems: List(RecentItem, MAX_RECENT_ITEMS, 'items'),
  /** Per account id, the topics that do not announce themselves (an account not listed hears of everything). */
  mutedTopics: MutedTopics,
  /** Files marked viewed in review, per merge request at its head, most recently reviewed first (at most 100). */
  viewedFiles: List(ViewedFiles, MAX_VIEWED_MERGE_REQUESTS, 'merge requests'),
})
export type Preferences = Static<typeof Preferences>

// ---- validation ------------------------------------------------------------------------------

export const PREFERENCE_KEYS = Object.keys(Preferences.properties) as readonly (keyof Preferences)[]

const NOT_ONE_OBJECT = `expected one object with some of ${PREFERENCE_KEYS.join(', ')}`

/** `preferences:set`'s changes: some of the preferences, at least one. */
const PreferenceChanges = Explained(Type.Partial(Preferences, { additionalProperties: false, minProperties: 1 }), {
  type: NOT_ONE_OBJECT,
  minProperties: 'give at least one preference',
})

const changesProblem = schemaCheck(PreferenceChanges, { style: 'sentence' })

/** Why `value` cannot be stored under `key`, or null: for the IPC boundary and for stored rows. */
export function preferenceProblem<K extends keyof Preferences>(key: K, value: unknown): string | null {
  return changesProblem({ [key]: value })
}

const setPreferencesArgs = (args: readonly unknown[]): string | null =>
  args.length === 1 ? changesProblem(args[0]) : NOT_ONE_OBJECT

const noArgs = (args: readonly unknown[]): string | null =>
  args.length === 0 ? null : `expected no arguments, got ${args.length}`

/** The validators of the preferences channels, spread into request-validators.ts. */
export const preferencesValidators = {
  'preferences:get': noArgs,
  'preferences:set': setPreferencesArgs,
} as const
