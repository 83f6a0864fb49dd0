import { signedInUser, type Caller } from '../../platform/caller'
import { logCommits, type GitCommit } from '../../platform/git/commits'
import { isValidRef, ZERO_SHA } from '../../platform/git/git'
import { ensureProjectRepo } from '../../platform/git/project-repo'
import { pushLanded } from '../../platform/git/push-listeners'
import { matchesRefSearch } from '../../platform/git/ref-search'
import { createTag, deleteTag, findTag, isValidTagName, listTags, type GitTag } from '../../platform/git/tags'
import { apiMessage, invalidParam, notFound } from '../../platform/http/errors'
import { resolveUserRef, type CodeProject } from '../../platform/http/repository'
import { assertMayCreateTag, assertMayDeleteTag } from '../protected-tags'
import { assertRepositoryWritable } from '../storage-moves'
import { tagEntity, type TagEntity } from './entity'
import { releasesOfTagNames } from './releases'

/** How `GET /repository/tags` orders. */
export interface TagOrder {
  readonly orderBy: 'name' | 'updated' | 'version'
  readonly sort: 'asc' | 'desc'
  readonly search?: string
}

/** The repository's tags in the asked order, those matching `search` only (an empty repository has none). */
export async function findTags(repo: CodeProject, order: TagOrder): Promise<GitTag[]> {
  const all = repo.exists ? await listTags(repo.gitDir, order.orderBy, order.sort) : []
  const search = order.search
  return search ? all.filter((t) => matchesRefSearch(t.name, search)) : all
}

/** The tag named `name`, or null (a name that is no valid ref names no tag). */
export async function findTagNamed(repo: CodeProject, name: string): Promise<GitTag | null> {
  return repo.exists && isValidRef(`refs/tags/${name}`) ? findTag(repo.gitDir, name) : null
}

/**
 * Tags as the caller sees them: their commits read in one `git log` run, their releases (for
 * readers of releases) in one query.
 */
export async function presentTags(caller: Caller, repo: CodeProject, tags: readonly GitTag[]): Promise<TagEntity[]> {
  const ids = [...new Set(tags.map((t) => t.commitId).filter((id): id is string => id !== null))]
  const commits =
    ids.length > 0 ? await logCommits(repo.gitDir, ['--no-walk=unsorted', '--end-of-options', ...ids]) : []
  const byId = new Map<string, GitCommit>(commits.map((c) => [c.id, c]))
  const releases = releasesOfTagNames(
    caller,
    repo.project,
    tags.map((t) => t.name),
  )
  return tags.map((t) => tagEntity(t, t.commitId ? byId.get(t.commitId) : undefined, repo.webUrl, releases.get(t.name)))
}

/** What `POST /repository/tags` asks for. */
export interface NewTag {
  readonly name: string
  readonly ref: string
  /** With a message the tag is annotated. */
  readonly message?: string
}

/**
 * Creates a tag at `ref` as the caller (GitLab's Tags::CreateService) and announces the push;
 * 400 with GitLab's messages for an invalid or taken name and an unknown target.
 */
export async function createProjectTag(caller: Caller, repo: CodeProject, tag: NewTag): Promise<GitTag> {
  const user = signedInUser(caller)
  assertRepositoryWritable(caller.db, repo.project)
  if (!(await isValidTagName(tag.name))) throw apiMessage(400, 'Tag name invalid')
  assertMayCreateTag(caller, repo.project, tag.name)
  // git mktag would end the message at a NUL byte and store the rest silently cut.
  if (tag.message?.includes('\0')) throw invalidParam('message')
  if (repo.exists && (await findTag(repo.gitDir, tag.name))) throw apiMessage(400, `Tag ${tag.name} already exists`)
  const sha = isValidRef(tag.ref) ? await resolveUserRef(repo, tag.ref, 'ref') : null
  if (!sha) throw apiMessage(400, `Target ${tag.ref} is invalid`)
  await ensureProjectRepo(caller.ctx, repo.project)
  const target = await createTag(repo.gitDir, tag.name, sha, tag.message, { name: user.name, email: user.email })
  if (target === false) throw apiMessage(400, `Tag ${tag.name} already exists`)
  await pushLanded({
    ctx: caller.ctx,
    project: repo.project,
    user,
    updates: [{ oldSha: ZERO_SHA, newSha: target, ref: `refs/tags/${tag.name}` }],
  })
  const created = await findTag(repo.gitDir, tag.name)
  if (!created) throw notFound('Tag')
  return created
}

/** Deletes the tag `name` as the caller and announces the push; 404 when there is no such tag. */
export async function deleteProjectTag(caller: Caller, repo: CodeProject, name: string): Promise<void> {
  const user = signedInUser(caller)
  assertRepositoryWritable(caller.db, repo.project)
  const tag = await findTagNamed(repo, name)
  if (!tag) throw notFound('Tag')
  assertMayDeleteTag(caller, repo.project, name)
  if (!(await deleteTag(repo.gitDir, name, tag.target))) throw notFound('Tag')
  await pushLanded({
    ctx: caller.ctx,
    project: repo.project,
    user,
    updates: [{ oldSha: tag.target, newSha: ZERO_SHA, ref: `refs/tags/${name}` }],
  })
}
