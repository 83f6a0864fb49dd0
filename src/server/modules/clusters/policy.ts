import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { ProjectRow } from '../../platform/db/rows'

/** Every call on a project's clusters needs a Maintainer (the spec's and GitLab's rule). */
export const CLUSTER_ACCESS = AccessLevel.MAINTAINER

/**
 * GitLab's rule for a cluster's management project: a project of the cluster's own namespace on
 * which the caller is a Maintainer.
 */
export function mayUseAsManagementProject(
  perms: Permissions,
  project: Pick<ProjectRow, 'namespace_id'>,
  candidate: ProjectRow | undefined,
): boolean {
  return (
    candidate !== undefined &&
    candidate.namespace_id === project.namespace_id &&
    perms.canInProject(candidate, AccessLevel.MAINTAINER)
  )
}
