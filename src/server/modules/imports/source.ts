import { BlockedUrlError, outboundFetch, type OutboundPolicy } from '../../platform/outbound/outbound'

/** A request to the source instance that failed: `status` is null when it was not reached at all. */
export class SourceApiError extends Error {
  constructor(
    readonly status: number | null,
    message: string,
  ) {
    super(message)
  }
}

const TIMEOUT_MS = 30_000

/**
 * A small client of a GitLab-compatible REST API v4 (the import source), authenticated with a
 * personal access token. Every request goes through the outbound guard (http/outbound.ts);
 * redirects are not followed, so the token never travels to another host.
 */
export class SourceApi {
  constructor(
    /** `http(s)://host[:port][/prefix]`, without a trailing slash. */
    readonly baseUrl: string,
    private readonly token: string,
    private readonly policy: OutboundPolicy,
  ) {}

  private async request(path: string, query: Readonly<Record<string, string>> = {}): Promise<Response> {
    const url = new URL(`${this.baseUrl}/api/v4${path}`)
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v)
    let res: Response
    try {
      res = await outboundFetch(
        url.href,
        {
          headers: { 'PRIVATE-TOKEN': this.token, accept: 'application/json' },
          signal: AbortSignal.timeout(TIMEOUT_MS),
        },
        this.policy,
      )
    } catch (error) {
      if (error instanceof BlockedUrlError)
        throw new SourceApiError(null, `${this.baseUrl} is blocked: ${error.message}`)
      throw new SourceApiError(
        null,
        `could not reach ${this.baseUrl} (${error instanceof Error ? error.message : String(error)})`,
      )
    }
    if (!res.ok) {
      let message = `${res.status} ${res.statusText}`
      try {
        const body = (await res.json()) as { message?: unknown; error?: unknown }
        const text = body.message ?? body.error
        if (typeof text === 'string') message = text
      } catch {
        // Not JSON: the status line says enough.
      }
      throw new SourceApiError(res.status, message)
    }
    return res
  }

  /** One resource. */
  async get<T>(path: string, query: Readonly<Record<string, string>> = {}): Promise<T> {
    return (await (await this.request(path, query)).json()) as T
  }

  /** Every page of a list, `perPage` items at a time (100, the API's maximum), following `X-Next-Page`. */
  async *pages<T>(path: string, query: Readonly<Record<string, string>> = {}, perPage = 100): AsyncGenerator<T[]> {
    let page = '1'
    for (let guard = 0; guard < 100_000; guard += 1) {
      const res = await this.request(path, { ...query, per_page: String(perPage), page })
      yield (await res.json()) as T[]
      const next = res.headers.get('x-next-page')
      if (!next || next === page) return
      page = next
    }
  }
}
