/** The issues module's public face for other modules. */
export { usersById, type IssueRow } from './queries'
export { listIssues, type IssueFilter } from './queries'
export { presentIssues } from './service'
