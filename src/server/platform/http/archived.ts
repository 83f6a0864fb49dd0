import type { FastifyRequest } from 'fastify'
import { findProject } from '../db/platform-queries'
import type { ProjectRow } from '../db/rows'
import { forbidden } from './errors'
import { paramsOf } from './loose-params'

/** What git shows a client pushing to an archived project (GitLab's words). */
export const ARCHIVED_PUSH_MESSAGE = 'You are not allowed to push code to an archived project.'

/**
 * The project writes an archived project still accepts, as `METHOD /route` below
 * `/projects/:id`. GitLab's archived rule takes away the content abilities (issues, merge
 * requests, notes, labels, milestones, snippets, award emoji, time logs, pipelines, jobs,
 * environments, deployments, clusters, Pages, pushing code and tags, requesting access,
 * vulnerabilities) and leaves the project's administration, membership, and each user's own
 * subscriptions, to-dos and stars. Every other write below `/projects/:id` is refused, so a new
 * route is read-only on an archived project unless it is listed here.
 */
export const STAYS_WRITABLE: ReadonlySet<string> = new Set([
  // The project itself: settings, archiving, deletion, transfer, sharing, stars.
  'PUT ',
  'DELETE ',
  'POST /archive',
  'POST /unarchive',
  'POST /star',
  'POST /unstar',
  'PUT /transfer',
  'POST /share',
  'DELETE /share/:group_id',
  'POST /repository_storage_moves',
  // Membership and access (asking for access is refused; deciding on a request is not).
  'POST /members',
  'PUT /members/:user_id',
  'DELETE /members/:user_id',
  'PUT /access_requests/:user_id/approve',
  'DELETE /access_requests/:user_id',
  'POST /access_tokens',
  'DELETE /access_tokens/:token_id',
  'POST /access_tokens/:token_id/rotate',
  // Settings kept by Maintainers (GitLab's admin_project and CI administration).
  'POST /protected_branches',
  'PATCH /protected_branches/:name',
  'DELETE /protected_branches/:name',
  'POST /protected_environments',
  'DELETE /protected_environments/:name',
  'POST /variables',
  'PUT /variables/:key',
  'DELETE /variables/:key',
  'POST /runners',
  'DELETE /runners/:runner_id',
  'POST /runners/reset_registration_token',
  'PUT /error_tracking/settings',
  'PATCH /error_tracking/settings',
  'POST /error_tracking/client_keys',
  'DELETE /error_tracking/client_keys/:key_id',
  // Reads sent as POST.
  'POST /ci/lint',
  // The caller's own follow-ups on what stays readable.
  'POST /issues/:issue_iid/subscribe',
  'POST /issues/:issue_iid/unsubscribe',
  'POST /issues/:issue_iid/todo',
  'POST /merge_requests/:merge_request_iid/subscribe',
  'POST /merge_requests/:merge_request_iid/unsubscribe',
  'POST /merge_requests/:merge_request_iid/todo',
  'POST /labels/:label_id/subscribe',
  'POST /labels/:label_id/unsubscribe',
  // Cloning only reads the source issue; the route checks that the target project is writable.
  'POST /issues/:issue_iid/clone',
])

const PROJECT_ROUTE = /^\/api\/v4\/projects\/:id(?=\/|$)/
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Whether a project refuses writes to its content: archived projects are read-only. */
export function isReadOnly(project: Pick<ProjectRow, 'archived'>): boolean {
  return project.archived === 1
}

/** 403 `{"message":"403 Forbidden"}` when the project is archived (GitLab's answer to a write). */
export function requireWritable(project: Pick<ProjectRow, 'archived'>): void {
  if (isReadOnly(project)) throw forbidden()
}

/**
 * `preHandler` hook of the API: a write to `/projects/:id/…` of an archived project answers 403
 * unless STAYS_WRITABLE lists it. Runs after validation (400 first, as in GitLab) and leaves
 * anonymous callers (401) and projects the caller may not see (404) to the route.
 */
export async function refuseWritesToArchivedProjects(request: FastifyRequest): Promise<void> {
  if (!WRITES.has(request.method)) return
  const route = request.routeOptions.url ?? ''
  const match = PROJECT_ROUTE.exec(route)
  if (!match || STAYS_WRITABLE.has(`${request.method} ${route.slice(match[0].length)}`)) return
  if (!request.actor.user) return
  // A route's params schema may have made `:id` an integer already.
  const id = paramsOf(request.params).id
  if (typeof id !== 'string' && typeof id !== 'number') return
  const project = findProject(request.server.burrow.db, id)
  if (!project || !isReadOnly(project) || !request.perms.canReadProject(project)) return
  throw forbidden()
}
