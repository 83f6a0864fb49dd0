import * as Api from '../../../shared/api/index'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { callerOf, signedInUser } from '../../platform/caller'
import { Type, type Static } from 'typebox'
import { diffEntity } from './diff-entity'
import { commitEntity, logCommits, readCommit, type GitCommit } from '../../platform/git/commits'
import { diffTrees, EMPTY_TREE_SHA } from '../../platform/git/diff'
import { assertPath, isValidRef } from '../../platform/git/git'
import { commitStats, countCommits } from '../../platform/git/history'
import { refsContaining } from '../../platform/git/refs'
import { AccessLevel } from '../../platform/auth/access'
import type { CheckedAction } from './service'
import { commitToBranch } from './service'
import { currentUser } from '../../platform/http/resolve'
import { forbidden, invalidParam, missingParam, notFound, paramError } from '../../platform/http/errors'
import { canReadMergeRequestsWith, mergeRequestsOfCommit, presentMergeRequests } from '../merge-requests'
import { pageOf, paginateArray, setPageHeaders } from '../../platform/http/pagination'
import { defaultRef, loadCodeProject, resolveUserRef, type CodeProject } from '../../platform/http/repository'

const ProjectParams = Type.Object({ id: Type.String() })
const CommitParams = Type.Object({ id: Type.String(), sha: Type.String() })

const ListQuery = Type.Object({
  ref_name: Type.Optional(Type.String()),
  since: Type.Optional(Type.String()),
  until: Type.Optional(Type.String()),
  path: Type.Optional(Type.String()),
  author: Type.Optional(Type.String()),
  all: Type.Optional(Type.Boolean({ default: false })),
  with_stats: Type.Optional(Type.Boolean({ default: false })),
  first_parent: Type.Optional(Type.Boolean({ default: false })),
  order: Type.Optional(Type.Enum(['default', 'topo'], { default: 'default' })),
  trailers: Type.Optional(Type.Boolean({ default: false })),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
type ListQuery = Static<typeof ListQuery>

const ShowQuery = Type.Object({ stats: Type.Optional(Type.Boolean({ default: true })) })
const DiffQuery = Type.Object({
  unidiff: Type.Optional(Type.Boolean({ default: false })),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
const RefsQuery = Type.Object({
  type: Type.Optional(Type.Enum(['branch', 'tag', 'all'], { default: 'all' })),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})

const SequenceQuery = Type.Object({ first_parent: Type.Optional(Type.Boolean()) })

const CommitMergeRequestsQuery = Type.Object({
  state: Type.Optional(Type.String()),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})

const ActionBody = Type.Object({
  action: Type.Enum(['create', 'delete', 'move', 'update', 'chmod']),
  file_path: Type.String({ minLength: 1 }),
  previous_path: Type.Optional(Type.String({ minLength: 1 })),
  content: Type.Optional(Type.String()),
  encoding: Type.Optional(Type.Enum(['text', 'base64'], { default: 'text' })),
  last_commit_id: Type.Optional(Type.String()),
  execute_filemode: Type.Optional(Type.Boolean()),
})
type ActionBody = Static<typeof ActionBody>

const CreateBody = Type.Object({
  branch: Type.String({ minLength: 1 }),
  commit_message: Type.String({ minLength: 1 }),
  start_branch: Type.Optional(Type.String({ minLength: 1 })),
  actions: Type.Array(ActionBody, { minItems: 1 }),
  author_email: Type.Optional(Type.String()),
  author_name: Type.Optional(Type.String()),
  stats: Type.Optional(Type.Boolean({ default: true })),
})
type CreateBody = Static<typeof CreateBody>

/** A commit action of the request as the commit service takes it; 400 for incomplete actions. */
function checkedAction(a: ActionBody): CheckedAction {
  const content = (): Buffer => {
    if (a.content === undefined) throw missingParam('actions[content]')
    return a.encoding === 'base64' ? Buffer.from(a.content, 'base64') : Buffer.from(a.content, 'utf8')
  }
  switch (a.action) {
    case 'create':
    case 'update':
      return {
        action: a.action,
        filePath: a.file_path,
        content: content(),
        executable: a.execute_filemode,
        lastCommitId: a.last_commit_id,
      }
    case 'delete':
      return { action: 'delete', filePath: a.file_path, lastCommitId: a.last_commit_id }
    case 'move':
      if (a.previous_path === undefined) throw missingParam('actions[previous_path]')
      return {
        action: 'move',
        filePath: a.file_path,
        previousPath: a.previous_path,
        content: a.content === undefined ? undefined : content(),
        executable: a.execute_filemode,
        lastCommitId: a.last_commit_id,
      }
    case 'chmod':
      if (a.execute_filemode === undefined) throw missingParam('actions[execute_filemode]')
      return { action: 'chmod', filePath: a.file_path, executable: a.execute_filemode }
  }
}

/** An ISO 8601 date-time parameter as git's `--since`/`--until` value; 400 when not a date. */
function dateArg(name: string, value: string | undefined): string[] {
  if (value === undefined || value === '') return []
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) throw invalidParam(name)
  return [`--${name}=${date.toISOString()}`]
}

/**
 * The revision argument of a commit listing: `ref_name` (a branch, tag, SHA or `a..b` /
 * `a...b` range) resolved to ids; null when a part names nothing (an empty list, as GitLab).
 */
async function revisionArgs(repo: CodeProject, refName: string): Promise<string[] | null> {
  const range = /^(.+?)(\.\.\.?)(.+)$/.exec(refName)
  if (!range) {
    const sha = await resolveUserRef(repo, refName, 'ref_name')
    return sha ? [sha] : null
  }
  const [from, to] = await Promise.all([
    resolveUserRef(repo, range[1], 'ref_name'),
    resolveUserRef(repo, range[3], 'ref_name'),
  ])
  return from && to ? [`${from}${range[2]}${to}`] : null
}

/** The commit `:sha` names (a SHA, branch or tag), or 404 `Commit Not Found`. */
async function loadCommit(repo: CodeProject, ref: string): Promise<GitCommit> {
  if (!isValidRef(ref)) throw notFound('Commit')
  const sha = await resolveUserRef(repo, ref, 'sha')
  if (!sha) throw notFound('Commit')
  return readCommit(repo.gitDir, sha)
}

function withoutTrailers(entity: Api.Commit): Api.Commit {
  return { ...entity, trailers: {}, extended_trailers: {} }
}

const NO_STATS: Api.CommitStats = { additions: 0, deletions: 0, total: 0 }

/** GitLab's CommitDetail of a commit of `repo`: its stats unless `withStats` is false. */
async function commitDetail(repo: CodeProject, commit: GitCommit, withStats: boolean): Promise<Api.CommitDetail> {
  const stats = withStats ? ((await commitStats(repo.gitDir, [commit.id])).get(commit.id) ?? NO_STATS) : undefined
  return { ...commitEntity(commit, repo.webUrl), stats, status: null, project_id: repo.project.id, last_pipeline: null }
}

/** Commits of a project's repository: history listing, one commit, its diff and its refs. */
const commits: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects/:id/repository/commits',
    {
      schema: {
        params: ProjectParams,
        querystring: ListQuery,
        response: { 200: Type.Array(Api.CommitListItem) },
      },
    },
    async (request, reply) => {
      const { id } = request.params
      const q = request.query
      const repo = loadCodeProject(request, id)
      const page = pageOf(q)
      const baseUrl = app.burrow.baseUrl(request)
      const filters = [...dateArg('since', q.since), ...dateArg('until', q.until)]
      if (q.author) filters.push('--fixed-strings', '--regexp-ignore-case', `--author=${q.author}`)
      if (q.first_parent) filters.push('--first-parent')
      if (q.order === 'topo') filters.push('--topo-order')
      let pathArgs: string[] = []
      if (q.path !== undefined && q.path.replace(/^\/+|\/+$/g, '') !== '') {
        const path = q.path.replace(/^\/+|\/+$/g, '')
        try {
          assertPath(path)
        } catch {
          throw invalidParam('path')
        }
        pathArgs = ['--', path]
      }
      const revisions = !repo.exists
        ? null
        : q.all
          ? ['--all']
          : await revisionArgs(repo, q.ref_name ?? defaultRef(repo.project))
      if (!revisions) {
        setPageHeaders(request, reply, baseUrl, page, 0)
        return []
      }
      const selection = [...filters, ...revisions, ...pathArgs]
      const [total, list] = await Promise.all([
        countCommits(repo.gitDir, selection),
        logCommits(repo.gitDir, [`--skip=${page.offset}`, `--max-count=${page.perPage}`, ...selection]),
      ])
      setPageHeaders(request, reply, baseUrl, page, total)
      const stats = q.with_stats
        ? await commitStats(
            repo.gitDir,
            list.map((c) => c.id),
          )
        : null
      return list.map((c) => {
        const entity = commitEntity(c, repo.webUrl)
        const shown = q.trailers ? entity : withoutTrailers(entity)
        return stats ? { ...shown, stats: stats.get(c.id) ?? NO_STATS } : shown
      })
    },
  )

  // Several file actions in one commit (GitLab's Commits API "create a commit").
  app.post(
    '/projects/:id/repository/commits',
    { schema: { params: ProjectParams, body: CreateBody, response: { 201: Api.CommitDetail } } },
    async (request, reply) => {
      currentUser(request)
      const body = request.body
      const repo = loadCodeProject(request, request.params.id, AccessLevel.DEVELOPER)
      if (!isValidRef(body.branch)) throw invalidParam('branch')
      if (body.start_branch !== undefined && !isValidRef(body.start_branch)) throw invalidParam('start_branch')
      const actions = body.actions.map(checkedAction)
      const paths = actions.map((a) => a.filePath)
      if (new Set(paths).size !== paths.length) throw paramError('actions must not name the same file_path twice')
      const sha = await commitToBranch(callerOf(request), {
        project: repo.project,
        branch: body.branch,
        startBranch: body.start_branch,
        actions,
        message: body.commit_message,
        author: { name: body.author_name, email: body.author_email },
      })
      const commit = await loadCommit({ ...repo, exists: true }, sha)
      return reply.code(201).send(await commitDetail(repo, commit, body.stats !== false))
    },
  )

  app.get(
    '/projects/:id/repository/commits/:sha',
    { schema: { params: CommitParams, querystring: ShowQuery, response: { 200: Api.CommitDetail } } },
    async (request) => {
      const { id, sha } = request.params
      const q = request.query
      const repo = loadCodeProject(request, id)
      return commitDetail(repo, await loadCommit(repo, sha), q.stats !== false)
    },
  )

  app.get(
    '/projects/:id/repository/commits/:sha/diff',
    {
      schema: {
        params: CommitParams,
        querystring: DiffQuery,
        response: { 200: Type.Array(Api.Diff) },
      },
    },
    async (request, reply) => {
      const { id, sha } = request.params
      const q = request.query
      const repo = loadCodeProject(request, id)
      const commit = await loadCommit(repo, sha)
      const s = app.burrow.settings
      const diffs = await diffTrees(repo.gitDir, commit.parentIds[0] ?? EMPTY_TREE_SHA, commit.id, {
        maxPatchBytes: s.get('diff_max_patch_bytes'),
        maxFiles: s.get('diff_max_files'),
        maxLines: s.get('diff_max_lines'),
      })
      const entities = diffs.map((d) => diffEntity(d, q.unidiff === true))
      return paginateArray(request, reply, app.burrow.baseUrl(request), entities)
    },
  )

  app.get(
    '/projects/:id/repository/commits/:sha/refs',
    {
      schema: {
        params: CommitParams,
        querystring: RefsQuery,
        response: { 200: Type.Array(Api.CommitRef) },
      },
    },
    async (request, reply) => {
      const { id, sha } = request.params
      const q = request.query
      const repo = loadCodeProject(request, id)
      const commit = await loadCommit(repo, sha)
      const refs = await refsContaining(repo.gitDir, commit.id, q.type ?? 'all')
      return paginateArray(request, reply, app.burrow.baseUrl(request), refs)
    },
  )

  // GitLab's commit sequence: the commit's place in history, counting it and its ancestors.
  app.get(
    '/projects/:id/repository/commits/:sha/sequence',
    { schema: { params: CommitParams, querystring: SequenceQuery, response: { 200: Api.CommitSequence } } },
    async (request) => {
      const repo = loadCodeProject(request, request.params.id)
      const commit = await loadCommit(repo, request.params.sha)
      const firstParent = request.query.first_parent === true ? ['--first-parent'] : []
      return { count: await countCommits(repo.gitDir, [...firstParent, commit.id]) }
    },
  )

  app.get(
    '/projects/:id/repository/commits/:sha/merge_requests',
    {
      schema: {
        params: CommitParams,
        querystring: CommitMergeRequestsQuery,
        response: { 200: Type.Array(Api.MergeRequest) },
      },
    },
    async (request, reply) => {
      // Every merge request call needs a signed-in caller (spec, Authentication), before the project is looked up.
      const caller = callerOf(request)
      signedInUser(caller)
      const repo = loadCodeProject(request, request.params.id)
      if (!canReadMergeRequestsWith(caller.perms, repo.project)) throw forbidden()
      const commit = await loadCommit(repo, request.params.sha)
      const rows = await mergeRequestsOfCommit(caller, repo.project, commit.id, request.query.state)
      const path = `${repo.project.ns_full_path}/${repo.project.path}`
      const listed = presentMergeRequests(caller, rows, { relativeTo: { kind: 'project', path } })
      return paginateArray(request, reply, caller.baseUrl, listed)
    },
  )
}

export default commits
