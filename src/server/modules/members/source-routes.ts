import type { FastifyRequest } from 'fastify'
import { callerOf } from '../../platform/caller'
import { loadGroup, loadProject } from '../../platform/http/resolve'
import { groupSource, projectSource, type MemberSource, type SourceKind } from './service'

/** Resolves `:id` of a member route: 404 when missing or unreadable, as GitLab's find_source. */
export function loadSource(request: FastifyRequest, kind: SourceKind, id: string): MemberSource {
  if (kind === 'projects') return projectSource(callerOf(request).db, loadProject(request, id))
  return groupSource(loadGroup(request, id))
}
