import type { FastifyRequest } from 'fastify'
import { AccessLevel } from '../../platform/auth/access'
import { assigneeIdsOf, findIssueByIid, updateIssueRow, type IssueRow } from '../issues/queries'
import type { ProjectRow } from '../../platform/db/rows'
import { findSnippetById, type SnippetRow } from '../snippets/queries'
import { findProjectWithNamespace } from '../projects/queries'
import { findMergeRequestByIid, updateMergeRequestRow, type MergeRequestRow } from '../merge-requests/queries'
import { canReadMergeRequestsWith } from '../merge-requests/service'
import { projectSnippetWebUrl } from '../snippets/entity'
import { notFound, unauthorized } from '../../platform/http/errors'
import { loadProject } from '../../platform/http/resolve'
import { epicNoteableKind } from '../epics/service'
import type { Noteable } from './service'
import {
  executeIssueQuickActions,
  executeMergeRequestQuickActions,
  issueCommandAvailable,
  mergeRequestCommandAvailable,
} from '../quick-actions/service'
import { canReadSnippet } from '../snippets/service'
import { canUserReadIssue } from '../issues/policy'

/**
 * One family of noteables under `/<parent>/:id/<segment>/:<param>`: how to find the one named in
 * the URL (`:id` is the project or group; 404 when missing or unreadable).
 */
export interface NoteableKind {
  readonly parent: 'projects' | 'groups'
  readonly segment: 'issues' | 'merge_requests' | 'snippets' | 'epics'
  readonly param: 'issue_iid' | 'merge_request_iid' | 'snippet_id' | 'epic_id'
  load(request: FastifyRequest, parentId: string, key: number): Noteable
}

/** `${base}/${namespace full path}/${project path}` */
export function projectWebUrlOf(request: FastifyRequest, project: ProjectRow): string {
  const p = findProjectWithNamespace(request.server.burrow.db, project.id)
  return `${request.server.burrow.baseUrl(request)}/${p?.ns_full_path}/${project.path}`
}

/** A project snippet as a noteable. */
export function snippetNoteable(request: FastifyRequest, project: ProjectRow, snippet: SnippetRow): Noteable {
  return {
    type: 'Snippet',
    id: snippet.id,
    iid: null,
    container: { kind: 'project', project },
    title: snippet.title,
    webUrl: projectSnippetWebUrl(projectWebUrlOf(request, project), snippet.id),
    discussionLocked: false,
    todoTarget: false,
    canRead: (perms) => canReadSnippet(perms, project, snippet),
    touch: (req, at) => {
      req.server.burrow.db.prepare('UPDATE snippets SET updated_at = ? WHERE id = ?').run(at, snippet.id)
    },
  }
}

const snippetKind: NoteableKind = {
  parent: 'projects',
  segment: 'snippets',
  param: 'snippet_id',
  load(request, parentId, key) {
    const project = loadProject(request, parentId)
    const snippet = findSnippetById(request.server.burrow.db, key)
    if (!snippet || snippet.project_id !== project.id || !canReadSnippet(request.perms, project, snippet))
      throw notFound('Snippet')
    return snippetNoteable(request, project, snippet)
  },
}

export { canUserReadIssue }

/** An issue as a noteable: quick actions, mention to-dos, locked discussions. */
export function issueNoteable(request: FastifyRequest, project: ProjectRow, issue: IssueRow): Noteable {
  const assignees = assigneeIdsOf(request.server.burrow.db, [issue.id]).get(issue.id) ?? []
  return {
    type: 'Issue',
    id: issue.id,
    iid: issue.iid,
    container: { kind: 'project', project },
    title: issue.title,
    webUrl: `${projectWebUrlOf(request, project)}/-/issues/${issue.iid}`,
    discussionLocked: issue.discussion_locked === 1,
    todoTarget: true,
    canRead: (perms) => canUserReadIssue(perms, project, issue, assignees),
    availableCommands: (req, name) => issueCommandAvailable(req, project, issue, name),
    runQuickActions: (req, actions) => executeIssueQuickActions(req, project, issue, actions),
    touch: (req, at) => {
      updateIssueRow(req.server.burrow.db, issue.id, { updated_at: at })
    },
  }
}

const issueKind: NoteableKind = {
  parent: 'projects',
  segment: 'issues',
  param: 'issue_iid',
  load(request, parentId, key) {
    const project = loadProject(request, parentId)
    const issue = findIssueByIid(request.server.burrow.db, project.id, key)
    const assignees = issue ? (assigneeIdsOf(request.server.burrow.db, [issue.id]).get(issue.id) ?? []) : []
    if (!issue || !canUserReadIssue(request.perms, project, issue, assignees)) throw notFound('Issue')
    return issueNoteable(request, project, issue)
  },
}

/** The `merge_request_diff_head_sha` a note request sends with a `/merge` (GitLab's notes API parameter). */
function diffHeadShaOf(request: FastifyRequest): string | undefined {
  const sha = (request.body as Readonly<Record<string, unknown>> | undefined)?.merge_request_diff_head_sha
  return typeof sha === 'string' && sha !== '' ? sha : undefined
}

/** A merge request as a noteable: quick actions, mention to-dos, locked discussions, resolvable threads. */
export function mergeRequestNoteable(request: FastifyRequest, project: ProjectRow, mr: MergeRequestRow): Noteable {
  return {
    type: 'MergeRequest',
    id: mr.id,
    iid: mr.iid,
    container: { kind: 'project', project },
    title: mr.title,
    webUrl: `${projectWebUrlOf(request, project)}/-/merge_requests/${mr.iid}`,
    discussionLocked: mr.discussion_locked === 1,
    todoTarget: true,
    resolvableThreads: true,
    availableCommands: (req, name) => mergeRequestCommandAvailable(req, project, mr, name),
    runQuickActions: (req, actions) =>
      executeMergeRequestQuickActions(req, project, mr, actions, { diffHeadSha: diffHeadShaOf(req) }),
    canResolve: (req) => req.actor.user?.id === mr.author_id || req.perms.canInProject(project, AccessLevel.DEVELOPER),
    canRead: (perms) => canReadMergeRequestsWith(perms, project),
    touch: (req, at) => {
      updateMergeRequestRow(req.server.burrow.db, mr.id, { updated_at: at }, false)
    },
  }
}

const mergeRequestKind: NoteableKind = {
  parent: 'projects',
  segment: 'merge_requests',
  param: 'merge_request_iid',
  load(request, parentId, key) {
    // Merge request calls are all authenticated (the spec), their notes and discussions included.
    if (!request.actor.user) throw unauthorized()
    const project = loadProject(request, parentId)
    const mr = findMergeRequestByIid(request.server.burrow.db, project.id, key)
    if (!mr || !canReadMergeRequestsWith(request.perms, project)) throw notFound('Merge Request')
    return mergeRequestNoteable(request, project, mr)
  },
}

/** Every noteable family with notes and discussions routes. */
export const noteableKinds: readonly NoteableKind[] = [issueKind, mergeRequestKind, snippetKind, epicNoteableKind]
