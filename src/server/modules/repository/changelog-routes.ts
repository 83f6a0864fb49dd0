import * as Api from '../../../shared/api/index'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { callerOf } from '../../platform/caller'
import type { FastifyRequest } from 'fastify'
import { Type, type Static } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { logCommits } from '../../platform/git/commits'
import { readFileAt } from '../../platform/git/file-at'
import { filePathProblem, isValidRef } from '../../platform/git/git'
import { resolveCommit } from '../../platform/git/refs'
import { apiMessage, invalidParam } from '../../platform/http/errors'
import { loadCodeProject, type CodeProject } from '../../platform/http/repository'
import { currentUser } from '../../platform/http/resolve'
import { previousTagCommit, renderRelease, SEMVER } from './changelog'
import { commitToBranch } from './service'

const ProjectParams = Type.Object({ id: Type.String() })
const ChangelogParams = Type.Object({
  version: Type.String(),
  from: Type.Optional(Type.String()),
  to: Type.Optional(Type.String()),
  date: Type.Optional(Type.String()),
  branch: Type.Optional(Type.String()),
  trailer: Type.Optional(Type.String()),
  config_file: Type.Optional(Type.String()),
  file: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
})
type ChangelogParams = Static<typeof ChangelogParams>

/** GitLab's changelog errors: 422 with the reason after a fixed prefix. */
function changelogError(reason: string): Error {
  return apiMessage(422, `Failed to generate the changelog: ${reason}`)
}

interface Release {
  readonly notes: string
  readonly branch: string
}

/** Renders the release notes the parameters ask for (GitLab's Repositories::ChangelogService). */
async function buildRelease(request: FastifyRequest, repo: CodeProject, p: ChangelogParams): Promise<Release> {
  if (!SEMVER.test(p.version) || p.version.startsWith('v')) throw invalidParam('version')
  for (const [name, value] of [
    ['from', p.from],
    ['to', p.to],
    ['branch', p.branch],
  ] as const) {
    if (value !== undefined && !isValidRef(value)) throw invalidParam(name)
  }
  let date = new Date()
  if (p.date !== undefined && p.date !== '') {
    const t = Date.parse(p.date)
    if (Number.isNaN(t)) throw invalidParam('date')
    date = new Date(t)
  }
  const branch = p.branch ?? repo.project.default_branch ?? 'main'
  const trailer = p.trailer ?? 'Changelog'
  const to = repo.exists ? await resolveCommit(repo.gitDir, p.to ?? `refs/heads/${branch}`) : null
  if (!to) throw changelogError(p.to ? `The commit ${p.to} does not exist` : `The branch ${branch} does not exist`)
  let from: string | null
  if (p.from !== undefined) {
    from = await resolveCommit(repo.gitDir, p.from)
    if (!from) throw changelogError(`The commit ${p.from} does not exist`)
  } else {
    from = await previousTagCommit(repo.gitDir, p.version)
    if (!from)
      throw changelogError('The commit start range is unspecified, and no previous tag could be found to use instead')
  }
  const commits = await logCommits(repo.gitDir, ['--end-of-options', `${from}..${to}`])
  const notes = renderRelease({
    version: p.version,
    date: date.toISOString().slice(0, 10),
    trailer,
    commits,
    projectWebUrl: repo.webUrl,
  })
  return { notes, branch }
}

/** Changelog generation (GitLab's `/repository/changelog`): preview with GET, commit with POST. */
const changelog: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects/:id/repository/changelog',
    {
      schema: {
        params: ProjectParams,
        querystring: ChangelogParams,
        response: { 200: Api.ChangelogNotes },
      },
    },
    async (request) => {
      const { id } = request.params
      const repo = loadCodeProject(request, id, AccessLevel.DEVELOPER)
      const { notes } = await buildRelease(request, repo, request.query)
      return { notes }
    },
  )

  app.post(
    '/projects/:id/repository/changelog',
    { schema: { params: ProjectParams, body: ChangelogParams } },
    async (request, reply) => {
      const { id } = request.params
      const p = request.body
      currentUser(request)
      const repo = loadCodeProject(request, id, AccessLevel.DEVELOPER)
      const { notes, branch } = await buildRelease(request, repo, p)
      const file = p.file ?? 'CHANGELOG.md'
      if (filePathProblem(file)) throw invalidParam('file')
      const head = await resolveCommit(repo.gitDir, `refs/heads/${branch}`)
      const existing = head ? await readFileAt(repo.gitDir, head, file) : null
      // The new release goes on top, above the releases already in the file.
      const content = existing ? `${notes}\n${existing.content.toString('utf8')}` : notes
      await commitToBranch(callerOf(request), {
        project: repo.project,
        branch,
        actions: [{ action: existing ? 'update' : 'create', filePath: file, content: Buffer.from(content) }],
        message: p.message ?? `Add changelog for version ${p.version}`,
      })
      return reply.code(200).send()
    },
  )
}

export default changelog
