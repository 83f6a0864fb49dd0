import Database from 'better-sqlite3'
import { join } from 'node:path'
import { secretBox, type SecretBox } from '../auth/encryption'
import { protectDataDir, restrictFile } from '../data-dir'
import { migrations, type Migration } from './migrations/index'

export type Db = Database.Database

const DATABASE_FILE = 'burrow.sqlite3'

/**
 * Opens (creating if needed) the server database in `dataDir` and migrates it to the latest
 * version, first closing the data directory to other accounts (`protectDataDir`). The database
 * file and its WAL and shared-memory files are the owner's alone (0600, also when an older server
 * left them world-readable): SQLite gives the files it adds the mode of the database file, which
 * is created 0600 before SQLite first opens it.
 */
export function openDatabase(dataDir: string): Db {
  protectDataDir(dataDir)
  const file = join(dataDir, DATABASE_FILE)
  restrictFile(file, { create: true })
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  for (const suffix of ['-wal', '-shm']) restrictFile(file + suffix, { create: false })
  migrate(db, migrations, secretBox(dataDir))
  return db
}

/**
 * Applies, in version order, every migration not yet recorded in `schema_migrations`, each in its
 * own transaction (its `data` step given `secrets`, the instance key's box, when there is one).
 * Recording each version (rather than only the highest, as `user_version` would) means a
 * migration merged with a lower number than one already applied still runs.
 */
export function migrate(db: Db, list: readonly Migration[] = migrations, secrets: SecretBox | null = null): void {
  db.exec(
    `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`,
  )
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
  )
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
  for (const migration of [...list].sort((a, b) => a.version - b.version)) {
    if (applied.has(migration.version)) continue
    const apply = db.transaction(() => {
      const dangling = migration.rebuildsTables ? danglingReferences(db) : null
      db.exec(migration.sql)
      migration.data?.(db, secrets)
      if (dangling) assertNoNewDanglingReferences(db, migration, dangling)
      record.run(migration.version, migration.name, nowIso())
    })
    if (migration.rebuildsTables) withoutForeignKeyEnforcement(db, apply)
    else apply()
  }
}

/**
 * Runs `fn` with foreign key enforcement off, then restores the setting. SQLite ignores the
 * pragma inside a transaction, where a table rebuild would then cascade its drop into children.
 */
function withoutForeignKeyEnforcement(db: Db, fn: () => void): void {
  if (db.inTransaction) throw new Error('a migration that rebuilds tables cannot run inside a transaction')
  const enforced = db.pragma('foreign_keys', { simple: true }) === 1
  db.pragma('foreign_keys = OFF')
  try {
    fn()
  } finally {
    if (enforced) db.pragma('foreign_keys = ON')
  }
}

interface ForeignKeyViolation {
  readonly table: string
  readonly rowid: number | null
  readonly parent: string
  readonly fkid: number
}

/** Rows whose foreign keys point at missing parents (`PRAGMA foreign_key_check`), as keys. */
function danglingReferences(db: Db): Set<string> {
  return new Set(
    (db.pragma('foreign_key_check') as ForeignKeyViolation[]).map((v) => `${v.table} ${v.rowid} ${v.parent} ${v.fkid}`),
  )
}

/** Throws (rolling the migration back) when it left rows pointing at missing parents that were not so before. */
function assertNoNewDanglingReferences(db: Db, migration: Migration, before: ReadonlySet<string>): void {
  const added = [...danglingReferences(db)].filter((key) => !before.has(key))
  if (added.length > 0)
    throw new Error(
      `migration ${migration.version} (${migration.name}) would leave rows pointing at missing parents: ${added.slice(0, 5).join(', ')}`,
    )
}

let clock: (() => Date) | null = null

/** The current time: the system clock, or the one `withClock` set. */
export function currentTime(): Date {
  return clock ? clock() : new Date()
}

/** ISO 8601 timestamp with milliseconds, the form every stored time uses. */
export function nowIso(): string {
  return currentTime().toISOString()
}

/**
 * nowIso, or a millisecond past `previous` when the clock has not passed it: a write that moves a
 * row's updated_at must give it a value clients have not read, or a sync by `updated_after`
 * (rows still at its cursor are the ones it holds) misses the change.
 */
export function nowIsoAfter(previous: string): string {
  const now = currentTime()
  const before = Date.parse(previous)
  return Number.isNaN(before) || now.getTime() > before ? now.toISOString() : new Date(before + 1).toISOString()
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
