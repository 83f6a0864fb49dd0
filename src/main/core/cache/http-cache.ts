import type { CachedGetResult } from '../../../shared/ipc/cache'
import type { ApiClient } from '../api/client'
import { NetworkError } from '../api/errors'
import { encodeQuery, type Query } from '../api/query'
import type { Cache } from './cache'

interface StoredResponse {
  readonly status: number
  readonly etag: string | null
  readonly headers: string
  readonly body: string | null
  readonly fetched_at: string
}

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
 */
export class CachedGet {
  constructor(private readonly cache: Cache) {}

  async get(accountId: string, client: ApiClient, path: string, query: Query | undefined, options: { readonly online: boolean; readonly signal?: AbortSignal }): Promise<CachedGetResult> {
    const url = this.key(client, path, query)
    const acct = this.cache.acct(accountId)
    const stored = this.cache.db.prepare('SELECT status, etag, headers, body, fetched_at FROM http_cache WHERE acct = ? AND url = ?').get(acct, url) as StoredResponse | undefined
    if (!options.online) return this.fromStore(stored, path)
    let response
    try {
      response = await client.request<unknown>('GET', path, { query, signal: options.signal, ifNoneMatch: stored?.etag ?? undefined })
    } catch (error) {
      if (error instanceof NetworkError) return this.fromStore(stored, path)
      throw error
    }
    const now = new Date().toISOString()
    if (response.status === 304 && stored !== undefined) {
      this.cache.db.prepare('UPDATE http_cache SET fetched_at = ? WHERE acct = ? AND url = ?').run(now, acct, url)
      return { body: stored.body === null ? null : JSON.parse(stored.body), status: stored.status, stale: false, fetchedAt: now, page: pageOf(JSON.parse(stored.headers) as Record<string, string>) }
    }
    const headers: Record<string, string> = {}
    for (const name of PAGE_HEADERS) {
      const v = response.headers.get(name)
      if (v !== null) headers[name] = v
    }
    const body = response.data === undefined ? null : JSON.stringify(response.data)
    this.cache.db
      .prepare(
        `INSERT INTO http_cache (acct, url, status, etag, headers, body, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (acct, url) DO UPDATE SET status = excluded.status, etag = excluded.etag, headers = excluded.headers, body = excluded.body, fetched_at = excluded.fetched_at`,
      )
      .run(acct, url, response.status, response.headers.get('etag'), JSON.stringify(headers), body, now)
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
    const withQuery = this.cache.db.prepare('DELETE FROM http_cache WHERE acct = ? AND (url = ? OR substr(url, 1, ?) = ?)')
    const withTree = this.cache.db.prepare('DELETE FROM http_cache WHERE acct = ? AND (url = ? OR substr(url, 1, ?) = ? OR substr(url, 1, ?) = ?)')
    const query = (url: string): number => withQuery.run(acct, url, url.length + 1, `${url}?`).changes
    return this.cache.db.transaction(() => {
      const base = `${client.apiUrl}${tree}`
      let removed = withTree.run(acct, base, base.length + 1, `${base}?`, base.length + 1, `${base}/`).changes
      // Ancestors with their queries only: the sub-resources of `/projects/7/environments/5` stay.
      for (const other of [...exact, ...also]) removed += query(`${client.apiUrl}${other}`)
      return removed
    })()
  }

  /** The storage key: the full URL with the query in a stable order (so `?a&b` and `?b&a` share an entry). */
  private key(client: ApiClient, path: string, query: Query | undefined): string {
    const sorted = query === undefined ? undefined : Object.fromEntries(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    const qs = encodeQuery(sorted)
    return `${client.apiUrl}${path}${qs === '' ? '' : `?${qs}`}`
  }

  private fromStore(stored: StoredResponse | undefined, path: string): CachedGetResult {
    if (stored === undefined) throw new OfflineError(`Offline, and no copy of ${path} is saved on this device: it was never fetched, or a change made since outdated it.`)
    return {
      body: stored.body === null ? null : JSON.parse(stored.body),
      status: stored.status,
      stale: true,
      fetchedAt: stored.fetched_at,
      page: pageOf(JSON.parse(stored.headers) as Record<string, string>),
    }
  }
}
