import type { Db } from '../../platform/db/connection'

/** How two issues are linked, as stored: `source` relates to or blocks `target`. */
export type StoredLinkType = 'relates_to' | 'blocks'

/** A row of `issue_links`. */
export interface IssueLinkRow {
  readonly id: number
  readonly source_id: number
  readonly target_id: number
  readonly link_type: StoredLinkType
  readonly created_at: string
  readonly updated_at: string
}

/** The link between two issues, whichever of them is its source. */
export function findIssueLinkBetween(db: Db, a: number, b: number): IssueLinkRow | undefined {
  return db
    .prepare('SELECT * FROM issue_links WHERE (source_id = ? AND target_id = ?) OR (source_id = ? AND target_id = ?)')
    .get(a, b, b, a) as IssueLinkRow | undefined
}

/** One link by id. */
export function findIssueLinkById(db: Db, id: number): IssueLinkRow | undefined {
  return db.prepare('SELECT * FROM issue_links WHERE id = ?').get(id) as IssueLinkRow | undefined
}

/** Every link of the issue, on either side, oldest first. */
export function issueLinksOf(db: Db, issueId: number): IssueLinkRow[] {
  return db
    .prepare('SELECT * FROM issue_links WHERE source_id = ? OR target_id = ? ORDER BY id')
    .all(issueId, issueId) as IssueLinkRow[]
}

/** Stores a new link. */
export function insertIssueLink(
  db: Db,
  link: { readonly sourceId: number; readonly targetId: number; readonly type: StoredLinkType; readonly now: string },
): IssueLinkRow {
  const info = db
    .prepare('INSERT INTO issue_links (source_id, target_id, link_type, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
    .run(link.sourceId, link.targetId, link.type, link.now, link.now)
  return findIssueLinkById(db, Number(info.lastInsertRowid)) as IssueLinkRow
}

/** Deletes a link. */
export function deleteIssueLink(db: Db, id: number): void {
  db.prepare('DELETE FROM issue_links WHERE id = ?').run(id)
}
