import { canUseProjectFeature } from '../../platform/auth/features'
import type { Caller } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'
import { canReadCodeWith } from '../../platform/http/repository'
import { projectSettings } from '../projects'

/**
 * GitLab's `fork_project`: a signed-in user who may read the code (a fork copies it: a Guest of a
 * private project may not), with forking open to them (`forking_access_level` not disabled, nor
 * private to a non-member).
 */
export function canForkProject(caller: Caller, source: ProjectRow): boolean {
  if (!caller.user || !canReadCodeWith(caller.perms, source)) return false
  return canUseProjectFeature(caller.perms, source, projectSettings(source.settings).forking_access_level)
}
