/**
 * The one contract between the renderer and the main process (DESIGN.md, "Why this shape").
 *
 * Requests are named `domain:verb` and answer once; events are named `domain:did-…` and are
 * pushed by main. Both transports (Electron IPC through the preload, and the WebSocket of
 * browser mode) carry exactly these maps, validated at the boundary with the validators below.
 */

import { apiValidators, type ApiRequests } from './api'
import { avatarsValidators, type AvatarsRequests } from './avatars'
import { cacheEventNames, cacheValidators, type CacheEvents, type CacheRequests } from './cache'
import { notifyEventNames, notifyValidators, type NotifyEvents, type NotifyRequests } from './notify'
import { outboxEventNames, outboxValidators, type OutboxEvents, type OutboxRequests } from './outbox'
import { secretsValidators, type SecretsRequests } from './secrets'
import {
  preferencesEventNames,
  preferencesValidators,
  type PreferencesEvents,
  type PreferencesRequests,
} from './preferences'
import { reposEventNames, reposValidators, type ReposEvents, type ReposRequests } from './repos'
import { reviewValidators, type ReviewRequests } from './review'
import { isAccountId } from './account-id'

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

/**
 * An account on a forge instance, as main keeps it and the renderer sees it. Never a secret:
 * tokens stay in the keychain (core/accounts), and no IPC result carries one.
 */
export interface Account {
  /** Local id (a UUID, also the keychain entry name), or `local` (LOCAL_ACCOUNT_ID). */
  readonly id: string
  /**
   * `local`: root on the Burrow Server that `npm start` runs. The launcher gives its base URL
   * (the port may change) and token (new each launch, held in memory only) every launch, and
   * the stable id keeps its cache, sync cursors and outbox across launches. Absent for accounts
   * the user signed in to.
   */
  readonly kind?: 'local'
  /** The instance, without a trailing slash (`https://gitlab.example.com`). */
  readonly baseUrl: string
  readonly username: string
  /** The user's id on that instance. */
  readonly userId: number
  readonly name: string
  readonly avatarUrl: string | null
  /** `pat`: personal access token; `oauth`: signed in with username and password (OAuth password grant). */
  readonly authKind: 'pat' | 'oauth'
  /** ISO 8601. */
  readonly addedAt: string
  /** A PEM file with the CA of a self-managed instance, trusted for this account only. */
  readonly caFile?: string
  /**
   * The server refused the saved credential (a 401 the OAuth refresh did not fix): the account
   * sends nothing until `accounts:verify` finds it working again or `accounts:add` replaces it.
   */
  readonly signInRequired?: SignInRequired
}

/** Why an account must be signed in again, and since when (ISO 8601). */
export interface SignInRequired {
  readonly reason: string
  readonly since: string
}

/** `accounts:add` with a personal access token, or with a username and password (OAuth). */
export type AddAccountRequest =
  | { readonly baseUrl: string; readonly token: string; readonly caFile?: string }
  | { readonly baseUrl: string; readonly username: string; readonly password: string; readonly caFile?: string }

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

const noArgs: ArgsValidator = (args) => (args.length === 0 ? null : `expected no arguments, got ${args.length}`)

function isNonEmptyString(value: unknown, max = 4096): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= max
}

function isHttpUrl(value: unknown): boolean {
  if (!isNonEmptyString(value, 2048)) return false
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === ''
  } catch {
    return false
  }
}

const oneAccountId: ArgsValidator = (args) =>
  args.length === 1 && isAccountId(args[0]) ? null : 'expected one account id (a non-empty string)'

const addAccountArgs: ArgsValidator = (args) => {
  if (args.length !== 1) return `expected one argument, got ${args.length}`
  const r = args[0]
  if (r === null || typeof r !== 'object' || Array.isArray(r))
    return 'expected an object {baseUrl, token} or {baseUrl, username, password}'
  const o = r as Record<string, unknown>
  const unknownKeys = Object.keys(o).filter((k) => !['baseUrl', 'token', 'username', 'password', 'caFile'].includes(k))
  if (unknownKeys.length > 0) return `unknown field(s): ${unknownKeys.join(', ')}`
  if (!isHttpUrl(o.baseUrl)) return 'baseUrl must be an http(s) URL without credentials'
  if (o.caFile !== undefined && !isNonEmptyString(o.caFile)) return 'caFile must be a non-empty path'
  if (o.token !== undefined) {
    if (o.username !== undefined || o.password !== undefined)
      return 'give either token, or username and password, not both'
    return isNonEmptyString(o.token) ? null : 'token must be a non-empty string'
  }
  if (!isNonEmptyString(o.username, 255) || !isNonEmptyString(o.password))
    return 'expected token, or username and password (non-empty strings)'
  return null
}

/** One validator per request channel; its keys are also the preload's and the web host's allowlist. */
export const requestValidators: { readonly [C in RequestChannel]: ArgsValidator } = {
  'app:info': noArgs,
  'app:diagnostics': noArgs,
  'server:status': noArgs,
  'accounts:list': noArgs,
  'accounts:add': addAccountArgs,
  'accounts:add-local': noArgs,
  'accounts:remove': oneAccountId,
  'accounts:verify': oneAccountId,
  ...secretsValidators,
  ...outboxValidators,
  ...reviewValidators,
  ...cacheValidators,
  ...apiValidators,
  ...notifyValidators,
  ...preferencesValidators,
  ...avatarsValidators,
  ...reposValidators,
}

const eventNames: { readonly [E in EventChannel]: true } = {
  'server:did-change-status': true,
  'accounts:did-change': true,
  ...outboxEventNames,
  ...cacheEventNames,
  ...notifyEventNames,
  ...preferencesEventNames,
  ...reposEventNames,
}

export const REQUEST_CHANNELS: readonly RequestChannel[] = Object.freeze(
  Object.keys(requestValidators) as RequestChannel[],
)
export const EVENT_CHANNELS: readonly EventChannel[] = Object.freeze(Object.keys(eventNames) as EventChannel[])

export function isRequestChannel(value: unknown): value is RequestChannel {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(requestValidators, value)
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
