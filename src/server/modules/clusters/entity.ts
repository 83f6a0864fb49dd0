import type { Cluster } from '../../../shared/api/project-cluster'
import type { ClusterRow } from './queries'
import type { ProjectWithNamespaceRow } from '../../platform/db/platform-queries'
import type { UserRow } from '../../platform/db/rows'
import { projectRef, projectSimple } from '../projects'
import { userRefOrNull } from '../users'

/** What a cluster shows beyond its row, loaded by the caller. */
export interface ClusterExtras {
  readonly baseUrl: string
  readonly user: UserRow | undefined
  readonly managementProject: ProjectWithNamespaceRow | undefined
  /** The owning project, shown on single reads, create and update (GitLab's ClusterProject). */
  readonly project?: ProjectWithNamespaceRow
}

/**
 * GitLab's Cluster entity. The platform is shown both as GitLab names it (`platform_kubernetes`)
 * and as the spec does (`platform_cluster`); the token is never part of it.
 */
export function clusterEntity(c: ClusterRow, x: ClusterExtras): Cluster {
  const platform = {
    api_url: c.api_url,
    namespace: c.namespace,
    authorization_type: c.authorization_type,
    ca_cert: c.ca_cert,
  }
  return {
    id: c.id,
    name: c.name,
    domain: c.domain,
    created_at: c.created_at,
    managed: c.managed === 1,
    enabled: c.enabled === 1,
    provider_type: c.provider_type,
    platform_type: c.platform_type,
    environment_scope: c.environment_scope,
    cluster_type: 'project_type',
    namespace_per_environment: c.namespace_per_environment === 1,
    user: userRefOrNull(x.user, x.baseUrl),
    platform_kubernetes: platform,
    platform_cluster: platform,
    provider_gcp: null,
    management_project: x.managementProject ? projectRef(x.managementProject) : null,
    project: x.project ? projectSimple(x.project, x.baseUrl) : undefined,
  }
}
