/**
 * The issue family's quick actions: which commands a caller may run on an issue, and running
 * them (metadata through one updateIssue call, time tracking, epics, duplicates, moves and clones).
 */
import type { Caller } from '../../platform/caller'
import { AccessLevel } from '../../platform/auth/access'
import type { ProjectRow } from '../../platform/db/rows'
import { findNamespaceById, findProject, findProjectById } from '../../platform/db/platform-queries'
import { findEpicIssueByIssue, type EpicRow } from '../epics'
import { promoteIssueToEpic, setIssueEpic } from '../epics'
import { findEpicByReference } from '../epics'
import { addSystemNote, issueTarget, referenceOf } from '../notes'
import type { QuickActionSet } from '../notes'
import {
  ADMIN_COMMANDS,
  EPIC_ONLY,
  MERGE_REQUEST_ONLY,
  groupChain,
  issuableCommand,
  labelIdsNamed,
  parseDueDate,
  personalCommandAvailable,
  quickActionSet,
  referencedIssuable,
  type IssuableCommands,
  type QuickAction,
  type QuickActionName,
  type QuickActionResult,
} from '../quick-actions'
import {
  assigneeIdsOf,
  findIssueById,
  HEALTH_STATUSES,
  labelsOf,
  updateIssueRow,
  type HealthStatus,
  type IssueRow,
} from './queries'
import { linkDuplicate } from './links'
import { canAdminIssues, cloneIssue, moveIssue, requireIssuesFeature, updateIssue, type IssueChanges } from './service'
import { canAdminEpics } from '../epics'

/** The quick actions of one issue, for its noteable. */
export function issueQuickActions(project: ProjectRow, issue: IssueRow): QuickActionSet {
  return quickActionSet(
    (caller, name) => issueCommandAvailable(caller, project, issue, name),
    (caller, actions) => executeIssueQuickActions(caller, project, issue, actions),
  )
}

const ISSUE_ADMIN_COMMANDS: ReadonlySet<QuickActionName> = new Set<QuickActionName>([
  'weight',
  'clear_weight',
  'health_status',
  'clear_health_status',
  'duplicate',
  'copy_metadata',
  'move',
  'clone',
])

/** The project `/move` or `/clone` names, when the caller can see it and file issues there; else why not. */
function copyTarget(caller: Caller, path: string, verb: 'move' | 'clone'): ProjectRow | string {
  const project = findProject(caller.db, path)
  const missing = `Unable to ${verb}. Target project or group doesn't exist or doesn't support this item type.`
  if (!project || !caller.perms.canReadProject(project) || project.archived === 1) return missing
  try {
    requireIssuesFeature(caller, project)
  } catch {
    return missing
  }
  return canAdminIssues(caller, project) ? project : `Unable to ${verb}. Insufficient permissions.`
}

function epicsAvailableFor(caller: Caller, project: ProjectRow): boolean {
  return (
    caller.ctx.settings.get('epics_enabled') === true &&
    findNamespaceById(caller.db, project.namespace_id)?.kind === 'group'
  )
}

/**
 * Whether the caller may run this command on the issue now (GitLab offers a command only when
 * it applies: /close on an open issue, /unlabel when labelled…). Metadata commands need Reporter;
 * /close, /reopen and /title also suit the issue's author. /promote is offered to Reporters
 * everywhere, so that a personal project or missing group rights answer GitLab's promotion error
 * instead of leaving the command in the text.
 */
export function issueCommandAvailable(
  caller: Caller,
  project: ProjectRow,
  issue: IssueRow,
  name: QuickActionName,
): boolean {
  const user = caller.user
  if (!user) return false
  const admin = caller.perms.canInProject(project, AccessLevel.REPORTER)
  const canUpdate = admin || user.id === issue.author_id
  if (EPIC_ONLY.has(name) || MERGE_REQUEST_ONLY.has(name)) return false
  if ((ADMIN_COMMANDS.has(name) || ISSUE_ADMIN_COMMANDS.has(name)) && !admin) return false
  const personal = personalCommandAvailable(
    caller,
    'Issue',
    issue.id,
    [issue.author_id, ...(assigneeIdsOf(caller.db, [issue.id]).get(issue.id) ?? [])],
    name,
  )
  if (personal !== undefined) return personal
  switch (name) {
    // Epics are offered in group projects while the feature is on, as GitLab does.
    case 'epic':
      return epicsAvailableFor(caller, project)
    case 'remove_epic':
      return epicsAvailableFor(caller, project) && findEpicIssueByIssue(caller.db, issue.id) !== undefined
    case 'close':
      return canUpdate && issue.state === 'opened'
    case 'reopen':
      return canUpdate && issue.state === 'closed'
    case 'title':
      return canUpdate
    case 'remove_milestone':
      return issue.milestone_id !== null
    case 'remove_due_date':
      return issue.due_date !== null
    case 'remove_estimate':
      return issue.time_estimate > 0
    case 'confidential':
      return issue.confidential === 0
    case 'lock':
      return issue.discussion_locked !== 1
    case 'unlock':
      return issue.discussion_locked === 1
    case 'clear_weight':
      return issue.weight !== null
    case 'clear_health_status':
      return issue.health_status !== null
    // A moved issue is closed for good: GitLab offers neither command on it.
    case 'move':
    case 'clone':
      return issue.moved_to_id === null
    default:
      return true
  }
}

/**
 * Runs an issue's commands with the caller's permissions (availability was checked by the
 * parser): metadata goes through one updateIssue call, estimates and spent time through the
 * time-tracking services. Commands whose argument is not understood do nothing.
 */
export function executeIssueQuickActions(
  caller: Caller,
  project: ProjectRow,
  issue: IssueRow,
  actions: readonly QuickAction[],
): QuickActionResult {
  const db = caller.db
  const changes: Record<string, unknown> = {}
  const messages: string[] = []
  const update: { -readonly [K in keyof IssueChanges]: IssueChanges[K] } = {}
  const timeSteps: (() => void)[] = []
  const steps: (() => void)[] = []
  const last: (() => void)[] = []
  const shared: IssuableCommands = {
    update,
    changes,
    messages,
    timeSteps,
    steps,
    last,
    item: { type: 'Issue', id: issue.id, projectId: project.id, title: issue.title },
    assignees: assigneeIdsOf(db, [issue.id]).get(issue.id) ?? [],
    noun: 'issue',
    clearedLabelsAs: 'label_ids',
  }
  // Moving or cloning copies the issue as the other commands left it, so it comes last.
  let copy: (() => void) | undefined
  let promote = false
  let epicChoice: EpicRow | null | undefined

  for (const action of actions) {
    switch (action.name) {
      case 'due': {
        const date = parseDueDate(action.arg)
        if (!date) break
        update.due_date = date
        changes.due_date = date
        messages.push(`Set the due date to ${date}.`)
        break
      }
      case 'remove_due_date':
        update.due_date = null
        changes.due_date = null
        messages.push('Removed the due date.')
        break
      case 'confidential':
        update.confidential = true
        changes.confidential = true
        messages.push('Made this issue confidential.')
        break
      case 'promote':
        promote = true
        changes.promote_to_epic = true
        messages.push('Promoted issue to an epic.')
        break
      case 'epic': {
        // An issue can join epics of its project's group and that group's ancestors.
        const group = findNamespaceById(db, project.namespace_id)
        const epic = group ? findEpicByReference(caller, group, action.arg) : undefined
        if (
          !epic ||
          !groupChain(caller, project).includes(epic.group_id) ||
          !canAdminEpics(caller.perms, epic.group_id)
        ) {
          messages.push("This epic does not exist or you don't have sufficient permission.")
          break
        }
        epicChoice = epic
        changes.epic = epic.id
        messages.push('Added an issue to an epic.')
        break
      }
      case 'remove_epic':
        epicChoice = null
        changes.epic = null
        messages.push('Removed an issue from an epic.')
        break
      case 'weight':
      case 'clear_weight': {
        const weight = action.name === 'clear_weight' ? null : /^\d+$/.test(action.arg) ? Number(action.arg) : undefined
        if (weight === undefined || (weight !== null && !Number.isSafeInteger(weight))) break
        update.weight = weight
        changes.weight = weight
        messages.push(weight === null ? 'Cleared weight.' : `Set weight to ${weight}.`)
        break
      }
      case 'health_status':
      case 'clear_health_status': {
        const value = action.arg.trim().toLowerCase()
        const status =
          action.name === 'clear_health_status'
            ? null
            : (HEALTH_STATUSES as readonly string[]).includes(value)
              ? (value as HealthStatus)
              : undefined
        if (status === undefined) break
        steps.push(() => setHealthStatus(caller, issue, status))
        changes.health_status = status
        messages.push(status === null ? 'Cleared health status.' : `Set health status to ${status}.`)
        break
      }
      case 'duplicate': {
        const found = referencedIssuable(caller, project, action.arg)
        const canonical = found?.type === 'Issue' ? findIssueById(db, found.id) : undefined
        if (!canonical) {
          messages.push('Failed to mark this issue as a duplicate because referenced issue was not found.')
          break
        }
        if (canonical.id === issue.id) {
          messages.push('Failed to mark the issue as duplicate of itself.')
          break
        }
        const canonicalProject = findProjectById(db, canonical.project_id) as ProjectRow
        // GitLab asks for the right to comment on the original: members only while it is locked.
        if (canonical.discussion_locked === 1 && !caller.perms.canInProject(canonicalProject, AccessLevel.GUEST)) {
          messages.push('Failed to mark this issue as duplicate due to insufficient permissions.')
          break
        }
        if (issue.state === 'opened') update.state_event = 'close'
        steps.push(() => markAsDuplicate(caller, issue, canonical))
        changes.canonical_issue_id = canonical.id
        messages.push(`Marked this issue as a duplicate of ${action.arg.trim()}.`)
        break
      }
      case 'move': {
        const path = action.arg.trim()
        const target = path
          ? copyTarget(caller, path, 'move')
          : "Unable to move. Target project or group doesn't exist or doesn't support this item type."
        if (typeof target === 'string') {
          messages.push(target)
          break
        }
        copy = () => void moveIssue(caller, project, findIssueById(db, issue.id) as IssueRow, target)
        changes.target_project_id = target.id
        messages.push(`Moved this issue to ${path}.`)
        break
      }
      case 'clone': {
        const words = action.arg.split(/\s+/).filter((w) => w !== '')
        const withNotes = words.includes('--with_notes')
        const paths = words.filter((w) => w !== '--with_notes')
        if (paths.length > 1) {
          messages.push('Failed to clone this issue: wrong parameters.')
          break
        }
        const path = paths[0] ?? projectFullPath(caller, project)
        const target = copyTarget(caller, path, 'clone')
        if (typeof target === 'string') {
          messages.push(target)
          break
        }
        copy = () => void cloneIssue(caller, project, findIssueById(db, issue.id) as IssueRow, target, withNotes)
        changes.target_clone_project_id = target.id
        changes.clone_with_notes = withNotes
        messages.push(`Cloned this issue to ${path}.`)
        break
      }
      default:
        issuableCommand(caller, project, action, shared)
        break
    }
  }

  // The labels a command removes are gone after the update: take their ids now.
  const removedIds = labelIdsNamed(update.remove_labels ?? [], labelsOf(db, [issue.id]).get(issue.id) ?? [])
  db.transaction(() => {
    if (Object.keys(update).length > 0) updateIssue(caller, project, issue, update)
    for (const step of timeSteps) step()
    const actor = caller.user
    if (epicChoice !== undefined && actor)
      setIssueEpic(db, findIssueById(db, issue.id) as IssueRow, epicChoice, actor.id)
    if (promote) promoteIssueToEpic(caller, project, issue)
    for (const step of [...steps, ...last]) step()
    if (copy) copy()
  })()
  // Labels are reported by id as GitLab does; resolve the names now that any new ones exist.
  const labelIds = (names: unknown): number[] => labelIdsNamed(names, labelsOf(db, [issue.id]).get(issue.id) ?? [])
  if (changes.add_label_names) {
    changes.add_label_ids = labelIds(changes.add_label_names)
    delete changes.add_label_names
  }
  if (changes.label_names) {
    changes.label_ids = labelIds(changes.label_names)
    delete changes.label_names
  }
  if (changes.remove_label_names) {
    changes.remove_label_ids = removedIds
    delete changes.remove_label_names
  }
  return { changes, messages }
}

// Issue writes that only quick actions make.

/**
 * Sets or clears an issue's health status (GitLab's Ultimate field; the REST issue edit does not
 * take it), with GitLab's system note.
 */
function setHealthStatus(caller: Caller, issue: IssueRow, status: HealthStatus | null): void {
  const db = caller.db
  const user = caller.user
  const before = (findIssueById(db, issue.id) as IssueRow).health_status
  if (!user || before === status) return
  updateIssueRow(db, issue.id, { health_status: status })
  const words = (s: string): string => s.replace(/_/g, ' ')
  const body =
    status !== null
      ? `changed health status to **${words(status)}**`
      : `removed health status **${words(before ?? '')}**`
  addSystemNote(db, issueTarget(issue), user.id, body, 'health_status')
}

/**
 * GitLab's duplicate service, after the command closed the issue: remembers the original
 * (`closed_as_duplicate_of`) and notes the link on both issues.
 */
function markAsDuplicate(caller: Caller, issue: IssueRow, canonical: IssueRow): void {
  const db = caller.db
  const user = caller.user
  if (!user) return
  updateIssueRow(db, issue.id, { duplicated_to_id: canonical.id })
  linkDuplicate(caller, issue, canonical)
  const dup = issueTarget(issue)
  const original = issueTarget(canonical)
  addSystemNote(
    db,
    dup,
    user.id,
    `marked this issue as a duplicate of ${referenceOf(db, original, { projectId: issue.project_id })}`,
    'duplicate',
    { ref: original },
  )
  addSystemNote(
    db,
    original,
    user.id,
    `marked ${referenceOf(db, dup, { projectId: canonical.project_id })} as a duplicate of this issue`,
    'duplicate',
    { ref: dup },
  )
}

function projectFullPath(caller: Caller, project: ProjectRow): string {
  return `${findNamespaceById(caller.db, project.namespace_id)?.full_path ?? ''}/${project.path}`
}
