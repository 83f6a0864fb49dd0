import type { ApiErrorBody } from '../../../shared/api/errors'

/** A readable one-line message from an API error body, whichever of GitLab's shapes it has. */
export function messageFromBody(status: number, body: unknown): string {
  if (body !== null && typeof body === 'object') {
    const b = body as Partial<Record<'message' | 'error' | 'error_description', unknown>>
    if (typeof b.message === 'string') return b.message
    if (b.message !== null && typeof b.message === 'object') {
      const parts = Object.entries(b.message as Record<string, unknown>).map(
        ([field, v]) => `${field} ${Array.isArray(v) ? v.join(', ') : String(v)}`,
      )
      if (parts.length > 0) return parts.join('; ')
    }
    if (typeof b.error_description === 'string') return b.error_description
    if (typeof b.error === 'string') return b.error
  }
  if (typeof body === 'string' && body.length > 0 && body.length < 300) return body
  return `HTTP ${status}`
}

/**
 * An HTTP error answer from the API. `code` and `details` make it cross the IPC bridge as
 * `{code, message, details}` through dispatch.ts `toIpcError`. Never carries request headers.
 */
export class ApiError extends Error {
  readonly code: string = 'api-error'
  readonly status: number
  readonly body: ApiErrorBody | unknown

  constructor(status: number, body: unknown, message = messageFromBody(status, body)) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.body = body
  }

  get details(): { status: number } {
    return { status: this.status }
  }
}

export class UnauthorizedError extends ApiError {
  override readonly code: string = 'unauthorized'
  override readonly name: string = 'UnauthorizedError'
}
/**
 * The server refused the account's credential itself (not one action of a signed-in user): the
 * account waits for the user to sign in again (AccessGate). Also what a held account's requests
 * throw without being sent; `message` is the reason the user is shown.
 */
export class SignInRequiredError extends UnauthorizedError {
  override readonly code = 'sign-in-required'
  override readonly name = 'SignInRequiredError'

  constructor(reason: string, body: unknown = null) {
    super(401, body, reason)
  }
}
export class ForbiddenError extends ApiError {
  override readonly code = 'forbidden'
  override readonly name = 'ForbiddenError'
}
export class NotFoundError extends ApiError {
  override readonly code = 'not-found'
  override readonly name = 'NotFoundError'
}
export class ConflictError extends ApiError {
  override readonly code = 'conflict'
  override readonly name = 'ConflictError'
}
/** 400 (missing or bad parameters) and 422 (entity could not be processed). */
export class ValidationError extends ApiError {
  override readonly code = 'validation'
  override readonly name = 'ValidationError'
}
/** 412: `If-Unmodified-Since` and the resource changed in between. */
export class PreconditionFailedError extends ApiError {
  override readonly code = 'precondition-failed'
  override readonly name = 'PreconditionFailedError'
}
export class RateLimitedError extends ApiError {
  override readonly code = 'rate-limited'
  override readonly name = 'RateLimitedError'
  /** Seconds the server asked us to wait (Retry-After), when it said. */
  retryAfterSeconds: number | null = null
}

/**
 * The account's requests are held (AccessGate): its sign-in must be renewed, or the server asked
 * to wait. What was saved stands in for the answer, as it does offline.
 */
export function isAccountHeld(error: unknown): boolean {
  return error instanceof SignInRequiredError || error instanceof RateLimitedError
}

/** The typed error for an HTTP error status. */
export function apiErrorFor(status: number, body: unknown, retryAfterSeconds: number | null = null): ApiError {
  switch (status) {
    case 400:
    case 422:
      return new ValidationError(status, body)
    case 401:
      return new UnauthorizedError(status, body)
    case 403:
      return new ForbiddenError(status, body)
    case 404:
      return new NotFoundError(status, body)
    case 409:
      return new ConflictError(status, body)
    case 412:
      return new PreconditionFailedError(status, body)
    case 429: {
      const e = new RateLimitedError(status, body)
      e.retryAfterSeconds = retryAfterSeconds
      return e
    }
    default:
      return new ApiError(status, body)
  }
}

export type NetworkFailure = 'refused' | 'dns' | 'reset' | 'timeout' | 'tls' | 'aborted' | 'other'

/**
 * No HTTP answer: connection refused, DNS failure, reset, timeout, TLS failure.
 *
 * `outcomeUnknown` is true when a non-idempotent request (POST, PATCH) may have reached the
 * server and been processed before the failure (a timeout or a reset once the connection was
 * up): the outbox must then check before replaying. When false, the request was either never
 * sent (refused, DNS, TLS) or is idempotent and can simply be sent again.
 */
export class NetworkError extends Error {
  readonly code = 'network-error'
  override readonly name = 'NetworkError'
  readonly failure: NetworkFailure
  readonly outcomeUnknown: boolean
  readonly method: string

  constructor(
    message: string,
    options: { failure: NetworkFailure; outcomeUnknown: boolean; method: string; cause?: unknown },
  ) {
    super(message, { cause: options.cause })
    this.failure = options.failure
    this.outcomeUnknown = options.outcomeUnknown
    this.method = options.method
  }

  get details(): { failure: NetworkFailure; outcomeUnknown: boolean } {
    return { failure: this.failure, outcomeUnknown: this.outcomeUnknown }
  }
}

const NEVER_SENT: Readonly<Record<string, NetworkFailure>> = {
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EHOSTUNREACH: 'refused',
  ENETUNREACH: 'refused',
  EADDRNOTAVAIL: 'refused',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
}

function errorCode(error: unknown): string | undefined {
  for (
    let e: unknown = error, depth = 0;
    e !== null && typeof e === 'object' && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string') return code
  }
  return undefined
}

function errorName(error: unknown): string | undefined {
  return error !== null && typeof error === 'object' && typeof (error as { name?: unknown }).name === 'string'
    ? (error as { name: string }).name
    : undefined
}

/**
 * Classifies what fetch threw into a NetworkError. `sentMaybe` is false only when we know the
 * request never left (connection never established); the caller decides idempotency.
 */
export function toNetworkError(error: unknown, method: string, origin: string, idempotent: boolean): NetworkError {
  const code = errorCode(error)
  const name = errorName(error)
  let failure: NetworkFailure
  let mayHaveReached: boolean
  if (code !== undefined && NEVER_SENT[code] !== undefined) {
    failure = NEVER_SENT[code]
    mayHaveReached = false
  } else if (
    code !== undefined &&
    (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.startsWith('UNABLE_TO_') || code.includes('CERT'))
  ) {
    // Certificate checks fail during the handshake, before any byte of the request is sent.
    failure = 'tls'
    mayHaveReached = false
  } else if (name === 'TimeoutError') {
    failure = 'timeout'
    mayHaveReached = true
  } else if (name === 'AbortError') {
    failure = 'aborted'
    mayHaveReached = true
  } else if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'ECONNABORTED') {
    failure = 'reset'
    mayHaveReached = true
  } else {
    failure = 'other'
    mayHaveReached = true
  }
  const what: Record<NetworkFailure, string> = {
    refused: 'connection refused',
    dns: 'host name not found',
    reset: 'connection reset',
    timeout: 'timed out',
    tls: 'TLS certificate not trusted',
    aborted: 'request aborted',
    other: 'network failure',
  }
  const detail = code !== undefined ? ` (${code})` : ''
  return new NetworkError(`Could not reach ${origin}: ${what[failure]}${detail}`, {
    failure,
    outcomeUnknown: mayHaveReached && !idempotent,
    method,
    cause: error,
  })
}
