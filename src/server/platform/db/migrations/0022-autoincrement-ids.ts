import type { Db } from '../connection'
import { rebuildTable, renamedDefinition, type TableDefinition } from './rebuild-table'

/**
 * Ids are never handed out twice, as GitLab's are not: a client's offline cache keys on them, so
 * a new project, user, issue… that took a deleted one's id would show as the old one there.
 * SQLite reuses the highest rowid once its row is deleted unless the table is AUTOINCREMENT, which
 * only a rebuild can add: every table whose `id` is the rowid is created again with
 * AUTOINCREMENT, its rows copied (ids kept, which also sets its sqlite_sequence to the highest),
 * the old table dropped and the new one renamed, then its indexes and triggers created again.
 * Foreign keys are part of each table's own definition and stay as they were; the schema has no
 * views and no full-text tables. Each table is copied once in one pass, and its indexes are built
 * after the copy.
 *
 * Deleted rows' ids the database still names (audit events of deleted users, groups and projects,
 * iid counters of deleted projects and groups) are kept out of use too; those counters are then
 * dropped, as a deleted project's or group's counters are from now on.
 */

const AUTOINCREMENT_ID = /\bid\s+INTEGER\s+PRIMARY\s+KEY\b(?!\s+AUTOINCREMENT)/gi

/** Tables whose primary key is an `id` INTEGER column (the rowid) without AUTOINCREMENT. */
function tablesReusingIds(db: Db): TableDefinition[] {
  const tables = db
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
    .all() as TableDefinition[]
  const primaryKey = db.prepare('SELECT name, type FROM pragma_table_info(?) WHERE pk > 0')
  return tables.filter((t) => {
    const key = primaryKey.all(t.name) as { name: string; type: string }[]
    return (
      key.length === 1 &&
      key[0].name === 'id' &&
      key[0].type.toUpperCase() === 'INTEGER' &&
      !/\bAUTOINCREMENT\b/i.test(t.sql)
    )
  })
}

/** The table's CREATE statement naming `newName`, its id column AUTOINCREMENT. */
function autoincrementDefinition(table: TableDefinition, newName: string): string {
  const ids = table.sql.match(AUTOINCREMENT_ID) ?? []
  if (ids.length !== 1) throw new Error(`migration 22: cannot find the id column of ${table.name}`)
  return renamedDefinition(table, newName).replace(AUTOINCREMENT_ID, (id) => `${id} AUTOINCREMENT`)
}

/** Makes the table's next id at least `floor + 1`. */
function keepIdsAbove(db: Db, table: string, floor: number | null): void {
  if (floor === null) return
  const updated = db.prepare('UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = ?').run(floor, table)
  if (updated.changes === 0) db.prepare('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)').run(table, floor)
}

function highest(db: Db, sql: string): number | null {
  return (db.prepare(sql).get() as { id: number | null }).id
}

export default {
  version: 22,
  name: 'autoincrement-ids',
  sql: '',
  rebuildsTables: true,
  data(db: Db): void {
    for (const table of tablesReusingIds(db))
      rebuildTable(db, table, (rebuilt) => autoincrementDefinition(table, rebuilt))
    keepIdsAbove(
      db,
      'users',
      highest(
        db,
        `SELECT MAX(id) AS id FROM (SELECT entity_id AS id FROM audit_events WHERE entity_type = 'User' UNION ALL SELECT author_id FROM audit_events)`,
      ),
    )
    keepIdsAbove(
      db,
      'namespaces',
      highest(
        db,
        `SELECT MAX(id) AS id FROM (SELECT entity_id AS id FROM audit_events WHERE entity_type = 'Group' UNION ALL SELECT scope_id FROM internal_ids WHERE scope_type = 'Namespace')`,
      ),
    )
    keepIdsAbove(
      db,
      'projects',
      highest(
        db,
        `SELECT MAX(id) AS id FROM (SELECT entity_id AS id FROM audit_events WHERE entity_type = 'Project' UNION ALL SELECT scope_id FROM internal_ids WHERE scope_type = 'Project')`,
      ),
    )
    db.exec(`DELETE FROM internal_ids WHERE (scope_type = 'Project' AND scope_id NOT IN (SELECT id FROM projects))
      OR (scope_type = 'Namespace' AND scope_id NOT IN (SELECT id FROM namespaces))`)
  },
}
