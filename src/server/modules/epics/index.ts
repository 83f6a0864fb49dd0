/** The epics module's public face for other modules: what issues need of their epic. */
export { canAdminEpics } from './policy'
export { findEpicIssueByIssue, type EpicRow } from './queries'
export { findEpicByReference } from './quick-actions'
export { promoteIssueToEpic, setIssueEpic } from './service'
