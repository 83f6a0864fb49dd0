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

const rawCaches = new WeakMap<
  Db,
  Map<string, { readonly statement: Database.Statement; readonly toObject: RowMapper }>
>()
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
 * from raw rows through `rowMapper`. `params` are named (an object) or positional (an array).
 */
export function allRows<T>(db: Db, sql: string, params: Readonly<Record<string, unknown>> | readonly unknown[]): T[] {
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
  const rows = (Array.isArray(params) ? entry.statement.all(...params) : entry.statement.all(params)) as unknown[][]
  return rows.map(entry.toObject) as T[]
}

const memos = new WeakMap<Db, Map<string, { readonly version: string; readonly row: unknown }>>()

/**
 * What the database looks like now, as a token that changes with every write: rows changed by
 * this connection (`total_changes()`) and commits by any other one (`data_version`). Null inside
 * a transaction, whose changes may still be rolled back.
 */
export function dataVersion(db: Db): string | null {
  if (db.inTransaction) return null
  const v = cachedStatement(
    db,
    'SELECT total_changes() AS c, (SELECT data_version FROM pragma_data_version) AS d',
  ).get() as { c: number; d: number }
  return `${v.c}:${v.d}`
}

/**
 * `cachedStatement(db, sql).get(...args)`, answered from memory while the database has not
 * changed since the same query was last run: for aggregates over many rows (list totals), which a
 * client asks again for every page and every poll. Any write anywhere recomputes, so the answer is
 * always the one the query would give now. A query that reads the clock (`date('now')`) names the
 * time it depends on in `clockKey`.
 */
export function memoizedGet<T>(db: Db, sql: string, args: readonly unknown[], clockKey = ''): T {
  return memoized(db, 'get', sql, args, clockKey) as T
}

/** `memoizedGet` for every row (`all`): the rows are shared between callers, who must not change them. */
export function memoizedAll<T>(db: Db, sql: string, args: readonly unknown[], clockKey = ''): readonly T[] {
  return memoized(db, 'all', sql, args, clockKey) as readonly T[]
}

function memoized(db: Db, mode: 'get' | 'all', sql: string, args: readonly unknown[], clockKey: string): unknown {
  const run = (): unknown =>
    mode === 'get' ? cachedStatement(db, sql).get(...args) : cachedStatement(db, sql).all(...args)
  const version = dataVersion(db)
  if (version === null) return run()
  let memo = memos.get(db)
  if (!memo) {
    memo = new Map()
    memos.set(db, memo)
  }
  const key = `${mode}\u0000${sql}\u0000${JSON.stringify(args)}\u0000${clockKey}`
  const hit = memo.get(key)
  if (hit && hit.version === version) return hit.row
  const row = run()
  memo.delete(key)
  if (memo.size >= LIMIT) memo.delete(memo.keys().next().value as string)
  memo.set(key, { version, row })
  return row
}

/** `text` with LIKE's wildcards escaped by a backslash (use with `ESCAPE '\'`). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/** A LIKE pattern matching values that contain `text` (use with `ESCAPE '\'`). */
export function containsLike(text: string): string {
  return `%${escapeLike(text)}%`
}
