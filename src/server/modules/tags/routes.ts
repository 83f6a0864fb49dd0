import type { FastifyPluginAsync } from 'fastify'
import { Type, type Static } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { tagEntity, type TagEntity } from './entity'
import { logCommits, type GitCommit } from '../../platform/git/commits'
import { isValidRef, ZERO_SHA } from '../../platform/git/git'
import { ensureProjectRepo } from '../../platform/git/project-repo'
import { createTag, deleteTag, findTag, isValidTagName, listTags, type GitTag } from '../../platform/git/tags'
import { apiMessage, invalidParam, notFound } from '../../platform/http/errors'
import { paginateArray } from '../../platform/http/pagination'
import { loadCodeProject, resolveUserRef, type CodeProject } from '../../platform/http/repository'
import { currentUser } from '../../platform/http/resolve'
import { pushLanded } from '../../platform/git/push-listeners'
import { matchesRefSearch } from '../../platform/git/ref-search'
import { assertRepositoryWritable } from '../storage-moves/service'

const ProjectParams = Type.Object({ id: Type.String() })
const TagParams = Type.Object({ id: Type.String(), tag_name: Type.String() })

const ListQuery = Type.Object({
  order_by: Type.Optional(Type.Enum(['name', 'updated', 'version'], { default: 'updated' })),
  sort: Type.Optional(Type.Enum(['asc', 'desc'], { default: 'desc' })),
  search: Type.Optional(Type.String()),
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
})
type ListQuery = Static<typeof ListQuery>

const CreateBody = Type.Object({
  tag_name: Type.String(),
  ref: Type.String(),
  message: Type.Optional(Type.String()),
})
type CreateBody = Static<typeof CreateBody>

/** The commits a page of tags points at, read in one `git log` run. */
async function tagCommits(repo: CodeProject, tags: readonly GitTag[]): Promise<Map<string, GitCommit>> {
  const ids = [...new Set(tags.map((t) => t.commitId).filter((id): id is string => id !== null))]
  const commits =
    ids.length > 0 ? await logCommits(repo.gitDir, ['--no-walk=unsorted', '--end-of-options', ...ids]) : []
  return new Map(commits.map((c) => [c.id, c]))
}

async function presentTag(repo: CodeProject, tag: GitTag): Promise<TagEntity> {
  const commits = await tagCommits(repo, [tag])
  return tagEntity(tag, tag.commitId ? commits.get(tag.commitId) : undefined, repo.webUrl)
}

/** Tags of a project's repository: list, show, create (annotated with a message) and delete. */
const tags: FastifyPluginAsync = async (app) => {
  app.get(
    '/projects/:id/repository/tags',
    { schema: { params: ProjectParams, querystring: ListQuery } },
    async (request, reply) => {
      const { id } = request.params as Static<typeof ProjectParams>
      const q = request.query as ListQuery
      const repo = loadCodeProject(request, id)
      let all = repo.exists
        ? await listTags(repo.gitDir, q.order_by ?? 'updated', q.sort === 'asc' ? 'asc' : 'desc')
        : []
      if (q.search) all = all.filter((t) => matchesRefSearch(t.name, q.search as string))
      const page = paginateArray(request, reply, app.burrow.baseUrl(request), all)
      const commits = await tagCommits(repo, page)
      return page.map((t) => tagEntity(t, t.commitId ? commits.get(t.commitId) : undefined, repo.webUrl))
    },
  )

  app.get('/projects/:id/repository/tags/:tag_name', { schema: { params: TagParams } }, async (request) => {
    const { id, tag_name: name } = request.params as Static<typeof TagParams>
    const repo = loadCodeProject(request, id)
    const tag = repo.exists && isValidRef(`refs/tags/${name}`) ? await findTag(repo.gitDir, name) : null
    if (!tag) throw notFound('Tag')
    return presentTag(repo, tag)
  })

  // Creating and deleting tags is GitLab's `admin_tag`: Developers and up.
  app.post(
    '/projects/:id/repository/tags',
    { schema: { params: ProjectParams, body: CreateBody } },
    async (request, reply) => {
      const { id } = request.params as Static<typeof ProjectParams>
      const body = request.body as CreateBody
      const user = currentUser(request)
      const repo = loadCodeProject(request, id, AccessLevel.DEVELOPER)
      assertRepositoryWritable(app.burrow.db, repo.project)
      if (!(await isValidTagName(body.tag_name))) throw apiMessage(400, 'Tag name invalid')
      // git mktag would end the message at a NUL byte and store the rest silently cut.
      if (body.message?.includes('\0')) throw invalidParam('message')
      if (repo.exists && (await findTag(repo.gitDir, body.tag_name)))
        throw apiMessage(400, `Tag ${body.tag_name} already exists`)
      const sha = isValidRef(body.ref) ? await resolveUserRef(repo, body.ref, 'ref') : null
      if (!sha) throw apiMessage(400, `Target ${body.ref} is invalid`)
      await ensureProjectRepo(app.burrow, repo.project)
      const target = await createTag(repo.gitDir, body.tag_name, sha, body.message, {
        name: user.name,
        email: user.email,
      })
      if (target === false) throw apiMessage(400, `Tag ${body.tag_name} already exists`)
      await pushLanded({
        ctx: app.burrow,
        project: repo.project,
        user,
        updates: [{ oldSha: ZERO_SHA, newSha: target, ref: `refs/tags/${body.tag_name}` }],
      })
      const tag = await findTag(repo.gitDir, body.tag_name)
      if (!tag) throw notFound('Tag')
      return reply.code(201).send(await presentTag(repo, tag))
    },
  )

  app.delete('/projects/:id/repository/tags/:tag_name', { schema: { params: TagParams } }, async (request, reply) => {
    const { id, tag_name: name } = request.params as Static<typeof TagParams>
    const user = currentUser(request)
    const repo = loadCodeProject(request, id, AccessLevel.DEVELOPER)
    assertRepositoryWritable(app.burrow.db, repo.project)
    const tag = repo.exists && isValidRef(`refs/tags/${name}`) ? await findTag(repo.gitDir, name) : null
    if (!tag) throw notFound('Tag')
    if (!(await deleteTag(repo.gitDir, name, tag.target))) throw notFound('Tag')
    await pushLanded({
      ctx: app.burrow,
      project: repo.project,
      user,
      updates: [{ oldSha: tag.target, newSha: ZERO_SHA, ref: `refs/tags/${name}` }],
    })
    return reply.code(204).send()
  })
}

export default tags
