import type { SecretBox } from '../../platform/auth/encryption'
import type { Db } from '../../platform/db/connection'
import { cachedStatement } from '../../platform/db/statements'
import type { VariableFields, VariableView } from '../ci-variables'

/** A row of `ci_group_variables`, its value opened (stored sealed as `encrypted_value`). */
export interface GroupVariableRow extends VariableView {
  readonly id: number
  readonly group_id: number
  readonly created_at: string
  readonly updated_at: string
}

type StoredVariable = Omit<GroupVariableRow, 'value'> & { readonly encrypted_value: string }

function opened(secrets: SecretBox, rows: unknown[]): GroupVariableRow[] {
  return (rows as StoredVariable[]).map(({ encrypted_value: sealed, ...row }) => ({
    ...row,
    value: secrets.open(sealed),
  }))
}

/** A group's own variables, by key and scope. */
export function groupVariables(db: Db, secrets: SecretBox, groupId: number): GroupVariableRow[] {
  return opened(
    secrets,
    cachedStatement(db, 'SELECT * FROM ci_group_variables WHERE group_id = ? ORDER BY key, environment_scope').all(
      groupId,
    ),
  )
}

/** A group's variables with this key (one per environment scope). */
export function findGroupVariables(db: Db, secrets: SecretBox, groupId: number, key: string): GroupVariableRow[] {
  return opened(
    secrets,
    cachedStatement(
      db,
      'SELECT * FROM ci_group_variables WHERE group_id = ? AND key = ? ORDER BY environment_scope',
    ).all(groupId, key),
  )
}

/**
 * The variables of every group above a project, the top-level group's first and the project's own
 * namespace's last, so that a later one (a nearer group) replaces an earlier one of the same key.
 */
export function inheritedGroupVariables(db: Db, secrets: SecretBox, projectId: number): GroupVariableRow[] {
  return opened(
    secrets,
    cachedStatement(
      db,
      `WITH RECURSIVE chain(id, depth) AS (
         SELECT namespace_id, 0 FROM projects WHERE id = ?
         UNION SELECT n.parent_id, c.depth + 1 FROM namespaces n JOIN chain c ON n.id = c.id WHERE n.parent_id IS NOT NULL
       )
       SELECT v.* FROM ci_group_variables v JOIN chain c ON c.id = v.group_id
       ORDER BY c.depth DESC, v.key, v.environment_scope`,
    ).all(projectId),
  )
}

/** The stored columns of a variable's fields from `encrypted_value` to `description`, the value sealed. */
function storedValues(secrets: SecretBox, v: VariableFields): unknown[] {
  return [
    secrets.seal(v.value),
    v.variableType,
    Number(v.protected),
    Number(v.masked),
    Number(v.raw),
    v.environmentScope,
    v.description,
  ]
}

export function insertGroupVariable(
  db: Db,
  secrets: SecretBox,
  groupId: number,
  v: VariableFields,
  now: string,
): GroupVariableRow {
  const row = db
    .prepare(
      `INSERT INTO ci_group_variables (group_id, key, encrypted_value, variable_type, protected, masked, raw,
         environment_scope, description, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    )
    .get(groupId, v.key, ...storedValues(secrets, v), now, now)
  return opened(secrets, [row])[0]
}

export function updateGroupVariable(
  db: Db,
  secrets: SecretBox,
  id: number,
  v: VariableFields,
  now: string,
): GroupVariableRow {
  const row = db
    .prepare(
      `UPDATE ci_group_variables SET encrypted_value = ?, variable_type = ?, protected = ?, masked = ?, raw = ?,
         environment_scope = ?, description = ?, updated_at = ?
       WHERE id = ? RETURNING *`,
    )
    .get(...storedValues(secrets, v), now, id)
  return opened(secrets, [row])[0]
}

export function deleteGroupVariable(db: Db, id: number): void {
  db.prepare('DELETE FROM ci_group_variables WHERE id = ?').run(id)
}
