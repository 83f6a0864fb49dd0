import Database from 'better-sqlite3'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { migrate } from '../../src/server/platform/db/connection'
import { migrations } from '../../src/server/platform/db/migrations/index'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { deliveriesIdle } from '../../src/server/modules/hooks'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { startHookReceiver, type HookReceiver } from '../helpers/hook-receiver'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

type Json = Record<string, unknown>

describe('webhooks', () => {
  let s: TestServer
  let receiver: HookReceiver
  let top: NamespaceRow
  let sub: NamespaceRow
  let project: ProjectRow
  let developer: SeededUser
  let maintainer: SeededUser
  let groupMaintainer: SeededUser
  let groupOwner: SeededUser
  let commits = 0

  const call = (token: string | null, method: string, url: string, payload?: Json) =>
    s.request(token, { method: method as 'GET', url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
  const hooksUrl = (p: ProjectRow = project) => `/projects/${p.id}/hooks`
  const hookCount = () => (s.app.burrow.db.prepare('SELECT COUNT(*) AS n FROM web_hooks').get() as { n: number }).n
  const allowLocal = async (allowed: boolean) => {
    const res = await call(ROOT_TOKEN, 'PUT', '/application/settings', {
      allow_local_requests_from_web_hooks_and_services: allowed,
    })
    expect(res.statusCode, res.body).toBe(200)
  }
  const push = async (branch = 'main', p: ProjectRow = project) => {
    commits += 1
    const res = await call(ROOT_TOKEN, 'POST', `/projects/${p.id}/repository/commits`, {
      branch,
      start_branch: 'main',
      commit_message: `Change ${commits}\n\nBody of change ${commits}`,
      actions: [{ action: 'create', file_path: `docs/change-${commits}.md`, content: `# ${commits}\n` }],
    })
    expect(res.statusCode, res.body).toBe(201)
    return String((res.json() as Json).id)
  }
  const createHook = async (body: Json, token = maintainer.token, url = hooksUrl()) => {
    const res = await call(token, 'POST', url, body)
    expect(res.statusCode, res.body).toBe(201)
    return res.json() as Json
  }
  const settle = () => deliveriesIdle(s.app.burrow)

  beforeAll(async () => {
    s = await makeServer({ webhooks: { retryDelaysMs: [1, 1], timeoutMs: 2000 } })
    receiver = await startHookReceiver()
    top = seedGroup(s, { path: 'acme', name: 'Acme', visibility: 'private' })
    sub = seedGroup(s, { path: 'tools', parentId: top.id, visibility: 'private' })
    project = seedProject(s, { namespaceId: sub.id, path: 'cli', name: 'Command line', visibility: 'private' })
    developer = seedUser(s)
    maintainer = seedUser(s)
    groupMaintainer = seedUser(s)
    groupOwner = seedUser(s)
    seedMember(s, 'Project', project.id, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, maintainer.user.id, AccessLevel.MAINTAINER)
    seedMember(s, 'Namespace', top.id, groupMaintainer.user.id, AccessLevel.MAINTAINER)
    seedMember(s, 'Namespace', top.id, groupOwner.user.id, AccessLevel.OWNER)
    const first = await call(ROOT_TOKEN, 'POST', `/projects/${project.id}/repository/commits`, {
      branch: 'main',
      commit_message: 'Initial commit',
      actions: [{ action: 'create', file_path: 'README.md', content: '# CLI\n' }],
    })
    expect(first.statusCode, first.body).toBe(201)
    await allowLocal(true)
  })
  afterEach(async () => {
    await settle()
    s.app.burrow.db.prepare('DELETE FROM web_hooks').run()
    receiver.received.length = 0
    receiver.answer(200)
    await allowLocal(true)
  })
  afterAll(async () => {
    await s.close()
    await receiver.close()
  })

  describe('project hooks API', () => {
    it('lets Maintainers add, read, change and remove hooks, and never shows the token or header values', async () => {
      const created = await createHook({
        url: `${receiver.url}/{path}`,
        token: 's3cret',
        name: 'CI bridge',
        issues_events: true,
        push_events_branch_filter: 'release/*',
        url_variables: [{ key: 'path', value: 'incoming' }],
        custom_headers: [{ key: 'X-Team', value: 'platform' }],
      })
      expect(created).toMatchObject({
        url: `${receiver.url}/{path}`,
        name: 'CI bridge',
        project_id: project.id,
        push_events: true,
        tag_push_events: false,
        issues_events: true,
        confidential_issues_events: false,
        enable_ssl_verification: true,
        push_events_branch_filter: 'release/*',
        branch_filter_strategy: 'wildcard',
        alert_status: 'executable',
        disabled_until: null,
        url_variables: [{ key: 'path' }],
        custom_headers: [{ key: 'X-Team' }],
      })
      expect(JSON.stringify(created)).not.toMatch(/s3cret|platform|incoming/)
      const stored = s.app.burrow.db.prepare('SELECT token_sealed, custom_headers_sealed FROM web_hooks').get() as Json
      expect(JSON.stringify(stored)).not.toMatch(/s3cret|platform/)

      const list = await call(maintainer.token, 'GET', hooksUrl())
      expect((list.json() as Json[]).map((h) => h.id)).toEqual([created.id])
      const updated = await call(maintainer.token, 'PUT', `${hooksUrl()}/${created.id}`, {
        note_events: true,
        push_events: false,
      })
      expect(updated.statusCode, updated.body).toBe(200)
      expect(updated.json()).toMatchObject({ note_events: true, push_events: false, issues_events: true })
      const removed = await call(maintainer.token, 'DELETE', `${hooksUrl()}/${created.id}`)
      expect(removed.statusCode).toBe(204)
      expect((await call(maintainer.token, 'GET', `${hooksUrl()}/${created.id}`)).json()).toEqual({
        message: '404 Hook Not Found',
      })
    })

    it('refuses Developers (403), strangers (404) and anonymous callers (401)', async () => {
      const stranger = seedUser(s)
      expect((await call(developer.token, 'GET', hooksUrl())).statusCode).toBe(403)
      expect((await call(developer.token, 'POST', hooksUrl(), { url: receiver.url })).statusCode).toBe(403)
      const hook = await createHook({ url: receiver.url })
      expect((await call(developer.token, 'POST', `${hooksUrl()}/${hook.id}/test/push_events`)).statusCode).toBe(403)
      expect((await call(developer.token, 'GET', `${hooksUrl()}/${hook.id}/events`)).statusCode).toBe(403)
      s.app.burrow.db.prepare('DELETE FROM web_hooks').run()
      expect((await call(stranger.token, 'GET', hooksUrl())).statusCode).toBe(404)
      expect((await call(null, 'GET', hooksUrl())).statusCode).toBe(401)
      expect(hookCount()).toBe(0)
    })

    it('refuses bad input with 4xx and writes nothing', async () => {
      const bad = [
        [{}, 400],
        [{ url: 'not a url' }, 422],
        [{ url: 'ftp://example.com/hook' }, 422],
        [{ url: receiver.url, branch_filter_strategy: 'regex', push_events_branch_filter: '([' }, 422],
        [{ url: receiver.url, custom_headers: [{ key: 'X-Gitlab-Token', value: 'forged' }] }, 422],
        [{ url: receiver.url, url_variables: [{ key: 'bad key', value: 'x' }] }, 422],
        [{ url: receiver.url, push_events: 'maybe' }, 400],
      ] as const
      for (const [body, status] of bad) {
        const res = await call(maintainer.token, 'POST', hooksUrl(), body)
        expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(status)
      }
      expect(hookCount()).toBe(0)
    })

    it('refuses a URL variable key outside its schema with 422 on create and update, as GitLab validates the hook', async () => {
      const refused = { message: { url_variables: ['must be a valid json schema'] } }
      const created = await call(maintainer.token, 'POST', hooksUrl(), {
        url: receiver.url,
        url_variables: [{ key: 'bad key', value: 'x' }],
      })
      // The create service answers the model's errors as one sentence.
      expect([created.statusCode, created.json()]).toEqual([
        422,
        { message: 'Url variables must be a valid json schema' },
      ])
      expect(hookCount()).toBe(0)
      const hook = await createHook({ url: receiver.url, url_variables: [{ key: 'tenant', value: 'acme' }] })
      const stored = s.app.burrow.db.prepare('SELECT url_variables_sealed FROM web_hooks WHERE id = ?').get(hook.id)
      const updated = await call(maintainer.token, 'PUT', `${hooksUrl()}/${hook.id}`, {
        url_variables: [
          { key: 'tenant', value: 'other' },
          { key: 'x-y', value: 'z' },
        ],
      })
      expect([updated.statusCode, updated.json()]).toEqual([422, refused])
      expect((await call(maintainer.token, 'GET', `${hooksUrl()}/${hook.id}`)).json()).toMatchObject({
        url_variables: [{ key: 'tenant' }],
      })
      expect(s.app.burrow.db.prepare('SELECT url_variables_sealed FROM web_hooks WHERE id = ?').get(hook.id)).toEqual(
        stored,
      )
      s.app.burrow.db.prepare('DELETE FROM web_hooks').run()
    })

    it("refuses custom headers outside GitLab's schema with 422 on create and update, and changes nothing", async () => {
      const many = Array.from({ length: 21 }, (_, i) => ({ key: `X-Extra-${i}`, value: 'v' }))
      const refusedSets = [
        [{ key: '1-Team', value: 'x' }],
        [{ key: 'X Team', value: 'x' }],
        [{ key: 'X--Team', value: 'x' }],
        [{ key: 'X-Team:', value: 'x' }],
        [{ key: 'x-gitlab-token', value: 'forged' }],
        [{ key: 'Content-Type', value: 'text/plain' }],
        [{ key: 'X-Team', value: '' }],
        [{ key: 'X-Team', value: 'a\r\nX-Injected: 1' }],
        [{ key: 'X-Team', value: 'x'.repeat(2049) }],
        many,
      ]
      for (const custom_headers of refusedSets) {
        const res = await call(maintainer.token, 'POST', hooksUrl(), { url: receiver.url, custom_headers })
        expect([custom_headers[0], res.statusCode, res.json()]).toEqual([
          custom_headers[0],
          422,
          { message: 'Custom headers must be a valid json schema' },
        ])
      }
      expect(hookCount()).toBe(0)
      const hook = await createHook({
        url: receiver.url,
        custom_headers: [
          { key: 'X-Team.v2', value: 'platform' },
          { key: 'Authorization', value: 'Bearer x'.padEnd(2048, 'x') },
        ],
      })
      expect(hook.custom_headers).toEqual([{ key: 'X-Team.v2' }, { key: 'Authorization' }])
      const stored = () =>
        s.app.burrow.db.prepare('SELECT custom_headers_sealed, updated_at FROM web_hooks WHERE id = ?').get(hook.id)
      const before = stored()
      for (const custom_headers of [...refusedSets, many.slice(0, 19)]) {
        const res = await call(maintainer.token, 'PUT', `${hooksUrl()}/${hook.id}`, { name: 'Renamed', custom_headers })
        expect([custom_headers[0], res.statusCode, res.json()]).toEqual([
          custom_headers[0],
          422,
          { message: 'Custom headers validation failed' },
        ])
      }
      expect(stored()).toEqual(before)
      expect((await call(maintainer.token, 'GET', `${hooksUrl()}/${hook.id}`)).json()).toMatchObject({ name: null })
      // Eighteen more make twenty, GitLab's most.
      const filled = await call(maintainer.token, 'PUT', `${hooksUrl()}/${hook.id}`, {
        custom_headers: many.slice(0, 18),
      })
      expect(filled.statusCode, filled.body).toBe(200)
      expect(filled.json()).toMatchObject({ custom_headers: expect.arrayContaining([{ key: 'X-Extra-17' }]) })
      const twentyFirst = await call(maintainer.token, 'PUT', `${hooksUrl()}/${hook.id}/custom_headers/X-One-More`, {
        value: 'v',
      })
      expect([twentyFirst.statusCode, twentyFirst.json()]).toEqual([422, { message: 'Illegal key or value' }])
      const replaced = await call(maintainer.token, 'PUT', `${hooksUrl()}/${hook.id}/custom_headers/X-Extra-0`, {
        value: 'w',
      })
      expect(replaced.statusCode).toBe(204)
      s.app.burrow.db.prepare('DELETE FROM web_hooks').run()
    })

    it('sets and removes one URL variable or custom header', async () => {
      const hook = await createHook({ url: receiver.url })
      const base = `${hooksUrl()}/${hook.id}`
      expect((await call(maintainer.token, 'PUT', `${base}/custom_headers/X-Env`, { value: 'prod' })).statusCode).toBe(
        204,
      )
      expect((await call(maintainer.token, 'PUT', `${base}/url_variables/tenant`, { value: 'acme' })).statusCode).toBe(
        204,
      )
      expect((await call(maintainer.token, 'GET', base)).json()).toMatchObject({
        custom_headers: [{ key: 'X-Env' }],
        url_variables: [{ key: 'tenant' }],
      })
      expect((await call(maintainer.token, 'DELETE', `${base}/url_variables/tenant`)).statusCode).toBe(204)
      expect((await call(maintainer.token, 'DELETE', `${base}/url_variables/tenant`)).statusCode).toBe(404)
      expect((await call(maintainer.token, 'GET', base)).json()).toMatchObject({ url_variables: [] })
    })
  })

  describe('the outbound guard', () => {
    it('refuses a hook to a local address at creation while local requests are not allowed', async () => {
      await allowLocal(false)
      const res = await call(maintainer.token, 'POST', hooksUrl(), { url: `${receiver.url}/hook` })
      expect(res.statusCode).toBe(422)
      expect(res.json()).toEqual({ message: { url: ['is blocked: Requests to loopback addresses are not allowed'] } })
      const named = await call(maintainer.token, 'POST', hooksUrl(), { url: 'http://localhost:9/hook' })
      expect(named.statusCode).toBe(422)
      expect(hookCount()).toBe(0)
    })

    it('accepts a host name that does not resolve yet, as GitLab does: each delivery checks it', async () => {
      await allowLocal(false)
      const res = await call(maintainer.token, 'POST', hooksUrl(), { url: 'https://receiver.invalid/hook' })
      expect(res.statusCode, res.body).toBe(201)
    })

    it('refuses the delivery when local requests were disallowed after the hook was made', async () => {
      const hook = await createHook({ url: `${receiver.url}/hook` })
      await allowLocal(false)
      await push()
      await settle()
      expect(receiver.received).toEqual([])
      const events = (await call(maintainer.token, 'GET', `${hooksUrl()}/${hook.id}/events`)).json() as Json[]
      expect(events).toHaveLength(1)
      expect(events[0]).toMatchObject({
        response_status: 'internal error',
        internal_error_message: 'Blocked: Requests to loopback addresses are not allowed',
      })
    })

    it('refuses a resend to a local address once local requests were disallowed, and logs the refusal', async () => {
      const hook = await createHook({ url: `${receiver.url}/hook` })
      await push()
      await settle()
      expect(receiver.received).toHaveLength(1)
      const eventsUrl = `${hooksUrl()}/${hook.id}/events`
      const [delivered] = (await call(maintainer.token, 'GET', eventsUrl)).json() as Json[]
      await allowLocal(false)
      const res = await call(maintainer.token, 'POST', `${eventsUrl}/${delivered.id}/resend`)
      expect(res.statusCode).toBe(422)
      expect(res.json()).toEqual({ message: 'Blocked: Requests to loopback addresses are not allowed' })
      expect(receiver.received).toHaveLength(1)
      const events = (await call(maintainer.token, 'GET', `${eventsUrl}?status=server_failure`)).json() as Json[]
      expect(events.map((e) => e.response_status)).toEqual(['internal error'])
    })
  })

  describe('deliveries', () => {
    it('posts a push event with GitLab payload and headers, and logs it with the token redacted', async () => {
      const hook = await createHook({
        url: `${receiver.url}/{path}`,
        token: 'tok-123',
        url_variables: [{ key: 'path', value: 'push' }],
        custom_headers: [{ key: 'X-Team', value: 'platform' }],
      })
      const main = await call(ROOT_TOKEN, 'GET', `/projects/${project.id}/repository/branches/main`)
      const before = String((main.json() as { commit: Json }).commit.id)
      const sha = await push()
      await receiver.waitFor(1)
      const [got] = receiver.received
      expect(got.path).toBe('/push')
      expect(got.headers).toMatchObject({
        'content-type': 'application/json',
        'user-agent': 'GitLab/17.6.0',
        'x-gitlab-event': 'Push Hook',
        'x-gitlab-token': 'tok-123',
        'x-gitlab-instance': 'http://burrow.test',
        'x-team': 'platform',
      })
      expect(got.headers['x-gitlab-webhook-uuid']).toMatch(/^[0-9a-f-]{36}$/)
      expect(got.headers['x-gitlab-event-uuid']).toMatch(/^[0-9a-f-]{36}$/)
      expect(got.body).toMatchObject({
        object_kind: 'push',
        event_name: 'push',
        before,
        after: sha,
        ref: 'refs/heads/main',
        checkout_sha: sha,
        user_id: 1,
        user_username: 'root',
        project_id: project.id,
        project: {
          id: project.id,
          name: 'Command line',
          path_with_namespace: 'acme/tools/cli',
          web_url: 'http://burrow.test/acme/tools/cli',
          git_http_url: 'http://burrow.test/acme/tools/cli.git',
          default_branch: 'main',
          visibility_level: 0,
        },
        total_commits_count: 1,
        repository: { name: 'Command line', homepage: 'http://burrow.test/acme/tools/cli' },
      })
      const commitsSent = got.body.commits as Json[]
      expect(commitsSent).toHaveLength(1)
      expect(commitsSent[0]).toMatchObject({
        id: sha,
        title: `Change ${commits}`,
        message: `Change ${commits}\n\nBody of change ${commits}`,
        url: `http://burrow.test/acme/tools/cli/-/commit/${sha}`,
        added: [`docs/change-${commits}.md`],
        modified: [],
        removed: [],
      })
      await settle()
      const events = (await call(maintainer.token, 'GET', `${hooksUrl()}/${hook.id}/events`)).json() as Json[]
      expect(events).toHaveLength(1)
      expect(events[0]).toMatchObject({
        trigger: 'push_hooks',
        url: `${receiver.url}/{path}`,
        response_status: '200',
        response_body: 'answered 200',
        internal_error_message: null,
        request_data: { object_kind: 'push', after: sha },
      })
      expect((events[0].request_headers as Json)['X-Gitlab-Token']).toBe('[REDACTED]')
      expect((events[0].response_headers as Json)['x-receiver']).toBe('yes')
      const filtered = await call(maintainer.token, 'GET', `${hooksUrl()}/${hook.id}/events?status=server_failure`)
      expect(filtered.json()).toEqual([])
    })

    it('sends pushes only for branches that match the filter, and tag pushes to hooks that take them', async () => {
      await createHook({ url: `${receiver.url}/release`, push_events_branch_filter: 'release/*' })
      await createHook({ url: `${receiver.url}/tags`, push_events: false, tag_push_events: true })
      await push('main')
      await push('release/1.0')
      const tag = await call(ROOT_TOKEN, 'POST', `/projects/${project.id}/repository/tags`, {
        tag_name: 'v1.0.0',
        ref: 'main',
        message: 'First release',
      })
      expect(tag.statusCode, tag.body).toBe(201)
      await settle()
      const byPath = receiver.received.map((r) => [r.path, r.body.object_kind, r.body.ref])
      expect(byPath).toEqual(
        expect.arrayContaining([
          ['/release', 'push', 'refs/heads/release/1.0'],
          ['/tags', 'tag_push', 'refs/tags/v1.0.0'],
        ]),
      )
      expect(byPath).toHaveLength(2)
      const tagPush = receiver.received.find((r) => r.path === '/tags')
      expect(tagPush?.headers['x-gitlab-event']).toBe('Tag Push Hook')
      expect(tagPush?.body).toMatchObject({ message: 'First release', commits: [], total_commits_count: 0 })
    })

    it('retries a failing delivery, then disables the hook for a while, and a good test re-enables it', async () => {
      receiver.answer(500)
      const hook = await createHook({ url: `${receiver.url}/flaky` })
      await push()
      await settle()
      // The delivery and its two retries.
      expect(receiver.received).toHaveLength(3)
      let state = (await call(maintainer.token, 'GET', `${hooksUrl()}/${hook.id}`)).json() as Json
      expect(state.alert_status).toBe('executable')
      await push()
      await settle()
      // The fourth failure in a row disables the hook: no retry follows it.
      expect(receiver.received).toHaveLength(4)
      state = (await call(maintainer.token, 'GET', `${hooksUrl()}/${hook.id}`)).json() as Json
      expect(state.alert_status).toBe('temporarily_disabled')
      expect(Date.parse(String(state.disabled_until))).toBeGreaterThan(Date.now())
      await push()
      await settle()
      expect(receiver.received).toHaveLength(4)

      const failedTest = await call(maintainer.token, 'POST', `${hooksUrl()}/${hook.id}/test/push_events`)
      expect(failedTest.statusCode).toBe(422)
      expect(failedTest.json()).toEqual({ message: 'Hook execution failed: 500' })
      receiver.answer(200)
      const test = await call(maintainer.token, 'POST', `${hooksUrl()}/${hook.id}/test/push_events`)
      expect(test.statusCode, test.body).toBe(201)
      expect(test.json()).toEqual({ message: '201 Created' })
      state = (await call(maintainer.token, 'GET', `${hooksUrl()}/${hook.id}`)).json() as Json
      expect(state).toMatchObject({ alert_status: 'executable', disabled_until: null })
      expect(receiver.received.at(-1)?.body).toMatchObject({ object_kind: 'push', ref: 'refs/heads/main' })
    })

    it('disables a hook for good after 40 failures in a row', async () => {
      const hook = await createHook({ url: `${receiver.url}/dead` })
      s.app.burrow.db.prepare('UPDATE web_hooks SET recent_failures = 39, backoff_count = 10 WHERE id = ?').run(hook.id)
      receiver.answer(404)
      await call(maintainer.token, 'POST', `${hooksUrl()}/${hook.id}/test/push_events`)
      const state = (await call(maintainer.token, 'GET', `${hooksUrl()}/${hook.id}`)).json() as Json
      expect(state).toMatchObject({ alert_status: 'disabled', disabled_until: null })
      await push()
      await settle()
      expect(receiver.received).toHaveLength(1)
    })

    it('resends a logged delivery with the same payload', async () => {
      const hook = await createHook({ url: `${receiver.url}/resend` })
      await push()
      await settle()
      const [event] = (await call(maintainer.token, 'GET', `${hooksUrl()}/${hook.id}/events`)).json() as Json[]
      const res = await call(maintainer.token, 'POST', `${hooksUrl()}/${hook.id}/events/${event.id}/resend`)
      expect(res.statusCode, res.body).toBe(201)
      expect(res.json()).toEqual({ response_status: 200 })
      expect(receiver.received).toHaveLength(2)
      expect(receiver.received[1].body).toEqual(receiver.received[0].body)
      expect(receiver.received[1].headers['x-gitlab-event']).toBe('Push Hook')
      const missing = await call(maintainer.token, 'POST', `${hooksUrl()}/${hook.id}/events/999999/resend`)
      expect(missing.statusCode).toBe(404)
    })

    it('refuses to resend a delivery once the hook points elsewhere, sending nothing', async () => {
      const hook = await createHook({ url: `${receiver.url}/before` })
      await push()
      await settle()
      const [event] = (await call(maintainer.token, 'GET', `${hooksUrl()}/${hook.id}/events`)).json() as Json[]
      const moved = await call(maintainer.token, 'PUT', `${hooksUrl()}/${hook.id}`, { url: `${receiver.url}/after` })
      expect(moved.statusCode, moved.body).toBe(200)
      const res = await call(maintainer.token, 'POST', `${hooksUrl()}/${hook.id}/events/${event.id}/resend`)
      expect(res.statusCode).toBe(422)
      expect(res.json()).toEqual({ message: 'The hook URL has changed, and this log entry cannot be retried' })
      expect(receiver.received.map((r) => r.path)).toEqual(['/before'])
      expect((await call(maintainer.token, 'GET', `${hooksUrl()}/${hook.id}/events`)).json()).toHaveLength(1)
    })

    it('answers a test of a trigger the project has nothing for with 422, and an unknown trigger with 400', async () => {
      const empty = seedProject(s, { namespaceId: sub.id, path: 'empty', visibility: 'private' })
      seedMember(s, 'Project', empty.id, maintainer.user.id, AccessLevel.MAINTAINER)
      const hook = await createHook({ url: receiver.url }, maintainer.token, hooksUrl(empty))
      const res = await call(maintainer.token, 'POST', `${hooksUrl(empty)}/${hook.id}/test/push_events`)
      expect(res.statusCode).toBe(422)
      expect(res.json()).toEqual({ message: 'Ensure the project has at least one commit.' })
      const tags = await call(maintainer.token, 'POST', `${hooksUrl(empty)}/${hook.id}/test/tag_push_events`)
      expect(tags.json()).toEqual({ message: 'Ensure the project has at least one tag.' })
      const bad = await call(maintainer.token, 'POST', `${hooksUrl(empty)}/${hook.id}/test/nonsense`)
      expect(bad.statusCode).toBe(400)
      expect(receiver.received).toEqual([])
    })
  })

  describe('item events', () => {
    const byPath = (path: string) => receiver.received.filter((r) => r.path === path)
    const newIssue = async (title: string, confidential = false) => {
      const res = await call(maintainer.token, 'POST', `/projects/${project.id}/issues`, {
        title,
        confidential,
        labels: 'bug',
      })
      expect(res.statusCode, res.body).toBe(201)
      return res.json() as Json
    }

    it('sends issue events, and confidential ones only to hooks that take confidential issues', async () => {
      await createHook({ url: `${receiver.url}/issues`, push_events: false, issues_events: true })
      await createHook({ url: `${receiver.url}/secret`, push_events: false, confidential_issues_events: true })
      const open = await newIssue('Crash on start')
      const secret = await newIssue('Leaked key', true)
      const closed = await call(maintainer.token, 'PUT', `/projects/${project.id}/issues/${open.iid}`, {
        state_event: 'close',
      })
      expect(closed.statusCode).toBe(200)
      await settle()
      const issues = byPath('/issues')
      expect(issues.map((r) => (r.body.object_attributes as Json).action)).toEqual(['open', 'close'])
      expect(issues[0].headers['x-gitlab-event']).toBe('Issue Hook')
      expect(issues[0].body).toMatchObject({
        object_kind: 'issue',
        event_type: 'issue',
        user: { username: maintainer.user.username },
        project: { id: project.id },
        object_attributes: {
          id: open.id,
          iid: open.iid,
          title: 'Crash on start',
          state: 'opened',
          confidential: false,
          url: `http://burrow.test/acme/tools/cli/-/issues/${open.iid}`,
        },
        labels: [{ title: 'bug', type: 'ProjectLabel' }],
      })
      expect(JSON.stringify(issues)).not.toContain('Leaked key')
      const secrets = byPath('/secret')
      expect(secrets).toHaveLength(1)
      expect(secrets[0].headers['x-gitlab-event']).toBe('Confidential Issue Hook')
      expect(secrets[0].body).toMatchObject({
        event_type: 'confidential_issue',
        object_attributes: { id: secret.id, confidential: true, action: 'open' },
      })
    })

    it('sends note events, and notes on confidential issues or internal notes only to confidential note hooks', async () => {
      await createHook({ url: `${receiver.url}/notes`, push_events: false, note_events: true })
      await createHook({ url: `${receiver.url}/secret-notes`, push_events: false, confidential_note_events: true })
      const open = await newIssue('Public issue')
      const secret = await newIssue('Secret issue', true)
      const comment = async (iid: unknown, body: string, internal = false) => {
        const res = await call(maintainer.token, 'POST', `/projects/${project.id}/issues/${iid}/notes`, {
          body,
          internal,
        })
        expect(res.statusCode, res.body).toBe(201)
        return res.json() as Json
      }
      const visible = await comment(open.iid, 'Reproduced on main')
      await comment(open.iid, 'Internal triage', true)
      await comment(secret.iid, 'Rotated the key')
      await settle()
      const notes = byPath('/notes')
      expect(notes).toHaveLength(1)
      expect(notes[0].headers['x-gitlab-event']).toBe('Note Hook')
      expect(notes[0].body).toMatchObject({
        object_kind: 'note',
        event_type: 'note',
        object_attributes: {
          id: visible.id,
          note: 'Reproduced on main',
          noteable_type: 'Issue',
          url: `http://burrow.test/acme/tools/cli/-/issues/${open.iid}#note_${visible.id}`,
        },
        issue: { iid: open.iid, title: 'Public issue' },
      })
      const secrets = byPath('/secret-notes').map((r) => (r.body.object_attributes as Json).note)
      expect(secrets.sort()).toEqual(['Internal triage', 'Rotated the key'])
      expect(byPath('/secret-notes')[0].headers['x-gitlab-event']).toBe('Confidential Note Hook')
    })

    it('sends merge request events with the source and target and the last commit', async () => {
      await createHook({ url: `${receiver.url}/mrs`, push_events: false, merge_requests_events: true })
      const head = await push('feature/hooks')
      const res = await call(maintainer.token, 'POST', `/projects/${project.id}/merge_requests`, {
        source_branch: 'feature/hooks',
        target_branch: 'main',
        title: 'Add hooks',
      })
      expect(res.statusCode, res.body).toBe(201)
      const mr = res.json() as Json
      await settle()
      const [got] = byPath('/mrs')
      expect(got.headers['x-gitlab-event']).toBe('Merge Request Hook')
      expect(got.body).toMatchObject({
        object_kind: 'merge_request',
        event_type: 'merge_request',
        object_attributes: {
          id: mr.id,
          iid: mr.iid,
          action: 'open',
          state: 'opened',
          source_branch: 'feature/hooks',
          target_branch: 'main',
          url: `http://burrow.test/acme/tools/cli/-/merge_requests/${mr.iid}`,
          source: { path_with_namespace: 'acme/tools/cli' },
          last_commit: { id: head },
        },
      })
    })

    it('sends pipeline and job events as CI moves', async () => {
      await createHook({ url: `${receiver.url}/ci`, push_events: false, pipeline_events: true, job_events: true })
      const res = await call(ROOT_TOKEN, 'POST', `/projects/${project.id}/repository/commits`, {
        branch: 'main',
        commit_message: 'Add CI',
        actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: 'build:\n  script: make\n' }],
      })
      expect(res.statusCode, res.body).toBe(201)
      await settle()
      const ci = byPath('/ci')
      const pipeline = ci.find((r) => r.body.object_kind === 'pipeline')
      const job = ci.find((r) => r.body.object_kind === 'build')
      expect(pipeline?.headers['x-gitlab-event']).toBe('Pipeline Hook')
      expect(pipeline?.body).toMatchObject({
        object_attributes: { ref: 'main', sha: (res.json() as Json).id, source: 'push' },
        builds: [{ name: 'build', stage: 'test' }],
      })
      expect(job?.headers['x-gitlab-event']).toBe('Job Hook')
      expect(job?.body).toMatchObject({ build_name: 'build', build_stage: 'test', ref: 'main', project_id: project.id })
    })

    it('sends release events when a release is created, changed and deleted', async () => {
      await createHook({ url: `${receiver.url}/releases`, push_events: false, releases_events: true })
      const base = `/projects/${project.id}/releases`
      const created = await call(maintainer.token, 'POST', base, {
        tag_name: 'v2.0.0',
        ref: 'main',
        name: 'Two',
        assets: { links: [{ name: 'Binary', url: 'https://example.com/bin' }] },
      })
      expect(created.statusCode, created.body).toBe(201)
      expect((await call(maintainer.token, 'PUT', `${base}/v2.0.0`, { name: 'Two!' })).statusCode).toBe(200)
      expect((await call(maintainer.token, 'DELETE', `${base}/v2.0.0`)).statusCode).toBe(200)
      await settle()
      const releases = byPath('/releases')
      expect(releases.map((r) => [r.body.action, r.body.name])).toEqual([
        ['create', 'Two'],
        ['update', 'Two!'],
        ['delete', 'Two!'],
      ])
      expect(releases[0].headers['x-gitlab-event']).toBe('Release Hook')
      expect(releases[0].body).toMatchObject({
        object_kind: 'release',
        tag: 'v2.0.0',
        url: 'http://burrow.test/acme/tools/cli/-/releases/v2.0.0',
        assets: { count: 5, links: [{ name: 'Binary', url: 'https://example.com/bin' }] },
        project: { id: project.id },
      })
      expect((releases[0].body.commit as Json).id).toMatch(/^[0-9a-f]{40}$/)
    })

    it('tests the issue trigger with the latest issue', async () => {
      await newIssue('Latest issue')
      const hook = await createHook({ url: `${receiver.url}/test`, push_events: false })
      const res = await call(maintainer.token, 'POST', `${hooksUrl()}/${hook.id}/test/issues_events`)
      expect(res.statusCode, res.body).toBe(201)
      expect(byPath('/test')[0].body).toMatchObject({
        object_kind: 'issue',
        object_attributes: { title: 'Latest issue' },
      })
    })
  })

  describe('group hooks', () => {
    it('are for group Owners and receive pushes to projects of subgroups', async () => {
      const url = `/groups/${top.id}/hooks`
      expect((await call(groupMaintainer.token, 'GET', url)).statusCode).toBe(403)
      const hook = await createHook({ url: `${receiver.url}/group` }, groupOwner.token, url)
      expect(hook).toMatchObject({ group_id: top.id, push_events: true })
      expect(hook).not.toHaveProperty('project_id')
      await push()
      await receiver.waitFor(1)
      expect(receiver.received[0]).toMatchObject({
        path: '/group',
        body: { object_kind: 'push', project_id: project.id },
      })
    })
  })

  describe('group hook tests', () => {
    it("deliver a trigger's sample from the group's project to Owners' hooks; 403, 401, 400 and 422 otherwise", async () => {
      await push()
      const url = `/groups/${top.id}/hooks`
      const hook = await createHook({ url: `${receiver.url}/group-test` }, groupOwner.token, url)
      const test = (token: string | null, trigger: string, hookUrl = `${url}/${String(hook.id)}`) =>
        call(token, 'POST', `${hookUrl}/test/${trigger}`)
      expect((await test(groupMaintainer.token, 'push_events')).statusCode).toBe(403)
      expect((await test(null, 'push_events')).statusCode).toBe(401)
      expect((await test(groupOwner.token, 'nonsense')).statusCode).toBe(400)
      expect((await test(groupOwner.token, 'push_events', `${url}/999999`)).statusCode).toBe(404)
      expect(receiver.received).toEqual([])
      const ok = await test(groupOwner.token, 'push_events')
      expect([ok.statusCode, ok.json()]).toEqual([201, { message: '201 Created' }])
      await receiver.waitFor(1)
      expect(receiver.received).toHaveLength(1)
      expect(receiver.received[0]).toMatchObject({
        path: '/group-test',
        body: { object_kind: 'push', project_id: project.id },
      })
      expect(receiver.received[0].headers['x-gitlab-event']).toBe('Push Hook')
      // A group with no project has nothing to build the sample from.
      const bare = seedGroup(s, { path: 'bare-hooks', visibility: 'private' })
      seedMember(s, 'Namespace', bare.id, groupOwner.user.id, AccessLevel.OWNER)
      const bareHook = await createHook({ url: receiver.url }, groupOwner.token, `/groups/${bare.id}/hooks`)
      const none = await test(groupOwner.token, 'push_events', `/groups/${bare.id}/hooks/${String(bareHook.id)}`)
      expect([none.statusCode, none.json()]).toEqual([422, { message: 'Ensure the group has a project.' }])
      expect(receiver.received).toHaveLength(1)
    })
  })

  describe('URL variables and custom headers of group and system hooks', () => {
    it('sets and removes them for group Owners and administrators only, and refuses bad keys', async () => {
      const group = await createHook({ url: `${receiver.url}/g-keys` }, groupOwner.token, `/groups/${top.id}/hooks`)
      const system = await createHook({ url: `${receiver.url}/s-keys` }, ROOT_TOKEN, '/hooks')
      const cases: [string, string, string, number][] = [
        [groupOwner.token, `/groups/${top.id}/hooks/${String(group.id)}`, 'url_variables', 403],
        [groupOwner.token, `/groups/${top.id}/hooks/${String(group.id)}`, 'custom_headers', 403],
        [ROOT_TOKEN, `/hooks/${String(system.id)}`, 'url_variables', 403],
        [ROOT_TOKEN, `/hooks/${String(system.id)}`, 'custom_headers', 403],
      ]
      for (const [token, base, set, refused] of cases) {
        const key = set === 'url_variables' ? 'tenant' : 'X-Env'
        const value = { value: 'acme' }
        // Someone below the owner's role, and anonymous, change nothing.
        expect([base, (await call(groupMaintainer.token, 'PUT', `${base}/${set}/${key}`, value)).statusCode]).toEqual([
          base,
          refused,
        ])
        expect([base, (await call(null, 'PUT', `${base}/${set}/${key}`, value)).statusCode]).toEqual([base, 401])
        expect((await call(token, 'GET', base)).json()).toMatchObject({ [set]: [] })
        // A value is required; a key must be a variable name or a header name.
        expect([base, (await call(token, 'PUT', `${base}/${set}/${key}`, {})).statusCode]).toEqual([base, 400])
        const bad = await call(token, 'PUT', `${base}/${set}/bad%20key`, value)
        expect([base, bad.statusCode, bad.json()]).toEqual([base, 422, { message: 'Illegal key or value' }])
        expect((await call(token, 'GET', base)).json()).toMatchObject({ [set]: [] })
        expect([base, (await call(token, 'PUT', `${base}/${set}/${key}`, value)).statusCode]).toEqual([base, 204])
        // The key is listed, never its value.
        const shown = (await call(token, 'GET', base)).json() as Json
        expect(shown[set]).toEqual([{ key }])
        expect(JSON.stringify(shown)).not.toContain('acme')
        expect([base, (await call(groupMaintainer.token, 'DELETE', `${base}/${set}/${key}`)).statusCode]).toEqual([
          base,
          refused,
        ])
        expect([base, (await call(token, 'DELETE', `${base}/${set}/${key}`)).statusCode]).toEqual([base, 204])
        expect([base, (await call(token, 'DELETE', `${base}/${set}/${key}`)).statusCode]).toEqual([base, 404])
        expect((await call(token, 'GET', base)).json()).toMatchObject({ [set]: [] })
        expect([
          base,
          (await call(token, 'PUT', `${base.replace(/\d+$/, '999999')}/${set}/${key}`, value)).statusCode,
        ]).toEqual([base, 404])
      }
    })
  })

  describe('system hooks', () => {
    it('are for administrators, receive pushes as System Hook, and answer a test with the sample', async () => {
      expect((await call(maintainer.token, 'GET', '/hooks')).statusCode).toBe(403)
      expect((await call(null, 'GET', '/hooks')).statusCode).toBe(401)
      const refused = await call(ROOT_TOKEN, 'POST', '/hooks', {
        url: `${receiver.url}/system`,
        custom_headers: [{ key: 'X Audit', value: 'yes' }],
      })
      expect([refused.statusCode, refused.json()]).toEqual([
        422,
        { message: 'Custom headers must be a valid json schema' },
      ])
      const hook = await createHook(
        { url: `${receiver.url}/system`, push_events: true, custom_headers: [{ key: 'X-Audit', value: 'yes' }] },
        ROOT_TOKEN,
        '/hooks',
      )
      expect(hook).toMatchObject({
        push_events: true,
        repository_update_events: true,
        alert_status: 'executable',
        custom_headers: [{ key: 'X-Audit' }],
      })
      expect(hook).not.toHaveProperty('issues_events')
      const renamed = await call(ROOT_TOKEN, 'PUT', `/hooks/${hook.id}`, {
        custom_headers: [{ key: 'X-Gitlab-Event', value: 'Push Hook' }],
      })
      expect([renamed.statusCode, renamed.json()]).toEqual([422, { message: 'Custom headers validation failed' }])
      await push()
      await receiver.waitFor(1)
      expect(receiver.received[0].headers['x-gitlab-event']).toBe('System Hook')
      expect(receiver.received[0].headers['x-audit']).toBe('yes')
      expect(receiver.received[0].body.object_kind).toBe('push')
      const test = await call(ROOT_TOKEN, 'POST', `/hooks/${hook.id}`)
      expect(test.statusCode, test.body).toBe(201)
      expect(test.json()).toMatchObject({ event_name: 'project_create' })
      await receiver.waitFor(2)
      expect(receiver.received[1].body).toMatchObject({ event_name: 'project_create' })
    })
  })
})

describe('webhook deliveries when the server stops', () => {
  it('closes with a delivery waiting on a receiver that never answers', async () => {
    const receiver = await startHookReceiver()
    receiver.answer('hang')
    const s = await makeServer({
      settings: { allow_local_requests_from_web_hooks_and_services: true },
      webhooks: { timeoutMs: 600_000 },
    })
    const group = seedGroup(s, { path: 'stop' })
    const project = seedProject(s, { namespaceId: group.id, path: 'stop', visibility: 'private' })
    const hook = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${project.id}/hooks`,
      payload: { url: receiver.url },
    })
    expect(hook.statusCode, hook.body).toBe(201)
    const res = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${project.id}/repository/commits`,
      payload: { branch: 'main', commit_message: 'c', actions: [{ action: 'create', file_path: 'a', content: 'a' }] },
    })
    expect(res.statusCode).toBe(201)
    await receiver.waitFor(1)
    await s.close()
    // The closing server aborted the delivery: nothing of it is left running to write to the closed database.
    await deliveriesIdle(s.app.burrow)
    await receiver.close()
  })
})

describe('migration 0045 on an existing database', () => {
  it('adds the hook tables, whose rows go with their project', () => {
    const db = new Database(':memory:')
    db.pragma('foreign_keys = ON')
    migrate(
      db,
      migrations.filter((m) => m.version < 45),
    )
    const t = '2026-01-01T00:00:00.000Z'
    db.exec(`
      INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at, updated_at) VALUES (1, 'group', 'G', 'g', 'g', 'G', '${t}', '${t}');
      INSERT INTO projects (id, namespace_id, name, path, created_at, updated_at, last_activity_at) VALUES (1, 1, 'P', 'p', '${t}', '${t}', '${t}');
    `)
    migrate(db)
    db.exec(
      `INSERT INTO web_hooks (type, project_id, url, created_at, updated_at) VALUES ('ProjectHook', 1, 'https://example.com', '${t}', '${t}')`,
    )
    expect(() =>
      db.exec(
        `INSERT INTO web_hooks (type, url, created_at, updated_at) VALUES ('ProjectHook', 'https://example.com', '${t}', '${t}')`,
      ),
    ).toThrow(/CHECK constraint failed/)
    db.exec('DELETE FROM projects WHERE id = 1')
    expect(db.prepare('SELECT COUNT(*) AS n FROM web_hooks').get()).toEqual({ n: 0 })
  })
})
