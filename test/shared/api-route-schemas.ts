/**
 * Which schema of the wire model (src/shared/api) each route of Burrow Server answers with: the
 * table the conformance test checks real answers against, and the one the routes'
 * `schema.response` will be written from. `{name}` in a url is filled from the test's world.
 */
import { Type, type TSchema } from 'typebox'
import * as Api from '../../src/shared/api/index'
import { FORGE_ROUTES } from './api-route-schemas-forge'

/** A route whose 2xx answer is checked against `schema`. */
export interface CheckedRoute {
  /** `METHOD /path` as the server registers it below /api/v4. */
  readonly route: string
  /** The whole 2xx body: `Type.Array(X)` for lists. */
  readonly schema: TSchema
  /** Bodies of other successful statuses (a note made only of quick actions answers 202). */
  readonly others?: Readonly<Record<number, TSchema>>
  /**
   * A GET's concrete paths below /api/v4 (several where parameters change the shape), `{name}`
   * filled from the world. Writes have none: the test's fixtures make them.
   */
  readonly url?: string | readonly string[]
  /** The plain user (a Developer of the project and the group) is refused: the answer is a 4xx error body. */
  readonly userRefused?: true
  /** A list that may be empty for an administrator too. */
  readonly mayBeEmpty?: true
}

/** A route the conformance test leaves out, and why. */
export interface SkippedRoute {
  readonly route: string
  readonly skip: string
}

export type RouteEntry = CheckedRoute | SkippedRoute

const list = Type.Array

const RESOURCE_EVENT_SCHEMAS = {
  label: Api.ResourceLabelEvent,
  milestone: Api.ResourceMilestoneEvent,
  state: Api.ResourceStateEvent,
} as const

export const ROUTES: readonly RouteEntry[] = [
  // ---- instance -----------------------------------------------------------------------------
  { route: 'GET /version', url: '/version', schema: Api.Version },
  { route: 'GET /metadata', url: '/metadata', schema: Api.Version },
  {
    route: 'GET /application/settings',
    url: '/application/settings',
    schema: Api.ApplicationSettings,
    userRefused: true,
  },
  { route: 'PUT /application/settings', schema: Api.ApplicationSettings },

  // ---- users and tokens -----------------------------------------------------------------------
  { route: 'GET /user', url: '/user', schema: Api.User },
  { route: 'GET /user/status', url: '/user/status', schema: Api.UserStatus },
  {
    route: 'GET /users',
    url: ['/users', '/users?with_custom_attributes=true'],
    schema: list(Type.Union([Api.UserAdmin, Api.UserBasic])),
  },
  {
    route: 'GET /users/:id',
    url: ['/users/{user}', '/users/{user}?with_custom_attributes=true'],
    schema: Type.Union([Api.UserAdmin, Api.UserPublic]),
  },
  { route: 'GET /users/:id/status', url: '/users/{user}/status', schema: Api.UserStatus },
  {
    route: 'GET /users/:id/memberships',
    url: '/users/{user}/memberships',
    schema: list(Api.UserMembership),
    userRefused: true,
  },
  { route: 'GET /users/:id/projects', url: '/users/{user}/projects', schema: list(Api.ProjectListItem) },
  {
    route: 'GET /users/:id/starred_projects',
    url: '/users/{user}/starred_projects',
    schema: list(Api.ProjectListItem),
  },
  { route: 'GET /users/:id/events', url: '/users/{user}/events', schema: list(Api.ActivityEvent) },
  { route: 'POST /users', schema: Api.UserAdmin },
  { route: 'PUT /users/:id', schema: Api.UserAdmin },
  { route: 'POST /users/:id/block', schema: Api.UserStateChanged },
  { route: 'POST /users/:id/unblock', schema: Api.UserStateChanged },
  { route: 'POST /users/:id/unlock', schema: Api.UserStateChanged },
  { route: 'GET /personal_access_tokens', url: '/personal_access_tokens', schema: list(Api.PersonalAccessToken) },
  { route: 'GET /personal_access_tokens/self', url: '/personal_access_tokens/self', schema: Api.PersonalAccessToken },
  {
    route: 'GET /personal_access_tokens/:id',
    url: '/personal_access_tokens/{userToken}',
    schema: Api.PersonalAccessToken,
  },
  { route: 'POST /personal_access_tokens/:id/rotate', schema: Api.PersonalAccessTokenWithToken },
  { route: 'POST /personal_access_tokens/self/rotate', schema: Api.PersonalAccessTokenWithToken },
  {
    route: 'GET /users/:user_id/personal_access_tokens',
    url: '/users/{user}/personal_access_tokens',
    schema: list(Api.PersonalAccessToken),
    userRefused: true,
  },
  { route: 'POST /users/:user_id/personal_access_tokens', schema: Api.PersonalAccessTokenWithToken },
  {
    route: 'GET /users/:user_id/impersonation_tokens',
    url: '/users/{user}/impersonation_tokens',
    schema: list(Api.ImpersonationToken),
    userRefused: true,
  },
  {
    route: 'GET /users/:user_id/impersonation_tokens/:impersonation_token_id',
    url: '/users/{user}/impersonation_tokens/{impersonationToken}',
    schema: Api.ImpersonationToken,
    userRefused: true,
  },
  { route: 'POST /users/:user_id/impersonation_tokens', schema: Api.ImpersonationTokenWithToken },
  {
    route: 'GET /projects/:id/access_tokens',
    url: '/projects/{project}/access_tokens',
    schema: list(Api.ProjectAccessToken),
    userRefused: true,
  },
  {
    route: 'GET /projects/:id/access_tokens/:token_id',
    url: '/projects/{project}/access_tokens/{projectToken}',
    schema: Api.ProjectAccessToken,
    userRefused: true,
  },
  { route: 'POST /projects/:id/access_tokens', schema: Api.ProjectAccessTokenWithToken },
  { route: 'POST /projects/:id/access_tokens/:token_id/rotate', schema: Api.ProjectAccessTokenWithToken },

  // ---- projects, groups, namespaces, members ----------------------------------------------------
  {
    route: 'GET /projects',
    url: ['/projects', '/projects?simple=true', '/projects?statistics=true'],
    schema: list(Api.ProjectListItem),
  },
  {
    route: 'GET /projects/:id',
    url: ['/projects/{project}', '/projects/{project}?statistics=true'],
    schema: Api.Project,
  },
  { route: 'PUT /projects/:id', schema: Api.Project },
  { route: 'POST /projects', schema: Api.Project },
  { route: 'DELETE /projects/:id', schema: Api.AcceptedMessage },
  { route: 'POST /projects/user/:user_id', schema: Api.Project },
  { route: 'POST /projects/:id/archive', schema: Api.Project },
  { route: 'POST /projects/:id/unarchive', schema: Api.Project },
  { route: 'PUT /projects/:id/transfer', schema: Api.Project },
  { route: 'POST /projects/:id/share', schema: Api.ProjectGroupLink },
  { route: 'GET /projects/:id/starrers', url: '/projects/{project}/starrers', schema: list(Api.Starrer) },
  { route: 'POST /projects/:id/star', schema: Api.Project },
  { route: 'POST /projects/:id/unstar', schema: Api.Project },
  { route: 'GET /projects/:id/import', url: '/projects/{project}/import', schema: Api.ProjectImportStatus },
  { route: 'GET /groups', url: ['/groups', '/groups?statistics=true'], schema: list(Api.Group) },
  {
    route: 'GET /groups/:id',
    url: ['/groups/{group}', '/groups/{group}?with_projects=false'],
    schema: Api.GroupDetail,
  },
  { route: 'POST /groups', schema: Api.GroupDetail },
  { route: 'PUT /groups/:id', schema: Api.GroupDetail },
  { route: 'POST /groups/:id/share', schema: Api.GroupDetail },
  { route: 'POST /groups/:id/transfer', schema: Api.GroupDetail },
  { route: 'GET /groups/:id/subgroups', url: '/groups/{group}/subgroups', schema: list(Api.Group) },
  { route: 'GET /groups/:id/descendant_groups', url: '/groups/{group}/descendant_groups', schema: list(Api.Group) },
  { route: 'GET /groups/:id/projects', url: '/groups/{group}/projects', schema: list(Api.ProjectListItem) },
  { route: 'GET /namespaces', url: '/namespaces', schema: list(Api.Namespace) },
  { route: 'GET /namespaces/:id', url: '/namespaces/{group}', schema: Api.Namespace },
  { route: 'GET /namespaces/:id/exists', url: '/namespaces/{group}/exists', schema: Api.NamespaceExists },
  { route: 'GET /projects/:id/members', url: '/projects/{project}/members', schema: list(Api.Member) },
  { route: 'GET /projects/:id/members/:user_id', url: '/projects/{project}/members/{member}', schema: Api.Member },
  { route: 'GET /projects/:id/members/all', url: '/projects/{project}/members/all', schema: list(Api.Member) },
  {
    route: 'GET /projects/:id/members/all/:user_id',
    url: '/projects/{project}/members/all/{user}',
    schema: Api.Member,
  },
  { route: 'GET /groups/:id/members', url: '/groups/{group}/members', schema: list(Api.Member) },
  { route: 'GET /groups/:id/members/:user_id', url: '/groups/{group}/members/{user}', schema: Api.Member },
  { route: 'GET /groups/:id/members/all', url: '/groups/{group}/members/all', schema: list(Api.Member) },
  { route: 'GET /groups/:id/members/all/:user_id', url: '/groups/{group}/members/all/{user}', schema: Api.Member },
  { route: 'POST /projects/:id/members', schema: Type.Union([Api.Member, Api.MemberBatchResult]) },
  { route: 'PUT /projects/:id/members/:user_id', schema: Api.Member },
  { route: 'POST /groups/:id/members', schema: Type.Union([Api.Member, Api.MemberBatchResult]) },
  { route: 'PUT /groups/:id/members/:user_id', schema: Api.Member },
  {
    route: 'GET /projects/:id/access_requests',
    url: '/projects/{project}/access_requests',
    schema: list(Api.AccessRequest),
    userRefused: true,
  },
  {
    route: 'GET /groups/:id/access_requests',
    url: '/groups/{group}/access_requests',
    schema: list(Api.AccessRequest),
    userRefused: true,
  },
  { route: 'POST /projects/:id/access_requests', schema: Api.AccessRequest },
  { route: 'POST /groups/:id/access_requests', schema: Api.AccessRequest },
  { route: 'PUT /groups/:id/access_requests/:user_id/approve', schema: Api.Member },
  {
    route: 'GET /groups/:id/billable_members',
    url: '/groups/{group}/billable_members',
    schema: list(Api.BillableMember),
    userRefused: true,
  },
  {
    route: 'GET /groups/:id/billable_members/:user_id/memberships',
    url: '/groups/{group}/billable_members/{user}/memberships',
    schema: list(Api.BillableMembership),
    userRefused: true,
  },

  // ---- activity -------------------------------------------------------------------------------
  { route: 'GET /events', url: '/events', schema: list(Api.ActivityEvent) },
  { route: 'GET /projects/:id/events', url: '/projects/{project}/events', schema: list(Api.ActivityEvent) },
  { route: 'GET /audit_events', url: '/audit_events', schema: list(Api.AuditEvent), userRefused: true },
  { route: 'GET /audit_events/:id', url: '/audit_events/{auditEvent}', schema: Api.AuditEvent, userRefused: true },
  { route: 'GET /groups/:id/audit_events', url: '/groups/{group}/audit_events', schema: list(Api.AuditEvent) },
  {
    route: 'GET /groups/:id/audit_events/:audit_event_id',
    url: '/groups/{group}/audit_events/{groupAuditEvent}',
    schema: Api.AuditEvent,
    userRefused: true,
  },
  { route: 'GET /projects/:id/audit_events', url: '/projects/{project}/audit_events', schema: list(Api.AuditEvent) },
  {
    route: 'GET /projects/:id/audit_events/:audit_event_id',
    url: '/projects/{project}/audit_events/{projectAuditEvent}',
    schema: Api.AuditEvent,
    userRefused: true,
  },
  { route: 'GET /todos', url: ['/todos?per_page=100', '/todos?state=done&per_page=100'], schema: list(Api.Todo) },
  { route: 'POST /todos/:id/mark_as_done', schema: Api.Todo },

  // ---- labels and milestones ------------------------------------------------------------------
  {
    route: 'GET /projects/:id/labels',
    url: ['/projects/{project}/labels', '/projects/{project}/labels?with_counts=true'],
    schema: list(Api.Label),
  },
  { route: 'GET /projects/:id/labels/:label_id', url: '/projects/{project}/labels/{projectLabel}', schema: Api.Label },
  { route: 'POST /projects/:id/labels', schema: Api.Label },
  { route: 'PUT /projects/:id/labels/:label_id', schema: Api.Label },
  { route: 'POST /projects/:id/labels/:label_id/subscribe', schema: Api.Label },
  { route: 'POST /projects/:id/labels/:label_id/unsubscribe', schema: Api.Label },
  { route: 'PUT /projects/:id/labels/:label_id/promote', schema: Api.Label },
  {
    route: 'GET /groups/:id/labels',
    url: ['/groups/{group}/labels', '/groups/{group}/labels?with_counts=true'],
    schema: list(Api.Label),
  },
  { route: 'GET /groups/:id/labels/:label_id', url: '/groups/{group}/labels/{groupLabel}', schema: Api.Label },
  { route: 'POST /groups/:id/labels', schema: Api.Label },
  { route: 'PUT /groups/:id/labels/:label_id', schema: Api.Label },
  { route: 'POST /groups/:id/labels/:label_id/subscribe', schema: Api.Label },
  { route: 'GET /projects/:id/milestones', url: '/projects/{project}/milestones', schema: list(Api.Milestone) },
  {
    route: 'GET /projects/:id/milestones/:milestone_id',
    url: '/projects/{project}/milestones/{projectMilestone}',
    schema: Api.Milestone,
  },
  { route: 'POST /projects/:id/milestones', schema: Api.Milestone },
  { route: 'PUT /projects/:id/milestones/:milestone_id', schema: Api.Milestone },
  { route: 'POST /projects/:id/milestones/:milestone_id/promote', schema: Api.Milestone },
  {
    route: 'GET /projects/:id/milestones/:milestone_id/issues',
    url: '/projects/{project}/milestones/{projectMilestone}/issues',
    schema: list(Api.Issue),
  },
  {
    route: 'GET /projects/:id/milestones/:milestone_id/merge_requests',
    url: '/projects/{project}/milestones/{projectMilestone}/merge_requests',
    schema: list(Api.MergeRequest),
  },
  {
    route: 'GET /projects/:id/milestones/:milestone_id/burndown_events',
    url: '/projects/{project}/milestones/{projectMilestone}/burndown_events',
    schema: list(Api.BurndownEvent),
  },
  { route: 'GET /groups/:id/milestones', url: '/groups/{group}/milestones', schema: list(Api.Milestone) },
  {
    route: 'GET /groups/:id/milestones/:milestone_id',
    url: '/groups/{group}/milestones/{groupMilestone}',
    schema: Api.Milestone,
  },
  { route: 'POST /groups/:id/milestones', schema: Api.Milestone },
  { route: 'PUT /groups/:id/milestones/:milestone_id', schema: Api.Milestone },
  {
    route: 'GET /groups/:id/milestones/:milestone_id/issues',
    url: '/groups/{group}/milestones/{groupMilestone}/issues',
    schema: list(Api.Issue),
  },
  {
    route: 'GET /groups/:id/milestones/:milestone_id/merge_requests',
    url: '/groups/{group}/milestones/{groupMilestone}/merge_requests',
    schema: list(Api.MergeRequest),
  },
  {
    route: 'GET /groups/:id/milestones/:milestone_id/burndown_events',
    url: '/groups/{group}/milestones/{groupMilestone}/burndown_events',
    schema: list(Api.BurndownEvent),
  },

  // ---- issues ---------------------------------------------------------------------------------
  { route: 'GET /issues', url: '/issues?scope=all', schema: list(Api.Issue) },
  { route: 'GET /issues/:issue_id', url: '/issues/{issueId}', schema: Api.Issue, userRefused: true },
  { route: 'GET /issues_statistics', url: '/issues_statistics', schema: Api.IssueStatistics },
  { route: 'GET /groups/:id/issues', url: '/groups/{group}/issues?with_labels_details=true', schema: list(Api.Issue) },
  { route: 'GET /groups/:id/issues_statistics', url: '/groups/{group}/issues_statistics', schema: Api.IssueStatistics },
  {
    route: 'GET /projects/:id/issues',
    url: ['/projects/{project}/issues', '/projects/{project}/issues?with_labels_details=true'],
    schema: list(Api.Issue),
  },
  {
    route: 'GET /projects/:id/issues_statistics',
    url: '/projects/{project}/issues_statistics',
    schema: Api.IssueStatistics,
  },
  { route: 'GET /projects/:id/issues/:issue_iid', url: '/projects/{project}/issues/{issue}', schema: Api.Issue },
  { route: 'POST /projects/:id/issues', schema: Api.Issue },
  { route: 'PUT /projects/:id/issues/:issue_iid', schema: Api.Issue },
  { route: 'POST /projects/:id/issues/:issue_iid/todo', schema: Api.Todo },
  { route: 'POST /projects/:id/issues/:issue_iid/add_spent_time', schema: Api.TimeStats },
  { route: 'POST /projects/:id/issues/:issue_iid/time_estimate', schema: Api.TimeStats },
  { route: 'POST /projects/:id/issues/:issue_iid/reset_time_estimate', schema: Api.TimeStats },
  { route: 'POST /projects/:id/issues/:issue_iid/reset_spent_time', schema: Api.TimeStats },
  { route: 'POST /projects/:id/issues/:issue_iid/subscribe', schema: Api.Issue },
  { route: 'POST /projects/:id/issues/:issue_iid/unsubscribe', schema: Api.Issue },
  { route: 'PUT /projects/:id/issues/:issue_iid/reorder', schema: Api.Issue },
  { route: 'POST /projects/:id/issues/:issue_iid/clone', schema: Api.Issue },
  { route: 'POST /projects/:id/issues/:issue_iid/move', schema: Api.Issue },
  {
    route: 'GET /projects/:id/issues/:issue_iid/time_stats',
    url: '/projects/{project}/issues/{issue}/time_stats',
    schema: Api.TimeStats,
  },
  {
    route: 'GET /projects/:id/issues/:issue_iid/participants',
    url: '/projects/{project}/issues/{issue}/participants',
    schema: list(Api.UserRef),
  },
  {
    route: 'GET /projects/:id/issues/:issue_iid/related_merge_requests',
    url: '/projects/{project}/issues/{closedIssue}/related_merge_requests',
    schema: list(Api.MergeRequest),
  },
  {
    route: 'GET /projects/:id/issues/:issue_iid/closed_by',
    url: '/projects/{project}/issues/{closedIssue}/closed_by',
    schema: list(Api.MergeRequest),
  },

  // ---- merge requests -------------------------------------------------------------------------
  { route: 'GET /merge_requests', url: '/merge_requests?scope=all', schema: list(Api.MergeRequestListItem) },
  {
    route: 'GET /groups/:id/merge_requests',
    url: '/groups/{group}/merge_requests?with_labels_details=true',
    schema: list(Api.MergeRequestListItem),
  },
  {
    route: 'GET /projects/:id/merge_requests',
    url: [
      '/projects/{project}/merge_requests',
      '/projects/{project}/merge_requests?view=simple',
      '/projects/{project}/merge_requests?with_labels_details=true',
    ],
    schema: list(Api.MergeRequestListItem),
  },
  {
    route: 'GET /projects/:id/merge_requests/:merge_request_iid',
    url: [
      '/projects/{project}/merge_requests/{mr}',
      '/projects/{project}/merge_requests/{mr}?include_diverged_commits_count=true&include_rebase_in_progress=true',
    ],
    schema: Api.MergeRequestDetail,
  },
  { route: 'POST /projects/:id/merge_requests', schema: Api.MergeRequestDetail },
  { route: 'PUT /projects/:id/merge_requests/:merge_request_iid', schema: Api.MergeRequestDetail },
  {
    route: 'GET /projects/:id/merge_requests/:merge_request_iid/changes',
    url: '/projects/{project}/merge_requests/{mr}/changes',
    schema: Api.MergeRequestChanges,
  },
  {
    route: 'GET /projects/:id/merge_requests/:merge_request_iid/diffs',
    url: '/projects/{project}/merge_requests/{mr}/diffs',
    schema: list(Api.Diff),
  },
  {
    route: 'GET /projects/:id/merge_requests/:merge_request_iid/commits',
    url: '/projects/{project}/merge_requests/{mr}/commits',
    schema: list(Api.Commit),
  },
  {
    route: 'GET /projects/:id/merge_requests/:merge_request_iid/versions',
    url: '/projects/{project}/merge_requests/{mr}/versions',
    schema: list(Api.MergeRequestDiffVersion),
  },
  {
    route: 'GET /projects/:id/merge_requests/:merge_request_iid/versions/:version_id',
    url: [
      '/projects/{project}/merge_requests/{mr}/versions/{mrVersion}',
      '/projects/{project}/merge_requests/{mr}/versions/{mrVersion}?unidiff=true',
    ],
    schema: Api.MergeRequestDiffVersionDetail,
  },
  {
    route: 'GET /projects/:id/merge_requests/:merge_request_iid/participants',
    url: '/projects/{project}/merge_requests/{mr}/participants',
    schema: list(Api.UserRef),
  },
  {
    route: 'GET /projects/:id/merge_requests/:merge_request_iid/approvals',
    url: '/projects/{project}/merge_requests/{mr}/approvals',
    schema: Api.MergeRequestApprovals,
  },
  {
    route: 'GET /projects/:id/merge_requests/:merge_request_iid/approval_state',
    url: '/projects/{project}/merge_requests/{mr}/approval_state',
    schema: Api.MergeRequestApprovalState,
  },
  { route: 'POST /projects/:id/merge_requests/:merge_request_iid/approve', schema: Api.MergeRequestApprovals },
  { route: 'POST /projects/:id/merge_requests/:merge_request_iid/unapprove', schema: Api.MergeRequestApprovals },
  { route: 'POST /projects/:id/merge_requests/:merge_request_iid/subscribe', schema: Api.MergeRequestDetail },
  { route: 'POST /projects/:id/merge_requests/:merge_request_iid/unsubscribe', schema: Api.MergeRequestDetail },
  { route: 'PUT /projects/:id/merge_requests/:merge_request_iid/merge', schema: Api.MergeRequestDetail },
  { route: 'POST /projects/:id/merge_requests/:merge_request_iid/time_estimate', schema: Api.TimeStats },
  { route: 'POST /projects/:id/merge_requests/:merge_request_iid/add_spent_time', schema: Api.TimeStats },
  { route: 'POST /projects/:id/merge_requests/:merge_request_iid/reset_time_estimate', schema: Api.TimeStats },
  { route: 'POST /projects/:id/merge_requests/:merge_request_iid/reset_spent_time', schema: Api.TimeStats },
  { route: 'PUT /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id', schema: Api.Discussion },
  {
    route: 'GET /projects/:id/merge_requests/:merge_request_iid/closes_issues',
    url: '/projects/{project}/merge_requests/{mr}/closes_issues',
    schema: list(Api.Issue),
  },
  {
    route: 'GET /projects/:id/merge_requests/:merge_request_iid/merge_ref',
    url: '/projects/{project}/merge_requests/{mr}/merge_ref',
    schema: Api.MergeRef,
  },
  {
    route: 'GET /projects/:id/merge_requests/:merge_request_iid/pipelines',
    url: '/projects/{project}/merge_requests/{pipelineMr}/pipelines',
    schema: list(Api.PipelineBasic),
  },
  {
    route: 'GET /projects/:id/merge_requests/:merge_request_iid/time_stats',
    url: '/projects/{project}/merge_requests/{mr}/time_stats',
    schema: Api.TimeStats,
  },
  { route: 'POST /projects/:id/merge_requests/:merge_request_iid/todo', schema: Api.MergeRequestTodo },
  {
    route: 'GET /projects/:id/merge_requests/:merge_request_iid/reviewers',
    url: '/projects/{project}/merge_requests/{mr}/reviewers',
    schema: list(Api.MergeRequestReviewer),
  },
  {
    route: 'GET /projects/:id/merge_requests/:merge_request_iid/draft_notes',
    url: '/projects/{project}/merge_requests/{mr}/draft_notes',
    // The plain user has written none: drafts are their author's only.
    schema: list(Api.DraftNote),
  },
  {
    route: 'GET /projects/:id/merge_requests/:merge_request_iid/draft_notes/:draft_note_id',
    url: '/projects/{project}/merge_requests/{mr}/draft_notes/{draftNote}',
    schema: Api.DraftNote,
    userRefused: true,
  },
  { route: 'POST /projects/:id/merge_requests/:merge_request_iid/draft_notes', schema: Api.DraftNote },
  { route: 'PUT /projects/:id/merge_requests/:merge_request_iid/draft_notes/:draft_note_id', schema: Api.DraftNote },
  { route: 'PUT /suggestions/:id/apply', schema: Api.Suggestion },
  { route: 'PUT /suggestions/batch_apply', schema: list(Api.Suggestion) },
  {
    route: 'GET /projects/:id/deployments/:deployment_id/merge_requests',
    url: '/projects/{project}/deployments/{deployment}/merge_requests',
    schema: list(Api.MergeRequestListItem),
    mayBeEmpty: true,
  },

  // ---- notes, discussions, award emoji, resource events ----------------------------------------
  ...noteableRoutes('/projects/:id/issues/:issue_iid', '/projects/{project}/issues/{issue}', 'issue', {
    quickActions: true,
  }),
  ...noteableRoutes(
    '/projects/:id/merge_requests/:merge_request_iid',
    '/projects/{project}/merge_requests/{mr}',
    'mr',
    { quickActions: true },
  ),
  ...noteableRoutes('/projects/:id/snippets/:snippet_id', '/projects/{project}/snippets/{snippet}', 'snippet', {
    quickActions: false,
  }),
  ...noteableRoutes('/groups/:id/epics/:epic_id', '/groups/{group}/epics/{epicId}', 'epic', {
    quickActions: true,
    awardBase: '/groups/:id/epics/:epic_iid',
    awardUrl: '/groups/{group}/epics/{epic}',
  }),
  ...resourceEventRoutes('/projects/:id/issues/:issue_iid', '/projects/{project}/issues/{issue}', 'issue', [
    'label',
    'milestone',
    'state',
  ]),
  ...resourceEventRoutes(
    '/projects/:id/merge_requests/:merge_request_iid',
    '/projects/{project}/merge_requests/{mr}',
    'mr',
    ['label', 'milestone', 'state'],
  ),
  ...resourceEventRoutes('/groups/:id/epics/:epic_id', '/groups/{group}/epics/{epicId}', 'epic', ['label', 'state']),

  // ---- epics ----------------------------------------------------------------------------------
  {
    route: 'GET /groups/:id/epics',
    url: ['/groups/{group}/epics', '/groups/{group}/epics?with_labels_details=true'],
    schema: list(Api.Epic),
  },
  { route: 'GET /groups/:id/-/epics', url: '/groups/{group}/-/epics', schema: list(Api.Epic) },
  { route: 'GET /groups/:id/epics/:epic_iid', url: '/groups/{group}/epics/{epic}', schema: Api.Epic },
  { route: 'GET /groups/:id/-/epics/:epic_iid', url: '/groups/{group}/-/epics/{epic}', schema: Api.Epic },
  { route: 'POST /groups/:id/epics', schema: Api.Epic },
  { route: 'PUT /groups/:id/epics/:epic_iid', schema: Api.Epic },
  {
    route: 'GET /groups/:id/epics/:epic_iid/issues',
    url: '/groups/{group}/epics/{epic}/issues',
    schema: list(Api.EpicIssue),
  },
  { route: 'POST /groups/:id/epics/:epic_iid/issues/:epic_issue_id', schema: Api.EpicIssueLink },
  { route: 'PUT /groups/:id/epics/:epic_iid/issues/:epic_issue_id', schema: list(Api.EpicIssue) },
  { route: 'DELETE /groups/:id/epics/:epic_iid/issues/:epic_issue_id', schema: Api.EpicIssueLink },
  { route: 'GET /groups/:id/epics/:epic_iid/epics', url: '/groups/{group}/epics/{epic}/epics', schema: list(Api.Epic) },
  { route: 'POST /groups/:id/epics/:epic_iid/epics', schema: Api.LinkedEpic },
  { route: 'POST /groups/:id/epics/:epic_iid/epics/:child_epic_id', schema: Api.Epic },
  { route: 'PUT /groups/:id/epics/:epic_iid/epics/:child_epic_id', schema: list(Api.Epic) },
  { route: 'DELETE /groups/:id/epics/:epic_iid/epics/:child_epic_id', schema: Api.Epic },
  { route: 'POST /groups/:id/epics/:epic_iid/subscribe', schema: Api.Epic },
  { route: 'POST /groups/:id/epics/:epic_iid/unsubscribe', schema: Api.Epic },
  { route: 'POST /groups/:id/epics/:epic_iid/todo', schema: Api.Todo },

  // ---- snippets -------------------------------------------------------------------------------
  { route: 'GET /projects/:id/snippets', url: '/projects/{project}/snippets', schema: list(Api.Snippet) },
  {
    route: 'GET /projects/:id/snippets/:snippet_id',
    url: '/projects/{project}/snippets/{snippet}',
    schema: Api.Snippet,
  },
  { route: 'POST /projects/:id/snippets', schema: Api.Snippet },
  { route: 'PUT /projects/:id/snippets/:snippet_id', schema: Api.Snippet },
  { route: 'GET /projects/:id/snippets/:snippet_id/raw', skip: 'plain text, not JSON' },

  // ---- repository -----------------------------------------------------------------------------
  {
    route: 'GET /projects/:id/repository/tree',
    url: '/projects/{project}/repository/tree',
    schema: list(Api.TreeEntry),
  },
  {
    route: 'GET /projects/:id/repository/blobs/:sha',
    url: '/projects/{project}/repository/blobs/{blob}',
    schema: Api.Blob,
  },
  { route: 'GET /projects/:id/repository/blobs/:sha/raw', skip: 'raw file bytes, not JSON' },
  { route: 'GET /projects/:id/repository/archive', skip: 'an archive, not JSON' },
  { route: 'GET /projects/:id/repository/archive.:format', skip: 'an archive, not JSON' },
  {
    route: 'GET /projects/:id/repository/compare',
    url: '/projects/{project}/repository/compare?from={tag}&to={defaultBranch}',
    schema: Api.Compare,
  },
  {
    route: 'GET /projects/:id/repository/contributors',
    url: '/projects/{project}/repository/contributors',
    schema: list(Api.Contributor),
  },
  {
    route: 'GET /projects/:id/repository/merge_base',
    url: '/projects/{project}/repository/merge_base?refs[]={tag}&refs[]={defaultBranch}',
    schema: Api.Commit,
  },
  {
    route: 'GET /projects/:id/repository/commits',
    url: [
      '/projects/{project}/repository/commits',
      '/projects/{project}/repository/commits?with_stats=true&trailers=true',
    ],
    schema: list(Api.CommitListItem),
  },
  { route: 'POST /projects/:id/repository/commits', schema: Api.CommitDetail },
  {
    route: 'GET /projects/:id/repository/commits/:sha',
    url: [
      '/projects/{project}/repository/commits/{commit}',
      '/projects/{project}/repository/commits/{commit}?stats=false',
    ],
    schema: Api.CommitDetail,
  },
  {
    route: 'GET /projects/:id/repository/commits/:sha/diff',
    url: '/projects/{project}/repository/commits/{commit}/diff',
    schema: list(Api.Diff),
  },
  {
    route: 'GET /projects/:id/repository/commits/:sha/refs',
    url: '/projects/{project}/repository/commits/{commit}/refs',
    schema: list(Api.CommitRef),
  },
  {
    route: 'GET /projects/:id/repository/commits/:sha/sequence',
    url: '/projects/{project}/repository/commits/{commit}/sequence',
    schema: Api.CommitSequence,
  },
  {
    route: 'GET /projects/:id/repository/commits/:sha/merge_requests',
    url: '/projects/{project}/repository/commits/{commit}/merge_requests',
    schema: list(Api.MergeRequest),
    mayBeEmpty: true,
  },
  {
    route: 'GET /projects/:id/repository/branches',
    url: '/projects/{project}/repository/branches',
    schema: list(Api.Branch),
  },
  {
    route: 'GET /projects/:id/repository/branches/:branch',
    url: '/projects/{project}/repository/branches/{defaultBranch}',
    schema: Api.Branch,
  },
  { route: 'POST /projects/:id/repository/branches', schema: Api.Branch },
  { route: 'GET /projects/:id/repository/tags', url: '/projects/{project}/repository/tags', schema: list(Api.Tag) },
  {
    route: 'GET /projects/:id/repository/tags/:tag_name',
    url: '/projects/{project}/repository/tags/{tag}',
    schema: Api.Tag,
  },
  { route: 'POST /projects/:id/repository/tags', schema: Api.Tag },
  {
    route: 'GET /projects/:id/repository/files/:file_path',
    url: '/projects/{project}/repository/files/{file}?ref={defaultBranch}',
    schema: Api.RepositoryFile,
  },
  { route: 'GET /projects/:id/repository/files/:file_path/raw', skip: 'raw file bytes, not JSON' },
  { route: 'POST /projects/:id/repository/files/:file_path', schema: Api.FileCommit },
  { route: 'PUT /projects/:id/repository/files/:file_path', schema: Api.FileCommit },
  {
    route: 'GET /projects/:id/repository/changelog',
    url: '/projects/{project}/repository/changelog?version=9.9.9&from={tag}',
    schema: Api.ChangelogNotes,
  },
  {
    route: 'GET /projects/:id/protected_branches',
    url: '/projects/{project}/protected_branches',
    schema: list(Api.ProtectedBranch),
  },
  {
    route: 'GET /projects/:id/protected_branches/:name',
    url: '/projects/{project}/protected_branches/{defaultBranch}',
    schema: Api.ProtectedBranch,
  },
  { route: 'POST /projects/:id/protected_branches', schema: Api.ProtectedBranch },
  { route: 'PATCH /projects/:id/protected_branches/:name', schema: Api.ProtectedBranch },

  // ---- CI/CD ----------------------------------------------------------------------------------
  { route: 'GET /projects/:id/pipelines', url: '/projects/{project}/pipelines', schema: list(Api.PipelineBasic) },
  { route: 'GET /projects/:id/pipelines/latest', url: '/projects/{project}/pipelines/latest', schema: Api.Pipeline },
  { route: 'POST /projects/:id/pipeline', schema: Api.Pipeline },
  { route: 'POST /projects/:id/pipelines/:pipeline_id/cancel', schema: Api.Pipeline },
  { route: 'POST /projects/:id/pipelines/:pipeline_id/retry', schema: Api.Pipeline },
  {
    route: 'GET /projects/:id/pipelines/:pipeline_id',
    url: '/projects/{project}/pipelines/{pipeline}',
    schema: Api.Pipeline,
  },
  {
    route: 'GET /projects/:id/pipelines/:pipeline_id/test_report',
    url: '/projects/{project}/pipelines/{pipeline}/test_report',
    schema: Api.TestReport,
  },
  {
    route: 'GET /projects/:id/pipelines/:pipeline_id/test_report_summary',
    url: '/projects/{project}/pipelines/{pipeline}/test_report_summary',
    schema: Api.TestReportSummary,
  },
  { route: 'GET /job', skip: "needs a running job's CI_JOB_TOKEN; test/server/test-reports.test.ts checks it" },
  {
    route: 'GET /projects/:id/pipelines/:pipeline_id/jobs',
    url: '/projects/{project}/pipelines/{pipeline}/jobs',
    schema: list(Api.Job),
  },
  {
    route: 'GET /projects/:id/pipelines/:pipeline_id/variables',
    url: '/projects/{project}/pipelines/{pipeline}/variables',
    schema: list(Api.PipelineVariable),
    mayBeEmpty: true,
  },
  { route: 'GET /projects/:id/jobs', url: '/projects/{project}/jobs', schema: list(Api.Job) },
  { route: 'GET /projects/:id/jobs/:job_id', url: '/projects/{project}/jobs/{job}', schema: Api.Job },
  { route: 'POST /projects/:id/jobs/:job_id/cancel', schema: Api.Job },
  { route: 'POST /projects/:id/jobs/:job_id/retry', schema: Api.Job },
  { route: 'POST /projects/:id/jobs/:job_id/erase', schema: Api.Job },
  { route: 'POST /projects/:id/jobs/:job_id/play', schema: Api.Job },
  { route: 'GET /projects/:id/jobs/:job_id/trace', skip: 'a job log, plain text' },
  { route: 'GET /projects/:id/jobs/:job_id/artifacts', skip: 'an artifacts archive, not JSON' },
  { route: 'GET /projects/:id/jobs/artifacts/:ref_name/download', skip: 'an artifacts archive, not JSON' },
  { route: 'GET /jobs/:id/artifacts', skip: 'the runner API: an artifacts archive for a job token' },
  { route: 'GET /runners', url: '/runners', schema: list(Api.Runner), mayBeEmpty: true },
  { route: 'GET /runners/all', url: '/runners/all', schema: list(Api.Runner), userRefused: true },
  { route: 'GET /runners/:id', url: '/runners/{runner}', schema: Api.RunnerDetail },
  { route: 'PUT /runners/:id', schema: Api.RunnerDetail },
  { route: 'GET /runners/:id/jobs', url: '/runners/{runner}/jobs', schema: list(Api.RunnerJob), userRefused: true },
  {
    route: 'GET /projects/:id/runners',
    url: '/projects/{project}/runners',
    schema: list(Api.Runner),
    userRefused: true,
  },
  { route: 'GET /groups/:id/runners', url: '/groups/{group}/runners', schema: list(Api.Runner), userRefused: true },
  { route: 'POST /runners/reset_registration_token', schema: Api.RunnerToken },
  { route: 'POST /runners', schema: Api.RegisteredRunner },
  { route: 'POST /runners/reset_authentication_token', schema: Api.RunnerToken },
  { route: 'POST /runners/:id/reset_authentication_token', schema: Api.RunnerToken },
  { route: 'POST /projects/:id/runners', schema: Api.Runner },
  { route: 'POST /projects/:id/runners/reset_registration_token', schema: Api.RunnerToken },
  { route: 'POST /groups/:id/runners/reset_registration_token', schema: Api.RunnerToken },
  {
    route: 'GET /projects/:id/variables',
    url: '/projects/{project}/variables',
    schema: list(Api.CiVariable),
    userRefused: true,
  },
  {
    route: 'GET /projects/:id/variables/:key',
    url: '/projects/{project}/variables/{variable}',
    schema: Api.CiVariable,
    userRefused: true,
  },
  { route: 'POST /projects/:id/variables', schema: Api.CiVariable },
  { route: 'PUT /projects/:id/variables/:key', schema: Api.CiVariable },
  {
    route: 'GET /projects/:id/ci/lint',
    url: ['/projects/{project}/ci/lint', '/projects/{project}/ci/lint?include_jobs=true&dry_run=true'],
    schema: Api.ProjectCiLint,
  },
  { route: 'POST /projects/:id/ci/lint', schema: Api.ProjectCiLint },
  { route: 'POST /ci/lint', schema: Api.CiLint },

  // ---- environments and operations ------------------------------------------------------------
  { route: 'GET /projects/:id/environments', url: '/projects/{project}/environments', schema: list(Api.Environment) },
  {
    route: 'GET /projects/:id/environments/:environment_id',
    url: '/projects/{project}/environments/{environment}',
    schema: Api.EnvironmentDetail,
  },
  { route: 'POST /projects/:id/environments', schema: Api.Environment },
  { route: 'PUT /projects/:id/environments/:environment_id', schema: Api.Environment },
  { route: 'POST /projects/:id/environments/:environment_id/stop', schema: Api.Environment },
  { route: 'POST /projects/:id/deployments', schema: Api.Deployment },
  { route: 'PUT /projects/:id/deployments/:deployment_id', schema: Api.Deployment },
  { route: 'POST /projects/:id/protected_environments', schema: Api.ProtectedEnvironment },
  { route: 'DELETE /projects/:id/environments/review_apps', schema: Api.ReviewAppsDeletion },
  { route: 'GET /projects/:id/deployments', url: '/projects/{project}/deployments', schema: list(Api.Deployment) },
  {
    route: 'GET /projects/:id/deployments/:deployment_id',
    url: '/projects/{project}/deployments/{deployment}',
    schema: Api.Deployment,
  },
  {
    route: 'GET /projects/:id/protected_environments',
    url: '/projects/{project}/protected_environments',
    schema: list(Api.ProtectedEnvironment),
    userRefused: true,
  },
  {
    route: 'GET /projects/:id/protected_environments/:name',
    url: '/projects/{project}/protected_environments/{protectedEnvironment}',
    schema: Api.ProtectedEnvironment,
    userRefused: true,
  },
  {
    route: 'GET /projects/:id/clusters',
    url: '/projects/{project}/clusters',
    schema: list(Api.Cluster),
    userRefused: true,
  },
  {
    route: 'GET /projects/:id/clusters/:cluster_id',
    url: '/projects/{project}/clusters/{cluster}',
    schema: Api.Cluster,
    userRefused: true,
  },
  { route: 'POST /projects/:id/clusters/user', schema: Api.Cluster },
  { route: 'PUT /projects/:id/clusters/:cluster_id', schema: Api.Cluster },
  { route: 'GET /pages/domains', url: '/pages/domains', schema: list(Api.PagesDomainBasic), userRefused: true },
  {
    route: 'GET /projects/:id/pages/domains',
    url: '/projects/{pagesProject}/pages/domains',
    schema: list(Api.PagesDomain),
    userRefused: true,
  },
  {
    route: 'GET /projects/:id/pages/domains/:domain',
    url: '/projects/{pagesProject}/pages/domains/{pagesDomain}',
    schema: Api.PagesDomain,
    userRefused: true,
  },
  { route: 'POST /projects/:id/pages/domains', schema: Api.PagesDomain },
  { route: 'PUT /projects/:id/pages/domains/:domain', schema: Api.PagesDomain },
  {
    route: 'GET /projects/:id/error_tracking/settings',
    url: '/projects/{trackedProject}/error_tracking/settings',
    schema: Api.ErrorTrackingSettings,
    userRefused: true,
  },
  {
    route: 'GET /projects/:id/error_tracking/client_keys',
    url: '/projects/{trackedProject}/error_tracking/client_keys',
    schema: list(Api.ErrorTrackingClientKey),
    userRefused: true,
  },
  { route: 'POST /projects/:id/error_tracking/client_keys', schema: Api.ErrorTrackingClientKey },
  { route: 'DELETE /projects/:id/error_tracking/client_keys/:key_id', schema: Api.ErrorTrackingClientKey },
  { route: 'PATCH /projects/:id/error_tracking/settings', schema: Api.ErrorTrackingSettings },
  { route: 'PUT /projects/:id/error_tracking/settings', schema: Api.ErrorTrackingSettings },
  {
    route: 'GET /projects/:id/vulnerabilities',
    url: '/projects/{project}/vulnerabilities',
    schema: list(Api.Vulnerability),
  },
  { route: 'GET /vulnerabilities/:id', url: '/vulnerabilities/{vulnerability}', schema: Api.Vulnerability },
  { route: 'POST /projects/:id/vulnerabilities', schema: Api.Vulnerability },
  { route: 'POST /vulnerabilities/:id/confirm', schema: Api.Vulnerability },
  { route: 'POST /vulnerabilities/:id/resolve', schema: Api.Vulnerability },
  { route: 'POST /vulnerabilities/:id/revert', schema: Api.Vulnerability },
  { route: 'POST /vulnerabilities/:id/dismiss', schema: Api.Vulnerability },
  {
    route: 'GET /projects/:id/vulnerability_findings',
    url: '/projects/{project}/vulnerability_findings',
    schema: list(Api.Finding),
  },
  { route: 'GET /projects/:id/dependencies', url: '/projects/{project}/dependencies', schema: list(Api.Dependency) },

  // ---- administration -------------------------------------------------------------------------
  { route: 'GET /geo_nodes', url: '/geo_nodes', schema: list(Api.GeoNode), userRefused: true },
  { route: 'GET /geo_nodes/:id', url: '/geo_nodes/{geoNode}', schema: Api.GeoNode, userRefused: true },
  { route: 'POST /geo_nodes', schema: Api.GeoNode },
  { route: 'PUT /geo_nodes/:id', schema: Api.GeoNode },
  { route: 'POST /geo_nodes/:id/repair', schema: Api.GeoNode },
  { route: 'GET /geo_nodes/status', url: '/geo_nodes/status', schema: list(Api.GeoNodeStatus), userRefused: true },
  { route: 'GET /geo_nodes/statuses', url: '/geo_nodes/statuses', schema: list(Api.GeoNodeStatus), userRefused: true },
  {
    route: 'GET /geo_nodes/:id/status',
    url: '/geo_nodes/{geoNode}/status',
    schema: Api.GeoNodeStatus,
    userRefused: true,
  },
  {
    route: 'GET /geo_nodes/current/failures',
    skip: 'answers only on a secondary node, which the test instance is not',
  },
  {
    route: 'GET /project_repository_storage_moves',
    url: '/project_repository_storage_moves',
    schema: list(Api.ProjectStorageMove),
    userRefused: true,
  },
  {
    route: 'GET /project_repository_storage_moves/:repository_storage_move_id',
    url: '/project_repository_storage_moves/{projectMove}',
    schema: Api.ProjectStorageMove,
    userRefused: true,
  },
  {
    route: 'GET /projects/:id/repository_storage_moves',
    url: '/projects/{movedProject}/repository_storage_moves',
    schema: list(Api.ProjectStorageMove),
    userRefused: true,
  },
  {
    route: 'GET /projects/:id/repository_storage_moves/:repository_storage_move_id',
    url: '/projects/{movedProject}/repository_storage_moves/{projectMove}',
    schema: Api.ProjectStorageMove,
    userRefused: true,
  },
  { route: 'POST /projects/:id/repository_storage_moves', schema: Api.ProjectStorageMove },
  {
    route: 'GET /snippet_repository_storage_moves',
    url: '/snippet_repository_storage_moves',
    schema: list(Api.SnippetStorageMove),
    userRefused: true,
  },
  {
    route: 'GET /snippet_repository_storage_moves/:repository_storage_move_id',
    url: '/snippet_repository_storage_moves/{snippetMove}',
    schema: Api.SnippetStorageMove,
    userRefused: true,
  },
  {
    route: 'GET /snippets/:id/repository_storage_moves',
    url: '/snippets/{snippet}/repository_storage_moves',
    schema: list(Api.SnippetStorageMove),
    userRefused: true,
  },
  {
    route: 'GET /snippets/:id/repository_storage_moves/:repository_storage_move_id',
    url: '/snippets/{snippet}/repository_storage_moves/{snippetMove}',
    schema: Api.SnippetStorageMove,
    userRefused: true,
  },
  { route: 'POST /snippets/:id/repository_storage_moves', schema: Api.SnippetStorageMove },
  {
    route: 'GET /group_repository_storage_moves',
    url: '/group_repository_storage_moves',
    schema: list(Api.GroupStorageMove),
    userRefused: true,
  },
  {
    route: 'GET /group_repository_storage_moves/:repository_storage_move_id',
    url: '/group_repository_storage_moves/{groupMove}',
    schema: Api.GroupStorageMove,
    userRefused: true,
  },
  {
    route: 'GET /groups/:id/repository_storage_moves',
    url: '/groups/{group}/repository_storage_moves',
    schema: list(Api.GroupStorageMove),
    userRefused: true,
  },
  {
    route: 'GET /groups/:id/repository_storage_moves/:repository_storage_move_id',
    url: '/groups/{group}/repository_storage_moves/{groupMove}',
    schema: Api.GroupStorageMove,
    userRefused: true,
  },
  { route: 'POST /groups/:id/repository_storage_moves', schema: Api.GroupStorageMove },

  // ---- issue 11's new families (api-route-schemas-forge.ts) ----------------------------------
  ...FORGE_ROUTES,
]

/**
 * The notes, discussions and award emoji routes of one noteable family. A note made only of quick
 * actions answers 202 where the family has them. Epics name the epic by id in their notes routes
 * and by iid in their award emoji routes.
 */
function noteableRoutes(
  base: string,
  url: string,
  key: string,
  {
    quickActions,
    awardBase = base,
    awardUrl = url,
  }: { readonly quickActions: boolean; readonly awardBase?: string; readonly awardUrl?: string },
): CheckedRoute[] {
  return [
    { route: `GET ${base}/notes`, url: `${url}/notes`, schema: list(Api.Note) },
    { route: `GET ${base}/notes/:note_id`, url: `${url}/notes/{${key}Note}`, schema: Api.Note },
    {
      route: `POST ${base}/notes`,
      schema: Api.Note,
      ...(quickActions ? { others: { 202: Api.NoteCommandsResult } } : {}),
    },
    { route: `PUT ${base}/notes/:note_id`, schema: Api.Note },
    { route: `GET ${base}/discussions`, url: `${url}/discussions`, schema: list(Api.Discussion) },
    {
      route: `GET ${base}/discussions/:discussion_id`,
      url: `${url}/discussions/{${key}Discussion}`,
      schema: Api.Discussion,
    },
    { route: `POST ${base}/discussions`, schema: Api.Discussion },
    { route: `POST ${base}/discussions/:discussion_id/notes`, schema: Api.Note },
    { route: `PUT ${base}/discussions/:discussion_id/notes/:note_id`, schema: Api.Note },
    { route: `GET ${awardBase}/award_emoji`, url: `${awardUrl}/award_emoji`, schema: list(Api.AwardEmoji) },
    {
      route: `GET ${awardBase}/award_emoji/:award_id`,
      url: `${awardUrl}/award_emoji/{${key}Award}`,
      schema: Api.AwardEmoji,
    },
    { route: `POST ${awardBase}/award_emoji`, schema: Api.AwardEmoji },
    {
      route: `GET ${awardBase}/notes/:note_id/award_emoji`,
      url: `${awardUrl}/notes/{${key}Note}/award_emoji`,
      schema: list(Api.AwardEmoji),
    },
    {
      route: `GET ${awardBase}/notes/:note_id/award_emoji/:award_id`,
      url: `${awardUrl}/notes/{${key}Note}/award_emoji/{${key}NoteAward}`,
      schema: Api.AwardEmoji,
    },
    { route: `POST ${awardBase}/notes/:note_id/award_emoji`, schema: Api.AwardEmoji },
  ]
}

/** The resource event routes of a noteable family. */
function resourceEventRoutes(
  base: string,
  url: string,
  key: string,
  kinds: readonly (keyof typeof RESOURCE_EVENT_SCHEMAS)[],
): CheckedRoute[] {
  return kinds.flatMap((kind) => {
    const segment = `resource_${kind}_events`
    const schema = RESOURCE_EVENT_SCHEMAS[kind]
    const id = `${key}${kind[0].toUpperCase()}${kind.slice(1)}Event`
    return [
      { route: `GET ${base}/${segment}`, url: `${url}/${segment}`, schema: list(schema) },
      { route: `GET ${base}/${segment}/:event_id`, url: `${url}/${segment}/{${id}}`, schema },
    ]
  })
}
