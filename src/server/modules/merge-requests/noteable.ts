/** Merge requests as a noteable family (notes, resolvable threads, quick actions) and as references (`!3`). */
import type { Caller } from '../../platform/caller'
import { AccessLevel } from '../../platform/auth/access'
import type { ProjectRow } from '../../platform/db/rows'
import { notFound, unauthorized } from '../../platform/http/errors'
import { findProjectById } from '../../platform/db/platform-queries'
import type { NoteableKind, ReferenceFamily } from '../notes'
import { projectWebUrl, type Noteable } from '../notes'
import { mergeRequestTarget } from '../notes'
import {
  findMergeRequestById,
  findMergeRequestByIid,
  labelsOf,
  updateMergeRequestRow,
  type MergeRequestRow,
} from './queries'
import { mergeRequestQuickActions } from './quick-actions'
import { canReadMergeRequestsWith } from './policy'
import { checkDiffPosition, latestCommitShas } from './versions'
import { commitNoteableIdsOf, hasCommitNoteables } from '../commit-notes'

/** How many of its newest commits' comments a merge request's discussions show (GitLab's limit). */
const RELATED_COMMITS = 100

/** A merge request as a noteable: quick actions, mention to-dos, locked discussions, resolvable threads. */
export function mergeRequestNoteable(caller: Caller, project: ProjectRow, mr: MergeRequestRow): Noteable {
  return {
    type: 'MergeRequest',
    id: mr.id,
    iid: mr.iid,
    container: { kind: 'project', project },
    title: mr.title,
    webUrl: `${projectWebUrl(caller, project)}/-/merge_requests/${mr.iid}`,
    discussionLocked: mr.discussion_locked === 1,
    todoTarget: true,
    resolvableThreads: true,
    quickActions: mergeRequestQuickActions(project, mr),
    canResolve: (caller) =>
      caller.user?.id === mr.author_id || caller.perms.canInProject(project, AccessLevel.DEVELOPER),
    canRead: (perms) => canReadMergeRequestsWith(perms, project),
    checkDiffPosition: (caller, position, commitId) => checkDiffPosition(caller, project, mr, position, commitId),
    // Comments on its newest 100 commits show in its discussions, as GitLab's related_notes.
    relatedCommitNoteables: async (caller) =>
      hasCommitNoteables(caller.db, project.id)
        ? commitNoteableIdsOf(caller.db, project.id, await latestCommitShas(caller, project, mr, RELATED_COMMITS))
        : [],
    touch: (caller, at) => {
      updateMergeRequestRow(caller.db, mr.id, { updated_at: at }, false)
    },
  }
}

/** The notes and discussions family of merge requests. */
export const mergeRequestNoteableKind: NoteableKind = {
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

/** Merge requests as references: `!3` in their project, `project!3` or `group/project!3` elsewhere. */
export const mergeRequestReferences: ReferenceFamily = {
  type: 'MergeRequest',
  sigil: '!',
  scope: 'project',
  find(db, projectId, iid, reader) {
    const mr = findMergeRequestByIid(db, projectId, iid)
    return mr && canReadMergeRequestsWith(reader, findProjectById(db, projectId) as ProjectRow)
      ? mergeRequestTarget(mr)
      : null
  },
  target(db, id) {
    const mr = findMergeRequestById(db, id)
    return mr ? mergeRequestTarget(mr) : undefined
  },
  noun: () => 'merge request',
  touch(db, id, at) {
    updateMergeRequestRow(db, id, { updated_at: at }, false)
  },
  metadata(db, id) {
    const mr = findMergeRequestById(db, id) as MergeRequestRow
    return { labels: (labelsOf(db, [id]).get(id) ?? []).map((l) => l.title), milestoneId: mr.milestone_id }
  },
}
