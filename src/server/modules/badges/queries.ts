import type { Db } from '../../platform/db/connection'
import { SELECT_PROJECT_WITH_NAMESPACE, type ProjectWithNamespaceRow } from '../../platform/db/platform-queries'
import { cachedStatement } from '../../platform/db/statements'

/** A row of `badges`: a project's (project_id) or a group's (group_id). */
export interface BadgeRow {
  readonly id: number
  readonly project_id: number | null
  readonly group_id: number | null
  readonly name: string | null
  readonly link_url: string
  readonly image_url: string
  readonly created_at: string
  readonly updated_at: string
}

/** What a badge write stores. */
export interface BadgeFields {
  readonly name: string | null
  readonly linkUrl: string
  readonly imageUrl: string
}

/** A project's badges and those of every group above it, oldest first; `name` matches exactly. */
export function projectBadges(db: Db, projectId: number, name: string | undefined): BadgeRow[] {
  return cachedStatement(
    db,
    `WITH RECURSIVE chain(id) AS (
       SELECT namespace_id FROM projects WHERE id = :project
       UNION SELECT n.parent_id FROM namespaces n JOIN chain c ON n.id = c.id WHERE n.parent_id IS NOT NULL
     )
     SELECT * FROM badges
     WHERE (project_id = :project OR group_id IN (SELECT id FROM chain)) AND (:name IS NULL OR name = :name)
     ORDER BY id`,
  ).all({ project: projectId, name: name ?? null }) as BadgeRow[]
}

/** A group's own badges, oldest first; `name` matches exactly. */
export function groupBadges(db: Db, groupId: number, name: string | undefined): BadgeRow[] {
  return cachedStatement(db, 'SELECT * FROM badges WHERE group_id = ? AND (? IS NULL OR name = ?) ORDER BY id').all(
    groupId,
    name ?? null,
    name ?? null,
  ) as BadgeRow[]
}

/** One of a project's own badges (not one it inherits). */
export function findProjectBadge(db: Db, projectId: number, id: number): BadgeRow | undefined {
  return cachedStatement(db, 'SELECT * FROM badges WHERE project_id = ? AND id = ?').get(projectId, id) as
    BadgeRow | undefined
}

export function findGroupBadge(db: Db, groupId: number, id: number): BadgeRow | undefined {
  return cachedStatement(db, 'SELECT * FROM badges WHERE group_id = ? AND id = ?').get(groupId, id) as
    BadgeRow | undefined
}

/** Inserts a badge of a project (`owner.project`) or of a group (`owner.group`). */
export function insertBadge(
  db: Db,
  owner: { readonly project: number | null; readonly group: number | null },
  fields: BadgeFields,
  now: string,
): BadgeRow {
  return db
    .prepare(
      `INSERT INTO badges (project_id, group_id, name, link_url, image_url, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    )
    .get(owner.project, owner.group, fields.name, fields.linkUrl, fields.imageUrl, now, now) as BadgeRow
}

export function updateBadgeRow(db: Db, id: number, fields: BadgeFields, now: string): BadgeRow {
  return db
    .prepare('UPDATE badges SET name = ?, link_url = ?, image_url = ?, updated_at = ? WHERE id = ? RETURNING *')
    .get(fields.name, fields.linkUrl, fields.imageUrl, now, id) as BadgeRow
}

export function deleteBadgeRow(db: Db, id: number): void {
  db.prepare('DELETE FROM badges WHERE id = ?').run(id)
}

/**
 * The group's own projects by creation, read lazily: the first one the caller may read fills a
 * group badge's placeholders.
 */
export function projectsOfGroupByCreation(db: Db, groupId: number): IterableIterator<ProjectWithNamespaceRow> {
  return cachedStatement(
    db,
    `${SELECT_PROJECT_WITH_NAMESPACE} WHERE p.namespace_id = ? ORDER BY p.created_at, p.id`,
  ).iterate(groupId) as IterableIterator<ProjectWithNamespaceRow>
}
