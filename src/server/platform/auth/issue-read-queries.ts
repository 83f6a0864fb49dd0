import type { Db } from '../db/connection'
import type { UserRow } from '../db/rows'
import { memoizedAll } from '../db/statements'
import { AUTHORIZED_GROUPS_CTE, AUTHORIZED_PROJECTS_CTE } from './permissions'

// Who reads which issues, as SQL: the issue read rule (canUserReadIssue) in the form that lists
// and counts filter by. The issue, epic, label and milestone lists all ask it, so it lives below them.

/** An issue `i` assigned to the user given as the argument. */
export const HAS_ASSIGNEE = 'EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id AND a.user_id = ?)'

/**
 * Who reads a confidential issue `i`, as SQL: its author, its assignees, and Reporters and above
 * of its project (`reporterProjectIds`) — canUserReadIssue's rule in the form lists filter by.
 */
export function confidentialReadersSql(
  viewerId: number | null,
  reporterProjectIds: readonly number[],
): { sql: string; args: unknown[] } {
  const terms = [
    'i.author_id = ?',
    HAS_ASSIGNEE,
    ...(reporterProjectIds.length > 0 ? ['i.project_id IN (SELECT value FROM json_each(?))'] : []),
  ]
  const args = [
    viewerId ?? -1,
    viewerId ?? -1,
    ...(reporterProjectIds.length > 0 ? [JSON.stringify(reporterProjectIds)] : []),
  ]
  return { sql: `(${terms.join(' OR ')})`, args }
}

/** Who lists issues: a signed-in user (administrator, external or not), or null for anonymous. */
export interface IssueViewer {
  readonly id: number
  readonly isAdmin: boolean
  readonly external: boolean
}

/** The viewer a list of issues or merge requests is read for: the user by its own flags, null when anonymous. */
export function issueViewerOf(user: Pick<UserRow, 'id' | 'is_admin' | 'external'> | null): IssueViewer | null {
  return user ? { id: user.id, isAdmin: user.is_admin === 1, external: user.external === 1 } : null
}

/**
 * Projects whose issues the viewer may list, with whether the viewer sees their confidential
 * issues (Reporter or above), restricted to `namespaceIds` when given. Public projects for all,
 * internal for signed-in non-external users, private through membership; administrators see all.
 */
export function readableProjects(
  db: Db,
  viewer: IssueViewer | null,
  options: { readonly namespaceIds?: readonly number[]; readonly nonArchived: boolean },
): { ids: number[]; reporterIds: number[] } {
  const where: string[] = []
  const args: Record<string, unknown> = { 1: viewer?.id ?? -1 }
  if (options.namespaceIds) {
    where.push('p.namespace_id IN (SELECT value FROM json_each(@ns))')
    args.ns = JSON.stringify(options.namespaceIds)
  }
  if (options.nonArchived) where.push('p.archived = 0')
  // The issues feature: disabled hides a project's issues, private limits them to members.
  const feature = "COALESCE(json_extract(p.settings, '$.issues_access_level'), 'enabled')"
  where.push(`${feature} <> 'disabled'`)
  if (!viewer?.isAdmin) {
    const vis = ["p.visibility = 'public'", 'ap.lvl >= 10']
    if (viewer && !viewer.external) vis.push("p.visibility = 'internal'")
    where.push(`(${vis.join(' OR ')})`)
    where.push(`(${feature} <> 'private' OR ap.lvl >= 10)`)
  }
  const sqlWhere = where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''
  // Every list across projects asks this first; kept until the next write (or day: memberships expire by date).
  const rows = memoizedAll<{ id: number; lvl: number }>(
    db,
    `WITH RECURSIVE ${AUTHORIZED_GROUPS_CTE}, ${AUTHORIZED_PROJECTS_CTE} SELECT p.id, COALESCE(ap.lvl, 0) AS lvl FROM projects p LEFT JOIN authorized_projects ap ON ap.id = p.id ${sqlWhere}`,
    [args],
    new Date().toISOString().slice(0, 10),
  )
  return {
    ids: rows.map((r) => r.id),
    reporterIds: rows.filter((r) => viewer?.isAdmin || r.lvl >= 20).map((r) => r.id),
  }
}
