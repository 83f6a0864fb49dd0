import type { IssueLink, LinkedIssue } from '../../../shared/api/issue-link'
import type { IssueLinkType } from '../../../shared/api/issue-link'
import { ReadableItems } from '../../platform/auth/readable'
import type { Caller } from '../../platform/caller'
import { nowIso } from '../../platform/db/connection'
import { findProjectById } from '../../platform/db/platform-queries'
import type { ProjectRow } from '../../platform/db/rows'
import { apiMessage, conflict, forbidden, notFound, unprocessable } from '../../platform/http/errors'
import { addSystemNote, issueTarget, referenceOf } from '../notes'
import {
  deleteIssueLink,
  findIssueLinkBetween,
  findIssueLinkById,
  insertIssueLink,
  issueLinksOf,
  type IssueLinkRow,
} from './links-queries'
import { canLinkIssueWith } from './policy'
import { assigneeIdsOf, findIssueById, updateIssueRow, type IssueRow } from './queries'
import { presentIssues } from './service'

// GitLab's issue links (IssueLinks::CreateService, ListService, DestroyService): related and
// blocking issues. "Is blocked by" is stored as the other issue blocking this one.

const NO_MATCHING_ISSUE = 'No matching issue found. Make sure that you are adding a valid issue URL.'

/** Whether the caller may link the issue to others and remove its links (GitLab's admin_issue_link). */
export function canLinkIssue(caller: Caller, issue: IssueRow): boolean {
  const project = findProjectById(caller.db, issue.project_id)
  if (!project) return false
  const assignees = issue.confidential === 1 ? (assigneeIdsOf(caller.db, [issue.id]).get(issue.id) ?? []) : []
  return canLinkIssueWith(caller.perms, project, issue, assignees)
}

/** The link's type as `issueId` sees it: a link it is the target of blocks it. */
function typeSeenFrom(link: IssueLinkRow, issueId: number): IssueLinkType {
  if (link.link_type === 'relates_to') return 'relates_to'
  return link.source_id === issueId ? 'blocks' : 'is_blocked_by'
}

/**
 * The issues linked to `issue` that the caller may read, oldest link first, each with the link's
 * id, type (as seen from `issue`) and times: a linked issue the caller may not read (a
 * confidential one, one of a private project) is never shown.
 */
export function listLinkedIssues(caller: Caller, project: ProjectRow, issue: IssueRow): LinkedIssue[] {
  const readable = new ReadableItems(caller.db, caller.perms)
  const links = issueLinksOf(caller.db, issue.id)
    .map((link) => ({ link, otherId: link.source_id === issue.id ? link.target_id : link.source_id }))
    .filter(({ otherId }) => readable.item('Issue', otherId))
  const others = links.map(({ otherId }) => findIssueById(caller.db, otherId) as IssueRow)
  const entities = presentIssues(caller, others, { origin: { kind: 'project', projectId: project.id } })
  return links.map(({ link }, i) => ({
    ...entities[i],
    issue_link_id: link.id,
    link_type: typeSeenFrom(link, issue.id),
    link_created_at: link.created_at,
    link_updated_at: link.updated_at,
  }))
}

/**
 * Links `issue` to `target` (GitLab's IssueLinks::CreateService): the caller must be able to link
 * both (403 on the source, 404 on the target, as GitLab answers), an issue is never linked to
 * itself, and two issues are linked once whatever the type (409).
 */
export function linkIssues(caller: Caller, issue: IssueRow, target: IssueRow, type: IssueLinkType): IssueLinkRow {
  if (!canLinkIssue(caller, issue)) throw forbidden()
  if (!canLinkIssue(caller, target)) throw apiMessage(404, NO_MATCHING_ISSUE)
  if (target.id === issue.id) throw unprocessable('Source cannot be related to itself')
  if (findIssueLinkBetween(caller.db, issue.id, target.id)) throw conflict('Issue(s) already assigned')
  const [source, blocked] = type === 'is_blocked_by' ? [target, issue] : [issue, target]
  return insertLink(caller, source, blocked, type === 'relates_to' ? 'relates_to' : 'blocks')
}

/**
 * Stores a link and notes it on both issues, which it marks updated (a note touches its
 * noteable, as in GitLab), so a client syncing by `updated_after` sees the link change.
 */
function insertLink(caller: Caller, source: IssueRow, target: IssueRow, type: 'relates_to' | 'blocks'): IssueLinkRow {
  return caller.db.transaction(() => {
    const now = nowIso()
    const link = insertIssueLink(caller.db, { sourceId: source.id, targetId: target.id, type, now })
    const [toTarget, toSource] =
      type === 'blocks'
        ? ['marked this issue as blocking', 'marked this issue as blocked by']
        : ['marked this issue as related to', 'marked this issue as related to']
    noteOnIssue(caller, source, target, toTarget, 'relate', now)
    noteOnIssue(caller, target, source, toSource, 'relate', now)
    return link
  })()
}

/** A system note on `issue` naming `other` (`<words> group/project#12`), the issue touched. */
function noteOnIssue(
  caller: Caller,
  issue: IssueRow,
  other: IssueRow,
  words: string,
  action: string,
  at: string,
): void {
  const ref = issueTarget(other)
  const reference = referenceOf(caller.db, ref, { projectId: issue.project_id })
  // The other issue is the note's source, so the notes list hides it from whoever may not read that issue.
  if (caller.user)
    addSystemNote(caller.db, issueTarget(issue), caller.user.id, `${words} ${reference}`, action, { ref })
  updateIssueRow(caller.db, issue.id, { updated_at: at })
}

/**
 * `/duplicate` relates the duplicate to its original, as GitLab's duplicate service does: unless
 * they are linked already or the caller may not link both (then the issue is closed all the same).
 */
export function linkDuplicate(caller: Caller, duplicate: IssueRow, canonical: IssueRow): void {
  if (findIssueLinkBetween(caller.db, duplicate.id, canonical.id)) return
  if (!canLinkIssue(caller, duplicate) || !canLinkIssue(caller, canonical)) return
  insertLink(caller, duplicate, canonical, 'relates_to')
}

/** A link of `issue` whose other issue the caller may read; 404 otherwise. */
export function loadIssueLink(caller: Caller, issue: IssueRow, linkId: number): IssueLinkRow {
  const link = findIssueLinkById(caller.db, linkId)
  if (!link || (link.source_id !== issue.id && link.target_id !== issue.id)) throw notFound()
  const otherId = link.source_id === issue.id ? link.target_id : link.source_id
  if (!new ReadableItems(caller.db, caller.perms).item('Issue', otherId)) throw notFound()
  return link
}

/** Removes a link: the caller must be able to link both its issues (404 "No Issue Link found" otherwise). */
export function unlinkIssues(caller: Caller, link: IssueLinkRow): void {
  const ends = [link.source_id, link.target_id].map((id) => findIssueById(caller.db, id))
  if (!ends.every((end) => end !== undefined && canLinkIssue(caller, end))) throw apiMessage(404, 'No Issue Link found')
  const [source, target] = ends as [IssueRow, IssueRow]
  caller.db.transaction(() => {
    const now = nowIso()
    deleteIssueLink(caller.db, link.id)
    noteOnIssue(caller, source, target, 'removed the relation with', 'unrelate', now)
    noteOnIssue(caller, target, source, 'removed the relation with', 'unrelate', now)
  })()
}

/** GitLab's IssueLink entity: the stored source and target issues and the stored type. */
export function presentIssueLink(caller: Caller, project: ProjectRow, link: IssueLinkRow): IssueLink {
  const [source, target] = presentIssues(
    caller,
    [link.source_id, link.target_id].map((id) => findIssueById(caller.db, id) as IssueRow),
    { origin: { kind: 'project', projectId: project.id } },
  )
  return { source_issue: source, target_issue: target, link_type: link.link_type }
}
