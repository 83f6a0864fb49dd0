import type {
  MergeRequest,
  MergeRequestDetail as MergeRequestDetailEntity,
  MergeRequestSimple,
} from '../../../shared/api/merge-request'
import { randomUUID } from 'node:crypto'
import type { Caller } from '../../platform/caller'
import { AccessLevel } from '../../platform/auth/access'
import { issueViewerOf } from '../../platform/auth/issue-read-queries'
import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'
import { milestonesById } from '../issues'
import { findLabelInScope, insertLabel } from '../labels'
import {
  countsOf,
  deleteApproval,
  deleteMergeRequestRow,
  findOpenDuplicate,
  insertApproval,
  insertMergeRequest,
  labelsOf,
  listMergeRequests,
  mergeRequestIdsMentioning,
  openMergeRequestsBetween,
  participantIds,
  projectPaths,
  referencingDescriptions,
  setMergeRequestLabels,
  setReviewState,
  setUserLinks,
  updateMergeRequestRow,
  userLinksOf,
  type MergeRequestChanges,
  type MergeRequestRow,
  type NewMergeRequest,
} from './queries'
import { storeHeadRef } from './mergeability'
import { findMilestoneById, type MilestoneRow } from '../milestones'
import { findNamespaceById, findProjectById } from '../namespaces'
import { findForkMember, inSameForkNetwork } from '../forks'
import { canReadMergeRequestsWith } from './policy'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import {
  mergeRequestDetailFields,
  mergeRequestEntity,
  mergeRequestSimple,
  type MergeRequestDetail,
  type MergeRequestPipelineFields,
} from './entity'
import { projectSettings } from '../projects'
import { mergeBase } from '../../platform/git/merge-base'
import { countCommitsBetween } from '../../platform/git/merge'
import { projectGitDir, repoExists } from '../../platform/git/project-repo'
import { deleteRef, fetchCommitInto, resolveCommit } from '../../platform/git/refs'
import { gitText, isValidRef } from '../../platform/git/git'
import { apiMessage, validationFailed, type ApiError } from '../../platform/http/errors'
import { recordEvent } from '../events'
import { closingReferences } from './merge'
import { presentMilestones } from '../milestones'
import { keepOneLabelPerScope, projectLabelScope } from '../labels'
import { isSubscribed } from '../subscriptions'
import { createTodo } from '../todos'
import { resolveTodosForTarget } from '../todos'
import { usersByIds } from '../users'
import { mergeRequestSnapshot, noteApproval } from './system-notes'
import { mergeRequestTarget, recordCreation, recordUpdate } from '../notes'
import { descriptionOf, titleOf } from '../../platform/http/loose-params'

/** How a list or single response is shaped. */
export interface PresentOptions {
  readonly relativeTo?: { readonly kind: 'project' | 'group'; readonly path: string } | null
  readonly withLabelDetails?: boolean
}

/** Serializes a page of merge requests in the `view=simple` form. */
export function presentSimpleMergeRequests(caller: Caller, rows: readonly MergeRequestRow[]): MergeRequestSimple[] {
  const paths = projectPaths(
    caller.db,
    rows.map((r) => r.project_id),
  )
  return rows.map((r) => mergeRequestSimple(r, { baseUrl: caller.baseUrl, projectPath: paths.get(r.project_id) ?? '' }))
}

/**
 * Serializes a page of merge requests: users, labels, milestones, votes, note counts and time spent
 * are each fetched once for the whole page.
 */
export function presentMergeRequests(
  caller: Caller,
  rows: readonly MergeRequestRow[],
  options: PresentOptions = {},
): MergeRequest[] {
  const db = caller.db
  const baseUrl = caller.baseUrl
  const paths = projectPaths(
    db,
    rows.map((r) => r.project_id),
  )
  const ids = rows.map((r) => r.id)
  const assignees = userLinksOf(db, 'merge_request_assignees', ids)
  const reviewers = userLinksOf(db, 'merge_request_reviewers', ids)
  const users = usersByIds(
    db,
    rows.flatMap((r) => [r.author_id, r.merged_by_id ?? 0, r.closed_by_id ?? 0]),
  )
  const labels = labelsOf(db, ids)
  const counts = countsOf(db, ids)
  const milestoneIds = [...new Set(rows.map((r) => r.milestone_id).filter((id): id is number => id !== null))]
  const milestoneRows = [...milestonesById(db, milestoneIds).values()]
  const milestones = new Map(presentMilestones(caller, milestoneRows).map((m) => [m.id, m]))
  return rows.map((r) =>
    mergeRequestEntity(r, {
      baseUrl,
      projectPath: paths.get(r.project_id) ?? '',
      relativeTo: options.relativeTo ?? null,
      users,
      assignees: assignees.get(r.id) ?? [],
      reviewers: reviewers.get(r.id) ?? [],
      labels: labels.get(r.id) ?? [],
      withLabelDetails: options.withLabelDetails ?? false,
      milestone: r.milestone_id !== null ? (milestones.get(r.milestone_id) ?? null) : null,
      counts: counts.get(r.id) ?? { upvotes: 0, downvotes: 0, user_notes_count: 0, total_time_spent: 0 },
    }),
  )
}

/**
 * The single merge request form with the git-derived counters (changes, diverged commits), all but
 * its pipeline fields, which the routes add from the pipelines module.
 */
export async function presentMergeRequestDetail(
  caller: Caller,
  project: ProjectRow,
  mr: MergeRequestRow,
  options: { readonly includeDivergedCommitsCount?: boolean; readonly includeRebaseInProgress?: boolean },
): Promise<Omit<MergeRequestDetailEntity, keyof MergeRequestPipelineFields>> {
  const db = caller.db
  const [basic] = presentMergeRequests(caller, [mr], {
    relativeTo: { kind: 'project', path: projectPaths(db, [project.id]).get(project.id) ?? '' },
  })
  const gitDir = projectGitDir(caller.ctx, project)
  let changesCount = 0
  let diverged: number | undefined
  if (repoExists(gitDir) && mr.head_sha && mr.base_sha) {
    const out = await gitText(
      ['diff', '--name-only', '-z', '--no-renames', '--end-of-options', mr.base_sha, mr.head_sha],
      { gitDir },
    ).catch(() => '')
    changesCount = out.split('\0').filter((p) => p !== '').length
  }
  if (options.includeDivergedCommitsCount) {
    const target = repoExists(gitDir)
      ? await resolveCommit(gitDir, `refs/heads/${mr.target_branch}`).catch(() => null)
      : null
    diverged = target && mr.base_sha ? await countCommitsBetween(gitDir, mr.base_sha, target).catch(() => 0) : 0
  }
  const user = caller.user
  const detail: MergeRequestDetail = {
    subscribed: isSubscribed(db, 'MergeRequest', mr.id, user?.id ?? null, participantIds(db, mr)),
    changesCount,
    canMerge: caller.perms.canInProject(project, AccessLevel.DEVELOPER),
    divergedCommitsCount: diverged,
    includeRebaseInProgress: options.includeRebaseInProgress ?? false,
    overflow: false,
  }
  return { ...basic, ...mergeRequestDetailFields(mr, detail) }
}

/** One page of a milestone's merge requests the caller may see, oldest first, as GitLab lists them. */
export function milestoneMergeRequests(
  caller: Caller,
  milestone: MilestoneRow,
  page: { readonly limit: number; readonly offset: number },
): { rows: MergeRequest[]; total: number } {
  const { rows, total } = listMergeRequests(
    caller.db,
    {
      viewer: issueViewerOf(caller.user),
      milestoneId: milestone.id,
      orderBy: 'created_at',
      sort: 'asc',
    },
    page,
  )
  return { rows: presentMergeRequests(caller, rows), total }
}

/**
 * Merge requests of the issue's project whose description references `#iid` (`closed_by`: with a
 * closing pattern), newest first, that the caller may see — for the issues family's
 * `related_merge_requests` / `closed_by` endpoints and its merge_requests_count.
 */
export function mergeRequestsReferencingIssue(
  caller: Caller,
  projectId: number,
  issueIid: number,
  kind: 'related' | 'closed_by',
): MergeRequest[] {
  const db = caller.db
  const user = caller.user
  const candidates = mergeRequestIdsMentioning(db, projectId, issueIid)
  if (candidates.length === 0) return []
  const { rows } = listMergeRequests(
    db,
    {
      viewer: issueViewerOf(user),
      projectIds: [projectId],
      orderBy: 'created_at',
      sort: 'desc',
    },
    { limit: 1000, offset: 0 },
  )
  const ids = new Set(candidates)
  const matching = rows.filter((r) => {
    if (!ids.has(r.id)) return false
    const refs =
      kind === 'closed_by'
        ? closingReferences(r.description)
        : [...(r.description ?? '').matchAll(/(?<![\w/])#(\d+)\b/g)].map((m) => ({
            projectPath: null,
            iid: Number(m[1]),
          }))
    return refs.some((ref) => ref.projectPath === null && ref.iid === issueIid)
  })
  return presentMergeRequests(caller, matching)
}

/** Per issue of a page: how many merge requests of its project close it (the issue's merge_requests_count). */
export function closingMergeRequestCounts(
  db: Db,
  issues: readonly { readonly id: number; readonly project_id: number; readonly iid: number }[],
): Map<number, number> {
  const counts = new Map<number, number>()
  if (issues.length === 0) return counts
  const projectIds = [...new Set(issues.map((i) => i.project_id))]
  const rows = referencingDescriptions(db, projectIds)
  const closed = new Map<string, number>()
  for (const r of rows) {
    for (const ref of new Set(
      closingReferences(r.description)
        .filter((c) => c.projectPath === null)
        .map((c) => c.iid),
    )) {
      const key = `${r.project_id}:${ref}`
      closed.set(key, (closed.get(key) ?? 0) + 1)
    }
  }
  for (const i of issues) counts.set(i.id, closed.get(`${i.project_id}:${i.iid}`) ?? 0)
  return counts
}

// ---- writes --------------------------------------------------------------------------------

/** Inputs of create and update as the routes pass them (already type-checked by the schemas). */
export interface MergeRequestInput {
  readonly title?: string
  readonly description?: string | null
  readonly source_branch?: string
  readonly target_branch?: string
  readonly target_project_id?: number
  readonly assignee_id?: number | null
  readonly assignee_ids?: readonly number[]
  readonly reviewer_ids?: readonly number[]
  readonly labels?: readonly string[]
  readonly add_labels?: readonly string[]
  readonly remove_labels?: readonly string[]
  readonly milestone_id?: number | null
  readonly remove_source_branch?: boolean
  readonly allow_collaboration?: boolean
  readonly allow_maintainer_to_push?: boolean
  readonly squash?: boolean
  readonly approvals_before_merge?: number
  readonly discussion_locked?: boolean
  readonly state_event?: 'close' | 'reopen'
}

/** Label ids for titles in the project's scope; missing titles become project labels, as GitLab does. */
function labelIdsFor(caller: Caller, project: ProjectRow, titles: readonly string[]): number[] {
  const db = caller.db
  const scope = projectLabelScope(caller, project)
  const ids: number[] = []
  for (const raw of titles) {
    const title = raw.trim()
    if (title === '') continue
    const found = findLabelInScope(db, scope, title, scope.order)
    ids.push(
      found ? found.id : insertLabel(db, { title, color: '#6699cc', description: null, projectId: project.id }).id,
    )
  }
  return [...new Set(ids)]
}

/** Milestone ids a merge request of this project may use: the project's own or its groups'. */
function checkMilestone(caller: Caller, project: ProjectRow, id: number | null | undefined): number | null | undefined {
  if (id === undefined || id === null) return id
  if (id === 0) return null
  const m = findMilestoneById(caller.db, id)
  if (!m) return null
  if (m.project_id === project.id) return m.id
  if (m.group_id !== null) {
    let ns = findNamespaceById(caller.db, project.namespace_id)
    while (ns) {
      if (ns.id === m.group_id) return m.id
      ns = ns.parent_id ? findNamespaceById(caller.db, ns.parent_id) : undefined
    }
  }
  return null
}

/** Ids of users that exist (unknown ids are dropped, as GitLab drops them); 0 means "none". */
function existingUserIds(db: Db, ids: readonly number[]): number[] {
  const wanted = ids.filter((id) => id > 0)
  return [...usersByIds(db, wanted).keys()].sort((a, b) => wanted.indexOf(a) - wanted.indexOf(b))
}

function assigneeIdsOf(input: MergeRequestInput): readonly number[] | undefined {
  if (input.assignee_ids !== undefined) return input.assignee_ids
  if (input.assignee_id !== undefined)
    return input.assignee_id === null || input.assignee_id === 0 ? [] : [input.assignee_id]
  return undefined
}

function notifyNewlyLinked(
  db: Db,
  mr: MergeRequestRow,
  authorId: number,
  assigned: readonly number[],
  reviewers: readonly number[],
): void {
  for (const userId of assigned)
    createTodo(db, {
      userId,
      authorId,
      projectId: mr.project_id,
      targetType: 'MergeRequest',
      targetId: mr.id,
      action: 'assigned',
    })
  for (const userId of reviewers)
    createTodo(db, {
      userId,
      authorId,
      projectId: mr.project_id,
      targetType: 'MergeRequest',
      targetId: mr.id,
      action: 'review_requested',
    })
}

/** GitLab's 409 for a second open merge request on the same branches, naming the first. */
function duplicateError(existing: MergeRequestRow): ApiError {
  return apiMessage(409, [`Another open merge request already exists for this source branch: !${existing.iid}`])
}

/** The approvals_before_merge rule: omitted inherits the project's; given counts only above a positive project value. */
function approvalsBeforeMerge(project: ProjectRow, given: number | undefined): number | null {
  const projectValue = Number(projectSettings(project.settings).approvals_before_merge ?? 0)
  if (given === undefined) return projectValue
  return projectValue > 0 && given > projectValue ? given : projectValue
}

/**
 * Closes the open merge requests between a project that left its fork network and the projects of
 * that network, as the caller who unlinked it (GitLab's UnlinkForkService): they could no longer be
 * created, so they do not stay open. The forks module calls this through its unlink registry.
 */
export async function closeForkCrossings(
  caller: Caller,
  project: ProjectRow,
  networkProjectIds: readonly number[],
): Promise<void> {
  for (const mr of openMergeRequestsBetween(caller.db, project.id, networkProjectIds)) {
    const target = findProjectById(caller.db, mr.project_id)
    if (target) await updateMergeRequest(caller, target, mr, { state_event: 'close' }, caller.user as UserRow)
  }
}

/**
 * The project a new merge request from `source` goes to (GitLab's target project): the one asked
 * for, which must be in the source's fork network (422 otherwise); else a fork's upstream unless
 * the fork sets `mr_default_target_self` or the caller may not read the upstream's merge requests
 * (GitLab's default_merge_request_target), else the source itself.
 */
export function targetProjectFor(caller: Caller, source: ProjectRow, requested: ProjectRow | undefined): ProjectRow {
  if (requested) {
    if (!inSameForkNetwork(caller.db, source.id, requested.id))
      throw apiMessage(422, ['Validate fork Source project is not a fork of the target project'])
    return requested
  }
  const upstreamId = findForkMember(caller.db, source.id)?.forked_from_project_id
  const upstream = upstreamId ? findProjectById(caller.db, upstreamId) : undefined
  if (!upstream || projectSettings(source.settings).mr_default_target_self) return source
  return canReadMergeRequestsWith(caller.perms, upstream) ? upstream : source
}

/**
 * Opens a merge request from `source`'s branch into `target`'s branch. Branches must exist; an open
 * merge request for the same source and target branches is a 409 naming it. Records the `created`
 * event, to-dos for assignees and reviewers, and queues the mergeability check.
 */
export async function createMergeRequest(
  caller: Caller,
  source: ProjectRow,
  target: ProjectRow,
  input: MergeRequestInput,
  author: UserRow,
): Promise<MergeRequestRow> {
  const db = caller.db
  const ctx = caller.ctx
  const sourceBranch = input.source_branch as string
  const targetBranch = input.target_branch as string
  const title = titleOf(input.title)
  const description = descriptionOf(input.description) ?? null
  if (source.id === target.id && sourceBranch === targetBranch)
    throw apiMessage(422, ["You can't use same project/branch for source and target"])
  const sourceDir = projectGitDir(ctx, source)
  const targetDir = projectGitDir(ctx, target)
  const sourceHead =
    isValidRef(sourceBranch) && repoExists(sourceDir)
      ? await resolveCommit(sourceDir, `refs/heads/${sourceBranch}`)
      : null
  if (!sourceHead) throw validationFailed({ source_branch: ['does not exist'] })
  const targetHead =
    isValidRef(targetBranch) && repoExists(targetDir)
      ? await resolveCommit(targetDir, `refs/heads/${targetBranch}`)
      : null
  if (!targetHead) throw validationFailed({ target_branch: ['does not exist'] })
  const duplicate = findOpenDuplicate(db, {
    projectId: target.id,
    sourceProjectId: source.id,
    sourceBranch,
    targetBranch,
  })
  if (duplicate) throw duplicateError(duplicate)
  // From a fork, the source head is fetched into the target's repository first (under a temporary
  // ref until the merge request has its own): the base and every diff are computed there.
  const sourceRef = source.id === target.id ? null : `refs/tmp/merge-request-sources/${randomUUID()}`
  if (sourceRef) await fetchCommitInto(targetDir, sourceDir, sourceHead, sourceRef)
  try {
    const base = await mergeBase(targetDir, [targetHead, sourceHead])
    const mr = insertNewMergeRequest(caller, source, target, input, author, {
      sourceBranch,
      targetBranch,
      title,
      description,
      headSha: sourceHead,
      baseSha: base ?? targetHead,
    })
    await storeHeadRef(ctx, mr, sourceHead)
    return mr
  } finally {
    if (sourceRef) await deleteRef(targetDir, sourceRef)
  }
}

/** The new merge request's rows (links, labels, system note, event, to-dos) in one transaction. */
function insertNewMergeRequest(
  caller: Caller,
  source: ProjectRow,
  target: ProjectRow,
  input: MergeRequestInput,
  author: UserRow,
  fields: Pick<NewMergeRequest, 'sourceBranch' | 'targetBranch' | 'title' | 'description' | 'headSha' | 'baseSha'>,
): MergeRequestRow {
  const db = caller.db
  const assigneeIds = existingUserIds(db, assigneeIdsOf(input) ?? [])
  const reviewerIds = existingUserIds(db, input.reviewer_ids ?? [])
  return db.transaction(() => {
    const row = insertMergeRequest(db, {
      projectId: target.id,
      sourceProjectId: source.id,
      authorId: author.id,
      milestoneId: checkMilestone(caller, target, input.milestone_id) ?? null,
      shouldRemoveSourceBranch: input.remove_source_branch ?? null,
      allowCollaboration: input.allow_collaboration ?? input.allow_maintainer_to_push ?? false,
      squash: input.squash ?? false,
      approvalsBeforeMerge: approvalsBeforeMerge(target, input.approvals_before_merge),
      ...fields,
    })
    setUserLinks(db, 'merge_request_assignees', row.id, assigneeIds)
    setUserLinks(db, 'merge_request_reviewers', row.id, reviewerIds)
    if (input.labels)
      setMergeRequestLabels(db, row.id, keepOneLabelPerScope(db, [], labelIdsFor(caller, target, input.labels)))
    recordCreation(db, mergeRequestTarget(row), author.id, mergeRequestSnapshot(db, row.id))
    recordEvent(db, {
      authorId: author.id,
      action: 'created',
      projectId: target.id,
      targetType: 'MergeRequest',
      targetId: row.id,
      targetIid: row.iid,
      targetTitle: row.title,
    })
    notifyNewlyLinked(
      db,
      row,
      author.id,
      assigneeIds.filter((id) => id !== author.id),
      reviewerIds.filter((id) => id !== author.id),
    )
    return row
  })()
}

/**
 * Applies an update: fields, labels (replace, add, remove), assignees and reviewers (to-dos for
 * the new ones), and `state_event` close/reopen with their events. Returns the new row.
 */
export async function updateMergeRequest(
  caller: Caller,
  project: ProjectRow,
  mr: MergeRequestRow,
  input: MergeRequestInput,
  actor: UserRow,
): Promise<MergeRequestRow> {
  const db = caller.db
  const changes: { -readonly [K in keyof MergeRequestChanges]: MergeRequestChanges[K] } = {}
  if (input.title !== undefined) titleOf(input.title)
  if (input.target_branch !== undefined && input.target_branch !== mr.target_branch) {
    const gitDir = projectGitDir(caller.ctx, project)
    const head =
      isValidRef(input.target_branch) && repoExists(gitDir)
        ? await resolveCommit(gitDir, `refs/heads/${input.target_branch}`)
        : null
    if (!head) throw validationFailed({ target_branch: ['does not exist'] })
    if (mr.source_project_id === mr.project_id && input.target_branch === mr.source_branch)
      throw apiMessage(422, ["You can't use same project/branch for source and target"])
    const dup = findOpenDuplicate(
      db,
      {
        projectId: mr.project_id,
        sourceProjectId: mr.source_project_id,
        sourceBranch: mr.source_branch,
        targetBranch: input.target_branch,
      },
      mr.id,
    )
    if (dup) throw duplicateError(dup)
    changes.target_branch = input.target_branch
    changes.base_sha = (mr.head_sha ? await mergeBase(gitDir, [head, mr.head_sha]) : null) ?? head
    changes.start_sha = head
    changes.merge_status = 'unchecked'
  }
  return applyMergeRequestUpdate(caller, project, mr, input, actor, changes)
}

/**
 * The synchronous rest of an update (everything but a new target branch, which `updateMergeRequest`
 * checks against the repository first and passes in `branchChanges`): title, description,
 * milestone, flags, state, labels, assignees and reviewers, with events and to-dos. Quick actions
 * call it directly, inside their note's transaction.
 */
export function applyMergeRequestUpdate(
  caller: Caller,
  project: ProjectRow,
  mr: MergeRequestRow,
  input: MergeRequestInput,
  actor: UserRow,
  branchChanges: MergeRequestChanges = {},
): MergeRequestRow {
  const db = caller.db
  const changes: { -readonly [K in keyof MergeRequestChanges]: MergeRequestChanges[K] } = { ...branchChanges }
  if (input.title !== undefined) changes.title = titleOf(input.title)
  if (input.description !== undefined) changes.description = descriptionOf(input.description) ?? null
  if (input.milestone_id !== undefined)
    changes.milestone_id = checkMilestone(caller, project, input.milestone_id) ?? null
  if (input.remove_source_branch !== undefined) changes.should_remove_source_branch = Number(input.remove_source_branch)
  if (input.squash !== undefined) changes.squash = Number(input.squash)
  if (input.discussion_locked !== undefined) changes.discussion_locked = Number(input.discussion_locked)
  const collaboration = input.allow_collaboration ?? input.allow_maintainer_to_push
  if (collaboration !== undefined) changes.allow_collaboration = Number(collaboration)
  let stateAction: 'closed' | 'reopened' | null = null
  if (input.state_event === 'close' && (mr.state === 'opened' || mr.state === 'locked')) {
    Object.assign(changes, { state: 'closed', closed_at: nowIso(), closed_by_id: actor.id })
    stateAction = 'closed'
  } else if (input.state_event === 'reopen' && mr.state === 'closed' && mr.source_project_id !== null) {
    // A merge request whose source project was deleted stays closed (GitLab's reopenable?).
    const dup = findOpenDuplicate(
      db,
      {
        projectId: mr.project_id,
        sourceProjectId: mr.source_project_id,
        sourceBranch: mr.source_branch,
        targetBranch: changes.target_branch ?? mr.target_branch,
      },
      mr.id,
    )
    if (dup) throw duplicateError(dup)
    Object.assign(changes, { state: 'opened', closed_at: null, closed_by_id: null, merge_status: 'unchecked' })
    stateAction = 'reopened'
  }
  return db.transaction(() => {
    resolveTodosForTarget(db, actor.id, 'MergeRequest', mr.id)
    const before = mergeRequestSnapshot(db, mr.id)
    if (input.labels !== undefined || input.add_labels !== undefined || input.remove_labels !== undefined) {
      const current = labelsOf(db, [mr.id]).get(mr.id) ?? []
      let titles = input.labels !== undefined ? [...input.labels] : current.map((l) => l.title)
      if (input.add_labels) titles.push(...input.add_labels)
      if (input.remove_labels) {
        const drop = new Set(input.remove_labels.map((t) => t.trim().toLowerCase()))
        titles = titles.filter((t) => !drop.has(t.trim().toLowerCase()))
      }
      setMergeRequestLabels(
        db,
        mr.id,
        keepOneLabelPerScope(
          db,
          current.map((l) => l.id),
          labelIdsFor(caller, project, titles),
        ),
      )
    }
    const assignees = assigneeIdsOf(input)
    const addedAssignees =
      assignees !== undefined ? setUserLinks(db, 'merge_request_assignees', mr.id, existingUserIds(db, assignees)) : []
    const addedReviewers =
      input.reviewer_ids !== undefined
        ? setUserLinks(db, 'merge_request_reviewers', mr.id, existingUserIds(db, input.reviewer_ids))
        : []
    // Nulls are real values here (closed_at on reopen); updateMergeRequestRow writes them.
    const row = updateMergeRequestRow(db, mr.id, changes)
    recordUpdate(db, mergeRequestTarget(row), actor.id, before, mergeRequestSnapshot(db, row.id))
    if (stateAction)
      recordEvent(db, {
        authorId: actor.id,
        action: stateAction,
        projectId: project.id,
        targetType: 'MergeRequest',
        targetId: mr.id,
        targetIid: mr.iid,
        targetTitle: changes.title ?? mr.title,
      })
    notifyNewlyLinked(
      db,
      row,
      actor.id,
      addedAssignees.filter((id) => id !== actor.id),
      addedReviewers.filter((id) => id !== actor.id),
    )
    return row
  })()
}

/** Whether this user may approve: a Developer, and not its author unless the project allows that (off by default). */
export function canApproveMergeRequest(
  caller: Caller,
  project: ProjectRow,
  mr: MergeRequestRow,
  user: UserRow,
): boolean {
  if (!caller.perms.canInProject(project, AccessLevel.DEVELOPER)) return false
  return mr.author_id !== user.id || projectSettings(project.settings).merge_requests_author_approval === true
}

/**
 * Approves as `user` (an `approved` event, the user's to-dos on it settled): false when the merge
 * request is not open, the user may not approve, or already did.
 */
export function approveMergeRequest(caller: Caller, project: ProjectRow, mr: MergeRequestRow, user: UserRow): boolean {
  if (mr.state !== 'opened' || !canApproveMergeRequest(caller, project, mr, user)) return false
  const db = caller.db
  return db.transaction(() => {
    if (!insertApproval(db, mr.id, user.id)) return false
    noteApproval(db, mr, user.id, true)
    recordEvent(db, {
      authorId: user.id,
      action: 'approved',
      projectId: project.id,
      targetType: 'MergeRequest',
      targetId: mr.id,
      targetIid: mr.iid,
      targetTitle: mr.title,
    })
    resolveTodosForTarget(db, user.id, 'MergeRequest', mr.id)
    setReviewState(db, mr.id, user.id, 'approved')
    return true
  })()
}

/** Takes back `user`'s approval (`unapproved this merge request`); false when there was none. */
export function unapproveMergeRequest(caller: Caller, mr: MergeRequestRow, user: UserRow): boolean {
  const db = caller.db
  return db.transaction(() => {
    if (!deleteApproval(db, mr.id, user.id)) return false
    noteApproval(db, mr, user.id, false)
    setReviewState(db, mr.id, user.id, 'unapproved')
    return true
  })()
}

/** Deletes a merge request with its links, notes, votes, time logs and to-dos. */
export function destroyMergeRequest(caller: Caller, mr: MergeRequestRow): void {
  deleteMergeRequestRow(caller.db, mr.id)
}
