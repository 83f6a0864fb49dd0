import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { RepositoryLanguages } from '../../../shared/api/languages'
import { loadCodeProject } from '../../platform/http/repository'
import { repositoryLanguages } from './service'

const ProjectParams = Type.Object({ id: Type.String() })

/** GitLab's `GET /projects/:id/languages`, for readers of the project's code. */
const languages: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects/:id/languages',
    { schema: { params: ProjectParams, response: { 200: RepositoryLanguages } } },
    async (request) => repositoryLanguages(loadCodeProject(request, request.params.id)),
  )
}

export default languages
