import Database from 'better-sqlite3'
import { dirname } from 'node:path'
import { restrictDir, restrictFile } from '../../../server/platform/data-dir'
import { cacheMigrations, type CacheMigration } from './migrations/index'

export type CacheDb = Database.Database

/** The cache file's name inside the user data dir. */
export const CACHE_FILE = 'cache.sqlite3'

/**
 * The environment variable naming better-sqlite3's compiled addon to load instead of the one in
 * node_modules. `npm start` sets it for Electron (scripts/electron-native.mjs): node_modules holds
 * the system Node's build, which Electron's main process (another ABI) cannot load.
 */
export const SQLITE_BINDING_ENV = 'BURROW_SQLITE_BINDING'

export interface CacheDatabaseOptions {
  /** Path of the better_sqlite3.node to load; default: `BURROW_SQLITE_BINDING`, else node_modules' own. */
  readonly nativeBinding?: string
}

/** The addon path an open uses: the option, else the environment variable (empty counts as unset). */
export function sqliteBinding(
  options: CacheDatabaseOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const fromEnv = env[SQLITE_BINDING_ENV]
  return options.nativeBinding ?? (fromEnv !== undefined && fromEnv !== '' ? fromEnv : undefined)
}

/**
 * Opens (creating if needed) the desktop cache database and migrates it. Its folder (the app
 * data dir) is made 0700 and the database with its WAL and shared-memory files 0600, at every
 * open, so files an older version left readable are closed too. WAL, so the renderer's
 * reads through IPC never wait for a sync page being written; `synchronous = NORMAL` because
 * the cache can always be rebuilt from the server (the outbox's rows are the exception, and WAL
 * with NORMAL still never corrupts: at worst the last transactions before a power loss vanish).
 */
export function openCacheDatabase(
  file: string,
  migrations: readonly CacheMigration[] = cacheMigrations,
  options: CacheDatabaseOptions = {},
): CacheDb {
  const onDisk = file !== ':memory:'
  if (onDisk) {
    // The app data dir and the cache files are the user's alone: they hold everything synced.
    restrictDir(dirname(file))
    restrictFile(file, { create: true })
  }
  const nativeBinding = sqliteBinding(options)
  const db = nativeBinding === undefined ? new Database(file) : new Database(file, { nativeBinding })
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  if (onDisk) for (const suffix of ['-wal', '-shm']) restrictFile(file + suffix, { create: false })
  migrateCache(db, migrations)
  return db
}

/**
 * Applies, in version order, each migration not yet recorded in `schema_migrations`, each in
 * its own transaction (the server's scheme: recording every version, not only the highest, lets
 * a migration merged with a lower number than an applied one still run).
 */
export function migrateCache(db: CacheDb, migrations: readonly CacheMigration[] = cacheMigrations): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  )
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[])
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(migration.version)) continue
    db.transaction(() => {
      db.exec(migration.sql)
      migration.data?.(db)
      record.run(migration.version, migration.name, new Date().toISOString())
    })()
  }
}
