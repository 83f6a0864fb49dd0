import type { AvatarsRequests } from '../../shared/ipc/avatars'
import { isUnder, type ApiClient } from './api/client'
import type { OnlineState } from './api/connectivity'
import { ApiError, isAccountHeld, NetworkError } from './api/errors'
import type { Cache } from './cache/cache'
import { sniffImageType } from './image-type'

/** What the avatars need of the accounts service (accounts/accounts.ts `Accounts` fits). */
export interface AvatarAccounts {
  clientFor(id: string): Promise<ApiClient>
  connectivityFor(id: string): OnlineState
}

export interface AvatarServiceOptions {
  readonly cache: Cache
  readonly accounts: AvatarAccounts
  /** Cap of the avatar table (image bytes plus a fixed cost per row); least recently used rows go first. Default 16 MiB. */
  readonly maxTotalBytes?: number
  /** Larger images are not kept (GitLab's own limit is 200 KiB). Default 1 MiB. */
  readonly maxImageBytes?: number
  /** A cached avatar younger than this is served without asking the instance. Default 24 h. */
  readonly maxAgeMs?: number
}

/** A refusal the renderer can tell apart; `code` crosses the IPC bridge as is. */
export class AvatarError extends Error {
  override readonly name = 'AvatarError'
  constructor(
    readonly code: 'foreign-url',
    message: string,
  ) {
    super(message)
  }
}

/** The bookkeeping cost of a row, so that rows recording "no image" count toward the cap too. */
const ROW_COST = 256
/** `used_at` is rewritten at most this often: reads should not all turn into writes. */
const TOUCH_EVERY_MS = 3_600_000

interface AvatarRow {
  readonly content_type: string | null
  readonly data: Buffer | null
  readonly etag: string | null
  readonly fetched_at: string
  readonly used_at: string
}

function dataUrl(row: Pick<AvatarRow, 'content_type' | 'data'> | undefined): string | null {
  if (row === undefined || row.data === null || row.content_type === null) return null
  return `data:${row.content_type};base64,${row.data.toString('base64')}`
}

/**
 * Avatars for the page as data URLs (the CSP allows no remote image, and a forge's avatar URL
 * would tell that host who looks at what). Only URLs on the account's own instance are fetched,
 * with the account's client; other hosts (Gravatar…) are refused. What was fetched is kept in
 * the cache database (`avatars`, migration 120) under a size cap, and served from there while
 * recent, and whenever the instance cannot be reached.
 */
export class AvatarService {
  private readonly inFlight = new Map<string, Promise<string | null>>()
  private readonly maxTotalBytes: number
  private readonly maxImageBytes: number
  private readonly maxAgeMs: number

  constructor(private readonly options: AvatarServiceOptions) {
    this.maxTotalBytes = options.maxTotalBytes ?? 16 * 1024 * 1024
    this.maxImageBytes = options.maxImageBytes ?? 1024 * 1024
    this.maxAgeMs = options.maxAgeMs ?? 24 * 3_600_000
  }

  /** The avatar at `url` as a data URL, or null when there is no image to show. */
  async get(accountId: string, url: string): Promise<string | null> {
    const client = await this.options.accounts.clientFor(accountId)
    if (!isUnder(url, client.baseUrl))
      throw new AvatarError(
        'foreign-url',
        `Avatars are loaded only from the account's own instance (${client.baseUrl}), not from ${safeOrigin(url)}.`,
      )
    const key = `${accountId}\n${url}`
    let pending = this.inFlight.get(key)
    if (pending === undefined) {
      pending = this.load(accountId, url, client).finally(() => this.inFlight.delete(key))
      this.inFlight.set(key, pending)
    }
    return pending
  }

  private async load(accountId: string, url: string, client: ApiClient): Promise<string | null> {
    const { cache } = this.options
    const acct = cache.acct(accountId)
    const row = cache.db
      .prepare('SELECT content_type, data, etag, fetched_at, used_at FROM avatars WHERE acct = ? AND url = ?')
      .get(acct, url) as AvatarRow | undefined
    const now = Date.now()
    if (
      row !== undefined &&
      (now - Date.parse(row.fetched_at) < this.maxAgeMs || !this.options.accounts.connectivityFor(accountId).online)
    ) {
      this.touch(acct, url, row, now)
      return dataUrl(row)
    }
    let fetched: { readonly contentType: string | null; readonly data: Buffer | null; readonly etag: string | null }
    try {
      const download = await client.download(url, {
        maxBytes: this.maxImageBytes,
        ifNoneMatch: row?.data != null ? (row.etag ?? undefined) : undefined,
      })
      if (download.notModified && row !== undefined) {
        cache.db
          .prepare('UPDATE avatars SET fetched_at = ?, used_at = ? WHERE acct = ? AND url = ?')
          .run(new Date(now).toISOString(), new Date(now).toISOString(), acct, url)
        return dataUrl(row)
      }
      const type = sniffImageType(download.bytes)
      fetched = { contentType: type, data: type === null ? null : Buffer.from(download.bytes), etag: download.etag }
    } catch (error) {
      // Unreachable, or the account's requests held: what we have, however old.
      if (error instanceof NetworkError || isAccountHeld(error)) return dataUrl(row)
      // No image there (404, 403), or one we will not keep: remembered as such until it ages out.
      if (error instanceof ApiError || (error as { code?: unknown }).code === 'too-large')
        fetched = { contentType: null, data: null, etag: null }
      else throw error
    }
    this.store(acct, url, fetched, now)
    return dataUrl({ content_type: fetched.contentType, data: fetched.data })
  }

  private touch(acct: number, url: string, row: AvatarRow, now: number): void {
    if (now - Date.parse(row.used_at) < TOUCH_EVERY_MS) return
    this.options.cache.db
      .prepare('UPDATE avatars SET used_at = ? WHERE acct = ? AND url = ?')
      .run(new Date(now).toISOString(), acct, url)
  }

  /** Writes the row, then evicts the least recently used rows while the table is over its cap. */
  private store(
    acct: number,
    url: string,
    fetched: { readonly contentType: string | null; readonly data: Buffer | null; readonly etag: string | null },
    now: number,
  ): void {
    const { db } = this.options.cache
    const at = new Date(now).toISOString()
    db.transaction(() => {
      db.prepare(
        `INSERT INTO avatars (acct, url, content_type, data, bytes, etag, fetched_at, used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (acct, url) DO UPDATE SET content_type = excluded.content_type, data = excluded.data, bytes = excluded.bytes, etag = excluded.etag, fetched_at = excluded.fetched_at, used_at = excluded.used_at`,
      ).run(acct, url, fetched.contentType, fetched.data, (fetched.data?.length ?? 0) + ROW_COST, fetched.etag, at, at)
      let total = db.prepare('SELECT COALESCE(SUM(bytes), 0) FROM avatars').pluck().get() as number
      if (total <= this.maxTotalBytes) return
      const victims = db
        .prepare('SELECT acct, url, bytes FROM avatars WHERE NOT (acct = ? AND url = ?) ORDER BY used_at, rowid')
        .iterate(acct, url) as IterableIterator<{ acct: number; url: string; bytes: number }>
      const remove = db.prepare('DELETE FROM avatars WHERE acct = ? AND url = ?')
      const doomed: { acct: number; url: string }[] = []
      for (const victim of victims) {
        if (total <= this.maxTotalBytes) break
        doomed.push(victim)
        total -= victim.bytes
      }
      for (const victim of doomed) remove.run(victim.acct, victim.url)
    })()
  }
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return 'another host'
  }
}

/** One async function per avatars channel (handlers.ts spreads them into the contract's handlers). */
export type AvatarsHandlers = {
  readonly [C in keyof AvatarsRequests]: (...args: AvatarsRequests[C]['args']) => Promise<AvatarsRequests[C]['result']>
}

/** The avatars channel over the service; the getter is called per request, so a launch without a cache answers `unavailable`. */
export function avatarsHandlers(avatars: () => AvatarService): AvatarsHandlers {
  return {
    'avatars:get': async (request) => avatars().get(request.accountId, request.url),
  }
}
