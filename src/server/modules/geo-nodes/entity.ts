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
export function geoNodeEntity(node: GeoNodeRow, x: GeoNodeExtras): Readonly<Record<string, unknown>> {
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
    selective_sync_namespace_ids: x.namespaceIds,
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

function kindFields(prefix: string, c: ReplicableCounts, withMissing: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    [`${prefix}_count`]: c.count,
    [`${prefix}_synced_count`]: c.synced,
    [`${prefix}_failed_count`]: c.failed,
    [`${prefix}_synced_in_percentage`]: percentage(c.synced, c.count),
  }
  if (withMissing) out[`${prefix}_synced_missing_on_primary_count`] = c.synced === null ? null : 0
  return out
}

/**
 * GitLab's GeoNodeStatus entity. Replication-slot counters belong to the primary's database
 * (SQLite has none: zero slots); checksum and verification counters are zero because Burrow
 * Server does not checksum repositories.
 */
export function geoNodeStatusEntity(s: GeoNodeStatusInput): Readonly<Record<string, unknown>> {
  const primary = s.node.is_primary === 1
  const verification = (kind: 'repositories' | 'wikis'): Record<string, unknown> => ({
    [`${kind}_checksummed_count`]: primary ? 0 : null,
    [`${kind}_checksum_failed_count`]: primary ? 0 : null,
    [`${kind}_checksummed_in_percentage`]: '0.00%',
    [`${kind}_verified_count`]: primary ? null : 0,
    [`${kind}_verification_failed_count`]: primary ? null : 0,
    [`${kind}_verified_in_percentage`]: '0.00%',
    [`${kind}_checksum_mismatch_count`]: primary ? null : 0,
    [`${kind}_retrying_verification_count`]: primary ? null : 0,
  })
  return {
    geo_node_id: s.node.id,
    healthy: s.healthy,
    health: s.health,
    health_status: s.healthy ? 'Healthy' : 'Unhealthy',
    missing_oauth_application: s.missingOauthApplication,
    db_replication_lag_seconds: primary ? null : 0,
    projects_count: s.projects,
    ...kindFields('repositories', s.repositories, false),
    ...kindFields('wikis', s.wikis, false),
    ...kindFields('attachments', s.attachments, true),
    ...kindFields('lfs_objects', s.lfsObjects, true),
    ...kindFields('job_artifacts', s.jobArtifacts, true),
    ...kindFields('container_repositories', s.containerRepositories, false),
    ...kindFields('design_repositories', s.designRepositories, false),
    replication_slots_count: primary ? 0 : null,
    replication_slots_used_count: primary ? 0 : null,
    replication_slots_used_in_percentage: '0.00%',
    replication_slots_max_retained_wal_bytes: primary ? 0 : null,
    ...verification('repositories'),
    ...verification('wikis'),
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
