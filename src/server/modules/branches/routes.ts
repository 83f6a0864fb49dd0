import * as Api from '../../../shared/api/index'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { callerOf } from '../../platform/caller'
import { notFound } from '../../platform/http/errors'
import { paginateArray } from '../../platform/http/pagination'
import { loadCodeProject } from '../../platform/http/repository'
import { currentUser } from '../../platform/http/resolve'
import {
  branchHead,
  createBranch,
  deleteBranch,
  deleteMergedBranches,
  findBranchNames,
  presentBranches,
} from './service'

const ProjectParams = Type.Object({ id: Type.String() })
const BranchParams = Type.Object({ id: Type.String(), branch: Type.String() })
const ListQuery = Type.Object({
  search: Type.Optional(Type.String()),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
const CreateBody = Type.Object({ branch: Type.String(), ref: Type.String() })

/** Branches of a project's repository: list, show, create, delete, delete merged. */
const branches: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects/:id/repository/branches',
    {
      schema: {
        params: ProjectParams,
        querystring: ListQuery,
        response: { 200: Type.Array(Api.Branch) },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request)
      const repo = loadCodeProject(request, request.params.id)
      const names = await findBranchNames(repo, request.query.search)
      return presentBranches(caller, repo, paginateArray(request, reply, caller.baseUrl, names))
    },
  )

  app.get(
    '/projects/:id/repository/branches/:branch',
    { schema: { params: BranchParams, response: { 200: Api.Branch } }, exposeHeadRoute: false },
    async (request) => {
      const { branch } = request.params
      const repo = loadCodeProject(request, request.params.id)
      if (!(await branchHead(repo, branch))) throw notFound('Branch')
      const [entity] = await presentBranches(callerOf(request), repo, [branch])
      if (!entity) throw notFound('Branch')
      return entity
    },
  )

  app.head(
    '/projects/:id/repository/branches/:branch',
    { schema: { params: BranchParams } },
    async (request, reply) => {
      const repo = loadCodeProject(request, request.params.id)
      return reply.code((await branchHead(repo, request.params.branch)) ? 204 : 404).send()
    },
  )

  app.post(
    '/projects/:id/repository/branches',
    { schema: { params: ProjectParams, body: CreateBody, response: { 201: Api.Branch } } },
    async (request, reply) => {
      const { branch, ref } = request.body
      currentUser(request)
      const caller = callerOf(request)
      const repo = loadCodeProject(request, request.params.id, AccessLevel.DEVELOPER)
      const [entity] = await presentBranches(caller, await createBranch(caller, repo, branch, ref), [branch])
      return reply.code(201).send(entity)
    },
  )

  app.delete(
    '/projects/:id/repository/branches/:branch',
    { schema: { params: BranchParams } },
    async (request, reply) => {
      currentUser(request)
      const repo = loadCodeProject(request, request.params.id, AccessLevel.DEVELOPER)
      await deleteBranch(callerOf(request), repo, request.params.branch)
      return reply.code(204).send()
    },
  )

  app.delete(
    '/projects/:id/repository/merged_branches',
    { schema: { params: ProjectParams, response: { 202: Api.AcceptedMessage } } },
    async (request, reply) => {
      currentUser(request)
      // Whoever may push code (GitLab's push_code: Developers) may clean up merged branches.
      const repo = loadCodeProject(request, request.params.id, AccessLevel.DEVELOPER)
      await deleteMergedBranches(callerOf(request), repo)
      return reply.code(202).send({ message: '202 Accepted' })
    },
  )
}

export default branches
