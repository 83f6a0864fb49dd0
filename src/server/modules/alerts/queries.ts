import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'
import type { UserRow } from '../../platform/db/rows'
import type { TodoRow } from '../todos'
import { ALERT_SEVERITIES, ALERT_STATUSES, type AlertSeverity, type AlertStatus } from '../../../shared/alerts'

/** The to-do target type of alerts. */
export const ALERT_TARGET_TYPE = 'AlertManagement::Alert'

export interface HttpIntegrationRow {
  readonly id: number
  readonly project_id: number
  readonly name: string
  readonly active: number
  readonly endpoint_identifier: string
  readonly encrypted_token: string
  readonly payload_example: string
  /** JSON array of AlertFieldMapping. */
  readonly payload_attribute_mappings: string
  readonly created_at: string
  readonly updated_at: string
}

export interface AlertRow {
  readonly id: number
  readonly project_id: number
  readonly iid: number
  readonly integration_id: number | null
  readonly title: string
  readonly description: string | null
  readonly severity: number
  readonly status: number
  readonly service: string | null
  readonly monitoring_tool: string | null
  /** JSON array of strings. */
  readonly hosts: string
  readonly fingerprint: string | null
  readonly environment_id: number | null
  /** The payload as received (JSON object). */
  readonly payload: string
  readonly events: number
  readonly started_at: string
  readonly ended_at: string | null
  readonly created_at: string
  readonly updated_at: string
}

/** GitLab's AlertManagement::Alert status enum values (the stored number is the name's index). */
export const ALERT_STATUS = { triggered: 0, acknowledged: 1, resolved: 2, ignored: 3 } as const satisfies Record<
  AlertStatus,
  number
>
export type AlertStatusName = AlertStatus
export const ALERT_STATUS_NAMES: readonly AlertStatusName[] = ALERT_STATUSES

/** GitLab's AlertManagement::Alert severity enum values (the stored number is the name's index). */
export const ALERT_SEVERITY = {
  critical: 0,
  high: 1,
  medium: 2,
  low: 3,
  info: 4,
  unknown: 5,
} as const satisfies Record<AlertSeverity, number>
export type AlertSeverityName = AlertSeverity
export const ALERT_SEVERITY_NAMES: readonly AlertSeverityName[] = ALERT_SEVERITIES

// ---- HTTP integrations ----

export interface NewHttpIntegration {
  readonly projectId: number
  readonly name: string
  readonly active: boolean
  readonly endpointIdentifier: string
  readonly encryptedToken: string
  readonly payloadExample: string
  readonly payloadAttributeMappings: string
}

/** Whether the project already has an integration with this endpoint identifier. */
export function endpointIdentifierTaken(db: Db, projectId: number, endpoint: string): boolean {
  return (
    db
      .prepare('SELECT 1 FROM alert_management_http_integrations WHERE project_id = ? AND endpoint_identifier = ?')
      .get(projectId, endpoint) !== undefined
  )
}

export function insertHttpIntegration(db: Db, i: NewHttpIntegration): HttpIntegrationRow {
  const now = nowIso()
  const info = db
    .prepare(
      `INSERT INTO alert_management_http_integrations
         (project_id, name, active, endpoint_identifier, encrypted_token, payload_example, payload_attribute_mappings, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      i.projectId,
      i.name,
      i.active ? 1 : 0,
      i.endpointIdentifier,
      i.encryptedToken,
      i.payloadExample,
      i.payloadAttributeMappings,
      now,
      now,
    )
  return findHttpIntegration(db, Number(info.lastInsertRowid)) as HttpIntegrationRow
}

export function findHttpIntegration(db: Db, id: number): HttpIntegrationRow | undefined {
  return db.prepare('SELECT * FROM alert_management_http_integrations WHERE id = ?').get(id) as
    HttpIntegrationRow | undefined
}

/** The integration a notify URL names (its endpoint identifier within the project). */
export function findHttpIntegrationByEndpoint(
  db: Db,
  projectId: number,
  endpointIdentifier: string,
): HttpIntegrationRow | undefined {
  return db
    .prepare('SELECT * FROM alert_management_http_integrations WHERE project_id = ? AND endpoint_identifier = ?')
    .get(projectId, endpointIdentifier) as HttpIntegrationRow | undefined
}

export function listHttpIntegrations(db: Db, projectId: number): HttpIntegrationRow[] {
  return db
    .prepare('SELECT * FROM alert_management_http_integrations WHERE project_id = ? ORDER BY id')
    .all(projectId) as HttpIntegrationRow[]
}

/** Updates the given columns of an integration and its updated_at. */
export function updateHttpIntegrationRow(
  db: Db,
  id: number,
  changes: Partial<
    Pick<HttpIntegrationRow, 'name' | 'active' | 'encrypted_token' | 'payload_example' | 'payload_attribute_mappings'>
  >,
): HttpIntegrationRow {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined)
  const sets = [...entries.map(([k]) => `${k} = ?`), 'updated_at = ?']
  db.prepare(`UPDATE alert_management_http_integrations SET ${sets.join(', ')} WHERE id = ?`).run(
    ...entries.map(([, v]) => v),
    nowIso(),
    id,
  )
  return findHttpIntegration(db, id) as HttpIntegrationRow
}

export function deleteHttpIntegration(db: Db, id: number): void {
  db.prepare('DELETE FROM alert_management_http_integrations WHERE id = ?').run(id)
}

// ---- alerts ----

export interface NewAlert {
  readonly projectId: number
  readonly iid: number
  readonly integrationId: number | null
  readonly title: string
  readonly description: string | null
  readonly severity: number
  readonly service: string | null
  readonly monitoringTool: string | null
  readonly hosts: readonly string[]
  readonly fingerprint: string | null
  readonly environmentId: number | null
  readonly payload: string
  readonly startedAt: string
}

export function insertAlert(db: Db, a: NewAlert): AlertRow {
  const now = nowIso()
  const info = db
    .prepare(
      `INSERT INTO alert_management_alerts
         (project_id, iid, integration_id, title, description, severity, status, service, monitoring_tool, hosts, fingerprint,
          environment_id, payload, events, started_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`,
    )
    .run(
      a.projectId,
      a.iid,
      a.integrationId,
      a.title,
      a.description,
      a.severity,
      a.service,
      a.monitoringTool,
      JSON.stringify(a.hosts),
      a.fingerprint,
      a.environmentId,
      a.payload,
      a.startedAt,
      now,
      now,
    )
  return findAlertById(db, Number(info.lastInsertRowid)) as AlertRow
}

export function findAlertById(db: Db, id: number): AlertRow | undefined {
  return db.prepare('SELECT * FROM alert_management_alerts WHERE id = ?').get(id) as AlertRow | undefined
}

export function findAlertByIid(db: Db, projectId: number, iid: number): AlertRow | undefined {
  return db.prepare('SELECT * FROM alert_management_alerts WHERE project_id = ? AND iid = ?').get(projectId, iid) as
    AlertRow | undefined
}

/** The project's unresolved alert with this fingerprint, if any (at most one, by index). */
export function findUnresolvedAlert(db: Db, projectId: number, fingerprint: string): AlertRow | undefined {
  return db
    .prepare(
      `SELECT * FROM alert_management_alerts WHERE project_id = ? AND fingerprint = ? AND status <> ${ALERT_STATUS.resolved}`,
    )
    .get(projectId, fingerprint) as AlertRow | undefined
}

/** One more occurrence of an alert (GitLab's register_new_event!). */
export function incrementAlertEvents(db: Db, id: number): AlertRow {
  db.prepare('UPDATE alert_management_alerts SET events = events + 1, updated_at = ? WHERE id = ?').run(nowIso(), id)
  return findAlertById(db, id) as AlertRow
}

/** Sets the status; resolving records `endedAt`, leaving resolved clears it. */
export function setAlertStatus(db: Db, id: number, status: number, endedAt: string | null): AlertRow {
  db.prepare('UPDATE alert_management_alerts SET status = ?, ended_at = ?, updated_at = ? WHERE id = ?').run(
    status,
    endedAt,
    nowIso(),
    id,
  )
  return findAlertById(db, id) as AlertRow
}

export function touchAlert(db: Db, id: number): void {
  db.prepare('UPDATE alert_management_alerts SET updated_at = ? WHERE id = ?').run(nowIso(), id)
}

export type AlertSortKey =
  | 'started_at_asc'
  | 'started_at_desc'
  | 'ended_at_asc'
  | 'ended_at_desc'
  | 'created_at_asc'
  | 'created_at_desc'
  | 'updated_at_asc'
  | 'updated_at_desc'
  | 'event_count_asc'
  | 'event_count_desc'
  | 'severity_asc'
  | 'severity_desc'
  | 'status_asc'
  | 'status_desc'

// Severity and status sort the way GitLab's scopes do: "ascending" severity goes from less to more
// critical (the enum's higher values first), and status ascending reads Ignored > … > Triggered.
const ORDER_BY: Readonly<Record<AlertSortKey, string>> = {
  started_at_asc: 'a.started_at ASC, a.id ASC',
  started_at_desc: 'a.started_at DESC, a.id DESC',
  ended_at_asc: 'a.ended_at IS NULL, a.ended_at ASC, a.id ASC',
  ended_at_desc: 'a.ended_at IS NULL, a.ended_at DESC, a.id DESC',
  created_at_asc: 'a.created_at ASC, a.id ASC',
  created_at_desc: 'a.created_at DESC, a.id DESC',
  updated_at_asc: 'a.updated_at ASC, a.id ASC',
  updated_at_desc: 'a.updated_at DESC, a.id DESC',
  event_count_asc: 'a.events ASC, a.id ASC',
  event_count_desc: 'a.events DESC, a.id DESC',
  severity_asc: 'a.severity DESC, a.id ASC',
  severity_desc: 'a.severity ASC, a.id DESC',
  status_asc: 'a.status DESC, a.id ASC',
  status_desc: 'a.status ASC, a.id DESC',
}

export interface AlertFilter {
  readonly projectId: number
  readonly iid?: number
  readonly statuses?: readonly number[]
  /** Matches title, description, service or monitoring tool (case-insensitive substring). */
  readonly search?: string
  readonly assigneeUsername?: string
}

function alertWhere(f: AlertFilter): { sql: string; params: unknown[] } {
  const where = ['a.project_id = ?']
  const params: unknown[] = [f.projectId]
  if (f.iid !== undefined) {
    where.push('a.iid = ?')
    params.push(f.iid)
  }
  if (f.statuses !== undefined && f.statuses.length > 0) {
    where.push(`a.status IN (${f.statuses.map(() => '?').join(', ')})`)
    params.push(...f.statuses)
  }
  if (f.search !== undefined && f.search.trim() !== '') {
    const like = `%${f.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    where.push(
      `(a.title LIKE ? ESCAPE '\\' OR a.description LIKE ? ESCAPE '\\' OR a.service LIKE ? ESCAPE '\\' OR a.monitoring_tool LIKE ? ESCAPE '\\')`,
    )
    params.push(like, like, like, like)
  }
  if (f.assigneeUsername !== undefined) {
    where.push(`EXISTS (SELECT 1 FROM alert_management_alert_assignees aa JOIN users u ON u.id = aa.user_id
                        WHERE aa.alert_id = a.id AND u.username = ? COLLATE NOCASE)`)
    params.push(f.assigneeUsername)
  }
  return { sql: where.join(' AND '), params }
}

/** A page of a project's alerts and the total matching the filter. */
export function listAlerts(
  db: Db,
  f: AlertFilter,
  sort: AlertSortKey,
  limit: number,
  offset: number,
): { rows: AlertRow[]; total: number } {
  const { sql, params } = alertWhere(f)
  const total = (
    db.prepare(`SELECT COUNT(*) AS n FROM alert_management_alerts a WHERE ${sql}`).get(...params) as { n: number }
  ).n
  const rows = db
    .prepare(`SELECT a.* FROM alert_management_alerts a WHERE ${sql} ORDER BY ${ORDER_BY[sort]} LIMIT ? OFFSET ?`)
    .all(...params, limit, offset) as AlertRow[]
  return { rows, total }
}

/** How many of the project's alerts (matching search/assignee) are in each status. */
export function alertStatusCounts(db: Db, f: AlertFilter): Map<number, number> {
  const { sql, params } = alertWhere({ ...f, statuses: undefined, iid: undefined })
  const rows = db
    .prepare(`SELECT a.status, COUNT(*) AS n FROM alert_management_alerts a WHERE ${sql} GROUP BY a.status`)
    .all(...params) as {
    status: number
    n: number
  }[]
  return new Map(rows.map((r) => [r.status, r.n]))
}

/** Assignees of each alert, in assignment order. */
export function alertAssignees(db: Db, alertIds: readonly number[]): Map<number, UserRow[]> {
  const out = new Map<number, UserRow[]>(alertIds.map((id) => [id, []]))
  if (alertIds.length === 0) return out
  const rows = db
    .prepare(
      `SELECT aa.alert_id AS alert_id, u.* FROM alert_management_alert_assignees aa JOIN users u ON u.id = aa.user_id
       WHERE aa.alert_id IN (${alertIds.map(() => '?').join(', ')}) ORDER BY aa.created_at, u.id`,
    )
    .all(...alertIds) as (UserRow & { alert_id: number })[]
  for (const r of rows) {
    const { alert_id: alertId, ...user } = r
    out.get(alertId)?.push(user as UserRow)
  }
  return out
}

export function replaceAlertAssignees(db: Db, alertId: number, userIds: readonly number[]): void {
  db.prepare('DELETE FROM alert_management_alert_assignees WHERE alert_id = ?').run(alertId)
  const insert = db.prepare(
    'INSERT INTO alert_management_alert_assignees (alert_id, user_id, created_at) VALUES (?, ?, ?)',
  )
  const now = nowIso()
  for (const userId of userIds) insert.run(alertId, userId, now)
}

/** Alerts by id (to-do targets), keyed by id. */
export function alertsByIds(db: Db, ids: readonly number[]): Map<number, AlertRow> {
  if (ids.length === 0) return new Map()
  const rows = db
    .prepare(`SELECT * FROM alert_management_alerts WHERE id IN (${ids.map(() => '?').join(', ')})`)
    .all(...ids) as AlertRow[]
  return new Map(rows.map((r) => [r.id, r]))
}

/** The user's to-dos on an alert in the given states, newest first. */
export function alertTodosOf(db: Db, userId: number, alertId: number, states: readonly string[]): TodoRow[] {
  return db
    .prepare(
      `SELECT * FROM todos WHERE user_id = ? AND target_type = ? AND target_id = ? AND state IN (${states.map(() => '?').join(', ')}) ORDER BY id DESC`,
    )
    .all(userId, ALERT_TARGET_TYPE, alertId, ...states) as TodoRow[]
}
