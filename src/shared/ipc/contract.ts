/**
 * The one contract between the renderer and the main process (DESIGN.md, "Why this shape").
 *
 * Requests are named `domain:verb` and answer once; events are named `domain:did-…` and are
 * pushed by main. Both transports (Electron IPC through the preload, and the WebSocket of
 * browser mode) carry exactly these maps, validated at the boundary (request-validators.ts).
 */

import type { Account, AddAccountRequest } from './accounts'
import type { ApiRequests } from './api'
import type { AvatarsRequests } from './avatars'
import type { CacheEvents, CacheRequests } from './cache'
import type { NotifyEvents, NotifyRequests } from './notify'
import type { OutboxEvents, OutboxRequests } from './outbox'
import type { PreferencesEvents, PreferencesRequests } from './preferences'
import type { ReposEvents, ReposRequests } from './repos'
import type { ReviewRequests } from './review'
import type { SecretsRequests } from './secrets'

/** Which shell hosts the renderer. */
export type AppMode = 'electron' | 'browser'

/** `app:diagnostics`: text for a bug report, with no token, username or password in it. */
export interface Diagnostics {
  readonly text: string
}

export interface AppInfo {
  /** Burrow's own version (package.json). */
  readonly version: string
  readonly mode: AppMode
  /** Base URL of the local Burrow Server (`http://127.0.0.1:PORT`), or null when none runs. */
  readonly serverUrl: string | null
  /**
   * True when the launcher handed this launch the local server's credential: the local account
   * (`LOCAL_ACCOUNT_ID`) signs in without a token, and `accounts:add-local` adds it back.
   */
  readonly localAccount: boolean
}

export interface ServerStatus {
  readonly url: string | null
  /** `reachable` when GET /api/v4/version answered 200 just now. */
  readonly state: 'reachable' | 'unreachable' | 'none'
  /** The server's API version (`17.6.0`) when reachable. */
  readonly version: string | null
  readonly revision: string | null
}

/** The id of the account on the local Burrow Server that `npm start` runs (`kind: 'local'`). */
export const LOCAL_ACCOUNT_ID = 'local'

/** An account on a forge instance, and why it must sign in again: see accounts.ts. */
export type { Account, SignInRequired } from './accounts'

/** `accounts:add` with a personal access token, or with a username and password (OAuth): see accounts.ts. */
export type { AddAccountRequest } from './accounts'

export interface AccountVerification {
  readonly account: Account
  /** `valid`: GET /user answered; `invalid-credentials`: 401; `unreachable`: no HTTP answer. */
  readonly state: 'valid' | 'invalid-credentials' | 'unreachable'
  readonly message: string | null
}

/** Request channels: arguments as a tuple, and what the handler resolves to. The outbox's channels are in outbox.ts, the pending review's in review.ts, the cache's and sync's in cache.ts, `api:send` in api.ts. */
export interface IpcRequests
  extends
    OutboxRequests,
    ReviewRequests,
    CacheRequests,
    ApiRequests,
    NotifyRequests,
    PreferencesRequests,
    AvatarsRequests,
    ReposRequests,
    SecretsRequests {
  'app:info': { readonly args: readonly []; readonly result: AppInfo }
  /** What "Copy diagnostics" copies: versions, platform, the accounts' hosts and recent log lines, secrets redacted. */
  'app:diagnostics': { readonly args: readonly []; readonly result: Diagnostics }
  'server:status': { readonly args: readonly []; readonly result: ServerStatus }
  'accounts:list': { readonly args: readonly []; readonly result: readonly Account[] }
  /**
   * Verifies the credentials with GET /user before storing anything. The same user on the same
   * instance again replaces the credential of an account that needs signing in again (same id, so
   * its cache and queued writes stay); otherwise it is a `duplicate-account`.
   */
  'accounts:add': { readonly args: readonly [request: AddAccountRequest]; readonly result: Account }
  /** Adds the local Burrow Server's account with the launch's credential (no token asked); `unavailable` when the launcher gave none. */
  'accounts:add-local': { readonly args: readonly []; readonly result: Account }
  /** Also deletes the account's secret. */
  'accounts:remove': { readonly args: readonly [accountId: string]; readonly result: null }
  'accounts:verify': { readonly args: readonly [accountId: string]; readonly result: AccountVerification }
}

/** Events pushed from main to the renderer, with their payload. */
export interface IpcEvents extends OutboxEvents, CacheEvents, NotifyEvents, PreferencesEvents, ReposEvents {
  'server:did-change-status': ServerStatus
  /** The whole list after an add, a remove or a verify that changed an account's profile. */
  'accounts:did-change': readonly Account[]
}

export type RequestChannel = keyof IpcRequests
export type EventChannel = keyof IpcEvents
export type RequestArgs<C extends RequestChannel> = IpcRequests[C]['args']
export type RequestResult<C extends RequestChannel> = IpcRequests[C]['result']

/** Stable error codes; `details` carries anything structured (validation paths, HTTP status…). */
export type IpcErrorCode = 'unknown-channel' | 'invalid-arguments' | 'handler-failed' | 'unavailable' | 'forbidden'

/** How an error crosses the bridge: never a bare string. */
export interface IpcError {
  readonly code: IpcErrorCode | (string & {})
  readonly message: string
  readonly details?: unknown
}

/** What a request resolves to on the wire; the renderer's bridge turns `ok: false` into a thrown IpcFailure. */
export type IpcResponse<T = unknown> =
  { readonly ok: true; readonly result: T } | { readonly ok: false; readonly error: IpcError }

/** An IpcError as a throwable, on either side of the bridge. */
export class IpcFailure extends Error implements IpcError {
  readonly code: string
  readonly details?: unknown

  constructor(error: IpcError) {
    super(error.message)
    this.name = 'IpcFailure'
    this.code = error.code
    this.details = error.details
  }

  toJSON(): IpcError {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details }
  }
}

/** Checks an untrusted argument list; returns a message describing the first problem, or null. */
export type ArgsValidator = (args: readonly unknown[]) => string | null

/**
 * Every request channel and every event, by name: the preload's and the web host's allowlists. Only
 * names, so the preload (which bundles this module) carries no argument check; the checks are in
 * request-validators.ts, which only core imports. The types make both maps exhaustive.
 */
const requestNames: { readonly [C in RequestChannel]: true } = {
  'app:info': true,
  'app:diagnostics': true,
  'server:status': true,
  'accounts:list': true,
  'accounts:add': true,
  'accounts:add-local': true,
  'accounts:remove': true,
  'accounts:verify': true,
  'accounts:secret-storage': true,
  'accounts:use-encrypted-file': true,
  'issues:create': true,
  'merge-requests:create': true,
  'issues:comment': true,
  'issues:update': true,
  'issues:time-estimate': true,
  'issues:add-spent-time': true,
  'issues:todo': true,
  'issues:subscribe': true,
  'issues:link': true,
  'issues:unlink': true,
  'merge-requests:comment': true,
  'merge-requests:update': true,
  'merge-requests:time-estimate': true,
  'merge-requests:add-spent-time': true,
  'merge-requests:todo': true,
  'merge-requests:subscribe': true,
  'todos:mark-done': true,
  'commits:comment': true,
  'merge-requests:merge': true,
  'merge-requests:rebase': true,
  'merge-requests:approve': true,
  'merge-requests:unapprove': true,
  'merge-requests:apply-suggestion': true,
  'merge-requests:apply-suggestions': true,
  'outbox:list': true,
  'outbox:retry': true,
  'outbox:discard': true,
  'outbox:resolve': true,
  'reviews:drafts': true,
  'reviews:add-draft': true,
  'reviews:delete-draft': true,
  'reviews:submit': true,
  'sync:start': true,
  'sync:cancel': true,
  'sync:status': true,
  'sync:set-scope': true,
  'sync:get-scope': true,
  'issues:list': true,
  'issues:get': true,
  'merge-requests:list': true,
  'merge-requests:get': true,
  'epics:list': true,
  'epics:get': true,
  'milestones:list': true,
  'milestones:get': true,
  'labels:list': true,
  'projects:list': true,
  'users:list': true,
  'todos:list': true,
  'search:query': true,
  'api:get': true,
  'api:send': true,
  'notify:summary': true,
  'notify:check': true,
  'notify:list-alerts': true,
  'alerts:update-status': true,
  'alerts:assign': true,
  'preferences:get': true,
  'preferences:set': true,
  'avatars:get': true,
  'repos:list': true,
  'repos:clone': true,
  'repos:fetch': true,
  'repos:cancel': true,
  'repos:remove': true,
  'repos:refs': true,
  'repos:tree': true,
  'repos:blob': true,
  'repos:blame': true,
  'repos:log': true,
  'repos:commit': true,
  'repos:compare': true,
  'repos:merge-request-changes': true,
  'repos:search': true,
}

const eventNames: { readonly [E in EventChannel]: true } = {
  'server:did-change-status': true,
  'accounts:did-change': true,
  'outbox:did-change': true,
  'sync:did-progress': true,
  'sync:did-finish': true,
  'sync:did-change-status': true,
  'cache:did-change': true,
  'notify:did-change': true,
  'notify:did-announce': true,
  'app:did-request-route': true,
  'preferences:did-change': true,
  'repos:did-progress': true,
  'repos:did-change': true,
}

export const REQUEST_CHANNELS: readonly RequestChannel[] = Object.freeze(Object.keys(requestNames) as RequestChannel[])
export const EVENT_CHANNELS: readonly EventChannel[] = Object.freeze(Object.keys(eventNames) as EventChannel[])

export function isRequestChannel(value: unknown): value is RequestChannel {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(requestNames, value)
}

export function isEventChannel(value: unknown): value is EventChannel {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(eventNames, value)
}

/**
 * What the preload exposes as `window.burrow`, and what the browser-mode WebSocket client
 * implements: the same two operations over the same maps.
 */
export interface BurrowBridge {
  invoke<C extends RequestChannel>(channel: C, ...args: RequestArgs<C>): Promise<IpcResponse<RequestResult<C>>>
  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends EventChannel>(event: E, listener: (payload: IpcEvents[E]) => void): () => void
}
