import type { CacheDb } from '../database'
import cacheCore from './0001-cache-core'
import outbox from './0050-outbox'
import reviewDrafts from './0060-review-drafts'
import notify from './0100-notify'
import avatars from './0120-avatars'
import search from './0140-search'
import searchPrefix from './0141-search-prefix'
import searchDetailColumn from './0142-search-detail-column'
import repos from './0160-repos'
import scrubSecrets from './0170-scrub-secrets'

export interface CacheMigration {
  readonly version: number
  readonly name: string
  readonly sql: string
  /** Rewrites rows after `sql`, in the same transaction, where SQL alone cannot. */
  readonly data?: (db: CacheDb) => void
}

/**
 * Every migration of the desktop cache database (`cache.sqlite3` in the user data dir), one
 * list for the whole file. Versions 1–49 belong to the cache and sync (core/cache, core/sync),
 * 50–99 to the outbox (core/outbox; 60 its review drafts), 100–119 to the to-do and alert watcher and the app
 * preferences (core/notify), 120–139 to avatars (core/avatars.ts), 140–159 to the cache's
 * search index (core/cache), 160–169 to repository clones (core/repos), 170 to the scrub of
 * secret fields (core/cache/secrets.ts). Each runs once, in version order, whatever order they were merged
 * in; never edit one that has shipped.
 */
export const cacheMigrations: readonly CacheMigration[] = [
  cacheCore,
  outbox,
  reviewDrafts,
  notify,
  avatars,
  search,
  searchPrefix,
  searchDetailColumn,
  repos,
  scrubSecrets,
]
