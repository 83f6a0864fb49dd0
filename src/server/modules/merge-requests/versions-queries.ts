import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'

/** A row of `merge_request_diffs`: one diff version of a merge request. */
export interface DiffVersionRow {
  readonly id: number
  readonly merge_request_id: number
  readonly head_commit_sha: string
  readonly base_commit_sha: string | null
  readonly start_commit_sha: string | null
  readonly state: 'collected' | 'empty'
  readonly real_size: string | null
  readonly created_at: string
}

/** The diff refs a merge request row carries now. */
export interface DiffRefs {
  readonly head_sha: string | null
  readonly base_sha: string | null
  readonly start_sha: string | null
}

/** A merge request's diff versions, newest first (GitLab's order). */
export function diffVersionsOf(db: Db, mergeRequestId: number): DiffVersionRow[] {
  return db
    .prepare('SELECT * FROM merge_request_diffs WHERE merge_request_id = ? ORDER BY id DESC')
    .all(mergeRequestId) as DiffVersionRow[]
}

function latestDiffVersion(db: Db, mergeRequestId: number): DiffVersionRow | undefined {
  return db
    .prepare('SELECT * FROM merge_request_diffs WHERE merge_request_id = ? ORDER BY id DESC LIMIT 1')
    .get(mergeRequestId) as DiffVersionRow | undefined
}

/**
 * Records a new diff version when the merge request's refs differ from its latest version's
 * (nothing without a head): every write of a merge request row calls it, so `diff_refs` always
 * are the latest version's. Returns the latest version.
 */
export function syncDiffVersion(db: Db, mergeRequestId: number, refs: DiffRefs): DiffVersionRow | undefined {
  const latest = latestDiffVersion(db, mergeRequestId)
  if (!refs.head_sha) return latest
  if (
    latest &&
    latest.head_commit_sha === refs.head_sha &&
    latest.base_commit_sha === refs.base_sha &&
    latest.start_commit_sha === refs.start_sha
  )
    return latest
  db.prepare(
    `INSERT INTO merge_request_diffs (merge_request_id, head_commit_sha, base_commit_sha, start_commit_sha, created_at)
     VALUES (?, ?, ?, ?, ?)`,
  ).run(mergeRequestId, refs.head_sha, refs.base_sha, refs.start_sha, nowIso())
  return latestDiffVersion(db, mergeRequestId)
}

/** Stores what reading a version's diff found: its changed file count and whether it is empty. */
export function setDiffVersionSize(db: Db, id: number, realSize: number): void {
  db.prepare('UPDATE merge_request_diffs SET real_size = ?, state = ? WHERE id = ?').run(
    String(realSize),
    realSize === 0 ? 'empty' : 'collected',
    id,
  )
}
