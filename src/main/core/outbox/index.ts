export { Outbox, OutboxError, type OutboxAccounts, type OutboxOptions } from './outbox'
export { approveMergeRequest, mergeMergeRequest, rebaseMergeRequest, type OnlineOnlyAction } from './online-only'
export { outboxHandlers, type OutboxHandlers } from './channels'
