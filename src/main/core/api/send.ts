import type { ApiRequests, ApiSendErrorDetails, ApiSendRequest, ApiSendResult } from '../../../shared/ipc/api'
import type { Cache } from '../cache/cache'
import { CachedGet } from '../cache/http-cache'
import type { ApiClient } from './client'
import type { OnlineState } from './connectivity'
import { ApiError, NetworkError } from './errors'

/** What `api:send` needs of the accounts service. */
export interface SendAccounts {
  clientFor(id: string): Promise<ApiClient>
  connectivityFor(id: string): OnlineState
}

/** Drops the saved `api:get` answers a write made outdated (cache/http-cache.ts `CachedGet.invalidate`). */
export type InvalidateSaved = (accountId: string, client: ApiClient, path: string, also: readonly string[]) => void

/** A refusal that crosses the bridge as `{code, message, details}` (dispatch.ts `toIpcError`). */
class SendError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message)
    this.name = 'SendError'
  }
}

const WHY_NOT_QUEUED =
  'It is not queued for later: settings, roles and runners may have changed on the server by then, and a late replay could undo someone else’s newer decision.'

function offline(host: string, detail?: string): SendError {
  return new SendError(
    'offline',
    `This change needs a connection to ${host}, which cannot be reached${detail === undefined ? '' : ` (${detail})`}. ${WHY_NOT_QUEUED}`,
  )
}

/**
 * GitLab sometimes nests its sentence in an object beside data fields (`{message: {message:
 * 'No environments found…', scheduled_entries: []}}`): that sentence reads better than the
 * field-by-field join.
 */
function readableMessage(error: ApiError): string {
  const message = (error.body as { message?: unknown } | null)?.message
  if (message !== null && typeof message === 'object' && typeof (message as { message?: unknown }).message === 'string')
    return (message as { message: string }).message
  return error.message
}

/**
 * Sends one write of a resource panel straight to the server (`api:send`). Refused offline,
 * never queued (src/shared/ipc/api.ts says why). A request that failed on the network after it
 * may have reached the server (a POST that timed out) is reported as such, not as offline, so
 * the panel can tell the user to check before trying again. API refusals keep GitLab's body in
 * `details` for the form to show next to its fields.
 */
export async function sendApi(
  accounts: SendAccounts,
  accountId: string,
  request: ApiSendRequest,
  invalidate?: InvalidateSaved,
): Promise<ApiSendResult> {
  const client = await accounts.clientFor(accountId)
  const host = new URL(client.baseUrl).host
  if (!accounts.connectivityFor(accountId).online) throw offline(host)
  try {
    const response = await client.request<unknown>(request.method, request.path, {
      query: request.query,
      body: request.body,
    })
    // Saved copies of what changed go, so offline views do not show the state before this write.
    invalidate?.(accountId, client, request.path, request.invalidates ?? [])
    return { status: response.status, body: response.data ?? null }
  } catch (error) {
    if (error instanceof NetworkError) {
      if (!error.outcomeUnknown) throw offline(host, error.message.replace(/^Could not reach [^:]+: /, ''))
      throw new SendError(
        'outcome-unknown',
        `${request.method} ${request.path} may or may not have reached ${host} (${error.message.replace(/^Could not reach [^:]+: /, '')}). Reload to see whether it took effect before trying again.`,
        { failure: error.failure },
      )
    }
    // 304 is GitLab's "already so" (a to-do that exists, a subscription already set): done, not refused.
    if (error instanceof ApiError && error.status === 304) return { status: 304, body: null }
    if (error instanceof ApiError) {
      const details: ApiSendErrorDetails = { status: error.status, body: error.body ?? null }
      throw new SendError(error.code, readableMessage(error), details)
    }
    throw error
  }
}

/**
 * The `api:send` channel (handlers.ts spreads it in); `accounts()` throws `unavailable` when the
 * launch has none. With the cache, a successful write drops the saved answers it outdated.
 */
export function apiHandlers(
  accounts: () => SendAccounts,
  cache: () => Cache | undefined = () => undefined,
): { readonly [C in keyof ApiRequests]: (...args: ApiRequests[C]['args']) => Promise<ApiRequests[C]['result']> } {
  let saved: CachedGet | null = null
  const invalidate: InvalidateSaved = (accountId, client, path, also) => {
    const store = cache()
    if (store === undefined) return
    saved ??= new CachedGet(store)
    saved.invalidate(accountId, client, path, also)
  }
  return {
    'api:send': async (accountId, request) => sendApi(accounts(), accountId, request, invalidate),
  }
}
