import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { callerOf, type Caller } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'
import { forbidden, notModified } from '../../platform/http/errors'
import { currentUser, loadProject } from '../../platform/http/resolve'
import { Project } from '../../../shared/api/project'
import { VisibilitySchema } from '../namespaces'
import { presentProject } from '../projects'
import { forkProject, linkFork, unlinkFork } from './service'

/** The project entity as its schema types it (presentProject builds it untyped; the conformance test checks the two agree). */
function projectAnswer(caller: Caller, project: ProjectRow): Project {
  return presentProject(caller, project) as Project
}

const IdParams = Type.Object({ id: Type.String() })

const ForkBody = Type.Object({
  namespace_id: Type.Optional(Type.String()),
  namespace_path: Type.Optional(Type.String()),
  namespace: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  path: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  visibility: Type.Optional(VisibilitySchema),
  branches: Type.Optional(Type.String()),
  mr_default_target_self: Type.Optional(Type.Boolean()),
})

/** Forks (GitLab's Projects API): forking a project, and making or removing a forked-from link. */
const forks: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/projects/:id/fork',
    { schema: { params: IdParams, body: Type.Optional(ForkBody), response: { 201: Project } } },
    async (request, reply) => {
      currentUser(request)
      const source = loadProject(request, request.params.id)
      const body = request.body ?? {}
      const caller = callerOf(request)
      const fork = await forkProject(caller, source, {
        namespaceId: body.namespace_id,
        namespacePath: body.namespace_path,
        namespace: body.namespace,
        name: body.name,
        path: body.path,
        description: body.description,
        visibility: body.visibility,
        branches: body.branches,
        mrDefaultTargetSelf: body.mr_default_target_self,
      })
      return reply.code(201).send(projectAnswer(caller, fork))
    },
  )

  app.post(
    '/projects/:id/fork/:forked_from_id',
    {
      schema: {
        params: Type.Object({ id: Type.String(), forked_from_id: Type.String() }),
        response: { 201: Project },
      },
    },
    async (request, reply) => {
      currentUser(request)
      const caller = callerOf(request)
      const project = loadProject(request, request.params.id)
      // GitLab lets administrators and the project's owners link a fork.
      if (!caller.perms.canInProject(project, AccessLevel.OWNER)) throw forbidden()
      const source = loadProject(request, request.params.forked_from_id)
      linkFork(caller, project, source)
      return reply.code(201).send(projectAnswer(caller, project))
    },
  )

  app.delete('/projects/:id/fork', { schema: { params: IdParams } }, async (request, reply) => {
    const project = loadProject(request, request.params.id, AccessLevel.OWNER)
    if (!(await unlinkFork(callerOf(request), project))) throw notModified()
    return reply.code(204).send()
  })
}

export default forks
