/**
 * The route table's part for issue 11's new families (releases, boards, wikis, badges, pipeline
 * schedules, group CI variables and access tokens, project users and languages), spread into
 * ROUTES by api-route-schemas.ts.
 */
import { Type } from 'typebox'
import * as Api from '../../src/shared/api/index'
import type { RouteEntry } from './api-route-schemas'

const list = Type.Array

/** Terms the conformance world holds for each search scope (`conformance` otherwise). */
const SEARCH_TERMS: Readonly<Record<string, string>> = {
  projects: 'dispatch',
  issues: 'the',
  users: 'ro',
  notes: 'looks',
  blobs: 'the',
}

export const FORGE_ROUTES: readonly RouteEntry[] = [
  // ---- releases -----------------------------------------------------------------------------
  { route: 'GET /projects/:id/releases', url: '/projects/{project}/releases', schema: list(Api.Release) },
  {
    route: 'GET /projects/:id/releases/:tag_name',
    url: [
      '/projects/{project}/releases/{release}',
      '/projects/{project}/releases/{release}?include_html_description=true',
    ],
    schema: Api.Release,
  },
  { route: 'GET /projects/:id/releases/permalink/latest', skip: 'a redirect to the latest release' },
  // Fastify prints a wildcard route without the static segments before its `*`: these are
  // `…/permalink/latest/*` and `…/:tag_name/downloads/*`.
  { route: 'GET /projects/:id/releases/permalink/latest*', skip: 'a redirect below the latest release' },
  { route: 'GET /projects/:id/releases/:tag_name*', skip: "a redirect to a release asset's URL" },
  { route: 'POST /projects/:id/releases', schema: Api.Release },
  { route: 'PUT /projects/:id/releases/:tag_name', schema: Api.Release },
  { route: 'DELETE /projects/:id/releases/:tag_name', schema: Api.Release },
  {
    route: 'GET /projects/:id/releases/:tag_name/assets/links',
    url: '/projects/{project}/releases/{release}/assets/links',
    schema: list(Api.ReleaseLink),
  },
  {
    route: 'GET /projects/:id/releases/:tag_name/assets/links/:link_id',
    url: '/projects/{project}/releases/{release}/assets/links/{releaseLink}',
    schema: Api.ReleaseLink,
  },
  { route: 'POST /projects/:id/releases/:tag_name/assets/links', schema: Api.ReleaseLink },
  { route: 'PUT /projects/:id/releases/:tag_name/assets/links/:link_id', schema: Api.ReleaseLink },
  { route: 'DELETE /projects/:id/releases/:tag_name/assets/links/:link_id', schema: Api.ReleaseLink },

  // ---- issue boards -------------------------------------------------------------------------
  { route: 'GET /projects/:id/boards', url: '/projects/{project}/boards', schema: list(Api.Board) },
  { route: 'GET /projects/:id/boards/:board_id', url: '/projects/{project}/boards/{board}', schema: Api.Board },
  { route: 'POST /projects/:id/boards', schema: Api.Board },
  { route: 'PUT /projects/:id/boards/:board_id', schema: Api.Board },
  {
    route: 'GET /projects/:id/boards/:board_id/lists',
    url: '/projects/{project}/boards/{board}/lists',
    schema: list(Api.BoardList),
  },
  {
    route: 'GET /projects/:id/boards/:board_id/lists/:list_id',
    url: '/projects/{project}/boards/{board}/lists/{boardList}',
    schema: Api.BoardList,
  },
  { route: 'POST /projects/:id/boards/:board_id/lists', schema: Api.BoardList },
  { route: 'PUT /projects/:id/boards/:board_id/lists/:list_id', schema: Api.BoardList },

  // ---- wikis --------------------------------------------------------------------------------
  {
    route: 'GET /projects/:id/wikis',
    url: ['/projects/{project}/wikis', '/projects/{project}/wikis?with_content=true'],
    schema: Type.Union([list(Api.WikiPage), list(Api.WikiPageBasic)]),
  },
  {
    route: 'GET /projects/:id/wikis/:slug',
    url: ['/projects/{project}/wikis/{wikiPage}', '/projects/{project}/wikis/{wikiPage}?render_html=true'],
    schema: Api.WikiPage,
  },
  { route: 'POST /projects/:id/wikis', schema: Api.WikiPage },
  { route: 'PUT /projects/:id/wikis/:slug', schema: Api.WikiPage },
  {
    route: 'POST /projects/:id/wikis/attachments',
    skip: 'a multipart upload the fixtures do not send; tested in wikis.test.ts',
  },

  // ---- badges -------------------------------------------------------------------------------
  {
    route: 'GET /projects/:id/badges',
    url: ['/projects/{project}/badges', '/projects/{project}/badges?name=Pipeline'],
    schema: list(Api.Badge),
  },
  {
    route: 'GET /projects/:id/badges/render',
    url: '/projects/{project}/badges/render?link_url=https%3A%2F%2Fci.example.com%2F%25%7Bproject_path%7D&image_url=https%3A%2F%2Fci.example.com%2Fb.svg',
    schema: Api.BadgePreview,
    userRefused: true,
  },
  { route: 'GET /projects/:id/badges/:badge_id', url: '/projects/{project}/badges/{projectBadge}', schema: Api.Badge },
  { route: 'POST /projects/:id/badges', schema: Api.Badge },
  { route: 'PUT /projects/:id/badges/:badge_id', schema: Api.Badge },
  { route: 'GET /groups/:id/badges', url: '/groups/{group}/badges', schema: list(Api.Badge) },
  {
    route: 'GET /groups/:id/badges/render',
    url: '/groups/{group}/badges/render?link_url=https%3A%2F%2Fci.example.com%2F%25%7Bproject_path%7D&image_url=https%3A%2F%2Fci.example.com%2Fb.svg',
    schema: Api.BadgePreview,
    userRefused: true,
  },
  { route: 'GET /groups/:id/badges/:badge_id', url: '/groups/{group}/badges/{groupBadge}', schema: Api.Badge },
  { route: 'POST /groups/:id/badges', schema: Api.Badge },
  { route: 'PUT /groups/:id/badges/:badge_id', schema: Api.Badge },

  // ---- project users and languages ----------------------------------------------------------
  {
    route: 'GET /projects/:id/users',
    url: ['/projects/{project}/users', '/projects/{project}/users?search=jonas'],
    schema: list(Api.UserBasic),
  },
  { route: 'GET /projects/:id/languages', url: '/projects/{project}/languages', schema: Api.RepositoryLanguages },

  // ---- group CI/CD variables ----------------------------------------------------------------
  {
    route: 'GET /groups/:id/variables',
    url: '/groups/{group}/variables',
    schema: list(Api.CiVariable),
    userRefused: true,
  },
  {
    route: 'GET /groups/:id/variables/:key',
    url: '/groups/{group}/variables/{groupVariable}',
    schema: Api.CiVariable,
    userRefused: true,
  },
  { route: 'POST /groups/:id/variables', schema: Api.CiVariable },
  { route: 'PUT /groups/:id/variables/:key', schema: Api.CiVariable },

  // ---- group access tokens (GitLab's ResourceAccessToken, as for projects) ---------------------
  {
    route: 'GET /groups/:id/access_tokens',
    url: '/groups/{group}/access_tokens',
    schema: list(Api.ProjectAccessToken),
    userRefused: true,
  },
  {
    route: 'GET /groups/:id/access_tokens/:token_id',
    url: '/groups/{group}/access_tokens/{groupToken}',
    schema: Api.ProjectAccessToken,
    userRefused: true,
  },
  { route: 'POST /groups/:id/access_tokens', schema: Api.ProjectAccessTokenWithToken },
  { route: 'POST /groups/:id/access_tokens/:token_id/rotate', schema: Api.ProjectAccessTokenWithToken },

  // ---- protected tags -----------------------------------------------------------------------
  {
    route: 'GET /projects/:id/protected_tags',
    url: '/projects/{project}/protected_tags',
    schema: list(Api.ProtectedTag),
    userRefused: true,
  },
  {
    route: 'GET /projects/:id/protected_tags/:name',
    url: '/projects/{project}/protected_tags/{protectedTag}',
    schema: Api.ProtectedTag,
    userRefused: true,
  },
  { route: 'POST /projects/:id/protected_tags', schema: Api.ProtectedTag },

  // ---- commit statuses ----------------------------------------------------------------------
  {
    route: 'GET /projects/:id/repository/commits/:sha/statuses',
    url: [
      '/projects/{project}/repository/commits/{commit}/statuses',
      '/projects/{project}/repository/commits/{commit}/statuses?all=true&sort=desc',
    ],
    schema: list(Api.CommitStatus),
  },
  { route: 'POST /projects/:id/statuses/:sha', schema: Api.CommitStatus },

  // ---- pipeline schedules -------------------------------------------------------------------
  {
    route: 'GET /projects/:id/pipeline_schedules',
    url: ['/projects/{project}/pipeline_schedules', '/projects/{project}/pipeline_schedules?scope=active'],
    schema: list(Api.PipelineSchedule),
  },
  {
    route: 'GET /projects/:id/pipeline_schedules/:pipeline_schedule_id',
    url: '/projects/{project}/pipeline_schedules/{pipelineSchedule}',
    schema: Api.PipelineScheduleDetails,
  },
  {
    route: 'GET /projects/:id/pipeline_schedules/:pipeline_schedule_id/pipelines',
    url: '/projects/{project}/pipeline_schedules/{pipelineSchedule}/pipelines',
    schema: list(Api.PipelineBasic),
  },
  { route: 'POST /projects/:id/pipeline_schedules', schema: Api.PipelineScheduleDetails },
  { route: 'PUT /projects/:id/pipeline_schedules/:pipeline_schedule_id', schema: Api.PipelineScheduleDetails },
  {
    route: 'POST /projects/:id/pipeline_schedules/:pipeline_schedule_id/take_ownership',
    schema: Api.PipelineScheduleDetails,
  },
  {
    route: 'POST /projects/:id/pipeline_schedules/:pipeline_schedule_id/variables',
    schema: Api.PipelineScheduleVariable,
  },
  {
    route: 'PUT /projects/:id/pipeline_schedules/:pipeline_schedule_id/variables/:key',
    schema: Api.PipelineScheduleVariable,
  },

  // ---- webhooks -----------------------------------------------------------------------------
  ...(['project', 'group'] as const).flatMap((kind): RouteEntry[] => {
    const schema = kind === 'project' ? Api.ProjectHook : Api.GroupHook
    const base = `/${kind}s/{${kind}}/hooks`
    return [
      { route: `GET /${kind}s/:id/hooks`, url: base, schema: list(schema), userRefused: true },
      { route: `GET /${kind}s/:id/hooks/:hook_id`, url: `${base}/{${kind}Hook}`, schema, userRefused: true },
      {
        route: `GET /${kind}s/:id/hooks/:hook_id/events`,
        url: [`${base}/{${kind}Hook}/events`, `${base}/{${kind}Hook}/events?status=successful`],
        schema: list(Api.HookEvent),
        userRefused: true,
        mayBeEmpty: true,
      },
      { route: `POST /${kind}s/:id/hooks`, schema },
      { route: `PUT /${kind}s/:id/hooks/:hook_id`, schema },
    ]
  }),
  { route: 'GET /hooks', url: '/hooks', schema: list(Api.SystemHook), userRefused: true },
  { route: 'GET /hooks/:hook_id', url: '/hooks/{systemHook}', schema: Api.SystemHook, userRefused: true },
  { route: 'POST /hooks', schema: Api.SystemHook },
  { route: 'PUT /hooks/:hook_id', schema: Api.SystemHook },

  // ---- search -------------------------------------------------------------------------------
  {
    route: 'GET /search',
    url: ['projects', 'issues', 'merge_requests', 'milestones', 'users', 'notes', 'commits', 'blobs'].map(
      (scope) => `/search?scope=${scope}&search=${SEARCH_TERMS[scope] ?? 'conformance'}`,
    ),
    schema: Api.SearchResults,
  },
  {
    route: 'GET /groups/:id/search',
    url: ['/groups/{group}/search?scope=projects&search=dispatch', '/groups/{group}/search?scope=issues&search=the'],
    schema: Api.SearchResults,
  },
  {
    route: 'GET /projects/:id/search',
    url: [
      '/projects/{project}/search?scope=issues&search=the',
      '/projects/{project}/search?scope=notes&search=looks',
      '/projects/{project}/search?scope=blobs&search=conformance&ref=conformance',
      '/projects/{project}/search?scope=wiki_blobs&search=welcome',
      '/projects/{project}/search?scope=users&search=jonas',
    ],
    schema: Api.SearchResults,
  },

  // ---- blame, cherry-pick and revert --------------------------------------------------------
  {
    route: 'GET /projects/:id/repository/files/:file_path/blame',
    url: [
      '/projects/{project}/repository/files/{file}/blame?ref={defaultBranch}',
      '/projects/{project}/repository/files/{file}/blame?ref={defaultBranch}&range[start]=1&range[end]=1',
    ],
    schema: list(Api.BlameRange),
  },
  { route: 'POST /projects/:id/repository/commits/:sha/cherry_pick', schema: Api.Commit },
  { route: 'POST /projects/:id/repository/commits/:sha/revert', schema: Api.Commit },

  // ---- comments on commits -----------------------------------------------------------------
  {
    route: 'GET /projects/:id/repository/commits/:sha/comments',
    url: '/projects/{project}/repository/commits/{commit}/comments',
    schema: list(Api.CommitNote),
  },
  { route: 'POST /projects/:id/repository/commits/:sha/comments', schema: Api.CommitNote },
  {
    route: 'GET /projects/:id/repository/commits/:sha/discussions',
    url: '/projects/{project}/repository/commits/{commit}/discussions',
    schema: list(Api.Discussion),
  },
  {
    route: 'GET /projects/:id/repository/commits/:sha/discussions/:discussion_id',
    url: '/projects/{project}/repository/commits/{commit}/discussions/{commitDiscussion}',
    schema: Api.Discussion,
  },
  { route: 'POST /projects/:id/repository/commits/:sha/discussions', schema: Api.Discussion },
  { route: 'POST /projects/:id/repository/commits/:sha/discussions/:discussion_id/notes', schema: Api.Note },
  { route: 'PUT /projects/:id/repository/commits/:sha/discussions/:discussion_id/notes/:note_id', schema: Api.Note },

  // ---- issue links --------------------------------------------------------------------------
  {
    route: 'GET /projects/:id/issues/:issue_iid/links',
    url: '/projects/{project}/issues/{issue}/links',
    schema: list(Api.LinkedIssue),
  },
  {
    route: 'GET /projects/:id/issues/:issue_iid/links/:issue_link_id',
    url: '/projects/{project}/issues/{issue}/links/{issueLink}',
    schema: Api.IssueLink,
  },
  { route: 'POST /projects/:id/issues/:issue_iid/links', schema: Api.IssueLink },
  { route: 'DELETE /projects/:id/issues/:issue_iid/links/:issue_link_id', schema: Api.IssueLink },

  // ---- forks --------------------------------------------------------------------------------
  { route: 'GET /projects/:id/forks', url: '/projects/{project}/forks', schema: list(Api.ProjectListItem) },
  { route: 'POST /projects/:id/fork', schema: Api.Project },
  { route: 'POST /projects/:id/fork/:forked_from_id', schema: Api.Project },
]
