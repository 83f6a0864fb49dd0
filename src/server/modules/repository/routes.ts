import * as Api from '../../../shared/api/index'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type, type Static } from 'typebox'
import { blobEntity } from './blob-entity'
import { onPush } from '../../platform/git/push-listeners'
import { refreshFlagsOnPush } from './service'
import { compareEntity } from './compare-entity'
import { contributorEntity, type ContributorEntity } from './contributor-entity'
import { treeEntryEntity } from './tree-entity'
import { archiveKind, archiveStream, ARCHIVE_FORMATS, type ArchiveFormat } from '../../platform/git/archive'
import { readBlob } from '../../platform/git/blob'
import { commitEntity, readCommit } from '../../platform/git/commits'
import { compareCommits } from '../../platform/git/compare'
import { listContributors } from '../../platform/git/contributors'
import { assertPath, isValidRef } from '../../platform/git/git'
import { mergeBase } from '../../platform/git/merge-base'
import { deleteRef, fetchCommitInto } from '../../platform/git/refs'
import { listTree, pathExists, type TreeEntry } from '../../platform/git/tree'
import { apiMessage, ApiError, invalidParam, notFound } from '../../platform/http/errors'
import { pageOf, paginateArray, requestUrl } from '../../platform/http/pagination'
import { RateLimiter } from '../../platform/http/rate-limit'
import { DOWNLOAD, rawContentHeaders, sendRawContent } from '../../platform/http/raw-content'
import {
  defaultRef,
  loadCodeProject,
  resolveUserRef,
  resolveUserRefs,
  type CodeProject,
} from '../../platform/http/repository'

const ProjectParams = Type.Object({ id: Type.String() })
const BlobParams = Type.Object({ id: Type.String(), sha: Type.String() })
const ArchiveParams = Type.Object({ id: Type.String(), format: Type.Optional(Type.String()) })

const TreeQuery = Type.Object({
  path: Type.Optional(Type.String()),
  ref: Type.Optional(Type.String()),
  recursive: Type.Optional(Type.Boolean({ default: false })),
  pagination: Type.Optional(Type.Enum(['keyset', 'offset', 'none'])),
  page_token: Type.Optional(Type.String()),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
type TreeQuery = Static<typeof TreeQuery>

const ArchiveQuery = Type.Object({
  sha: Type.Optional(Type.String()),
  format: Type.Optional(Type.String()),
  path: Type.Optional(Type.String()),
  include_lfs_blobs: Type.Optional(Type.Boolean()),
  exclude_paths: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
})
type ArchiveQuery = Static<typeof ArchiveQuery>

const CompareQuery = Type.Object({
  from: Type.String(),
  to: Type.String(),
  from_project_id: Type.Optional(Type.Integer()),
  straight: Type.Optional(Type.Boolean({ default: false })),
  unidiff: Type.Optional(Type.Boolean({ default: false })),
})
type CompareQuery = Static<typeof CompareQuery>

const ContributorsQuery = Type.Object({
  ref: Type.Optional(Type.String()),
  order_by: Type.Optional(Type.Enum(['name', 'email', 'commits'], { default: 'commits' })),
  sort: Type.Optional(Type.Enum(['asc', 'desc'], { default: 'asc' })),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
type ContributorsQuery = Static<typeof ContributorsQuery>

const MergeBaseQuery = Type.Object({ refs: Type.Union([Type.String(), Type.Array(Type.String())]) })
type MergeBaseQuery = Static<typeof MergeBaseQuery>

const ARCHIVE_LIMIT_MESSAGE = 'This archive has been requested too many times. Try again later.'

// GitLab lists a tree's subtrees first, then its files, then its submodules.
const TYPE_ORDER: Readonly<Record<TreeEntry['type'], number>> = { tree: 0, blob: 1, commit: 2 }

function sortedEntries(entries: readonly TreeEntry[]): TreeEntry[] {
  return entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => TYPE_ORDER[a.e.type] - TYPE_ORDER[b.e.type] || a.i - b.i)
    .map(({ e }) => e)
}

/** A repository path from the caller: no leading or trailing slash; 400 when it could escape. */
function cleanPath(raw: string | undefined, param: string): string {
  const path = (raw ?? '').replace(/^\/+|\/+$/g, '')
  if (path === '') return ''
  try {
    assertPath(path)
  } catch {
    throw invalidParam(param)
  }
  return path
}

/**
 * Keyset page of a tree listing: `page_token` is the id of the last entry of the previous page
 * (GitLab's tree record id); the `Link: rel="next"` header carries the next one. Where several
 * entries share an id (identical files) the token is the entry's path instead, so paging never loops.
 */
function keysetTreePage(
  request: FastifyRequest,
  reply: FastifyReply,
  baseUrl: string,
  entries: readonly TreeEntry[],
  q: TreeQuery,
): TreeEntry[] {
  const perPage = pageOf(q).perPage
  let start = 0
  if (q.page_token) {
    const byPath = entries.findIndex((e) => e.path === q.page_token)
    const index = byPath >= 0 ? byPath : entries.findIndex((e) => e.id === q.page_token)
    if (index < 0) throw invalidParam('page_token')
    start = index + 1
  }
  const page = entries.slice(start, start + perPage)
  reply.header('X-Per-Page', String(perPage))
  if (start + perPage < entries.length && page.length > 0) {
    const last = page[page.length - 1]
    const shared = entries.filter((e) => e.id === last.id).length > 1
    const next = requestUrl(request, baseUrl)
    next.searchParams.set('pagination', 'keyset')
    next.searchParams.set('per_page', String(perPage))
    next.searchParams.set('page_token', shared ? last.path : last.id)
    next.searchParams.delete('page')
    reply.header('Link', `<${next.toString()}>; rel="next"`)
  }
  return page
}

/** The commit an archive is made of: `sha` (commit, tag or branch) or the default branch tip. */
async function archiveCommit(repo: CodeProject, ref: string): Promise<string> {
  if (!isValidRef(ref)) throw invalidParam('sha')
  const sha = await resolveUserRef(repo, ref, 'sha')
  if (!sha) throw notFound('File')
  return sha
}

/**
 * The read side of repositories: tree, blobs, archives, compare, contributors and merge base.
 * Code is readable anonymously on public projects and needs Reporter on private ones. Keeps the
 * repository flags of project lists right after every push.
 */
const repository: FastifyPluginAsyncTypebox = async (app) => {
  onPush(app.burrow, refreshFlagsOnPush)
  const archiveLimiter = new RateLimiter()

  app.get(
    '/projects/:id/repository/tree',
    {
      schema: {
        params: ProjectParams,
        querystring: TreeQuery,
        response: { 200: Type.Array(Api.TreeEntry) },
      },
    },
    async (request, reply) => {
      const { id } = request.params
      const q = request.query
      const repo = loadCodeProject(request, id)
      const path = cleanPath(q.path, 'path')
      const sha = await resolveUserRef(repo, q.ref ?? defaultRef(repo.project), 'ref')
      if (!sha) throw notFound('Tree')
      const entries = await listTree(repo.gitDir, sha, path, q.recursive === true)
      if (!entries) throw notFound('Tree')
      const sorted = sortedEntries(entries)
      const baseUrl = app.burrow.baseUrl(request)
      const page =
        q.pagination === 'keyset'
          ? keysetTreePage(request, reply, baseUrl, sorted, q)
          : paginateArray(request, reply, baseUrl, sorted)
      return page.map(treeEntryEntity)
    },
  )

  app.get(
    '/projects/:id/repository/blobs/:sha',
    { schema: { params: BlobParams, response: { 200: Api.Blob } } },
    async (request) => {
      const { id, sha } = request.params
      const repo = loadCodeProject(request, id)
      const blob = repo.exists ? await readBlob(repo.gitDir, sha) : null
      if (!blob) throw notFound('Blob')
      return blobEntity(blob)
    },
  )

  app.get('/projects/:id/repository/blobs/:sha/raw', { schema: { params: BlobParams } }, async (request, reply) => {
    const { id, sha } = request.params
    const repo = loadCodeProject(request, id)
    const blob = repo.exists ? await readBlob(repo.gitDir, sha) : null
    if (!blob) throw notFound('Blob')
    return sendRawContent(reply, blob.content, sha)
  })

  const archiveHandler = async (
    request: FastifyRequest<{ Params: Static<typeof ArchiveParams>; Querystring: ArchiveQuery }>,
    reply: FastifyReply,
  ): Promise<FastifyReply> => {
    const { id, format: suffix } = request.params
    const q = request.query
    const format = suffix ?? q.format ?? 'tar.gz'
    if (!(ARCHIVE_FORMATS as readonly string[]).includes(format)) throw new ApiError(404, { error: '404 Not Found' })
    const repo = loadCodeProject(request, id)
    const limit = app.burrow.settings.get('repository_archive_requests_per_minute')
    const who = request.actor.user ? `user:${request.actor.user.id}` : `ip:${request.ip}`
    const wait = archiveLimiter.hit(`${repo.project.id}:${who}`, limit, 60)
    if (wait > 0)
      throw new ApiError(429, { message: { error: ARCHIVE_LIMIT_MESSAGE } }, { 'Retry-After': String(wait) })
    const ref = q.sha ?? defaultRef(repo.project)
    const sha = await archiveCommit(repo, ref)
    const path = cleanPath(q.path, 'path')
    if (path && !(await pathExists(repo.gitDir, sha, path))) throw notFound('File')
    const kind = archiveKind(format as ArchiveFormat)
    const segments = [repo.project.path, ref.replace(/\//g, '-'), sha]
    if (path) segments.push(path.replace(/\//g, '-'))
    const prefix = segments.join('-')
    rawContentHeaders(reply, `${prefix}.${kind.extension}`, DOWNLOAD).header('Content-Transfer-Encoding', 'binary')
    return reply.send(archiveStream(repo.gitDir, sha, kind, prefix, path || undefined))
  }
  const archiveSchema = { params: ArchiveParams, querystring: ArchiveQuery }
  app.get('/projects/:id/repository/archive', { schema: archiveSchema }, archiveHandler)
  app.get('/projects/:id/repository/archive.:format', { schema: archiveSchema }, archiveHandler)

  app.get(
    '/projects/:id/repository/compare',
    { schema: { params: ProjectParams, querystring: CompareQuery, response: { 200: Api.Compare } } },
    async (request) => {
      const { id } = request.params
      const q = request.query
      const repo = loadCodeProject(request, id)
      let fromRepo = repo
      if (q.from_project_id !== undefined && q.from_project_id !== repo.project.id) {
        try {
          fromRepo = loadCodeProject(request, q.from_project_id)
        } catch (error) {
          if (error instanceof ApiError && (error.statusCode === 404 || error.statusCode === 403)) {
            throw apiMessage(
              400,
              `Target project id:${q.from_project_id} is not a fork of project id:${repo.project.id}`,
            )
          }
          throw error
        }
      }
      const [fromSha, toSha] =
        fromRepo === repo
          ? await resolveUserRefs(repo, [
              { ref: q.from, param: 'from' },
              { ref: q.to, param: 'to' },
            ])
          : await Promise.all([resolveUserRef(fromRepo, q.from, 'from'), resolveUserRef(repo, q.to, 'to')])
      if (!fromSha || !toSha) throw notFound('Ref')
      const s = app.burrow.settings
      const limits = {
        maxPatchBytes: s.get('diff_max_patch_bytes'),
        maxFiles: s.get('diff_max_files'),
        maxLines: s.get('diff_max_lines'),
      }
      // A `from` in another project is fetched under a throwaway ref, so one repository holds both histories.
      const tempRef = fromRepo === repo ? null : `refs/tmp/compare/${Date.now()}-${Math.random().toString(36).slice(2)}`
      try {
        if (tempRef) await fetchCommitInto(repo.gitDir, fromRepo.gitDir, fromSha, tempRef)
        const comparison = await compareCommits(repo.gitDir, fromSha, toSha, { straight: q.straight === true, limits })
        if (!comparison) throw notFound('Ref')
        return compareEntity(comparison, {
          from: q.from,
          to: q.to,
          projectWebUrl: repo.webUrl,
          unidiff: q.unidiff === true,
        })
      } finally {
        if (tempRef) await deleteRef(repo.gitDir, tempRef)
      }
    },
  )

  app.get(
    '/projects/:id/repository/contributors',
    {
      schema: {
        params: ProjectParams,
        querystring: ContributorsQuery,
        response: { 200: Type.Array(Api.Contributor) },
      },
    },
    async (request, reply) => {
      const { id } = request.params
      const q = request.query
      const repo = loadCodeProject(request, id)
      const sha = await resolveUserRef(repo, q.ref ?? defaultRef(repo.project), 'ref')
      const contributors: ContributorEntity[] = sha
        ? (await listContributors(repo.gitDir, sha)).map(contributorEntity)
        : []
      const key = q.order_by ?? 'commits'
      const direction = q.sort === 'desc' ? -1 : 1
      contributors.sort((a, b) => {
        const av = a[key]
        const bv = b[key]
        const c = typeof av === 'number' && typeof bv === 'number' ? av - bv : String(av).localeCompare(String(bv))
        return direction * (c || a.name.localeCompare(b.name) || a.email.localeCompare(b.email))
      })
      return paginateArray(request, reply, app.burrow.baseUrl(request), contributors)
    },
  )

  app.get(
    '/projects/:id/repository/merge_base',
    { schema: { params: ProjectParams, querystring: MergeBaseQuery, response: { 200: Api.Commit } } },
    async (request) => {
      const { id } = request.params
      const q = request.query
      const repo = loadCodeProject(request, id)
      // python-gitlab sends `refs=a,b`; gitbeaker and curl send `refs[]=a&refs[]=b`.
      const refs = (Array.isArray(q.refs) ? q.refs : q.refs.split(',')).filter((r) => r !== '')
      if (refs.length < 2) throw apiMessage(400, 'Provide at least 2 refs')
      const shas: string[] = []
      const unknown: string[] = []
      for (const ref of refs) {
        const sha = isValidRef(ref) ? await resolveUserRef(repo, ref, 'refs') : null
        if (sha) shas.push(sha)
        else unknown.push(ref)
      }
      if (unknown.length > 0)
        throw apiMessage(400, `Could not find ${unknown.length === 1 ? 'ref' : 'refs'}: ${unknown.join(', ')}`)
      const base = await mergeBase(repo.gitDir, shas)
      if (!base) throw notFound('Merge Base')
      return commitEntity(await readCommit(repo.gitDir, base), repo.webUrl)
    },
  )
}

export default repository
