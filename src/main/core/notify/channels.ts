import type { NotifyRequests } from '../../../shared/ipc/notify'
import type { NotifyService } from './service'

/** One async function per notify channel (handlers.ts spreads them into the contract's handlers). */
export type NotifyHandlers = {
  readonly [C in keyof NotifyRequests]: (...args: NotifyRequests[C]['args']) => Promise<NotifyRequests[C]['result']>
}

/**
 * The notify channels over a NotifyService. The getter is called on each request, so a launch
 * without a cache answers `unavailable` there.
 */
export function notifyHandlers(notify: () => NotifyService): NotifyHandlers {
  return {
    'notify:summary': async () => notify().summary(),
    'notify:check': async (accountId) => notify().check(accountId),
    'notify:list-alerts': async (request) => notify().listAlerts(request.accountId, request.status),
    'alerts:update-status': async (accountId, r) => notify().updateAlertStatus(accountId, r.projectId, r.iid, r.status),
    'alerts:assign': async (accountId, r) => notify().assignAlert(accountId, r.projectId, r.iid, r.assigneeUsernames),
  }
}
