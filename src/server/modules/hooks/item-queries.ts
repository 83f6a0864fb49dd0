import type { IssueRow } from '../issues'
import type { MergeRequestRow } from '../merge-requests'
import type { NoteRow } from '../notes'
import type { JobRow, PipelineRow } from '../pipelines'
import type { ReleaseRow } from '../releases'
import type { Db } from '../../platform/db/connection'
import type { UserRow } from '../../platform/db/rows'
import { cachedStatement } from '../../platform/db/statements'

/** A label as item events embed it. */
export interface HookLabelRow {
  readonly id: number
  readonly title: string
  readonly color: string
  readonly description: string | null
  readonly project_id: number | null
  readonly group_id: number | null
  readonly created_at: string
  readonly updated_at: string
}

export function issueById(db: Db, id: number): IssueRow | undefined {
  return cachedStatement(db, 'SELECT * FROM issues WHERE id = ?').get(id) as IssueRow | undefined
}

export function mergeRequestById(db: Db, id: number): MergeRequestRow | undefined {
  return cachedStatement(db, 'SELECT * FROM merge_requests WHERE id = ?').get(id) as MergeRequestRow | undefined
}

export function noteById(db: Db, id: number): NoteRow | undefined {
  return cachedStatement(db, 'SELECT * FROM notes WHERE id = ?').get(id) as NoteRow | undefined
}

/** The labels an issue or merge request carries, by title. */
export function itemLabels(db: Db, type: 'Issue' | 'MergeRequest', id: number): HookLabelRow[] {
  return cachedStatement(
    db,
    `SELECT l.* FROM label_links ll JOIN labels l ON l.id = ll.label_id
     WHERE ll.target_type = ? AND ll.target_id = ? ORDER BY l.title`,
  ).all(type, id) as HookLabelRow[]
}

/** The users of an item's assignee or reviewer list, by id. */
export function itemUsers(
  db: Db,
  list: 'issue_assignees' | 'merge_request_assignees' | 'merge_request_reviewers',
  id: number,
): UserRow[] {
  const column = list === 'issue_assignees' ? 'issue_id' : 'merge_request_id'
  return cachedStatement(
    db,
    `SELECT u.* FROM ${list} x JOIN users u ON u.id = x.user_id WHERE x.${column} = ? ORDER BY u.id`,
  ).all(id) as UserRow[]
}

/** The project's newest issue. */
export function latestIssue(db: Db, projectId: number): IssueRow | undefined {
  return cachedStatement(db, 'SELECT * FROM issues WHERE project_id = ? ORDER BY id DESC LIMIT 1').get(projectId) as
    IssueRow | undefined
}

/** The project's newest merge request. */
export function latestMergeRequest(db: Db, projectId: number): MergeRequestRow | undefined {
  return cachedStatement(db, 'SELECT * FROM merge_requests WHERE project_id = ? ORDER BY id DESC LIMIT 1').get(
    projectId,
  ) as MergeRequestRow | undefined
}

/** The project's newest comment on an issue or merge request. */
export function latestNote(db: Db, projectId: number): NoteRow | undefined {
  return cachedStatement(
    db,
    `SELECT * FROM notes WHERE project_id = ? AND system = 0 AND noteable_type IN ('Issue', 'MergeRequest')
     ORDER BY id DESC LIMIT 1`,
  ).get(projectId) as NoteRow | undefined
}

/** The project's newest pipeline. */
export function latestPipeline(db: Db, projectId: number): PipelineRow | undefined {
  return cachedStatement(db, 'SELECT * FROM ci_pipelines WHERE project_id = ? ORDER BY id DESC LIMIT 1').get(
    projectId,
  ) as PipelineRow | undefined
}

/** The project's newest job of a CI configuration. */
export function latestJob(db: Db, projectId: number): JobRow | undefined {
  return cachedStatement(
    db,
    "SELECT * FROM ci_builds WHERE project_id = ? AND type = 'build' ORDER BY id DESC LIMIT 1",
  ).get(projectId) as JobRow | undefined
}

/** A release asset link as release events embed it. */
export interface HookReleaseLinkRow {
  readonly id: number
  readonly name: string
  readonly url: string
  readonly link_type: string
}

export function releaseLinks(db: Db, releaseId: number): HookReleaseLinkRow[] {
  return cachedStatement(db, 'SELECT id, name, url, link_type FROM release_links WHERE release_id = ? ORDER BY id').all(
    releaseId,
  ) as HookReleaseLinkRow[]
}

/** The project's newest release. */
export function latestRelease(db: Db, projectId: number): ReleaseRow | undefined {
  return cachedStatement(
    db,
    'SELECT * FROM releases WHERE project_id = ? ORDER BY released_at DESC, id DESC LIMIT 1',
  ).get(projectId) as ReleaseRow | undefined
}
