import type Database from 'better-sqlite3'
import type { Db } from './connection'

const caches = new WeakMap<Db, Map<string, Database.Statement>>()
const LIMIT = 256

/**
 * A prepared statement reused across requests for the same SQL text. List queries are built per
 * request from their filters, but a handful of shapes repeat; compiling them again each time cost
 * more than running them. Callers must not change the statement's mode (pluck, raw, expand), which
 * would leak into every later user of the same text.
 */
export function cachedStatement(db: Db, sql: string): Database.Statement {
  let cache = caches.get(db)
  if (!cache) {
    cache = new Map()
    caches.set(db, cache)
  }
  let statement = cache.get(sql)
  if (statement) {
    // Re-insert so the map's order is least recently used first.
    cache.delete(sql)
    cache.set(sql, statement)
    return statement
  }
  statement = db.prepare(sql)
  if (cache.size >= LIMIT) cache.delete(cache.keys().next().value as string)
  cache.set(sql, statement)
  return statement
}
