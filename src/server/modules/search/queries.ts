import type { Db } from '../../platform/db/connection'
import { allRows, containsLike } from '../../platform/db/statements'
import type { NoteRow } from '../notes'

/** A note that matched a search, with the iid of the issue or merge request it is on (null otherwise). */
export interface NoteHitRow extends NoteRow {
  readonly noteable_iid: number | null
}

/**
 * The newest user notes (never system notes) of these projects whose body contains `text`, at
 * most `limit`: candidates the service still filters by what the caller may read.
 */
export function notesMatching(db: Db, projectIds: readonly number[], text: string, limit: number): NoteHitRow[] {
  return allRows<NoteHitRow>(
    db,
    `SELECT n.*, COALESCE(i.iid, m.iid) AS noteable_iid FROM notes n
       LEFT JOIN issues i ON n.noteable_type = 'Issue' AND i.id = n.noteable_id
       LEFT JOIN merge_requests m ON n.noteable_type = 'MergeRequest' AND m.id = n.noteable_id
     WHERE n.project_id IN (SELECT value FROM json_each(@projects)) AND n.system = 0 AND n.body LIKE @text ESCAPE '\\'
     ORDER BY n.created_at DESC, n.id DESC LIMIT @limit`,
    { projects: JSON.stringify(projectIds), text: containsLike(text), limit },
  )
}
