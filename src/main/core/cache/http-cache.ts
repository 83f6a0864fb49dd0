import type { CachedGetResult } from '../../../shared/ipc/cache'
import type { ApiClient } from '../api/client'
import { isAccountHeld, NetworkError } from '../api/errors'
import type { Query } from '../api/query'
import type { Cache } from './cache'
import { withoutSecrets } from './secrets'

interface StoredResponse {
  readonly status: number
  readonly etag: string | null
  readonly headers: string
  readonly body: string | null
  readonly fetched_at: string
  /** 1 when secret fields were left out of `body` (secrets.ts). */
  readonly secrets_stripped: number
}

/** How many whole answers with secret fields `CachedGet` keeps in memory for 304s. */
const WHOLE_ANSWERS = 200

const PAGE_HEADERS = ['x-total', 'x-total-pages', 'x-next-page', 'x-page', 'x-per-page'] as const

function intOrNull(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null
  const n = Number(value)
  return Number.isInteger(n) ? n : null
}

function pageOf(headers: Readonly<Record<string, string>>): CachedGetResult['page'] {
  if (!PAGE_HEADERS.some((h) => headers[h] !== undefined)) return null
  return {
    total: intOrNull(headers['x-total']),
    totalPages: intOrNull(headers['x-total-pages']),
    nextPage: intOrNull(headers['x-next-page']),
    page: intOrNull(headers['x-page']),
    perPage: intOrNull(headers['x-per-page']),
  }
}

/** A failure when the server is unreachable and nothing was cached for the URL. */
export class OfflineError extends Error {
  readonly code = 'offline'
  /** Tells the renderer this is a read with no saved copy, not a refused write. */
  readonly details = { read: 'not-saved' }
  override readonly name = 'OfflineError'
}

/** Projects and groups: a write inside one changes neither its record nor the lists of them. */
const CONTAINERS = new Set(['projects', 'groups'])

/**
 * The GET paths a successful write to `path` makes outdated: the path itself (its descendants
 * too, `delete` of `/runners/3` outdates `/runners/3/jobs`), and its ancestors — the item an
 * action acts on (`/environments/5` after `…/5/stop`) and the list it sits in — except a
 * whole project or group (`/projects/7`) and the lists of them (`/projects`).
 */
export function writtenPaths(path: string): { readonly tree: string; readonly exact: readonly string[] } {
  const segments = path.split('/').filter((s) => s !== '')
  const exact: string[] = []
  for (let i = segments.length - 1; i >= 1; i -= 1) {
    if (CONTAINERS.has(segments[0]) && i <= 2) break
    exact.push(`/${segments.slice(0, i).join('/')}`)
  }
  return { tree: `/${segments.join('/')}`, exact }
}

/**
 * GETs of the REST API that stay readable offline: every answer is stored by URL (per account)
 * with its ETag, and sent with If-None-Match next time, so an unchanged resource costs a 304.
 * When the instance is known to be offline, or the request fails on the network, the stored
 * answer comes back with `stale: true`. API errors (404, 403…) are not cached and propagate.
 * Secret fields (tokens, passwords, CI variable values: secrets.ts) reach the renderer online
 * and are left out of what is saved, so an offline read has them no more. To answer a 304 with
 * them, the last whole answers that had some stay in memory (never on disk); a saved copy
 * missing fields with no whole answer in memory (after a restart) is fetched whole again.
 */
export class CachedGet {
  /** Whole answers whose saved copy lacks secret fields, by account and URL, oldest first. */
  private readonly whole = new Map<string, { readonly etag: string; readonly body: unknown }>()

  constructor(private readonly cache: Cache) {}

  async get(
    accountId: string,
    client: ApiClient,
    path: string,
    query: Query | undefined,
    options: { readonly online: boolean; readonly signal?: AbortSignal },
  ): Promise<CachedGetResult> {
    const url = this.key(client, path, query)
    const acct = this.cache.acct(accountId)
    const stored = this.cache.db
      .prepare(
        'SELECT status, etag, headers, body, fetched_at, secrets_stripped FROM http_cache WHERE acct = ? AND url = ?',
      )
      .get(acct, url) as StoredResponse | undefined
    if (!options.online) return this.fromStore(stored)
    const wholeKey = `${acct} ${url}`
    const current = stored === undefined ? undefined : this.currentBody(stored, this.whole.get(wholeKey))
    let response
    try {
      response = await client.request<unknown>('GET', path, {
        query,
        signal: options.signal,
        ifNoneMatch: current === undefined ? undefined : (stored?.etag ?? undefined),
      })
    } catch (error) {
      if (error instanceof NetworkError) return this.fromStore(stored)
      // The account's requests are held (a sign-in to renew, a Retry-After): the saved copy, else why not.
      if (isAccountHeld(error) && stored !== undefined) return this.fromStore(stored)
      throw error
    }
    const now = new Date().toISOString()
    if (response.status === 304 && stored !== undefined && current !== undefined) {
      this.cache.db.prepare('UPDATE http_cache SET fetched_at = ? WHERE acct = ? AND url = ?').run(now, acct, url)
      return {
        body: current.body,
        status: stored.status,
        stale: false,
        fetchedAt: now,
        page: pageOf(JSON.parse(stored.headers) as Record<string, string>),
      }
    }
    const headers: Record<string, string> = {}
    for (const name of PAGE_HEADERS) {
      const v = response.headers.get(name)
      if (v !== null) headers[name] = v
    }
    // Secret fields are never saved (secrets.ts); the whole answer stays in memory for a 304.
    const saved = withoutSecrets(response.data)
    const body = saved.value === undefined ? null : JSON.stringify(saved.value)
    const etag = response.headers.get('etag')
    this.rememberWhole(wholeKey, saved.stripped && etag !== null ? { etag, body: response.data } : null)
    this.cache.db
      .prepare(
        `INSERT INTO http_cache (acct, url, status, etag, headers, body, fetched_at, secrets_stripped) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (acct, url) DO UPDATE SET status = excluded.status, etag = excluded.etag, headers = excluded.headers, body = excluded.body,
           fetched_at = excluded.fetched_at, secrets_stripped = excluded.secrets_stripped`,
      )
      .run(acct, url, response.status, etag, JSON.stringify(headers), body, now, saved.stripped ? 1 : 0)
    return { body: response.data ?? null, status: response.status, stale: false, fetchedAt: now, page: pageOf(headers) }
  }

  /**
   * Drops the saved answers a successful write made outdated (`writtenPaths`, plus `also`: other
   * lists showing the same item), each with any query, so an offline view never presents them
   * as the current state; the next read online saves the new answer. Returns how many went.
   */
  invalidate(accountId: string, client: Pick<ApiClient, 'apiUrl'>, path: string, also: readonly string[] = []): number {
    const acct = this.cache.acct(accountId)
    const { tree, exact } = writtenPaths(path)
    // substr comparisons rather than LIKE: paths hold `%` and `_` (`group%2Fapp`, `access_requests`).
    const withQuery = this.cache.db.prepare(
      'DELETE FROM http_cache WHERE acct = ? AND (url = ? OR substr(url, 1, ?) = ?)',
    )
    const withTree = this.cache.db.prepare(
      'DELETE FROM http_cache WHERE acct = ? AND (url = ? OR substr(url, 1, ?) = ? OR substr(url, 1, ?) = ?)',
    )
    const query = (url: string): number => withQuery.run(acct, url, url.length + 1, `${url}?`).changes
    return this.cache.db.transaction(() => {
      const base = `${client.apiUrl}${tree}`
      let removed = withTree.run(acct, base, base.length + 1, `${base}?`, base.length + 1, `${base}/`).changes
      // Ancestors with their queries only: the sub-resources of `/projects/7/environments/5` stay.
      for (const other of [...exact, ...also]) removed += query(`${client.apiUrl}${other}`)
      return removed
    })()
  }

  /**
   * What a 304 to the stored ETag would stand for: the saved body, or for a copy missing secret
   * fields the whole answer in memory with that ETag; undefined when there is nothing to
   * revalidate (then the request asks for the whole answer).
   */
  private currentBody(
    stored: StoredResponse,
    whole: { readonly etag: string; readonly body: unknown } | undefined,
  ): { readonly body: unknown } | undefined {
    if (stored.etag === null) return undefined
    if (stored.secrets_stripped === 0) return { body: stored.body === null ? null : JSON.parse(stored.body) }
    return whole?.etag === stored.etag ? { body: whole.body } : undefined
  }

  /** Keeps (or with null forgets) the whole answer of `key`, dropping the oldest past WHOLE_ANSWERS. */
  private rememberWhole(key: string, answer: { readonly etag: string; readonly body: unknown } | null): void {
    this.whole.delete(key)
    if (answer === null) return
    this.whole.set(key, answer)
    if (this.whole.size > WHOLE_ANSWERS) this.whole.delete(this.whole.keys().next().value as string)
  }

  /**
   * The storage key: the URL the client sends (`ApiClient.urlOf`, refused outside /api/v4) with
   * the query in a stable order (so `?a&b` and `?b&a` share an entry).
   */
  private key(client: ApiClient, path: string, query: Query | undefined): string {
    const sorted =
      query === undefined
        ? undefined
        : Object.fromEntries(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    return client.urlOf(path, sorted)
  }

  /**
   * The saved answer of a GET without asking the server (marked stale), or null when none is
   * saved: for answers the caller knows to be current by other means (a merge request's changes
   * at the head the cache holds).
   */
  saved(accountId: string, client: ApiClient, path: string, query?: Query): CachedGetResult | null {
    const acct = this.cache.existingAcct(accountId)
    if (acct === null) return null
    const stored = this.cache.db
      .prepare(
        'SELECT status, etag, headers, body, fetched_at, secrets_stripped FROM http_cache WHERE acct = ? AND url = ?',
      )
      .get(acct, this.key(client, path, query)) as StoredResponse | undefined
    return stored === undefined ? null : this.fromStore(stored)
  }

  /** When the answer for this GET was last saved (fetched or revalidated), or null when none is. */
  savedAt(accountId: string, client: ApiClient, path: string, query?: Query): string | null {
    const acct = this.cache.existingAcct(accountId)
    if (acct === null) return null
    return (
      (this.cache.db
        .prepare('SELECT fetched_at FROM http_cache WHERE acct = ? AND url = ?')
        .pluck()
        .get(acct, this.key(client, path, query)) as string | undefined) ?? null
    )
  }

  private fromStore(stored: StoredResponse | undefined): CachedGetResult {
    // The message is shown as it is: an API path (`/projects/1/merge_requests/26/changes`) means nothing to a reader.
    if (stored === undefined)
      throw new OfflineError(
        'Offline, and no copy of this is saved on this device: it was never fetched, or a change made since outdated it.',
      )
    return {
      body: stored.body === null ? null : JSON.parse(stored.body),
      status: stored.status,
      stale: true,
      fetchedAt: stored.fetched_at,
      page: pageOf(JSON.parse(stored.headers) as Record<string, string>),
    }
  }
}
