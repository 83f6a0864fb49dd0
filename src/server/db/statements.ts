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

type RowMapper = (values: readonly unknown[]) => Record<string, unknown>

const rawCaches = new WeakMap<Db, Map<string, { readonly statement: Database.Statement; readonly toObject: RowMapper }>>()
const mappers = new Map<string, RowMapper>()

/**
 * A function building `{column: value}` objects from raw rows as one object literal. Objects that
 * better-sqlite3 builds natively for wide rows (users have 44 columns) end up slow to create and
 * to serialise; raw arrays plus a literal of fixed shape cost a third as much. The source is made
 * only from column names, each written as a JSON string literal.
 */
function rowMapper(columns: readonly string[]): RowMapper {
  const key = JSON.stringify(columns)
  let mapper = mappers.get(key)
  if (!mapper) {
    const body = `return {${columns.map((c, i) => `${JSON.stringify(c)}: v[${i}]`).join(', ')}}`
    mapper = new Function('v', body) as RowMapper
    if (mappers.size >= 256) mappers.clear()
    mappers.set(key, mapper)
  }
  return mapper
}

/**
 * `cachedStatement(db, sql).all(params)` for list pages of wide rows: the same objects, built
 * from raw rows through `rowMapper`.
 */
export function allRows<T>(db: Db, sql: string, params: Readonly<Record<string, unknown>>): T[] {
  let cache = rawCaches.get(db)
  if (!cache) {
    cache = new Map()
    rawCaches.set(db, cache)
  }
  let entry = cache.get(sql)
  if (entry) {
    cache.delete(sql)
  } else {
    const statement = db.prepare(sql).raw(true)
    entry = { statement, toObject: rowMapper(statement.columns().map((c) => c.name)) }
    if (cache.size >= LIMIT) cache.delete(cache.keys().next().value as string)
  }
  cache.set(sql, entry)
  const rows = entry.statement.all(params) as unknown[][]
  return rows.map(entry.toObject) as T[]
}
