/**
 * The one contract between the renderer and the main process (DESIGN.md, "Why this shape").
 *
 * Requests are named `domain:verb` and answer once; events are named `domain:did-…` and are
 * pushed by main. Both transports (Electron IPC through the preload, and the WebSocket of
 * browser mode) carry exactly these maps, validated at the boundary with the validators below.
 */

/** Which shell hosts the renderer. */
export type AppMode = 'electron' | 'browser'

export interface AppInfo {
  /** Burrow's own version (package.json). */
  readonly version: string
  readonly mode: AppMode
  /** Base URL of the local Burrow Server (`http://127.0.0.1:PORT`), or null when none runs. */
  readonly serverUrl: string | null
}

export interface ServerStatus {
  readonly url: string | null
  /** `reachable` when GET /api/v4/version answered 200 just now. */
  readonly state: 'reachable' | 'unreachable' | 'none'
  /** The server's API version (`17.6.0`) when reachable. */
  readonly version: string | null
  readonly revision: string | null
}

/** Request channels: arguments as a tuple, and what the handler resolves to. */
export interface IpcRequests {
  'app:info': { readonly args: readonly []; readonly result: AppInfo }
  'server:status': { readonly args: readonly []; readonly result: ServerStatus }
}

/** Events pushed from main to the renderer, with their payload. */
export interface IpcEvents {
  'server:did-change-status': ServerStatus
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
export type IpcResponse<T = unknown> = { readonly ok: true; readonly result: T } | { readonly ok: false; readonly error: IpcError }

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
    return this.details === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, details: this.details }
  }
}

/** Checks an untrusted argument list; returns a message describing the first problem, or null. */
export type ArgsValidator = (args: readonly unknown[]) => string | null

const noArgs: ArgsValidator = (args) => (args.length === 0 ? null : `expected no arguments, got ${args.length}`)

/** One validator per request channel; its keys are also the preload's and the web host's allowlist. */
export const requestValidators: { readonly [C in RequestChannel]: ArgsValidator } = {
  'app:info': noArgs,
  'server:status': noArgs,
}

const eventNames: { readonly [E in EventChannel]: true } = {
  'server:did-change-status': true,
}

export const REQUEST_CHANNELS: readonly RequestChannel[] = Object.freeze(Object.keys(requestValidators) as RequestChannel[])
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
