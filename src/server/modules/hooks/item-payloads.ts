import type { IssueRow } from '../issues'
import type { MergeRequestRow } from '../merge-requests'
import type { NoteRow } from '../notes'
import type { JobRow, PipelineRow } from '../pipelines'
import type { ReleaseRow } from '../releases'
import type { ServerContext } from '../../platform/context'
import type { Db } from '../../platform/db/connection'
import {
  findProjectWithNamespace,
  findUserById,
  type ProjectWithNamespaceRow,
} from '../../platform/db/platform-queries'
import type { UserRow } from '../../platform/db/rows'
import type { GitCommit } from '../../platform/git/commits'
import { readCommit } from '../../platform/git/commits'
import { projectGitDir, repoExists } from '../../platform/git/project-repo'
import { issueById, itemLabels, itemUsers, mergeRequestById, releaseLinks, type HookLabelRow } from './item-queries'
import { commitPayload, projectPayload, projectWebUrl, repositoryPayload, userPayload } from './payloads'

/**
 * GitLab's issue, merge request, note, pipeline and job event payloads (Webhook events
 * reference), read from the rows as they are when the event is delivered.
 */

type Json = Record<string, unknown>

/** What an item event says happened (GitLab's `object_attributes.action`). */
export type ItemAction = 'open' | 'close' | 'reopen' | 'update' | 'merge' | 'approved'

function labelPayload(label: HookLabelRow): Json {
  return {
    id: label.id,
    title: label.title,
    color: label.color,
    project_id: label.project_id,
    created_at: label.created_at,
    updated_at: label.updated_at,
    template: false,
    description: label.description,
    type: label.project_id === null ? 'GroupLabel' : 'ProjectLabel',
    group_id: label.group_id,
  }
}

/** The short repository object of item events. */
function shortRepository(baseUrl: string, project: ProjectWithNamespaceRow): Json {
  const { name, url, description, homepage } = repositoryPayload(baseUrl, project)
  return { name, url, description, homepage }
}

const ISSUE_STATE_ID = { opened: 1, closed: 2 } as const
const MERGE_REQUEST_STATE_ID = { opened: 1, closed: 2, merged: 3, locked: 4 } as const

/** Whether an issue event is confidential (it then goes only to hooks that take confidential issues). */
export function isConfidentialIssue(issue: IssueRow): boolean {
  return issue.confidential === 1
}

function issueAttributes(db: Db, web: string, issue: IssueRow, labels: readonly Json[]): Json {
  const assignees = itemUsers(db, 'issue_assignees', issue.id)
  return {
    author_id: issue.author_id,
    closed_at: issue.closed_at,
    confidential: issue.confidential === 1,
    created_at: issue.created_at,
    description: issue.description,
    discussion_locked: issue.discussion_locked === null ? null : issue.discussion_locked === 1,
    due_date: issue.due_date,
    id: issue.id,
    iid: issue.iid,
    last_edited_at: issue.last_edited_at,
    last_edited_by_id: issue.last_edited_by_id,
    milestone_id: issue.milestone_id,
    moved_to_id: issue.moved_to_id,
    duplicated_to_id: issue.duplicated_to_id,
    project_id: issue.project_id,
    relative_position: issue.relative_position,
    state_id: ISSUE_STATE_ID[issue.state as keyof typeof ISSUE_STATE_ID] ?? 1,
    time_estimate: issue.time_estimate,
    title: issue.title,
    updated_at: issue.updated_at,
    weight: issue.weight,
    health_status: issue.health_status,
    type: 'Issue',
    url: `${web}/-/issues/${issue.iid}`,
    assignee_ids: assignees.map((u) => u.id),
    assignee_id: assignees[0]?.id ?? null,
    labels,
    state: issue.state,
    severity: 'unknown',
  }
}

/** GitLab's issue event (`object_kind: issue`, `event_type: confidential_issue` for a confidential one). */
export function issuePayload(
  ctx: ServerContext,
  project: ProjectWithNamespaceRow,
  user: UserRow,
  issue: IssueRow,
  action: ItemAction,
): Json {
  const baseUrl = ctx.baseUrl()
  const labels = itemLabels(ctx.db, 'Issue', issue.id).map(labelPayload)
  return {
    object_kind: 'issue',
    event_type: isConfidentialIssue(issue) ? 'confidential_issue' : 'issue',
    user: userPayload(user),
    project: projectPayload(baseUrl, project),
    object_attributes: { ...issueAttributes(ctx.db, projectWebUrl(baseUrl, project), issue, labels), action },
    labels,
    changes: {},
    repository: shortRepository(baseUrl, project),
    assignees: itemUsers(ctx.db, 'issue_assignees', issue.id).map(userPayload),
  }
}

/** The merge request's head commit in its source project, or null when git cannot read it. */
async function lastCommit(ctx: ServerContext, mr: MergeRequestRow): Promise<GitCommit | null> {
  const source = mr.source_project_id === null ? undefined : findProjectWithNamespace(ctx.db, mr.source_project_id)
  if (!source || !mr.head_sha) return null
  const gitDir = projectGitDir(ctx, source)
  if (!repoExists(gitDir)) return null
  return readCommit(gitDir, mr.head_sha).catch(() => null)
}

async function mergeRequestAttributes(ctx: ServerContext, web: string, mr: MergeRequestRow, labels: readonly Json[]) {
  const baseUrl = ctx.baseUrl()
  const source = mr.source_project_id === null ? undefined : findProjectWithNamespace(ctx.db, mr.source_project_id)
  const target = findProjectWithNamespace(ctx.db, mr.project_id)
  const commit = await lastCommit(ctx, mr)
  const assignees = itemUsers(ctx.db, 'merge_request_assignees', mr.id)
  const draft = /^\s*(\[draft\]|\(draft\)|draft:|draft\s-\s)/i.test(mr.title)
  return {
    assignee_id: assignees[0]?.id ?? null,
    author_id: mr.author_id,
    created_at: mr.created_at,
    description: mr.description,
    draft,
    id: mr.id,
    iid: mr.iid,
    merge_commit_sha: mr.merge_commit_sha,
    merge_error: mr.merge_error,
    merge_status: mr.merge_status,
    merge_user_id: mr.merged_by_id,
    merge_when_pipeline_succeeds: mr.merge_when_pipeline_succeeds === 1,
    milestone_id: mr.milestone_id,
    source_branch: mr.source_branch,
    source_project_id: mr.source_project_id,
    state_id: MERGE_REQUEST_STATE_ID[mr.state],
    target_branch: mr.target_branch,
    target_project_id: mr.project_id,
    time_estimate: mr.time_estimate,
    title: mr.title,
    updated_at: mr.updated_at,
    url: `${web}/-/merge_requests/${mr.iid}`,
    source: source ? projectPayload(baseUrl, source) : null,
    target: target ? projectPayload(baseUrl, target) : null,
    last_commit: commit ? commitPayload(web, commit) : null,
    work_in_progress: draft,
    assignee_ids: assignees.map((u) => u.id),
    reviewer_ids: itemUsers(ctx.db, 'merge_request_reviewers', mr.id).map((u) => u.id),
    labels,
    state: mr.state,
  }
}

/** GitLab's merge request event (`object_kind: merge_request`). */
export async function mergeRequestPayload(
  ctx: ServerContext,
  project: ProjectWithNamespaceRow,
  user: UserRow,
  mr: MergeRequestRow,
  action: ItemAction,
): Promise<Json> {
  const baseUrl = ctx.baseUrl()
  const labels = itemLabels(ctx.db, 'MergeRequest', mr.id).map(labelPayload)
  const attributes = await mergeRequestAttributes(ctx, projectWebUrl(baseUrl, project), mr, labels)
  return {
    object_kind: 'merge_request',
    event_type: 'merge_request',
    user: userPayload(user),
    project: projectPayload(baseUrl, project),
    object_attributes: { ...attributes, action },
    labels,
    changes: {},
    repository: shortRepository(baseUrl, project),
    assignees: itemUsers(ctx.db, 'merge_request_assignees', mr.id).map(userPayload),
    reviewers: itemUsers(ctx.db, 'merge_request_reviewers', mr.id).map(userPayload),
  }
}

/** Whether a note event is confidential: an internal note, or any note on a confidential issue. */
export function isConfidentialNote(db: Db, note: NoteRow): boolean {
  if (note.internal === 1) return true
  return note.noteable_type === 'Issue' && issueById(db, note.noteable_id)?.confidential === 1
}

/** The noteable as note events embed it (`issue`, `merge_request`), and the note's URL. */
async function notedItem(
  ctx: ServerContext,
  web: string,
  note: NoteRow,
): Promise<{ key: string; value: Json; url: string } | null> {
  if (note.noteable_type === 'Issue') {
    const issue = issueById(ctx.db, note.noteable_id)
    if (!issue) return null
    const labels = itemLabels(ctx.db, 'Issue', issue.id).map(labelPayload)
    return { key: 'issue', value: issueAttributes(ctx.db, web, issue, labels), url: `${web}/-/issues/${issue.iid}` }
  }
  if (note.noteable_type === 'MergeRequest') {
    const mr = mergeRequestById(ctx.db, note.noteable_id)
    if (!mr) return null
    const labels = itemLabels(ctx.db, 'MergeRequest', mr.id).map(labelPayload)
    return {
      key: 'merge_request',
      value: await mergeRequestAttributes(ctx, web, mr, labels),
      url: `${web}/-/merge_requests/${mr.iid}`,
    }
  }
  return null
}

/** GitLab's note event (`object_kind: note`), for comments on issues and merge requests. */
export async function notePayload(
  ctx: ServerContext,
  project: ProjectWithNamespaceRow,
  user: UserRow,
  note: NoteRow,
): Promise<Json | null> {
  const baseUrl = ctx.baseUrl()
  const web = projectWebUrl(baseUrl, project)
  const item = await notedItem(ctx, web, note)
  if (!item) return null
  return {
    object_kind: 'note',
    event_type: isConfidentialNote(ctx.db, note) ? 'confidential_note' : 'note',
    user: userPayload(user),
    project_id: project.id,
    project: projectPayload(baseUrl, project),
    object_attributes: {
      attachment: null,
      author_id: note.author_id,
      created_at: note.created_at,
      discussion_id: note.discussion_id,
      id: note.id,
      note: note.body,
      description: note.body,
      noteable_id: note.noteable_id,
      noteable_type: note.noteable_type,
      project_id: note.project_id,
      resolved_at: note.resolved_at,
      resolved_by_id: note.resolved_by_id,
      system: note.system === 1,
      type: note.type,
      updated_at: note.updated_at,
      internal: note.internal === 1,
      url: `${item.url}#note_${note.id}`,
      action: 'create',
    },
    repository: shortRepository(baseUrl, project),
    [item.key]: item.value,
  }
}

function seconds(from: string | null, to: string | null): number | null {
  if (!from || !to) return null
  return Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000)
}

function pipelineCommit(web: string, pipeline: PipelineRow): Json | null {
  try {
    return commitPayload(web, JSON.parse(pipeline.commit_json) as GitCommit)
  } catch {
    return null
  }
}

function jobSummary(db: Db, job: JobRow): Json {
  const user = job.user_id === null ? undefined : findUserById(db, job.user_id)
  return {
    id: job.id,
    stage: job.stage,
    name: job.name,
    status: job.status,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
    duration: seconds(job.started_at, job.finished_at),
    queued_duration: seconds(job.queued_at, job.started_at),
    failure_reason: job.failure_reason,
    when: job.when,
    manual: job.when === 'manual',
    allow_failure: job.allow_failure === 1,
    user: user ? userPayload(user) : null,
    runner: null,
    artifacts_file: { filename: null, size: null },
    environment: job.environment === null ? null : { name: job.environment, action: 'start' },
  }
}

/** GitLab's pipeline event (`object_kind: pipeline`) with the pipeline's jobs as `builds`. */
export function pipelinePayload(
  ctx: ServerContext,
  project: ProjectWithNamespaceRow,
  pipeline: PipelineRow,
  jobs: readonly JobRow[],
): Json {
  const baseUrl = ctx.baseUrl()
  const web = projectWebUrl(baseUrl, project)
  const user = pipeline.user_id === null ? undefined : findUserById(ctx.db, pipeline.user_id)
  return {
    object_kind: 'pipeline',
    object_attributes: {
      id: pipeline.id,
      iid: pipeline.iid,
      name: null,
      ref: pipeline.ref,
      tag: pipeline.tag === 1,
      sha: pipeline.sha,
      before_sha: pipeline.before_sha,
      source: pipeline.source,
      status: pipeline.status,
      detailed_status: pipeline.status,
      stages: [...new Set(jobs.map((j) => j.stage))],
      created_at: pipeline.created_at,
      finished_at: pipeline.finished_at,
      duration: seconds(pipeline.started_at, pipeline.finished_at),
      queued_duration: seconds(pipeline.created_at, pipeline.started_at),
      variables: [],
      url: `${web}/-/pipelines/${pipeline.id}`,
    },
    merge_request: null,
    user: user ? userPayload(user) : null,
    project: projectPayload(baseUrl, project),
    commit: pipelineCommit(web, pipeline),
    builds: jobs.map((job) => jobSummary(ctx.db, job)),
  }
}

/** GitLab's job event (`object_kind: build`). */
export function jobPayload(
  ctx: ServerContext,
  project: ProjectWithNamespaceRow,
  pipeline: PipelineRow,
  job: JobRow,
): Json {
  const baseUrl = ctx.baseUrl()
  const web = projectWebUrl(baseUrl, project)
  const user = job.user_id === null ? undefined : findUserById(ctx.db, job.user_id)
  const commit = pipelineCommit(web, pipeline)
  return {
    object_kind: 'build',
    ref: pipeline.ref,
    tag: pipeline.tag === 1,
    before_sha: pipeline.before_sha,
    sha: pipeline.sha,
    build_id: job.id,
    build_name: job.name,
    build_stage: job.stage,
    build_status: job.status,
    build_created_at: job.created_at,
    build_started_at: job.started_at,
    build_finished_at: job.finished_at,
    build_duration: seconds(job.started_at, job.finished_at),
    build_queued_duration: seconds(job.queued_at, job.started_at),
    build_allow_failure: job.allow_failure === 1,
    build_failure_reason: job.failure_reason ?? 'unknown_failure',
    retries_count: 0,
    pipeline_id: pipeline.id,
    project_id: project.id,
    project_name: `${project.ns_name} / ${project.name}`,
    user: user ? userPayload(user) : null,
    commit: {
      id: pipeline.id,
      name: null,
      sha: pipeline.sha,
      message: commit?.message ?? null,
      author_name: (commit?.author as Json | undefined)?.name ?? null,
      author_email: (commit?.author as Json | undefined)?.email ?? null,
      status: pipeline.status,
      duration: seconds(pipeline.started_at, pipeline.finished_at),
      started_at: pipeline.started_at,
      finished_at: pipeline.finished_at,
    },
    repository: repositoryPayload(baseUrl, project),
    project: projectPayload(baseUrl, project),
    runner: null,
    environment: job.environment === null ? null : { name: job.environment, action: 'start' },
  }
}

/** GitLab's release event (`object_kind: release`): the release, its assets and its commit. */
export async function releasePayload(
  ctx: ServerContext,
  project: ProjectWithNamespaceRow,
  release: ReleaseRow,
  action: 'create' | 'update' | 'delete',
): Promise<Json> {
  const baseUrl = ctx.baseUrl()
  const web = projectWebUrl(baseUrl, project)
  const links = releaseLinks(ctx.db, release.id).map((l) => ({
    id: l.id,
    link_type: l.link_type,
    name: l.name,
    url: l.url,
  }))
  const archive = (format: string) => ({
    format,
    url: `${web}/-/archive/${release.tag}/${project.path}-${release.tag}.${format}`,
  })
  const sources = ['zip', 'tar.gz', 'tar.bz2', 'tar'].map(archive)
  const gitDir = projectGitDir(ctx, project)
  const commit = release.sha && repoExists(gitDir) ? await readCommit(gitDir, release.sha).catch(() => null) : null
  return {
    id: release.id,
    created_at: release.created_at,
    description: release.description,
    name: release.name,
    released_at: release.released_at,
    tag: release.tag,
    object_kind: 'release',
    project: projectPayload(baseUrl, project),
    url: `${web}/-/releases/${encodeURIComponent(release.tag)}`,
    action,
    assets: { count: links.length + sources.length, links, sources },
    commit: commit ? commitPayload(web, commit) : null,
  }
}
