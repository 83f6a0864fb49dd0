/** The issues module's public face for other modules. */
export { usersById, type IssueRow } from './queries'
