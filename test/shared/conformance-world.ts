/**
 * The world of the wire model's conformance test: a server seeded with the demo content, the ids
 * of what the demo holds, and what it lacks made through the API (users and tokens, an issue, a
 * merge request, an epic and a snippet with notes, threads, award emoji and resource events, CI/CD
 * and operations resources…). Every write's answer is kept, by route, for the table's check.
 */
import type { LightMyRequestResponse } from 'fastify'
import { ROOT_TOKEN, type TestServer } from '../helpers/server'
import { forgeFamilies } from './conformance-world-forge'

type Json = Record<string, unknown>

/** Values the table's urls name as `{key}`. */
export type WorldIds = Record<string, string | number>

/** A write's answer. */
export interface WriteAnswer {
  readonly url: string
  readonly status: number
  readonly body: unknown
}

export const API = '/api/v4'
const PAT_ROUTE = 'POST /users/:user_id/personal_access_tokens'
const SCOPES = ['api', 'read_user']
const CI_CONTENT = 'test:\n  script: echo ok\n'

/** The world's state and the calls that build it. */
export class ConformanceWorld {
  readonly ids: WorldIds = {}
  /** Tokens of the actors: the administrator and the plain user (a Developer of the project and group). */
  readonly tokens = { admin: ROOT_TOKEN, user: '' }
  /** Every answer of the writes the fixtures made, by route. */
  readonly writes = new Map<string, WriteAnswer[]>()

  constructor(
    readonly server: TestServer,
    /** Refuses a write route the table does not name, so no answer goes unchecked. */
    private readonly known: (route: string) => boolean,
  ) {}

  call(token: string | null, method: string, url: string, payload?: Json): Promise<LightMyRequestResponse> {
    return this.server.request(token, { method: method as 'GET', url: `${API}${url}`, ...(payload ? { payload } : {}) })
  }

  async read(url: string, token = this.tokens.admin): Promise<Json & Json[]> {
    const res = await this.call(token, 'GET', url)
    if (res.statusCode !== 200) throw new Error(`setup: GET ${url} answered ${res.statusCode} ${res.body}`)
    return JSON.parse(res.body) as Json & Json[]
  }

  /** A write the fixtures need (`route` as the table names it): its answer is kept for the table's check. */
  async write(route: string, url: string, payload: Json = {}, token = this.tokens.admin): Promise<Json> {
    if (!this.known(route)) throw new Error(`setup: the table has no schema for ${route}`)
    const method = route.split(' ')[0]
    const res = await this.call(token, method, url, payload)
    if (res.statusCode >= 300) throw new Error(`setup: ${method} ${url} answered ${res.statusCode} ${res.body}`)
    const body = JSON.parse(res.body) as Json
    this.writes.set(route, [...(this.writes.get(route) ?? []), { url, status: res.statusCode, body }])
    return body
  }

  /** A write that creates something: its id. */
  async created(route: string, url: string, payload: Json = {}, token?: string): Promise<number> {
    return (await this.write(route, url, payload, token)).id as number
  }

  /** The first item of a list that matches, or a setup error naming what the demo lacks. */
  async first(url: string, matching: (item: Json) => boolean = () => true): Promise<Json> {
    const found = ((await this.read(url)) as Json[]).find(matching)
    if (!found) throw new Error(`setup: GET ${url} lists nothing the test can use`)
    return found
  }

  async userId(username: string): Promise<number> {
    return (await this.first(`/users?username=${username}`)).id as number
  }

  /** A new user made by the administrator, with a personal access token. */
  async newUser(username: string): Promise<{ readonly id: number; readonly token: string }> {
    const password = `${username}-Passw0rd-1`
    const id = await this.created('POST /users', '/users', {
      username,
      name: `${username} (conformance)`,
      email: `${username}@example.com`,
      password,
    })
    const pat = await this.write(PAT_ROUTE, `/users/${id}/personal_access_tokens`, {
      name: 'conformance',
      scopes: SCOPES,
    })
    return { id, token: pat.token as string }
  }
}

/** Builds the world on a server already seeded with the demo content. */
export async function buildConformanceWorld(
  server: TestServer,
  known: (route: string) => boolean,
): Promise<ConformanceWorld> {
  const w = new ConformanceWorld(server, known)
  await discover(w)
  await accounts(w)
  await projectsAndGroups(w)
  await issues(w)
  await mergeRequests(w)
  await epics(w)
  await snippets(w)
  await ci(w)
  await operations(w)
  await forgeFamilies(w)
  await administration(w)
  await discoverEvents(w)
  return w
}

/** Ids of what the demo seeded. */
async function discover(w: ConformanceWorld): Promise<void> {
  const ids = w.ids
  ids.project = 'kestrel/platform/dispatch-api'
  ids.group = 'kestrel'
  const project = await w.read(`/projects/${encodeURIComponent(String(ids.project))}`)
  ids.projectId = project.id as number
  const p = `/projects/${ids.projectId}`
  ids.defaultBranch = project.default_branch as string
  ids.user = await w.userId('jonas')
  ids.otherGroupId = (await w.read('/groups/kestrel-oss')).id as number

  const closer = await w.first(`${p}/merge_requests?state=merged&per_page=100`, (mr) =>
    /Closes #\d+/.test(String(mr.description)),
  )
  ids.closedIssue = Number(/Closes #(\d+)/.exec(String(closer.description))?.[1])
  ids.closedIssueId = (await w.read(`${p}/issues/${ids.closedIssue}`)).id as number
  const opened = (await w.read(`${p}/merge_requests?state=opened&per_page=100`)) as Json[]
  for (const mr of opened) {
    if (((await w.read(`${p}/merge_requests/${mr.iid as number}/pipelines`)) as Json[]).length > 0) {
      ids.pipelineMr = mr.iid as number
      break
    }
  }

  ids.groupMilestone = (
    await w.first('/groups/kestrel/milestones', (m) => m.start_date !== null && m.due_date !== null)
  ).id as number
  ids.groupLabel = (await w.first('/groups/kestrel/labels')).id as number
  ids.auditEvent = (await w.first('/audit_events')).id as number
  ids.groupAuditEvent = (await w.first('/groups/kestrel/audit_events')).id as number

  ids.pipeline = (await w.first(`${p}/pipelines?status=success`)).id as number
  ids.job = (await w.first(`${p}/jobs`)).id as number
  for (const runner of (await w.read('/runners/all')) as Json[]) {
    if (((await w.read(`/runners/${runner.id as number}/jobs`)) as Json[]).length > 0) {
      ids.runner = runner.id as number
      break
    }
  }
  ids.environment = (await w.first(`${p}/environments`, (e) => e.name === 'production')).id as number
  ids.deployment = (await w.first(`${p}/deployments?environment=production`)).id as number
  ids.protectedEnvironment = (await w.first(`${p}/protected_environments`)).name as string
  ids.vulnerability = (await w.first(`${p}/vulnerabilities`)).id as number

  const domain = await w.first('/pages/domains')
  ids.pagesProject = domain.project_id as number
  ids.pagesDomain = domain.domain as string
  for (const candidate of (await w.read('/projects?simple=true')) as Json[]) {
    const res = await w.call(w.tokens.admin, 'GET', `/projects/${candidate.id as number}/error_tracking/settings`)
    if (res.statusCode === 200) ids.trackedProject = candidate.id as number
  }
  ids.geoNode = (await w.first('/geo_nodes')).id as number
  const move = await w.first('/project_repository_storage_moves')
  ids.projectMove = move.id as number
  ids.movedProject = (move.project as Json).id as number

  ids.tag = (await w.first(`${p}/repository/tags`)).name as string
  ids.commit = ((await w.read(`${p}/repository/branches/${ids.defaultBranch}`)).commit as Json).id as string
  const blob = await w.first(`${p}/repository/tree`, (e) => e.type === 'blob')
  ids.blob = blob.id as string
  ids.file = blob.path as string
}

/** The plain user's token; tokens to rotate; users who ask for access; memberships. */
async function accounts(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const p = `/projects/${ids.projectId}`
  const g = '/groups/kestrel'
  const pat = await w.write(PAT_ROUTE, `/users/${ids.user}/personal_access_tokens`, {
    name: 'conformance',
    scopes: SCOPES,
  })
  w.tokens.user = pat.token as string
  ids.userToken = pat.id as number
  const spare = await w.write(PAT_ROUTE, `/users/${ids.user}/personal_access_tokens`, { name: 'spare', scopes: SCOPES })
  await w.write('POST /personal_access_tokens/:id/rotate', `/personal_access_tokens/${spare.id as number}/rotate`)
  ids.impersonationToken = await w.created(
    'POST /users/:user_id/impersonation_tokens',
    `/users/${ids.user}/impersonation_tokens`,
    {
      name: 'support',
      scopes: ['api'],
    },
  )
  const bot = await w.created('POST /projects/:id/access_tokens', `${p}/access_tokens`, {
    name: 'deploy bot',
    scopes: ['api'],
    access_level: 30,
  })
  ids.projectToken = await w.created(
    'POST /projects/:id/access_tokens/:token_id/rotate',
    `${p}/access_tokens/${bot}/rotate`,
  )

  // A newcomer who asks for access to the project and the group; a visitor admitted to the group.
  const newcomer = await w.newUser('newcomer')
  await w.write('PUT /users/:id', `/users/${newcomer.id}`, { bio: 'Joined for the conformance test.' })
  await w.write('POST /projects/:id/access_requests', `${p}/access_requests`, {}, newcomer.token)
  await w.write('POST /groups/:id/access_requests', `${g}/access_requests`, {}, newcomer.token)
  const visitor = await w.newUser('visitor')
  await w.write('POST /groups/:id/access_requests', `${g}/access_requests`, {}, visitor.token)
  await w.write('PUT /groups/:id/access_requests/:user_id/approve', `${g}/access_requests/${visitor.id}/approve`, {
    access_level: 20,
  })
  await w.write('POST /personal_access_tokens/self/rotate', '/personal_access_tokens/self/rotate', {}, visitor.token)
  await w.write('POST /users/:id/block', `/users/${visitor.id}/block`)
  await w.write('POST /users/:id/unblock', `/users/${visitor.id}/unblock`)
  await w.write('POST /users/:id/unlock', `/users/${visitor.id}/unlock`)

  const kofi = await w.userId('kofi')
  await w.write('POST /projects/:id/members', `${p}/members`, { user_id: kofi, access_level: 20 })
  await w.write('PUT /projects/:id/members/:user_id', `${p}/members/${kofi}`, { access_level: 30 })
  await w.write('POST /groups/:id/members', `${g}/members`, { user_id: kofi, access_level: 10 })
  // Several users at once answer with a status and the errors per user.
  await w.write('POST /projects/:id/members', `${p}/members`, { user_id: `${kofi},${visitor.id}`, access_level: 10 })
  await w.write('POST /groups/:id/members', `/groups/${ids.otherGroupId}/members`, {
    user_id: `${kofi},${visitor.id}`,
    access_level: 10,
  })
  await w.write('PUT /groups/:id/members/:user_id', `${g}/members/${kofi}`, { access_level: 20 })
  ids.member = kofi
}

/** Project and group settings, a sandbox project and group, labels and milestones. */
async function projectsAndGroups(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const p = `/projects/${ids.projectId}`
  const g = '/groups/kestrel'
  await w.write('PUT /projects/:id', p, { description: 'Dispatch API: jobs, visits and technicians.' })
  await w.write('POST /projects/:id/star', `${p}/star`, {}, w.tokens.user)
  await w.write('POST /projects/:id/star', `${p}/star`)
  await w.write('POST /projects/:id/unstar', `${p}/unstar`)

  const sandbox = await w.created('POST /projects', '/projects', {
    name: 'Sandbox',
    namespace_id: String(ids.otherGroupId),
    initialize_with_readme: true,
  })
  ids.sandboxProject = sandbox
  await w.write('POST /projects/:id/archive', `/projects/${sandbox}/archive`)
  await w.write('POST /projects/:id/unarchive', `/projects/${sandbox}/unarchive`)
  await w.write('POST /projects/:id/share', `/projects/${sandbox}/share`, {
    group_id: (await w.read(g)).id as number,
    group_access: 30,
  })
  const scratch = await w.created('POST /projects/user/:user_id', `/projects/user/${ids.user}`, { name: 'Scratch' })
  await w.write('DELETE /projects/:id', `/projects/${scratch}`)
  const group = await w.created('POST /groups', '/groups', { name: 'Conformance', path: 'conformance' })
  await w.write('PUT /groups/:id', `/groups/${group}`, { description: 'Made by the conformance test.' })
  await w.write('POST /groups/:id/share', `/groups/${group}/share`, { group_id: ids.otherGroupId, group_access: 20 })
  await w.write('PUT /projects/:id/transfer', `/projects/${sandbox}/transfer`, { namespace: String(group) })
  await w.write('POST /groups/:id/transfer', `/groups/${group}/transfer`, { group_id: ids.otherGroupId })

  ids.projectLabel = await w.created('POST /projects/:id/labels', `${p}/labels`, {
    name: 'conformance',
    color: '#336699',
  })
  await w.write('PUT /projects/:id/labels/:label_id', `${p}/labels/${ids.projectLabel}`, {
    description: 'Made by the conformance test',
  })
  await w.write(
    'POST /projects/:id/labels/:label_id/subscribe',
    `${p}/labels/${ids.projectLabel}/subscribe`,
    {},
    w.tokens.user,
  )
  await w.write(
    'POST /projects/:id/labels/:label_id/unsubscribe',
    `${p}/labels/${ids.projectLabel}/unsubscribe`,
    {},
    w.tokens.user,
  )
  const promoted = await w.created('POST /projects/:id/labels', `${p}/labels`, { name: 'promote me', color: '#aa3366' })
  await w.write('PUT /projects/:id/labels/:label_id/promote', `${p}/labels/${promoted}/promote`)
  const groupLabel = await w.created('POST /groups/:id/labels', `${g}/labels`, {
    name: 'conformance-group',
    color: 'teal',
  })
  await w.write('PUT /groups/:id/labels/:label_id', `${g}/labels/${groupLabel}`, { description: 'A group label' })
  await w.write('POST /groups/:id/labels/:label_id/subscribe', `${g}/labels/${groupLabel}/subscribe`, {}, w.tokens.user)

  ids.projectMilestone = await w.created('POST /projects/:id/milestones', `${p}/milestones`, {
    title: 'Conformance',
    start_date: '2025-01-01',
    due_date: '2099-12-31',
  })
  await w.write('PUT /projects/:id/milestones/:milestone_id', `${p}/milestones/${ids.projectMilestone}`, {
    description: 'Checks the wire model.',
  })
  const toPromote = await w.created('POST /projects/:id/milestones', `${p}/milestones`, { title: 'Promote me' })
  await w.write('POST /projects/:id/milestones/:milestone_id/promote', `${p}/milestones/${toPromote}/promote`)
  const groupMilestone = await w.created('POST /groups/:id/milestones', `${g}/milestones`, {
    title: 'Conformance (group)',
  })
  await w.write('PUT /groups/:id/milestones/:milestone_id', `${g}/milestones/${groupMilestone}`, {
    state_event: 'close',
  })
}

/** An issue with labels, a milestone, notes, a thread, award emoji, time and a to-do, closed; a second one reordered, cloned and moved. */
async function issues(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const p = `/projects/${ids.projectId}`
  const issue = await w.write('POST /projects/:id/issues', `${p}/issues`, {
    title: 'Check the wire model',
    labels: 'bug',
    description: '- [ ] one\n- [x] two',
  })
  ids.issue = issue.iid as number
  ids.issueId = issue.id as number
  const i = `${p}/issues/${ids.issue}`
  await w.write('PUT /projects/:id/issues/:issue_iid', i, {
    add_labels: 'conformance',
    milestone_id: ids.projectMilestone,
  })
  await w.write('PUT /projects/:id/issues/:issue_iid', i, { state_event: 'close' })
  await w.write('POST /projects/:id/issues/:issue_iid/add_spent_time', `${i}/add_spent_time`, { duration: '1h' })
  await w.write('POST /projects/:id/issues/:issue_iid/time_estimate', `${i}/time_estimate`, { duration: '3h' })
  await w.write('POST /projects/:id/issues/:issue_iid/todo', `${i}/todo`)
  await w.write('POST /projects/:id/issues/:issue_iid/subscribe', `${i}/subscribe`, {}, w.tokens.user)
  await w.write('POST /projects/:id/issues/:issue_iid/unsubscribe', `${i}/unsubscribe`, {}, w.tokens.user)
  await noteable(w, '/projects/:id/issues/:issue_iid', i, i, 'issue')

  const second = `${p}/issues/${(await w.write('POST /projects/:id/issues', `${p}/issues`, { title: 'Travels' })).iid as number}`
  await w.write('PUT /projects/:id/issues/:issue_iid/reorder', `${second}/reorder`, { move_after_id: ids.issueId })
  await w.write('POST /projects/:id/issues/:issue_iid/time_estimate', `${second}/time_estimate`, { duration: '1h' })
  await w.write('POST /projects/:id/issues/:issue_iid/reset_time_estimate', `${second}/reset_time_estimate`)
  await w.write('POST /projects/:id/issues/:issue_iid/reset_spent_time', `${second}/reset_spent_time`)
  await w.write('POST /projects/:id/issues/:issue_iid/clone', `${second}/clone`, {
    to_project_id: 'kestrel/website',
    with_notes: true,
  })
  await w.write('POST /projects/:id/issues/:issue_iid/move', `${second}/move`, { to_project_id: 'kestrel/field-app' })
}

/** A branch with commits, a tag, a protected branch rule, a merge request from it with notes and approvals; a second one merged. */
async function mergeRequests(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const p = `/projects/${ids.projectId}`
  await branchWithCommit(w, 'conformance', 'docs/conformance.md')
  await w.write('POST /projects/:id/repository/commits', `${p}/repository/commits`, {
    branch: 'conformance',
    commit_message: 'Extend the conformance note',
    actions: [{ action: 'update', file_path: 'docs/conformance.md', content: '# Conformance\n\nChecked.\n' }],
  })
  await w.write(
    'PUT /projects/:id/repository/files/:file_path',
    `${p}/repository/files/${encodeURIComponent('docs/conformance.md')}`,
    {
      branch: 'conformance',
      content: '# Conformance\n\nChecked twice.\n',
      commit_message: 'Reword the conformance note',
    },
  )
  await w.write('POST /projects/:id/repository/tags', `${p}/repository/tags`, {
    tag_name: 'conformance-1',
    ref: 'conformance',
    message: 'Conformance',
  })
  await w.write('POST /projects/:id/protected_branches', `${p}/protected_branches`, { name: 'release/*' })
  await w.write(
    'PATCH /projects/:id/protected_branches/:name',
    `${p}/protected_branches/${encodeURIComponent('release/*')}`,
    { allow_force_push: true },
  )

  const mr = await w.write('POST /projects/:id/merge_requests', `${p}/merge_requests`, {
    source_branch: 'conformance',
    target_branch: ids.defaultBranch,
    title: 'Conformance note',
    description: `Closes #${ids.issue}`,
  })
  ids.mr = mr.iid as number
  const m = `${p}/merge_requests/${ids.mr}`
  await w.write('PUT /projects/:id/merge_requests/:merge_request_iid', m, {
    add_labels: 'conformance',
    milestone_id: ids.projectMilestone,
  })
  await w.write('PUT /projects/:id/merge_requests/:merge_request_iid', m, { state_event: 'close' })
  await w.write('PUT /projects/:id/merge_requests/:merge_request_iid', m, { state_event: 'reopen' })
  await w.write('POST /projects/:id/merge_requests/:merge_request_iid/approve', `${m}/approve`, {}, w.tokens.user)
  await w.write('POST /projects/:id/merge_requests/:merge_request_iid/unapprove', `${m}/unapprove`, {}, w.tokens.user)
  await w.write('POST /projects/:id/merge_requests/:merge_request_iid/approve', `${m}/approve`, {}, w.tokens.user)
  await w.write('POST /projects/:id/merge_requests/:merge_request_iid/subscribe', `${m}/subscribe`, {}, w.tokens.user)
  await w.write(
    'POST /projects/:id/merge_requests/:merge_request_iid/unsubscribe',
    `${m}/unsubscribe`,
    {},
    w.tokens.user,
  )
  // The plain user reviews it (after the subscription calls: a reviewer is subscribed already).
  await w.write('PUT /projects/:id/merge_requests/:merge_request_iid', m, { reviewer_ids: [ids.user] })
  await w.write('POST /projects/:id/merge_requests/:merge_request_iid/todo', `${m}/todo`)
  await w.write('POST /projects/:id/merge_requests/:merge_request_iid/time_estimate', `${m}/time_estimate`, {
    duration: '2h',
  })
  await w.write('POST /projects/:id/merge_requests/:merge_request_iid/add_spent_time', `${m}/add_spent_time`, {
    duration: '30m',
  })
  await noteable(w, '/projects/:id/merge_requests/:merge_request_iid', m, m, 'mr')
  // A diff thread on the one line of the merge request's new file, at its latest diff version.
  const [version] = await w.read(`${m}/versions`)
  ids.mrVersion = version.id as number
  await w.write('POST /projects/:id/merge_requests/:merge_request_iid/discussions', `${m}/discussions`, {
    body: 'Is this the right heading?',
    position: {
      base_sha: version.base_commit_sha,
      start_sha: version.start_commit_sha,
      head_sha: version.head_commit_sha,
      position_type: 'text',
      old_path: 'docs/conformance.md',
      new_path: 'docs/conformance.md',
      new_line: 1,
    },
  })
  const thread = `${m}/discussions/${ids.mrDiscussion}`
  await w.write('PUT /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id', thread, {
    resolved: true,
  })
  await draftNotes(w, m)
  await suggestions(w, m)

  await branchWithCommit(w, 'conformance-merge', 'docs/merged.md')
  const merged = await w.write('POST /projects/:id/merge_requests', `${p}/merge_requests`, {
    source_branch: 'conformance-merge',
    target_branch: ids.defaultBranch,
    title: 'Merged note',
  })
  const mm = `${p}/merge_requests/${merged.iid as number}`
  await w.write('POST /projects/:id/merge_requests/:merge_request_iid/reset_time_estimate', `${mm}/reset_time_estimate`)
  await w.write('POST /projects/:id/merge_requests/:merge_request_iid/reset_spent_time', `${mm}/reset_spent_time`)
  await w.write('PUT /projects/:id/merge_requests/:merge_request_iid/merge', `${mm}/merge`)
}

/** The administrator's review of the merge request `m`: a draft kept pending, a reply published. */
async function draftNotes(w: ConformanceWorld, m: string): Promise<void> {
  const drafts = `${m}/draft_notes`
  const create = 'POST /projects/:id/merge_requests/:merge_request_iid/draft_notes'
  w.ids.draftNote = await w.created(create, drafts, { note: 'Pending review' })
  await w.write(
    'PUT /projects/:id/merge_requests/:merge_request_iid/draft_notes/:draft_note_id',
    `${drafts}/${w.ids.draftNote}`,
    {
      note: 'Pending review, reworded',
    },
  )
  const reply = await w.created(create, drafts, { note: 'Agreed', in_reply_to_discussion_id: w.ids.mrDiscussion })
  const published = await w.call(w.tokens.admin, 'PUT', `${drafts}/${reply}/publish`)
  if (published.statusCode !== 204) throw new Error(`setup: publishing a draft answered ${published.statusCode}`)
}

/**
 * Suggestions on the one line of the merge request `m`'s new file, each in a diff thread at the
 * latest version: one applied alone, then (on the version that made) one applied as a batch.
 */
async function suggestions(w: ConformanceWorld, m: string): Promise<void> {
  for (const [route, heading] of [
    ['PUT /suggestions/:id/apply', '# Conformance notes'],
    ['PUT /suggestions/batch_apply', '# Conformance checks'],
  ] as const) {
    const [version] = await w.read(`${m}/versions`)
    const thread = await w.write(
      'POST /projects/:id/merge_requests/:merge_request_iid/discussions',
      `${m}/discussions`,
      {
        body: `\`\`\`suggestion\n${heading}\n\`\`\``,
        position: {
          base_sha: version.base_commit_sha,
          start_sha: version.start_commit_sha,
          head_sha: version.head_commit_sha,
          position_type: 'text',
          old_path: 'docs/conformance.md',
          new_path: 'docs/conformance.md',
          new_line: 1,
        },
      },
    )
    const [note] = thread.notes as Json[]
    const [suggestion] = note.suggestions as Json[]
    if (route === 'PUT /suggestions/:id/apply') await w.write(route, `/suggestions/${suggestion.id as number}/apply`)
    else await w.write(route, '/suggestions/batch_apply', { ids: [suggestion.id], commit_message: 'Apply review' })
  }
}

/** A branch from the default branch with one new file. */
async function branchWithCommit(w: ConformanceWorld, branch: string, file: string): Promise<void> {
  const p = `/projects/${w.ids.projectId}`
  await w.write('POST /projects/:id/repository/branches', `${p}/repository/branches`, {
    branch,
    ref: w.ids.defaultBranch,
  })
  await w.write('POST /projects/:id/repository/files/:file_path', `${p}/repository/files/${encodeURIComponent(file)}`, {
    branch,
    content: `# ${branch}\n`,
    commit_message: `Add ${file}`,
  })
}

/** An epic with labels, two issues, child epics, notes and award emoji, closed. */
async function epics(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const g = '/groups/kestrel'
  const epic = await w.write('POST /groups/:id/epics', `${g}/epics`, { title: 'Wire model', labels: 'bug' })
  ids.epic = epic.iid as number
  ids.epicId = epic.id as number
  const e = `${g}/epics/${ids.epic}`
  await w.write('PUT /groups/:id/epics/:epic_iid', e, { add_labels: 'customer' })
  await w.write('PUT /groups/:id/epics/:epic_iid', e, { state_event: 'close' })
  const first = (await w.write('POST /groups/:id/epics/:epic_iid/issues/:epic_issue_id', `${e}/issues/${ids.issueId}`))
    .id as number
  const second = (
    await w.write('POST /groups/:id/epics/:epic_iid/issues/:epic_issue_id', `${e}/issues/${ids.closedIssueId}`)
  ).id as number
  await w.write('PUT /groups/:id/epics/:epic_iid/issues/:epic_issue_id', `${e}/issues/${second}`, {
    move_before_id: first,
  })
  await w.write('DELETE /groups/:id/epics/:epic_iid/issues/:epic_issue_id', `${e}/issues/${second}`)
  const child = await w.created('POST /groups/:id/epics/:epic_iid/epics', `${e}/epics`, {
    title: 'Wire model, part two',
  })
  const orphan = await w.created('POST /groups/:id/epics', `${g}/epics`, { title: 'Adopted' })
  await w.write('POST /groups/:id/epics/:epic_iid/epics/:child_epic_id', `${e}/epics/${orphan}`)
  await w.write('PUT /groups/:id/epics/:epic_iid/epics/:child_epic_id', `${e}/epics/${orphan}`, {
    move_before_id: child,
  })
  await w.write('DELETE /groups/:id/epics/:epic_iid/epics/:child_epic_id', `${e}/epics/${orphan}`)
  await w.write('POST /groups/:id/epics/:epic_iid/todo', `${e}/todo`)
  await w.write('POST /groups/:id/epics/:epic_iid/subscribe', `${e}/subscribe`, {}, w.tokens.user)
  await w.write('POST /groups/:id/epics/:epic_iid/unsubscribe', `${e}/unsubscribe`, {}, w.tokens.user)
  await noteable(w, '/groups/:id/epics/:epic_id', `${g}/epics/${ids.epicId}`, e, 'epic', '/groups/:id/epics/:epic_iid')
}

/** A snippet with notes and award emoji. */
async function snippets(w: ConformanceWorld): Promise<void> {
  const p = `/projects/${w.ids.projectId}`
  w.ids.snippet = await w.created('POST /projects/:id/snippets', `${p}/snippets`, {
    title: 'Probe',
    file_name: 'probe.sh',
    content: 'echo ok\n',
    visibility: 'private',
  })
  const s = `${p}/snippets/${w.ids.snippet}`
  await w.write('PUT /projects/:id/snippets/:snippet_id', s, { description: 'Prints ok.' })
  await noteable(w, '/projects/:id/snippets/:snippet_id', s, s, 'snippet')
}

/**
 * A note (edited), a quick-action-only note (202), a thread with a reply (edited), award emoji on
 * the item and on the note; their ids go into the world as `<key>Note`, `<key>Discussion`…
 */
async function noteable(
  w: ConformanceWorld,
  base: string,
  url: string,
  awardUrl: string,
  key: string,
  awardBase = base,
): Promise<void> {
  const { ids } = w
  const note = await w.write(`POST ${base}/notes`, `${url}/notes`, { body: 'Looks right to me.' })
  ids[`${key}Note`] = note.id as number
  await w.write(`PUT ${base}/notes/:note_id`, `${url}/notes/${note.id as number}`, {
    body: 'Looks right to me, checked twice.',
  })
  if (key !== 'snippet') await w.write(`POST ${base}/notes`, `${url}/notes`, { body: '/label ~customer' })
  const thread = await w.write(`POST ${base}/discussions`, `${url}/discussions`, {
    body: 'Should the schema be stricter?',
  })
  ids[`${key}Discussion`] = thread.id as string
  const replies = `${url}/discussions/${thread.id as string}/notes`
  const reply = await w.created(`POST ${base}/discussions/:discussion_id/notes`, replies, {
    body: 'It is strict already.',
  })
  await w.write(`PUT ${base}/discussions/:discussion_id/notes/:note_id`, `${replies}/${reply}`, {
    body: 'It is strict.',
  })
  ids[`${key}Award`] = await w.created(`POST ${awardBase}/award_emoji`, `${awardUrl}/award_emoji`, { name: 'thumbsup' })
  const noteAwards = `${awardUrl}/notes/${note.id as number}/award_emoji`
  ids[`${key}NoteAward`] = await w.created(`POST ${awardBase}/notes/:note_id/award_emoji`, noteAwards, { name: 'tada' })
}

/** Variables, lint, runners, a pipeline with its jobs acted on. */
async function ci(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const p = `/projects/${ids.projectId}`
  ids.variable = (
    await w.write('POST /projects/:id/variables', `${p}/variables`, { key: 'CONFORMANCE', value: 'checked-value' })
  ).key as string
  await w.write('PUT /projects/:id/variables/:key', `${p}/variables/${ids.variable}`, {
    value: 'checked-again',
    protected: true,
  })
  await w.write('POST /projects/:id/ci/lint', `${p}/ci/lint`, { content: CI_CONTENT, include_jobs: true })
  await w.write('POST /projects/:id/ci/lint', `${p}/ci/lint`, { content: CI_CONTENT, dry_run: true })
  await w.write('POST /ci/lint', '/ci/lint', { content: CI_CONTENT, include_merged_yaml: true })
  await w.write('POST /ci/lint', '/ci/lint', { content: 'test: [' })

  await w.write('PUT /runners/:id', `/runners/${ids.runner}`, { description: 'kestrel-deploy-1' })
  const registration = (await w.read(p)).runners_token as string
  const runner = await w.write('POST /runners', '/runners', { token: registration, description: 'conformance runner' })
  await w.write('POST /runners/reset_authentication_token', '/runners/reset_authentication_token', {
    token: runner.token as string,
  })
  await w.write(
    'POST /runners/:id/reset_authentication_token',
    `/runners/${runner.id as number}/reset_authentication_token`,
  )
  await w.write('POST /projects/:id/runners', `/projects/kestrel%2Fwebsite/runners`, { runner_id: runner.id as number })
  await w.write('POST /projects/:id/runners/reset_registration_token', `${p}/runners/reset_registration_token`)
  await w.write('POST /groups/:id/runners/reset_registration_token', '/groups/kestrel/runners/reset_registration_token')
  await w.write('POST /runners/reset_registration_token', '/runners/reset_registration_token')

  const pipeline = await w.created('POST /projects/:id/pipeline', `${p}/pipeline`, { ref: 'conformance' })
  const job = `${p}/jobs/${(await w.first(`${p}/pipelines/${pipeline}/jobs`)).id as number}`
  await w.write('POST /projects/:id/jobs/:job_id/cancel', `${job}/cancel`)
  await w.write('POST /projects/:id/pipelines/:pipeline_id/cancel', `${p}/pipelines/${pipeline}/cancel`)
  await w.write('POST /projects/:id/jobs/:job_id/erase', `${job}/erase`)
  await w.write('POST /projects/:id/jobs/:job_id/retry', `${job}/retry`)
  await w.write('POST /projects/:id/pipelines/:pipeline_id/retry', `${p}/pipelines/${pipeline}/retry`)
  const manual = await w.first(`${p}/jobs?scope[]=manual`)
  await w.write('POST /projects/:id/jobs/:job_id/play', `${p}/jobs/${manual.id as number}/play`)
}

/** Environments and deployments, clusters, Pages, error tracking, vulnerabilities. */
async function operations(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const p = `/projects/${ids.projectId}`
  const env = await w.created('POST /projects/:id/environments', `${p}/environments`, {
    name: 'conformance',
    external_url: 'https://conformance.example',
  })
  await w.write('PUT /projects/:id/environments/:environment_id', `${p}/environments/${env}`, {
    description: 'Checks the wire model.',
  })
  const deployment = await w.created('POST /projects/:id/deployments', `${p}/deployments`, {
    environment: 'conformance',
    sha: ids.commit,
    ref: ids.defaultBranch,
    tag: false,
    status: 'running',
  })
  await w.write('PUT /projects/:id/deployments/:deployment_id', `${p}/deployments/${deployment}`, { status: 'success' })
  await w.write('POST /projects/:id/environments/:environment_id/stop', `${p}/environments/${env}/stop`)
  await w.write('DELETE /projects/:id/environments/review_apps', `${p}/environments/review_apps`)
  await w.write('POST /projects/:id/protected_environments', `${p}/protected_environments`, {
    name: 'conformance',
    deploy_access_levels: [{ access_level: 40 }],
  })

  ids.cluster = await w.created('POST /projects/:id/clusters/user', `${p}/clusters/user`, {
    name: 'conformance',
    platform_kubernetes_attributes: { api_url: 'https://kubernetes.example.com', token: 'conformance-token' },
  })
  await w.write('PUT /projects/:id/clusters/:cluster_id', `${p}/clusters/${ids.cluster}`, {
    environment_scope: 'review/*',
  })
  const pages = `/projects/${ids.pagesProject}/pages/domains`
  await w.write('POST /projects/:id/pages/domains', pages, { domain: 'conformance.kestrel.example' })
  await w.write('PUT /projects/:id/pages/domains/:domain', `${pages}/conformance.kestrel.example`, {
    auto_ssl_enabled: true,
  })
  const tracking = `/projects/${ids.trackedProject}/error_tracking`
  const key = await w.created('POST /projects/:id/error_tracking/client_keys', `${tracking}/client_keys`)
  await w.write('DELETE /projects/:id/error_tracking/client_keys/:key_id', `${tracking}/client_keys/${key}`)
  await w.write('PATCH /projects/:id/error_tracking/settings', `${tracking}/settings`, { active: true })
  await w.write('PUT /projects/:id/error_tracking/settings', `${tracking}/settings`, { active: true, integrated: true })

  const v = await w.first(`${p}/vulnerabilities`, (x) => x.state === 'opened')
  for (const action of ['confirm', 'resolve', 'revert', 'dismiss']) {
    await w.write(`POST /vulnerabilities/:id/${action}`, `/vulnerabilities/${v.id as number}/${action}`)
  }
  const finding = await w.first(`${p}/vulnerability_findings`, (f) => f.vulnerability_id === null)
  await w.write('POST /projects/:id/vulnerabilities', `${p}/vulnerabilities`, { finding_id: finding.id as number })
}

/** Settings, replication nodes, to-dos, storage moves (last: a move makes its repositories read-only while it runs). */
async function administration(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  await w.write('PUT /application/settings', '/application/settings', { max_attachment_size: 100 })
  const node = await w.created('POST /geo_nodes', '/geo_nodes', {
    name: 'conformance-node',
    url: 'https://geo.example.com/',
  })
  await w.write('PUT /geo_nodes/:id', `/geo_nodes/${node}`, {
    name: 'conformance-node',
    url: 'https://geo.example.com/',
    files_max_capacity: 20,
  })
  await w.write('POST /geo_nodes/:id/repair', `/geo_nodes/${node}/repair`)

  ids.projectAuditEvent = (await w.first(`/projects/${ids.projectId}/audit_events`)).id as number
  const todo = await w.first('/todos')
  await w.write('POST /todos/:id/mark_as_done', `/todos/${todo.id as number}/mark_as_done`)

  const destination = { destination_storage_name: 'archive' }
  await w.write(
    'POST /projects/:id/repository_storage_moves',
    `/projects/${ids.sandboxProject}/repository_storage_moves`,
    destination,
  )
  ids.snippetMove = await w.created(
    'POST /snippets/:id/repository_storage_moves',
    `/snippets/${ids.snippet}/repository_storage_moves`,
    destination,
  )
  ids.groupMove = await w.created(
    'POST /groups/:id/repository_storage_moves',
    '/groups/kestrel/repository_storage_moves',
    destination,
  )
}

/** Ids of the resource events the fixtures' writes recorded. */
async function discoverEvents(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const items = [
    ['issue', `/projects/${ids.projectId}/issues/${ids.issue}`, ['label', 'milestone', 'state']],
    ['mr', `/projects/${ids.projectId}/merge_requests/${ids.mr}`, ['label', 'milestone', 'state']],
    ['epic', `/groups/kestrel/epics/${ids.epicId}`, ['label', 'state']],
  ] as const
  for (const [key, url, kinds] of items) {
    for (const kind of kinds) {
      ids[`${key}${kind[0].toUpperCase()}${kind.slice(1)}Event`] = (await w.first(`${url}/resource_${kind}_events`))
        .id as number
    }
  }
}
