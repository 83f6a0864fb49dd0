import type { NewEvent } from '../events'
import type { JobStatusEvent, PipelineStatusEvent } from '../pipelines'
import type { ReleaseChange } from '../releases'
import { findPipelineById, pipelineJobs } from '../pipelines'
import type { ServerContext } from '../../platform/context'
import {
  findProjectWithNamespace,
  findUserById,
  type ProjectWithNamespaceRow,
} from '../../platform/db/platform-queries'
import type { UserRow } from '../../platform/db/rows'
import { unprocessable } from '../../platform/http/errors'
import { inBackground } from './delivery'
import {
  issueById,
  latestIssue,
  latestJob,
  latestMergeRequest,
  latestNote,
  latestPipeline,
  latestRelease,
  mergeRequestById,
  noteById,
} from './item-queries'
import {
  isConfidentialIssue,
  isConfidentialNote,
  issuePayload,
  jobPayload,
  mergeRequestPayload,
  notePayload,
  pipelinePayload,
  releasePayload,
  type ItemAction,
} from './item-payloads'
import type { HookEventFlag } from './queries'
import { enqueueEvent, hooksForProjectEvent, registerHookSample, type SampleBuilder } from './service'

type Json = Record<string, unknown>

/**
 * Item events for webhooks: issues, merge requests and notes from the activity events the
 * families record (the events registry), pipelines and jobs from CI's status events. Each
 * payload is read and posted in the background, after the request that caused it.
 */

/** The activity actions that are item events, as GitLab's `object_attributes.action`. */
const ITEM_ACTIONS: Readonly<Partial<Record<NewEvent['action'], ItemAction>>> = {
  created: 'open',
  closed: 'close',
  reopened: 'reopen',
  merged: 'merge',
  approved: 'approved',
}

const NOTE_TARGETS: ReadonlySet<string> = new Set(['Note', 'DiffNote', 'DiscussionNote'])

/** Whether any hook of the project (or a system hook) could take one of these events: nothing to build otherwise. */
function anyHook(ctx: ServerContext, projectId: number, flags: readonly HookEventFlag[]): boolean {
  return flags.some((flag) => hooksForProjectEvent(ctx, projectId, flag).length > 0)
}

async function deliverIssue(ctx: ServerContext, event: NewEvent, action: ItemAction): Promise<void> {
  const issue = event.targetId == null ? undefined : issueById(ctx.db, event.targetId)
  const project = findProjectWithNamespace(ctx.db, issue?.project_id ?? 0)
  const user = findUserById(ctx.db, event.authorId)
  if (!issue || !project || !user) return
  const flag = isConfidentialIssue(issue) ? 'confidential_issues_events' : 'issues_events'
  enqueueEvent(ctx, hooksForProjectEvent(ctx, project.id, flag), flag, issuePayload(ctx, project, user, issue, action))
}

async function deliverMergeRequest(ctx: ServerContext, event: NewEvent, action: ItemAction): Promise<void> {
  const mr = event.targetId == null ? undefined : mergeRequestById(ctx.db, event.targetId)
  const project = findProjectWithNamespace(ctx.db, mr?.project_id ?? 0)
  const user = findUserById(ctx.db, event.authorId)
  if (!mr || !project || !user) return
  const hooks = hooksForProjectEvent(ctx, project.id, 'merge_requests_events')
  enqueueEvent(ctx, hooks, 'merge_requests_events', await mergeRequestPayload(ctx, project, user, mr, action))
}

async function deliverNote(ctx: ServerContext, event: NewEvent): Promise<void> {
  const note = event.targetId == null ? undefined : noteById(ctx.db, event.targetId)
  const project = findProjectWithNamespace(ctx.db, note?.project_id ?? 0)
  const user = findUserById(ctx.db, event.authorId)
  if (!note || !project || !user || note.system === 1) return
  const flag = isConfidentialNote(ctx.db, note) ? 'confidential_note_events' : 'note_events'
  const payload = await notePayload(ctx, project, user, note)
  if (payload) enqueueEvent(ctx, hooksForProjectEvent(ctx, project.id, flag), flag, payload)
}

/** The events-registry listener of one server: issue, merge request and note events to the hooks that take them. */
export function itemEventListener(ctx: ServerContext): (event: NewEvent) => void {
  return (event) => {
    if (!event.projectId) return
    const action = ITEM_ACTIONS[event.action]
    if (event.targetType === 'Issue' && action && action !== 'merge' && action !== 'approved') {
      if (anyHook(ctx, event.projectId, ['issues_events', 'confidential_issues_events']))
        inBackground(ctx, () => deliverIssue(ctx, event, action))
    } else if (event.targetType === 'MergeRequest' && action) {
      if (anyHook(ctx, event.projectId, ['merge_requests_events']))
        inBackground(ctx, () => deliverMergeRequest(ctx, event, action))
    } else if (event.action === 'commented' && NOTE_TARGETS.has(event.targetType ?? '')) {
      if (anyHook(ctx, event.projectId, ['note_events', 'confidential_note_events']))
        inBackground(ctx, () => deliverNote(ctx, event))
    }
  }
}

/** A pipeline's jobs of the CI configuration (external statuses are not builds). */
function ciJobs(ctx: ServerContext, pipelineId: number) {
  return pipelineJobs(ctx.db, pipelineId).filter((job) => job.type === 'build')
}

/** CI's pipeline status listener: a pipeline event at each change of status. */
export function pipelineHookListener(event: PipelineStatusEvent): void {
  const { ctx, pipeline } = event
  if (event.previous === pipeline.status) return
  if (!anyHook(ctx, pipeline.project_id, ['pipeline_events'])) return
  inBackground(ctx, async () => {
    const project = findProjectWithNamespace(ctx.db, pipeline.project_id)
    if (!project) return
    const payload = pipelinePayload(ctx, project, pipeline, ciJobs(ctx, pipeline.id))
    enqueueEvent(ctx, hooksForProjectEvent(ctx, project.id, 'pipeline_events'), 'pipeline_events', payload)
  })
}

/** CI's job status listener: a job event at each change of status of a job of the CI configuration. */
export function jobHookListener(event: JobStatusEvent): void {
  const { ctx, job, pipeline } = event
  if (event.previous === job.status || job.type !== 'build') return
  if (!anyHook(ctx, job.project_id, ['job_events'])) return
  inBackground(ctx, async () => {
    const project = findProjectWithNamespace(ctx.db, job.project_id)
    if (!project) return
    enqueueEvent(
      ctx,
      hooksForProjectEvent(ctx, project.id, 'job_events'),
      'job_events',
      jobPayload(ctx, project, pipeline, job),
    )
  })
}

/** The releases listener: a release event when a release is created, changed or deleted. */
export function releaseHookListener(change: ReleaseChange): void {
  const { ctx, release, action } = change
  if (!anyHook(ctx, release.project_id, ['releases_events'])) return
  inBackground(ctx, async () => {
    const project = findProjectWithNamespace(ctx.db, release.project_id)
    if (!project) return
    const payload = await releasePayload(ctx, project, release, action)
    enqueueEvent(ctx, hooksForProjectEvent(ctx, project.id, 'releases_events'), 'releases_events', payload)
  })
}

/** The latest row of a kind in a project, for test deliveries. */
type Latest<T> = (ctx: ServerContext, projectId: number) => T | undefined

function sample<T>(
  latest: Latest<T>,
  missing: string,
  build: (ctx: ServerContext, project: ProjectWithNamespaceRow, user: UserRow, row: T) => Json | Promise<Json | null>,
): SampleBuilder {
  return async (caller, project) => {
    const row = latest(caller.ctx, project.id)
    const payload = row === undefined || !caller.user ? null : await build(caller.ctx, project, caller.user, row)
    if (!payload) throw unprocessable(missing)
    return payload
  }
}

/** Test deliveries of item events: the project's latest issue, merge request, note, pipeline or job. */
export function registerItemSamples(): void {
  const issue = sample(
    (ctx, id) => latestIssue(ctx.db, id),
    'Ensure the project has issues.',
    (ctx, project, user, row) => issuePayload(ctx, project, user, row, 'open'),
  )
  registerHookSample('issues_events', issue)
  registerHookSample('confidential_issues_events', issue)
  registerHookSample(
    'merge_requests_events',
    sample(
      (ctx, id) => latestMergeRequest(ctx.db, id),
      'Ensure the project has merge requests.',
      (ctx, project, user, row) => mergeRequestPayload(ctx, project, user, row, 'open'),
    ),
  )
  const note = sample((ctx, id) => latestNote(ctx.db, id), 'Ensure the project has notes.', notePayload)
  registerHookSample('note_events', note)
  registerHookSample('confidential_note_events', note)
  registerHookSample(
    'pipeline_events',
    sample(
      (ctx, id) => latestPipeline(ctx.db, id),
      'Ensure the project has CI pipelines.',
      (ctx, project, _user, row) => pipelinePayload(ctx, project, row, ciJobs(ctx, row.id)),
    ),
  )
  registerHookSample(
    'job_events',
    sample(
      (ctx, id) => {
        const job = latestJob(ctx.db, id)
        const pipeline = job && findPipelineById(ctx.db, job.pipeline_id)
        return job && pipeline ? { job, pipeline } : undefined
      },
      'Ensure the project has CI jobs.',
      (ctx, project, _user, row) => jobPayload(ctx, project, row.pipeline, row.job),
    ),
  )
  registerHookSample(
    'releases_events',
    sample(
      (ctx, id) => latestRelease(ctx.db, id),
      'Ensure the project has releases.',
      (ctx, project, _user, row) => releasePayload(ctx, project, row, 'create'),
    ),
  )
}
