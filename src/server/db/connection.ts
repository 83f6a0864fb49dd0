import Database from 'better-sqlite3'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { migrations, type Migration } from './migrations/index'

export type Db = Database.Database

/** Opens (creating if needed) the server database in `dataDir` and migrates it to the latest version. */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true })
  const db = new Database(join(dataDir, 'burrow.sqlite3'))
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  migrate(db)
  return db
}

/**
 * Applies, in version order, every migration not yet recorded in `schema_migrations`, each in its
 * own transaction. Recording each version (rather than only the highest, as `user_version`
 * would) means a migration merged with a lower number than one already applied still runs.
 */
export function migrate(db: Db, list: readonly Migration[] = migrations): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`)
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version))
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
  for (const migration of [...list].sort((a, b) => a.version - b.version)) {
    if (applied.has(migration.version)) continue
    db.transaction(() => {
      db.exec(migration.sql)
      record.run(migration.version, migration.name, nowIso())
    })()
  }
}

let clock: (() => Date) | null = null

/** ISO 8601 timestamp with milliseconds, the form every stored time uses. */
export function nowIso(): string {
  return (clock ? clock() : new Date()).toISOString()
}

/**
 * Runs `fn` with `nowIso` answering `time()` instead of the system clock, then restores it. The
 * seed (src/server/seed) writes a forge's past this way: content dated over past months, with
 * the same timestamps on every run. Only for work done before the server listens.
 */
export async function withClock<T>(time: () => Date, fn: () => Promise<T>): Promise<T> {
  const previous = clock
  clock = time
  try {
    return await fn()
  } finally {
    clock = previous
  }
}
