import * as Api from '../../../shared/api/index'
import { callerOf } from '../../platform/caller'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { ProjectImportRow } from './queries'
import { findProjectWithNamespace } from '../projects'
import type { ProjectRow } from '../../platform/db/rows'
import { projectImportEntity, projectImportStatusEntity } from './entity'
import { notFound, paramError } from '../../platform/http/errors'
import { currentUser, loadProject } from '../../platform/http/resolve'
import {
  failInterruptedImports,
  projectImportOf,
  startGitServerImport,
  startHostedGitImport,
  stopImports,
} from './service'

const HostedGitBody = Type.Object({
  personal_access_token: Type.String(),
  repo_id: Type.Integer(),
  target_namespace: Type.String(),
  new_name: Type.Optional(Type.String()),
  custom_hostname: Type.Optional(Type.String()),
})
const GitServerBody = Type.Object({
  git_server_url: Type.String(),
  git_server_username: Type.String(),
  personal_access_token: Type.String(),
  git_server_project: Type.String(),
  git_server_repo: Type.String(),
  new_name: Type.Optional(Type.String()),
  target_namespace: Type.Optional(Type.String()),
})
const IdParams = Type.Object({ id: Type.String() })

/**
 * Imports: from another GitLab-compatible instance (`/import/hosted_git`, GitLab's GitHub
 * importer shape) and from a git server (`/import/git_server`, its Bitbucket Server importer
 * shape). Both answer 201 at once with the new project; the import runs in the background and
 * `GET /projects/:id/import` tells how it went.
 */
const imports: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow
  app.addHook('onReady', async () => failInterruptedImports(ctx))
  app.addHook('preClose', async () => stopImports(ctx))

  // The import as it was scheduled: the background job may already have started it.
  const answer = (created: { readonly project: ProjectRow; readonly row: ProjectImportRow }) => {
    const project = findProjectWithNamespace(ctx.db, created.project.id)
    if (!project) throw notFound('Project')
    return projectImportEntity(project, created.row)
  }

  const imported = { 201: Api.ProjectImport }

  app.post('/import/hosted_git', { schema: { body: HostedGitBody, response: imported } }, async (request, reply) => {
    currentUser(request)
    // Grape's allow_blank: false (GitLab no longer falls back to the personal namespace).
    if (request.body.target_namespace.trim() === '') throw paramError('target_namespace is empty')
    return reply.code(201).send(answer(await startHostedGitImport(callerOf(request), request.body)))
  })

  app.post('/import/git_server', { schema: { body: GitServerBody, response: imported } }, async (request, reply) => {
    currentUser(request)
    return reply.code(201).send(answer(await startGitServerImport(callerOf(request), request.body)))
  })

  app.get(
    '/projects/:id/import',
    { schema: { params: IdParams, response: { 200: Api.ProjectImportStatus } } },
    async (request) => {
      const project = loadProject(request, request.params.id)
      const full = findProjectWithNamespace(ctx.db, project.id)
      if (!full) throw notFound('Project')
      return projectImportStatusEntity(full, projectImportOf(ctx, project))
    },
  )
}

export default imports
