/**
 * Certificate-based project clusters (spec "Project cluster"). The cluster token is never part of them.
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable, Timestamp } from './common'
import { ProjectRef, ProjectSimple } from './project'
import { UserRef } from './user'

/** The Kubernetes platform of a cluster, shown as `platform_kubernetes` (GitLab) and `platform_cluster` (the spec). */
export const ClusterPlatform = Entity({
  api_url: Type.String(),
  namespace: Nullable(Type.String()),
  authorization_type: Type.Enum(['rbac', 'abac', 'unknown_authorization']),
  /** PEM. */
  ca_cert: Nullable(Type.String()),
})

/** GitLab's Cluster entity; `project` (GitLab's ClusterProject) on single reads, create and update. */
export const Cluster = Entity({
  id: Type.Integer(),
  name: Type.String(),
  domain: Nullable(Type.String()),
  created_at: Timestamp,
  managed: Type.Boolean(),
  enabled: Type.Boolean(),
  provider_type: Type.Enum(['user', 'gcp', 'aws']),
  platform_type: Type.String(),
  environment_scope: Type.String(),
  cluster_type: Type.Enum(['project_type', 'group_type', 'instance_type']),
  namespace_per_environment: Type.Boolean(),
  user: Nullable(UserRef),
  platform_kubernetes: ClusterPlatform,
  platform_cluster: ClusterPlatform,
  provider_gcp: Type.Null(),
  management_project: Nullable(ProjectRef),
  project: Type.Optional(ProjectSimple),
})
export type Cluster = Static<typeof Cluster>
