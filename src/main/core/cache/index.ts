import { join } from 'node:path'
import { Cache } from './cache'
import { CACHE_FILE, openCacheDatabase, type CacheDatabaseOptions } from './database'

export { Cache, type CacheChange, type ChangeKind, type ItemKey, type PatchableKind, type UpsertResult } from './cache'
export {
  CACHE_FILE,
  migrateCache,
  openCacheDatabase,
  SQLITE_BINDING_ENV,
  type CacheDatabaseOptions,
  type CacheDb,
} from './database'
export { CachedGet, OfflineError } from './http-cache'
export { CacheReader } from './lists'
export { ftsQuery, searchCache } from './search'
export type { JsonObject } from './json'
export type { ItemKind, NoteableKind } from './kinds'

/** The cache of one user data dir (`cache.sqlite3` there), migrated and ready. */
export function openCache(options: { readonly userDataDir: string } & CacheDatabaseOptions): Cache {
  return new Cache(
    openCacheDatabase(join(options.userDataDir, CACHE_FILE), undefined, { nativeBinding: options.nativeBinding }),
  )
}
