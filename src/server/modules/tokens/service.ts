import { randomBytes } from 'node:crypto'
import type { TokenScope } from '../../platform/auth/actor'
import type { Caller } from '../../platform/caller'
import { digestToken, generateToken, hashPassword, randomPassword } from '../../platform/auth/secrets'
import type { PersonalAccessTokenRow, UserRow } from '../../platform/db/rows'
import { insertPersonalToken, revokePersonalToken } from './queries'
import { deleteUser, insertUser } from '../users'
import { insertMember, type MemberSource } from '../members'
import { recordAudit } from '../audit-events'
import { checkLengths, TEXT_LIMITS } from '../../platform/text/limits'

export interface NewTokenRequest {
  readonly name: string
  readonly description?: string | null
  readonly scopes: readonly TokenScope[]
  readonly expiresAt: string
  readonly impersonation?: boolean
}

/** A stored token and its secret value, which is returned once and never stored. */
export interface IssuedToken {
  readonly row: PersonalAccessTokenRow
  readonly value: string
}

/** What a token change is audited under: its owner, or the project or group of a resource access token. */
export interface TokenAuditEntity {
  readonly type: 'User' | 'Project' | 'Group'
  readonly id: number
  readonly path: string
}

function auditToken(caller: Caller, entity: TokenAuditEntity, token: PersonalAccessTokenRow, message: string): void {
  recordAudit(caller, {
    entityType: entity.type,
    entityId: entity.id,
    entityPath: entity.path,
    targetId: token.id,
    targetType: 'PersonalAccessToken',
    targetDetails: token.name,
    change: { custom_message: message },
  })
}

/** Issues a personal (or impersonation) access token to `user` and audits it; 400 for a name or description over 255 characters. */
export function issueToken(caller: Caller, user: UserRow, t: NewTokenRequest): IssuedToken {
  checkLengths(t, TEXT_LIMITS.token)
  const value = generateToken()
  const row = insertPersonalToken(caller.db, {
    userId: user.id,
    name: t.name,
    description: t.description ?? null,
    digest: digestToken(value),
    scopes: t.scopes,
    expiresAt: t.expiresAt,
    impersonation: t.impersonation,
  })
  const kind = t.impersonation ? 'impersonation token' : 'personal access token'
  auditToken(caller, { type: 'User', id: user.id, path: user.username }, row, `Created ${kind} with id ${row.id}`)
  return { row, value }
}

/** Revokes a token and audits it under its owner (or the project, for project tokens). */
export function revokeToken(caller: Caller, token: PersonalAccessTokenRow, entity: TokenAuditEntity): void {
  revokePersonalToken(caller.db, token.id)
  auditToken(caller, entity, token, `Revoked access token with id ${token.id}`)
}

/**
 * Rotates a token as GitLab does: the old one is revoked and a new one with the same name,
 * scopes and owner is issued, expiring in a week unless `expiresAt` says otherwise.
 */
export function rotateToken(
  caller: Caller,
  token: PersonalAccessTokenRow,
  expiresAt: string,
  entity: TokenAuditEntity,
): IssuedToken {
  const value = generateToken()
  const { db } = caller
  const row = db.transaction(() => {
    revokePersonalToken(db, token.id)
    return insertPersonalToken(db, {
      userId: token.user_id,
      name: token.name,
      description: token.description,
      digest: digestToken(value),
      scopes: JSON.parse(token.scopes) as string[],
      expiresAt,
      impersonation: token.impersonation === 1,
    })
  })()
  auditToken(caller, entity, row, `Rotated access token with id ${token.id} into id ${row.id}`)
  return { row, value }
}

/** GitLab's name of a resource access token's kind, for audit messages and its bot's username. */
function resourceKind(resource: MemberSource): 'project' | 'group' {
  return resource.project ? 'project' : 'group'
}

/** The audit entity of a resource access token: its project or group. */
export function resourceAuditEntity(resource: MemberSource): TokenAuditEntity {
  return { type: resource.project ? 'Project' : 'Group', id: resource.ref.id, path: resource.fullPath }
}

/**
 * Creates a project or group access token: a `project_bot` user named after the token (GitLab
 * makes group bots `project_bot` users too), member of the project or group at `accessLevel`,
 * holding the token.
 */
export function issueResourceToken(
  caller: Caller,
  resource: MemberSource,
  t: NewTokenRequest,
  accessLevel: number,
): IssuedToken {
  checkLengths(t, TEXT_LIMITS.token)
  const suffix = randomBytes(16).toString('hex')
  const kind = resourceKind(resource)
  const username = `${kind}_${resource.ref.id}_bot_${suffix}`
  const { db } = caller
  const host = new URL(caller.baseUrl).hostname || 'burrow.local'
  const issued = db.transaction(() => {
    const bot = insertUser(db, {
      username,
      name: t.name,
      email: `${username}@noreply.${host}`,
      password_hash: hashPassword(randomPassword()),
      user_type: 'project_bot',
      projects_limit: 0,
      can_create_group: false,
    })
    insertMember(db, {
      source: resource.ref,
      userId: bot.id,
      accessLevel,
      expiresAt: t.expiresAt,
      createdById: caller.user?.id ?? null,
    })
    const value = generateToken()
    const row = insertPersonalToken(db, {
      userId: bot.id,
      name: t.name,
      description: t.description ?? null,
      digest: digestToken(value),
      scopes: t.scopes,
      expiresAt: t.expiresAt,
    })
    return { row, value }
  })()
  auditToken(caller, resourceAuditEntity(resource), issued.row, `Created ${kind} access token with id ${issued.row.id}`)
  return issued
}

/**
 * Revokes a project or group access token and removes its bot user, whose contributions go to
 * the ghost user (GitLab deletes the bot when its token is revoked).
 */
export function revokeResourceToken(caller: Caller, resource: MemberSource, token: PersonalAccessTokenRow): void {
  revokeToken(caller, token, resourceAuditEntity(resource))
  deleteUser(caller.db, token.user_id, false)
}
