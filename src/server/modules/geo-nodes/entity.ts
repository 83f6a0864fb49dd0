import type { GeoNode, GeoNodeStatus } from '../../../shared/api/geo-node'
import type { GeoNodeRow } from './queries'

export interface GeoNodeExtras {
  /** This instance's base URL: the API links and the edit page are on it. */
  readonly baseUrl: string
  readonly namespaceIds: readonly number[]
  /** True for the node this instance is (see services/geo-nodes.ts `currentNodeName`). */
  readonly current: boolean
}

/** A node's `internal_url`: the URL given, or its public URL when none was. */
export function internalUrlOf(node: GeoNodeRow): string {
  return node.internal_url ?? node.url
}

/** GitLab's GeoNode entity. */
export function geoNodeEntity(node: GeoNodeRow, x: GeoNodeExtras): GeoNode {
  const self = `${x.baseUrl}/api/v4/geo_nodes/${node.id}`
  const primary = node.is_primary === 1
  return {
    id: node.id,
    name: node.name,
    url: node.url,
    internal_url: internalUrlOf(node),
    primary,
    enabled: node.enabled === 1,
    current: x.current,
    files_max_capacity: node.files_max_capacity,
    repos_max_capacity: node.repos_max_capacity,
    verification_max_capacity: node.verification_max_capacity,
    container_repositories_max_capacity: node.container_repositories_max_capacity,
    selective_sync_type: node.selective_sync_type,
    selective_sync_shards: JSON.parse(node.selective_sync_shards) as string[],
    selective_sync_namespace_ids: [...x.namespaceIds],
    minimum_reverification_interval: node.minimum_reverification_interval,
    sync_object_storage: node.sync_object_storage === 1,
    // Kept by GitLab for compatibility: always http.
    clone_protocol: 'http',
    web_edit_url: `${x.baseUrl}/admin/geo/sites/${node.id}/edit`,
    // The secondary's own page of replicated projects; a primary has none.
    web_geo_projects_url: primary ? null : `${node.url}admin/geo/replication/projects`,
    _links: { self, status: `${self}/status`, repair: `${self}/repair` },
  }
}

/** Counts of one kind of replicable data on a node. */
export interface ReplicableCounts {
  readonly count: number
  /** null on the primary (it replicates nothing) and for kinds not replicated. */
  readonly synced: number | null
  readonly failed: number | null
}

/** What a status record is computed from. */
export interface GeoNodeStatusInput {
  readonly node: GeoNodeRow
  readonly healthy: boolean
  readonly health: string
  readonly missingOauthApplication: boolean
  readonly projects: number
  readonly repositories: ReplicableCounts
  readonly wikis: ReplicableCounts
  readonly attachments: ReplicableCounts
  readonly lfsObjects: ReplicableCounts
  readonly jobArtifacts: ReplicableCounts
  readonly containerRepositories: ReplicableCounts
  readonly designRepositories: ReplicableCounts
  readonly version: string
  readonly revision: string
  readonly checkedAt: Date
}

/** GitLab's percentages: two decimals and a percent sign, "0.00%" when there is nothing. */
export function percentage(part: number | null, whole: number): string {
  if (part === null || whole === 0) return '0.00%'
  return `${((part / whole) * 100).toFixed(2)}%`
}

/**
 * GitLab's GeoNodeStatus entity. Replication-slot counters belong to the primary's database
 * (SQLite has none: zero slots); checksum and verification counters are zero because Burrow
 * Server does not checksum repositories. A count that does not apply to the node is null.
 */
export function geoNodeStatusEntity(s: GeoNodeStatusInput): GeoNodeStatus {
  const primary = s.node.is_primary === 1
  const onPrimary = primary ? 0 : null
  const onSecondary = primary ? null : 0
  const { repositories: repos, wikis, attachments, lfsObjects: lfs, jobArtifacts: artifacts } = s
  const { containerRepositories: containers, designRepositories: designs } = s
  // What the primary misses of a kind a secondary has synced: nothing, once anything is synced.
  const missingOnPrimary = (c: ReplicableCounts): number | null => (c.synced === null ? null : 0)
  return {
    geo_node_id: s.node.id,
    healthy: s.healthy,
    health: s.health,
    health_status: s.healthy ? 'Healthy' : 'Unhealthy',
    missing_oauth_application: s.missingOauthApplication,
    db_replication_lag_seconds: onSecondary,
    projects_count: s.projects,
    repositories_count: repos.count,
    repositories_synced_count: repos.synced,
    repositories_failed_count: repos.failed,
    repositories_synced_in_percentage: percentage(repos.synced, repos.count),
    wikis_count: wikis.count,
    wikis_synced_count: wikis.synced,
    wikis_failed_count: wikis.failed,
    wikis_synced_in_percentage: percentage(wikis.synced, wikis.count),
    attachments_count: attachments.count,
    attachments_synced_count: attachments.synced,
    attachments_failed_count: attachments.failed,
    attachments_synced_in_percentage: percentage(attachments.synced, attachments.count),
    attachments_synced_missing_on_primary_count: missingOnPrimary(attachments),
    lfs_objects_count: lfs.count,
    lfs_objects_synced_count: lfs.synced,
    lfs_objects_failed_count: lfs.failed,
    lfs_objects_synced_in_percentage: percentage(lfs.synced, lfs.count),
    lfs_objects_synced_missing_on_primary_count: missingOnPrimary(lfs),
    job_artifacts_count: artifacts.count,
    job_artifacts_synced_count: artifacts.synced,
    job_artifacts_failed_count: artifacts.failed,
    job_artifacts_synced_in_percentage: percentage(artifacts.synced, artifacts.count),
    job_artifacts_synced_missing_on_primary_count: missingOnPrimary(artifacts),
    container_repositories_count: containers.count,
    container_repositories_synced_count: containers.synced,
    container_repositories_failed_count: containers.failed,
    container_repositories_synced_in_percentage: percentage(containers.synced, containers.count),
    design_repositories_count: designs.count,
    design_repositories_synced_count: designs.synced,
    design_repositories_failed_count: designs.failed,
    design_repositories_synced_in_percentage: percentage(designs.synced, designs.count),
    replication_slots_count: onPrimary,
    replication_slots_used_count: onPrimary,
    replication_slots_used_in_percentage: '0.00%',
    replication_slots_max_retained_wal_bytes: onPrimary,
    repositories_checksummed_count: onPrimary,
    repositories_checksum_failed_count: onPrimary,
    repositories_checksummed_in_percentage: '0.00%',
    repositories_verified_count: onSecondary,
    repositories_verification_failed_count: onSecondary,
    repositories_verified_in_percentage: '0.00%',
    repositories_checksum_mismatch_count: onSecondary,
    repositories_retrying_verification_count: onSecondary,
    wikis_checksummed_count: onPrimary,
    wikis_checksum_failed_count: onPrimary,
    wikis_checksummed_in_percentage: '0.00%',
    wikis_verified_count: onSecondary,
    wikis_verification_failed_count: onSecondary,
    wikis_verified_in_percentage: '0.00%',
    wikis_checksum_mismatch_count: onSecondary,
    wikis_retrying_verification_count: onSecondary,
    repositories_checked_count: 0,
    repositories_checked_failed_count: 0,
    repositories_checked_in_percentage: '0.00%',
    last_event_id: null,
    last_event_timestamp: null,
    cursor_last_event_id: null,
    cursor_last_event_timestamp: 0,
    last_successful_status_check_timestamp: Math.floor(s.checkedAt.getTime() / 1000),
    version: s.version,
    revision: s.revision,
  }
}
