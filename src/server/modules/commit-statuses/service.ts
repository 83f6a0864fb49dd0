import type { CommitStatus, CommitStatusState } from '../../../shared/api/commit-status'
import { signedInUser, type Caller } from '../../platform/caller'
import { nowIso } from '../../platform/db/connection'
import type { ProjectWithNamespaceRow } from '../../platform/db/platform-queries'
import { readCommit, type GitCommit } from '../../platform/git/commits'
import { ZERO_SHA } from '../../platform/git/git'
import { refsContaining } from '../../platform/git/refs'
import { apiMessage, FieldErrors, forbidden, notFound, validationFailed } from '../../platform/http/errors'
import type { CodeProject } from '../../platform/http/repository'
import { exceeds, tooLong } from '../../platform/text/limits'
import { hasAccess, listProtectedBranches, rulesFor } from '../branches'
import {
  insertPipeline,
  isProtectedRef,
  processPipeline,
  type CiStatus,
  type JobRow,
  type PipelineRow,
} from '../pipelines'
import { userRef, usersByIds } from '../users'
import { commitStatusEntity } from './entity'
import { canCreateCommitStatus, canReadCommitStatuses } from './policy'
import {
  findCommitStatus,
  findOpenExternalStatus,
  insertExternalStatus,
  listCommitStatuses,
  newestCommitPipeline,
  pipelineHasBuildNamed,
  updateExternalStatus,
  type CommitStatusRow,
  type ExternalStatusFields,
  type StatusFilter,
} from './queries'
import { isHttpUrl } from '../../platform/text/urls'

/** A status as external CI posts it (`POST /projects/:id/statuses/:sha`). */
export interface PostedStatus {
  readonly state: CommitStatusState
  readonly ref?: string
  /** `name`, else `context` (GitHub's word), else `default`. */
  readonly name: string
  readonly targetUrl?: string
  readonly description?: string
  readonly coverage?: number
  readonly pipelineId?: number
}

/** GitLab's limit on a status's ref, link and description. */
const MAX_FIELD = 255

/** Refuses reading statuses to whoever may not read the project's pipelines (403). */
export function assertMayReadCommitStatuses(caller: Caller, project: ProjectWithNamespaceRow): void {
  if (!canReadCommitStatuses(caller.perms, project)) throw forbidden()
}

/** The commit `rev` names in the repository, or 404 `Commit Not Found`. */
async function commitOf(repo: CodeProject, rev: string): Promise<GitCommit> {
  if (!repo.exists) throw notFound('Commit')
  return readCommit(repo.gitDir, rev).catch(() => {
    throw notFound('Commit')
  })
}

/** Serialises statuses with their authors, loaded once for the page. */
function present(caller: Caller, rows: readonly CommitStatusRow[]): CommitStatus[] {
  const ids = [...new Set(rows.map((r) => r.user_id).filter((id): id is number => id !== null))]
  const users = usersByIds(caller.db, ids)
  return rows.map((row) => {
    const author = row.user_id === null ? undefined : users.get(row.user_id)
    return commitStatusEntity(row, author ? userRef(author, caller.baseUrl) : null)
  })
}

/** One page of a commit's statuses (GitLab's `GET …/repository/commits/:sha/statuses`), with the total. */
export async function commitStatuses(
  caller: Caller,
  repo: CodeProject,
  rev: string,
  filter: Omit<StatusFilter, 'projectId' | 'sha'>,
  page: { readonly limit: number; readonly offset: number },
): Promise<{ statuses: CommitStatus[]; total: number }> {
  assertMayReadCommitStatuses(caller, repo.project)
  const commit = await commitOf(repo, rev)
  const { rows, total } = listCommitStatuses(caller.db, { ...filter, projectId: repo.project.id, sha: commit.id }, page)
  return { statuses: present(caller, rows), total }
}

/**
 * GitLab's update_pipeline on a pipeline of a protected branch: only those who may push or merge
 * there change it (403).
 */
function assertMayUpdatePipelineOf(caller: Caller, project: ProjectWithNamespaceRow, ref: string): void {
  const rules = rulesFor(listProtectedBranches(caller.db, project.id), ref)
  if (rules.length === 0) return
  if (hasAccess(caller.perms, project, rules, 'push') || hasAccess(caller.perms, project, rules, 'merge')) return
  throw forbidden()
}

/** GitLab's checks of the status's own fields, all reported together (400 `{"message": {field: [...]}}`). */
function checkFields(status: PostedStatus, ref: string): void {
  const errors = new FieldErrors()
  if (exceeds(ref, MAX_FIELD)) errors.add('ref', tooLong(MAX_FIELD))
  if (status.targetUrl !== undefined) {
    if (!isHttpUrl(status.targetUrl)) errors.add('target_url', 'must be a valid URL')
    else if (exceeds(status.targetUrl, MAX_FIELD)) errors.add('target_url', tooLong(MAX_FIELD))
  }
  if (status.description !== undefined && exceeds(status.description, MAX_FIELD))
    errors.add('description', tooLong(MAX_FIELD))
  errors.throwIfAny()
}

/** The event GitLab's state machine fires for each posted state. */
const EVENT_OF: Readonly<Record<CommitStatusState, string>> = {
  pending: 'enqueue',
  running: 'run',
  success: 'success',
  failed: 'drop',
  canceled: 'cancel',
  skipped: 'skip',
}

/**
 * The fields an external status takes for `state`, from `current` (null for a new status, which
 * starts `created`). An open status may not be posted pending again, nor running or skipped once
 * it runs: 400 with the state machine's message, as GitLab answers.
 */
function transition(
  current: JobRow | null,
  status: PostedStatus,
  now: string,
): Omit<ExternalStatusFields, 'targetUrl' | 'description' | 'coverage'> {
  const from: CiStatus = current?.status ?? 'created'
  const invalid =
    (status.state === 'pending' && from !== 'created') ||
    (status.state === 'running' && from === 'running') ||
    (status.state === 'skipped' && from === 'running')
  if (invalid) {
    const event = EVENT_OF[status.state]
    throw apiMessage(
      400,
      `Cannot transition status via :${event} from :${from} (Reason(s): Status cannot transition via "${event}")`,
    )
  }
  const queuedAt = current?.queued_at ?? now
  const startedAt = status.state === 'running' ? now : (current?.started_at ?? null)
  const finishedAt = status.state === 'pending' || status.state === 'running' ? null : now
  return { status: status.state, queuedAt, startedAt, finishedAt }
}

/** The ref a status is for: the one given, the matching pipeline's, else the first branch holding the commit. */
async function refOf(
  repo: CodeProject,
  commit: GitCommit,
  given: string | undefined,
  pipeline: PipelineRow | undefined,
): Promise<string> {
  if (given !== undefined) return given
  if (pipeline) return pipeline.ref
  const branches = await refsContaining(repo.gitDir, commit.id, 'branch')
  if (branches.length === 0) throw notFound('References for commit')
  return branches[0].name
}

/** A pipeline of source `external` for the commit, for statuses no pipeline of the commit takes. */
function createExternalPipeline(caller: Caller, repo: CodeProject, commit: GitCommit, ref: string): PipelineRow {
  const user = signedInUser(caller)
  return insertPipeline(
    caller.db,
    {
      projectId: repo.project.id,
      ref,
      tag: false,
      sha: commit.id,
      beforeSha: ZERO_SHA,
      protected: isProtectedRef(caller.ctx, repo.project, ref, false),
      status: 'created',
      source: 'external',
      userId: user.id,
      yamlErrors: null,
      failureReason: null,
      commitJson: JSON.stringify(commit),
      encryptedVariables: caller.ctx.secrets.seal('[]'),
      mergeRequestId: null,
      committedAt: commit.committedDate,
    },
    [],
  )
}

/**
 * Creates or updates an external status of a commit (GitLab's CreateCommitStatusService): it joins
 * the newest pipeline of the commit (on `ref`, with id `pipelineId`, when given) or a new
 * `external` pipeline; a pending or running status of the same name and user is updated, else a
 * new one is added. The pipeline's status follows. Everything is checked before anything is written.
 */
export async function postCommitStatus(
  caller: Caller,
  repo: CodeProject,
  rev: string,
  status: PostedStatus,
): Promise<CommitStatus> {
  const user = signedInUser(caller)
  if (!canCreateCommitStatus(caller.perms, repo.project)) throw forbidden()
  const commit = await commitOf(repo, rev)
  const matching = newestCommitPipeline(caller.db, repo.project.id, commit.id, status.ref, status.pipelineId)
  if (status.pipelineId !== undefined && !matching) throw notFound('Pipeline for pipeline_id, sha and ref')
  const ref = await refOf(repo, commit, status.ref, matching)
  assertMayUpdatePipelineOf(caller, repo.project, ref)
  checkFields(status, ref)
  if (matching && pipelineHasBuildNamed(caller.db, matching.id, status.name))
    throw validationFailed({ name: ['has already been taken'] })
  const open = matching ? (findOpenExternalStatus(caller.db, matching.id, status.name, user.id) ?? null) : null
  const now = nowIso()
  const fields: ExternalStatusFields = {
    ...transition(open, status, now),
    targetUrl: status.targetUrl ?? open?.target_url ?? null,
    description: status.description ?? open?.description ?? null,
    coverage: status.coverage ?? open?.coverage ?? null,
  }
  const id = caller.db.transaction(() => {
    if (open) {
      updateExternalStatus(caller.db, open.id, fields)
      return open.id
    }
    const pipeline = matching ?? createExternalPipeline(caller, repo, commit, ref)
    return insertExternalStatus(caller.db, pipeline, status.name, user.id, fields)
  })()
  const job = findCommitStatus(caller.db, id) as CommitStatusRow
  await processPipeline(caller.ctx, job.pipeline_id, caller, [{ job, previous: open?.status ?? 'created' }])
  return present(caller, [findCommitStatus(caller.db, id) as CommitStatusRow])[0]
}
