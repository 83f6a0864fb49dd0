import type { Caller } from '../../platform/caller'
import { AccessLevel } from '../../platform/auth/access'
import { assigneeIdsOf, findIssueByIid, updateIssueRow, type IssueRow } from '../issues/queries'
import type { NamespaceRow, ProjectRow } from '../../platform/db/rows'
import { findSnippetById, type SnippetRow } from '../snippets/queries'
import { findProjectWithNamespace } from '../projects/queries'
import { findMergeRequestByIid, updateMergeRequestRow, type MergeRequestRow } from '../merge-requests/queries'
import { canReadMergeRequestsWith } from '../merge-requests/service'
import { projectSnippetWebUrl } from '../snippets/entity'
import { notFound, unauthorized } from '../../platform/http/errors'
import { epicNoteableKind } from '../epics/service'
import type { Noteable } from './service'
import {
  executeIssueQuickActions,
  executeMergeRequestQuickActions,
  issueCommandAvailable,
  mergeRequestCommandAvailable,
} from '../quick-actions/service'
import { canReadSnippet } from '../snippets'
import { canUserReadIssue } from '../issues/policy'

interface NoteableKindOf<Parent extends 'projects' | 'groups', Row> {
  readonly parent: Parent
  readonly segment: 'issues' | 'merge_requests' | 'snippets' | 'epics'
  readonly param: 'issue_iid' | 'merge_request_iid' | 'snippet_id' | 'epic_id' | 'epic_iid'
  /** Refusals that come before the parent is looked up (sign-in, a feature switched off). */
  precheck?(caller: Caller): void
  /** The noteable `key` of the parent, which the caller may read; 404 when missing or unreadable. */
  find(caller: Caller, parent: Row, key: number): Noteable
  /** How award emoji routes of this family's notes name the noteable, when not as its notes routes do (epics: by iid). */
  readonly awardKind?: NoteableKindOf<Parent, Row>
}

/**
 * One family of noteables under `/<parent>/:id/<segment>/:<param>`: how to find the one named in
 * the URL once the route has loaded `:id`, the project or group.
 */
export type NoteableKind = NoteableKindOf<'projects', ProjectRow> | NoteableKindOf<'groups', NamespaceRow>

/** `${base}/${namespace full path}/${project path}` */
export function projectWebUrlOf(caller: Caller, project: ProjectRow): string {
  const p = findProjectWithNamespace(caller.db, project.id)
  return `${caller.baseUrl}/${p?.ns_full_path}/${project.path}`
}

/** A project snippet as a noteable. */
export function snippetNoteable(caller: Caller, project: ProjectRow, snippet: SnippetRow): Noteable {
  return {
    type: 'Snippet',
    id: snippet.id,
    iid: null,
    container: { kind: 'project', project },
    title: snippet.title,
    webUrl: projectSnippetWebUrl(projectWebUrlOf(caller, project), snippet.id),
    discussionLocked: false,
    todoTarget: false,
    canRead: (perms) => canReadSnippet(perms, project, snippet),
    touch: (caller, at) => {
      caller.db.prepare('UPDATE snippets SET updated_at = ? WHERE id = ?').run(at, snippet.id)
    },
  }
}

const snippetKind: NoteableKind = {
  parent: 'projects',
  segment: 'snippets',
  param: 'snippet_id',
  find(caller, project, key) {
    const snippet = findSnippetById(caller.db, key)
    if (!snippet || snippet.project_id !== project.id || !canReadSnippet(caller.perms, project, snippet))
      throw notFound('Snippet')
    return snippetNoteable(caller, project, snippet)
  },
}

export { canUserReadIssue }

/** An issue as a noteable: quick actions, mention to-dos, locked discussions. */
export function issueNoteable(caller: Caller, project: ProjectRow, issue: IssueRow): Noteable {
  const assignees = assigneeIdsOf(caller.db, [issue.id]).get(issue.id) ?? []
  return {
    type: 'Issue',
    id: issue.id,
    iid: issue.iid,
    container: { kind: 'project', project },
    title: issue.title,
    webUrl: `${projectWebUrlOf(caller, project)}/-/issues/${issue.iid}`,
    discussionLocked: issue.discussion_locked === 1,
    todoTarget: true,
    canRead: (perms) => canUserReadIssue(perms, project, issue, assignees),
    availableCommands: (caller, name) => issueCommandAvailable(caller, project, issue, name),
    runQuickActions: (caller, actions) => executeIssueQuickActions(caller, project, issue, actions),
    touch: (caller, at) => {
      updateIssueRow(caller.db, issue.id, { updated_at: at })
    },
  }
}

const issueKind: NoteableKind = {
  parent: 'projects',
  segment: 'issues',
  param: 'issue_iid',
  find(caller, project, key) {
    const issue = findIssueByIid(caller.db, project.id, key)
    const assignees = issue ? (assigneeIdsOf(caller.db, [issue.id]).get(issue.id) ?? []) : []
    if (!issue || !canUserReadIssue(caller.perms, project, issue, assignees)) throw notFound('Issue')
    return issueNoteable(caller, project, issue)
  },
}

/** A merge request as a noteable: quick actions, mention to-dos, locked discussions, resolvable threads. */
export function mergeRequestNoteable(caller: Caller, project: ProjectRow, mr: MergeRequestRow): Noteable {
  return {
    type: 'MergeRequest',
    id: mr.id,
    iid: mr.iid,
    container: { kind: 'project', project },
    title: mr.title,
    webUrl: `${projectWebUrlOf(caller, project)}/-/merge_requests/${mr.iid}`,
    discussionLocked: mr.discussion_locked === 1,
    todoTarget: true,
    resolvableThreads: true,
    availableCommands: (caller, name) => mergeRequestCommandAvailable(caller, project, mr, name),
    runQuickActions: (caller, actions, params) => executeMergeRequestQuickActions(caller, project, mr, actions, params),
    canResolve: (caller) =>
      caller.user?.id === mr.author_id || caller.perms.canInProject(project, AccessLevel.DEVELOPER),
    canRead: (perms) => canReadMergeRequestsWith(perms, project),
    touch: (caller, at) => {
      updateMergeRequestRow(caller.db, mr.id, { updated_at: at }, false)
    },
  }
}

const mergeRequestKind: NoteableKind = {
  parent: 'projects',
  segment: 'merge_requests',
  param: 'merge_request_iid',
  // Merge request calls are all authenticated (the spec), their notes and discussions included.
  precheck(caller) {
    if (!caller.user) throw unauthorized()
  },
  find(caller, project, key) {
    const mr = findMergeRequestByIid(caller.db, project.id, key)
    if (!mr || !canReadMergeRequestsWith(caller.perms, project)) throw notFound('Merge Request')
    return mergeRequestNoteable(caller, project, mr)
  },
}

/** Every noteable family with notes and discussions routes. */
export const noteableKinds: readonly NoteableKind[] = [issueKind, mergeRequestKind, snippetKind, epicNoteableKind]
