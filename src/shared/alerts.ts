/**
 * GitLab's alert enums (AlertManagement::Alert), in the REST API's lower case (GraphQL writes
 * them upper-cased) and in the order of GitLab's stored values: Burrow Server stores the index,
 * the wire model names them, the app's alert watcher reads and validates them.
 */

export const ALERT_STATUSES = ['triggered', 'acknowledged', 'resolved', 'ignored'] as const
export type AlertStatus = (typeof ALERT_STATUSES)[number]

export const ALERT_SEVERITIES = ['critical', 'high', 'medium', 'low', 'info', 'unknown'] as const
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number]

/** The status `text` names (any case), or undefined. */
export function alertStatusOf(text: string): AlertStatus | undefined {
  const lower = text.toLowerCase()
  return ALERT_STATUSES.find((s) => s === lower)
}

/** The severity `text` names (any case), or undefined. */
export function alertSeverityOf(text: string): AlertSeverity | undefined {
  const lower = text.toLowerCase()
  return ALERT_SEVERITIES.find((s) => s === lower)
}
