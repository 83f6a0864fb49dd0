import type { ReadableFamily } from '../../platform/auth/readable'
import { ALERT_TARGET_TYPE } from './entity'
import { canReadAlertsWith } from './policy'

/** Alerts' read rules for other lists: an alert to-do needs the project's alerts (registered at startup). */
export const alertsReadable: ReadableFamily = {
  features: { alerts: canReadAlertsWith },
  todoTargets: { [ALERT_TARGET_TYPE]: (items, t) => t.project_id !== null && items.feature('alerts', t.project_id) },
}
