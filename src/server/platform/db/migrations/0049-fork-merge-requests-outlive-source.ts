import type { Db } from '../connection'
import { rebuildTable, renamedDefinition, tableDefinition } from './rebuild-table'

/**
 * A merge request outlives the project it came from, as in GitLab: deleting a fork keeps the merge
 * requests it opened in its upstream (closed if they were open, merged ones as history), their
 * `source_project_id` then null. It was `NOT NULL … ON DELETE CASCADE`, so deleting a fork deleted
 * them from the upstream. SQLite changes a column constraint only by rebuilding the table.
 */
const SOURCE_PROJECT =
  /source_project_id\s+INTEGER\s+NOT\s+NULL\s+REFERENCES\s+projects\s*\(\s*id\s*\)\s+ON\s+DELETE\s+CASCADE/i

export default {
  version: 49,
  name: 'fork-merge-requests-outlive-source',
  sql: '',
  rebuildsTables: true,
  data(db: Db): void {
    const table = tableDefinition(db, 'merge_requests')
    if (!SOURCE_PROJECT.test(table.sql)) throw new Error('migration 49: cannot find merge_requests.source_project_id')
    rebuildTable(db, table, (rebuilt) =>
      renamedDefinition(table, rebuilt).replace(
        SOURCE_PROJECT,
        'source_project_id INTEGER REFERENCES projects(id) ON DELETE SET NULL',
      ),
    )
  },
}
