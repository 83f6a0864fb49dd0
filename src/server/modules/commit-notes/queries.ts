import type { Db } from '../../platform/db/connection'
import { cachedStatement } from '../../platform/db/statements'

/** A commit of a project as a noteable: the id its notes name as `noteable_id`. */
export interface CommitNoteableRow {
  readonly id: number
  readonly project_id: number
  readonly sha: string
}

/** The noteable id of a project's commit, made the first time the commit is asked for. */
export function commitNoteableId(db: Db, projectId: number, sha: string): number {
  cachedStatement(db, 'INSERT OR IGNORE INTO commit_noteables (project_id, sha) VALUES (?, ?)').run(projectId, sha)
  const row = cachedStatement(db, 'SELECT id FROM commit_noteables WHERE project_id = ? AND sha = ?').get(
    projectId,
    sha,
  ) as { id: number }
  return row.id
}

/** The commit a noteable id names, or undefined when it is gone. */
export function findCommitNoteableById(db: Db, id: number): CommitNoteableRow | undefined {
  return cachedStatement(db, 'SELECT * FROM commit_noteables WHERE id = ?').get(id) as CommitNoteableRow | undefined
}

/** The noteable ids of those of these commits of the project that have one (commented on or read before). */
export function commitNoteableIdsOf(db: Db, projectId: number, shas: readonly string[]): number[] {
  if (shas.length === 0) return []
  const rows = cachedStatement(
    db,
    'SELECT id FROM commit_noteables WHERE project_id = ? AND sha IN (SELECT value FROM json_each(?)) ORDER BY id',
  ).all(projectId, JSON.stringify(shas)) as { id: number }[]
  return rows.map((r) => r.id)
}

/** Whether any commit of the project has a noteable (lists of related comments skip git when none has). */
export function hasCommitNoteables(db: Db, projectId: number): boolean {
  return cachedStatement(db, 'SELECT 1 FROM commit_noteables WHERE project_id = ? LIMIT 1').get(projectId) !== undefined
}
