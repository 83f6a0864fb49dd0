/** The epics module's public face for other modules: what issues and to-dos need of epics. */
export { canAdminEpics } from './policy'
export { findEpicIssueByIssue, type EpicRow } from './queries'
export { findEpicByReference } from './quick-actions'
export { presentEpicsById, promoteIssueToEpic, setIssueEpic } from './service'
export { deleteEpicRowsOfGroups } from './queries'
