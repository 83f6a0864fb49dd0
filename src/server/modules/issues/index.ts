/** The issues module's public face for other modules. */
export { type ReferenceOrigin } from './entity'
export {
  clearIssuesMilestone,
  deletePolymorphicReferences,
  findIssueById,
  findIssueByIid,
  labelsOf,
  listIssues,
  milestonesById,
  moveIssuesToMilestone,
  POLYMORPHIC_REFERENCES,
  updateIssueRow,
  type IssueFilter,
  type IssueRow,
  type Wildcard,
} from './queries'
export {
  canAdminIssues,
  canReadIssue,
  editColumns,
  milestoneIssueRows,
  milestoneIssues,
  presentIssues,
  updateIssue,
} from './service'
export { registerIssueEpics, registerIssueMergeRequests, type IssueEpics, type IssueMergeRequests } from './extensions'
export { canReadIssuesWith } from './policy'
export { insertIssueRow, setIssueLabels, type IssueType } from './queries'
