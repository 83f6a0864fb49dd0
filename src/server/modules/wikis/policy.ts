import { AccessLevel } from '../../platform/auth/access'
import { canUseProjectFeature } from '../../platform/auth/features'
import type { Permissions } from '../../platform/auth/permissions'
import type { ProjectRow } from '../../platform/db/rows'
import { projectSettings } from '../../platform/db/project-settings'

type ProjectRef = Pick<ProjectRow, 'id' | 'visibility' | 'settings'>

/** GitLab's `read_wiki` (and `download_wiki_code`): whoever may use the project's wiki feature. */
export function canReadWikiWith(perms: Permissions, project: ProjectRef): boolean {
  return canUseProjectFeature(perms, project, projectSettings(project.settings).wiki_access_level)
}

/** GitLab's `create_wiki`: Developers write pages, upload attachments and push to the wiki repository. */
export function canWriteWikiWith(perms: Permissions, project: ProjectRef): boolean {
  return canReadWikiWith(perms, project) && perms.canInProject(project, AccessLevel.DEVELOPER)
}

/** GitLab's `admin_wiki`: Maintainers delete pages. */
export function canDeleteWikiPagesWith(perms: Permissions, project: ProjectRef): boolean {
  return canReadWikiWith(perms, project) && perms.canInProject(project, AccessLevel.MAINTAINER)
}
