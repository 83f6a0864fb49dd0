import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { ProjectRow } from '../../platform/db/rows'
import { ruleMatches } from '../branches'
import type { ProtectedTagRow } from './queries'

type ProjectRef = Pick<ProjectRow, 'id'>

/** GitLab's admin_project: Maintainers list, protect and unprotect tags. */
export function canAdminProtectedTags(perms: Permissions, project: ProjectRef): boolean {
  return perms.canInProject(project, AccessLevel.MAINTAINER)
}

/** The protected tags whose name or wildcard covers `tag`. */
export function rulesForTag(rules: readonly ProtectedTagRow[], tag: string): ProtectedTagRow[] {
  return rules.filter((r) => ruleMatches(r, tag))
}

/**
 * GitLab's create_access_levels: an unprotected tag is anybody's with admin_tag (Developers), a
 * protected one needs a role one of its matching rules names (0 names no one).
 */
export function mayCreateTag(
  perms: Permissions,
  project: ProjectRef,
  rules: readonly ProtectedTagRow[],
  tag: string,
): boolean {
  const matching = rulesForTag(rules, tag)
  if (matching.length === 0) return true
  return matching.some((r) =>
    r.createAccess.some((a) => a.access_level !== AccessLevel.NO_ACCESS && perms.canInProject(project, a.access_level)),
  )
}

/** A protected tag is deleted by Maintainers only (GitLab's destroy of a protected ref). */
export function mayDeleteTag(
  perms: Permissions,
  project: ProjectRef,
  rules: readonly ProtectedTagRow[],
  tag: string,
): boolean {
  return rulesForTag(rules, tag).length === 0 || perms.canInProject(project, AccessLevel.MAINTAINER)
}
