import type { Caller } from '../../platform/caller'
import type { NamespaceRow } from '../../platform/db/rows'
import { conflict, forbidden, notFound, validationFailed } from '../../platform/http/errors'
import { checkVariable, type VariableFields } from '../ci-variables'
import { canAdminGroupVariables } from './policy'
import {
  deleteGroupVariable,
  findGroupVariables,
  groupVariables,
  insertGroupVariable,
  updateGroupVariable,
  type GroupVariableRow,
} from './queries'

/** Refuses anyone but an Owner of the group (403). */
function assertMayAdmin(caller: Caller, group: NamespaceRow): void {
  if (!canAdminGroupVariables(caller.perms, group.id)) throw forbidden()
}

/** 400 when another variable of the group already has this key and scope. */
function checkUnique(caller: Caller, group: NamespaceRow, v: VariableFields): void {
  const taken = findGroupVariables(caller.db, caller.ctx.secrets, group.id, v.key).some(
    (other) => other.environment_scope === v.environmentScope,
  )
  if (taken) throw validationFailed({ key: [`(${v.key}) has already been taken`] })
}

/** A group's variables, for its Owners. */
export function listGroupVariables(caller: Caller, group: NamespaceRow): GroupVariableRow[] {
  assertMayAdmin(caller, group)
  return groupVariables(caller.db, caller.ctx.secrets, group.id)
}

/** The one variable with this key (and scope): 404 when none, 409 when several scopes share the key. */
export function loadGroupVariable(
  caller: Caller,
  group: NamespaceRow,
  key: string,
  scope: string | undefined,
): GroupVariableRow {
  assertMayAdmin(caller, group)
  const rows = findGroupVariables(caller.db, caller.ctx.secrets, group.id, key).filter(
    (v) => scope === undefined || v.environment_scope === scope,
  )
  if (rows.length === 0) throw notFound('Variable')
  if (rows.length > 1)
    throw conflict("There are multiple variables with provided parameters. Please use 'filter[environment_scope]'")
  return rows[0]
}

/** Adds a group variable (validated as project variables are, unique per key and scope). */
export function createGroupVariable(caller: Caller, group: NamespaceRow, fields: VariableFields): GroupVariableRow {
  assertMayAdmin(caller, group)
  checkVariable(fields)
  checkUnique(caller, group, fields)
  return insertGroupVariable(caller.db, caller.ctx.secrets, group.id, fields, caller.clock().toISOString())
}

/** Changes a group variable to `fields` (validated; a new scope must be free). */
export function changeGroupVariable(
  caller: Caller,
  group: NamespaceRow,
  current: GroupVariableRow,
  fields: VariableFields,
): GroupVariableRow {
  assertMayAdmin(caller, group)
  checkVariable(fields)
  if (fields.environmentScope !== current.environment_scope) checkUnique(caller, group, fields)
  return updateGroupVariable(caller.db, caller.ctx.secrets, current.id, fields, caller.clock().toISOString())
}

/** Removes a group variable. */
export function removeGroupVariable(caller: Caller, group: NamespaceRow, row: GroupVariableRow): void {
  assertMayAdmin(caller, group)
  deleteGroupVariable(caller.db, row.id)
}
