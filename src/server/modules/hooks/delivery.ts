import { randomUUID } from 'node:crypto'
import type { ServerContext } from '../../platform/context'
import { currentTime } from '../../platform/db/connection'
import { BlockedUrlError, outboundFetch, outboundPolicy } from '../../platform/outbound/outbound'
import { BURROW_VERSION } from '../version'
import { alertStatusOf } from './entity'
import { hookById, insertHookLog, markHookSucceeded, storeHookFailure, type HookLogRow, type HookRow } from './queries'

/**
 * Webhook delivery, after GitLab's WebHookService: one POST of the JSON payload with GitLab's
 * headers through the server's outbound guard, logged with what was sent and what came back.
 * Deliveries of events run in the background (never in the request that caused them), are
 * retried with backoff when the receiver is unreachable or answers 5xx/429, and feed GitLab's
 * auto-disable: a project or group hook that fails 4 times in a row is disabled for a minute,
 * then for twice as long after each further failure (24 hours at most), and for good after 40.
 */

/** What to send to one hook. */
export interface Delivery {
  readonly hookId: number
  /** GitLab's trigger name, as the hook events API shows it (`push_hooks`…). */
  readonly trigger: string
  /** The `X-Gitlab-Event` header (`Push Hook`…); system hooks always say `System Hook`. */
  readonly event: string
  readonly payload: Readonly<Record<string, unknown>>
  /** Shared by the deliveries of one event to every hook (`X-Gitlab-Event-UUID`). */
  readonly eventUuid: string
}

/** The opened secrets of a hook, for building its request. */
export interface HookSecrets {
  readonly token: string | null
  readonly urlVariables: Readonly<Record<string, string>>
  readonly customHeaders: Readonly<Record<string, string>>
}

/** Opens a hook's sealed token, URL variables and custom headers (service.ts owns the sealing). */
export type SecretsOpener = (ctx: ServerContext, hook: HookRow) => HookSecrets

const DEFAULT_TIMEOUT_MS = 10_000
const DEFAULT_RETRY_DELAYS_MS = [10_000, 60_000]
const RESPONSE_BODY_LIMIT = 8 * 1024
const FAILURE_THRESHOLD = 4
const PERMANENT_FAILURE_THRESHOLD = 40
const INITIAL_BACKOFF_MS = 60_000
const MAX_BACKOFF_MS = 24 * 60 * 60_000

/** The deliveries of one server: running ones, retries waiting, and whether it is closing. */
interface DeliveryState {
  closed: boolean
  readonly running: Set<Promise<unknown>>
  readonly timers: Set<NodeJS.Timeout>
  readonly aborts: Set<AbortController>
}

const states = new WeakMap<ServerContext, DeliveryState>()

function stateOf(ctx: ServerContext): DeliveryState {
  let state = states.get(ctx)
  if (!state) {
    state = { closed: false, running: new Set(), timers: new Set(), aborts: new Set() }
    states.set(ctx, state)
  }
  return state
}

function track(state: DeliveryState, work: Promise<unknown>): void {
  state.running.add(work)
  void work.finally(() => state.running.delete(work))
}

/**
 * Runs work after the current request has answered, tracked so that a closing server waits for
 * it; nothing starts once the server is closing.
 */
export function inBackground(ctx: ServerContext, work: () => Promise<void>): void {
  const state = stateOf(ctx)
  if (state.closed) return
  const run = async (): Promise<void> => {
    await new Promise((resolve) => setImmediate(resolve))
    if (!state.closed) await work()
  }
  track(
    state,
    run().catch((error: unknown) => {
      process.emitWarning(`burrow webhooks: ${error instanceof Error ? error.message : String(error)}`)
    }),
  )
}

/** A new event's id, shared by its deliveries. */
export function newEventUuid(): string {
  return randomUUID()
}

/**
 * Delivers in the background: the caller's request is not kept waiting, and a failure is retried
 * after each delay of the server's retry schedule while the hook stays executable.
 */
export function enqueueDelivery(ctx: ServerContext, delivery: Delivery, openSecrets: SecretsOpener): void {
  const state = stateOf(ctx)
  const attempt = (retry: number): void =>
    inBackground(ctx, async () => {
      const hook = hookById(ctx.db, delivery.hookId)
      if (!hook || alertStatusOf(hook, currentTime()) !== 'executable') return
      const log = await deliver(ctx, hook, delivery, openSecrets)
      if (!log) return
      const delays = ctx.options.webhooks?.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS
      if (retry >= delays.length || !isRetryable(log) || state.closed) return
      const timer = setTimeout(() => {
        state.timers.delete(timer)
        attempt(retry + 1)
      }, delays[retry])
      state.timers.add(timer)
    })
  attempt(0)
}

/** A delivery that may succeed later: no answer (but not a refusal of the guard), 429 or 5xx. */
function isRetryable(log: HookLogRow): boolean {
  if (log.response_status === 'internal error') return !log.internal_error_message?.startsWith('Blocked')
  const status = Number(log.response_status)
  return status === 429 || status >= 500
}

/** Waits for every running delivery after stopping new ones and dropping the waiting retries (the server is closing). */
export async function stopDeliveries(ctx: ServerContext): Promise<void> {
  const state = stateOf(ctx)
  state.closed = true
  for (const timer of state.timers) clearTimeout(timer)
  state.timers.clear()
  for (const abort of state.aborts) abort.abort()
  await Promise.allSettled([...state.running])
}

/** Resolves once no delivery is running and no retry is waiting (tests). */
export async function deliveriesIdle(ctx: ServerContext): Promise<void> {
  const state = stateOf(ctx)
  while (state.running.size > 0 || state.timers.size > 0) {
    if (state.running.size > 0) await Promise.allSettled([...state.running])
    else await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/** `{name}` in the URL filled from the hook's URL variables (GitLab's masked URL parts). */
function interpolatedUrl(url: string, variables: Readonly<Record<string, string>>): string {
  return url.replace(/\{([A-Za-z0-9_]+)\}/g, (whole, name: string) =>
    Object.hasOwn(variables, name) ? encodeURIComponent(variables[name]) : whole,
  )
}

function requestHeaders(ctx: ServerContext, hook: HookRow, delivery: Delivery, secrets: HookSecrets) {
  return {
    ...secrets.customHeaders,
    'Content-Type': 'application/json',
    'User-Agent': `GitLab/${BURROW_VERSION}`,
    'X-Gitlab-Event': hook.type === 'SystemHook' ? 'System Hook' : delivery.event,
    'X-Gitlab-Webhook-UUID': randomUUID(),
    'X-Gitlab-Event-UUID': delivery.eventUuid,
    'X-Gitlab-Instance': ctx.baseUrl(),
    'Idempotency-Key': randomUUID(),
    ...(secrets.token === null ? {} : { 'X-Gitlab-Token': secrets.token }),
  }
}

/** Up to RESPONSE_BODY_LIMIT bytes of the answer's body; the rest is not read. */
async function truncatedBody(response: Response): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  while (size < RESPONSE_BODY_LIMIT) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    size += value.byteLength
  }
  await reader.cancel().catch(() => undefined)
  return Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8')
}

interface Outcome {
  readonly status: string
  readonly headers: Record<string, string>
  readonly body: string
  readonly error: string | null
}

async function post(ctx: ServerContext, hook: HookRow, url: string, headers: Record<string, string>, body: string) {
  const state = stateOf(ctx)
  const abort = new AbortController()
  state.aborts.add(abort)
  const timeout = setTimeout(() => abort.abort(), ctx.options.webhooks?.timeoutMs ?? DEFAULT_TIMEOUT_MS)
  const setting =
    hook.type === 'SystemHook'
      ? 'allow_local_requests_from_system_hooks'
      : 'allow_local_requests_from_web_hooks_and_services'
  // The guard's name lookup does not take the signal: a closing server must not wait for it.
  const aborted = new Promise<never>((_resolve, reject) =>
    abort.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
  )
  try {
    const response = await Promise.race([
      outboundFetch(url, { method: 'POST', headers, body, signal: abort.signal }, outboundPolicy(ctx, setting)),
      aborted,
    ])
    return {
      status: String(response.status),
      headers: Object.fromEntries(response.headers),
      body: await truncatedBody(response),
      error: null,
    } satisfies Outcome
  } catch (error) {
    const message =
      error instanceof BlockedUrlError
        ? `Blocked: ${error.message}`
        : abort.signal.aborted
          ? 'Request timed out or was cancelled'
          : error instanceof Error
            ? error.message
            : String(error)
    return { status: 'internal error', headers: {}, body: '', error: message } satisfies Outcome
  } finally {
    clearTimeout(timeout)
    state.aborts.delete(abort)
  }
}

/**
 * Posts `delivery` to `hook` now, whatever its alert status (a manual test or resend), logs it and
 * updates the hook's auto-disable state. Answers the log row: null when the hook was deleted
 * meanwhile or the server is closing, which log nothing.
 */
export async function deliver(
  ctx: ServerContext,
  hook: HookRow,
  delivery: Delivery,
  openSecrets: SecretsOpener,
): Promise<HookLogRow | null> {
  const secrets = openSecrets(ctx, hook)
  const headers = requestHeaders(ctx, hook, delivery, secrets)
  const body = JSON.stringify(delivery.payload)
  const started = performance.now()
  const outcome = await post(ctx, hook, interpolatedUrl(hook.url, secrets.urlVariables), headers, body)
  const duration = (performance.now() - started) / 1000
  // A server that is closing abandons the delivery: its database may be gone.
  if (stateOf(ctx).closed) return null
  const now = currentTime()
  const log = insertHookLog(ctx.db, {
    web_hook_id: hook.id,
    trigger: delivery.trigger,
    // The URL as stored: URL variables may hold secrets.
    url: hook.url,
    request_headers: JSON.stringify(
      'X-Gitlab-Token' in headers ? { ...headers, 'X-Gitlab-Token': '[REDACTED]' } : headers,
    ),
    request_data: body,
    response_headers: JSON.stringify(outcome.headers),
    response_body: outcome.body,
    response_status: outcome.status,
    execution_duration: Math.round(duration * 1000) / 1000,
    internal_error_message: outcome.error,
    created_at: now.toISOString(),
  })
  if (!log) return null
  const ok = /^2\d\d$/.test(outcome.status)
  if (ok) markHookSucceeded(ctx.db, hook.id)
  else if (hook.type !== 'SystemHook') recordFailure(ctx, hook.id, now)
  return log
}

/** GitLab's `backoff!`: counts a failure, and disables the hook for a while or for good past the thresholds. */
function recordFailure(ctx: ServerContext, hookId: number, now: Date): void {
  // Read again: other deliveries of the hook may have counted failures since this one started.
  const hook = hookById(ctx.db, hookId)
  if (!hook || hook.permanently_disabled) return
  const failures = hook.recent_failures + 1
  if (failures >= PERMANENT_FAILURE_THRESHOLD) {
    storeHookFailure(ctx.db, hookId, {
      recentFailures: failures,
      backoffCount: hook.backoff_count,
      disabledUntil: null,
      permanentlyDisabled: true,
    })
    return
  }
  if (failures < FAILURE_THRESHOLD) {
    storeHookFailure(ctx.db, hookId, {
      recentFailures: failures,
      backoffCount: hook.backoff_count,
      disabledUntil: hook.disabled_until,
      permanentlyDisabled: false,
    })
    return
  }
  const backoff = Math.min(INITIAL_BACKOFF_MS * 2 ** hook.backoff_count, MAX_BACKOFF_MS)
  storeHookFailure(ctx.db, hookId, {
    recentFailures: failures,
    backoffCount: hook.backoff_count + 1,
    disabledUntil: new Date(now.getTime() + backoff).toISOString(),
    permanentlyDisabled: false,
  })
}
