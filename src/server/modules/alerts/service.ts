import type { AlertTarget } from '../../../shared/api/alert'
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { Caller } from '../../platform/caller'
import type { ServerContext } from '../../platform/context'
import { nowIso, type Db } from '../../platform/db/connection'
import {
  ALERT_SEVERITY,
  ALERT_STATUS,
  alertAssignees,
  alertsByIds,
  deleteHttpIntegration,
  endpointIdentifierTaken,
  findAlertById,
  findHttpIntegrationByEndpoint,
  findUnresolvedAlert,
  incrementAlertEvents,
  insertAlert,
  insertHttpIntegration,
  replaceAlertAssignees,
  setAlertStatus,
  touchAlert,
  updateHttpIntegrationRow,
  type AlertRow,
  type AlertStatusName,
  type HttpIntegrationRow,
} from './queries'
import { findEnvironmentByName } from '../environments'
import { nextIid } from '../../platform/db/internal-ids'
import { findProject, findProjectWithNamespace } from '../../platform/db/platform-queries'
import { forbidden, notFound } from '../../platform/http/errors'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import { decryptSecret, encryptSecret } from '../../platform/auth/encryption'
import { Permissions } from '../../platform/auth/permissions'
import { parseAlertPayload, parseMappings, type AlertFieldMapping } from './payload'
import { ALERT_TARGET_TYPE, alertDetailsUrl, alertTodoTargetEntity } from './entity'
import { isAlertResponder } from './policy'
import { recordProjectChange } from '../projects'
import { createTodo, pendingTodoFor, type TodoRow } from '../todos'
import { exceeds, TEXT_LIMITS, tooLong } from '../../platform/text/limits'

/** The integration's authorization key, read back from its sealed form. */
export function integrationToken(ctx: ServerContext, integration: HttpIntegrationRow): string {
  return decryptSecret(ctx.options.dataDir, integration.encrypted_token)
}

/** The project at a full path, for the alert endpoints outside the API (404 when there is none). */
export function projectAtPath(ctx: ServerContext, fullPath: string): ProjectRow {
  const project = findProject(ctx.db, fullPath)
  if (!project) throw notFound('Project')
  return project
}

/** The project's active integration with this endpoint identifier; 403 when it is missing or inactive. */
export function activeIntegration(ctx: ServerContext, project: ProjectRow, endpoint: string): HttpIntegrationRow {
  const integration = findHttpIntegrationByEndpoint(ctx.db, project.id, endpoint)
  if (!integration || !integration.active) throw forbidden()
  return integration
}

/** Constant-time comparison of a presented key with the integration's. */
export function tokenMatches(ctx: ServerContext, integration: HttpIntegrationRow, presented: string): boolean {
  const expected = Buffer.from(integrationToken(ctx, integration))
  const given = Buffer.from(presented)
  return expected.length === given.length && timingSafeEqual(expected, given)
}

/** A new authorization key: 32 hex characters, GitLab's format. */
function newToken(): string {
  return randomBytes(16).toString('hex')
}

/** `namespace/project` of a project. */
export function projectFullPath(db: Db, project: Pick<ProjectRow, 'id' | 'path'>): string {
  const full = findProjectWithNamespace(db, project.id)
  return full ? `${full.ns_full_path}/${full.path}` : project.path
}

export interface IntegrationInput {
  readonly name?: string
  readonly active?: boolean
  /** A sample payload as JSON text (GitLab's `payloadExample`). */
  readonly payloadExample?: string
  readonly payloadAttributeMappings?: readonly AlertFieldMapping[]
}

/** Validation errors of an integration's attributes, as GitLab words them (empty when valid). */
function integrationErrors(input: IntegrationInput): string[] {
  const errors: string[] = []
  if (input.name !== undefined) {
    if (input.name.trim() === '') errors.push("Name can't be blank")
    else if (exceeds(input.name, TEXT_LIMITS.name.name)) errors.push(`Name ${tooLong(TEXT_LIMITS.name.name)}`)
  }
  if (input.payloadExample !== undefined) {
    let parsed: unknown
    try {
      parsed = JSON.parse(input.payloadExample)
    } catch {
      errors.push('Payload example must be a valid JSON object')
    }
    if (parsed !== undefined && (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)))
      errors.push('Payload example must be a valid JSON object')
  }
  return errors
}

export type IntegrationResult =
  | { readonly integration: HttpIntegrationRow; readonly errors: readonly [] }
  | { readonly integration: null; readonly errors: readonly string[] }

/** Creates an HTTP integration with a fresh endpoint identifier and key (Maintainers; checked by callers). */
export function createHttpIntegration(
  caller: Caller,
  project: ProjectRow,
  input: IntegrationInput & { readonly name: string; readonly active: boolean },
): IntegrationResult {
  const errors = integrationErrors(input)
  if (errors.length > 0) return { integration: null, errors }
  const ctx = caller.ctx
  const db = ctx.db
  return db.transaction((): IntegrationResult => {
    let endpoint = randomBytes(8).toString('hex')
    while (endpointIdentifierTaken(db, project.id, endpoint)) {
      endpoint = randomBytes(8).toString('hex')
    }
    const integration = insertHttpIntegration(db, {
      projectId: project.id,
      name: input.name.trim(),
      active: input.active,
      endpointIdentifier: endpoint,
      encryptedToken: encryptSecret(ctx.options.dataDir, newToken()),
      payloadExample: input.payloadExample ?? '{}',
      payloadAttributeMappings: JSON.stringify(input.payloadAttributeMappings ?? []),
    })
    recordProjectChange(caller, project, {
      targetType: 'AlertManagement::HttpIntegration',
      targetId: integration.id,
      targetTitle: integration.name,
      audit: {
        add: 'alert_management_http_integration',
        custom_message: `Created HTTP integration ${integration.name} (${integration.active ? 'active' : 'inactive'})`,
      },
    })
    return { integration, errors: [] }
  })()
}

/** Renames, (de)activates or remaps an integration; the key and endpoint never change here. */
export function updateHttpIntegration(
  caller: Caller,
  project: ProjectRow,
  integration: HttpIntegrationRow,
  input: IntegrationInput,
): IntegrationResult {
  const errors = integrationErrors(input)
  if (errors.length > 0) return { integration: null, errors }
  const db = caller.db
  return db.transaction((): IntegrationResult => {
    const updated = updateHttpIntegrationRow(db, integration.id, {
      name: input.name?.trim(),
      active: input.active === undefined ? undefined : input.active ? 1 : 0,
      payload_example: input.payloadExample,
      payload_attribute_mappings:
        input.payloadAttributeMappings === undefined ? undefined : JSON.stringify(input.payloadAttributeMappings),
    })
    const changes: string[] = []
    if (updated.name !== integration.name) changes.push(`name to ${updated.name}`)
    if (updated.active !== integration.active) changes.push(updated.active ? 'active' : 'inactive')
    if (updated.payload_attribute_mappings !== integration.payload_attribute_mappings) changes.push('field mappings')
    if (changes.length > 0) {
      recordProjectChange(caller, project, {
        targetType: 'AlertManagement::HttpIntegration',
        targetId: updated.id,
        targetTitle: updated.name,
        audit: {
          change: 'alert_management_http_integration',
          custom_message: `Changed HTTP integration ${updated.name}: ${changes.join(', ')}`,
        },
      })
    }
    return { integration: updated, errors: [] }
  })()
}

/** Replaces the integration's authorization key; the old key stops working at once. */
export function resetHttpIntegrationToken(
  caller: Caller,
  project: ProjectRow,
  integration: HttpIntegrationRow,
): HttpIntegrationRow {
  const ctx = caller.ctx
  return ctx.db.transaction(() => {
    const updated = updateHttpIntegrationRow(ctx.db, integration.id, {
      encrypted_token: encryptSecret(ctx.options.dataDir, newToken()),
    })
    recordProjectChange(caller, project, {
      targetType: 'AlertManagement::HttpIntegration',
      targetId: updated.id,
      targetTitle: updated.name,
      audit: {
        change: 'alert_management_http_integration_token',
        custom_message: `Reset the authorization key of HTTP integration ${updated.name}`,
      },
    })
    return updated
  })()
}

/** Deletes an integration; its alerts stay. */
export function destroyHttpIntegration(caller: Caller, project: ProjectRow, integration: HttpIntegrationRow): void {
  const db = caller.db
  db.transaction(() => {
    deleteHttpIntegration(db, integration.id)
    recordProjectChange(caller, project, {
      targetType: 'AlertManagement::HttpIntegration',
      targetId: integration.id,
      targetTitle: integration.name,
      audit: {
        remove: 'alert_management_http_integration',
        custom_message: `Deleted HTTP integration ${integration.name}`,
      },
    })
  })()
}

/**
 * Processes one inbound payload (GitLab's generic alert processing): an unresolved alert with the
 * same fingerprint counts one more event, or is resolved when the payload carries `end_time`;
 * otherwise a new alert is created, unless the payload only resolves (nothing to resolve then).
 * Returns the alerts the payload touched. GitLab records no activity event for alerts.
 */
export function receiveAlertPayload(
  ctx: ServerContext,
  project: ProjectRow,
  integration: HttpIntegrationRow | null,
  payload: Readonly<Record<string, unknown>>,
): AlertRow[] {
  const db = ctx.db
  const parsed = parseAlertPayload(
    payload,
    integration ? parseMappings(integration.payload_attribute_mappings) : [],
    new Date(nowIso()),
  )
  return db.transaction((): AlertRow[] => {
    const existing = parsed.fingerprint ? findUnresolvedAlert(db, project.id, parsed.fingerprint) : undefined
    if (existing) {
      if (parsed.endedAt) {
        const resolved = setAlertStatus(db, existing.id, ALERT_STATUS.resolved, parsed.endedAt)
        return [resolved]
      }
      return [incrementAlertEvents(db, existing.id)]
    }
    if (parsed.endedAt) return []
    const environment = parsed.environmentName
      ? findEnvironmentByName(db, project.id, parsed.environmentName)
      : undefined
    const alert = insertAlert(db, {
      projectId: project.id,
      iid: nextIid(db, { projectId: project.id }, 'alert_management_alerts'),
      integrationId: integration?.id ?? null,
      title: parsed.title,
      description: parsed.description,
      severity: ALERT_SEVERITY[parsed.severity],
      service: parsed.service,
      monitoringTool: parsed.monitoringTool,
      hosts: parsed.hosts,
      fingerprint: parsed.fingerprint,
      environmentId: environment?.id ?? null,
      payload: JSON.stringify(payload),
      startedAt: parsed.startedAt,
    })
    return [alert]
  })()
}

export interface AlertUpdateResult {
  readonly alert: AlertRow
  readonly errors: readonly string[]
  readonly todo?: TodoRow
}

/**
 * Moves an alert to a status (Developers; checked by callers). Resolving records the end time;
 * leaving `resolved` clears it, refused while another unresolved alert has the same fingerprint.
 */
export function updateAlertStatus(caller: Caller, alert: AlertRow, status: AlertStatusName): AlertUpdateResult {
  const db = caller.db
  const target = ALERT_STATUS[status]
  if (target === alert.status) return { alert, errors: [] }
  return db.transaction((): AlertUpdateResult => {
    const reopening = alert.status === ALERT_STATUS.resolved
    if (reopening && alert.fingerprint && findUnresolvedAlert(db, alert.project_id, alert.fingerprint)) {
      return { alert, errors: ['An unresolved alert with the same fingerprint already exists'] }
    }
    const endedAt = target === ALERT_STATUS.resolved ? nowIso() : null
    const updated = setAlertStatus(db, alert.id, target, endedAt)
    return { alert: updated, errors: [] }
  })()
}

export type AssigneeMode = 'REPLACE' | 'APPEND' | 'REMOVE'

/**
 * Sets an alert's assignee. GitLab alerts take one assignee: the first of the resulting list is
 * kept. Assignees must be able to read alerts (Developer); newly assigned users other than the
 * caller get an `assigned` to-do.
 */
export function setAlertAssignees(
  caller: Caller,
  project: ProjectRow,
  alert: AlertRow,
  users: readonly UserRow[],
  mode: AssigneeMode,
): AlertUpdateResult {
  const db = caller.db
  const actingUser = caller.user as UserRow
  const current = alertAssignees(db, [alert.id]).get(alert.id) ?? []
  const byId = (list: readonly UserRow[]): UserRow[] => [...new Map(list.map((u) => [u.id, u])).values()]
  let next: UserRow[]
  if (mode === 'APPEND') next = byId([...current, ...users])
  else if (mode === 'REMOVE') next = current.filter((u) => !users.some((r) => r.id === u.id))
  else next = byId(users)
  next = next.slice(0, 1)
  const allowed = next.filter((u) => isAlertResponder(new Permissions(db, u), project))
  if (next.length > 0 && allowed.length === 0) return { alert, errors: ['Assignee has no permissions'] }
  return db.transaction((): AlertUpdateResult => {
    replaceAlertAssignees(
      db,
      alert.id,
      allowed.map((u) => u.id),
    )
    touchAlert(db, alert.id)
    for (const user of allowed) {
      if (user.id === actingUser.id || current.some((c) => c.id === user.id)) continue
      createTodo(db, {
        userId: user.id,
        authorId: actingUser.id,
        projectId: project.id,
        targetType: ALERT_TARGET_TYPE,
        targetId: alert.id,
        action: 'assigned',
        body: alert.title,
      })
    }
    return { alert: findAlertById(db, alert.id) as AlertRow, errors: [] }
  })()
}

/** Adds the caller's own `marked` to-do on an alert, unless one is already pending. */
export function createAlertTodo(caller: Caller, project: ProjectRow, alert: AlertRow): AlertUpdateResult {
  const db = caller.db
  const actingUser = caller.user as UserRow
  if (pendingTodoFor(db, actingUser.id, ALERT_TARGET_TYPE, alert.id))
    return { alert, errors: ['You already have pending todo for this alert'] }
  const todo = createTodo(db, {
    userId: actingUser.id,
    authorId: actingUser.id,
    projectId: project.id,
    targetType: ALERT_TARGET_TYPE,
    targetId: alert.id,
    action: 'marked',
    body: alert.title,
  })
  return { alert, errors: [], todo }
}

/**
 * Alerts as to-do targets in the REST to-do list (`{id, iid, project_id, title, …}` and the alert
 * page URL), loaded for a whole page of to-dos at once.
 */
export function alertTodoTargets(
  db: Db,
  baseUrl: string,
  alertIds: readonly number[],
): Map<number, { target: AlertTarget; url: string }> {
  const out = new Map<number, { target: AlertTarget; url: string }>()
  for (const alert of alertsByIds(db, [...new Set(alertIds)]).values()) {
    const project = findProjectWithNamespace(db, alert.project_id)
    const url = alertDetailsUrl(
      baseUrl,
      project ? `${project.ns_full_path}/${project.path}` : String(alert.project_id),
      alert,
    )
    out.set(alert.id, { url, target: alertTodoTargetEntity(alert, url) })
  }
  return out
}
