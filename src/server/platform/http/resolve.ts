import type { FastifyRequest } from 'fastify'
import type { NamespaceRow, ProjectRow, UserRow } from '../db/rows'
import { findGroup, findProject, findUserByIdOrUsername } from '../db/platform-queries'
import { type ApiError, forbidden, notFound, unauthorized } from './errors'

/** The signed-in caller, or 401. */
export function currentUser(request: FastifyRequest): UserRow {
  const user = request.actor.user
  if (!user) throw unauthorized()
  return user
}

/** The signed-in administrator, or 401 (anonymous) / 403 (not an administrator). */
export function requireAdmin(request: FastifyRequest): UserRow {
  const user = currentUser(request)
  if (!user.is_admin) throw forbidden()
  return user
}

/** Whether the request only reads (GET or HEAD): GitLab authenticates every other method first. */
function isRead(request: FastifyRequest): boolean {
  return request.method === 'GET' || request.method === 'HEAD'
}

/**
 * 404 for a project or group the caller may not see, except that an anonymous write is 401:
 * GitLab's API authenticates writes (`authenticate_non_get!`) before it looks anything up.
 */
function hidden(request: FastifyRequest, what: 'Project' | 'Group'): ApiError {
  if (!request.actor.user && !isRead(request)) return unauthorized()
  return notFound(what)
}

/**
 * The project named by `:id` (integer or URL-encoded full path) that the caller may read.
 * A project the caller may not see is indistinguishable from a missing one: 404 (401 for an
 * anonymous write). With `minLevel`, a readable project where the caller's role is lower answers 403.
 */
export function loadProject(request: FastifyRequest, id: string | number, minLevel?: number): ProjectRow {
  const project = findProject(request.server.burrow.db, id)
  if (!project || !request.perms.canReadProject(project)) throw hidden(request, 'Project')
  if (minLevel !== undefined && !request.perms.canInProject(project, minLevel)) {
    if (!request.actor.user) throw unauthorized()
    throw forbidden()
  }
  return project
}

/** The group named by `:id` that the caller may read (404 otherwise); `minLevel` as for projects. */
export function loadGroup(request: FastifyRequest, id: string | number, minLevel?: number): NamespaceRow {
  const group = findGroup(request.server.burrow.db, id)
  if (!group || !request.perms.canReadGroup(group)) throw hidden(request, 'Group')
  if (minLevel !== undefined && !request.perms.canInGroup(group.id, minLevel)) {
    if (!request.actor.user) throw unauthorized()
    throw forbidden()
  }
  return group
}

/** The user named by `:id` (integer id or username), or 404 `User Not Found`. */
export function loadUser(request: FastifyRequest, id: string | number): UserRow {
  const user = findUserByIdOrUsername(request.server.burrow.db, id)
  if (!user) throw notFound('User')
  return user
}
