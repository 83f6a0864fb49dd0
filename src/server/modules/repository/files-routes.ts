import * as Api from '../../../shared/api/index'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { callerOf } from '../../platform/caller'
import type { FastifyRequest } from 'fastify'
import { Type, type Static } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { fileEntity, fileHeaders, fileName, type RepositoryFile } from './file-entity'
import { BlameRange as BlameRangeSchema } from '../../../shared/api/repository'
import { blame, type LineRange } from '../../platform/git/blame'
import { commitEntity, commitsByIds, type GitCommit } from '../../platform/git/commits'
import { readFileAt } from '../../platform/git/file-at'
import { filePathProblem, isValidRef } from '../../platform/git/git'
import { resolveCommit } from '../../platform/git/refs'
import type { CommitAction } from '../../platform/git/write-commit'
import { apiMessage, invalidParam, missingParam, notFound } from '../../platform/http/errors'
import { sendRawContent } from '../../platform/http/raw-content'
import { defaultRef, loadCodeProject } from '../../platform/http/repository'
import { currentUser } from '../../platform/http/resolve'
import { commitToBranch, type CheckedAction } from './service'

const FileParams = Type.Object({ id: Type.String(), file_path: Type.String() })
type FileParams = Static<typeof FileParams>
const ReadQuery = Type.Object({ ref: Type.Optional(Type.String()), lfs: Type.Optional(Type.Boolean()) })
const BlameQuery = Type.Object({
  ref: Type.Optional(Type.String()),
  // Rails-style `range[start]=1&range[end]=9`; each bound is checked below with GitLab's messages.
  range: Type.Optional(
    Type.Object(
      { start: Type.Optional(Type.String()), end: Type.Optional(Type.String()) },
      { additionalProperties: true },
    ),
  ),
})
type BlameQuery = Static<typeof BlameQuery>
const Encoding = Type.Union([Type.Literal('text'), Type.Literal('base64')])
const WriteBody = Type.Object({
  branch: Type.String(),
  commit_message: Type.String(),
  content: Type.Optional(Type.String()),
  encoding: Type.Optional(Encoding),
  author_email: Type.Optional(Type.String()),
  author_name: Type.Optional(Type.String()),
  start_branch: Type.Optional(Type.String()),
  execute_filemode: Type.Optional(Type.Boolean()),
  last_commit_id: Type.Optional(Type.String()),
})
type WriteBody = Static<typeof WriteBody>

/** GitLab's file_path validator: 400 `file_path should be a valid file path` for a path git cannot hold. */
function checkFilePath(path: string): void {
  if (filePathProblem(path)) throw invalidParam('file_path', 'should be a valid file path')
}

async function loadFile(request: FastifyRequest, params: FileParams, ref: string | undefined): Promise<RepositoryFile> {
  checkFilePath(params.file_path)
  const repo = loadCodeProject(request, params.id)
  const wanted = ref ?? defaultRef(repo.project)
  if (!isValidRef(wanted)) throw invalidParam('ref')
  const commit = repo.exists ? await resolveCommit(repo.gitDir, wanted) : null
  if (!commit) throw notFound('Commit')
  const blob = await readFileAt(repo.gitDir, commit, params.file_path)
  if (!blob) throw notFound('File')
  return {
    filePath: params.file_path,
    ref: wanted,
    content: blob.content,
    blobId: blob.sha,
    commitId: commit,
    lastCommitId: blob.lastCommitId,
    executable: blob.mode === '100755',
  }
}

/** A blame range bound: a positive integer (GitLab's `values: ->(v) { v > 0 }`). */
function lineBound(raw: string | undefined, name: string): number {
  if (raw === undefined || raw === '') throw missingParam(`range[${name}]`)
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN
  if (!Number.isSafeInteger(n) || n < 1) throw invalidParam(`range[${name}]`, 'does not have a valid value')
  return n
}

/** The lines a blame asks for (all when no range is given), with GitLab's checks. */
function blameRange(query: BlameQuery): LineRange | undefined {
  if (query.range === undefined) return undefined
  const range = { start: lineBound(query.range.start, 'start'), end: lineBound(query.range.end, 'end') }
  if (range.start > range.end) throw apiMessage(400, 'range[start] must be less than or equal to range[end]')
  return range
}

function contentOf(body: WriteBody): Buffer {
  if (body.content === undefined) throw missingParam('content')
  return body.encoding === 'base64' ? Buffer.from(body.content, 'base64') : Buffer.from(body.content, 'utf8')
}

/** Repository files (GitLab's Repository files API): read, raw, create, update, delete. */
const files: FastifyPluginAsyncTypebox = async (app) => {
  const write = async (
    request: FastifyRequest<{ Params: FileParams }>,
    action: CheckedAction,
    body: WriteBody,
  ): Promise<void> => {
    currentUser(request)
    const repo = loadCodeProject(request, request.params.id, AccessLevel.DEVELOPER)
    if (!isValidRef(body.branch)) throw invalidParam('branch')
    if (body.start_branch !== undefined && !isValidRef(body.start_branch)) throw invalidParam('start_branch')
    await commitToBranch(callerOf(request), {
      project: repo.project,
      branch: body.branch,
      startBranch: body.start_branch,
      actions: [action],
      message: body.commit_message,
      author: { name: body.author_name, email: body.author_email },
    })
  }

  app.get(
    '/projects/:id/repository/files/:file_path',
    {
      schema: { params: FileParams, querystring: ReadQuery, response: { 200: Api.RepositoryFile } },
      exposeHeadRoute: false,
    },
    async (request, reply) => {
      const { ref } = request.query
      if (ref === undefined) throw missingParam('ref')
      const file = await loadFile(request, request.params, ref)
      reply.headers(fileHeaders(file))
      return fileEntity(file)
    },
  )

  app.head(
    '/projects/:id/repository/files/:file_path',
    { schema: { params: FileParams, querystring: ReadQuery } },
    async (request, reply) => {
      const { ref } = request.query
      if (ref === undefined) throw missingParam('ref')
      const file = await loadFile(request, request.params, ref)
      return reply.code(200).headers(fileHeaders(file)).send()
    },
  )

  app.get(
    '/projects/:id/repository/files/:file_path/blame',
    {
      schema: { params: FileParams, querystring: BlameQuery, response: { 200: Type.Array(BlameRangeSchema) } },
      exposeHeadRoute: false,
    },
    async (request, reply) => {
      const { ref } = request.query
      if (ref === undefined || ref === '') throw missingParam('ref')
      const range = blameRange(request.query)
      const file = await loadFile(request, request.params, ref)
      const repo = loadCodeProject(request, request.params.id)
      const ranges = await blame(repo.gitDir, file.commitId, file.filePath, file.content, range)
      if (ranges === null) throw apiMessage(400, 'range is outside of the file length')
      const commits = await commitsByIds(
        repo.gitDir,
        ranges.map((r) => r.sha),
      )
      const entities = ranges.map((r) => ({
        commit: commitEntity(commits.get(r.sha) as GitCommit, repo.webUrl),
        lines: [...r.lines],
      }))
      return reply.headers(fileHeaders(file)).send(entities)
    },
  )

  app.head(
    '/projects/:id/repository/files/:file_path/blame',
    { schema: { params: FileParams, querystring: ReadQuery } },
    async (request, reply) => {
      const { ref } = request.query
      if (ref === undefined || ref === '') throw missingParam('ref')
      const file = await loadFile(request, request.params, ref)
      return reply.code(200).headers(fileHeaders(file)).send()
    },
  )

  app.get(
    '/projects/:id/repository/files/:file_path/raw',
    { schema: { params: FileParams, querystring: ReadQuery } },
    async (request, reply) => {
      const { ref } = request.query
      const file = await loadFile(request, request.params, ref)
      return sendRawContent(reply.headers(fileHeaders(file)), file.content, fileName(file.filePath))
    },
  )

  app.post(
    '/projects/:id/repository/files/:file_path',
    { schema: { params: FileParams, body: WriteBody, response: { 201: Api.FileCommit } } },
    async (request, reply) => {
      const { file_path: filePath } = request.params
      const body = request.body
      checkFilePath(filePath)
      await write(
        request,
        { action: 'create', filePath, content: contentOf(body), executable: body.execute_filemode },
        body,
      )
      return reply.code(201).send({ file_path: filePath, branch: body.branch })
    },
  )

  app.put(
    '/projects/:id/repository/files/:file_path',
    { schema: { params: FileParams, body: WriteBody, response: { 200: Api.FileCommit } } },
    async (request) => {
      const { file_path: filePath } = request.params
      const body = request.body
      checkFilePath(filePath)
      const action: CommitAction & { lastCommitId?: string } = {
        action: 'update',
        filePath,
        content: contentOf(body),
        executable: body.execute_filemode,
        lastCommitId: body.last_commit_id,
      }
      await write(request, action, body)
      return { file_path: filePath, branch: body.branch }
    },
  )

  // DELETE bodies are optional (python-gitlab sends a query string), so the merged params are read from the query.
  app.delete(
    '/projects/:id/repository/files/:file_path',
    { schema: { params: FileParams, querystring: WriteBody } },
    async (request, reply) => {
      const { file_path: filePath } = request.params
      const body = request.query
      checkFilePath(filePath)
      await write(request, { action: 'delete', filePath, lastCommitId: body.last_commit_id }, body)
      return reply.code(204).send()
    },
  )
}

export default files
