import type { FastifyRequest } from 'fastify'
import type { ProjectRow } from '../../platform/db/rows'
import { apiMessage, forbidden } from '../../platform/http/errors'
import { loadProject } from '../../platform/http/resolve'
import { canReadBuilds } from './policy'
import { CI_STATUSES } from './queries'

// What the pipeline and job route plugins share: loading a project's builds, job list scopes.

/** A project whose pipelines and jobs the caller may read (404 when the project is hidden, 403 when its jobs are). */
export function loadBuildsProject(request: FastifyRequest, id: string, minLevel?: number): ProjectRow {
  const project = loadProject(request, id, minLevel)
  if (!canReadBuilds(request.perms, project)) throw forbidden()
  return project
}

/** `scope` of job lists: one status or several (`scope[]=failed&scope[]=success`); 400 for unknown ones. */
export function jobScopes(raw: string | readonly string[] | undefined): string[] | undefined {
  if (raw === undefined) return undefined
  const list = typeof raw === 'string' ? [raw] : [...raw]
  if (list.some((s) => !(CI_STATUSES as readonly string[]).includes(s)))
    throw apiMessage(400, 'Scope contains invalid value(s)')
  return list
}

/** A request header's (first) value. */
export function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name]
  return Array.isArray(v) ? v[0] : v
}

/** The job token a request carries: the `token` parameter (`given`) or the JOB-TOKEN header. */
export function jobToken(request: FastifyRequest, given: string | undefined): string {
  return given ?? header(request, 'job-token') ?? ''
}
