import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Dependency } from '../../../shared/api/security'
import { callerOf } from '../../platform/caller'
import { listParam } from '../../platform/http/loose-params'
import { paginateArray } from '../../platform/http/pagination'
import { loadCodeProject } from '../../platform/http/repository'
import { currentUser } from '../../platform/http/resolve'
import { PACKAGE_MANAGERS } from './dependency-files'
import { dependencyEntity } from './entity'
import { canSeeDependencyVulnerabilities } from './policy'
import { defaultBranchDependencies, dependencyKey, dependencyVulnerabilities } from './service'

const IdParams = Type.Object({ id: Type.String() })
const ListQuery = Type.Object({
  package_manager: Type.Optional(Type.Array(Type.String())),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})

/**
 * The dependency list: `GET /projects/:id/dependencies`, read from the dependency files of the
 * default branch (see service.ts). Needs a signed-in caller who may read the code;
 * each dependency's `vulnerabilities` (open dependency-scanning findings of that name and version)
 * are shown only to those with the Security Dashboard (Developer), and left out for others.
 */
const dependencies: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects/:id/dependencies',
    { schema: { params: IdParams, querystring: ListQuery, response: { 200: Type.Array(Dependency) } } },
    async (request, reply) => {
      currentUser(request)
      const caller = callerOf(request)
      const repo = loadCodeProject(request, request.params.id)
      const managers = listParam('package_manager', request.query.package_manager, PACKAGE_MANAGERS)
      const all = await defaultBranchDependencies(repo)
      const selected = managers && managers.length > 0 ? all.filter((d) => managers.includes(d.packageManager)) : all
      const page = paginateArray(request, reply, caller.baseUrl, selected)
      const vulnerabilities = canSeeDependencyVulnerabilities(caller.perms, repo.project)
        ? dependencyVulnerabilities(caller, repo.project.id, (id) => `${repo.webUrl}/-/security/vulnerabilities/${id}`)
        : null
      return page.map((d) =>
        dependencyEntity(d, vulnerabilities ? (vulnerabilities.get(dependencyKey(d)) ?? []) : null),
      )
    },
  )
}

export default dependencies
