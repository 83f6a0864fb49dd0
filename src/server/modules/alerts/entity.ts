import type { AlertTarget } from '../../../shared/api/alert'
import { ALERT_SEVERITY_NAMES, ALERT_STATUS_NAMES, type AlertRow, type HttpIntegrationRow } from './queries'

export { ALERT_TARGET_TYPE } from './queries'
/** Endpoint identifier of a project's single legacy endpoint, served at `/alerts/notify.json`. */
export const LEGACY_IDENTIFIER = 'legacy'
const DEFAULT_NAME_SLUG = 'http-endpoint'

/** Rails' `slugify`: lowercase alphanumerics and dashes, used in an integration's URL. */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

/** The URL a monitoring tool posts to: `/{project}/alerts/notify/{name}/{endpoint}.json`. */
export function integrationUrl(
  baseUrl: string,
  fullPath: string,
  integration: Pick<HttpIntegrationRow, 'name' | 'endpoint_identifier'>,
): string {
  if (integration.endpoint_identifier === LEGACY_IDENTIFIER) return `${baseUrl}/${fullPath}/alerts/notify.json`
  const slug = slugify(integration.name) || DEFAULT_NAME_SLUG
  return `${baseUrl}/${fullPath}/alerts/notify/${slug}/${integration.endpoint_identifier}.json`
}

/** `${baseUrl}/{project}/-/alert_management/{iid}/details`, GitLab's alert page. */
export function alertDetailsUrl(baseUrl: string, fullPath: string, alert: Pick<AlertRow, 'iid'>): string {
  return `${baseUrl}/${fullPath}/-/alert_management/${alert.iid}/details`
}

/** An alert as a to-do's target in the REST to-do list (`{id, iid, project_id, title, …}` and its page). */
export function alertTodoTargetEntity(alert: AlertRow, webUrl: string): AlertTarget {
  return {
    id: alert.id,
    iid: alert.iid,
    project_id: alert.project_id,
    title: alert.title,
    description: alert.description,
    severity: ALERT_SEVERITY_NAMES[alert.severity],
    status: ALERT_STATUS_NAMES[alert.status],
    service: alert.service,
    monitoring_tool: alert.monitoring_tool,
    started_at: alert.started_at,
    ended_at: alert.ended_at,
    event_count: alert.events,
    created_at: alert.created_at,
    updated_at: alert.updated_at,
    web_url: webUrl,
  }
}
