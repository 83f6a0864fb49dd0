import type { Db } from '../../platform/db/connection'

/** What project lists show about a repository without opening it. */
export interface RepositoryFlags {
  readonly empty_repo: boolean
  /** Root README path on the default branch, or null. */
  readonly readme_path: string | null
}

/**
 * Stores the flags in the project's settings JSON with json_set, so a concurrent settings
 * change (PUT /projects/:id) is never overwritten by a stale read.
 */
export function setRepositoryFlags(db: Db, projectId: number, flags: RepositoryFlags): void {
  db.prepare(
    `UPDATE projects SET settings = json_set(settings, '$.empty_repo', json(?), '$.readme_path', ?) WHERE id = ?`,
  ).run(flags.empty_repo ? 'true' : 'false', flags.readme_path, projectId)
}
