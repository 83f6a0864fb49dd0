import type { GeoNodeStatus } from '../../../shared/api/geo-node'
import type { Caller } from '../../platform/caller'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { ServerContext } from '../../platform/context'
import {
  deleteGeoNodeRow,
  findGeoNodeByName,
  findPrimaryGeoNode,
  geoNodeNamespaceIds,
  insertGeoNode,
  jobArtifactCount,
  replicableProjects,
  setGeoNodeNamespaces,
  updateGeoNodeRow,
  type GeoNodeColumns,
  type GeoNodeRow,
} from './queries'
import { geoNodeStatusEntity, type ReplicableCounts } from './entity'
import { ApiError, invalidParam, validationFailed } from '../../platform/http/errors'
import { BURROW_VERSION } from '../version'
import { recordAudit } from '../audit-events'
import { exceeds, TEXT_LIMITS, tooLong } from '../../platform/text/limits'

/** What GitLab answers a write refused because this instance is a read-only Geo secondary. */
export const NOT_PRIMARY_MESSAGE = 'You cannot perform write operations on a read-only instance'

function withSlash(value: string): string {
  return value.endsWith('/') ? value : `${value}/`
}

function sameName(a: string, b: string): boolean {
  return a.replace(/\/+$/, '').toLowerCase() === b.replace(/\/+$/, '').toLowerCase()
}

/**
 * The name this instance goes by among the nodes (GitLab's `geo_node_name`): the `geo_node_name`
 * setting (`--geo-node-name`) when set, else the external URL, else the URL the caller used.
 */
export function currentNodeName(caller: Caller): string {
  const configured = caller.ctx.settings.get('geo_node_name').trim()
  if (configured !== '') return configured
  return withSlash(caller.baseUrl)
}

/** True for the node this instance is. */
export function isCurrentNode(caller: Caller, node: GeoNodeRow): boolean {
  return sameName(node.name, currentNodeName(caller))
}

/** The node this instance is, if one is recorded. */
export function currentNode(caller: Caller): GeoNodeRow | undefined {
  const name = currentNodeName(caller).replace(/\/+$/, '')
  // Names compare without case and without the trailing slash GitLab adds to URL-like names.
  return findGeoNodeByName(caller.db, name) ?? findGeoNodeByName(caller.db, `${name}/`)
}

/**
 * Refuses a node write (403) when this instance is a recorded secondary: a Geo secondary is a
 * read-only instance, as GitLab's read-only mode makes it. The primary, and an instance that is
 * not a node at all (Geo not set up yet, or this instance's name not recorded), manage nodes.
 */
export function refuseOnSecondary(caller: Caller): void {
  const here = currentNode(caller)
  if (here && here.is_primary !== 1) throw new ApiError(403, { message: NOT_PRIMARY_MESSAGE })
}

/** Inputs of POST and PUT /geo_nodes (already type-checked by the route schema). */
export interface GeoNodeParams {
  readonly name?: string
  readonly url?: string
  readonly internal_url?: string | null
  readonly primary?: boolean
  readonly enabled?: boolean
  readonly files_max_capacity?: number
  readonly repos_max_capacity?: number
  readonly verification_max_capacity?: number
  readonly container_repositories_max_capacity?: number
  readonly sync_object_storage?: boolean
  readonly selective_sync_type?: string | null
  readonly selective_sync_shards?: unknown
  readonly selective_sync_namespace_ids?: unknown
  readonly minimum_reverification_interval?: number
}

/** An array input given as an array or as comma-separated text (Grape's CommaSeparatedToArray). */
function listInput(raw: unknown): string[] | undefined {
  if (raw === undefined || raw === null) return undefined
  const items = Array.isArray(raw) ? raw : [raw]
  return items
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '')
}

function namespaceIdsInput(raw: unknown): number[] | undefined {
  const items = listInput(raw)
  if (items === undefined) return undefined
  if (items.some((v) => !/^\d+$/.test(v))) throw invalidParam('selective_sync_namespace_ids')
  return items.map(Number)
}

/** Why a URL is refused, in GitLab's AddressableUrlValidator words; null when it is fine. */
function urlError(value: string): string | null {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'must be a valid URL'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'is blocked: Only allowed schemes are http, https'
  return null
}

function add(errors: Record<string, string[]>, key: string, message: string): void {
  errors[key] = [...(errors[key] ?? []), message]
}

/**
 * Validates a node's attributes after a create or update the way GitLab's GeoNode model does and
 * returns the columns to store. `existing` is the node being updated.
 */
function nodeColumns(
  caller: Caller,
  params: GeoNodeParams,
  existing: GeoNodeRow | null,
): { columns: GeoNodeColumns; namespaceIds?: number[] } {
  const errors: Record<string, string[]> = {}
  const url = params.url !== undefined ? params.url.trim() : (existing?.url ?? '')
  const normalizedUrl = url === '' ? '' : withSlash(url)
  if (normalizedUrl === '') add(errors, 'url', "can't be blank")
  else {
    const bad = urlError(normalizedUrl)
    if (bad) add(errors, 'url', bad)
  }
  let name = params.name !== undefined ? params.name.trim() : (existing?.name ?? '')
  // GitLab adds the slash to a name that is the URL without it (the external URL as node name).
  if (name !== '' && withSlash(name) === normalizedUrl) name = normalizedUrl
  if (name === '') add(errors, 'name', "can't be blank")
  else if (exceeds(name, TEXT_LIMITS.name.name)) add(errors, 'name', tooLong(TEXT_LIMITS.name.name))
  else if (findGeoNodeByName(caller.db, name, existing?.id ?? 0)) add(errors, 'name', 'has already been taken')

  let internalUrl: string | null | undefined
  if (params.internal_url !== undefined) {
    const raw = (params.internal_url ?? '').trim()
    if (raw === '') internalUrl = null
    else {
      const bad = urlError(raw)
      if (bad) add(errors, 'internal_url', bad)
      // Stored only when it differs from the public URL, as GitLab does.
      internalUrl = withSlash(raw) === normalizedUrl ? null : withSlash(raw)
    }
  }

  const primary = existing ? existing.is_primary === 1 : params.primary === true
  const enabled = params.enabled ?? (existing ? existing.enabled === 1 : true)
  if (primary && findPrimaryGeoNode(caller.db, existing?.id ?? 0)) add(errors, 'primary', 'node already exists')
  if (primary && !enabled) add(errors, 'enabled', 'Geo primary node cannot be disabled')

  let syncType: 'namespaces' | 'shards' | null | undefined
  if (params.selective_sync_type !== undefined) {
    const raw = params.selective_sync_type ?? ''
    if (raw === '') syncType = null
    else if (raw === 'namespaces' || raw === 'shards') syncType = raw
    else add(errors, 'selective_sync_type', 'is not included in the list')
  }
  for (const key of [
    'files_max_capacity',
    'repos_max_capacity',
    'verification_max_capacity',
    'container_repositories_max_capacity',
  ] as const) {
    const value = params[key]
    if (value !== undefined && value < 0) add(errors, key, 'must be greater than or equal to 0')
  }
  if (params.minimum_reverification_interval !== undefined && params.minimum_reverification_interval < 1) {
    add(errors, 'minimum_reverification_interval', 'must be greater than or equal to 1')
  }
  // A secondary named like this instance would lock this instance out of managing its nodes.
  if (!primary && name !== '' && sameName(name, currentNodeName(caller))) {
    add(errors, 'base', 'Current node must be the primary node or you will be locking yourself out')
  }
  if (Object.keys(errors).length > 0) throw validationFailed(errors)

  const shards = listInput(params.selective_sync_shards)
  const columns: GeoNodeColumns = {
    name,
    url: normalizedUrl,
    internal_url: internalUrl,
    is_primary: existing ? undefined : primary ? 1 : 0,
    enabled: enabled ? 1 : 0,
    files_max_capacity: params.files_max_capacity,
    repos_max_capacity: params.repos_max_capacity,
    verification_max_capacity: params.verification_max_capacity,
    container_repositories_max_capacity: params.container_repositories_max_capacity,
    sync_object_storage: params.sync_object_storage === undefined ? undefined : params.sync_object_storage ? 1 : 0,
    selective_sync_type: syncType,
    selective_sync_shards: shards === undefined ? undefined : JSON.stringify(shards),
    minimum_reverification_interval: params.minimum_reverification_interval,
    // Secondaries sign their users in through an OAuth application on the primary.
    oauth_application_uid: primary ? null : (existing?.oauth_application_uid ?? randomBytes(16).toString('hex')),
  }
  return { columns, namespaceIds: namespaceIdsInput(params.selective_sync_namespace_ids) }
}

function auditNode(caller: Caller, node: GeoNodeRow, change: Readonly<Record<string, unknown>>): void {
  const admin = caller.user
  if (!admin) return
  recordAudit(caller, {
    entityType: 'User',
    entityId: admin.id,
    entityPath: admin.username,
    targetId: node.id,
    targetType: 'GeoNode',
    targetDetails: node.name,
    change,
  })
}

/** `POST /geo_nodes`: creates a node with the spec's defaults (capacities 10/25/100/10, enabled, secondary). */
export function createGeoNode(caller: Caller, params: GeoNodeParams): GeoNodeRow {
  const db = caller.db
  const { columns, namespaceIds } = nodeColumns(caller, params, null)
  return db.transaction(() => {
    const node = insertGeoNode(db, columns)
    if (namespaceIds) setGeoNodeNamespaces(db, node.id, namespaceIds)
    auditNode(caller, node, {
      add: 'geo_node',
      custom_message: `Added ${node.is_primary ? 'primary' : 'secondary'} Geo node ${node.name}`,
    })
    return node
  })()
}

/** `PUT /geo_nodes/:id`: changes a node's settings (never whether it is the primary). */
export function updateGeoNode(caller: Caller, node: GeoNodeRow, params: GeoNodeParams): GeoNodeRow {
  const db = caller.db
  const { columns, namespaceIds } = nodeColumns(caller, params, node)
  return db.transaction(() => {
    const updated = updateGeoNodeRow(db, node.id, columns)
    if (namespaceIds) setGeoNodeNamespaces(db, node.id, namespaceIds)
    const changed = (Object.keys(columns) as (keyof GeoNodeColumns)[]).filter(
      (k) => k !== 'oauth_application_uid' && columns[k] !== undefined && columns[k] !== node[k],
    )
    if (changed.length > 0 || namespaceIds) {
      auditNode(caller, updated, {
        change: 'geo_node',
        custom_message: `Changed Geo node ${updated.name}`,
        attributes: namespaceIds ? [...changed, 'selective_sync_namespace_ids'] : changed,
      })
    }
    return updated
  })()
}

/** `DELETE /geo_nodes/:id`. */
export function destroyGeoNode(caller: Caller, node: GeoNodeRow): void {
  const db = caller.db
  db.transaction(() => {
    auditNode(caller, node, { remove: 'geo_node', custom_message: `Removed Geo node ${node.name}` })
    deleteGeoNodeRow(db, node.id)
  })()
}

/** `POST /geo_nodes/:id/repair`: gives a secondary its missing OAuth application again. */
export function repairGeoNode(caller: Caller, node: GeoNodeRow): GeoNodeRow {
  const db = caller.db
  if (node.is_primary === 1 || node.oauth_application_uid) return node
  return db.transaction(() => {
    const repaired = updateGeoNodeRow(db, node.id, { oauth_application_uid: randomBytes(16).toString('hex') })
    auditNode(caller, repaired, {
      change: 'geo_node',
      custom_message: `Repaired the OAuth application of Geo node ${node.name}`,
    })
    return repaired
  })()
}

/** Selective-sync namespace ids of the given nodes. */
export function namespaceIdsOf(ctx: ServerContext, nodes: readonly GeoNodeRow[]): Map<number, number[]> {
  return geoNodeNamespaceIds(
    ctx.db,
    nodes.map((n) => n.id),
  )
}

function countFiles(dir: string): number {
  if (!existsSync(dir)) return 0
  let n = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) n += countFiles(join(dir, entry.name))
    else if (entry.isFile()) n += 1
  }
  return n
}

/**
 * A node's status record, counted from this instance's data. The model, stated plainly: the
 * primary holds everything (synced/failed counters null, as GitLab reports them for a primary);
 * an enabled secondary is reported as having synced everything in its selective-sync scope
 * (namespaces with their subgroups, or storages), a disabled one as having synced nothing;
 * nothing is ever counted as failed. Repositories and wikis are counted on disk, job artifacts
 * from the CI tables, attachments as the uploaded files; LFS objects, container and design
 * repositories do not exist here (0).
 */
export function geoNodeStatus(ctx: ServerContext, node: GeoNodeRow, now: Date = new Date()): GeoNodeStatus {
  const primary = node.is_primary === 1
  const projects = replicableProjects(ctx.db, node)
  const onDisk = (kind: 'project' | 'wiki'): number =>
    projects.filter(
      (p) =>
        ctx.storages.includes(p.repository_storage) &&
        existsSync(join(ctx.repos.repoPath(p.repository_storage, kind, p.id), 'HEAD')),
    ).length
  const counts = (count: number, replicated = true): ReplicableCounts => {
    if (primary || !replicated) return { count, synced: null, failed: null }
    return { count, synced: node.enabled === 1 ? count : 0, failed: 0 }
  }
  const missingOauth = !primary && !node.oauth_application_uid
  return geoNodeStatusEntity({
    node,
    healthy: !missingOauth,
    health: missingOauth ? 'The OAuth application of this node is missing: repair it' : 'Healthy',
    missingOauthApplication: missingOauth,
    projects: projects.length,
    repositories: counts(onDisk('project')),
    wikis: counts(onDisk('wiki')),
    attachments: counts(countFiles(join(ctx.options.dataDir, 'uploads'))),
    lfsObjects: counts(0),
    jobArtifacts: counts(
      jobArtifactCount(
        ctx.db,
        projects.map((p) => p.id),
      ),
    ),
    containerRepositories: counts(0, false),
    designRepositories: counts(0, false),
    version: BURROW_VERSION,
    revision: 'burrow',
    checkedAt: now,
  })
}
