import { AccessLevel } from '../../platform/auth/access'
import type { Caller } from '../../platform/caller'
import type { Db } from '../../platform/db/connection'
import {
  deleteGroupShare,
  groupShareExists,
  insertGroupShare,
  childGroups,
  deleteGroupTree,
  findSiblingByName,
  findSiblingByPath,
  insertGroup,
  updateGroupRow,
} from './queries'
import {
  GROUP_SETTING_DEFAULTS,
  groupAndDescendantIds,
  namespaceAncestors,
  pathError,
  VISIBILITY_LEVELS,
} from '../namespaces'
import { projectsInNamespaces } from '../projects'
import { insertMember } from '../members'
import type { NamespaceRow, UserRow, Visibility } from '../../platform/db/rows'
import { apiMessage, conflict, notFound, validationFailed } from '../../platform/http/errors'
import { recordAudit } from '../audit-events'
import { addLengthErrors, TEXT_LIMITS } from '../../platform/text/limits'

const GROUP_NAME = /^[\p{L}\p{N}\p{Extended_Pictographic}_][\p{L}\p{N}\p{Pd}\p{Extended_Pictographic}_.() ]*$/u
const GROUP_NAME_MESSAGE =
  "can contain only letters, digits, emoji, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'."

/** Enumerated group settings and their allowed values. */
export const GROUP_SETTING_ENUMS: Readonly<Record<string, readonly string[]>> = {
  project_creation_level: ['noone', 'owner', 'maintainer', 'developer', 'administrator'],
  subgroup_creation_level: ['owner', 'maintainer'],
  shared_runners_setting: [
    'enabled',
    'disabled_and_overridable',
    'disabled_and_unoverridable',
    'disabled_with_override',
  ],
  wiki_access_level: ['disabled', 'private', 'enabled'],
}

/** The settings-JSON changes a group request asks for. */
export function groupSettingsFromParams(params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(GROUP_SETTING_DEFAULTS)) if (params[key] !== undefined) out[key] = params[key]
  if (typeof params.emails_disabled === 'boolean' && params.emails_enabled === undefined)
    out.emails_enabled = !params.emails_disabled
  return out
}

/** The first enumerated group setting with a value outside its list, or null. */
export function groupSettingsEnumError(params: Readonly<Record<string, unknown>>): string | null {
  for (const [key, allowed] of Object.entries(GROUP_SETTING_ENUMS)) {
    if (params[key] !== undefined && !allowed.includes(String(params[key]))) return key
  }
  return null
}

function nameError(name: string): string | null {
  if (name.trim() === '') return "can't be blank"
  if (!GROUP_NAME.test(name)) return GROUP_NAME_MESSAGE
  return null
}

/** Why `visibility` is not allowed for a group with this parent and these contents, or null. */
function visibilityError(db: Db, visibility: Visibility, parent: NamespaceRow | null, groupId?: number): string | null {
  const level = VISIBILITY_LEVELS[visibility]
  if (parent && level > VISIBILITY_LEVELS[parent.visibility])
    return `${visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`
  if (groupId !== undefined) {
    const tree = groupAndDescendantIds(db, groupId)
    if (projectsInNamespaces(db, tree).some((p) => VISIBILITY_LEVELS[p.visibility] > level)) {
      return `${visibility} is not allowed since this group contains projects with higher visibility.`
    }
    if (childGroups(db, groupId).some((g) => VISIBILITY_LEVELS[g.visibility] > level)) {
      return `${visibility} is not allowed since there are sub-groups with higher visibility.`
    }
  }
  return null
}

export interface CreateGroupInput {
  readonly name: string
  readonly path: string
  readonly parent: NamespaceRow | null
  readonly visibility?: Visibility
  readonly description?: string
  readonly params: Readonly<Record<string, unknown>>
}

/**
 * Creates a group after GitLab's model validations (name and path format, path unique among
 * siblings, visibility not above the parent's); the creator becomes its Owner.
 */
export function createGroup(caller: Caller, input: CreateGroupInput): NamespaceRow {
  const { db, ctx } = caller
  const { settings } = ctx
  const creator = caller.user as UserRow
  const errors: Record<string, string[]> = {}
  const badName = nameError(input.name)
  if (badName) errors.name = [badName]
  else if (input.parent && findSiblingByName(db, input.parent.id, input.name)) errors.name = ['has already been taken']
  const badPath = pathError(input.path)
  if (badPath) errors.path = [badPath]
  else if (findSiblingByPath(db, input.parent?.id ?? null, input.path)) errors.path = ['has already been taken']
  let visibility = input.visibility
  if (visibility === undefined) {
    visibility = settings.get('default_group_visibility') as Visibility
    if (input.parent && VISIBILITY_LEVELS[visibility] > VISIBILITY_LEVELS[input.parent.visibility])
      visibility = input.parent.visibility
  }
  const badVisibility = visibilityError(db, visibility, input.parent)
  if (badVisibility) errors.visibility_level = [badVisibility]
  addLengthErrors(errors, input, TEXT_LIMITS.group)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)

  return db.transaction(() => {
    const group = insertGroup(db, {
      name: input.name,
      path: input.path,
      parent: input.parent,
      visibility: visibility as Visibility,
      description: input.description ?? '',
      requestAccessEnabled: input.params.request_access_enabled !== false,
      settings: groupSettingsFromParams(input.params),
    })
    insertMember(db, {
      source: { type: 'Namespace', id: group.id, namespaceId: group.id },
      userId: creator.id,
      accessLevel: AccessLevel.OWNER,
      expiresAt: null,
      createdById: creator.id,
    })
    recordAudit(caller, {
      entityType: 'Group',
      entityId: group.id,
      entityPath: group.full_path,
      change: { add: 'group', custom_message: 'Added group' },
    })
    return group
  })()
}

/**
 * Applies `PUT /groups/:id`: validates like GitLab, then updates the group; a new path or name
 * rewrites the full paths of every descendant in the same transaction.
 */
export function updateGroup(
  caller: Caller,
  group: NamespaceRow,
  params: Readonly<Record<string, unknown>>,
): NamespaceRow {
  const { db } = caller
  const parent = namespaceAncestors(db, group.id)[0] ?? null
  const errors: Record<string, string[]> = {}
  const changes: Record<string, unknown> = {}
  const name = params.name as string | undefined
  if (name !== undefined && name !== group.name) {
    const bad = nameError(name)
    if (bad) errors.name = [bad]
    else if (parent && findSiblingByName(db, parent.id, name, group.id)) errors.name = ['has already been taken']
    else changes.name = name
  }
  const path = params.path as string | undefined
  if (path !== undefined && path !== group.path) {
    const bad = pathError(path)
    if (bad) errors.path = [bad]
    else if (findSiblingByPath(db, parent?.id ?? null, path, group.id)) errors.path = ['has already been taken']
    else changes.path = path
  }
  const visibility = params.visibility as Visibility | undefined
  if (visibility !== undefined && visibility !== group.visibility) {
    const bad = visibilityError(db, visibility, parent, group.id)
    if (bad) errors.visibility_level = [bad]
    else changes.visibility = visibility
  }
  addLengthErrors(errors, params, TEXT_LIMITS.group)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  if (params.description !== undefined) changes.description = params.description
  if (params.request_access_enabled !== undefined) changes.request_access_enabled = params.request_access_enabled
  const settingsChanges = groupSettingsFromParams(params)
  if (Object.keys(settingsChanges).length > 0)
    changes.settings = JSON.stringify({ ...(JSON.parse(group.settings) as object), ...settingsChanges })

  return db.transaction(() => {
    const updated = updateGroupRow(db, group.id, changes)
    for (const field of ['visibility', 'name', 'path'] as const) {
      if (changes[field] === undefined) continue
      recordAudit(caller, {
        entityType: 'Group',
        entityId: group.id,
        entityPath: updated.full_path,
        change: { change: field, from: group[field], to: updated[field] },
      })
    }
    return updated
  })()
}

/** Deletes a group with everything under it (immediately; GitLab schedules it) and audits it. */
export function destroyGroup(caller: Caller, group: NamespaceRow): void {
  const { db } = caller
  db.transaction(() => {
    recordAudit(caller, {
      entityType: 'Group',
      entityId: group.id,
      entityPath: group.full_path,
      change: { remove: 'group', custom_message: 'Group destroyed' },
    })
    deleteGroupTree(db, group.id)
  })()
}

/**
 * Moves a group under `target` (or to the top level when null). Returns the updated group or
 * the 400 message GitLab gives when the move is not possible.
 */
export function transferGroup(caller: Caller, group: NamespaceRow, target: NamespaceRow | null): NamespaceRow | string {
  const { db } = caller
  if (target && groupAndDescendantIds(db, group.id).includes(target.id))
    return 'Cannot transfer group to one of its subgroup.'
  if ((target?.id ?? null) === group.parent_id) return 'Group is already associated to the parent group.'
  if (findSiblingByPath(db, target?.id ?? null, group.path, group.id))
    return 'The parent group already has a subgroup or a project with the same path.'
  const visibility =
    target && VISIBILITY_LEVELS[group.visibility] > VISIBILITY_LEVELS[target.visibility]
      ? target.visibility
      : group.visibility
  const from = group.full_path
  return db.transaction(() => {
    const updated = updateGroupRow(db, group.id, { parent_id: target?.id ?? null, visibility })
    recordAudit(caller, {
      entityType: 'Group',
      entityId: group.id,
      entityPath: updated.full_path,
      change: { change: 'parent', from, to: updated.full_path },
    })
    return updated
  })()
}

/**
 * Shares a group with another group at `access` (the caller's Owner role and the other group's
 * readability are checked by the route): never with itself, once per group; audited.
 */
export function shareGroupWithGroup(
  caller: Caller,
  group: NamespaceRow,
  withGroup: NamespaceRow,
  access: number,
  expiresAt: string | null,
): void {
  const { db } = caller
  if (withGroup.id === group.id)
    throw apiMessage(400, { shared_with_group_id: ['cannot be the same as the shared group'] })
  if (groupShareExists(db, group.id, withGroup.id)) throw conflict('Group already shared with this group')
  insertGroupShare(db, group.id, withGroup.id, access, expiresAt)
  recordAudit(caller, {
    entityType: 'Group',
    entityId: group.id,
    entityPath: group.full_path,
    targetId: withGroup.id,
    targetType: 'Group',
    targetDetails: withGroup.full_path,
    change: { add: 'group_access', as: String(access) },
  })
}

/** Stops sharing a group with another (404 when it was not shared), audited. */
export function unshareGroup(caller: Caller, group: NamespaceRow, withGroupId: number): void {
  if (!deleteGroupShare(caller.db, group.id, withGroupId)) throw notFound()
  recordAudit(caller, {
    entityType: 'Group',
    entityId: group.id,
    entityPath: group.full_path,
    targetId: withGroupId,
    targetType: 'Group',
    change: { remove: 'group_access' },
  })
}
