import type { Db } from '../../platform/db/connection'
import { cachedStatement } from '../../platform/db/statements'
import type { ReleaseLinkType } from '../../../shared/api/release'
import type { MilestoneRow } from '../milestones'

/** A row of `releases`. */
export interface ReleaseRow {
  readonly id: number
  readonly project_id: number
  readonly tag: string
  readonly name: string
  readonly description: string | null
  readonly author_id: number | null
  readonly sha: string | null
  readonly released_at: string
  readonly created_at: string
  readonly updated_at: string
}

/** A row of `release_links`. */
export interface ReleaseLinkRow {
  readonly id: number
  readonly release_id: number
  readonly name: string
  readonly url: string
  readonly filepath: string | null
  readonly link_type: ReleaseLinkType
  readonly created_at: string
  readonly updated_at: string
}

/** A milestone a release ships (its row as the milestones module reads it), with its issue counts. */
export interface ReleaseMilestoneRow extends MilestoneRow {
  readonly release_id: number
  readonly issues_total: number
  readonly issues_closed: number
}

/** How a release list is ordered. */
export interface ReleaseOrder {
  readonly orderBy: 'released_at' | 'created_at'
  readonly sort: 'asc' | 'desc'
}

/** One page of a project's releases and how many there are. */
export function listReleases(
  db: Db,
  projectId: number,
  order: ReleaseOrder,
  page: { readonly limit: number; readonly offset: number },
): { readonly rows: ReleaseRow[]; readonly total: number } {
  // Both columns and the direction come from fixed lists; the id breaks ties the same way.
  const direction = order.sort === 'asc' ? 'ASC' : 'DESC'
  const rows = cachedStatement(
    db,
    `SELECT * FROM releases WHERE project_id = ? ORDER BY ${order.orderBy} ${direction}, id ${direction} LIMIT ? OFFSET ?`,
  ).all(projectId, page.limit, page.offset) as ReleaseRow[]
  const total = (
    cachedStatement(db, 'SELECT COUNT(*) AS n FROM releases WHERE project_id = ?').get(projectId) as { n: number }
  ).n
  return { rows, total }
}

export function findReleaseByTag(db: Db, projectId: number, tag: string): ReleaseRow | undefined {
  return cachedStatement(db, 'SELECT * FROM releases WHERE project_id = ? AND tag = ?').get(projectId, tag) as
    ReleaseRow | undefined
}

/** The release made last by `released_at` (GitLab's permalink/latest), or undefined. */
export function findLatestRelease(db: Db, projectId: number): ReleaseRow | undefined {
  return cachedStatement(
    db,
    'SELECT * FROM releases WHERE project_id = ? ORDER BY released_at DESC, id DESC LIMIT 1',
  ).get(projectId) as ReleaseRow | undefined
}

/** Releases of these tags in the project, by tag (what a page of tags shows of its releases). */
export function releasesOfTags(db: Db, projectId: number, tags: readonly string[]): Map<string, ReleaseRow> {
  if (tags.length === 0) return new Map()
  const rows = cachedStatement(
    db,
    'SELECT * FROM releases WHERE project_id = ? AND tag IN (SELECT value FROM json_each(?))',
  ).all(projectId, JSON.stringify(tags)) as ReleaseRow[]
  return new Map(rows.map((r) => [r.tag, r]))
}

/** Fields of a new release. */
export interface NewRelease {
  readonly projectId: number
  readonly tag: string
  readonly name: string
  readonly description: string | null
  readonly authorId: number
  readonly sha: string
  readonly releasedAt: string
  readonly now: string
}

export function insertRelease(db: Db, r: NewRelease): ReleaseRow {
  return db
    .prepare(
      `INSERT INTO releases (project_id, tag, name, description, author_id, sha, released_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    )
    .get(r.projectId, r.tag, r.name, r.description, r.authorId, r.sha, r.releasedAt, r.now, r.now) as ReleaseRow
}

/** Changes to a release; absent fields stay as they are. */
export interface ReleaseChanges {
  readonly name?: string
  readonly description?: string | null
  readonly releasedAt?: string
}

export function updateReleaseRow(db: Db, id: number, c: ReleaseChanges, now: string): void {
  db.prepare(
    `UPDATE releases SET name = coalesce(?, name), description = CASE WHEN ? THEN ? ELSE description END,
       released_at = coalesce(?, released_at), updated_at = ? WHERE id = ?`,
  ).run(c.name ?? null, c.description !== undefined ? 1 : 0, c.description ?? null, c.releasedAt ?? null, now, id)
}

/** Marks the release changed (a link or milestone of it changed). */
export function touchRelease(db: Db, id: number, now: string): void {
  db.prepare('UPDATE releases SET updated_at = ? WHERE id = ?').run(now, id)
}

export function deleteReleaseRow(db: Db, id: number): void {
  db.prepare('DELETE FROM releases WHERE id = ?').run(id)
}

/** Deletes the project's release of `tag`, if any (its tag was deleted). */
export function deleteReleaseOfTag(db: Db, projectId: number, tag: string): void {
  db.prepare('DELETE FROM releases WHERE project_id = ? AND tag = ?').run(projectId, tag)
}

/** The links of these releases, by release, oldest first within each. */
export function linksOfReleases(db: Db, releaseIds: readonly number[]): Map<number, ReleaseLinkRow[]> {
  const byRelease = new Map<number, ReleaseLinkRow[]>()
  if (releaseIds.length === 0) return byRelease
  const rows = cachedStatement(
    db,
    'SELECT * FROM release_links WHERE release_id IN (SELECT value FROM json_each(?)) ORDER BY created_at DESC, id DESC',
  ).all(JSON.stringify(releaseIds)) as ReleaseLinkRow[]
  for (const row of rows) byRelease.set(row.release_id, [...(byRelease.get(row.release_id) ?? []), row])
  return byRelease
}

export function findLink(db: Db, releaseId: number, linkId: number): ReleaseLinkRow | undefined {
  return cachedStatement(db, 'SELECT * FROM release_links WHERE release_id = ? AND id = ?').get(releaseId, linkId) as
    ReleaseLinkRow | undefined
}

/** A link of the release with this direct asset path (stored with its leading `/`). */
export function findLinkByFilepath(db: Db, releaseId: number, filepath: string): ReleaseLinkRow | undefined {
  return cachedStatement(db, 'SELECT * FROM release_links WHERE release_id = ? AND filepath = ?').get(
    releaseId,
    filepath,
  ) as ReleaseLinkRow | undefined
}

/** Which of name, url and filepath another link of the release already uses. */
export function takenLinkFields(
  db: Db,
  releaseId: number,
  fields: { readonly name: string; readonly url: string; readonly filepath: string | null },
  exceptId = -1,
): { readonly name: boolean; readonly url: boolean; readonly filepath: boolean } {
  const row = cachedStatement(
    db,
    `SELECT max(name = ?) AS name, max(url = ?) AS url, max(filepath IS NOT NULL AND filepath = ?) AS filepath
     FROM release_links WHERE release_id = ? AND id <> ?`,
  ).get(fields.name, fields.url, fields.filepath, releaseId, exceptId) as {
    name: number | null
    url: number | null
    filepath: number | null
  }
  return { name: row.name === 1, url: row.url === 1, filepath: row.filepath === 1 }
}

/** Fields of a link as stored. */
export interface LinkFields {
  readonly name: string
  readonly url: string
  readonly filepath: string | null
  readonly linkType: ReleaseLinkType
}

export function insertLink(db: Db, releaseId: number, l: LinkFields, now: string): ReleaseLinkRow {
  return db
    .prepare(
      `INSERT INTO release_links (release_id, name, url, filepath, link_type, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    )
    .get(releaseId, l.name, l.url, l.filepath, l.linkType, now, now) as ReleaseLinkRow
}

export function updateLinkRow(db: Db, id: number, l: LinkFields, now: string): ReleaseLinkRow {
  return db
    .prepare(
      'UPDATE release_links SET name = ?, url = ?, filepath = ?, link_type = ?, updated_at = ? WHERE id = ? RETURNING *',
    )
    .get(l.name, l.url, l.filepath, l.linkType, now, id) as ReleaseLinkRow
}

export function deleteLinkRow(db: Db, id: number): void {
  db.prepare('DELETE FROM release_links WHERE id = ?').run(id)
}

/** The milestones of these releases with their issue counts, by release, in title order. */
export function milestonesOfReleases(db: Db, releaseIds: readonly number[]): Map<number, ReleaseMilestoneRow[]> {
  const byRelease = new Map<number, ReleaseMilestoneRow[]>()
  if (releaseIds.length === 0) return byRelease
  const rows = cachedStatement(
    db,
    `SELECT mr.release_id, m.*,
       (SELECT COUNT(*) FROM issues i WHERE i.milestone_id = m.id) AS issues_total,
       (SELECT COUNT(*) FROM issues i WHERE i.milestone_id = m.id AND i.state = 'closed') AS issues_closed
     FROM milestone_releases mr JOIN milestones m ON m.id = mr.milestone_id
     WHERE mr.release_id IN (SELECT value FROM json_each(?)) ORDER BY m.title, m.id`,
  ).all(JSON.stringify(releaseIds)) as ReleaseMilestoneRow[]
  for (const row of rows) byRelease.set(row.release_id, [...(byRelease.get(row.release_id) ?? []), row])
  return byRelease
}

/** Ids of the milestones titled so among the project's own and its groups' (`groupIds`), by title. */
export function milestonesByTitle(
  db: Db,
  projectId: number,
  groupIds: readonly number[],
  titles: readonly string[],
): Map<string, number> {
  const rows = cachedStatement(
    db,
    `SELECT id, title FROM milestones WHERE title IN (SELECT value FROM json_each(?))
     AND (project_id = ? OR group_id IN (SELECT value FROM json_each(?))) ORDER BY project_id IS NULL, id`,
  ).all(JSON.stringify(titles), projectId, JSON.stringify(groupIds)) as { id: number; title: string }[]
  const byTitle = new Map<string, number>()
  for (const row of rows) if (!byTitle.has(row.title)) byTitle.set(row.title, row.id)
  return byTitle
}

/** Ids of the milestones among `ids` that belong to the project or one of `groupIds`. */
export function milestonesOfOwner(
  db: Db,
  projectId: number,
  groupIds: readonly number[],
  ids: readonly number[],
): Set<number> {
  const rows = cachedStatement(
    db,
    `SELECT id FROM milestones WHERE id IN (SELECT value FROM json_each(?))
     AND (project_id = ? OR group_id IN (SELECT value FROM json_each(?)))`,
  ).all(JSON.stringify(ids), projectId, JSON.stringify(groupIds)) as { id: number }[]
  return new Set(rows.map((r) => r.id))
}

/** Makes `milestoneIds` the release's milestones. */
export function setReleaseMilestones(db: Db, releaseId: number, milestoneIds: readonly number[]): void {
  db.prepare('DELETE FROM milestone_releases WHERE release_id = ?').run(releaseId)
  const insert = db.prepare('INSERT INTO milestone_releases (milestone_id, release_id) VALUES (?, ?)')
  for (const id of milestoneIds) insert.run(id, releaseId)
}
