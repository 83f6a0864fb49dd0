import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git'

export interface GitHttpOptions {
  /** The account's fetch (its CA file trusted), or a test's. */
  readonly fetch: typeof fetch
  /** Requests may go only here: the instance's origin. */
  readonly origin: string
  /** Aborts the request in flight (`repos:cancel`, `repos:remove`, the account going away). */
  readonly signal: AbortSignal
  /** Longest wait for response headers, and between two chunks of a body. Default 60 s. */
  readonly idleTimeoutMs?: number
  /** Every chunk received, for progress. */
  onBytes?(count: number): void
  /** An HTTP answer came (any status): the instance is reachable. */
  onReachable?(): void
  /** No HTTP answer: the network failed or timed out. */
  onNetworkError?(): void
}

/** A failure to reach the instance; `code` crosses the IPC bridge. */
export class GitNetworkError extends Error {
  override readonly name = 'GitNetworkError'
  readonly code = 'offline'
}

async function collect(
  body: AsyncIterableIterator<Uint8Array> | undefined,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (body === undefined) return undefined
  const chunks: Uint8Array[] = []
  for await (const chunk of body) chunks.push(chunk)
  return new Uint8Array(Buffer.concat(chunks))
}

/**
 * isomorphic-git's HTTP client over `fetch`, for one clone or fetch: bodies are sent with a
 * length (some servers hang up on chunked uploads), nothing leaves the instance's origin (a
 * redirect elsewhere would carry the credential: refused), an idle connection times out, and the
 * operation's signal aborts whatever is in flight.
 */
export function gitHttpClient(options: GitHttpOptions): HttpClient {
  const idleMs = options.idleTimeoutMs ?? 60_000
  return {
    async request(request: GitHttpRequest): Promise<GitHttpResponse> {
      const url = new URL(request.url)
      if (url.origin !== options.origin)
        throw Object.assign(
          new Error(`Refusing a git request to ${url.origin}: only ${options.origin} is this account's instance.`),
          { code: 'foreign-url' },
        )
      options.signal.throwIfAborted()
      const idle = new AbortController()
      let timer: NodeJS.Timeout | null = null
      const arm = (): void => {
        if (timer !== null) clearTimeout(timer)
        timer = setTimeout(
          () => idle.abort(new Error(`No answer from ${url.origin} for ${Math.round(idleMs / 1000)} s.`)),
          idleMs,
        )
        // A body nobody reads to the end must not keep the process alive.
        timer.unref()
      }
      const disarm = (): void => {
        if (timer !== null) clearTimeout(timer)
        timer = null
      }
      const signal = AbortSignal.any([options.signal, idle.signal])
      const body = await collect(request.body)
      let response: Response
      arm()
      try {
        response = await options.fetch(request.url, {
          method: request.method ?? 'GET',
          headers: request.headers,
          body,
          signal,
          redirect: 'manual',
        })
      } catch (error) {
        disarm()
        if (options.signal.aborted) throw options.signal.reason
        options.onNetworkError?.()
        const why = idle.signal.aborted
          ? (idle.signal.reason as Error).message
          : error instanceof Error
            ? error.cause instanceof Error
              ? error.cause.message
              : error.message
            : String(error)
        throw new GitNetworkError(`Could not reach ${url.origin}: ${why}`)
      }
      options.onReachable?.()
      if (response.status >= 300 && response.status < 400) {
        disarm()
        await response.body?.cancel()
        throw Object.assign(
          new Error(
            `The server redirected the git request (${response.status}); the repository may have moved. Fetch the project again from the server.`,
          ),
          { code: 'redirected' },
        )
      }
      const headers: Record<string, string> = {}
      response.headers.forEach((value, key) => {
        headers[key] = value
      })
      const stream = response.body
      async function* chunks(): AsyncGenerator<Uint8Array, void, undefined> {
        if (stream === null) return disarm()
        try {
          for await (const chunk of stream) {
            arm()
            options.onBytes?.(chunk.byteLength)
            yield chunk
          }
        } catch (error) {
          if (options.signal.aborted) throw options.signal.reason
          options.onNetworkError?.()
          throw new GitNetworkError(
            `The connection to ${url.origin} broke off: ${error instanceof Error ? error.message : String(error)}`,
          )
        } finally {
          disarm()
        }
      }
      return {
        url: request.url,
        method: request.method,
        headers,
        body: chunks(),
        statusCode: response.status,
        statusMessage: response.statusText,
      }
    },
  }
}
