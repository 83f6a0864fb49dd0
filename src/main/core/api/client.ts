import type { AccessGate } from './access-gate'
import { authHeaders, isExpired, requestOAuthToken, type Credential, type OAuthCredential } from './credentials'
import { apiErrorFor, RateLimitedError, SignInRequiredError, toNetworkError, UnauthorizedError } from './errors'
import type { GraphQLResponse } from './graphql'
import { parseLinkHeader } from './link'
import { encodeQuery, type Query } from './query'
import { fetchForCaFile } from './tls-fetch'

export interface ApiClientOptions {
  /** The instance (`https://gitlab.example.com`); the API lives under `/api/v4`. */
  readonly baseUrl: string
  /** Read before every request, so a credential replaced elsewhere is picked up. */
  readonly credentials: () => Promise<Credential>
  /** Called with the new pair after an OAuth refresh; the old refresh token no longer works. */
  readonly onCredentialsRefreshed?: (credential: OAuthCredential) => Promise<void>
  /** A PEM file with the CA that signs this instance's certificate, trusted on top of the root store. */
  readonly caFile?: string
  /** Per-request timeout; default 30 s. */
  readonly timeoutMs?: number
  /** Longest total time one call spends waiting on 429 Retry-After before giving up; default 60 s. */
  readonly maxRateLimitWaitMs?: number
  /** Told about network failures and successes (connectivity.ts). */
  readonly connectivity?: { reportNetworkError(): void; reportReachable(): void }
  /** The account's hold on requests (access-gate.ts): a credential to sign in again, a Retry-After. */
  readonly gate?: AccessGate
  readonly fetch?: typeof fetch
}

export interface RequestOptions {
  readonly query?: Query
  /** JSON body (POST, PUT). */
  readonly body?: unknown
  /** Run as this user (administrators with the `sudo` scope): a user id or username. */
  readonly sudo?: string | number
  /** Refuse the write with a 412 if the resource changed after this instant. */
  readonly ifUnmodifiedSince?: Date
  /** A stored ETag: an unchanged resource answers 304 with no body (`status` 304, `data` undefined). */
  readonly ifNoneMatch?: string
  readonly signal?: AbortSignal
  readonly timeoutMs?: number
  /** Checks the sign-in itself (`accounts:verify`): sent while the account waits for one, and an answer ends the wait. */
  readonly checksSignIn?: boolean
}

export interface ApiResponse<T> {
  readonly status: number
  readonly headers: Headers
  readonly data: T
}

export interface Page<T> {
  readonly items: T[]
  /** From X-Next-Page; null on the last page (or when the server does not say). */
  readonly nextPage: number | null
  /** From X-Total; null when absent (gitlab.com leaves it out on large collections). */
  readonly total: number | null
}

/** What `download` read. */
export interface Download {
  /** The stored copy is current (304 to `ifNoneMatch`); `bytes` is empty. */
  readonly notModified: boolean
  readonly contentType: string | null
  readonly etag: string | null
  readonly bytes: Uint8Array
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD'

/** Whether `url` is on the same origin as `base` and under its path (an instance at `/gitlab` owns nothing outside it). */
export function isUnder(url: string, base: string): boolean {
  let u: URL
  let b: URL
  try {
    u = new URL(url)
    b = new URL(base)
  } catch {
    return false
  }
  if (u.origin !== b.origin || u.username !== '' || u.password !== '') return false
  const prefix = b.pathname.replace(/\/+$/, '')
  return prefix === '' || u.pathname === prefix || u.pathname.startsWith(`${prefix}/`)
}

const MAX_RATE_LIMIT_RETRIES = 5

const IDEMPOTENT: ReadonlySet<Method> = new Set(['GET', 'PUT', 'DELETE', 'HEAD'])

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** Retry-After is either delta-seconds or an HTTP date. */
function retryAfterSeconds(header: string | null): number | null {
  if (header === null) return null
  const seconds = Number(header)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds
  const date = Date.parse(header)
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000)
}

function intHeader(headers: Headers, name: string): number | null {
  const value = headers.get(name)
  if (value === null || value.trim() === '') return null
  const n = Number(value)
  return Number.isInteger(n) ? n : null
}

/**
 * The REST API v4 client of one account: authentication (PAT or OAuth with refresh), JSON,
 * Rails-style queries, Link-header pagination, 429 back-off, timeouts and typed errors
 * (errors.ts). Never puts a credential in an error, a log or a URL.
 */
export class ApiClient {
  readonly baseUrl: string
  readonly apiUrl: string
  private readonly options: ApiClientOptions
  private readonly fetchImpl: typeof fetch
  private readonly timeoutMs: number
  private readonly maxRateLimitWaitMs: number
  /** The refresh in flight, shared by concurrent requests (a refresh token works once). */
  private refreshing: Promise<OAuthCredential> | null = null
  /** The last refresh: used when `credentials()` still hands out the pair it replaced. */
  private refreshed: { readonly from: string; readonly to: OAuthCredential } | null = null
  /** The `GET /user` in flight that tells a refused credential from a refused action, shared by the 401s meanwhile. */
  private confirming: Promise<boolean> | null = null

  constructor(options: ApiClientOptions) {
    this.options = options
    this.baseUrl = options.baseUrl.replace(/\/+$/, '')
    this.apiUrl = `${this.baseUrl}/api/v4`
    this.fetchImpl = options.fetch ?? fetchForCaFile(options.caFile)
    this.timeoutMs = options.timeoutMs ?? 30_000
    this.maxRateLimitWaitMs = options.maxRateLimitWaitMs ?? 60_000
  }

  async get<T>(path: string, query?: Query, options: Omit<RequestOptions, 'query' | 'body'> = {}): Promise<T> {
    return (await this.request<T>('GET', path, { ...options, query })).data
  }

  async post<T>(path: string, body?: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
    return (await this.request<T>('POST', path, { ...options, body })).data
  }

  async put<T>(path: string, body?: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
    return (await this.request<T>('PUT', path, { ...options, body })).data
  }

  async delete<T = void>(path: string, options: RequestOptions = {}): Promise<T> {
    return (await this.request<T>('DELETE', path, options)).data
  }

  /** One page of a list endpoint, with the pagination headers. */
  async getPage<T>(
    path: string,
    query: Query & { readonly page?: number; readonly per_page?: number } = {},
    options: Omit<RequestOptions, 'query' | 'body'> = {},
  ): Promise<Page<T>> {
    const response = await this.request<T[]>('GET', path, { ...options, query })
    return {
      items: response.data,
      nextPage: intHeader(response.headers, 'x-next-page'),
      total: intHeader(response.headers, 'x-total'),
    }
  }

  /**
   * Every item of a list endpoint, following `Link: <…>; rel="next"` as the spec asks clients
   * to. A next link outside the account's /api/v4 is not followed (it would carry the credential
   * there); X-Next-Page is used instead.
   */
  async *paginate<T>(
    path: string,
    query: Query = {},
    options: Omit<RequestOptions, 'query' | 'body'> = {},
  ): AsyncGenerator<T, void, undefined> {
    let url = this.urlOf(path, { per_page: 100, ...query })
    for (;;) {
      const response = await this.requestUrl<T[]>('GET', url, options)
      yield* response.data
      const next = parseLinkHeader(response.headers.get('link')).get('next')
      const nextUrl = next === undefined ? undefined : new URL(next, this.apiUrl).toString()
      if (nextUrl !== undefined && isUnder(nextUrl, this.apiUrl)) {
        url = nextUrl
        continue
      }
      const nextPage = intHeader(response.headers, 'x-next-page')
      if (next === undefined || nextPage === null) return
      url = this.urlOf(path, { per_page: 100, ...query, page: nextPage })
    }
  }

  /**
   * One request to the instance's GraphQL endpoint (`/api/graphql`), with the same credential,
   * timeouts, 429 back-off and connectivity reports as REST. Resolves with GraphQL's
   * `{data, errors}` as sent: a query can partly succeed, so what its errors mean is the
   * caller's to decide (graphql.ts `graphqlData` throws on errors without data).
   */
  async graphql<T>(
    query: string,
    variables: Readonly<Record<string, unknown>> = {},
    options: Pick<RequestOptions, 'signal' | 'timeoutMs'> = {},
  ): Promise<GraphQLResponse<T>> {
    return (
      await this.requestUrl<GraphQLResponse<T>>('POST', `${this.baseUrl}/api/graphql`, {
        ...options,
        body: { query, variables },
      })
    ).data
  }

  /** Any method, with the status and headers. `path` is relative to /api/v4 and already encoded. */
  async request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.requestUrl<T>(method, this.urlOf(path, options.query), options)
  }

  /**
   * A file of the instance itself, outside the API (an uploaded avatar): GET with the account's
   * credential, which is why `url` must lie under the instance's base URL (refused otherwise,
   * before anything is sent). Reads at most `maxBytes` (a larger body throws `too-large`). An
   * unchanged file answers `notModified` when `ifNoneMatch` is its stored ETag.
   */
  async download(
    url: string,
    options: { readonly maxBytes: number; readonly ifNoneMatch?: string; readonly signal?: AbortSignal },
  ): Promise<Download> {
    if (!isUnder(url, this.baseUrl))
      throw Object.assign(new Error(`Not a URL of ${this.baseUrl}.`), { code: 'foreign-url' })
    await this.passGate({ signal: options.signal }, 0)
    const credential = await this.currentCredential()
    const headers: Record<string, string> = { Accept: 'image/*', ...authHeaders(credential) }
    if (options.ifNoneMatch !== undefined) headers['If-None-Match'] = options.ifNoneMatch
    const timeout = AbortSignal.timeout(this.timeoutMs)
    const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal])
    let response: Response
    try {
      response = await this.fetchImpl(url, { headers, signal, redirect: 'manual' })
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason
      this.options.connectivity?.reportNetworkError()
      throw toNetworkError(timeout.aborted ? timeout.reason : error, 'GET', new URL(url).origin, true)
    }
    this.options.connectivity?.reportReachable()
    if (response.status === 304 && options.ifNoneMatch !== undefined) {
      await response.body?.cancel()
      return { notModified: true, contentType: null, etag: options.ifNoneMatch, bytes: new Uint8Array() }
    }
    if (response.status === 401) throw await this.unauthorized(url, response)
    if (response.status === 429) this.holdForRetryAfter(response)
    // A redirect could lead off the instance with our credential: not followed.
    if (!response.ok)
      throw apiErrorFor(
        response.status,
        response.status >= 300 && response.status < 400 ? undefined : await readBody(response),
      )
    const declared = Number(response.headers.get('content-length'))
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      await response.body?.cancel()
      throw Object.assign(new Error(`The file is larger than ${options.maxBytes} bytes.`), { code: 'too-large' })
    }
    const chunks: Uint8Array[] = []
    let size = 0
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength
      if (size > options.maxBytes)
        throw Object.assign(new Error(`The file is larger than ${options.maxBytes} bytes.`), { code: 'too-large' })
      chunks.push(chunk)
    }
    const bytes = new Uint8Array(size)
    let offset = 0
    for (const chunk of chunks) {
      bytes.set(chunk, offset)
      offset += chunk.byteLength
    }
    return {
      notModified: false,
      contentType: response.headers.get('content-type'),
      etag: response.headers.get('etag'),
      bytes,
    }
  }

  /**
   * Whether the instance answers at all: `GET /api/v4/version` without credentials (any HTTP
   * status counts, since gitlab.com answers it with 401 to anonymous callers).
   */
  async probe(timeoutMs = 5_000): Promise<boolean> {
    try {
      const response = await this.fetchImpl(`${this.apiUrl}/version`, { signal: AbortSignal.timeout(timeoutMs) })
      await response.body?.cancel()
      return true
    } catch {
      return false
    }
  }

  /**
   * The URL of `path` (relative to /api/v4, already encoded) with `query`, built with the URL
   * API, which resolves dot segments (plain, `%2e%2e` or with backslashes) and encodes a `?` or
   * `#` in the path. Refused (code `foreign-url`) before anything is sent unless the result stays
   * under the account's /api/v4, so the credential never goes to another endpoint of the instance.
   */
  urlOf(path: string, query?: Query): string {
    const url = new URL(this.apiUrl)
    url.pathname = `${url.pathname}${path.startsWith('/') ? path : `/${path}`}`
    url.search = encodeQuery(query)
    const built = url.toString()
    if (!isUnder(built, this.apiUrl))
      throw Object.assign(new Error(`${path.slice(0, 200)} is not a path under ${this.apiUrl}.`), {
        code: 'foreign-url',
      })
    return built
  }

  private async currentCredential(): Promise<Credential> {
    const credential = await this.options.credentials()
    if (credential.kind === 'oauth' && this.refreshed !== null && credential.refreshToken === this.refreshed.from)
      return this.refreshed.to
    return credential
  }

  private refresh(stale: OAuthCredential): Promise<OAuthCredential> {
    // Another request already traded this refresh token in: reuse its result (a second
    // refresh with the same token would be refused).
    if (this.refreshed !== null && this.refreshed.from === stale.refreshToken) return Promise.resolve(this.refreshed.to)
    if (this.refreshing === null) {
      this.refreshing = (async () => {
        const fresh = await requestOAuthToken(
          this.baseUrl,
          { grant_type: 'refresh_token', refresh_token: stale.refreshToken },
          { fetch: this.fetchImpl, timeoutMs: this.timeoutMs },
        ).catch((error: unknown) => {
          // A refused refresh token is a sign-in gone for good: only the user can bring it back.
          if (!(error instanceof UnauthorizedError)) throw error
          throw this.signInRefused(error.body)
        })
        this.refreshed = { from: stale.refreshToken, to: fresh }
        await this.options.onCredentialsRefreshed?.(fresh)
        return fresh
      })().finally(() => {
        this.refreshing = null
      })
    }
    return this.refreshing
  }

  private async requestUrl<T>(method: Method, url: string, options: RequestOptions): Promise<ApiResponse<T>> {
    const idempotent = IDEMPOTENT.has(method)
    const origin = new URL(url).origin
    let waitedMs = 0
    let rateLimitRetries = 0
    let refreshedAfter401 = false
    for (;;) {
      waitedMs += await this.passGate(options, waitedMs)
      let credential = await this.currentCredential()
      if (credential.kind === 'oauth' && isExpired(credential)) credential = await this.refresh(credential)

      const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders(credential) }
      if (options.body !== undefined) headers['Content-Type'] = 'application/json'
      if (options.sudo !== undefined) headers.Sudo = String(options.sudo)
      if (options.ifUnmodifiedSince !== undefined)
        headers['If-Unmodified-Since'] = options.ifUnmodifiedSince.toUTCString()
      if (options.ifNoneMatch !== undefined) headers['If-None-Match'] = options.ifNoneMatch

      const timeout = AbortSignal.timeout(options.timeoutMs ?? this.timeoutMs)
      const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal])
      let response: Response
      try {
        response = await this.fetchImpl(url, {
          method,
          headers,
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
          signal,
        })
      } catch (error) {
        // The caller's own abort is not a network problem.
        if (options.signal?.aborted) throw options.signal.reason
        const cause = timeout.aborted ? timeout.reason : error
        const networkError = toNetworkError(cause, method, origin, idempotent)
        this.options.connectivity?.reportNetworkError()
        throw networkError
      }
      this.options.connectivity?.reportReachable()

      if (response.status === 401 && credential.kind === 'oauth' && !refreshedAfter401) {
        // The access token may have been revoked or expired early: one refresh, then give up.
        await response.body?.cancel()
        refreshedAfter401 = true
        await this.refresh(credential)
        continue
      }
      if (response.status === 401) throw await this.unauthorized(url, response)

      if (response.status === 429) {
        const after = this.holdForRetryAfter(response)
        const delayMs = Math.ceil((after ?? 2 ** rateLimitRetries) * 1000)
        // GitLab's throttles (Rack::Attack) answer 429 before the request reaches the API, so
        // a rate-limited POST was not processed and sending it again cannot duplicate it. We
        // still retry a POST only once, so a server that counts differently cannot make us
        // loop on a write; idempotent requests retry until the wait budget runs out.
        // The retry count is bounded too, for a server answering `Retry-After: 0` forever.
        const mayRetry = idempotent ? rateLimitRetries < MAX_RATE_LIMIT_RETRIES : rateLimitRetries === 0
        if (mayRetry && waitedMs + delayMs <= this.maxRateLimitWaitMs) {
          await response.body?.cancel()
          await sleep(delayMs, options.signal)
          waitedMs += delayMs
          rateLimitRetries += 1
          continue
        }
        throw apiErrorFor(429, await readBody(response), after)
      }

      if (response.status === 304 && options.ifNoneMatch !== undefined) {
        await response.body?.cancel()
        return { status: 304, headers: response.headers, data: undefined as T }
      }
      if (!response.ok) throw apiErrorFor(response.status, await readBody(response))
      // The credential answered: whatever held the account for a sign-in is over.
      if (options.checksSignIn === true) this.options.gate?.signedIn()
      // Where the server's JSON enters core, taken at its word as the caller's `T` (the wire model,
      // src/shared/api): the one trusted cast of an answer, not a check, because GitLab instances
      // send fields and forms the model does not name, and a check per answer would cost more than
      // the reads it serves. What is stored from here (the cache) is read back under the same trust.
      const data = (response.status === 204 || method === 'HEAD' ? undefined : await readBody(response)) as T
      return { status: response.status, headers: response.headers, data }
    }
  }

  /**
   * Before a request goes out: refused while the account waits for a sign-in (unless it is the
   * check itself); a Retry-After still running is waited out when the caller's budget allows,
   * else refused at once. Resolves with the milliseconds waited.
   */
  private async passGate(options: Pick<RequestOptions, 'signal' | 'checksSignIn'>, waitedMs: number): Promise<number> {
    const gate = this.options.gate
    if (gate === undefined) return 0
    const signIn = gate.signInRequired
    if (signIn !== null && options.checksSignIn !== true) throw new SignInRequiredError(signIn.reason)
    let waited = 0
    // Until the wait is over by the gate's own clock: a timer may fire a millisecond early.
    for (let waitMs = gate.waitLeftMs(); waitMs > 0; waitMs = gate.waitLeftMs()) {
      if (waitedMs + waited + waitMs > this.maxRateLimitWaitMs) {
        const seconds = Math.ceil(waitMs / 1000)
        const error = new RateLimitedError(429, null, `The server asked to wait ${seconds} s before the next request.`)
        error.retryAfterSeconds = seconds
        throw error
      }
      await sleep(waitMs, options.signal)
      waited += waitMs
    }
    return waited
  }

  /** A 429's Retry-After in seconds (null when absent), which holds every request of the account that long. */
  private holdForRetryAfter(response: Response): number | null {
    const after = retryAfterSeconds(response.headers.get('retry-after'))
    if (after !== null && after > 0) this.options.gate?.retryAfter(after)
    return after
  }

  /**
   * The error for a 401 no refresh fixed. A refused credential holds the account for a sign-in
   * (SignInRequiredError); a refused action of a working one stays an UnauthorizedError.
   */
  private async unauthorized(url: string, response: Response): Promise<UnauthorizedError> {
    const body = await readBody(response)
    if (await this.credentialRefused(url, response.headers)) return this.signInRefused(body)
    return new UnauthorizedError(401, body)
  }

  /** Holds the account for a sign-in (its credential refused for good); the error to throw, with the reason the user is shown. */
  private signInRefused(body: unknown): SignInRequiredError {
    const reason = `${new URL(this.baseUrl).host} refused the saved sign-in (401): the token may have been revoked or have expired.`
    this.options.gate?.requireSignIn(reason)
    return new SignInRequiredError(this.options.gate?.signInRequired?.reason ?? reason, body)
  }

  /**
   * Whether a 401 refused the credential itself. GitLab's API also answers 401 to a signed-in
   * user for some actions they may not take (`unauthorized!`, as Burrow Server does), so only a
   * 401 to `GET /user`, or one whose WWW-Authenticate says `invalid_token`, is taken as such on
   * its face; any other is checked with one `GET /user`, shared by the 401s that arrive meanwhile.
   */
  private async credentialRefused(url: string, headers: Headers): Promise<boolean> {
    if (new URL(url).pathname === new URL(`${this.apiUrl}/user`).pathname) return true
    if (/error="?invalid_token/i.test(headers.get('www-authenticate') ?? '')) return true
    this.confirming ??= this.request('GET', '/user', { checksSignIn: true })
      .then(
        () => false,
        (error: unknown) => error instanceof UnauthorizedError,
      )
      .finally(() => {
        this.confirming = null
      })
    return this.confirming
  }
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text()
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

export {
  ApiError,
  ConflictError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  PreconditionFailedError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from './errors'
export type { Credential, OAuthCredential, PatCredential } from './credentials'
