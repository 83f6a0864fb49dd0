import { AccessLevel } from '../../platform/auth/access'
import { canUseProjectFeature } from '../../platform/auth/features'
import type { Permissions } from '../../platform/auth/permissions'
import type { ProjectRow } from '../../platform/db/rows'
import { canReadCodeWith } from '../../platform/http/repository'
import { projectSettings } from '../projects'

type ProjectRef = Pick<ProjectRow, 'id' | 'visibility' | 'settings'>

/** GitLab's `read_release`: whoever may use the project's releases feature (Guests of private projects too). */
export function canReadReleases(perms: Permissions, project: ProjectRef): boolean {
  return canUseProjectFeature(perms, project, projectSettings(project.settings).releases_access_level)
}

/**
 * GitLab's `create_release` and `update_release`, which also cover a release's links: Developers
 * who may read the code (a release is made of a tag).
 */
export function canWriteReleases(perms: Permissions, project: ProjectRef): boolean {
  return (
    canReadReleases(perms, project) &&
    canReadCodeWith(perms, project) &&
    perms.canInProject(project, AccessLevel.DEVELOPER)
  )
}

/** GitLab's `destroy_release`: Maintainers. */
export function canDeleteReleases(perms: Permissions, project: ProjectRef): boolean {
  return canWriteReleases(perms, project) && perms.canInProject(project, AccessLevel.MAINTAINER)
}
