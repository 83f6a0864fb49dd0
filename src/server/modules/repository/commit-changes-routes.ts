import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type, type Static } from 'typebox'
import { Commit } from '../../../shared/api/repository'
import { callerOf } from '../../platform/caller'
import { commitEntity } from '../../platform/git/commits'
import { isValidRef } from '../../platform/git/git'
import { invalidParam, notFound } from '../../platform/http/errors'
import { loadCodeProject } from '../../platform/http/repository'
import { currentUser } from '../../platform/http/resolve'
import { applyCommitChange, type CommitChangeKind } from './commit-changes'

const CommitParams = Type.Object({ id: Type.String(), sha: Type.String() })
type CommitParams = Static<typeof CommitParams>
const RevertBody = Type.Object({ branch: Type.String({ minLength: 1 }), dry_run: Type.Optional(Type.Boolean()) })
const CherryPickBody = Type.Object({ ...RevertBody.properties, message: Type.Optional(Type.String()) })
type CherryPickBody = Static<typeof CherryPickBody>
const response = { 201: Commit, 200: Type.Object({ dry_run: Type.Literal('success') }) }

/** Applies the change and answers GitLab's way: the new commit (201), or `{"dry_run": "success"}` (200). */
async function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  kind: CommitChangeKind,
  params: CommitParams,
  body: CherryPickBody,
): Promise<FastifyReply> {
  currentUser(request)
  const repo = loadCodeProject(request, params.id)
  if (!isValidRef(params.sha)) throw notFound('Commit')
  if (!isValidRef(body.branch)) throw invalidParam('branch')
  const result = await applyCommitChange(callerOf(request), repo, {
    kind,
    rev: params.sha,
    branch: body.branch,
    dryRun: body.dry_run === true,
    message: body.message,
  })
  if ('dryRun' in result) return reply.code(200).send({ dry_run: 'success' })
  return reply.code(201).send(commitEntity(result.commit, repo.webUrl))
}

/** GitLab's cherry-pick and revert of a commit onto a branch (Commits API). */
const commitChanges: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/projects/:id/repository/commits/:sha/cherry_pick',
    { schema: { params: CommitParams, body: CherryPickBody, response } },
    async (request, reply) => answer(request, reply, 'cherry_pick', request.params, request.body),
  )
  app.post(
    '/projects/:id/repository/commits/:sha/revert',
    { schema: { params: CommitParams, body: RevertBody, response } },
    async (request, reply) => answer(request, reply, 'revert', request.params, request.body),
  )
}

export default commitChanges
