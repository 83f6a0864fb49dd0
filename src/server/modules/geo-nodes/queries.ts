import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'

/** A row of `geo_nodes`. */
export interface GeoNodeRow {
  readonly id: number
  readonly name: string
  readonly url: string
  readonly internal_url: string | null
  readonly is_primary: number
  readonly enabled: number
  readonly files_max_capacity: number
  readonly repos_max_capacity: number
  readonly verification_max_capacity: number
  readonly container_repositories_max_capacity: number
  readonly sync_object_storage: number
  readonly selective_sync_type: 'namespaces' | 'shards' | null
  /** JSON array of storage names. */
  readonly selective_sync_shards: string
  readonly minimum_reverification_interval: number
  readonly oauth_application_uid: string | null
  readonly created_at: string
  readonly updated_at: string
}

/** Columns a create or update sets (already validated). */
export interface GeoNodeColumns {
  readonly name?: string
  readonly url?: string
  readonly internal_url?: string | null
  readonly is_primary?: number
  readonly enabled?: number
  readonly files_max_capacity?: number
  readonly repos_max_capacity?: number
  readonly verification_max_capacity?: number
  readonly container_repositories_max_capacity?: number
  readonly sync_object_storage?: number
  readonly selective_sync_type?: 'namespaces' | 'shards' | null
  readonly selective_sync_shards?: string
  readonly minimum_reverification_interval?: number
  readonly oauth_application_uid?: string | null
}

/** A node by id. */
export function findGeoNode(db: Db, id: number): GeoNodeRow | undefined {
  return db.prepare('SELECT * FROM geo_nodes WHERE id = ?').get(id) as GeoNodeRow | undefined
}

/** A node by name, compared without case (names are unique that way). */
export function findGeoNodeByName(db: Db, name: string, exceptId = 0): GeoNodeRow | undefined {
  return db.prepare('SELECT * FROM geo_nodes WHERE name = ? COLLATE NOCASE AND id != ?').get(name, exceptId) as
    GeoNodeRow | undefined
}

/** The primary node, if one is recorded. */
export function findPrimaryGeoNode(db: Db, exceptId = 0): GeoNodeRow | undefined {
  return db.prepare('SELECT * FROM geo_nodes WHERE is_primary = 1 AND id != ?').get(exceptId) as GeoNodeRow | undefined
}

/** One page of nodes in id order, with the total. */
export function listGeoNodes(
  db: Db,
  page: { readonly limit: number; readonly offset: number },
): { rows: GeoNodeRow[]; total: number } {
  const total = (db.prepare('SELECT COUNT(*) AS n FROM geo_nodes').get() as { n: number }).n
  const rows = db
    .prepare('SELECT * FROM geo_nodes ORDER BY id LIMIT ? OFFSET ?')
    .all(page.limit, page.offset) as GeoNodeRow[]
  return { rows, total }
}

/** Inserts a node; unset columns take the table's defaults (the spec's capacities). */
export function insertGeoNode(db: Db, columns: GeoNodeColumns): GeoNodeRow {
  const now = nowIso()
  const entries = Object.entries({ ...columns, created_at: now, updated_at: now }).filter(([, v]) => v !== undefined)
  const info = db
    .prepare(
      `INSERT INTO geo_nodes (${entries.map(([k]) => k).join(', ')}) VALUES (${entries.map(() => '?').join(', ')})`,
    )
    .run(...entries.map(([, v]) => v))
  return findGeoNode(db, Number(info.lastInsertRowid)) as GeoNodeRow
}

/** Changes the given columns and bumps updated_at. */
export function updateGeoNodeRow(db: Db, id: number, columns: GeoNodeColumns): GeoNodeRow {
  const entries = Object.entries({ ...columns, updated_at: nowIso() }).filter(([, v]) => v !== undefined)
  db.prepare(`UPDATE geo_nodes SET ${entries.map(([k]) => `${k} = ?`).join(', ')} WHERE id = ?`).run(
    ...entries.map(([, v]) => v),
    id,
  )
  return findGeoNode(db, id) as GeoNodeRow
}

export function deleteGeoNodeRow(db: Db, id: number): void {
  db.prepare('DELETE FROM geo_nodes WHERE id = ?').run(id)
}

/** Selective-sync namespace ids per node, for a page of nodes. */
export function geoNodeNamespaceIds(db: Db, nodeIds: readonly number[]): Map<number, number[]> {
  const out = new Map<number, number[]>()
  const rows = db
    .prepare(
      'SELECT geo_node_id, namespace_id FROM geo_node_namespace_links WHERE geo_node_id IN (SELECT value FROM json_each(?)) ORDER BY namespace_id',
    )
    .all(JSON.stringify(nodeIds)) as { geo_node_id: number; namespace_id: number }[]
  for (const r of rows) out.set(r.geo_node_id, [...(out.get(r.geo_node_id) ?? []), r.namespace_id])
  return out
}

/** Replaces a node's selective-sync namespaces with those of `ids` that exist (unknown ids are dropped, as GitLab does). */
export function setGeoNodeNamespaces(db: Db, nodeId: number, ids: readonly number[]): void {
  db.prepare('DELETE FROM geo_node_namespace_links WHERE geo_node_id = ?').run(nodeId)
  db.prepare(
    'INSERT OR IGNORE INTO geo_node_namespace_links (geo_node_id, namespace_id) SELECT ?, id FROM namespaces WHERE id IN (SELECT value FROM json_each(?))',
  ).run(nodeId, JSON.stringify(ids))
}

/** What a replication status counts of a project. */
export interface ReplicableProjectRow {
  readonly id: number
  readonly namespace_id: number
  readonly repository_storage: string
}

/**
 * The projects a node replicates: every project, or those in the selected namespaces (and their
 * descendant groups), or those on the selected storages.
 */
export function replicableProjects(
  db: Db,
  node: Pick<GeoNodeRow, 'id' | 'selective_sync_type' | 'selective_sync_shards'>,
): ReplicableProjectRow[] {
  if (node.selective_sync_type === 'namespaces') {
    return db
      .prepare(
        `WITH RECURSIVE scope(id) AS (
           SELECT namespace_id FROM geo_node_namespace_links WHERE geo_node_id = ?
           UNION SELECT n.id FROM namespaces n JOIN scope s ON n.parent_id = s.id
         )
         SELECT id, namespace_id, repository_storage FROM projects WHERE namespace_id IN (SELECT id FROM scope) ORDER BY id`,
      )
      .all(node.id) as ReplicableProjectRow[]
  }
  if (node.selective_sync_type === 'shards') {
    return db
      .prepare(
        'SELECT id, namespace_id, repository_storage FROM projects WHERE repository_storage IN (SELECT value FROM json_each(?)) ORDER BY id',
      )
      .all(node.selective_sync_shards) as ReplicableProjectRow[]
  }
  return db
    .prepare('SELECT id, namespace_id, repository_storage FROM projects ORDER BY id')
    .all() as ReplicableProjectRow[]
}

/** Job artifacts of the given projects (0 while the CI tables are absent). */
export function jobArtifactCount(db: Db, projectIds: readonly number[]): number {
  const table = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ci_job_artifacts'`).get()
  if (!table) return 0
  return (
    db
      .prepare('SELECT COUNT(*) AS n FROM ci_job_artifacts WHERE project_id IN (SELECT value FROM json_each(?))')
      .get(JSON.stringify(projectIds)) as { n: number }
  ).n
}
