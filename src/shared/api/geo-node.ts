/**
 * Replication nodes (spec "Replication node", PREMIUM SELF): the node and its status record.
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable, Timestamp } from './common'

/** GitLab's GeoNode entity. */
export const GeoNode = Entity({
  id: Type.Integer(),
  name: Type.String(),
  url: Type.String(),
  internal_url: Type.String(),
  primary: Type.Boolean(),
  enabled: Type.Boolean(),
  /** This instance is this node. */
  current: Type.Boolean(),
  files_max_capacity: Type.Integer(),
  repos_max_capacity: Type.Integer(),
  verification_max_capacity: Type.Integer(),
  container_repositories_max_capacity: Type.Integer(),
  selective_sync_type: Nullable(Type.Enum(['namespaces', 'shards'])),
  selective_sync_shards: Type.Array(Type.String()),
  selective_sync_namespace_ids: Type.Array(Type.Integer()),
  /** Days. */
  minimum_reverification_interval: Type.Integer(),
  sync_object_storage: Type.Boolean(),
  clone_protocol: Type.String(),
  web_edit_url: Type.String(),
  /** The secondary's page of replicated projects; null on a primary. */
  web_geo_projects_url: Nullable(Type.String()),
  _links: Entity({ self: Type.String(), status: Type.String(), repair: Type.String() }),
})
export type GeoNode = Static<typeof GeoNode>

/** A count that does not apply to this node (the primary replicates nothing) is null. */
const Counter = Nullable(Type.Integer())
/** GitLab's percentages: two decimals and a percent sign (`"0.00%"`). */
const Percentage = Type.String()

/**
 * GitLab's GeoNodeStatus entity: health and, per kind of replicable data, `<kind>_count`,
 * `_synced_count`, `_failed_count` and `_synced_in_percentage`, plus replication-slot, checksum,
 * check and verification counters.
 */
export const GeoNodeStatus = Entity({
  geo_node_id: Type.Integer(),
  healthy: Type.Boolean(),
  health: Type.String(),
  health_status: Type.String(),
  missing_oauth_application: Type.Boolean(),
  db_replication_lag_seconds: Counter,
  projects_count: Type.Integer(),
  repositories_count: Type.Integer(),
  repositories_synced_count: Counter,
  repositories_failed_count: Counter,
  repositories_synced_in_percentage: Percentage,
  wikis_count: Type.Integer(),
  wikis_synced_count: Counter,
  wikis_failed_count: Counter,
  wikis_synced_in_percentage: Percentage,
  attachments_count: Type.Integer(),
  attachments_synced_count: Counter,
  attachments_failed_count: Counter,
  attachments_synced_in_percentage: Percentage,
  attachments_synced_missing_on_primary_count: Counter,
  lfs_objects_count: Type.Integer(),
  lfs_objects_synced_count: Counter,
  lfs_objects_failed_count: Counter,
  lfs_objects_synced_in_percentage: Percentage,
  lfs_objects_synced_missing_on_primary_count: Counter,
  job_artifacts_count: Type.Integer(),
  job_artifacts_synced_count: Counter,
  job_artifacts_failed_count: Counter,
  job_artifacts_synced_in_percentage: Percentage,
  job_artifacts_synced_missing_on_primary_count: Counter,
  container_repositories_count: Type.Integer(),
  container_repositories_synced_count: Counter,
  container_repositories_failed_count: Counter,
  container_repositories_synced_in_percentage: Percentage,
  design_repositories_count: Type.Integer(),
  design_repositories_synced_count: Counter,
  design_repositories_failed_count: Counter,
  design_repositories_synced_in_percentage: Percentage,
  replication_slots_count: Counter,
  replication_slots_used_count: Counter,
  replication_slots_used_in_percentage: Percentage,
  replication_slots_max_retained_wal_bytes: Counter,
  repositories_checksummed_count: Counter,
  repositories_checksum_failed_count: Counter,
  repositories_checksummed_in_percentage: Percentage,
  repositories_verified_count: Counter,
  repositories_verification_failed_count: Counter,
  repositories_verified_in_percentage: Percentage,
  repositories_checksum_mismatch_count: Counter,
  repositories_retrying_verification_count: Counter,
  wikis_checksummed_count: Counter,
  wikis_checksum_failed_count: Counter,
  wikis_checksummed_in_percentage: Percentage,
  wikis_verified_count: Counter,
  wikis_verification_failed_count: Counter,
  wikis_verified_in_percentage: Percentage,
  wikis_checksum_mismatch_count: Counter,
  wikis_retrying_verification_count: Counter,
  repositories_checked_count: Type.Integer(),
  repositories_checked_failed_count: Type.Integer(),
  repositories_checked_in_percentage: Percentage,
  last_event_id: Counter,
  last_event_timestamp: Counter,
  cursor_last_event_id: Counter,
  cursor_last_event_timestamp: Type.Integer(),
  /** Unix seconds. */
  last_successful_status_check_timestamp: Type.Integer(),
  version: Type.String(),
  revision: Type.String(),
})
export type GeoNodeStatus = Static<typeof GeoNodeStatus>

/**
 * `GET /geo_nodes/current/failures`: a project a secondary failed to sync or verify (GitLab's
 * GeoProjectRegistry entity). Burrow records no failures, so the list is always empty.
 */
export const GeoProjectFailure = Entity({
  project_id: Type.Integer(),
  last_repository_synced_at: Nullable(Timestamp),
  last_repository_successful_sync_at: Nullable(Timestamp),
  last_wiki_synced_at: Nullable(Timestamp),
  last_wiki_successful_sync_at: Nullable(Timestamp),
  repository_retry_count: Nullable(Type.Integer()),
  wiki_retry_count: Nullable(Type.Integer()),
  last_repository_sync_failure: Nullable(Type.String()),
  last_wiki_sync_failure: Nullable(Type.String()),
  last_repository_verification_failure: Nullable(Type.String()),
  last_wiki_verification_failure: Nullable(Type.String()),
  repository_verification_checksum_sha: Nullable(Type.String()),
  wiki_verification_checksum_sha: Nullable(Type.String()),
  repository_checksum_mismatch: Type.Boolean(),
  wiki_checksum_mismatch: Type.Boolean(),
})
export type GeoProjectFailure = Static<typeof GeoProjectFailure>
