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
