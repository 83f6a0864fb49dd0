// Alert management's public face: the read rule and to-do targets for to-dos and lists of other
// families, the services GraphQL and the seed call, and the rows and payload rules they read.
export { ALERT_TARGET_TYPE, alertDetailsUrl, integrationUrl, LEGACY_IDENTIFIER } from './entity'
export { canReadAlertsWith } from './policy'
export { inlineKeys, parseMappings, payloadAlertFields, type AlertFieldMapping } from './payload'
export {
  ALERT_SEVERITY_NAMES,
  ALERT_STATUS,
  ALERT_STATUS_NAMES,
  alertAssignees,
  alertStatusCounts,
  alertTodosOf,
  findAlertByIid,
  findHttpIntegration,
  listAlerts,
  listHttpIntegrations,
  type AlertRow,
  type AlertSortKey,
  type AlertStatusName,
  type HttpIntegrationRow,
} from './queries'
export {
  alertTodoTargets,
  createAlertTodo,
  createHttpIntegration,
  destroyHttpIntegration,
  integrationToken,
  receiveAlertPayload,
  resetHttpIntegrationToken,
  setAlertAssignees,
  updateAlertStatus,
  updateHttpIntegration,
  type AlertUpdateResult,
  type AssigneeMode,
} from './service'
