import type { Caller } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'
import { conflict, notFound, validationFailed } from '../../platform/http/errors'
import { TEXT_LIMITS, tooLong } from '../../platform/text/limits'
import { recordProjectChange } from '../projects'
import {
  deleteVariable,
  findVariables,
  insertVariable,
  updateVariable,
  type CiVariableRow,
  type VariableFields,
} from './queries'

/**
 * GitLab's rules for a CI/CD variable (a project's or a group's): key of letters, digits and `_`;
 * a masked value of at least 8 characters, no spaces. 400 with the fields' errors otherwise.
 */
export function checkVariable(v: VariableFields): void {
  const errors: Record<string, string[]> = {}
  if (!/^[a-zA-Z0-9_]+$/.test(v.key)) errors.key = ["can contain only letters, digits and '_'."]
  else if (v.key.length > TEXT_LIMITS.name.name) errors.key = [tooLong(TEXT_LIMITS.name.name)]
  if (v.masked && !/^[A-Za-z0-9+/=@:.~-]{8,}$/.test(v.value)) errors.value = ['is invalid']
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
}

/** 400 when another variable of the project already has this key and scope. */
function checkUnique(caller: Caller, project: ProjectRow, v: VariableFields): void {
  const taken = findVariables(caller.db, caller.ctx.secrets, project.id, v.key).some(
    (other) => other.environment_scope === v.environmentScope,
  )
  if (taken) throw validationFailed({ key: [`(${v.key}) has already been taken`] })
}

function audit(caller: Caller, project: ProjectRow, v: CiVariableRow, message: string): void {
  recordProjectChange(caller, project, {
    targetType: 'Ci::Variable',
    targetId: v.id,
    targetTitle: v.key,
    audit: { custom_message: message },
  })
}

/** The one variable with this key (and scope): 404 when none, 409 when several scopes share the key. */
export function loadVariable(
  caller: Caller,
  project: ProjectRow,
  key: string,
  scope: string | undefined,
): CiVariableRow {
  const rows = findVariables(caller.db, caller.ctx.secrets, project.id, key).filter(
    (v) => scope === undefined || v.environment_scope === scope,
  )
  if (rows.length === 0) throw notFound('Variable')
  if (rows.length > 1)
    throw conflict("There are multiple variables with provided parameters. Please use 'filter[environment_scope]'")
  return rows[0]
}

/** Adds a project variable (validated, unique per key and scope) and records it. */
export function createVariable(caller: Caller, project: ProjectRow, fields: VariableFields): CiVariableRow {
  checkVariable(fields)
  checkUnique(caller, project, fields)
  const row = insertVariable(caller.db, caller.ctx.secrets, project.id, fields)
  audit(caller, project, row, `Added ci variable ${row.key}`)
  return row
}

/** Changes a project variable to `fields` (validated; a new scope must be free) and records it. */
export function changeVariable(
  caller: Caller,
  project: ProjectRow,
  current: CiVariableRow,
  fields: VariableFields,
): CiVariableRow {
  checkVariable(fields)
  if (fields.environmentScope !== current.environment_scope) checkUnique(caller, project, fields)
  const row = updateVariable(caller.db, caller.ctx.secrets, current.id, fields)
  audit(caller, project, row, `Changed ci variable ${row.key}`)
  return row
}

/** Removes a project variable and records it. */
export function removeVariable(caller: Caller, project: ProjectRow, row: CiVariableRow): void {
  deleteVariable(caller.db, row.id)
  audit(caller, project, row, `Removed ci variable ${row.key}`)
}
