import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { isEmptyRepo } from '../../platform/git/project-repo'
import { listParam } from '../../platform/http/list-param'
import { paginateArray } from '../../platform/http/pagination'
import { defaultRef, loadCodeProject, resolveUserRef } from '../../platform/http/repository'
import { currentUser } from '../../platform/http/resolve'
import { PACKAGE_MANAGERS } from './dependency-files'
import { dependencyKey, dependencyVulnerabilities, repositoryDependencies, type Dependency } from './service'

const IdParams = Type.Object({ id: Type.String() })
const ListQuery = Type.Object({
  package_manager: Type.Optional(Type.Array(Type.String())),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})

/**
 * The dependency list: `GET /projects/:id/dependencies`, read from the dependency files of the
 * default branch (see services/dependencies.ts). Needs a signed-in caller who may read the code;
 * each dependency's `vulnerabilities` (open dependency-scanning findings of that name and version)
 * are shown only to those with the Security Dashboard (Developer), and left out for others.
 */
const dependencies: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow

  app.get(
    '/projects/:id/dependencies',
    { schema: { params: IdParams, querystring: ListQuery } },
    async (request, reply) => {
      currentUser(request)
      const repo = loadCodeProject(request, request.params.id)
      const managers = listParam('package_manager', request.query.package_manager, PACKAGE_MANAGERS)
      let all: readonly Dependency[] = []
      if (repo.exists && !(await isEmptyRepo(repo.gitDir))) {
        const sha = await resolveUserRef(repo, defaultRef(repo.project), 'ref')
        if (sha) all = await repositoryDependencies(repo.gitDir, sha)
      }
      const selected = managers && managers.length > 0 ? all.filter((d) => managers.includes(d.packageManager)) : all
      const page = paginateArray(request, reply, ctx.baseUrl(request), selected)
      const showVulnerabilities = request.perms.canInProject(repo.project, AccessLevel.DEVELOPER)
      const vulnerabilities = showVulnerabilities
        ? dependencyVulnerabilities(ctx.db, repo.project.id, (id) => `${repo.webUrl}/-/security/vulnerabilities/${id}`)
        : null
      return page.map((d) => ({
        name: d.name,
        version: d.version,
        package_manager: d.packageManager,
        dependency_file_path: d.dependencyFilePath,
        ...(vulnerabilities ? { vulnerabilities: vulnerabilities.get(dependencyKey(d)) ?? [] } : {}),
      }))
    },
  )
}

export default dependencies
