export { notifyHandlers, type NotifyHandlers } from './channels'
export { nextDelay, NotifyService, type NotifyAccounts, type NotifyServiceOptions } from './service'
export { NotifyStore } from './store'
export { trayModel, type TrayEntry, type TrayModel } from './tray'
