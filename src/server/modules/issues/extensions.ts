/**
 * What other families add to issues: the epic an issue belongs to (the epics module) and the merge
 * requests that mention or close it (the merge requests module). Both build on issues, so issues
 * cannot import them without a cycle: each fills its part here at startup (modules/index.ts), and
 * the issues service asks through these functions, knowing neither module.
 */
import type { IssueEpic } from '../../../shared/api/issue'
import type { MergeRequest } from '../../../shared/api/merge-request'
import type { Caller } from '../../platform/caller'
import type { Db } from '../../platform/db/connection'
import type { ProjectRow } from '../../platform/db/rows'
import type { EpicRow } from '../epics'
import type { IssueRow } from './queries'

/** The epic side of issues (`epic`/`epic_iid` fields, the `epic_id`/`epic_iid` parameters). */
export interface IssueEpics {
  /** The `epic` each issue of a page shows; issues without the fields (personal projects, epics off) have no entry. */
  fields(
    caller: Caller,
    issues: readonly IssueRow[],
    groupProjectIds: ReadonlySet<number>,
  ): ReadonlyMap<number, IssueEpic | null>
  /** The epic `epic_id`/`epic_iid` name on create or update: undefined when not given, null to leave it. */
  param(caller: Caller, project: ProjectRow, params: Readonly<Record<string, unknown>>): EpicRow | null | undefined
  /** Applies the choice `param` read: link, move or leave. */
  set(db: Db, issue: IssueRow, epic: EpicRow | null, actorId: number): void
  /** Hands a moved or cloned issue's epic to its copy. */
  carry(caller: Caller, from: IssueRow, to: IssueRow, mode: 'move' | 'clone'): void
}

/** The merge request side of issues (`merge_requests_count`, related and closing merge requests). */
export interface IssueMergeRequests {
  /** Per issue: how many merge requests of its project close it. */
  closingCounts(db: Db, issues: readonly IssueRow[]): ReadonlyMap<number, number>
  /** The merge requests of the project that mention the issue (`related`) or would close it (`closed_by`), presented. */
  referencing(caller: Caller, projectId: number, issueIid: number, kind: 'related' | 'closed_by'): MergeRequest[]
}

let epics: IssueEpics | undefined
let mergeRequests: IssueMergeRequests | undefined

/** Sets the epic side of issues (the epics module, at startup). */
export function registerIssueEpics(side: IssueEpics): void {
  epics = side
}

/** Sets the merge request side of issues (the merge requests module, at startup). */
export function registerIssueMergeRequests(side: IssueMergeRequests): void {
  mergeRequests = side
}

/** The registered epic side; asking before startup filled it is a programming error. */
export function issueEpics(): IssueEpics {
  if (!epics) throw new Error('the epics side of issues is not registered')
  return epics
}

/** The registered merge request side; asking before startup filled it is a programming error. */
export function issueMergeRequests(): IssueMergeRequests {
  if (!mergeRequests) throw new Error('the merge requests side of issues is not registered')
  return mergeRequests
}
