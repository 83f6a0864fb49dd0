import type { Db } from '../connection'

/** A table as sqlite_master holds it. */
export interface TableDefinition {
  readonly name: string
  readonly sql: string
}

/** The table's name in double quotes, as SQL identifiers are quoted. */
export function quoted(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}

/** The table's definition as sqlite_master holds it; throws when there is none. */
export function tableDefinition(db: Db, name: string): TableDefinition {
  const row = db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name) as
    TableDefinition | undefined
  if (!row) throw new Error(`no table ${name}`)
  return row
}

/**
 * Creates the table again from `definition` (its CREATE TABLE statement naming `rebuilt`), the
 * way SQLite's documentation says a column constraint is changed: rows copied with their ids
 * (which also carries its AUTOINCREMENT sequence), the old table dropped, the new one renamed,
 * then its indexes and triggers created again. Runs in a migration marked `rebuildsTables`
 * (foreign keys off, checked after), so dropping the table does not cascade into its children.
 */
export function rebuildTable(db: Db, table: TableDefinition, definition: (rebuilt: string) => string): void {
  const rebuilt = `${table.name}__rebuilt`
  // Indexes and triggers go with the dropped table; automatic indexes (UNIQUE) come back with the definition.
  const dependents = (
    db
      .prepare(`SELECT sql FROM sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL`)
      .all(table.name) as { sql: string }[]
  ).map((r) => r.sql)
  const columns = (db.prepare('SELECT name FROM pragma_table_info(?)').all(table.name) as { name: string }[])
    .map((c) => quoted(c.name))
    .join(', ')
  db.exec(definition(rebuilt))
  db.exec(`INSERT INTO ${quoted(rebuilt)} (${columns}) SELECT ${columns} FROM ${quoted(table.name)}`)
  db.exec(`DROP TABLE ${quoted(table.name)}`)
  db.exec(`ALTER TABLE ${quoted(rebuilt)} RENAME TO ${quoted(table.name)}`)
  for (const sql of dependents) db.exec(sql)
}

/** The table's CREATE statement with its name replaced by `newName`. */
export function renamedDefinition(table: TableDefinition, newName: string): string {
  const header = /^CREATE TABLE\s+(?:"(?:[^"]|"")+"|\S+?)\s*\(/i
  if (!header.test(table.sql)) throw new Error(`cannot read the definition of ${table.name}`)
  return table.sql.replace(header, `CREATE TABLE ${quoted(newName)} (`)
}
