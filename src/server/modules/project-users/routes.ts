import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { UserBasic } from '../../../shared/api/user'
import { callerOf } from '../../platform/caller'
import { intListOf } from '../../platform/http/loose-params'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { loadProject } from '../../platform/http/resolve'
import { projectUsers } from './service'

const ProjectParams = Type.Object({ id: Type.String() })
// skip_users: GitLab's integer array in any of its forms (read by intListOf).
const ListQuery = Type.Object({
  search: Type.Optional(Type.String()),
  skip_users: Type.Optional(Type.Unknown()),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})

/** GitLab's `GET /projects/:id/users`: the project's team for whoever sees the project (user pickers). */
const projectUsersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects/:id/users',
    { schema: { params: ProjectParams, querystring: ListQuery, response: { 200: Type.Array(UserBasic) } } },
    async (request, reply) => {
      const project = loadProject(request, request.params.id)
      const page = pageOf(request.query)
      const { users, total } = projectUsers(
        callerOf(request),
        project,
        { search: request.query.search, skipUserIds: intListOf('skip_users', request.query.skip_users) },
        { limit: page.perPage, offset: page.offset },
      )
      setPageHeaders(request, reply, app.burrow.baseUrl(request), page, total)
      return users
    },
  )
}

export default projectUsersRoutes
