import * as Api from '../../../shared/api/index'
import { callerOf } from '../../platform/caller'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { readBlobAt } from '../../platform/git/file-at'
import { apiMessage, missingParam, notFound, unauthorized } from '../../platform/http/errors'
import { loadCodeProject, resolveUserRef } from '../../platform/http/repository'
import { currentUser } from '../../platform/http/resolve'
import { ciConfigPath } from '../pipelines'
import { lintEntity, projectLintEntity } from './entity'
import { lintDryRun, lintStatic } from './service'

const ProjectParams = Type.Object({ id: Type.String() })

const GlobalBody = Type.Object({
  content: Type.Optional(Type.String()),
  include_merged_yaml: Type.Optional(Type.Boolean()),
  include_jobs: Type.Optional(Type.Boolean()),
})
const ProjectBody = Type.Object({
  content: Type.Optional(Type.String()),
  dry_run: Type.Optional(Type.Boolean()),
  include_jobs: Type.Optional(Type.Boolean()),
  ref: Type.Optional(Type.String()),
})
const ProjectQuery = Type.Object({
  sha: Type.Optional(Type.String()),
  content_ref: Type.Optional(Type.String()),
  dry_run: Type.Optional(Type.Boolean()),
  include_jobs: Type.Optional(Type.Boolean()),
  ref: Type.Optional(Type.String()),
  dry_run_ref: Type.Optional(Type.String()),
})

/**
 * CI lint: `POST /ci/lint` (no project; anonymous callers only while sign-ups are open),
 * `POST /projects/:id/ci/lint` (Developer; static check or dry run of a pipeline) and
 * `GET /projects/:id/ci/lint` (the default branch's configuration, with local includes).
 */
const ciLint: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow

  app.post('/ci/lint', { schema: { body: GlobalBody, response: { 200: Api.CiLint } } }, async (request, reply) => {
    const b = request.body
    if (b.content === undefined) throw missingParam('content')
    // GitLab lets anonymous callers lint only on instances where anyone may sign up.
    if (!request.actor.user && !ctx.settings.get('signup_enabled')) throw unauthorized()
    const r = await lintStatic(callerOf(request), b.content, null)
    return reply.code(200).send(lintEntity(r, b.include_jobs, b.include_merged_yaml))
  })

  app.post(
    '/projects/:id/ci/lint',
    { schema: { params: ProjectParams, body: ProjectBody, response: { 200: Api.ProjectCiLint } } },
    async (request, reply) => {
      currentUser(request)
      const repo = loadCodeProject(request, request.params.id, AccessLevel.DEVELOPER)
      const b = request.body
      if (b.content === undefined) throw missingParam('content')
      const ref = b.ref ?? repo.project.default_branch ?? 'main'
      if (b.dry_run)
        return reply
          .code(200)
          .send(projectLintEntity(await lintDryRun(callerOf(request), repo.project, b.content, ref), b.include_jobs))
      const head = repo.exists ? await resolveUserRef(repo, `refs/heads/${ref}`, 'ref').catch(() => null) : null
      const r = await lintStatic(callerOf(request), b.content, head ? { project: repo.project, sha: head, ref } : null)
      return reply.code(200).send(projectLintEntity(r, b.include_jobs))
    },
  )

  app.get(
    '/projects/:id/ci/lint',
    {
      schema: {
        params: ProjectParams,
        querystring: ProjectQuery,
        response: { 200: Api.ProjectCiLint },
      },
    },
    async (request) => {
      const repo = loadCodeProject(request, request.params.id)
      const q = request.query
      if (q.sha !== undefined && q.content_ref !== undefined)
        throw apiMessage(400, 'sha, content_ref are mutually exclusive')
      if (q.ref !== undefined && q.dry_run_ref !== undefined)
        throw apiMessage(400, 'ref, dry_run_ref are mutually exclusive')
      const branch = repo.project.default_branch ?? 'main'
      const head = repo.exists ? await resolveUserRef(repo, `refs/heads/${branch}`, 'ref') : null
      if (!head) throw notFound('Repository')
      const contentRef = q.content_ref ?? q.sha
      const sha =
        contentRef === undefined
          ? head
          : await resolveUserRef(repo, contentRef, q.content_ref !== undefined ? 'content_ref' : 'sha')
      if (!sha) throw notFound('Commit')
      const file = await readBlobAt(repo.gitDir, sha, ciConfigPath(repo.project)).catch(() => null)
      const content = file ? file.content.toString('utf8') : ''
      const dryRunRef = q.dry_run_ref ?? q.ref ?? branch
      const r = q.dry_run
        ? await lintDryRun(callerOf(request), repo.project, content, dryRunRef)
        : await lintStatic(callerOf(request), content, { project: repo.project, sha, ref: branch })
      return projectLintEntity(r, q.include_jobs)
    },
  )
}

export default ciLint
