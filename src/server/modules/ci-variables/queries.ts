import type { SecretBox } from '../../platform/auth/encryption'
import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'

/** A row of `ci_variables`: a project CI/CD variable, its value opened (stored sealed as `encrypted_value`). */
export interface CiVariableRow {
  readonly id: number
  readonly project_id: number
  readonly key: string
  readonly value: string
  readonly variable_type: 'env_var' | 'file'
  readonly protected: number
  readonly masked: number
  readonly raw: number
  readonly environment_scope: string
  readonly description: string | null
  readonly created_at: string
  readonly updated_at: string
}

type StoredVariable = Omit<CiVariableRow, 'value'> & { readonly encrypted_value: string }

function opened(secrets: SecretBox, rows: unknown[]): CiVariableRow[] {
  return (rows as StoredVariable[]).map(({ encrypted_value: sealed, ...row }) => ({
    ...row,
    value: secrets.open(sealed),
  }))
}

export function projectVariables(db: Db, secrets: SecretBox, projectId: number): CiVariableRow[] {
  return opened(
    secrets,
    db.prepare('SELECT * FROM ci_variables WHERE project_id = ? ORDER BY key, environment_scope').all(projectId),
  )
}

/** Variables with this key (one per environment scope). */
export function findVariables(db: Db, secrets: SecretBox, projectId: number, key: string): CiVariableRow[] {
  return opened(
    secrets,
    db
      .prepare('SELECT * FROM ci_variables WHERE project_id = ? AND key = ? ORDER BY environment_scope')
      .all(projectId, key),
  )
}

function findVariable(db: Db, secrets: SecretBox, id: number): CiVariableRow {
  return opened(secrets, [db.prepare('SELECT * FROM ci_variables WHERE id = ?').get(id)])[0]
}

export interface VariableFields {
  readonly key: string
  readonly value: string
  readonly variableType: 'env_var' | 'file'
  readonly protected: boolean
  readonly masked: boolean
  readonly raw: boolean
  readonly environmentScope: string
  readonly description: string | null
}

export function insertVariable(db: Db, secrets: SecretBox, projectId: number, v: VariableFields): CiVariableRow {
  const now = nowIso()
  const info = db
    .prepare(
      `INSERT INTO ci_variables (project_id, key, encrypted_value, variable_type, protected, masked, raw, environment_scope, description, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      projectId,
      v.key,
      secrets.seal(v.value),
      v.variableType,
      Number(v.protected),
      Number(v.masked),
      Number(v.raw),
      v.environmentScope,
      v.description,
      now,
      now,
    )
  return findVariable(db, secrets, Number(info.lastInsertRowid))
}

export function updateVariable(db: Db, secrets: SecretBox, id: number, v: VariableFields): CiVariableRow {
  db.prepare(
    `UPDATE ci_variables SET key = ?, encrypted_value = ?, variable_type = ?, protected = ?, masked = ?, raw = ?, environment_scope = ?, description = ?, updated_at = ?
     WHERE id = ?`,
  ).run(
    v.key,
    secrets.seal(v.value),
    v.variableType,
    Number(v.protected),
    Number(v.masked),
    Number(v.raw),
    v.environmentScope,
    v.description,
    nowIso(),
    id,
  )
  return findVariable(db, secrets, id)
}

export function deleteVariable(db: Db, id: number): void {
  db.prepare('DELETE FROM ci_variables WHERE id = ?').run(id)
}
