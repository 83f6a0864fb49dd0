import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { ProjectRow, Visibility } from '../../platform/db/rows'
import { projectSettings } from '../../platform/db/project-settings'
import type { SnippetRow } from './queries'

/** The project's snippets feature level: 'enabled' (everyone who sees the project), 'private' (members), 'disabled'. */
export function snippetsFeature(project: ProjectRow): string {
  return String(projectSettings(project.settings).snippets_access_level ?? 'enabled')
}

/** Whether the caller may see the project's snippets at all (the feature's access level). */
export function canReadProjectSnippets(perms: Permissions, project: ProjectRow): boolean {
  if (!perms.canReadProject(project)) return false
  const feature = snippetsFeature(project)
  if (feature === 'disabled') return false
  if (feature === 'private') return perms.canInProject(project, AccessLevel.GUEST)
  return true
}

/** Snippet visibility levels the caller may read in a project whose snippets they can see. */
export function readableSnippetVisibilities(perms: Permissions, project: ProjectRow): Visibility[] {
  if (perms.canInProject(project, AccessLevel.GUEST)) return ['private', 'internal', 'public']
  if (perms.user && perms.user.external === 0) return ['internal', 'public']
  return ['public']
}

/** Snippet read rule: the feature is readable and the snippet's visibility admits the caller (authors always). */
export function canReadSnippet(perms: Permissions, project: ProjectRow, snippet: SnippetRow): boolean {
  if (!canReadProjectSnippets(perms, project)) return false
  if (perms.user && perms.user.id === snippet.author_id) return true
  return readableSnippetVisibilities(perms, project).includes(snippet.visibility)
}

/** Creating project snippets is a Reporter right (GitLab's create_snippet). */
export function canCreateSnippet(perms: Permissions, project: ProjectRow): boolean {
  return canReadProjectSnippets(perms, project) && perms.canInProject(project, AccessLevel.REPORTER)
}

/** Editing or deleting: the author while still a Reporter, or a Maintainer, or an administrator. */
export function canAdminSnippet(perms: Permissions, project: ProjectRow, snippet: SnippetRow): boolean {
  if (perms.canInProject(project, AccessLevel.MAINTAINER)) return true
  return perms.user?.id === snippet.author_id && perms.canInProject(project, AccessLevel.REPORTER)
}
