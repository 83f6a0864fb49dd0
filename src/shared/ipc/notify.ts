import { Type, type Static, type TSchema } from 'typebox'
import { ALERT_STATUSES, type AlertSeverity, type AlertStatus } from '../alerts'
import { Entity } from '../api/common'

/**
 * The notification part of the IPC contract (contract.ts imports it): the to-do and alert
 * watcher's counts and announcements (core/notify), the alert list and the two alert actions,
 * and the shell's request to show a route. The preferences that govern notifications are in
 * preferences.ts.
 */
import type { NotifyTopic } from './preferences'
import { AccountId, argumentsCheck, Explained, mustBeOneOf, PositiveInteger, schemaCheck } from './schema-check'

// An alert's status and severity, in the REST API's lower case (GraphQL's enums upper-cased).
export type { AlertSeverity, AlertStatus }

/** `open` is triggered or acknowledged (GitLab's "Open" tab). */
export const AlertStatusFilter = Type.Enum([...ALERT_STATUSES, 'open', 'all'] as const)
export type AlertStatusFilter = Static<typeof AlertStatusFilter>

/** What the watcher knows of one account. */
export interface NotifyAccountCounts {
  readonly accountId: string
  /** Pending to-dos in the cache (optimistic "done" marks already applied). */
  readonly pendingTodos: number
  /** Triggered or acknowledged alerts over the projects in the account's sync scope; null before the first alert check. */
  readonly openAlerts: number | null
  /** The triggered part of `openAlerts` (nobody has acknowledged them yet). */
  readonly triggeredAlerts: number | null
  /**
   * - `watching`: checks run on the interval;
   * - `offline`: the instance cannot be reached; checks resume (and catch up) when it comes back;
   * - `failing`: the last check failed (`lastError`); the next one waits longer each time;
   * - `idle`: not watched in this launch (tests, or a launch without scheduling).
   */
  readonly state: 'watching' | 'offline' | 'failing' | 'idle'
  readonly lastError: string | null
  /** ISO 8601 of the last successful to-do and alert checks. */
  readonly todosCheckedAt: string | null
  readonly alertsCheckedAt: string | null
}

/** `notify:did-change`, and the counts part of `notify:summary`. */
export interface NotifyCounts {
  readonly accounts: readonly NotifyAccountCounts[]
  readonly pendingTodos: number
  /** Open alerts of the accounts whose alerts were checked. */
  readonly openAlerts: number
}

/** A pending to-do as the tray and status area list it. */
export interface NotifyTodo {
  readonly accountId: string
  readonly id: number
  /** `Ada Lovelace assigned you`. */
  readonly title: string
  /** The target's title and reference (`Fix the login · kestrel/api#12`). */
  readonly body: string
  readonly createdAt: string
  /** The target's page on the forge. */
  readonly url: string | null
  /** The renderer route of the target (see docs/architecture.md, notify routes). */
  readonly route: string
}

/** An alert as the watcher and `notify:list-alerts` see it. */
export interface NotifyAlert {
  readonly accountId: string
  readonly projectId: number
  readonly projectPath: string
  readonly iid: number
  readonly title: string
  readonly severity: AlertSeverity
  readonly status: AlertStatus
  readonly startedAt: string | null
  readonly createdAt: string | null
  readonly eventCount: number
  readonly assigneeUsernames: readonly string[]
  /** The alert's page on the forge (`detailsUrl`). */
  readonly url: string | null
  readonly route: string
}

/** `notify:summary`: the counts and the newest items, for the tray menu and the status area. */
export interface NotifySummary extends NotifyCounts {
  /** Newest pending to-dos over every account, at most 5. */
  readonly latestTodos: readonly NotifyTodo[]
  /** Newest triggered alerts over every account, at most 5. */
  readonly latestAlerts: readonly NotifyAlert[]
}

/** `notify:did-announce`: something new the user should hear about (a desktop notification). */
export interface NotifyAnnouncement {
  readonly kind: 'todo' | 'alert'
  readonly accountId: string
  /** Stable name of what is announced (`todo:42`, `alert:7:3`, `todos:summary`): use it as the notification's tag. */
  readonly key: string
  readonly title: string
  readonly body: string
  readonly url: string | null
  readonly route: string
  /** 1 for one item; more for a summary (what was already there when the account was added, or a burst). */
  readonly count: number
  /** What it is about (the preference that lets it through); null for a summary of several. */
  readonly topic: NotifyTopic | null
}

const TODO_TOPICS: Readonly<Record<string, NotifyTopic>> = {
  mentioned: 'mentions',
  directly_addressed: 'mentions',
  assigned: 'assignments',
  review_requested: 'reviews',
  approval_required: 'reviews',
}

/** The topic of a to-do, by its `action_name`. */
export function todoTopic(actionName: string): NotifyTopic {
  return TODO_TOPICS[actionName] ?? 'otherTodos'
}

// Requests are refused in sentences naming the field: `projectId must be a positive integer`.
const NOT_ONE_LIST_REQUEST = 'expected one request {accountId, status?}'
const PositiveId = Explained(PositiveInteger, 'must be a positive integer')

export const AlertListRequest = Explained(
  Entity({
    accountId: AccountId,
    /** Default `open`. */
    status: Type.Optional(Explained(AlertStatusFilter, mustBeOneOf(AlertStatusFilter.enum))),
  }),
  { type: NOT_ONE_LIST_REQUEST },
)
export type AlertListRequest = Static<typeof AlertListRequest>

export interface AlertList {
  /** Newest first. */
  readonly items: readonly NotifyAlert[]
  /** True when the instance could not be asked and the items are what the last check saw. */
  readonly stale: boolean
  /** When the items were read from the instance (ISO 8601), null if never. */
  readonly checkedAt: string | null
}

/** An alert, by its project and its iid there. */
const alertRef = { projectId: PositiveId, iid: PositiveId }
const requestObject = { type: 'must be an object' }

export const AlertRef = Explained(Entity(alertRef), requestObject)
export type AlertRef = Static<typeof AlertRef>

export const AlertStatusRequest = Explained(
  Entity({ ...alertRef, status: Explained(Type.Enum(ALERT_STATUSES), mustBeOneOf(ALERT_STATUSES)) }),
  requestObject,
)
export type AlertStatusRequest = Static<typeof AlertStatusRequest>

/** A username as GitLab allows one. */
const Username = Type.String({ pattern: '^[A-Za-z0-9_.][A-Za-z0-9_.-]{0,254}$' })

export const AlertAssignRequest = Explained(
  Entity({
    ...alertRef,
    /** Replaces the assignees; empty unassigns. GitLab allows one. */
    assigneeUsernames: Explained(
      Type.Immutable(Type.Array(Username, { maxItems: 100 })),
      'must be a list of usernames',
    ),
  }),
  requestObject,
)
export type AlertAssignRequest = Static<typeof AlertAssignRequest>

/** `app:did-request-route`: the shell asks the page to show a route (a tray item or a notification was clicked). */
export interface RouteRequest {
  readonly route: string
}

// ---- argument validation ---------------------------------------------------------------------

type Problem = string | null

const sentences = { style: 'sentence' } as const

const noArgs = (args: readonly unknown[]): Problem =>
  args.length === 0 ? null : `expected no arguments, got ${args.length}`

const listAlertsRequest = schemaCheck(AlertListRequest, sentences)

function listAlertsArgs(args: readonly unknown[]): Problem {
  return args.length === 1 ? listAlertsRequest(args[0]) : NOT_ONE_LIST_REQUEST
}

/** The arguments of an alert action: the account id, then the request `schema` describes. */
const alertAction = (schema: TSchema) => argumentsCheck({ accountId: AccountId, request: schema }, sentences)

/** The validators of the notify channels, spread into request-validators.ts. */
export const notifyValidators = {
  'notify:summary': noArgs,
  'notify:check': argumentsCheck({ 'accountId?': AccountId }, sentences),
  'notify:list-alerts': listAlertsArgs,
  'alerts:update-status': alertAction(AlertStatusRequest),
  'alerts:assign': alertAction(AlertAssignRequest),
} as const

/**
 * The notify request channels. The alert actions go straight to the instance (GraphQL) and fail
 * with code `offline` when it cannot be reached: they are never queued.
 */
export interface NotifyRequests {
  /** Counts and the newest to-dos and alerts (the tray menu, the status area). */
  'notify:summary': { readonly args: readonly []; readonly result: NotifySummary }
  /** Checks to-dos and alerts now (one account, or every one); resolves with the counts after the check. */
  'notify:check': { readonly args: readonly [accountId?: string]; readonly result: NotifyCounts }
  /** The alerts of the account's synced projects, from the instance; offline, the open ones the last check saw (`stale`). */
  'notify:list-alerts': { readonly args: readonly [request: AlertListRequest]; readonly result: AlertList }
  /** Online only: sets the status (`updateAlertStatus`); the updated alert. */
  'alerts:update-status': {
    readonly args: readonly [accountId: string, request: AlertStatusRequest]
    readonly result: NotifyAlert
  }
  /** Online only: replaces the assignees (`alertSetAssignees`); the updated alert. */
  'alerts:assign': {
    readonly args: readonly [accountId: string, request: AlertAssignRequest]
    readonly result: NotifyAlert
  }
}

export interface NotifyEvents {
  /** The counts changed (a check, a cache change of to-dos, an alert action, an account added or removed). */
  'notify:did-change': NotifyCounts
  /** A new to-do or alert; whether to raise a desktop notification is the `notifications` preference. */
  'notify:did-announce': NotifyAnnouncement
  /** Sent by the Electron shell when a tray item or a notification is clicked: show this route. */
  'app:did-request-route': RouteRequest
}
