import type { Cluster } from '../../../shared/api/project-cluster'
import type { Caller } from '../../platform/caller'
import { decryptSecret, encryptSecret } from '../../platform/auth/encryption'
import type { ServerContext } from '../../platform/context'
import {
  deleteCluster,
  environmentScopeTaken,
  findCluster,
  insertCluster,
  listClusters,
  updateCluster,
  type AuthorizationType,
  type ClusterChanges,
  type ClusterRow,
} from './queries'
import { usersByIds } from '../users'
import {
  findProjectById,
  findProjectWithNamespace,
  type ProjectWithNamespaceRow,
} from '../../platform/db/platform-queries'
import type { ProjectRow } from '../../platform/db/rows'
import { clusterEntity } from './entity'
import { FieldErrors, notFound } from '../../platform/http/errors'
import { blankToNull } from '../../platform/text/blank'
import type { Page } from '../../platform/http/pagination'
import { parseCertificates } from '../../platform/crypto/certificates'
import { recordProjectChange } from '../projects'
import { mayUseAsManagementProject } from './policy'
import { isHttpUrl } from '../../platform/text/urls'

/** Platform attributes as sent (`platform_kubernetes_attributes` or `platform_cluster_attributes`). */
export interface PlatformParams {
  readonly api_url?: string
  readonly token?: string
  readonly ca_cert?: string | null
  readonly namespace?: string | null
  readonly authorization_type?: AuthorizationType
}

export interface ClusterParams {
  readonly name?: string
  readonly domain?: string | null
  readonly management_project_id?: number | null
  readonly enabled?: boolean
  readonly managed?: boolean
  readonly environment_scope?: string
  readonly namespace_per_environment?: boolean
  readonly platform?: PlatformParams
}

const PLATFORM = 'platform_kubernetes'
const NAMESPACE_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
const SCOPE_PATTERN = /^[\w${}./* -]+$/

/** The cluster's service-account token in clear, for whoever deploys to it (never for API responses). */
export function clusterToken(ctx: ServerContext, cluster: ClusterRow): string {
  return decryptSecret(ctx.options.dataDir, cluster.encrypted_token)
}

/** 400 unless the management project passes GitLab's rule (mayUseAsManagementProject). */
function checkManagementProject(
  caller: Caller,
  project: ProjectRow,
  id: number | null | undefined,
  errors: FieldErrors,
): void {
  if (id === undefined || id === null) return
  if (!mayUseAsManagementProject(caller.perms, project, findProjectById(caller.db, id)))
    errors.add('management_project_id', "Project does not exist or you don't have permission to perform this action")
}

function checkPlatform(p: PlatformParams, errors: FieldErrors): void {
  if (p.api_url !== undefined) {
    if (!isHttpUrl(p.api_url)) errors.add(`${PLATFORM}.api_url`, 'is blocked: Only allowed schemes are http, https')
  }
  if (p.token !== undefined && p.token.trim() === '') errors.add(`${PLATFORM}.token`, "can't be blank")
  if (p.ca_cert && parseCertificates(p.ca_cert) === null)
    errors.add(`${PLATFORM}.ca_cert`, 'must be a valid PEM certificate')
  if (p.namespace) {
    if (p.namespace.length > 63) errors.add(`${PLATFORM}.namespace`, 'is too long (maximum is 63 characters)')
    if (!NAMESPACE_PATTERN.test(p.namespace))
      errors.add(
        `${PLATFORM}.namespace`,
        "can contain only lowercase letters, digits, and '-'. Must start with a letter, and cannot end with '-'",
      )
  }
}

function checkScope(
  caller: Caller,
  project: ProjectRow,
  scope: string | undefined,
  exceptId: number,
  errors: FieldErrors,
): void {
  if (scope === undefined) return
  if (!SCOPE_PATTERN.test(scope))
    errors.add(
      'environment_scope',
      "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces",
    )
  else if (environmentScopeTaken(caller.db, project.id, scope, exceptId))
    errors.add('environment_scope', 'cannot add duplicated environment scope')
}

/** One page of the project's clusters, with the total count. */
export function clustersPage(
  caller: Caller,
  project: ProjectRow,
  page: Page,
): { readonly rows: ClusterRow[]; readonly total: number } {
  return listClusters(caller.db, project.id, { limit: page.perPage, offset: page.offset })
}

/** The project's cluster with this id, or 404. */
export function clusterOf(caller: Caller, project: ProjectRow, id: number): ClusterRow {
  const cluster = findCluster(caller.db, project.id, id)
  if (!cluster) throw notFound()
  return cluster
}

/** Adds an existing cluster (provider `user`); the token is sealed before it reaches the database. */
export function createCluster(
  caller: Caller,
  project: ProjectRow,
  params: ClusterParams & {
    readonly name: string
    readonly platform: PlatformParams & { api_url: string; token: string }
  },
): ClusterRow {
  const ctx = caller.ctx
  const errors = new FieldErrors()
  if (params.name.trim() === '') errors.add('name', "can't be blank")
  checkPlatform(params.platform, errors)
  checkScope(caller, project, params.environment_scope ?? '*', 0, errors)
  checkManagementProject(caller, project, params.management_project_id, errors)
  errors.throwIfAny()
  return ctx.db.transaction(() => {
    const cluster = insertCluster(ctx.db, {
      project_id: project.id,
      user_id: caller.user?.id ?? null,
      name: params.name,
      domain: blankToNull(params.domain),
      enabled: params.enabled === false ? 0 : 1,
      managed: params.managed === false ? 0 : 1,
      provider_type: 'user',
      platform_type: 'kubernetes',
      environment_scope: params.environment_scope ?? '*',
      namespace_per_environment: params.namespace_per_environment === false ? 0 : 1,
      management_project_id: params.management_project_id ?? null,
      api_url: params.platform.api_url,
      namespace: blankToNull(params.platform.namespace),
      authorization_type: params.platform.authorization_type ?? 'rbac',
      ca_cert: blankToNull(params.platform.ca_cert),
      encrypted_token: encryptSecret(ctx.options.dataDir, params.platform.token),
    })
    recordProjectChange(caller, project, {
      targetType: 'Clusters::Cluster',
      targetId: cluster.id,
      targetTitle: cluster.name,
      audit: { add: 'cluster', custom_message: `Added cluster ${cluster.name}` },
    })
    return cluster
  })()
}

/**
 * Updates a cluster. Name, API URL, CA certificate and token belong to the provider for clusters
 * GitLab created (provider other than `user`), so changing them there is refused, as GitLab does.
 */
export function updateClusterAttributes(
  caller: Caller,
  project: ProjectRow,
  cluster: ClusterRow,
  params: ClusterParams,
): ClusterRow {
  const ctx = caller.ctx
  const p = params.platform ?? {}
  const errors = new FieldErrors()
  if (cluster.provider_type !== 'user') {
    if (params.name !== undefined && params.name !== cluster.name)
      errors.add('name', "can not be changed because it's synchronized with provider")
    const platformChanged =
      (p.api_url !== undefined && p.api_url !== cluster.api_url) ||
      (p.ca_cert !== undefined && blankToNull(p.ca_cert) !== cluster.ca_cert) ||
      p.token !== undefined
    if (platformChanged) errors.add(`${PLATFORM}.base`, 'Cannot modify managed Kubernetes cluster')
  }
  if (params.name !== undefined && params.name.trim() === '') errors.add('name', "can't be blank")
  checkPlatform(p, errors)
  checkScope(caller, project, params.environment_scope, cluster.id, errors)
  if (params.management_project_id !== cluster.management_project_id)
    checkManagementProject(caller, project, params.management_project_id, errors)
  errors.throwIfAny()

  const changes: { -readonly [K in keyof ClusterChanges]: ClusterChanges[K] } = {}
  if (params.name !== undefined) changes.name = params.name
  if (params.domain !== undefined) changes.domain = blankToNull(params.domain)
  if (params.enabled !== undefined) changes.enabled = params.enabled ? 1 : 0
  if (params.managed !== undefined) changes.managed = params.managed ? 1 : 0
  if (params.environment_scope !== undefined) changes.environment_scope = params.environment_scope
  if (params.namespace_per_environment !== undefined)
    changes.namespace_per_environment = params.namespace_per_environment ? 1 : 0
  if (params.management_project_id !== undefined) changes.management_project_id = params.management_project_id
  if (p.api_url !== undefined) changes.api_url = p.api_url
  if (p.ca_cert !== undefined) changes.ca_cert = blankToNull(p.ca_cert)
  if (p.namespace !== undefined) changes.namespace = blankToNull(p.namespace)
  if (p.authorization_type !== undefined) changes.authorization_type = p.authorization_type
  if (p.token !== undefined) changes.encrypted_token = encryptSecret(ctx.options.dataDir, p.token)

  return ctx.db.transaction(() => {
    const updated = updateCluster(ctx.db, cluster.id, changes)
    // The audit names what changed, never the values: the token is among them.
    const changed = Object.keys(changes)
      .map((k) => (k === 'encrypted_token' ? 'token' : k))
      .join(', ')
    if (changed !== '') {
      recordProjectChange(caller, project, {
        targetType: 'Clusters::Cluster',
        targetId: cluster.id,
        targetTitle: updated.name,
        audit: { change: changed, custom_message: `Updated cluster ${updated.name} (${changed})` },
      })
    }
    return updated
  })()
}

/** Removes the cluster from the project (nothing is removed inside the Kubernetes cluster). */
export function destroyCluster(caller: Caller, project: ProjectRow, cluster: ClusterRow): void {
  const db = caller.db
  db.transaction(() => {
    deleteCluster(db, cluster.id)
    recordProjectChange(caller, project, {
      targetType: 'Clusters::Cluster',
      targetId: cluster.id,
      targetTitle: cluster.name,
      audit: { remove: 'cluster', custom_message: `Removed cluster ${cluster.name}` },
    })
  })()
}

/** Clusters as GitLab's Cluster entity (ClusterProject with `withProject`), users and projects loaded once. */
export function presentClusters(caller: Caller, rows: readonly ClusterRow[], withProject: boolean): Cluster[] {
  const db = caller.db
  const baseUrl = caller.baseUrl
  const users = usersByIds(
    db,
    rows.map((r) => r.user_id).filter((id): id is number => id !== null),
  )
  const projects = new Map<number, ProjectWithNamespaceRow | undefined>()
  const projectOf = (id: number): ProjectWithNamespaceRow | undefined => {
    if (!projects.has(id)) projects.set(id, findProjectWithNamespace(db, id))
    return projects.get(id)
  }
  return rows.map((c) =>
    clusterEntity(c, {
      baseUrl,
      user: c.user_id !== null ? users.get(c.user_id) : undefined,
      managementProject: c.management_project_id !== null ? projectOf(c.management_project_id) : undefined,
      project: withProject ? projectOf(c.project_id) : undefined,
    }),
  )
}
