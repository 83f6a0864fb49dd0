import type { NotifyRequests } from '../../../shared/ipc/notify'
import type { PreferencesStore } from '../preferences'
import type { NotifyService } from './service'

/** One async function per notify and preferences channel (handlers.ts spreads them into the contract's handlers). */
export type NotifyHandlers = {
  readonly [C in keyof NotifyRequests]: (...args: NotifyRequests[C]['args']) => Promise<NotifyRequests[C]['result']>
}

/**
 * The notify channels over a NotifyService, and the preferences channels over the store. Both
 * getters are called on each request, so a launch without a cache answers `unavailable` there.
 */
export function notifyHandlers(notify: () => NotifyService, preferences: () => PreferencesStore): NotifyHandlers {
  return {
    'notify:summary': async () => notify().summary(),
    'notify:check': async (accountId) => notify().check(accountId),
    'notify:list-alerts': async (request) => notify().listAlerts(request.accountId, request.status),
    'alerts:update-status': async (accountId, r) => notify().updateAlertStatus(accountId, r.projectId, r.iid, r.status),
    'alerts:assign': async (accountId, r) => notify().assignAlert(accountId, r.projectId, r.iid, r.assigneeUsernames),
    'preferences:get': async () => preferences().get(),
    'preferences:set': async (changes) => preferences().set(changes),
  }
}
