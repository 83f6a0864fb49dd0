/**
 * The conformance world's fixtures for issue 11's new families: what the demo lacks of releases,
 * boards, wikis, badges, pipeline schedules, group CI variables and access tokens, made through
 * the API by the administrator. Called by buildConformanceWorld.
 */
import type { ConformanceWorld } from './conformance-world'

/** Builds every family's fixtures. */
export async function forgeFamilies(w: ConformanceWorld): Promise<void> {
  await releases(w)
  await boards(w)
  await wikis(w)
  await badges(w)
  await groupVariables(w)
  await groupAccessTokens(w)
  await protectedTags(w)
  await commitStatuses(w)
  await hooks(w)
  await pipelineSchedules(w)
  await commitChanges(w)
  await issueLinks(w)
  await forks(w)
  await commitNotes(w)
}

/** A release made with its tag and a link, updated and its link edited; a second one deleted. */
async function releases(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const p = `/projects/${ids.projectId}`
  ids.release = 'conformance-1.0'
  await w.write('POST /projects/:id/releases', `${p}/releases`, {
    tag_name: ids.release,
    ref: ids.defaultBranch,
    description: 'Conformance release',
    assets: { links: [{ name: 'Binary', url: 'https://example.com/bin', direct_asset_path: '/bin/app' }] },
  })
  await w.write('PUT /projects/:id/releases/:tag_name', `${p}/releases/${ids.release}`, { name: 'Conformance 1.0' })
  const links = `${p}/releases/${ids.release}/assets/links`
  const doomed = await w.created('POST /projects/:id/releases/:tag_name/assets/links', links, {
    name: 'Runbook',
    url: 'https://example.com/runbook',
    link_type: 'runbook',
  })
  await w.write('PUT /projects/:id/releases/:tag_name/assets/links/:link_id', `${links}/${doomed}`, { name: 'Ops' })
  await w.write('DELETE /projects/:id/releases/:tag_name/assets/links/:link_id', `${links}/${doomed}`)
  ids.releaseLink = (await w.first(links)).id as number
  await w.write('POST /projects/:id/releases', `${p}/releases`, { tag_name: 'conformance-0.1', ref: ids.defaultBranch })
  await w.write('DELETE /projects/:id/releases/:tag_name', `${p}/releases/conformance-0.1`)
}

/** A board scoped to a milestone, an assignee and a label, with two label lists, one moved. */
async function boards(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const p = `/projects/${ids.projectId}`
  ids.board = await w.created('POST /projects/:id/boards', `${p}/boards`, { name: 'Conformance board' })
  const [first, second] = (await w.read(`${p}/labels?per_page=2`)) as Record<string, unknown>[]
  const milestone = await w.first(`${p}/milestones`)
  await w.write('PUT /projects/:id/boards/:board_id', `${p}/boards/${ids.board}`, {
    milestone_id: milestone.id as number,
    assignee_id: ids.user,
    labels: String(first.name),
    weight: 2,
  })
  const lists = `${p}/boards/${ids.board}/lists`
  ids.boardList = await w.created('POST /projects/:id/boards/:board_id/lists', lists, { label_id: first.id as number })
  await w.write('POST /projects/:id/boards/:board_id/lists', lists, { label_id: second.id as number })
  await w.write('PUT /projects/:id/boards/:board_id/lists/:list_id', `${lists}/${ids.boardList}`, { position: 1 })
}

/** Two wiki pages, one of them renamed. */
async function wikis(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const p = `/projects/${ids.projectId}/wikis`
  await w.write('POST /projects/:id/wikis', p, { title: 'Onboarding', content: '# Welcome\n' })
  await w.write('POST /projects/:id/wikis', p, { title: 'Runbooks/Draft', content: 'Draft', format: 'asciidoc' })
  const renamed = await w.write('PUT /projects/:id/wikis/:slug', `${p}/${encodeURIComponent('Runbooks/Draft')}`, {
    title: 'On call',
  })
  ids.wikiPage = String(renamed.slug)
}

/** A project badge with placeholders, renamed; a group badge; a third badge deleted. */
async function badges(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const p = `/projects/${ids.projectId}/badges`
  const g = `/groups/${encodeURIComponent(String(ids.group))}/badges`
  const urls = {
    link_url: 'https://ci.example.com/%{project_path}',
    image_url: 'https://ci.example.com/%{default_branch}.svg',
  }
  ids.projectBadge = await w.created('POST /projects/:id/badges', p, { ...urls, name: 'Build' })
  await w.write('PUT /projects/:id/badges/:badge_id', `${p}/${ids.projectBadge}`, { name: 'Pipeline' })
  ids.groupBadge = await w.created('POST /groups/:id/badges', g, { ...urls, name: 'Docs' })
  await w.write('PUT /groups/:id/badges/:badge_id', `${g}/${ids.groupBadge}`, {
    image_url: 'https://ci.example.com/d.svg',
  })
  const doomed = await w.created('POST /projects/:id/badges', p, urls)
  // A removal answers 204 without a body: nothing for the table to check.
  const removed = await w.call(w.tokens.admin, 'DELETE', `${p}/${doomed}`)
  if (removed.statusCode !== 204) throw new Error(`setup: DELETE ${p}/${doomed} answered ${removed.statusCode}`)
}

/** A group variable, changed; a second one, scoped, deleted. */
async function groupVariables(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const g = `/groups/${encodeURIComponent(String(ids.group))}/variables`
  ids.groupVariable = String(
    (await w.write('POST /groups/:id/variables', g, { key: 'CONFORMANCE_REGISTRY', value: 'registry.example.com' }))
      .key,
  )
  await w.write('PUT /groups/:id/variables/:key', `${g}/${ids.groupVariable}`, { protected: true })
  await w.write('POST /groups/:id/variables', g, { key: 'DOOMED', value: 'x', environment_scope: 'review/*' })
  const removed = await w.call(w.tokens.admin, 'DELETE', `${g}/DOOMED`)
  if (removed.statusCode !== 204) throw new Error(`setup: DELETE ${g}/DOOMED answered ${removed.statusCode}`)
}

/** A group access token for Reporters, rotated (the rotated one is the fixture). */
async function groupAccessTokens(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const g = `/groups/${encodeURIComponent(String(ids.group))}/access_tokens`
  const bot = await w.created('POST /groups/:id/access_tokens', g, {
    name: 'group bot',
    scopes: ['read_api'],
    access_level: 20,
  })
  ids.groupToken = await w.created('POST /groups/:id/access_tokens/:token_id/rotate', `${g}/${bot}/rotate`)
}

/** A wildcard protected for Maintainers, and a name for Developers that is unprotected again. */
async function protectedTags(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const p = `/projects/${ids.projectId}/protected_tags`
  ids.protectedTag = encodeURIComponent(
    String((await w.write('POST /projects/:id/protected_tags', p, { name: 'conformance-*' })).name),
  )
  await w.write('POST /projects/:id/protected_tags', p, { name: 'nightly', create_access_level: 30 })
  const removed = await w.call(w.tokens.admin, 'DELETE', `${p}/nightly`)
  if (removed.statusCode !== 204) throw new Error(`setup: DELETE ${p}/nightly answered ${removed.statusCode}`)
}

/** An external status of the default branch's head, posted running and then finished. */
async function commitStatuses(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const url = `/projects/${ids.projectId}/statuses/${ids.commit}`
  const fields = { name: 'conformance/external', target_url: 'https://ci.example.com/1', description: 'External CI' }
  await w.write('POST /projects/:id/statuses/:sha', url, { ...fields, state: 'running' })
  await w.write('POST /projects/:id/statuses/:sha', url, { ...fields, state: 'success', coverage: 91.5 })
}

/** A schedule on the default branch, edited, with a variable added and changed, run once. */
async function pipelineSchedules(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const base = `/projects/${ids.projectId}/pipeline_schedules`
  ids.pipelineSchedule = await w.created('POST /projects/:id/pipeline_schedules', base, {
    description: 'Conformance nightly',
    ref: ids.defaultBranch,
    cron: '0 2 * * 1-5',
    cron_timezone: 'Europe/Berlin',
  })
  const one = `${base}/${ids.pipelineSchedule}`
  await w.write('PUT /projects/:id/pipeline_schedules/:pipeline_schedule_id', one, { description: 'Weeknights' })
  await w.write('POST /projects/:id/pipeline_schedules/:pipeline_schedule_id/variables', `${one}/variables`, {
    key: 'NIGHTLY',
    value: '1',
  })
  await w.write(
    'PUT /projects/:id/pipeline_schedules/:pipeline_schedule_id/variables/:key',
    `${one}/variables/NIGHTLY`,
    {
      value: '2',
      variable_type: 'file',
    },
  )
  await w.write('POST /projects/:id/pipeline_schedules/:pipeline_schedule_id/take_ownership', `${one}/take_ownership`)
  const played = await w.call(w.tokens.admin, 'POST', `${one}/play`)
  if (played.statusCode !== 201) throw new Error(`setup: play answered ${played.statusCode} ${played.body}`)
}

/**
 * A project, a group and a system hook, each changed; none subscribes to an event the fixtures
 * cause, so nothing is delivered. The receiver's name need not resolve: deliveries check it.
 */
async function hooks(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const quiet = { push_events: false, token: 'conformance-secret', custom_headers: [{ key: 'X-Env', value: 'ci' }] }
  const p = `/projects/${ids.projectId}/hooks`
  const g = `/groups/${encodeURIComponent(String(ids.group))}/hooks`
  ids.projectHook = await w.created('POST /projects/:id/hooks', p, { url: 'https://hooks.example.com/p', ...quiet })
  await w.write('PUT /projects/:id/hooks/:hook_id', `${p}/${ids.projectHook}`, { name: 'Conformance' })
  ids.groupHook = await w.created('POST /groups/:id/hooks', g, { url: 'https://hooks.example.com/g', ...quiet })
  await w.write('PUT /groups/:id/hooks/:hook_id', `${g}/${ids.groupHook}`, { description: 'Group receiver' })
  ids.systemHook = await w.created('POST /hooks', '/hooks', {
    url: 'https://hooks.example.com/s',
    push_events: false,
    repository_update_events: false,
    url_variables: [{ key: 'tenant', value: 'acme' }],
  })
  await w.write('PUT /hooks/:hook_id', `/hooks/${ids.systemHook}`, { name: 'Audit' })
}

/** A commit on a branch of its own, cherry-picked onto a second branch, then reverted there. */
async function commitChanges(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const p = `/projects/${ids.projectId}/repository`
  for (const branch of ['conformance-pick-source', 'conformance-pick-target']) {
    const made = await w.call(w.tokens.admin, 'POST', `${p}/branches`, { branch, ref: ids.defaultBranch })
    if (made.statusCode !== 201) throw new Error(`setup: POST ${p}/branches answered ${made.statusCode}`)
  }
  const made = await w.call(w.tokens.admin, 'POST', `${p}/commits`, {
    branch: 'conformance-pick-source',
    commit_message: 'Add the picked file',
    actions: [{ action: 'create', file_path: 'conformance-picked.txt', content: 'picked\n' }],
  })
  if (made.statusCode !== 201) throw new Error(`setup: POST ${p}/commits answered ${made.statusCode}`)
  const sha = String((JSON.parse(made.body) as { id: string }).id)
  const target = { branch: 'conformance-pick-target' }
  const picked = await w.write(
    'POST /projects/:id/repository/commits/:sha/cherry_pick',
    `${p}/commits/${sha}/cherry_pick`,
    target,
  )
  await w.write('POST /projects/:id/repository/commits/:sha/revert', `${p}/commits/${String(picked.id)}/revert`, target)
}

/** The conformance issue relates to one issue and is blocked by another; a third link is removed. */
async function issueLinks(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const p = `/projects/${ids.projectId}`
  const links = `${p}/issues/${ids.issue}/links`
  for (const [title, link_type] of [
    ['Related to the wire model', 'relates_to'],
    ['Blocks the wire model', 'is_blocked_by'],
    ['Linked for a moment', 'blocks'],
  ]) {
    const issue = await w.write('POST /projects/:id/issues', `${p}/issues`, { title })
    await w.write('POST /projects/:id/issues/:issue_iid/links', links, {
      target_project_id: ids.projectId,
      target_issue_iid: issue.iid as number,
      link_type,
    })
  }
  const doomed = await w.first(links, (i) => i.title === 'Linked for a moment')
  await w.write(
    'DELETE /projects/:id/issues/:issue_iid/links/:issue_link_id',
    `${links}/${String(doomed.issue_link_id)}`,
  )
  ids.issueLink = (await w.first(links)).issue_link_id as number
}

/** The conformance project forked by the administrator, and another project linked to it as a fork. */
async function forks(w: ConformanceWorld): Promise<void> {
  const p = `/projects/${w.ids.projectId}`
  await w.write('POST /projects/:id/fork', `${p}/fork`, { name: 'Conformance fork', path: 'conformance-fork' })
  const linked = await w.created('POST /projects', '/projects', { name: 'Conformance linked fork' })
  await w.write('POST /projects/:id/fork/:forked_from_id', `/projects/${linked}/fork/${w.ids.projectId}`)
}

/** A comment on the default branch's head and a thread on it, replied to and the reply edited. */
async function commitNotes(w: ConformanceWorld): Promise<void> {
  const { ids } = w
  const c = `/projects/${ids.projectId}/repository/commits/${ids.commit}`
  await w.write('POST /projects/:id/repository/commits/:sha/comments', `${c}/comments`, { note: 'Conformance comment' })
  const thread = await w.write('POST /projects/:id/repository/commits/:sha/discussions', `${c}/discussions`, {
    body: 'Conformance commit thread',
  })
  ids.commitDiscussion = thread.id as string
  const reply = await w.write(
    'POST /projects/:id/repository/commits/:sha/discussions/:discussion_id/notes',
    `${c}/discussions/${ids.commitDiscussion}/notes`,
    { body: 'A reply' },
  )
  await w.write(
    'PUT /projects/:id/repository/commits/:sha/discussions/:discussion_id/notes/:note_id',
    `${c}/discussions/${ids.commitDiscussion}/notes/${reply.id as number}`,
    { body: 'An edited reply' },
  )
}
