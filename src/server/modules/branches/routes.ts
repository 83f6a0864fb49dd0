import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import { Type, type Static } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { listProtectedBranches, type ProtectedBranch } from './protected-queries'
import { branchEntity } from './entity'
import { branchCommits, isValidBranchName, listBranchNames, mergedBranchNames } from '../../platform/git/branches'
import { isValidRef, ZERO_SHA } from '../../platform/git/git'
import { ensureProjectRepo } from '../../platform/git/project-repo'
import { readRef, resolveCommit } from '../../platform/git/refs'
import { moveRef, RefMovedError } from '../../platform/git/write-commit'
import { apiMessage, notFound } from '../../platform/http/errors'
import { paginateArray } from '../../platform/http/pagination'
import { loadCodeProject, type CodeProject } from '../../platform/http/repository'
import { currentUser } from '../../platform/http/resolve'
import { canPushToBranch, refusal, rulesFor } from './protected-service'
import { onPush, pushLanded, type RefUpdate } from '../../platform/git/push-listeners'
import { refreshFlagsOnPush } from '../repository/service'
import { matchesRefSearch } from '../../platform/git/ref-search'
import { assertRepositoryWritable } from '../storage-moves/service'

const ProjectParams = Type.Object({ id: Type.String() })
const BranchParams = Type.Object({ id: Type.String(), branch: Type.String() })
const ListQuery = Type.Object({
  search: Type.Optional(Type.String()),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
const CreateBody = Type.Object({ branch: Type.String(), ref: Type.String() })

function developersCan(rules: readonly ProtectedBranch[], kind: 'push' | 'merge'): boolean {
  return rules.some((r) => r.access.some((a) => a.kind === kind && a.access_level === AccessLevel.DEVELOPER))
}

/**
 * Serializes branches with two git calls for the whole set (heads with commit fields, and
 * which are merged into the default branch) and one query for the protection rules.
 */
async function presentBranches(
  request: FastifyRequest,
  repo: CodeProject,
  names: readonly string[],
): Promise<Readonly<Record<string, unknown>>[]> {
  if (names.length === 0) return []
  const { project, gitDir, webUrl } = repo
  const rules = listProtectedBranches(request.server.burrow.db, project.id)
  const defaultBranch = project.default_branch
  const commits = await branchCommits(gitDir, names)
  const defaultExists = defaultBranch !== null && (await readRef(gitDir, `refs/heads/${defaultBranch}`)) !== null
  const merged = defaultExists
    ? await mergedBranchNames(gitDir, `refs/heads/${defaultBranch}`, names)
    : new Set<string>()
  const out: Readonly<Record<string, unknown>>[] = []
  for (const name of names) {
    const commit = commits.get(name)
    if (!commit) continue
    const matching = rulesFor(rules, name)
    out.push(
      branchEntity(
        name,
        commit,
        {
          merged: name !== defaultBranch && merged.has(name),
          protected: matching.length > 0,
          isDefault: name === defaultBranch,
          developersCanPush: developersCan(matching, 'push'),
          developersCanMerge: developersCan(matching, 'merge'),
          canPush: request.actor.user !== null && canPushToBranch(request.perms, project, rules, name),
        },
        webUrl,
      ),
    )
  }
  return out
}

async function branchHead(repo: CodeProject, name: string): Promise<string | null> {
  if (!repo.exists || !isValidRef(name)) return null
  return readRef(repo.gitDir, `refs/heads/${name}`)
}

/** Branches of a project's repository: list, show, create, delete, delete merged. */
const branches: FastifyPluginAsync = async (app) => {
  const ctx = app.burrow
  onPush(ctx, refreshFlagsOnPush)

  app.get(
    '/projects/:id/repository/branches',
    { schema: { params: ProjectParams, querystring: ListQuery } },
    async (request, reply) => {
      const { id } = request.params as Static<typeof ProjectParams>
      const q = request.query as Static<typeof ListQuery>
      const repo = loadCodeProject(request, id)
      let names = repo.exists ? await listBranchNames(repo.gitDir) : []
      if (q.search) names = names.filter((n) => matchesRefSearch(n, q.search as string))
      const page = paginateArray(request, reply, ctx.baseUrl(request), names)
      return presentBranches(request, repo, page)
    },
  )

  app.get(
    '/projects/:id/repository/branches/:branch',
    { schema: { params: BranchParams }, exposeHeadRoute: false },
    async (request) => {
      const { id, branch } = request.params as Static<typeof BranchParams>
      const repo = loadCodeProject(request, id)
      if (!(await branchHead(repo, branch))) throw notFound('Branch')
      const [entity] = await presentBranches(request, repo, [branch])
      if (!entity) throw notFound('Branch')
      return entity
    },
  )

  app.head(
    '/projects/:id/repository/branches/:branch',
    { schema: { params: BranchParams } },
    async (request, reply) => {
      const { id, branch } = request.params as Static<typeof BranchParams>
      const repo = loadCodeProject(request, id)
      return reply.code((await branchHead(repo, branch)) ? 204 : 404).send()
    },
  )

  app.post(
    '/projects/:id/repository/branches',
    { schema: { params: ProjectParams, body: CreateBody } },
    async (request, reply) => {
      const { id } = request.params as Static<typeof ProjectParams>
      const { branch, ref } = request.body as Static<typeof CreateBody>
      const user = currentUser(request)
      const repo = loadCodeProject(request, id, AccessLevel.DEVELOPER)
      assertRepositoryWritable(ctx.db, repo.project)
      if (!isValidRef(branch) || !(await isValidBranchName(branch))) throw apiMessage(400, 'Branch name is invalid')
      const gitDir = await ensureProjectRepo(ctx, repo.project)
      if (await readRef(gitDir, `refs/heads/${branch}`)) throw apiMessage(400, 'Branch already exists')
      const target = isValidRef(ref) ? await resolveCommit(gitDir, ref) : null
      if (!target) throw apiMessage(400, `Invalid reference name: ${ref}`)
      // GitLab refuses this in its pre-receive check, whose message the branch service answers as a 400.
      const refused = refusal(
        request.perms,
        repo.project,
        listProtectedBranches(ctx.db, repo.project.id),
        branch,
        'create',
        'api',
      )
      if (refused) throw apiMessage(400, refused)
      try {
        await moveRef(gitDir, `refs/heads/${branch}`, target, null)
      } catch (error) {
        if (error instanceof RefMovedError) throw apiMessage(400, 'Branch already exists')
        throw error
      }
      await pushLanded({
        ctx,
        project: repo.project,
        user,
        updates: [{ oldSha: ZERO_SHA, newSha: target, ref: `refs/heads/${branch}` }],
      })
      const [entity] = await presentBranches(request, { ...repo, gitDir, exists: true }, [branch])
      return reply.code(201).send(entity)
    },
  )

  app.delete(
    '/projects/:id/repository/branches/:branch',
    { schema: { params: BranchParams } },
    async (request, reply) => {
      const { id, branch } = request.params as Static<typeof BranchParams>
      const user = currentUser(request)
      const repo = loadCodeProject(request, id, AccessLevel.DEVELOPER)
      assertRepositoryWritable(ctx.db, repo.project)
      const head = await branchHead(repo, branch)
      if (!head) throw notFound('Branch')
      const refused = refusal(
        request.perms,
        repo.project,
        listProtectedBranches(ctx.db, repo.project.id),
        branch,
        'delete',
        'api',
      )
      if (refused) throw apiMessage(branch === repo.project.default_branch ? 400 : 403, refused)
      try {
        await moveRef(repo.gitDir, `refs/heads/${branch}`, null, head)
      } catch (error) {
        if (error instanceof RefMovedError) throw apiMessage(400, 'Failed to remove branch')
        throw error
      }
      await pushLanded({
        ctx,
        project: repo.project,
        user,
        updates: [{ oldSha: head, newSha: ZERO_SHA, ref: `refs/heads/${branch}` }],
      })
      return reply.code(204).send()
    },
  )

  app.delete(
    '/projects/:id/repository/merged_branches',
    { schema: { params: ProjectParams } },
    async (request, reply) => {
      const { id } = request.params as Static<typeof ProjectParams>
      const user = currentUser(request)
      // Whoever may push code (GitLab's push_code: Developers) may clean up merged branches.
      const repo = loadCodeProject(request, id, AccessLevel.DEVELOPER)
      assertRepositoryWritable(ctx.db, repo.project)
      const defaultBranch = repo.project.default_branch
      if (repo.exists && defaultBranch && (await readRef(repo.gitDir, `refs/heads/${defaultBranch}`))) {
        const rules = listProtectedBranches(ctx.db, repo.project.id)
        const candidates = (await listBranchNames(repo.gitDir)).filter(
          (n) => n !== defaultBranch && rulesFor(rules, n).length === 0,
        )
        const merged = await mergedBranchNames(repo.gitDir, `refs/heads/${defaultBranch}`, candidates)
        const heads = await branchCommits(repo.gitDir, [...merged])
        const updates: RefUpdate[] = []
        for (const name of merged) {
          const head = heads.get(name)?.id
          if (!head) continue
          try {
            await moveRef(repo.gitDir, `refs/heads/${name}`, null, head)
            updates.push({ oldSha: head, newSha: ZERO_SHA, ref: `refs/heads/${name}` })
          } catch (error) {
            // A branch that moved meanwhile may no longer be merged: leave it.
            if (!(error instanceof RefMovedError)) throw error
          }
        }
        if (updates.length > 0) await pushLanded({ ctx, project: repo.project, user, updates })
      }
      return reply.code(202).send({ message: '202 Accepted' })
    },
  )
}

export default branches
