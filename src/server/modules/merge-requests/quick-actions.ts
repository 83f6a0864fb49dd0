/**
 * The merge request family's quick actions: which commands a caller may run on a merge request,
 * and running them; `/merge`, `/rebase` and `/target_branch` follow once the comment is saved.
 */
import type { Caller } from '../../platform/caller'
import { AccessLevel } from '../../platform/auth/access'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import { ApiError } from '../../platform/http/errors'
import { canPushToBranch, listProtectedBranches } from '../branches'
import type { QuickActionSet } from '../notes'
import {
  issuableCommand,
  labelIdsNamed,
  personalCommandAvailable,
  quickActionSet,
  userListCommand,
  type IssuableCommands,
  type QuickAction,
  type QuickActionFollowUp,
  type QuickActionName,
  type QuickActionParams,
  type QuickActionResult,
} from '../quick-actions'
import { isDraftTitle } from './entity'
import { startRebase } from './merge'
import { availableMergeStrategy, mergeOrSchedule } from './merge-orchestration'
import { queueMergeabilityCheck } from './mergeability'
import {
  approvalsOf,
  findMergeRequestById,
  labelsOf,
  participantIds,
  updateMergeRequestRow,
  userLinksOf,
  type MergeRequestRow,
  sourceProjectOf,
} from './queries'
import {
  applyMergeRequestUpdate,
  approveMergeRequest,
  canApproveMergeRequest,
  unapproveMergeRequest,
  updateMergeRequest,
  type MergeRequestInput,
} from './service'

/** The quick actions of one merge request, for its noteable. */
export function mergeRequestQuickActions(project: ProjectRow, mr: MergeRequestRow): QuickActionSet {
  return quickActionSet(
    (caller, name) => mergeRequestCommandAvailable(caller, project, mr, name),
    (caller, actions, params) => executeMergeRequestQuickActions(caller, project, mr, actions, params),
  )
}

const MERGE_REQUEST_COMMANDS: ReadonlySet<QuickActionName> = new Set<QuickActionName>([
  'label',
  'unlabel',
  'relabel',
  'assign',
  'unassign',
  'reassign',
  'assign_reviewer',
  'unassign_reviewer',
  'close',
  'reopen',
  'milestone',
  'remove_milestone',
  'title',
  'draft',
  'ready',
  'lock',
  'unlock',
  'approve',
  'unapprove',
  'estimate',
  'remove_estimate',
  'spend',
  'remove_time_spent',
  'merge',
  'rebase',
  'target_branch',
  'todo',
  'done',
  'subscribe',
  'unsubscribe',
  'award',
  'copy_metadata',
])

/**
 * Whether the caller may run this command on the merge request now: metadata needs Developer
 * (GitLab's admin_merge_request); the author may also close, reopen, retitle and mark it draft or
 * ready; /approve needs the right to approve and no approval yet, /unapprove an approval.
 */
export function mergeRequestCommandAvailable(
  caller: Caller,
  project: ProjectRow,
  mr: MergeRequestRow,
  name: QuickActionName,
): boolean {
  const user = caller.user
  if (!user || !MERGE_REQUEST_COMMANDS.has(name)) return false
  const developer = caller.perms.canInProject(project, AccessLevel.DEVELOPER)
  const canUpdate = developer || user.id === mr.author_id
  const open = mr.state === 'opened' || mr.state === 'locked'
  const personal = personalCommandAvailable(caller, 'MergeRequest', mr.id, participantIds(caller.db, mr), name)
  if (personal !== undefined) return personal
  switch (name) {
    // The checks of PUT …/merge (rights on the target branch, state, draft, conflicts, pipeline).
    case 'merge':
      return availableMergeStrategy(caller, project, mr) !== null
    // PUT …/rebase answers 403 without push rights on the source branch; the command is not offered then.
    case 'rebase':
      return mr.state === 'opened' && canRebase(caller, project, mr)
    case 'target_branch':
      return canUpdate && open
    case 'close':
      return canUpdate && open
    case 'reopen':
      return canUpdate && mr.state === 'closed'
    case 'title':
      return canUpdate && mr.state !== 'merged'
    case 'draft':
      return canUpdate && open && !isDraftTitle(mr.title)
    case 'ready':
      return canUpdate && open && isDraftTitle(mr.title)
    case 'approve':
      return (
        open &&
        canApproveMergeRequest(caller, project, mr, user) &&
        !approvalsOf(caller.db, mr.id).some((u) => u.id === user.id)
      )
    case 'unapprove':
      return open && approvalsOf(caller.db, mr.id).some((u) => u.id === user.id)
    case 'remove_milestone':
      return developer && mr.milestone_id !== null
    case 'remove_estimate':
      return developer && mr.time_estimate > 0
    case 'lock':
      return developer && mr.discussion_locked !== 1
    case 'unlock':
      return developer && mr.discussion_locked === 1
    default:
      return developer
  }
}

function canRebase(caller: Caller, project: ProjectRow, mr: MergeRequestRow): boolean {
  const source = sourceProjectOf(caller.db, mr) ?? project
  return canPushToBranch(caller.perms, source, listProtectedBranches(caller.db, source.id), mr.source_branch)
}

/** The merge request as it is now (a follow-up runs after other commands changed it). */
function currentMergeRequest(caller: Caller, mr: MergeRequestRow): MergeRequestRow {
  return findMergeRequestById(caller.db, mr.id) ?? mr
}

/** `/merge` after the commit: through `mergeOrSchedule`, the service of PUT …/merge, so its every check holds. */
function mergeFollowUp(
  caller: Caller,
  project: ProjectRow,
  mr: MergeRequestRow,
  user: UserRow,
  sha: string,
): QuickActionFollowUp {
  return async () => {
    try {
      const { strategy } = await mergeOrSchedule(caller, project, currentMergeRequest(caller, mr), user, { sha }, true)
      const message =
        strategy === 'now'
          ? 'Merged this merge request.'
          : 'Scheduled to merge this merge request (Merge when pipeline succeeds).'
      return { changes: { merge: sha }, messages: [message] }
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      // Something changed since the command was offered (a push, a conflict found while merging).
      updateMergeRequestRow(caller.db, mr.id, { merge_error: error.message }, false)
      return { changes: {}, messages: [error.message] }
    }
  }
}

/** `/target_branch` after the commit: the PUT update's repository checks decide; an unknown branch changes nothing. */
function targetBranchFollowUp(
  caller: Caller,
  project: ProjectRow,
  mr: MergeRequestRow,
  user: UserRow,
  branch: string,
): QuickActionFollowUp {
  return async () => {
    try {
      const row = await updateMergeRequest(
        caller,
        project,
        currentMergeRequest(caller, mr),
        { target_branch: branch },
        user,
      )
      if (row.state === 'opened') queueMergeabilityCheck(caller.ctx, row.id)
      return { changes: { target_branch: branch }, messages: [`Set target branch to ${branch}.`] }
    } catch (error) {
      if (error instanceof ApiError) return { changes: {}, messages: [] }
      throw error
    }
  }
}

/**
 * Runs a merge request's commands: metadata through one `applyMergeRequestUpdate` (labels,
 * assignees, reviewers, milestone, state, title, lock), then approvals, time tracking, to-dos,
 * subscriptions and reactions; `/target_branch`, `/rebase` and `/merge` need the repository and
 * follow once the comment is saved. `/merge` wants the head SHA the caller saw, as GitLab does.
 */
export function executeMergeRequestQuickActions(
  caller: Caller,
  project: ProjectRow,
  mr: MergeRequestRow,
  actions: readonly QuickAction[],
  params: QuickActionParams = {},
): QuickActionResult {
  const db = caller.db
  const user = caller.user
  if (!user) return { changes: {}, messages: [] }
  const changes: Record<string, unknown> = {}
  const messages: string[] = []
  const update: { -readonly [K in keyof MergeRequestInput]: MergeRequestInput[K] } = {}
  let reviewers = (userLinksOf(db, 'merge_request_reviewers', [mr.id]).get(mr.id) ?? []).map((u) => u.id)
  const steps: (() => void)[] = []
  const last: (() => void)[] = []
  const followUps: QuickActionFollowUp[] = []
  const shared: IssuableCommands = {
    update,
    changes,
    messages,
    steps,
    last,
    // Time tracking writes in command order with the approvals and the rest.
    timeSteps: steps,
    item: { type: 'MergeRequest', id: mr.id, projectId: project.id, title: mr.title },
    assignees: (userLinksOf(db, 'merge_request_assignees', [mr.id]).get(mr.id) ?? []).map((u) => u.id),
    noun: 'merge request',
    clearedLabelsAs: 'remove_label_names',
  }
  // GitLab does not merge and rebase at once: with both, the rebase wins.
  const rebasing = actions.some((a) => a.name === 'rebase')

  for (const action of actions) {
    switch (action.name) {
      case 'assign_reviewer':
      case 'unassign_reviewer': {
        const adding = action.name === 'assign_reviewer'
        const edit = userListCommand(caller, action, reviewers, adding ? 'add' : 'remove')
        if (!edit) break
        reviewers = edit.list
        update.reviewer_ids = reviewers
        changes.reviewer_ids = reviewers
        if (adding)
          messages.push(`Assigned ${edit.names.join(', ')} as ${edit.ids.length > 1 ? 'reviewers' : 'reviewer'}.`)
        else
          messages.push(
            action.arg.trim() === '' ? 'Removed all reviewers.' : `Removed reviewer ${edit.names.join(', ')}.`,
          )
        break
      }
      case 'draft':
        update.title = `Draft: ${update.title ?? mr.title}`
        changes.draft = true
        messages.push('Marked this merge request as a draft.')
        break
      case 'ready':
        update.title = (update.title ?? mr.title).replace(/^\s*(\[draft\]|\(draft\)|draft:|draft\s-\s|draft$)\s*/i, '')
        changes.draft = false
        messages.push('Marked this merge request as ready.')
        break
      case 'approve':
        steps.push(() => approveMergeRequest(caller, project, findMergeRequestById(db, mr.id) as MergeRequestRow, user))
        changes.approve = true
        messages.push('Approved the current merge request.')
        break
      case 'unapprove':
        steps.push(() => unapproveMergeRequest(caller, mr, user))
        changes.unapprove = true
        messages.push('Unapproved the current merge request.')
        break
      case 'target_branch': {
        const branch = action.arg.trim()
        if (branch) followUps.push(targetBranchFollowUp(caller, project, mr, user, branch))
        break
      }
      case 'rebase':
        if (mr.merge_status === 'cannot_be_merged') {
          messages.push('This merge request cannot be rebased while there are conflicts.')
          break
        }
        if (mr.rebase_in_progress === 1) {
          messages.push('A rebase is already in progress.')
          break
        }
        followUps.push(async () => {
          startRebase(caller.ctx, project, currentMergeRequest(caller, mr), user)
          return { changes: {}, messages: [] }
        })
        changes.rebase = true
        messages.push(`Scheduled a rebase of branch ${mr.source_branch}.`)
        break
      case 'merge':
        if (rebasing) break
        if (!params.diffHeadSha) {
          messages.push('The `/merge` quick action requires the SHA of the head of the branch.')
          break
        }
        if (params.diffHeadSha !== mr.head_sha) {
          messages.push('Branch has been updated since the merge was requested.')
          break
        }
        followUps.push(mergeFollowUp(caller, project, mr, user, params.diffHeadSha))
        break
      default:
        issuableCommand(caller, project, action, shared)
        break
    }
  }
  db.transaction(() => {
    if (Object.keys(update).length > 0)
      applyMergeRequestUpdate(caller, project, findMergeRequestById(db, mr.id) as MergeRequestRow, update, user)
    for (const step of [...steps, ...last]) step()
  })()
  // Labels are reported by id as GitLab does; resolve the names now that any new ones exist.
  if (changes.add_label_names) {
    changes.add_label_ids = labelIdsNamed(changes.add_label_names, labelsOf(db, [mr.id]).get(mr.id) ?? [])
    delete changes.add_label_names
  }
  return { changes, messages, followUps }
}
