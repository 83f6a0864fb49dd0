import { alertSeverityOf, alertStatusOf } from '../../../shared/alerts'
import type { AlertStatus, AlertStatusFilter, NotifyAlert } from '../../../shared/ipc/notify'
import type { ApiClient } from '../api/client'
import { GraphQLRequestError, graphqlData, type GraphQLErrorEntry } from '../api/graphql'
import { arr, isRecord, num, obj, str, type JsonObject } from '../cache/json'
import type { ScopeProject } from './store'

/*
 * GitLab's alert management over GraphQL (`/api/graphql`), the same on gitlab.com, a
 * self-managed GitLab and Burrow Server: the feed query the watcher polls (docs/architecture.md,
 * "Desktop alert feed"), the alert list, and the status and assignee mutations.
 */

/** Alerts per project per feed request: new ones are the newest, so a burst beyond this is still counted. */
export const FEED_PAGE = 20

/** Alerts per project in `notify:list-alerts`. */
export const LIST_PAGE = 100

const ALERT_FIELDS =
  'iid title severity status startedAt createdAt eventCount detailsUrl assignees { nodes { username } }'

/** GraphQL's `statuses:` argument for a filter, or null for every status. */
export function statusesFor(filter: AlertStatusFilter): readonly AlertStatus[] | null {
  if (filter === 'all') return null
  if (filter === 'open') return ['triggered', 'acknowledged']
  return [filter]
}

function statusEnum(statuses: readonly AlertStatus[] | null): string {
  return statuses === null ? '' : `statuses: [${statuses.map((s) => s.toUpperCase()).join(', ')}], `
}

/**
 * One request over several projects, each under its own alias with its path as a variable (no
 * path is ever spliced into the query text). With `counts`, each project also answers its
 * status counts (the feed); the list leaves them out.
 */
export function projectsQuery(
  count: number,
  statuses: readonly AlertStatus[] | null,
  first: number,
  counts: boolean,
): string {
  const variables = Array.from({ length: count }, (_, i) => `$p${i}: ID!`).join(', ')
  const fields = `${counts ? 'alertManagementAlertStatusCounts { open triggered } ' : ''}alertManagementAlerts(${statusEnum(statuses)}sort: CREATED_TIME_DESC, first: ${first}) { nodes { ${ALERT_FIELDS} } }`
  const aliases = Array.from({ length: count }, (_, i) => `p${i}: project(fullPath: $p${i}) { ${fields} }`).join(' ')
  return `query BurrowAlerts(${variables}) { ${aliases} }`
}

/** The renderer route of an alert (the renderer's alert view; see docs/architecture.md). */
export function alertRoute(accountId: string, projectId: number, iid: number): string {
  return `/a/${encodeURIComponent(accountId)}/projects/${projectId}/alerts/${iid}`
}

/** A GraphQL alert node as the IPC contract shows it; null when the node is not an alert. */
export function presentAlert(accountId: string, project: ScopeProject, node: unknown): NotifyAlert | null {
  if (!isRecord(node)) return null
  const iid = Number(str(node, 'iid') ?? num(node, 'iid'))
  if (!Number.isSafeInteger(iid) || iid <= 0) return null
  const assignees = obj(node, 'assignees')
  return {
    accountId,
    projectId: project.id,
    projectPath: project.fullPath,
    iid,
    title: str(node, 'title') ?? 'Alert',
    severity: alertSeverityOf(str(node, 'severity') ?? '') ?? 'unknown',
    status: alertStatusOf(str(node, 'status') ?? '') ?? 'triggered',
    startedAt: str(node, 'startedAt'),
    createdAt: str(node, 'createdAt'),
    eventCount: num(node, 'eventCount') ?? 1,
    assigneeUsernames:
      assignees === null
        ? []
        : arr(assignees, 'nodes').flatMap((u) => (isRecord(u) && typeof u.username === 'string' ? [u.username] : [])),
    url: str(node, 'detailsUrl'),
    route: alertRoute(accountId, project.id, iid),
  }
}

/** What one project answered: null when the request failed for it (its errors), else its alerts and counts. */
export interface ProjectAlerts {
  readonly project: ScopeProject
  /** False when the caller cannot read the project (GraphQL answers null): nothing to count. */
  readonly readable: boolean
  readonly alerts: readonly NotifyAlert[]
  readonly open: number
  readonly triggered: number
}

/**
 * Asks `projects` in requests of `batch` aliases. Projects whose alias came back with errors are
 * left out of the answer (the caller keeps what it knew). When the instance refuses a request as
 * too complex, the batch is halved and the request tried again; `onBatch` hears the size that
 * worked, so the next check starts there.
 */
export async function queryProjects(
  client: ApiClient,
  accountId: string,
  projects: readonly ScopeProject[],
  options: {
    readonly statuses: readonly AlertStatus[] | null
    readonly first: number
    readonly counts: boolean
    readonly batch: number
    readonly signal?: AbortSignal
    readonly onBatch?: (size: number) => void
  },
): Promise<ProjectAlerts[]> {
  const out: ProjectAlerts[] = []
  let batch = Math.max(1, options.batch)
  for (let start = 0; start < projects.length;) {
    const chunk = projects.slice(start, start + batch)
    const variables = Object.fromEntries(chunk.map((p, i) => [`p${i}`, p.fullPath]))
    const response = await client.graphql<Record<string, unknown>>(
      projectsQuery(chunk.length, options.statuses, options.first, options.counts),
      variables,
      { signal: options.signal },
    )
    let data: Record<string, unknown>
    try {
      data = graphqlData(response)
    } catch (error) {
      if (error instanceof GraphQLRequestError && error.tooComplex && batch > 1) {
        batch = Math.max(1, Math.floor(batch / 2))
        options.onBatch?.(batch)
        continue
      }
      throw error
    }
    const failed = aliasesWithErrors(response.errors ?? [])
    chunk.forEach((project, i) => {
      const alias = `p${i}`
      if (failed.has(alias)) return
      const node = data[alias]
      if (!isRecord(node)) {
        out.push({ project, readable: false, alerts: [], open: 0, triggered: 0 })
        return
      }
      const list = obj(node, 'alertManagementAlerts')
      const alerts = (list === null ? [] : arr(list, 'nodes')).flatMap((n) => presentAlert(accountId, project, n) ?? [])
      const counts = obj(node, 'alertManagementAlertStatusCounts')
      const open =
        counts === null
          ? alerts.filter((a) => a.status === 'triggered' || a.status === 'acknowledged').length
          : (num(counts, 'open') ?? 0)
      const triggered =
        counts === null ? alerts.filter((a) => a.status === 'triggered').length : (num(counts, 'triggered') ?? 0)
      out.push({ project, readable: true, alerts, open, triggered })
    })
    start += chunk.length
  }
  return out
}

function aliasesWithErrors(errors: readonly GraphQLErrorEntry[]): Set<string> {
  return new Set(errors.flatMap((e) => (e.path !== undefined && typeof e.path[0] === 'string' ? [e.path[0]] : [])))
}

/** A refused alert action; `code` crosses the IPC bridge. */
export class AlertActionError extends Error {
  override readonly name = 'AlertActionError'
  constructor(
    readonly code: 'offline' | 'not-found' | 'refused',
    message: string,
  ) {
    super(message)
  }
}

const STATUS_MUTATION = `mutation BurrowAlertStatus($path: ID!, $iid: String!, $status: AlertManagementStatus!) {
  result: updateAlertStatus(input: {projectPath: $path, iid: $iid, status: $status}) { errors alert { ${ALERT_FIELDS} } }
}`

const ASSIGN_MUTATION = `mutation BurrowAlertAssign($path: ID!, $iid: String!, $usernames: [String!]!) {
  result: alertSetAssignees(input: {projectPath: $path, iid: $iid, assigneeUsernames: $usernames, operationMode: REPLACE}) { errors alert { ${ALERT_FIELDS} } }
}`

async function mutate(
  client: ApiClient,
  accountId: string,
  project: ScopeProject,
  query: string,
  variables: Readonly<Record<string, unknown>>,
): Promise<NotifyAlert> {
  const response = await client.graphql<{ result: JsonObject | null }>(query, { path: project.fullPath, ...variables })
  const result = graphqlData(response).result
  // A hidden project or alert answers a null payload with GitLab's "does not exist or you don't have permission".
  if (result === null)
    throw new AlertActionError(
      'not-found',
      response.errors?.[0]?.message ?? 'The alert does not exist or you cannot change it.',
    )
  const errors = arr(result, 'errors').filter((e): e is string => typeof e === 'string')
  if (errors.length > 0) throw new AlertActionError('refused', errors.join('; '))
  const alert = presentAlert(accountId, project, result.alert)
  if (alert === null) throw new AlertActionError('not-found', 'The alert does not exist or you cannot change it.')
  return alert
}

/** `updateAlertStatus`: the alert after the change. */
export function updateAlertStatus(
  client: ApiClient,
  accountId: string,
  project: ScopeProject,
  iid: number,
  status: AlertStatus,
): Promise<NotifyAlert> {
  return mutate(client, accountId, project, STATUS_MUTATION, { iid: String(iid), status: status.toUpperCase() })
}

/** `alertSetAssignees` (replace): the alert after the change. */
export function setAlertAssignees(
  client: ApiClient,
  accountId: string,
  project: ScopeProject,
  iid: number,
  usernames: readonly string[],
): Promise<NotifyAlert> {
  return mutate(client, accountId, project, ASSIGN_MUTATION, { iid: String(iid), usernames })
}
