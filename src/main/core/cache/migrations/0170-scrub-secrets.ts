import type { CacheDb } from '../database'
import { withoutSecrets } from '../secrets'
import type { CacheMigration } from './index'

/*
 * Earlier versions saved API answers whole, with their secret fields (a project's
 * `runners_token`, the instance's `runners_registration_token`, CI variable values…). This
 * scrubs them from every saved answer of the URL cache (marked `secrets_stripped`, so a 304 is
 * never answered with such a copy: see http-cache.ts) and from saved projects and groups, with
 * `secure_delete` on so the old bytes are zeroed rather than left in free space.
 */

/** Rewrites each JSON text of `table`.`column` (rows by `key`) that holds a secret field; returns the keys rewritten. */
function scrubColumn(db: CacheDb, table: string, key: string, column: string): unknown[] {
  const rows = db.prepare(`SELECT ${key} AS k, ${column} AS v FROM ${table} WHERE ${column} IS NOT NULL`).all() as {
    k: unknown
    v: string
  }[]
  const update = db.prepare(`UPDATE ${table} SET ${column} = ? WHERE ${key} = ?`)
  const rewritten: unknown[] = []
  for (const { k, v } of rows) {
    let parsed: unknown
    try {
      parsed = JSON.parse(v)
    } catch {
      continue
    }
    const scrubbed = withoutSecrets(parsed)
    if (!scrubbed.stripped) continue
    update.run(JSON.stringify(scrubbed.value), k)
    rewritten.push(k)
  }
  return rewritten
}

const migration: CacheMigration = {
  version: 170,
  name: 'scrub-secrets',
  sql: `
-- 1 when secret fields were left out of body: only a whole answer kept in memory may stand for it on a 304.
ALTER TABLE http_cache ADD COLUMN secrets_stripped INTEGER NOT NULL DEFAULT 0;
`,
  data(db) {
    const secureDelete = db.pragma('secure_delete', { simple: true }) as number
    db.pragma('secure_delete = ON')
    const markStripped = db.prepare('UPDATE http_cache SET secrets_stripped = 1 WHERE rowid = ?')
    for (const rowid of scrubColumn(db, 'http_cache', 'rowid', 'body')) markStripped.run(rowid)
    for (const table of ['projects', 'groups']) scrubColumn(db, table, 'rowid', 'json')
    db.pragma(`secure_delete = ${secureDelete}`)
  },
}

export default migration
