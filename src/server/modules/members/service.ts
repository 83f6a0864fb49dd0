import { signedInUser, type Caller } from '../../platform/caller'
import { AccessLevel, accessLevelName, MEMBER_ACCESS_LEVELS } from '../../platform/auth/access'
import type { Db } from '../../platform/db/connection'
import {
  deleteAccessRequest,
  deleteExpiredMembers,
  deleteMember,
  deleteMemberships,
  findDirectMember,
  findAccessRequest,
  hierarchyIds,
  insertMember,
  ownerCountWithAncestors,
  updateMember,
  type SourceRef,
} from './queries'
import type { MemberRow, NamespaceRow, ProjectRow, UserRow } from '../../platform/db/rows'
import { findNamespaceById, findProjectById } from '../namespaces'
import { findUserById } from '../users'
import { forbidden, invalidParam, validationFailed } from '../../platform/http/errors'
import { recordAudit, type AuditChange } from '../audit-events'
import { recordEvent } from '../events'

/** `groups` or `projects`: the URL family a member route lives under. */
export type SourceKind = 'groups' | 'projects'

/** A group or project resolved from `:id` for a member route. */
export interface MemberSource {
  readonly ref: SourceRef
  readonly kind: SourceKind
  readonly fullPath: string
  readonly project: ProjectRow | null
  readonly group: NamespaceRow | null
}

/** The member source of a project. */
export function projectSource(db: Db, project: ProjectRow): MemberSource {
  const ns = findNamespaceById(db, project.namespace_id)
  return {
    ref: { type: 'Project', id: project.id, namespaceId: project.namespace_id },
    kind: 'projects',
    fullPath: `${ns?.full_path ?? ''}/${project.path}`,
    project,
    group: null,
  }
}

/** The member source of a group. */
export function groupSource(group: NamespaceRow): MemberSource {
  return {
    ref: { type: 'Namespace', id: group.id, namespaceId: group.id },
    kind: 'groups',
    fullPath: group.full_path,
    project: null,
    group,
  }
}

/** The source of a stored membership row (for operations spanning a hierarchy). */
export function sourceOfRow(caller: Caller, row: Pick<MemberRow, 'source_type' | 'source_id'>): MemberSource {
  const { db } = caller
  if (row.source_type === 'Project') return projectSource(db, findProjectById(db, row.source_id) as ProjectRow)
  return groupSource(findNamespaceById(db, row.source_id) as NamespaceRow)
}

/** The caller's effective level in the source; administrators count as owners. */
export function callerLevel(caller: Caller, source: MemberSource): number {
  if (caller.perms.isAdmin) return AccessLevel.OWNER
  return source.project ? caller.perms.projectAccess(source.project) : caller.perms.groupAccess(source.ref.id)
}

/**
 * GitLab's admin_project_member / admin_group_member: Maintainers manage project members,
 * only Owners manage group members.
 */
export function canManageMembers(caller: Caller, source: MemberSource): boolean {
  const needed = source.project ? AccessLevel.MAINTAINER : AccessLevel.OWNER
  return callerLevel(caller, source) >= needed
}

/** 401 for anonymous callers, 403 for callers who may not manage the source's members. */
export function requireManageMembers(caller: Caller, source: MemberSource): UserRow {
  const user = signedInUser(caller)
  if (!canManageMembers(caller, source)) throw forbidden()
  return user
}

/** Rejects levels outside 5–50 the way GitLab's model validation does. */
export function validateAccessLevel(level: number): void {
  if (!MEMBER_ACCESS_LEVELS.includes(level)) throw validationFailed({ access_level: ['is not included in the list'] })
}

/**
 * The role rule for granting `level` (and, on updates, for touching a member now at `current`):
 * nobody grants more than they hold, and only Owners grant or change Owners.
 */
export function assertCanAssign(caller: Caller, source: MemberSource, level: number, current?: number): void {
  requireManageMembers(caller, source)
  if (caller.perms.isAdmin) return
  const mine = callerLevel(caller, source)
  if (level > mine) throw forbidden()
  if ((level === AccessLevel.OWNER || current === AccessLevel.OWNER) && mine < AccessLevel.OWNER) throw forbidden()
}

/**
 * Parses `expires_at` (a date or a date-time; empty clears it). Returns undefined when absent.
 * Past dates are refused as GitLab's member validation does.
 */
export function parseExpiresAt(value: unknown): string | null | undefined {
  if (value === undefined) return undefined
  if (value === null || value === '') return null
  if (typeof value !== 'string') throw invalidParam('expires_at')
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(value)
  if (!m || Number.isNaN(Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value)))
    throw invalidParam('expires_at')
  const date = `${m[1]}-${m[2]}-${m[3]}`
  const check = new Date(`${date}T00:00:00Z`)
  if (check.toISOString().slice(0, 10) !== date) throw invalidParam('expires_at')
  if (date < new Date().toISOString().slice(0, 10))
    throw validationFailed({ expires_at: ['cannot be a date in the past'] })
  return date
}

function entityType(source: MemberSource): 'Group' | 'Project' {
  return source.project ? 'Project' : 'Group'
}

/** True when removing or demoting this owner would leave the group (and its ancestors) without one. */
export function isLastOwner(caller: Caller, source: MemberSource, member: Pick<MemberRow, 'access_level'>): boolean {
  if (source.project || member.access_level !== AccessLevel.OWNER) return false
  return ownerCountWithAncestors(caller.db, source.ref.id) <= 1
}

/** Audits a change to the user's membership of the group or project. */
function auditMembership(caller: Caller, source: MemberSource, user: UserRow, change: AuditChange): void {
  recordAudit(caller, {
    entityType: entityType(source),
    entityId: source.ref.id,
    entityPath: source.fullPath,
    targetId: user.id,
    targetType: 'User',
    targetDetails: user.name,
    change,
  })
}

/** Records the membership side effects shared by add and approve: 'joined' event and audit. */
function afterJoin(caller: Caller, source: MemberSource, user: UserRow, member: MemberRow): void {
  const db = caller.db
  if (source.project) recordEvent(db, { authorId: user.id, action: 'joined', projectId: source.project.id })
  auditMembership(caller, source, user, {
    add: 'user_access',
    as: accessLevelName(member.access_level),
    expiry_to: member.expires_at,
    member_id: member.id,
  })
}

/**
 * Adds a direct member (the caller's rights are checked by the route). A pending access request
 * of the same user is consumed, as GitLab turns the requester into the member.
 */
export function addMember(
  caller: Caller,
  source: MemberSource,
  user: UserRow,
  level: number,
  expiresAt: string | null,
): MemberRow {
  const db = caller.db
  return db.transaction(() => {
    deleteAccessRequest(db, source.ref, user.id)
    const member = insertMember(db, {
      source: source.ref,
      userId: user.id,
      accessLevel: level,
      expiresAt,
      createdById: caller.user?.id ?? null,
    })
    afterJoin(caller, source, user, member)
    return member
  })()
}

/** Changes a member's level/expiry and audits the change. */
export function changeMember(
  caller: Caller,
  source: MemberSource,
  member: MemberRow,
  user: UserRow,
  level: number,
  expiresAt: string | null | undefined,
): MemberRow {
  const db = caller.db
  return db.transaction(() => {
    const updated = updateMember(db, member.id, level, expiresAt)
    if (member.access_level !== level) {
      auditMembership(caller, source, user, {
        change: 'access_level',
        from: accessLevelName(member.access_level),
        to: accessLevelName(level),
        member_id: member.id,
      })
    }
    if (expiresAt !== undefined && expiresAt !== member.expires_at) {
      auditMembership(caller, source, user, {
        change: 'expires_at',
        from: member.expires_at ?? 'never expires',
        to: expiresAt ?? 'never expires',
        member_id: member.id,
      })
    }
    return updated
  })()
}

/**
 * Removes a direct membership; for a group, also the user's direct memberships in its subgroups
 * and projects unless `skipSubresources`. Project memberships leave a 'left' event each.
 */
export function removeMember(
  caller: Caller,
  source: MemberSource,
  member: MemberRow,
  user: UserRow,
  skipSubresources: boolean,
): void {
  const db = caller.db
  db.transaction(() => {
    deleteMember(db, member.id)
    if (source.project) recordEvent(db, { authorId: user.id, action: 'left', projectId: source.project.id })
    if (!source.project && !skipSubresources) {
      const { groupIds, projectIds } = hierarchyIds(db, source.ref.id)
      const below = groupIds.filter((id) => id !== source.ref.id)
      deleteMemberships(db, user.id, 'Namespace', below)
      for (const projectId of deleteMemberships(db, user.id, 'Project', projectIds))
        recordEvent(db, { authorId: user.id, action: 'left', projectId })
    }
    auditMembership(caller, source, user, { remove: 'user_access', member_id: member.id })
  })()
}

/** Turns a pending access request into a membership at `level`. */
export function approveAccessRequest(caller: Caller, source: MemberSource, user: UserRow, level: number): MemberRow {
  return addMember(caller, source, user, level, null)
}

/** Withdraws or denies a pending access request. Returns false when there was none. */
export function dropAccessRequest(caller: Caller, source: MemberSource, userId: number): boolean {
  const db = caller.db
  if (!findAccessRequest(db, source.ref, userId)) return false
  deleteAccessRequest(db, source.ref, userId)
  return true
}

/**
 * Prunes memberships whose expiry date has passed, recording an 'expired' event for each project
 * membership (GitLab's daily expiry worker). Returns how many were removed.
 */
export function pruneExpiredMembers(db: Db): number {
  return db.transaction(() => {
    const gone = deleteExpiredMembers(db)
    for (const m of gone)
      if (m.source_type === 'Project')
        recordEvent(db, { authorId: m.user_id, action: 'expired', projectId: m.source_id })
    return gone.length
  })()
}

/** POST with comma-separated user ids: adds each, collecting errors as GitLab's CreateService. */
export function addSeveralMembers(
  caller: Caller,
  source: MemberSource,
  ids: readonly string[],
  level: number,
  rawExpiresAt: unknown,
): { readonly status: 'success' } | { readonly status: 'error'; readonly message: Readonly<Record<string, string>> } {
  const { db } = caller
  const errors: Record<string, string> = {}
  validateAccessLevel(level)
  assertCanAssign(caller, source, level)
  const expiresAt = parseExpiresAt(rawExpiresAt) ?? null
  for (const id of ids) {
    const user = /^\d+$/.test(id) ? findUserById(db, Number(id)) : undefined
    if (!user) {
      errors[id] = 'User not found'
      continue
    }
    if (findDirectMember(db, source.ref, user.id)) {
      errors[user.username] = 'Member already exists'
      continue
    }
    addMember(caller, source, user, level, expiresAt)
  }
  return Object.keys(errors).length === 0 ? { status: 'success' } : { status: 'error', message: errors }
}
