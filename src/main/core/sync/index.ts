export { SyncRun, type RunOptions, type RunStats } from './run'
export { SyncService, type SyncAccounts, type SyncServiceOptions } from './service'
export { SyncState, type Cursor, type SyncTimes } from './state'
export { refreshItem } from './refresh'
