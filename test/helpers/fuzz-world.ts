import { seedSecurityFindings } from '../../src/server/modules/vulnerabilities/service'
import { injectTransport, TestRunner } from './runner'
import { copyDataDir, makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from './server'

/**
 * A small instance with one of everything a route can name, made through the API as root, so
 * the fuzz suite can fill each path parameter with an object that exists: a group with a
 * subgroup and a public project with a repository (branches, a tag, a CI file), an issue, a merge
 * request, an epic and a snippet with notes, discussions and reactions, labels and milestones, a
 * release with an asset link, a board with a list, a wiki page, project and group badges,
 * environments with a deployment, a runner with a pipeline and its job, a cluster, a Pages domain,
 * CI variables, tokens, a vulnerability, an alert integration and a geo node.
 */
export interface FuzzWorld {
  readonly admin: SeededUser
  readonly victim: SeededUser
  readonly groupPath: string
  readonly projectPath: string
  /** Valid values by name (`project`, `issueNote`, `branch`…); see `validParam`. */
  readonly ids: Readonly<Record<string, string>>
  /** Seeding steps that did not answer 2xx (the suite reports them; a few are optional). */
  readonly missed: readonly string[]
}

type Json = Record<string, unknown>

/** A server holding the fuzz world. */
export interface FuzzServer {
  readonly s: TestServer
  readonly world: FuzzWorld
}

/**
 * One fuzz world for two suites that each need it as built, so it is built once: `first()` starts
 * a server, builds the world, lets the background work it started (deliveries, pipelines) settle
 * and copies the data dir; `second()` starts a server on that copy, whatever the first suite did
 * to its own (or, when the first never ran, builds its own). Each caller closes its server; the second
 * is started after the first is closed.
 * The failed authentication ban is off: hostile credentials among the inputs would get 127.0.0.1
 * banned for an hour, and every later probe would meet a 429, not its route.
 */
export function fuzzWorldTwice(): { first(): Promise<FuzzServer>; second(): Promise<FuzzServer> } {
  let built: { readonly world: FuzzWorld; readonly copy: string } | undefined
  return {
    async first() {
      const s = await makeServer({ failedAuthBan: { enabled: false } })
      const world = await buildFuzzWorld(s)
      await new Promise((resolve) => setTimeout(resolve, 200))
      built = { world, copy: copyDataDir(s) }
      return { s, world }
    },
    async second() {
      if (!built) {
        // The first suite was filtered out (vitest -t): this one builds its own.
        const s = await makeServer({ failedAuthBan: { enabled: false } })
        return { s, world: await buildFuzzWorld(s) }
      }
      const s = await makeServer({ failedAuthBan: { enabled: false }, dataDir: built.copy })
      return { s, world: built.world }
    },
  }
}

/** Builds the world; every object's id or name lands in `ids`. */
export async function buildFuzzWorld(s: TestServer): Promise<FuzzWorld> {
  const admin = seedUser(s, { username: 'fuzz-admin', admin: true })
  const victim = seedUser(s, { username: 'fuzz-victim' })
  const ids: Record<string, string> = { admin: String(admin.user.id), user: String(victim.user.id) }
  const missed: string[] = []

  const call = async (
    method: string,
    url: string,
    payload?: unknown,
    token = ROOT_TOKEN,
  ): Promise<Json | Json[] | null> => {
    const res = await s.request(token, { method: method as 'POST', url: `/api/v4${url}`, payload: payload as Json })
    if (res.statusCode >= 300) {
      missed.push(`${method} ${url} → ${res.statusCode} ${res.body.slice(0, 160)}`)
      return null
    }
    return res.body === '' ? {} : (JSON.parse(res.body) as Json | Json[])
  }
  const keep = (name: string, value: unknown): void => {
    if (value !== undefined && value !== null) ids[name] = String(value)
  }
  const one = (value: Json | Json[] | null): Json => (Array.isArray(value) ? (value[0] ?? {}) : (value ?? {}))

  await call('PUT', '/application/settings', { pages_enabled: true })
  const group = one(await call('POST', '/groups', { name: 'fuzz', path: 'fuzz', visibility: 'public' }))
  keep('group', group.id)
  const other = one(await call('POST', '/groups', { name: 'fuzz-other', path: 'fuzz-other', visibility: 'public' }))
  keep('otherGroup', other.id)
  keep('subgroup', one(await call('POST', '/groups', { name: 'sub', path: 'sub', parent_id: group.id })).id)
  const project = one(
    await call('POST', '/projects', {
      name: 'target',
      path: 'target',
      namespace_id: group.id,
      visibility: 'public',
      initialize_with_readme: true,
    }),
  )
  keep('project', project.id)
  const p = `/projects/${ids.project}`
  const g = `/groups/${ids.group}`
  await call('POST', `${p}/members`, { user_id: victim.user.id, access_level: 30 })

  const ci =
    'stages: [test, deploy]\ntest:\n  stage: test\n  script: [echo ok]\ndeploy:\n  stage: deploy\n  script: [echo deploy]\n  environment: production\n  when: manual\n'
  const files = [
    { action: 'create', file_path: '.gitlab-ci.yml', content: ci },
    { action: 'create', file_path: 'src/a.txt', content: 'a\n' },
    { action: 'create', file_path: 'docs/guide.md', content: '# Guide\n' },
  ]
  const main = one(
    await call('POST', `${p}/repository/commits`, { branch: 'main', commit_message: 'Add files', actions: files }),
  )
  keep('sha', main.id)
  await call('POST', `${p}/repository/branches`, { branch: 'feature', ref: 'main' })
  await call('POST', `${p}/repository/commits`, {
    branch: 'feature',
    commit_message: 'Feature work',
    actions: [{ action: 'update', file_path: 'src/a.txt', content: 'b\n' }],
  })
  await call('POST', `${p}/repository/branches`, { branch: 'doomed', ref: 'main' })
  keep('branch', 'feature')
  keep(
    'tag',
    one(await call('POST', `${p}/repository/tags`, { tag_name: 'v1.0.0', ref: 'main', message: 'First' })).name,
  )
  const release = one(
    await call('POST', `${p}/releases`, {
      tag_name: ids.tag,
      assets: { links: [{ name: 'Binary', url: 'https://example.com/bin', direct_asset_path: '/bin/app' }] },
    }),
  )
  keep('releaseLink', (release.assets as { links?: Json[] } | undefined)?.links?.[0]?.id)
  const tree = await call('GET', `${p}/repository/tree?ref=main`)
  keep('blob', (Array.isArray(tree) ? tree.find((e) => e.type === 'blob') : undefined)?.id)

  const label = one(await call('POST', `${p}/labels`, { name: 'bug', color: '#ff0000' }))
  keep('projectLabel', label.id)
  keep('groupLabel', one(await call('POST', `${g}/labels`, { name: 'area', color: '#00ff00' })).id)
  keep('projectMilestone', one(await call('POST', `${p}/milestones`, { title: 'v1' })).id)
  keep('wikiPage', one(await call('POST', `${p}/wikis`, { title: 'Fuzz page', content: 'x' })).slug)
  keep('board', one(await call('POST', `${p}/boards`, { name: 'Fuzz board' })).id)
  const badge = { link_url: 'https://ci.example.com/%{project_path}', image_url: 'https://ci.example.com/b.svg' }
  keep('projectBadge', one(await call('POST', `${p}/badges`, badge)).id)
  keep('groupBadge', one(await call('POST', `${g}/badges`, badge)).id)
  await call('POST', `${p}/boards`, { name: 'Second board' })
  keep('boardList', one(await call('POST', `${p}/boards/${ids.board}/lists`, { label_id: ids.projectLabel })).id)
  keep('groupMilestone', one(await call('POST', `${g}/milestones`, { title: 'g1' })).id)

  const issue = one(
    await call('POST', `${p}/issues`, {
      title: 'Fuzz issue',
      labels: 'bug',
      assignee_ids: [admin.user.id],
      milestone_id: ids.projectMilestone,
    }),
  )
  keep('issue', issue.iid)
  keep('issueId', issue.id)
  await call('PUT', `${p}/issues/${ids.issue}`, { labels: 'bug,other', state_event: 'close' })
  await call('PUT', `${p}/issues/${ids.issue}`, { state_event: 'reopen' })
  keep('issueNote', one(await call('POST', `${p}/issues/${ids.issue}/notes`, { body: 'A note @fuzz-admin' })).id)
  const issueDiscussion = one(await call('POST', `${p}/issues/${ids.issue}/discussions`, { body: 'A thread' }))
  keep('issueDiscussion', issueDiscussion.id)
  keep('issueAward', one(await call('POST', `${p}/issues/${ids.issue}/award_emoji`, { name: 'thumbsup' })).id)
  keep(
    'issueNoteAward',
    one(await call('POST', `${p}/issues/${ids.issue}/notes/${ids.issueNote}/award_emoji`, { name: 'tada' })).id,
  )
  const labelEvents = await call('GET', `${p}/issues/${ids.issue}/resource_label_events`)
  keep('labelEvent', one(labelEvents).id)
  keep('stateEvent', one(await call('GET', `${p}/issues/${ids.issue}/resource_state_events`)).id)
  keep('milestoneEvent', one(await call('GET', `${p}/issues/${ids.issue}/resource_milestone_events`)).id)

  const mr = one(
    await call('POST', `${p}/merge_requests`, {
      source_branch: 'feature',
      target_branch: 'main',
      title: 'Fuzz MR',
      labels: 'bug',
    }),
  )
  keep('mr', mr.iid)
  keep('mrNote', one(await call('POST', `${p}/merge_requests/${ids.mr}/notes`, { body: 'MR note' })).id)
  keep('mrDiscussion', one(await call('POST', `${p}/merge_requests/${ids.mr}/discussions`, { body: 'MR thread' })).id)
  keep('mrAward', one(await call('POST', `${p}/merge_requests/${ids.mr}/award_emoji`, { name: 'thumbsup' })).id)
  keep(
    'mrNoteAward',
    one(await call('POST', `${p}/merge_requests/${ids.mr}/notes/${ids.mrNote}/award_emoji`, { name: 'tada' })).id,
  )

  const epic = one(await call('POST', `${g}/epics`, { title: 'Fuzz epic', labels: 'area' }))
  keep('epic', epic.iid)
  keep('epicId', epic.id)
  const child = one(await call('POST', `${g}/epics`, { title: 'Child epic' }))
  keep('childEpic', child.id)
  await call('POST', `${g}/epics/${ids.epic}/epics/${ids.childEpic}`)
  keep('epicIssue', one(await call('POST', `${g}/epics/${ids.epic}/issues/${ids.issueId}`)).id)
  keep('epicNote', one(await call('POST', `${g}/epics/${ids.epicId}/notes`, { body: 'Epic note' })).id)
  keep('epicDiscussion', one(await call('POST', `${g}/epics/${ids.epicId}/discussions`, { body: 'Epic thread' })).id)
  keep('epicAward', one(await call('POST', `${g}/epics/${ids.epic}/award_emoji`, { name: 'thumbsup' })).id)
  keep(
    'epicNoteAward',
    one(await call('POST', `${g}/epics/${ids.epic}/notes/${ids.epicNote}/award_emoji`, { name: 'tada' })).id,
  )

  keep(
    'snippet',
    one(
      await call('POST', `${p}/snippets`, {
        title: 'Fuzz snippet',
        file_name: 'a.txt',
        content: 'x',
        visibility: 'public',
      }),
    ).id,
  )
  keep('snippetNote', one(await call('POST', `${p}/snippets/${ids.snippet}/notes`, { body: 'Snippet note' })).id)
  keep(
    'snippetDiscussion',
    one(await call('POST', `${p}/snippets/${ids.snippet}/discussions`, { body: 'Snippet thread' })).id,
  )
  keep('snippetAward', one(await call('POST', `${p}/snippets/${ids.snippet}/award_emoji`, { name: 'thumbsup' })).id)
  keep(
    'snippetNoteAward',
    one(await call('POST', `${p}/snippets/${ids.snippet}/notes/${ids.snippetNote}/award_emoji`, { name: 'tada' })).id,
  )

  keep(
    'environment',
    one(await call('POST', `${p}/environments`, { name: 'staging', external_url: 'https://staging.example.com' })).id,
  )
  keep(
    'deployment',
    one(
      await call('POST', `${p}/deployments`, {
        environment: 'staging',
        sha: ids.sha,
        ref: 'main',
        tag: false,
        status: 'success',
      }),
    ).id,
  )
  await call('POST', `${p}/protected_environments`, { name: 'staging', deploy_access_levels: [{ access_level: 40 }] })
  keep('protectedEnvironment', 'staging')
  keep(
    'cluster',
    one(
      await call('POST', `${p}/clusters/user`, {
        name: 'fuzz-cluster',
        platform_kubernetes_attributes: { api_url: 'https://k8s.example.com', token: 'secret-token' },
      }),
    ).id,
  )
  keep('domain', one(await call('POST', `${p}/pages/domains`, { domain: 'fuzz.example.com' })).domain)
  await call('PUT', `${p}/error_tracking/settings`, { active: true, integrated: true })
  keep('clientKey', one(await call('POST', `${p}/error_tracking/client_keys`)).id)
  keep('variable', one(await call('POST', `${p}/variables`, { key: 'FUZZ_VAR', value: 'v' })).key)
  // The same key in the group: `:key` names an existing variable under /groups/:id/variables too.
  await call('POST', `${g}/variables`, { key: 'FUZZ_VAR', value: 'v' })
  keep('protectedBranch', 'main')
  keep('protectedTag', one(await call('POST', `${p}/protected_tags`, { name: 'release-*' })).name)

  const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)
  keep(
    'projectToken',
    one(await call('POST', `${p}/access_tokens`, { name: 'fuzz', scopes: ['api'], expires_at: inAMonth })).id,
  )
  keep(
    'personalToken',
    one(await call('POST', `/users/${victim.user.id}/personal_access_tokens`, { name: 'fuzz', scopes: ['api'] })).id,
  )
  keep(
    'impersonationToken',
    one(await call('POST', `/users/${victim.user.id}/impersonation_tokens`, { name: 'fuzz', scopes: ['api'] })).id,
  )
  await call('POST', `${g}/access_requests`, undefined, victim.token)
  await call('POST', `/projects/${ids.project}/share`, { group_id: ids.otherGroup, group_access: 30 })
  await call('POST', `${g}/share`, { group_id: ids.otherGroup, group_access: 30 })

  const registration = one(await call('POST', `${p}/runners/reset_registration_token`))
  if (typeof registration.token === 'string') {
    const runner = await TestRunner.register(injectTransport(s.app), registration.token)
    keep('runner', runner.id)
    keep('pipeline', one(await call('POST', `${p}/pipeline`, { ref: 'main' })).id)
    const job = await runner.requestJob()
    keep('job', job?.id)
    if (job) await runner.runOnce()
  }

  const findings = seedSecurityFindings(s.app.burrow.db, Number(ids.project))
  const finding = one(await call('GET', `${p}/vulnerability_findings`))
  if (findings > 0)
    keep('vulnerability', one(await call('POST', `${p}/vulnerabilities?finding_id=${String(finding.id)}`)).id)

  keep('geoNode', one(await call('POST', '/geo_nodes', { name: 'fuzz-secondary', url: 'https://geo.example.com/' })).id)
  keep('auditEvent', one(await call('GET', '/audit_events')).id)
  keep('todo', one(await call('GET', '/todos', undefined, admin.token)).id)
  return { admin, victim, groupPath: 'fuzz', projectPath: 'fuzz/target', ids, missed }
}

/**
 * The valid value of a path parameter in a route template: the object the route's family names
 * (a note of an issue under `/issues/`, of a merge request under `/merge_requests/`…).
 */
export function validParam(world: FuzzWorld, template: string, name: string): string {
  const ids = world.ids
  const family = template.includes('/merge_requests/')
    ? 'mr'
    : template.includes('/snippets/')
      ? 'snippet'
      : template.includes('/epics/')
        ? 'epic'
        : 'issue'
  const under = (segment: string): boolean => new RegExp(`/${segment}/:${name.replace('|', '\\|')}`).test(template)
  const award = template.includes('/notes/:note_id/award_emoji') ? `${family}NoteAward` : `${family}Award`
  const byName: Record<string, string | undefined> = {
    id: under('projects')
      ? ids.project
      : under('groups')
        ? ids.group
        : under('users')
          ? ids.user
          : under('runners')
            ? ids.runner
            : under('jobs')
              ? ids.job
              : under('vulnerabilities')
                ? ids.vulnerability
                : under('personal_access_tokens')
                  ? ids.personalToken
                  : under('snippets')
                    ? ids.snippet
                    : under('geo_nodes')
                      ? ids.geoNode
                      : under('todos')
                        ? ids.todo
                        : under('namespaces')
                          ? ids.group
                          : under('audit_events')
                            ? ids.auditEvent
                            : ids.user,
    user_id: ids.user,
    group_id: ids.otherGroup,
    issue_iid: ids.issue,
    issue_id: ids.issueId,
    merge_request_iid: ids.mr,
    epic_iid: ids.epic,
    epic_id: ids.epicId,
    child_epic_id: ids.childEpic,
    epic_issue_id: ids.epicIssue,
    note_id: ids[`${family}Note`],
    discussion_id: ids[`${family}Discussion`],
    award_id: ids[award],
    event_id: template.includes('state_events')
      ? ids.stateEvent
      : template.includes('milestone_events')
        ? ids.milestoneEvent
        : ids.labelEvent,
    label_id: template.startsWith('/api/v4/groups') ? ids.groupLabel : ids.projectLabel,
    milestone_id: template.startsWith('/api/v4/groups') ? ids.groupMilestone : ids.projectMilestone,
    snippet_id: ids.snippet,
    environment_id: ids.environment,
    deployment_id: ids.deployment,
    cluster_id: ids.cluster,
    runner_id: ids.runner,
    pipeline_id: ids.pipeline,
    job_id: ids.job,
    key_id: ids.clientKey,
    token_id: ids.projectToken,
    impersonation_token_id: ids.impersonationToken,
    audit_event_id: ids.auditEvent,
    domain: ids.domain,
    key: ids.variable,
    name: template.includes('protected_environments')
      ? ids.protectedEnvironment
      : template.includes('protected_tags')
        ? ids.protectedTag
        : template.includes('alerts/notify')
          ? 'http'
          : ids.protectedBranch,
    branch: ids.branch,
    tag_name: ids.tag,
    link_id: ids.releaseLink,
    board_id: ids.board,
    badge_id: template.includes('/groups/:id/badges') ? ids.groupBadge : ids.projectBadge,
    slug: ids.wikiPage,
    list_id: ids.boardList,
    ref_name: 'main',
    sha: template.includes('/blobs/') ? ids.blob : ids.sha,
    file_path: 'README.md',
    format: 'zip',
    filename: 'avatar.png',
    endpoint: '0123456789abcdef',
    repository_storage_move_id: '1',
  }
  if (/^p\d+$/.test(name)) return name === 'p0' ? world.groupPath : 'target'
  const key = name.split('|')[0]
  return byName[key] ?? '1'
}
