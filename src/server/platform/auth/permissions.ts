import type { Db } from '../db/connection'
import { memoizedGet } from '../db/statements'
import type { NamespaceRow, ProjectRow, UserRow } from '../db/rows'
import { AccessLevel } from './access'

/**
 * SQL (one parameter: the user id) yielding `(id, lvl)`: every group the user reaches through
 * membership, with the highest level. Membership of a group extends to all its descendants;
 * a group shared with a group the user belongs to is reached at the lower of the two levels.
 */
export const AUTHORIZED_GROUPS_CTE = `
  direct_groups(id, lvl) AS (
    SELECT source_id, access_level FROM members
    WHERE source_type = 'Namespace' AND user_id = ?1 AND (expires_at IS NULL OR expires_at >= date('now'))
  ),
  shared_groups(id, lvl) AS (
    SELECT l.shared_group_id, MIN(l.group_access, d.lvl) FROM group_group_links l
    JOIN direct_groups d ON d.id = l.shared_with_group_id
    WHERE l.expires_at IS NULL OR l.expires_at >= date('now')
  ),
  group_tree(id, lvl) AS (
    SELECT id, lvl FROM direct_groups UNION ALL SELECT id, lvl FROM shared_groups
    UNION ALL
    SELECT n.id, t.lvl FROM namespaces n JOIN group_tree t ON n.parent_id = t.id WHERE n.kind = 'group'
  ),
  authorized_groups(id, lvl) AS (SELECT id, MAX(lvl) FROM group_tree GROUP BY id)`

/**
 * SQL (parameter ?1: the user id) yielding `(id, lvl)`: every project the user is a member of,
 * directly, through its group hierarchy, through a group share, or as owner of the namespace.
 * Needs AUTHORIZED_GROUPS_CTE before it in the same WITH.
 */
export const AUTHORIZED_PROJECTS_CTE = `
  project_levels(id, lvl) AS (
    SELECT source_id, access_level FROM members
    WHERE source_type = 'Project' AND user_id = ?1 AND (expires_at IS NULL OR expires_at >= date('now'))
    UNION ALL
    SELECT p.id, g.lvl FROM projects p JOIN authorized_groups g ON g.id = p.namespace_id
    UNION ALL
    SELECT p.id, ${AccessLevel.OWNER} FROM projects p JOIN namespaces n ON n.id = p.namespace_id
    WHERE n.kind = 'user' AND n.owner_id = ?1
    UNION ALL
    SELECT l.project_id, MIN(l.group_access, g.lvl) FROM project_group_links l JOIN authorized_groups g ON g.id = l.group_id
    WHERE l.expires_at IS NULL OR l.expires_at >= date('now')
  ),
  authorized_projects(id, lvl) AS (SELECT id, MAX(lvl) FROM project_levels GROUP BY id)`

/**
 * Answers every role question for one caller. One instance per request: results are memoised,
 * so asking the same question twice in a request costs one query.
 */
export class Permissions {
  private readonly projectLevels = new Map<number, number>()
  private readonly groupLevels = new Map<number, number>()
  private visibleGroupIds: Set<number> | null = null

  constructor(
    private readonly db: Db,
    readonly user: UserRow | null,
  ) {}

  get isAdmin(): boolean {
    return this.user !== null && this.user.is_admin === 1
  }

  /** The caller's effective level in a group (0 when not a member anywhere above it). */
  groupAccess(groupId: number): number {
    if (!this.user) return AccessLevel.NO_ACCESS
    let level = this.groupLevels.get(groupId)
    if (level === undefined) {
      const row = this.db
        .prepare(`WITH RECURSIVE ${AUTHORIZED_GROUPS_CTE} SELECT lvl FROM authorized_groups WHERE id = ?2`)
        .get({ 1: this.user.id, 2: groupId }) as { lvl: number } | undefined
      level = row?.lvl ?? AccessLevel.NO_ACCESS
      this.groupLevels.set(groupId, level)
    }
    return level
  }

  /** The caller's effective level in a project, inherited from groups and shares included. */
  projectAccess(project: Pick<ProjectRow, 'id'>): number {
    if (!this.user) return AccessLevel.NO_ACCESS
    let level = this.projectLevels.get(project.id)
    if (level === undefined) {
      // Asked on nearly every request: the answer is kept until the next write (or the next day,
      // as memberships expire by date).
      const row = memoizedGet<{ lvl: number } | undefined>(
        this.db,
        `WITH RECURSIVE ${AUTHORIZED_GROUPS_CTE}, ${AUTHORIZED_PROJECTS_CTE} SELECT lvl FROM authorized_projects WHERE id = ?2`,
        [{ 1: this.user.id, 2: project.id }],
        new Date().toISOString().slice(0, 10),
      )
      level = row?.lvl ?? AccessLevel.NO_ACCESS
      this.projectLevels.set(project.id, level)
    }
    return level
  }

  /** True when the caller has at least `level` in the project (administrators always do). */
  canInProject(project: Pick<ProjectRow, 'id'>, level: number): boolean {
    return this.isAdmin || this.projectAccess(project) >= level
  }

  /** True when the caller has at least `level` in the group (administrators always do). */
  canInGroup(groupId: number, level: number): boolean {
    return this.isAdmin || this.groupAccess(groupId) >= level
  }

  /** Visibility rule: public to all, internal to signed-in non-external users, private to members. */
  canReadProject(project: Pick<ProjectRow, 'id' | 'visibility'>): boolean {
    if (project.visibility === 'public') return true
    if (!this.user) return false
    if (this.isAdmin) return true
    if (project.visibility === 'internal' && this.user.external === 0) return true
    return this.projectAccess(project) >= AccessLevel.GUEST
  }

  /**
   * A group is readable when public, internal to signed-in users, or when the caller belongs to it,
   * to an ancestor, or to anything below it (members of a subgroup or project see its parents).
   */
  canReadGroup(group: Pick<NamespaceRow, 'id' | 'visibility'>): boolean {
    if (group.visibility === 'public') return true
    if (!this.user) return false
    if (this.isAdmin) return true
    if (group.visibility === 'internal' && this.user.external === 0) return true
    return this.visibleGroups().has(group.id)
  }

  /** Ids of every private group the caller may see through membership (see canReadGroup). */
  visibleGroups(): Set<number> {
    if (this.visibleGroupIds) return this.visibleGroupIds
    const ids = new Set<number>()
    if (this.user) {
      const rows = this.db
        .prepare(
          `WITH RECURSIVE ${AUTHORIZED_GROUPS_CTE}, ${AUTHORIZED_PROJECTS_CTE},
           seeds(id) AS (
             SELECT id FROM authorized_groups
             UNION SELECT p.namespace_id FROM projects p JOIN authorized_projects a ON a.id = p.id
           ),
           up(id) AS (SELECT id FROM seeds UNION SELECT n.parent_id FROM namespaces n JOIN up ON n.id = up.id WHERE n.parent_id IS NOT NULL)
           SELECT up.id FROM up JOIN namespaces n ON n.id = up.id WHERE n.kind = 'group'`,
        )
        .all({ 1: this.user.id }) as { id: number }[]
      for (const r of rows) ids.add(r.id)
    }
    this.visibleGroupIds = ids
    return ids
  }
}
