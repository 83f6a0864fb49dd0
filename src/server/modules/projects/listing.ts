import { Type } from 'typebox'
import type { Project, ProjectListItem, ProjectSimple } from '../../../shared/api/project'
import { AccessLevel } from '../../platform/auth/access'
import { VisibilitySchema } from '../namespaces'
import type { Caller } from '../../platform/caller'
import type { ProjectRow, Visibility } from '../../platform/db/rows'
import { invalidParam } from '../../platform/http/errors'
import { findUserById } from '../users'
import { runnersToken } from '../runners'
import { projectEntity, projectEntityJson, projectSimple, type ProjectExtras } from './entity'
import {
  directProjectLevels,
  findProjectWithNamespace,
  groupLevels,
  projectOwnerRefs,
  projectSharesOf,
  upstreamsOf,
  type ProjectListFilter,
  type ProjectOrder,
  type ProjectWithNamespaceRow,
} from './queries'

// A page of projects as a caller sees it: the list filter a query asks for, and the entities of its
// rows with what each needs fetched in a few batch queries. Projects and groups (their detail and
// project lists) answer with these.

const OrderSchema = Type.Union(
  [
    'id',
    'name',
    'path',
    'created_at',
    'updated_at',
    'last_activity_at',
    'similarity',
    'star_count',
    'storage_size',
    'repository_size',
    'wiki_size',
    'packages_size',
  ].map((v) => Type.Literal(v)),
)
const SortSchema = Type.Union([Type.Literal('asc'), Type.Literal('desc')])

/** The query of GitLab's project lists (`GET /projects`, a user's and a group's projects). */
export const PROJECT_LIST_QUERY = Type.Object({
  archived: Type.Optional(Type.Boolean()),
  visibility: Type.Optional(VisibilitySchema),
  search: Type.Optional(Type.String()),
  search_namespaces: Type.Optional(Type.Boolean()),
  simple: Type.Optional(Type.Boolean()),
  owned: Type.Optional(Type.Boolean()),
  membership: Type.Optional(Type.Boolean()),
  starred: Type.Optional(Type.Boolean()),
  statistics: Type.Optional(Type.Boolean()),
  min_access_level: Type.Optional(Type.Integer()),
  id_after: Type.Optional(Type.Integer()),
  id_before: Type.Optional(Type.Integer()),
  last_activity_after: Type.Optional(Type.String()),
  last_activity_before: Type.Optional(Type.String()),
  repository_storage: Type.Optional(Type.String()),
  topic: Type.Optional(Type.Array(Type.String())),
  with_issues_enabled: Type.Optional(Type.Boolean()),
  with_merge_requests_enabled: Type.Optional(Type.Boolean()),
  with_custom_attributes: Type.Optional(Type.Boolean()),
  include_subgroups: Type.Optional(Type.Boolean()),
  with_shared: Type.Optional(Type.Boolean()),
  order_by: Type.Optional(OrderSchema),
  sort: Type.Optional(SortSchema),
  pagination: Type.Optional(Type.String()),
})

/** Serialization options of a page of projects. */
export interface ProjectPageOptions {
  readonly simple?: boolean
  readonly statistics?: boolean
}
/** Parsed list query, as the schema above guarantees it. */
export interface ProjectListQuery {
  readonly archived?: boolean
  readonly visibility?: Visibility
  readonly search?: string
  readonly search_namespaces?: boolean
  readonly simple?: boolean
  readonly owned?: boolean
  readonly membership?: boolean
  readonly starred?: boolean
  readonly statistics?: boolean
  readonly min_access_level?: number
  readonly id_after?: number
  readonly id_before?: number
  readonly last_activity_after?: string
  readonly last_activity_before?: string
  readonly repository_storage?: string
  readonly topic?: readonly string[]
  readonly with_issues_enabled?: boolean
  readonly with_merge_requests_enabled?: boolean
  readonly order_by?: string
  readonly sort?: 'asc' | 'desc'
  readonly pagination?: string
}

function isoParam(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined
  const t = Date.parse(value)
  if (Number.isNaN(t)) throw invalidParam(name)
  return new Date(t).toISOString()
}

/** Turns a validated list query into the SQL filter, enforcing GitLab's parameter rules. */
export function projectFilter(
  caller: Caller,
  q: ProjectListQuery,
  scope: { readonly namespaceIds?: readonly number[] } = {},
): ProjectListFilter {
  const user = caller.user
  if (q.min_access_level !== undefined && ![5, 10, 20, 30, 40, 50].includes(q.min_access_level))
    throw invalidParam('min_access_level', 'does not have a valid value')
  let orderBy = (q.order_by ?? 'created_at') as string
  // Storage sizes are admin-only orderings in GitLab; without statistics here they sort like id.
  if (['storage_size', 'repository_size', 'wiki_size', 'packages_size'].includes(orderBy)) orderBy = 'id'
  return {
    userId: user?.id ?? null,
    isAdmin: caller.perms.isAdmin,
    external: user?.external === 1,
    namespaceIds: scope.namespaceIds,
    archived: q.archived,
    visibility: q.visibility,
    search: q.search || undefined,
    searchNamespaces: q.search_namespaces,
    owned: q.owned,
    membership: q.membership,
    starredBy: q.starred ? (user?.id ?? -1) : undefined,
    minAccessLevel: q.min_access_level,
    idAfter: q.id_after,
    idBefore: q.id_before,
    lastActivityAfter: isoParam('last_activity_after', q.last_activity_after),
    lastActivityBefore: isoParam('last_activity_before', q.last_activity_before),
    // The storage filter is for administrators confirming storage moves; others cannot see storages.
    repositoryStorage: caller.perms.isAdmin ? q.repository_storage : undefined,
    topic: q.topic
      ?.flatMap((t) => t.split(','))
      .map((t) => t.trim())
      .filter(Boolean),
    withIssuesEnabled: q.with_issues_enabled,
    withMergeRequestsEnabled: q.with_merge_requests_enabled,
    orderBy: orderBy as ProjectOrder,
    sort: q.sort ?? 'desc',
  }
}

/** The upstream of each fork on the page the caller may read, as BasicProjectDetails (GitLab's `forked_from_project`). */
function forkedFromOf(caller: Caller, ids: readonly number[]): Map<number, ProjectSimple> {
  const shown = new Map<number, ProjectSimple>()
  for (const [forkId, upstream] of upstreamsOf(caller.db, ids)) {
    if (caller.perms.canReadProject(upstream)) shown.set(forkId, projectSimple(upstream, caller.baseUrl))
  }
  return shown
}

/**
 * What each row of a page needs beyond itself, fetched in a few batch queries (owners, group
 * shares, the caller's levels): never one query per row. Null for callers who get the basic entity.
 */
function pageExtras(
  caller: Caller,
  rows: readonly ProjectWithNamespaceRow[],
  options: ProjectPageOptions,
): ((p: ProjectWithNamespaceRow) => ProjectExtras) | null {
  const { db, baseUrl, user, perms } = caller
  if (options.simple || !user) return null
  const ids = rows.map((p) => p.id)
  const ownerIds = [
    ...new Set(rows.filter((p) => p.ns_kind === 'user' && p.ns_owner_id !== null).map((p) => p.ns_owner_id as number)),
  ]
  const owners = projectOwnerRefs(db, ownerIds)
  const shares = projectSharesOf(db, ids)
  const upstreams = forkedFromOf(caller, ids)
  const direct = directProjectLevels(db, user.id, ids)
  const groups = groupLevels(db, user.id, [
    ...new Set(rows.filter((p) => p.ns_kind === 'group').map((p) => p.namespace_id)),
  ])
  return (p) => {
    const projectLevel =
      direct.get(p.id) ?? (p.ns_kind === 'user' && p.ns_owner_id === user.id ? AccessLevel.OWNER : null)
    const groupLevel = p.ns_kind === 'group' ? (groups.get(p.namespace_id) ?? null) : null
    const canSeeStats = perms.isAdmin || Math.max(projectLevel ?? 0, groupLevel ?? 0) >= AccessLevel.REPORTER
    return {
      baseUrl,
      owner: p.ns_owner_id !== null ? owners.get(p.ns_owner_id) : undefined,
      shares: shares.get(p.id),
      permissions: { project: projectLevel, group: groupLevel },
      statistics: options.statistics && canSeeStats,
      showStorage: perms.isAdmin,
      forkedFrom: upstreams.get(p.id),
    }
  }
}

/** Serializes a page of projects as the caller may see them (basic entities when anonymous or `simple`). */
export function presentProjects(
  caller: Caller,
  rows: readonly ProjectWithNamespaceRow[],
  options: ProjectPageOptions = {},
): ProjectListItem[] {
  const extras = pageExtras(caller, rows, options)
  if (!extras) return rows.map((p) => projectSimple(p, caller.baseUrl))
  return rows.map((p) => projectEntity(p, extras(p)))
}

/** The same page as `presentProjects`, already serialized: unchanged rows reuse their memoised JSON. */
export function presentProjectsJson(
  caller: Caller,
  rows: readonly ProjectWithNamespaceRow[],
  options: ProjectPageOptions,
): Buffer {
  const extras = pageExtras(caller, rows, options)
  if (!extras) return Buffer.from(JSON.stringify(presentProjects(caller, rows, options)))
  const parts: Buffer[] = [OPEN_BRACKET]
  rows.forEach((p, i) => {
    if (i > 0) parts.push(COMMA)
    parts.push(projectEntityJson(p, extras(p)))
  })
  parts.push(CLOSE_BRACKET)
  return Buffer.concat(parts)
}

const OPEN_BRACKET = Buffer.from('[')
const COMMA = Buffer.from(',')
const CLOSE_BRACKET = Buffer.from(']')

/** One project as `GET /projects/:id` shows it to the caller. */
export function presentProject(
  caller: Caller,
  project: ProjectRow,
  options: { readonly statistics?: boolean } = {},
): Project {
  const { db } = caller
  const row = findProjectWithNamespace(db, project.id) as ProjectWithNamespaceRow
  const extras = pageExtras(caller, [row], { statistics: options.statistics })
  if (!extras) {
    // Anonymous callers get the full entity without permissions, not the list's basic one.
    return projectEntity(row, {
      baseUrl: caller.baseUrl,
      shares: projectSharesOf(db, [row.id]).get(row.id),
      owner: row.ns_owner_id !== null ? findUserById(db, row.ns_owner_id) : undefined,
      forkedFrom: forkedFromOf(caller, [row.id]).get(row.id),
    })
  }
  const entity = projectEntity(row, extras(row))
  // GitLab shows the runner registration token to those who administer the project.
  if (!caller.perms.canInProject(row, AccessLevel.MAINTAINER)) return entity
  return { ...entity, runners_token: runnersToken(caller.ctx, { kind: 'project', id: row.id }) }
}
