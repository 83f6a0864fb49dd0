/** Issue links (`/projects/:id/issues/:issue_iid/links`): related and blocking issues. */
import { Type, type Static } from 'typebox'
import { Entity, Timestamp } from './common'
import { Issue } from './issue'

/** How a linked issue stands to the issue whose links are listed. */
export const IssueLinkType = Type.Union([
  Type.Literal('relates_to'),
  Type.Literal('blocks'),
  Type.Literal('is_blocked_by'),
])
export type IssueLinkType = Static<typeof IssueLinkType>

/** A linked issue in an issue's list of links: the issue with the link's id, type and times. */
export const LinkedIssue = Entity({
  ...Issue.properties,
  issue_link_id: Type.Integer(),
  link_type: IssueLinkType,
  link_created_at: Timestamp,
  link_updated_at: Timestamp,
})
export type LinkedIssue = Static<typeof LinkedIssue>

/** One link as stored: `source_issue` relates to or blocks `target_issue`. */
export const IssueLink = Entity({
  source_issue: Issue,
  target_issue: Issue,
  link_type: Type.Union([Type.Literal('relates_to'), Type.Literal('blocks')]),
})
export type IssueLink = Static<typeof IssueLink>
