import type { Db } from '../../platform/db/connection'
import { cachedStatement } from '../../platform/db/statements'

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

/** An open issue that an issue of a page blocks, with what its read rule needs. */
export interface OpenBlockedIssue {
  readonly blocking_id: number
  readonly id: number
  readonly project_id: number
  readonly author_id: number
  readonly confidential: number
}

/** The open issues each of `issueIds` blocks (`blocks` links they are the source of), in one query. */
export function openIssuesBlockedBy(db: Db, issueIds: readonly number[]): OpenBlockedIssue[] {
  if (issueIds.length === 0) return []
  return cachedStatement(
    db,
    `SELECT l.source_id AS blocking_id, t.id, t.project_id, t.author_id, t.confidential
     FROM issue_links l JOIN issues t ON t.id = l.target_id
     WHERE l.link_type = 'blocks' AND t.state = 'opened' AND l.source_id IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(issueIds)) as OpenBlockedIssue[]
}
