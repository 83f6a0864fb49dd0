import { AccessLevel } from '../../platform/auth/access'
import {
  ALERT_SEVERITY_NAMES,
  ALERT_TARGET_TYPE,
  alertDetailsUrl,
  canReadAlertsWith,
  inlineKeys,
  integrationToken,
  integrationUrl,
  parseMappings,
  payloadAlertFields,
  ALERT_STATUS,
  ALERT_STATUS_NAMES,
  alertAssignees,
  alertStatusCounts,
  alertTodosOf,
  findHttpIntegration,
  listAlerts,
  listHttpIntegrations,
  type AlertRow,
  type AlertSortKey,
  type AlertStatusName,
  type HttpIntegrationRow,
} from '../alerts'
import { findEnvironment } from '../environments'
import { usersByIds } from '../users'
import { findProjectWithNamespace, type ProjectWithNamespaceRow } from '../../platform/db/platform-queries'
import type { UserRow } from '../../platform/db/rows'
import type { TodoRow } from '../todos'
import {
  connection,
  connectionOf,
  connectionWindow,
  globalId,
  parseGlobalId,
  type Connection,
  type ConnectionArgs,
  type GraphQLContext,
} from './support'

/**
 * Row → GraphQL object presenters. Scalar fields are plain properties; fields with arguments or
 * costly to compute are methods, which graphql-js's default resolver calls with the field's
 * arguments and the context, so nothing is loaded that the query did not ask for.
 */

type Obj = Readonly<Record<string, unknown>>

/** GitLab's UserCore. */
export function presentUser(user: UserRow, g: GraphQLContext): Obj {
  return {
    id: globalId('User', user.id),
    username: user.username,
    name: user.name,
    state: user.state,
    avatarUrl: user.avatar_url,
    webUrl: `${g.baseUrl}/${user.username}`,
    webPath: `/${user.username}`,
    publicEmail: user.public_email === '' ? null : user.public_email,
    bot: user.user_type !== 'human',
  }
}

const TODO_TARGETS: Readonly<Record<string, string>> = {
  Commit: 'COMMIT',
  Issue: 'ISSUE',
  MergeRequest: 'MERGEREQUEST',
  'DesignManagement::Design': 'DESIGN',
  [ALERT_TARGET_TYPE]: 'ALERT',
  Epic: 'EPIC',
  Project: 'PROJECT',
  Namespace: 'NAMESPACE',
  Key: 'KEY',
  'WikiPage::Meta': 'WIKIPAGEMETA',
  User: 'USER',
}

/** GitLab's Todo. */
export function presentTodo(todo: TodoRow, author: UserRow, g: GraphQLContext): Obj {
  return {
    id: globalId('Todo', todo.id),
    action: todo.action,
    body: todo.body,
    state: todo.state,
    targetType: TODO_TARGETS[todo.target_type] ?? 'ISSUE',
    createdAt: todo.created_at,
    author: presentUser(author, g),
    project: () => {
      if (todo.project_id === null) return null
      const project = findProjectWithNamespace(g.ctx.db, todo.project_id)
      return project && g.perms.canReadProject(project) ? presentProject(project, g) : null
    },
  }
}

function fullPathOf(project: ProjectWithNamespaceRow): string {
  return `${project.ns_full_path}/${project.path}`
}

/** True when the caller may read and update the project's alerts (GitLab: Developer and above). */
export function canReadAlerts(project: ProjectWithNamespaceRow, g: GraphQLContext): boolean {
  return canReadAlertsWith(g.perms, project)
}

/** True when the caller may manage the project's alert integrations (GitLab's admin_operations: Maintainer). */
export function canAdminOperations(project: ProjectWithNamespaceRow, g: GraphQLContext): boolean {
  return g.user !== null && g.perms.canReadProject(project) && g.perms.canInProject(project, AccessLevel.MAINTAINER)
}

const SORTS: Readonly<Record<string, AlertSortKey>> = {
  updated_desc: 'updated_at_desc',
  updated_asc: 'updated_at_asc',
  created_desc: 'created_at_desc',
  created_asc: 'created_at_asc',
  UPDATED_DESC: 'updated_at_desc',
  UPDATED_ASC: 'updated_at_asc',
  CREATED_DESC: 'created_at_desc',
  CREATED_ASC: 'created_at_asc',
  STARTED_AT_ASC: 'started_at_asc',
  STARTED_AT_DESC: 'started_at_desc',
  ENDED_AT_ASC: 'ended_at_asc',
  ENDED_AT_DESC: 'ended_at_desc',
  CREATED_TIME_ASC: 'created_at_asc',
  CREATED_TIME_DESC: 'created_at_desc',
  UPDATED_TIME_ASC: 'updated_at_asc',
  UPDATED_TIME_DESC: 'updated_at_desc',
  EVENT_COUNT_ASC: 'event_count_asc',
  EVENT_COUNT_DESC: 'event_count_desc',
  SEVERITY_ASC: 'severity_asc',
  SEVERITY_DESC: 'severity_desc',
  STATUS_ASC: 'status_asc',
  STATUS_DESC: 'status_desc',
}

interface AlertListArgs extends ConnectionArgs {
  readonly iid?: string | null
  readonly statuses?: readonly string[] | null
  readonly sort?: string | null
  readonly domain?: string
  readonly search?: string | null
  readonly assigneeUsername?: string | null
}

function alertFilter(project: ProjectWithNamespaceRow, args: AlertListArgs): Parameters<typeof listAlerts>[1] | null {
  let iid: number | undefined
  if (args.iid !== undefined && args.iid !== null) {
    if (!/^\d+$/.test(args.iid)) return null
    iid = Number(args.iid)
  }
  return {
    projectId: project.id,
    iid,
    statuses: args.statuses?.map((s) => ALERT_STATUS[s.toLowerCase() as AlertStatusName]),
    search: args.search ?? undefined,
    assigneeUsername: args.assigneeUsername ?? undefined,
  }
}

/**
 * A page of alerts as GitLab's AlertsFinder gives them: only to Developers and above (an empty
 * list for others), threat-monitoring alerts never (Burrow receives operations alerts only),
 * sorted by start time, newest first, unless `sort` says otherwise.
 */
function alertConnection(project: ProjectWithNamespaceRow, args: AlertListArgs, g: GraphQLContext): Connection<Obj> {
  const filter = alertFilter(project, args)
  if (!canReadAlerts(project, g) || args.domain === 'threat_monitoring' || filter === null) return connection([], 0, 0)
  const sort = (args.sort && SORTS[args.sort]) || 'started_at_desc'
  const { total } = listAlerts(g.ctx.db, filter, sort, 0, 0)
  const { start, end } = connectionWindow(args, total)
  const { rows } = listAlerts(g.ctx.db, filter, sort, end - start, start)
  const assignees = alertAssignees(
    g.ctx.db,
    rows.map((r) => r.id),
  )
  return connection(
    rows.map((r) => presentAlert(r, project, g, assignees.get(r.id) ?? [])),
    start,
    total,
  )
}

/** GitLab's AlertManagementAlert. */
export function presentAlert(
  alert: AlertRow,
  project: ProjectWithNamespaceRow,
  g: GraphQLContext,
  assignees?: readonly UserRow[],
): Obj {
  const payload = JSON.parse(alert.payload) as Record<string, unknown>
  const fullPath = fullPathOf(project)
  const detailsUrl = alertDetailsUrl(g.baseUrl, fullPath, alert)
  const runbook = payload.runbook
  return {
    id: globalId('AlertManagement::Alert', alert.id),
    iid: String(alert.iid),
    title: alert.title,
    description: alert.description,
    severity: ALERT_SEVERITY_NAMES[alert.severity].toUpperCase(),
    status: ALERT_STATUS_NAMES[alert.status].toUpperCase(),
    service: alert.service,
    monitoringTool: alert.monitoring_tool,
    hosts: JSON.parse(alert.hosts) as string[],
    startedAt: alert.started_at,
    endedAt: alert.ended_at,
    eventCount: alert.events,
    details: inlineKeys(payload),
    createdAt: alert.created_at,
    updatedAt: alert.updated_at,
    runbook: typeof runbook === 'string' && runbook !== '' ? runbook : null,
    metricsDashboardUrl: null,
    detailsUrl,
    webUrl: detailsUrl,
    reference: (args: { full?: boolean }) => (args.full ? `${fullPath}^alert#${alert.iid}` : `^alert#${alert.iid}`),
    environment: () => {
      if (alert.environment_id === null) return null
      const env = findEnvironment(g.ctx.db, project.id, alert.environment_id)
      return env
        ? {
            id: globalId('Environment', env.id),
            name: env.name,
            state: env.state,
            path: `/${fullPath}/-/environments/${env.id}`,
          }
        : null
    },
    assignees: (args: ConnectionArgs) => {
      const users = assignees ?? alertAssignees(g.ctx.db, [alert.id]).get(alert.id) ?? []
      return connectionOf(
        users.map((u) => presentUser(u, g)),
        args,
      )
    },
    todos: (args: ConnectionArgs & { state?: readonly string[] | null }) => {
      if (!g.user) return connection([], 0, 0)
      const states = args.state && args.state.length > 0 ? args.state : ['pending']
      const rows = alertTodosOf(g.ctx.db, g.user.id, alert.id, states)
      const authors = usersByIds(
        g.ctx.db,
        rows.map((r) => r.author_id),
      )
      return connectionOf(
        rows.map((t) => presentTodo(t, authors.get(t.author_id) as UserRow, g)),
        args,
      )
    },
  }
}

/** GitLab's AlertManagementHttpIntegration (only ever presented to Maintainers). */
export function presentIntegration(
  integration: HttpIntegrationRow,
  project: ProjectWithNamespaceRow,
  g: GraphQLContext,
): Obj {
  return {
    __typename: 'AlertManagementHttpIntegration',
    id: globalId('AlertManagement::HttpIntegration', integration.id),
    type: 'HTTP',
    name: integration.name,
    active: integration.active === 1,
    token: () => integrationToken(g.ctx, integration),
    url: integrationUrl(g.baseUrl, fullPathOf(project), integration),
    apiUrl: null,
    payloadExample: integration.payload_example,
    payloadAttributeMappings: parseMappings(integration.payload_attribute_mappings),
    payloadAlertFields: () => {
      try {
        return payloadAlertFields(JSON.parse(integration.payload_example))
      } catch {
        return []
      }
    },
  }
}

function integrationConnection(
  project: ProjectWithNamespaceRow,
  args: ConnectionArgs & { id?: unknown },
  g: GraphQLContext,
): Connection<Obj> {
  if (!canAdminOperations(project, g)) return connection([], 0, 0)
  let rows = listHttpIntegrations(g.ctx.db, project.id)
  if (args.id !== undefined && args.id !== null) {
    const id = parseGlobalId(args.id, 'AlertManagement::HttpIntegration')
    const one = id === null ? undefined : findHttpIntegration(g.ctx.db, id)
    rows = one && one.project_id === project.id ? [one] : []
  }
  return connectionOf(
    rows.map((r) => presentIntegration(r, project, g)),
    args,
  )
}

/** GitLab's Project, with the alert fields. */
export function presentProject(project: ProjectWithNamespaceRow, g: GraphQLContext): Obj {
  const fullPath = fullPathOf(project)
  return {
    id: globalId('Project', project.id),
    name: project.name,
    path: project.path,
    fullPath,
    nameWithNamespace: `${project.ns_full_name} / ${project.name}`,
    webUrl: `${g.baseUrl}/${fullPath}`,
    alertManagementAlerts: (args: AlertListArgs) => alertConnection(project, args, g),
    alertManagementAlert: (args: AlertListArgs) => {
      return alertConnection(project, { ...args, first: 1 }, g).nodes[0] ?? null
    },
    alertManagementAlertStatusCounts: (args: { search?: string | null; assigneeUsername?: string | null }) => {
      const counts = canReadAlerts(project, g)
        ? alertStatusCounts(g.ctx.db, {
            projectId: project.id,
            search: args.search ?? undefined,
            assigneeUsername: args.assigneeUsername ?? undefined,
          })
        : new Map<number, number>()
      const n = (s: AlertStatusName): number => counts.get(ALERT_STATUS[s]) ?? 0
      return {
        all: n('triggered') + n('acknowledged') + n('resolved') + n('ignored'),
        open: n('triggered') + n('acknowledged'),
        triggered: n('triggered'),
        acknowledged: n('acknowledged'),
        resolved: n('resolved'),
        ignored: n('ignored'),
      }
    },
    alertManagementHttpIntegrations: (args: ConnectionArgs & { id?: unknown }) =>
      integrationConnection(project, args, g),
    alertManagementIntegrations: (args: ConnectionArgs & { id?: unknown }) => integrationConnection(project, args, g),
  }
}
