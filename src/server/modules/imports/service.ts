import { signedInUser, type Caller } from '../../platform/caller'
import { randomBytes } from 'node:crypto'
import { AccessLevel } from '../../platform/auth/access'
import type { ServerContext } from '../../platform/context'
import type { Db } from '../../platform/db/connection'
import {
  findProjectImport,
  insertImportedMilestone,
  insertProjectImport,
  projectLabelIdByTitle,
  projectMilestoneIdByTitle,
  setImportedIssueState,
  setProjectImportStatus,
  unfinishedProjectImports,
  type ImportType,
  type ProjectImportRow,
} from './queries'
import { findIssueByIid, insertIssueRow, setIssueLabels, type IssueType } from '../issues'
import { insertLabel } from '../labels'
import { findNamespaceByFullPath, findNamespaceById, findProjectById } from '../namespaces'
import { insertNote } from '../notes'
import { updateProjectRow } from '../projects'
import type { NamespaceRow, ProjectRow, UserRow, Visibility } from '../../platform/db/rows'
import { userNamespaceId } from '../users'
import { assertRef, gitText } from '../../platform/git/git'
import {
  fetchAllRefs,
  RemoteFetchError,
  remoteHeadBranch,
  setHeadBranch,
  type RemoteCredentials,
} from '../../platform/git/fetch-remote'
import { ensureProjectRepo } from '../../platform/git/project-repo'
import { ApiError } from '../../platform/http/errors'
import { BlockedUrlError, checkOutboundUrl, outboundPolicy, type CheckedUrl } from '../../platform/outbound/outbound'
import { auditAuthorOf, recordAudit, recordAuditBy, type AuditAuthor } from '../audit-events'
import { backgroundQueue } from '../../platform/background'
import { newDiscussionId } from '../notes'
import { canCreateProjectIn, clampVisibility, createProject } from '../projects'
import { protectDefaultBranch } from '../branches'
import { refreshRepositoryFlags } from '../repository'
import { SourceApi, SourceApiError } from './source'

/** Where `POST /import/hosted_git` reads from when no `custom_hostname` is given. */
export const PUBLIC_HOSTED_GIT = 'https://gitlab.com'

const QUEUE = 'project-imports'
const DEFAULT_LABEL_COLOR = '#6699cc'

/** GitLab's import endpoints answer their errors as `{"errors": "..."}` with the service's status. */
function importError(status: number, message: string): ApiError {
  return new ApiError(status, { errors: message })
}

/**
 * The source's base URL (`http(s)://host[:port][/prefix]`, no trailing slash, no `/api/v4`), or
 * 400 `Invalid URL: …` for anything else (credentials in the URL included: they would be stored).
 */
function sourceBase(raw: string): string {
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    throw importError(400, `Invalid URL: ${raw}`)
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username !== '' ||
    url.password !== '' ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    throw importError(400, `Invalid URL: ${raw}`)
  }
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v4$/, '')
  return `${url.origin}${path}`
}

/**
 * GitLab's 400 `Invalid URL: …` when the outbound guard refuses the source (local while
 * `allow_local_requests_from_web_hooks_and_services` is off, a name that does not resolve, …).
 * Every later request checks again, with the settings of then.
 */
async function assertSourceAllowed(ctx: ServerContext, url: string, raw: string): Promise<void> {
  try {
    await checkOutboundUrl(url, outboundPolicy(ctx))
  } catch (error) {
    if (error instanceof BlockedUrlError) throw importError(400, `Invalid URL: ${raw}`)
    throw error
  }
}

/**
 * The namespace to import into: `target_namespace` (a full path, subgroups allowed) or, when it
 * is not given, the caller's personal namespace. The caller must own the personal namespace or
 * be a Maintainer of the group allowed to create projects there (GitLab 16's importer rule).
 */
function importNamespace(caller: Caller, path: string | undefined): NamespaceRow {
  const { db } = caller
  const user = signedInUser(caller)
  const trimmed = (path ?? '').replace(/^\/+|\/+$/g, '')
  const ns =
    trimmed === '' ? findNamespaceById(db, userNamespaceId(db, user.id) ?? -1) : findNamespaceByFullPath(db, trimmed)
  if (!ns) throw importError(422, 'Namespace or group to import repository into does not exist.')
  const allowed =
    caller.perms.isAdmin ||
    (ns.kind === 'user'
      ? ns.owner_id === user.id
      : caller.perms.groupAccess(ns.id) >= AccessLevel.MAINTAINER && canCreateProjectIn(caller, ns))
  if (!allowed) throw importError(422, 'You are not allowed to import projects in this namespace.')
  return ns
}

/** `name has already been taken` → `Name has already been taken` (Rails' full messages). */
function fullMessages(errors: Readonly<Record<string, readonly string[]>>): string {
  return Object.entries(errors)
    .flatMap(([key, messages]) =>
      messages.map((m) => `${key.charAt(0).toUpperCase()}${key.slice(1).replace(/_/g, ' ')} ${m}`),
    )
    .join(', ')
}

interface NewImportedProject {
  readonly namespace: NamespaceRow
  readonly name: string
  readonly path: string
  readonly description: string | null
  readonly visibility: Visibility
  readonly defaultBranch: string | undefined
  readonly type: ImportType
  readonly source: string
  readonly url: string
}

/**
 * Creates the project to import into (an empty repository, creator membership, the `created`
 * activity event and audit event) and records its import as `scheduled`. Project validation
 * errors become GitLab's 422 `{"errors": "Name has already been taken, …"}`.
 */
async function createImportTarget(
  caller: Caller,
  n: NewImportedProject,
): Promise<{ project: ProjectRow; row: ProjectImportRow }> {
  const { db } = caller
  const user = signedInUser(caller)
  let project: ProjectRow
  try {
    project = await createProject(caller, {
      name: n.name,
      path: n.path,
      namespace: n.namespace,
      creator: user,
      description: n.description,
      visibility: clampVisibility(n.visibility, n.namespace),
      defaultBranch: n.defaultBranch,
      params: {},
    })
  } catch (error) {
    const message = error instanceof ApiError ? error.body?.message : undefined
    if (error instanceof ApiError && error.statusCode === 400 && message !== null && typeof message === 'object') {
      throw importError(422, fullMessages(message as Record<string, string[]>))
    }
    throw error
  }
  const row = db.transaction(() => {
    const inserted = insertProjectImport(db, {
      projectId: project.id,
      type: n.type,
      source: n.source,
      url: n.url,
      correlationId: randomBytes(16).toString('hex'),
      userId: user.id,
    })
    recordAudit(caller, {
      entityType: 'Project',
      entityId: project.id,
      entityPath: `${n.namespace.full_path}/${project.path}`,
      targetDetails: `${n.namespace.full_path}/${project.path}`,
      change: { custom_message: `Started the import of ${n.source} from ${n.url}`, import_type: n.type },
    })
    return inserted
  })()
  return { project, row }
}

/** The source project as GitLab's API returns it (the fields the import uses). */
interface SourceProject {
  readonly id: number
  readonly name: string
  readonly path: string
  readonly path_with_namespace: string
  readonly description: string | null
  readonly visibility?: Visibility
  readonly default_branch: string | null
}

export interface HostedGitParams {
  readonly personal_access_token: string
  readonly repo_id: number
  readonly target_namespace: string
  readonly new_name?: string
  readonly custom_hostname?: string
}

/**
 * `POST /import/hosted_git`: checks the namespace, reads the source project with the token
 * (a source that refuses or is out of reach answers 422, as GitLab's GitHub importer does),
 * creates the project and queues the import of its repository, labels, milestones, issues
 * and notes. Answers at once; the import runs in the background.
 */
export async function startHostedGitImport(
  caller: Caller,
  params: HostedGitParams,
): Promise<{ project: ProjectRow; row: ProjectImportRow }> {
  const { ctx } = caller
  const raw = params.custom_hostname?.trim() ? params.custom_hostname : PUBLIC_HOSTED_GIT
  const base = sourceBase(raw)
  const namespace = importNamespace(caller, params.target_namespace)
  await assertSourceAllowed(ctx, base, raw)
  const api = new SourceApi(base, params.personal_access_token, outboundPolicy(ctx))
  let source: SourceProject
  try {
    source = await api.get<SourceProject>(`/projects/${params.repo_id}`)
  } catch (error) {
    if (error instanceof SourceApiError) {
      const detail = error.status === null ? error.message : `${error.message} (HTTP ${error.status})`
      throw importError(422, `Import failed due to a GitLab error: ${detail}`)
    }
    throw error
  }
  const newName = params.new_name?.trim() || undefined
  const created = await createImportTarget(caller, {
    namespace,
    name: newName ?? source.name,
    path: newName ?? source.path,
    description: source.description ?? null,
    visibility: source.visibility ?? 'private',
    defaultBranch: source.default_branch ?? undefined,
    type: 'hosted_git',
    source: source.path_with_namespace,
    url: base,
  })
  const importer = signedInUser(caller)
  const credentials = { username: 'oauth2', password: params.personal_access_token }
  enqueueImport(ctx, {
    projectId: created.project.id,
    author: auditAuthorOf(caller),
    run: (ctx2, project) => importHostedGit(ctx2, project, api, source, credentials, importer),
  })
  return created
}

export interface GitServerParams {
  readonly git_server_url: string
  readonly git_server_username: string
  readonly personal_access_token: string
  readonly git_server_project: string
  readonly git_server_repo: string
  readonly new_name?: string
  readonly target_namespace?: string
}

/**
 * `POST /import/git_server` (GitLab's Bitbucket Server importer, for any git server): creates
 * the project and queues the clone of `{git_server_url}/{git_server_project}/{git_server_repo}.git`
 * over smart HTTP with basic auth (username and token). Only the repository is imported.
 */
export async function startGitServerImport(
  caller: Caller,
  params: GitServerParams,
): Promise<{ project: ProjectRow; row: ProjectImportRow }> {
  const { ctx } = caller
  const base = sourceBase(params.git_server_url)
  const namespace = importNamespace(caller, params.target_namespace)
  await assertSourceAllowed(ctx, base, params.git_server_url)
  const projectKey = params.git_server_project.trim().replace(/^\/+|\/+$/g, '')
  const repo = params.git_server_repo
    .trim()
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/, '')
  if (projectKey === '' || repo === '' || /(^|\/)\.\.?(\/|$)/.test(`${projectKey}/${repo}`))
    throw importError(400, 'Invalid repository: git_server_project and git_server_repo must name a repository')
  const newName = params.new_name?.trim() || undefined
  const created = await createImportTarget(caller, {
    namespace,
    name: newName ?? repo,
    path: newName ?? repo,
    description: null,
    visibility: 'private',
    defaultBranch: undefined,
    type: 'git_server',
    source: `${projectKey}/${repo}`,
    url: base,
  })
  const cloneUrl = `${base}/${projectKey.split('/').map(encodeURIComponent).join('/')}/${encodeURIComponent(repo)}.git`
  const credentials = { username: params.git_server_username, password: params.personal_access_token }
  enqueueImport(ctx, {
    projectId: created.project.id,
    author: auditAuthorOf(caller),
    run: async (ctx2, project) => {
      const remote = await checkedRemote(ctx2, cloneUrl)
      // A git server has no API to name its default branch: its HEAD does, as GitLab's importers read it.
      const head = await remoteHeadBranch(remote, credentials).catch(fetchFailure)
      await importRepository(ctx2, project, remote, credentials, head)
      return {}
    },
  })
  return created
}

interface ImportJob {
  readonly projectId: number
  readonly author: AuditAuthor
  /** Does the work; returns the counts of what it imported. Credentials live only in this closure. */
  readonly run: (ctx: ServerContext, project: ProjectRow) => Promise<Record<string, number>>
}

function enqueueImport(ctx: ServerContext, job: ImportJob): void {
  backgroundQueue(ctx, QUEUE).push(() => runImport(ctx, job))
}

function auditImport(db: Db, author: AuditAuthor, project: ProjectRow, message: string): void {
  const ns = findNamespaceById(db, project.namespace_id)
  const path = `${ns?.full_path ?? ''}/${project.path}`
  recordAuditBy(db, author, {
    entityType: 'Project',
    entityId: project.id,
    entityPath: path,
    targetDetails: path,
    change: { custom_message: message },
  })
}

/** `scheduled` → `started` → `finished`, or `failed` with the reason in `import_error`. */
async function runImport(ctx: ServerContext, job: ImportJob): Promise<void> {
  const { db } = ctx
  const project = findProjectById(db, job.projectId)
  if (!project) return
  setProjectImportStatus(db, project.id, 'started')
  try {
    const stats = await job.run(ctx, project)
    db.transaction(() => {
      setProjectImportStatus(db, project.id, 'finished', { stats })
      auditImport(db, job.author, project, 'Finished the import')
    })()
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    if (!findProjectById(db, project.id)) return
    db.transaction(() => {
      setProjectImportStatus(db, project.id, 'failed', { error: reason })
      auditImport(db, job.author, project, `The import failed: ${reason}`)
    })()
  }
}

/** A failed fetch from the source, as the import's `import_error` says it. */
function fetchFailure(error: unknown): never {
  if (error instanceof RemoteFetchError || error instanceof BlockedUrlError)
    throw new Error(`Could not fetch the repository: ${error.message}`, { cause: error })
  throw error
}

/** The repository's URL checked by the outbound guard when the job runs, with the settings of then. */
function checkedRemote(ctx: ServerContext, url: string): Promise<CheckedUrl> {
  return checkOutboundUrl(url, outboundPolicy(ctx)).catch(fetchFailure)
}

/**
 * Fetches every branch and tag into the project's repository, points HEAD (and the project's
 * default branch) at the source's default branch, or failing that at `main`, `master` or the
 * first branch, and refreshes what project lists show about the repository.
 */
async function importRepository(
  ctx: ServerContext,
  project: ProjectRow,
  remote: CheckedUrl,
  credentials: RemoteCredentials,
  defaultBranch: string | null,
): Promise<void> {
  const gitDir = await ensureProjectRepo(ctx, project)
  await fetchAllRefs(gitDir, remote, credentials).catch(fetchFailure)
  const branches = (await gitText(['for-each-ref', '--format=%(refname:lstrip=2)', 'refs/heads/'], { gitDir }))
    .split('\n')
    .filter(Boolean)
  const wanted = [defaultBranch, project.default_branch, 'main', 'master', branches[0]].find(
    (b): b is string => typeof b === 'string' && branches.includes(b),
  )
  if (wanted) {
    assertRef(wanted)
    await setHeadBranch(gitDir, wanted)
    if (wanted !== project.default_branch) {
      const updated = updateProjectRow(ctx.db, project.id, { default_branch: wanted })
      protectDefaultBranch(ctx.db, updated, wanted)
    }
  }
  await refreshRepositoryFlags(ctx, findProjectById(ctx.db, project.id) ?? project)
}

interface SourceLabel {
  readonly name: string
  readonly color: string
  readonly description: string | null
}
interface SourceMilestone {
  readonly iid: number
  readonly title: string
  readonly description: string | null
  readonly state: 'active' | 'closed'
  readonly due_date: string | null
  readonly start_date: string | null
  readonly created_at: string
  readonly updated_at: string
}
interface SourceUserRef {
  readonly username: string
}
interface SourceIssue {
  readonly iid: number
  readonly title: string
  readonly description: string | null
  readonly state: 'opened' | 'closed'
  readonly created_at: string
  readonly updated_at: string
  readonly closed_at: string | null
  readonly labels: readonly string[]
  readonly milestone: { readonly title: string } | null
  readonly author: SourceUserRef
  readonly confidential?: boolean
  readonly issue_type?: string
  readonly due_date?: string | null
  readonly weight?: number | null
  readonly discussion_locked?: boolean | null
}
interface SourceNote {
  readonly body: string
  readonly system: boolean
  readonly created_at: string
  readonly updated_at: string
  readonly author: SourceUserRef
  readonly internal?: boolean
  readonly confidential?: boolean
}

/** What imported items say about who wrote them: the source's username, as GitLab's importers do for unmapped users. */
function attributed(username: string, text: string | null): string {
  const line = `*Created by: ${username}*`
  return text && text !== '' ? `${line}\n\n${text}` : line
}

const ISSUE_TYPES: readonly IssueType[] = ['issue', 'incident', 'test_case']

/**
 * The GitLab-compatible import: repository first, then labels (as project labels), milestones
 * and issues with their iids, states, times, labels, milestones and non-system notes, page by
 * page through the source's API. Items are authored by the importing user with the source
 * author named in the text (users are not matched across instances).
 */
async function importHostedGit(
  ctx: ServerContext,
  project: ProjectRow,
  api: SourceApi,
  source: SourceProject,
  credentials: RemoteCredentials,
  importer: UserRow,
): Promise<Record<string, number>> {
  const { db } = ctx
  const remote = await checkedRemote(
    ctx,
    `${api.baseUrl}/${source.path_with_namespace.split('/').map(encodeURIComponent).join('/')}.git`,
  )
  await importRepository(ctx, project, remote, credentials, source.default_branch)
  const stats = { labels: 0, milestones: 0, issues: 0, notes: 0 }
  const sourceId = encodeURIComponent(String(source.id))

  for await (const page of api.pages<SourceLabel>(`/projects/${sourceId}/labels`, {
    include_ancestor_groups: 'true',
  })) {
    db.transaction(() => {
      for (const label of page) {
        if (projectLabelIdByTitle(db, project.id, label.name) !== undefined) continue
        insertLabel(db, {
          title: label.name,
          color: label.color || DEFAULT_LABEL_COLOR,
          description: label.description ?? null,
          projectId: project.id,
        })
        stats.labels += 1
      }
    })()
  }

  for await (const page of api.pages<SourceMilestone>(`/projects/${sourceId}/milestones`)) {
    db.transaction(() => {
      for (const m of page) {
        if (projectMilestoneIdByTitle(db, project.id, m.title) !== undefined) continue
        insertImportedMilestone(db, {
          projectId: project.id,
          iid: m.iid,
          title: m.title,
          description: m.description ?? null,
          state: m.state === 'closed' ? 'closed' : 'active',
          dueDate: m.due_date ?? null,
          startDate: m.start_date ?? null,
          createdAt: m.created_at,
          updatedAt: m.updated_at,
        })
        stats.milestones += 1
      }
    })()
  }

  for await (const page of api.pages<SourceIssue>(`/projects/${sourceId}/issues`, {
    scope: 'all',
    state: 'all',
    order_by: 'created_at',
    sort: 'asc',
  })) {
    for (const issue of page) {
      if (findIssueByIid(db, project.id, issue.iid)) continue
      const notes: SourceNote[] = []
      for await (const notePage of api.pages<SourceNote>(`/projects/${sourceId}/issues/${issue.iid}/notes`, {
        sort: 'asc',
        order_by: 'created_at',
      })) {
        notes.push(...notePage.filter((n) => !n.system))
      }
      db.transaction(() => {
        const labelIds = issue.labels.map((title) => {
          const existing = projectLabelIdByTitle(db, project.id, title)
          if (existing !== undefined) return existing
          stats.labels += 1
          return insertLabel(db, { title, color: DEFAULT_LABEL_COLOR, description: null, projectId: project.id }).id
        })
        const row = insertIssueRow(db, {
          projectId: project.id,
          authorId: importer.id,
          title: issue.title,
          description: attributed(issue.author.username, issue.description),
          confidential: issue.confidential === true,
          issueType: ISSUE_TYPES.includes(issue.issue_type as IssueType) ? (issue.issue_type as IssueType) : 'issue',
          milestoneId: issue.milestone
            ? (projectMilestoneIdByTitle(db, project.id, issue.milestone.title) ?? null)
            : null,
          dueDate: issue.due_date ?? null,
          weight: typeof issue.weight === 'number' ? issue.weight : null,
          discussionLocked: issue.discussion_locked ?? null,
          iid: issue.iid,
          createdAt: issue.created_at,
        })
        setIssueLabels(db, row.id, labelIds)
        setImportedIssueState(
          db,
          row.id,
          issue.state === 'closed' ? 'closed' : 'opened',
          issue.state === 'closed' ? (issue.closed_at ?? issue.updated_at) : null,
          issue.updated_at,
          null,
        )
        for (const note of notes) {
          insertNote(db, {
            noteableType: 'Issue',
            noteableId: row.id,
            projectId: project.id,
            authorId: importer.id,
            body: attributed(note.author.username, note.body),
            type: null,
            discussionId: newDiscussionId(),
            internal: note.internal === true || note.confidential === true,
            createdAt: note.created_at,
            updatedAt: note.updated_at,
          })
          stats.notes += 1
        }
        stats.issues += 1
      })()
    }
  }
  return stats
}

/**
 * Marks the imports a previous run of the server left unfinished as failed: the source's token
 * was never stored, so they cannot resume. The project keeps what had been imported.
 */
export function failInterruptedImports(ctx: ServerContext): void {
  for (const row of unfinishedProjectImports(ctx.db)) {
    setProjectImportStatus(ctx.db, row.project_id, 'failed', {
      error: 'The import was interrupted: the server stopped before it finished. Import the project again.',
    })
  }
}

/** Resolves when no import is running or waiting. */
export function importsIdle(ctx: ServerContext): Promise<void> {
  return backgroundQueue(ctx, QUEUE).idle()
}

/** Keeps queued imports from starting until the returned release is called. */
export function holdImports(ctx: ServerContext): () => void {
  return backgroundQueue(ctx, QUEUE).hold()
}

/** Stops taking imports and waits for the running one (the server is closing). */
export function stopImports(ctx: ServerContext): Promise<void> {
  return backgroundQueue(ctx, QUEUE).close()
}

/** The import of a project, for `GET /projects/:id/import`. */
export function projectImportOf(ctx: ServerContext, project: ProjectRow): ProjectImportRow | undefined {
  return findProjectImport(ctx.db, project.id)
}
