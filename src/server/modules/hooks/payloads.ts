import type { ServerContext } from '../../platform/context'
import type { ProjectWithNamespaceRow } from '../../platform/db/platform-queries'
import type { UserRow } from '../../platform/db/rows'
import { gitText, ZERO_SHA } from '../../platform/git/git'
import { logCommits, type GitCommit } from '../../platform/git/commits'
import type { RefUpdate } from '../../platform/git/push-listeners'

/**
 * GitLab's webhook payloads (Webhook events reference): the pieces every event embeds (project,
 * repository, user, commit) and the push and tag push events. Payloads are plain JSON built
 * from rows and git, in the server's base URL.
 */

type Json = Record<string, unknown>

const VISIBILITY_LEVEL = { private: 0, internal: 10, public: 20 } as const

/** The project's web URL, e.g. `http://host/group/project`. */
export function projectWebUrl(baseUrl: string, project: ProjectWithNamespaceRow): string {
  return `${baseUrl}/${project.ns_full_path}/${project.path}`
}

function sshUrl(baseUrl: string, project: ProjectWithNamespaceRow): string {
  return `git@${new URL(baseUrl).hostname}:${project.ns_full_path}/${project.path}.git`
}

/** The `project` object of every project event. */
export function projectPayload(baseUrl: string, project: ProjectWithNamespaceRow): Json {
  const web = projectWebUrl(baseUrl, project)
  return {
    id: project.id,
    name: project.name,
    description: project.description,
    web_url: web,
    avatar_url: null,
    git_ssh_url: sshUrl(baseUrl, project),
    git_http_url: `${web}.git`,
    namespace: project.ns_name,
    visibility_level: VISIBILITY_LEVEL[project.visibility],
    path_with_namespace: `${project.ns_full_path}/${project.path}`,
    default_branch: project.default_branch,
    ci_config_path: null,
    homepage: web,
    url: sshUrl(baseUrl, project),
    ssh_url: sshUrl(baseUrl, project),
    http_url: `${web}.git`,
  }
}

/** The `repository` object of push, issue, merge request and note events. */
export function repositoryPayload(baseUrl: string, project: ProjectWithNamespaceRow): Json {
  const web = projectWebUrl(baseUrl, project)
  return {
    name: project.name,
    url: sshUrl(baseUrl, project),
    description: project.description,
    homepage: web,
    git_http_url: `${web}.git`,
    git_ssh_url: sshUrl(baseUrl, project),
    visibility_level: VISIBILITY_LEVEL[project.visibility],
  }
}

/** The `user` object of issue, merge request, note, pipeline and job events (the public email only). */
export function userPayload(user: UserRow): Json {
  return {
    id: user.id,
    name: user.name,
    username: user.username,
    avatar_url: user.avatar_url,
    email: user.public_email === '' ? '[REDACTED]' : user.public_email,
  }
}

/** A commit as push and merge request events embed it. */
export function commitPayload(web: string, commit: GitCommit): Json {
  return {
    id: commit.id,
    message: commit.message,
    title: commit.title,
    timestamp: commit.authoredDate,
    url: `${web}/-/commit/${commit.id}`,
    author: { name: commit.authorName, email: commit.authorEmail },
  }
}

/** The files a commit added, changed and removed, against its first parent. */
async function changedFiles(
  gitDir: string,
  sha: string,
): Promise<{ added: string[]; modified: string[]; removed: string[] }> {
  const out = await gitText(['diff-tree', '--no-commit-id', '--name-status', '-r', '--root', '-z', sha], { gitDir })
  const parts = out.split('\0').filter((p) => p !== '')
  const files = { added: [] as string[], modified: [] as string[], removed: [] as string[] }
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const status = parts[i][0]
    const list = status === 'A' ? files.added : status === 'D' ? files.removed : files.modified
    list.push(parts[i + 1])
  }
  return files
}

/** Push events carry at most this many commits (the newest), with the total count beside them. */
const PUSH_COMMIT_LIMIT = 20

/** The commits a ref update brought, oldest first; a new ref counts what no other ref had. */
async function pushedCommits(gitDir: string, update: RefUpdate): Promise<{ commits: GitCommit[]; total: number }> {
  if (update.newSha === ZERO_SHA) return { commits: [], total: 0 }
  const range =
    update.oldSha === ZERO_SHA
      ? [update.newSha, '--not', `--exclude=${update.ref}`, '--glob=refs/heads/*']
      : [`${update.oldSha}..${update.newSha}`]
  const total = Number((await gitText(['rev-list', '--count', ...range], { gitDir })).trim()) || 0
  const commits = await logCommits(gitDir, [`--max-count=${PUSH_COMMIT_LIMIT}`, ...range])
  return { commits: commits.reverse(), total }
}

/** Who pushed, as push events name them (flat `user_*` fields). */
function pusherFields(user: UserRow): Json {
  return {
    user_id: user.id,
    user_name: user.name,
    user_username: user.username,
    user_email: user.public_email === '' ? '[REDACTED]' : user.public_email,
    user_avatar: user.avatar_url,
  }
}

/** What a push and a tag push event of one ref update are made of. */
interface RefEvent {
  readonly kind: 'push' | 'tag_push'
  readonly project: ProjectWithNamespaceRow
  readonly user: UserRow
  readonly update: RefUpdate
  readonly checkoutSha: string | null
  readonly message: string | null
  readonly commits: readonly Json[]
  readonly total: number
}

/** The payload both ref events share (GitLab's PushDataBuilder). */
function refEventPayload(baseUrl: string, e: RefEvent): Json {
  return {
    object_kind: e.kind,
    event_name: e.kind,
    before: e.update.oldSha,
    after: e.update.newSha,
    ref: e.update.ref,
    ref_protected: false,
    checkout_sha: e.checkoutSha,
    message: e.message,
    ...pusherFields(e.user),
    project_id: e.project.id,
    project: projectPayload(baseUrl, e.project),
    commits: e.commits,
    total_commits_count: e.total,
    push_options: {},
    repository: repositoryPayload(baseUrl, e.project),
  }
}

/** GitLab's push event (`object_kind: push`) of one branch update. */
export async function pushPayload(
  ctx: ServerContext,
  gitDir: string,
  project: ProjectWithNamespaceRow,
  user: UserRow,
  update: RefUpdate,
): Promise<Json> {
  const baseUrl = ctx.baseUrl()
  const web = projectWebUrl(baseUrl, project)
  const { commits, total } = await pushedCommits(gitDir, update)
  const commitPayloads = await Promise.all(
    commits.map(async (c) => ({ ...commitPayload(web, c), ...(await changedFiles(gitDir, c.id)) })),
  )
  const checkoutSha = update.newSha === ZERO_SHA ? null : update.newSha
  return refEventPayload(baseUrl, {
    kind: 'push',
    project,
    user,
    update,
    checkoutSha,
    message: null,
    commits: commitPayloads,
    total,
  })
}

/** GitLab's tag push event (`object_kind: tag_push`): no commits, the tag's message when it is annotated. */
export async function tagPushPayload(
  ctx: ServerContext,
  gitDir: string,
  project: ProjectWithNamespaceRow,
  user: UserRow,
  update: RefUpdate,
): Promise<Json> {
  if (update.newSha === ZERO_SHA)
    return refEventPayload(ctx.baseUrl(), {
      kind: 'tag_push',
      project,
      user,
      update,
      checkoutSha: null,
      message: null,
      commits: [],
      total: 0,
    })
  const annotation = await gitText(
    ['for-each-ref', '--format=%(if:equals=tag)%(objecttype)%(then)%(contents)%(end)', update.ref],
    { gitDir },
  )
  const checkoutSha = (await gitText(['rev-parse', `${update.newSha}^{commit}`], { gitDir })).trim()
  return refEventPayload(ctx.baseUrl(), {
    kind: 'tag_push',
    project,
    user,
    update,
    checkoutSha,
    message: annotation.trim() || null,
    commits: [],
    total: 0,
  })
}
