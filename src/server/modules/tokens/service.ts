import { callerOf } from '../../platform/caller'
import { randomBytes } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import type { ServerContext } from '../../platform/context'
import { TOKEN_SCOPES, type TokenScope } from '../../platform/auth/actor'
import { digestToken, generateToken, hashPassword, randomPassword } from '../../platform/auth/secrets'
import { nowIso } from '../../platform/db/connection'
import type { PersonalAccessTokenRow, ProjectRow, UserRow } from '../../platform/db/rows'
import { findPersonalTokenById, insertPersonalToken, revokePersonalToken } from './queries'
import { deleteUser, insertUser } from '../users'
import { missingParam, invalidParam, validationFailed } from '../../platform/http/errors'
import { recordAudit } from '../audit-events'
import { checkLengths, TEXT_LIMITS } from '../../platform/text/limits'
import { listOf } from '../../platform/http/loose-params'

/** Tokens created without an expiry date get GitLab's default lifetime. */
export const DEFAULT_TOKEN_LIFETIME_DAYS = 365
/** Rotated tokens live a week unless the caller says otherwise, as in GitLab. */
export const ROTATED_TOKEN_LIFETIME_DAYS = 7

function daysFromNow(days: number): string {
  const d = new Date()
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/**
 * `scopes` as GitLab accepts it (an array, or a comma-separated string), validated against the
 * known scopes: 400 `scopes is missing` / `scopes does not have a valid value`.
 */
export function parseScopes(raw: unknown): TokenScope[] {
  if (raw === undefined || raw === null) throw missingParam('scopes')
  const list = listOf('scopes', raw)
  if (list.length === 0) throw missingParam('scopes')
  if (!list.every((s) => TOKEN_SCOPES.includes(s as TokenScope)))
    throw invalidParam('scopes', 'does not have a valid value')
  return [...new Set(list)] as TokenScope[]
}

/** GitLab's PersonalAccessToken validation error for scopes its owner cannot hold (`Scopes …`). */
export const UNAVAILABLE_SCOPES = 'can only contain available scopes'

/** `expires_at` as `YYYY-MM-DD`; absent means the default lifetime; past dates are refused. */
export function parseExpiresAt(raw: unknown, defaultDays: number): string {
  if (raw === undefined || raw === null || raw === '') return daysFromNow(defaultDays)
  const text = String(raw)
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(Date.parse(text.slice(0, 10)))) throw invalidParam('expires_at')
  const date = text.slice(0, 10)
  if (date <= new Date().toISOString().slice(0, 10)) throw validationFailed({ expires_at: ['must be in the future'] })
  if (date > daysFromNow(400)) throw validationFailed({ expires_at: ['must expire in 400 days'] })
  return date
}

/** `name` of a new token: 400 `name is missing` when absent or blank. */
export function parseTokenName(raw: unknown): string {
  if (raw === undefined || raw === null || String(raw).trim() === '') throw missingParam('name')
  return String(raw)
}

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

function auditToken(
  request: FastifyRequest,
  ctx: ServerContext,
  entity: { type: 'User' | 'Project'; id: number; path: string },
  token: PersonalAccessTokenRow,
  message: string,
): void {
  recordAudit(callerOf(request), {
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
export function issueToken(
  ctx: ServerContext,
  request: FastifyRequest,
  user: UserRow,
  t: NewTokenRequest,
): IssuedToken {
  checkLengths(t, TEXT_LIMITS.token)
  const value = generateToken()
  const row = insertPersonalToken(ctx.db, {
    userId: user.id,
    name: t.name,
    description: t.description ?? null,
    digest: digestToken(value),
    scopes: t.scopes,
    expiresAt: t.expiresAt,
    impersonation: t.impersonation,
  })
  const kind = t.impersonation ? 'impersonation token' : 'personal access token'
  auditToken(request, ctx, { type: 'User', id: user.id, path: user.username }, row, `Created ${kind} with id ${row.id}`)
  return { row, value }
}

/** Revokes a token and audits it under its owner (or the project, for project tokens). */
export function revokeToken(
  ctx: ServerContext,
  request: FastifyRequest,
  token: PersonalAccessTokenRow,
  entity: { type: 'User' | 'Project'; id: number; path: string },
): void {
  revokePersonalToken(ctx.db, token.id)
  auditToken(request, ctx, entity, token, `Revoked access token with id ${token.id}`)
}

/**
 * Rotates a token as GitLab does: the old one is revoked and a new one with the same name,
 * scopes and owner is issued, expiring in a week unless `expiresAt` says otherwise.
 */
export function rotateToken(
  ctx: ServerContext,
  request: FastifyRequest,
  token: PersonalAccessTokenRow,
  expiresAt: string,
  entity: { type: 'User' | 'Project'; id: number; path: string },
): IssuedToken {
  const value = generateToken()
  const row = ctx.db.transaction(() => {
    revokePersonalToken(ctx.db, token.id)
    return insertPersonalToken(ctx.db, {
      userId: token.user_id,
      name: token.name,
      description: token.description,
      digest: digestToken(value),
      scopes: JSON.parse(token.scopes) as string[],
      expiresAt,
      impersonation: token.impersonation === 1,
    })
  })()
  auditToken(request, ctx, entity, row, `Rotated access token with id ${token.id} into id ${row.id}`)
  return { row, value }
}

/** The rotated token's expiry: the given date, or a week from now. */
export function rotationExpiry(raw: unknown): string {
  return parseExpiresAt(raw, ROTATED_TOKEN_LIFETIME_DAYS)
}

/**
 * Creates a project access token: a `project_bot` user named after the token, member of the
 * project at `accessLevel`, holding the token.
 */
export function issueProjectToken(
  ctx: ServerContext,
  request: FastifyRequest,
  project: ProjectRow,
  projectPath: string,
  t: NewTokenRequest,
  accessLevel: number,
): IssuedToken {
  checkLengths(t, TEXT_LIMITS.token)
  const suffix = randomBytes(16).toString('hex')
  const username = `project_${project.id}_bot_${suffix}`
  const host = new URL(ctx.baseUrl(request)).hostname || 'burrow.local'
  const issued = ctx.db.transaction(() => {
    const bot = insertUser(ctx.db, {
      username,
      name: t.name,
      email: `${username}@noreply.${host}`,
      password_hash: hashPassword(randomPassword()),
      user_type: 'project_bot',
      projects_limit: 0,
      can_create_group: false,
    })
    const now = nowIso()
    ctx.db
      .prepare(
        `INSERT INTO members (source_type, source_id, user_id, access_level, expires_at, created_by_id, created_at, updated_at)
         VALUES ('Project', ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(project.id, bot.id, accessLevel, t.expiresAt, request.actor.user?.id ?? null, now, now)
    const value = generateToken()
    const row = insertPersonalToken(ctx.db, {
      userId: bot.id,
      name: t.name,
      description: t.description ?? null,
      digest: digestToken(value),
      scopes: t.scopes,
      expiresAt: t.expiresAt,
    })
    return { row, value }
  })()
  auditToken(
    request,
    ctx,
    { type: 'Project', id: project.id, path: projectPath },
    issued.row,
    `Created project access token with id ${issued.row.id}`,
  )
  return issued
}

/**
 * Revokes a project access token and removes its bot user, whose contributions go to the ghost
 * user (GitLab deletes the bot when its token is revoked).
 */
export function revokeProjectToken(
  ctx: ServerContext,
  request: FastifyRequest,
  project: ProjectRow,
  projectPath: string,
  token: PersonalAccessTokenRow,
): void {
  const entity = { type: 'Project' as const, id: project.id, path: projectPath }
  revokeToken(ctx, request, token, entity)
  deleteUser(ctx.db, token.user_id, false)
}

/** Re-reads a token row (after a change). */
export function reloadToken(ctx: ServerContext, id: number): PersonalAccessTokenRow {
  return findPersonalTokenById(ctx.db, id) as PersonalAccessTokenRow
}
