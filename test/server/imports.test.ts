import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { holdImports, importsIdle } from '../../src/server/modules/imports/service'
import { SourceApi } from '../../src/server/modules/imports/source'
import { seedGroup, seedMember } from '../helpers/fixtures'
import { commitFiles, makeWorkRepo, sh } from '../helpers/git'
import { startGitHttpServer } from '../helpers/git-http-server'
import {
  makeServer,
  ROOT_TOKEN,
  seedUser,
  startServer,
  type ListeningServer,
  type SeededUser,
  type TestServer,
} from '../helpers/server'

const API = '/api/v4'
type Json = Record<string, unknown>

/**
 * Imports from a second Burrow Server listening on 127.0.0.1 (the GitLab-compatible source and
 * the git server) into a server driven through inject.
 */
describe('project imports', () => {
  let source: ListeningServer
  let target: TestServer
  let owner: SeededUser
  let sourceGuest: SeededUser
  let importer: SeededUser
  let groupDev: SeededUser
  let upstream: Json
  let secret: Json

  const src = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Json) =>
    source.request(token, { method, url: `${API}${url}`, payload })
  const tgt = (token: string | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Json) =>
    target.request(token, { method, url: `${API}${url}`, payload })
  const hostedGit = (token: string, payload: Json) =>
    tgt(token, 'POST', '/import/hosted_git', {
      custom_hostname: source.url,
      personal_access_token: owner.token,
      ...payload,
    })
  const sorted = <T>(items: T[], key: (t: T) => string | number): T[] =>
    [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))

  beforeAll(async () => {
    source = await startServer()
    owner = seedUser(source, { username: 'upstream_owner', name: 'Upstream Owner' })
    sourceGuest = seedUser(source, { username: 'upstream_guest' })
    const group = seedGroup(source, { path: 'up', name: 'Up', visibility: 'internal' })
    seedMember(source, 'Namespace', group.id, owner.user.id, AccessLevel.OWNER)
    upstream = (
      await src(owner.token, 'POST', '/projects', {
        name: 'Upstream',
        path: 'upstream',
        namespace_id: group.id,
        initialize_with_readme: true,
        description: 'The original',
        visibility: 'internal',
      })
    ).json()
    const pid = upstream.id as number
    await src(owner.token, 'POST', `/projects/${pid}/repository/files/src%2Fapp.ts`, {
      branch: 'main',
      content: 'export {}\n',
      commit_message: 'Add app',
    })
    await src(owner.token, 'POST', `/projects/${pid}/repository/branches`, { branch: 'feature', ref: 'main' })
    await src(owner.token, 'POST', `/projects/${pid}/repository/files/feature.md`, {
      branch: 'feature',
      content: 'wip',
      commit_message: 'Feature work',
    })
    await src(owner.token, 'POST', `/projects/${pid}/repository/tags`, {
      tag_name: 'v1.0',
      ref: 'main',
      message: 'First release',
    })
    await src(owner.token, 'POST', `/projects/${pid}/labels`, {
      name: 'bug',
      color: '#dc143c',
      description: 'Something is broken',
    })
    await src(owner.token, 'POST', `/projects/${pid}/labels`, { name: 'ux', color: '#00aa55' })
    const v1 = (
      await src(owner.token, 'POST', `/projects/${pid}/milestones`, {
        title: 'v1',
        description: 'First',
        due_date: '2030-01-31',
      })
    ).json()
    const old = (await src(owner.token, 'POST', `/projects/${pid}/milestones`, { title: 'v0' })).json()
    await src(owner.token, 'PUT', `/projects/${pid}/milestones/${old.id}`, { state_event: 'close' })
    await src(owner.token, 'POST', `/projects/${pid}/issues`, {
      title: 'Crash on start',
      description: 'It crashes',
      labels: 'bug',
      milestone_id: v1.id,
    })
    await src(owner.token, 'POST', `/projects/${pid}/issues`, { title: 'Old idea', labels: 'ux,legacy' })
    await src(owner.token, 'POST', `/projects/${pid}/issues`, { title: 'Deleted later' })
    await src(owner.token, 'POST', `/projects/${pid}/issues`, { title: 'Private matter', confidential: true })
    await src(ROOT_TOKEN, 'DELETE', `/projects/${pid}/issues/3`)
    await src(owner.token, 'PUT', `/projects/${pid}/issues/2`, { state_event: 'close' })
    await src(owner.token, 'POST', `/projects/${pid}/issues/1/notes`, { body: 'I can reproduce it' })
    await src(owner.token, 'POST', `/projects/${pid}/issues/1/notes`, { body: 'Fixed on main?' })
    // A label change writes a system note, which the import leaves out.
    await src(owner.token, 'PUT', `/projects/${pid}/issues/1`, { add_labels: 'ux' })

    secret = (
      await src(owner.token, 'POST', '/projects', {
        name: 'Secret',
        namespace_id: group.id,
        initialize_with_readme: true,
        visibility: 'private',
      })
    ).json()
    seedMember(source, 'Project', secret.id as number, sourceGuest.user.id, AccessLevel.GUEST)

    target = await makeServer()
    // The source listens on 127.0.0.1: GitLab's default (local requests refused) would stop every import.
    await tgt(ROOT_TOKEN, 'PUT', '/application/settings', { allow_local_requests_from_web_hooks_and_services: true })
    importer = seedUser(target, { username: 'importer' })
    groupDev = seedUser(target, { username: 'group_dev' })
    const into = seedGroup(target, { path: 'imported', name: 'Imported' })
    seedGroup(target, { path: 'sub', name: 'Sub', parentId: into.id })
    seedMember(target, 'Namespace', into.id, importer.user.id, AccessLevel.MAINTAINER)
    seedMember(target, 'Namespace', into.id, groupDev.user.id, AccessLevel.DEVELOPER)
  })
  afterAll(async () => {
    await target.close()
    await source.close()
  })

  it('imports repository, labels, milestones, issues (iids kept) and notes from a GitLab-compatible instance', async () => {
    const res = await hostedGit(importer.token, { repo_id: upstream.id, target_namespace: 'imported' })
    expect(res.statusCode).toBe(201)
    const body = res.json() as Json
    expect(body).toEqual({
      id: expect.any(Number),
      name: 'Upstream',
      full_path: '/imported/upstream',
      full_name: 'Imported / Upstream',
      refs_url: '/imported/upstream/refs',
      import_source: 'up/upstream',
      import_status: 'scheduled',
      human_import_status_name: 'scheduled',
      provider_link: `${source.url}/up/upstream`,
      relation_type: null,
      import_warning: null,
    })
    await importsIdle(target.app.burrow)
    const id = body.id as number
    const status = (await tgt(importer.token, 'GET', `/projects/${id}/import`)).json() as Json
    expect(status).toMatchObject({
      id,
      import_status: 'finished',
      import_type: 'hosted_git',
      import_error: null,
      failed_relations: [],
      stats: { issues: 3, notes: 2, milestones: 2 },
    })
    const project = (await tgt(importer.token, 'GET', `/projects/${id}`)).json() as Json
    // The source is internal; a project never exceeds its (private) group's visibility.
    expect(project).toMatchObject({
      description: 'The original',
      visibility: 'private',
      default_branch: 'main',
      import_status: 'finished',
      import_type: 'hosted_git',
      empty_repo: false,
    })

    const branches = async (server: 'src' | 'tgt', pid: number): Promise<[string, string][]> =>
      (
        (
          await (server === 'src'
            ? src(owner.token, 'GET', `/projects/${pid}/repository/branches`)
            : tgt(importer.token, 'GET', `/projects/${pid}/repository/branches`))
        ).json() as { name: string; commit: { id: string } }[]
      ).map((b) => [b.name, b.commit.id])
    expect(await branches('tgt', id)).toEqual(await branches('src', upstream.id as number))
    const tags = (await tgt(importer.token, 'GET', `/projects/${id}/repository/tags`)).json() as {
      name: string
      message: string
    }[]
    expect(tags.map((t) => [t.name, t.message])).toEqual([['v1.0', 'First release']])

    const labels = (await tgt(importer.token, 'GET', `/projects/${id}/labels`)).json() as {
      name: string
      color: string
      description: string | null
    }[]
    expect(sorted(labels, (l) => l.name).map((l) => [l.name, l.color, l.description])).toEqual([
      ['bug', '#dc143c', 'Something is broken'],
      ['legacy', expect.any(String), null],
      ['ux', '#00aa55', null],
    ])
    const milestones = (await tgt(importer.token, 'GET', `/projects/${id}/milestones`)).json() as {
      iid: number
      title: string
      state: string
      due_date: string | null
    }[]
    expect(sorted(milestones, (m) => m.iid).map((m) => [m.iid, m.title, m.state, m.due_date])).toEqual([
      [1, 'v1', 'active', '2030-01-31'],
      [2, 'v0', 'closed', null],
    ])

    const sourceIssues = (await src(owner.token, 'GET', `/projects/${upstream.id}/issues?scope=all`)).json() as Json[]
    const issues = (await tgt(importer.token, 'GET', `/projects/${id}/issues?scope=all`)).json() as Json[]
    const shape = (list: Json[]) =>
      sorted(list, (i) => i.iid as number).map((i) => [
        i.iid,
        i.title,
        i.state,
        sorted(i.labels as string[], (l) => l),
        (i.milestone as Json | null)?.title ?? null,
        i.created_at,
        i.confidential,
      ])
    expect(shape(issues)).toEqual(shape(sourceIssues))
    expect(issues.map((i) => i.iid).sort()).toEqual([1, 2, 4])
    const first = issues.find((i) => i.iid === 1) as Json
    expect(first.description).toBe('*Created by: upstream_owner*\n\nIt crashes')
    expect((first.author as Json).username).toBe('importer')
    const notes = (await tgt(importer.token, 'GET', `/projects/${id}/issues/1/notes?sort=asc`)).json() as {
      body: string
      system: boolean
    }[]
    expect(notes.map((n) => [n.body, n.system])).toEqual([
      ['*Created by: upstream_owner*\n\nI can reproduce it', false],
      ['*Created by: upstream_owner*\n\nFixed on main?', false],
    ])
    // The next issue continues after the imported iids.
    expect((await tgt(importer.token, 'POST', `/projects/${id}/issues`, { title: 'New here' })).json().iid).toBe(5)
  })

  it('never keeps the source token: not in the database, the repository config or the import record', async () => {
    const list = (await tgt(importer.token, 'GET', '/projects?search=upstream')).json() as Json[]
    const id = list[0].id as number
    const gitDir = target.app.burrow.repos.repoPath('default', 'project', id)
    expect(readFileSync(join(gitDir, 'config'), 'utf8')).not.toContain(owner.token)
    const db = target.app.burrow.db
    db.pragma('wal_checkpoint(TRUNCATE)')
    expect(readFileSync(join(target.dataDir, 'burrow.sqlite3')).includes(Buffer.from(owner.token))).toBe(false)
    const status = (await tgt(importer.token, 'GET', `/projects/${id}/import`)).json() as Json
    expect(JSON.stringify(status)).not.toContain(owner.token)
  })

  it('imports into a subgroup under new_name', async () => {
    const res = await hostedGit(importer.token, {
      repo_id: upstream.id,
      target_namespace: 'imported/sub',
      new_name: 'renamed',
    })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({
      name: 'renamed',
      full_path: '/imported/sub/renamed',
      full_name: 'Imported / Sub / renamed',
    })
    await importsIdle(target.app.burrow)
    expect((await tgt(importer.token, 'GET', `/projects/${res.json().id}/import`)).json().import_status).toBe(
      'finished',
    )
  })

  it('answers GitLab errors for a bad namespace, missing rights, a taken name and bad input', async () => {
    const cases: [SeededUser, Json, number, Json][] = [
      [
        importer,
        { repo_id: upstream.id, target_namespace: 'nowhere' },
        422,
        { errors: 'Namespace or group to import repository into does not exist.' },
      ],
      [
        groupDev,
        { repo_id: upstream.id, target_namespace: 'imported' },
        422,
        { errors: 'You are not allowed to import projects in this namespace.' },
      ],
      [
        importer,
        { repo_id: upstream.id, target_namespace: 'imported' },
        422,
        { errors: 'Name has already been taken, Path has already been taken' },
      ],
      [
        importer,
        { repo_id: upstream.id, target_namespace: 'imported', custom_hostname: 'ftp://example.com' },
        400,
        { errors: 'Invalid URL: ftp://example.com' },
      ],
    ]
    for (const [user, payload, status, body] of cases) {
      const res = await hostedGit(user.token, payload)
      expect([payload, res.statusCode, res.json()]).toEqual([payload, status, body])
    }
    const missing = await tgt(importer.token, 'POST', '/import/hosted_git', {})
    expect([missing.statusCode, missing.json()]).toEqual([
      400,
      { error: 'personal_access_token is missing, repo_id is missing, target_namespace is missing' },
    ])
    const blank = await hostedGit(importer.token, { repo_id: upstream.id, target_namespace: ' ' })
    expect([blank.statusCode, blank.json()]).toEqual([400, { error: 'target_namespace is empty' }])
    expect(
      (
        await tgt(null, 'POST', '/import/hosted_git', {
          personal_access_token: 'x',
          repo_id: 1,
          target_namespace: 'imported',
        })
      ).statusCode,
    ).toBe(401)
  })

  it('answers 422 when the source refuses the token or lacks the project, 400 when its name does not resolve', async () => {
    const wrongToken = await hostedGit(importer.token, {
      repo_id: upstream.id,
      target_namespace: 'imported',
      new_name: 'x1',
      personal_access_token: 'wrong-token',
    })
    expect([wrongToken.statusCode, wrongToken.json()]).toEqual([
      422,
      { errors: 'Import failed due to a GitLab error: 401 Unauthorized (HTTP 401)' },
    ])
    const unknown = await hostedGit(importer.token, { repo_id: 999999, target_namespace: 'imported', new_name: 'x2' })
    expect([unknown.statusCode, unknown.json()]).toEqual([
      422,
      { errors: 'Import failed due to a GitLab error: 404 Project Not Found (HTTP 404)' },
    ])
    // GitLab's UrlBlocker: a host that cannot be resolved is an invalid URL (no network here, and `.invalid` never resolves).
    const nowhere = await hostedGit(importer.token, {
      repo_id: 1,
      target_namespace: 'imported',
      custom_hostname: 'https://source.invalid',
    })
    expect([nowhere.statusCode, nowhere.json()]).toEqual([400, { errors: 'Invalid URL: https://source.invalid' }])
    expect((await tgt(importer.token, 'GET', '/projects?search=x1')).json()).toEqual([])
  })

  it('refuses a source on the local network when local requests are not allowed', async () => {
    await tgt(ROOT_TOKEN, 'PUT', '/application/settings', { allow_local_requests_from_web_hooks_and_services: false })
    try {
      const res = await hostedGit(importer.token, {
        repo_id: upstream.id,
        target_namespace: 'imported',
        new_name: 'local',
      })
      expect([res.statusCode, res.json()]).toEqual([400, { errors: `Invalid URL: ${source.url}` }])
      const git = await tgt(importer.token, 'POST', '/import/git_server', {
        git_server_url: source.url,
        git_server_username: 'u',
        personal_access_token: 't',
        git_server_project: 'up',
        git_server_repo: 'upstream',
      })
      expect([git.statusCode, git.json()]).toEqual([400, { errors: `Invalid URL: ${source.url}` }])
    } finally {
      await tgt(ROOT_TOKEN, 'PUT', '/application/settings', { allow_local_requests_from_web_hooks_and_services: true })
    }
  })

  it('fails the import with import_error when the source refuses the clone (a Guest cannot download code)', async () => {
    const res = await hostedGit(importer.token, {
      repo_id: secret.id,
      target_namespace: 'imported',
      personal_access_token: sourceGuest.token,
    })
    expect(res.statusCode).toBe(201)
    await importsIdle(target.app.burrow)
    const status = (await tgt(importer.token, 'GET', `/projects/${res.json().id}/import`)).json() as Json
    expect(status.import_status).toBe('failed')
    expect(status.import_error).toMatch(/^Could not fetch the repository: .*403/)
    expect(status.import_error).not.toContain(sourceGuest.token)
    const project = (await tgt(importer.token, 'GET', `/projects/${res.json().id}`)).json() as Json
    expect([project.import_status, project.import_error]).toEqual(['failed', status.import_error])
  })

  it('imports a repository from a git server into the personal namespace by default', async () => {
    const res = await tgt(importer.token, 'POST', '/import/git_server', {
      git_server_url: source.url,
      git_server_username: 'upstream_owner',
      personal_access_token: owner.token,
      git_server_project: 'up',
      git_server_repo: 'upstream',
    })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({
      name: 'upstream',
      full_path: '/importer/upstream',
      import_source: 'up/upstream',
      import_status: 'scheduled',
    })
    await importsIdle(target.app.burrow)
    const id = res.json().id as number
    expect((await tgt(importer.token, 'GET', `/projects/${id}/import`)).json()).toMatchObject({
      import_status: 'finished',
      import_type: 'git_server',
      import_error: null,
    })
    const names = (
      (await tgt(importer.token, 'GET', `/projects/${id}/repository/branches`)).json() as { name: string }[]
    ).map((b) => b.name)
    expect(names).toEqual(['feature', 'main'])
    expect(
      ((await tgt(importer.token, 'GET', `/projects/${id}/repository/tags`)).json() as { name: string }[]).map(
        (t) => t.name,
      ),
    ).toEqual(['v1.0'])
    expect((await tgt(importer.token, 'GET', `/projects/${id}`)).json().default_branch).toBe('main')
    expect((await tgt(importer.token, 'GET', `/projects/${id}/issues`)).json()).toEqual([])
  })

  it('imports from a plain git server (git http-backend with basic auth), taking its HEAD as the default branch', async () => {
    const root = mkdtempSync(join(tmpdir(), 'burrow-git-server-'))
    const work = makeWorkRepo()
    await sh(work, 'checkout', '--quiet', '-b', 'trunk')
    commitFiles(work, { 'README.md': '# Widget\n' }, 'Start the widget')
    await sh(work, 'tag', '-a', 'v2.0', '-m', 'Release 2.0')
    await sh(work, 'checkout', '--quiet', '-b', 'feature')
    const featureHead = commitFiles(work, { 'feature.txt': 'wip\n' }, 'Feature work')
    const bare = join(root, 'tools', 'widget.git')
    await sh(root, 'clone', '--quiet', '--bare', work, bare)
    await sh(bare, 'symbolic-ref', 'HEAD', 'refs/heads/trunk')
    const server = await startGitHttpServer(root, { user: 'svc-import', password: 'server-secret' })
    try {
      const importFrom = (password: string, newName: string) =>
        tgt(importer.token, 'POST', '/import/git_server', {
          git_server_url: server.url,
          git_server_username: 'svc-import',
          personal_access_token: password,
          git_server_project: 'tools',
          git_server_repo: 'widget',
          new_name: newName,
        })
      const res = await importFrom('server-secret', 'widget')
      expect(res.statusCode).toBe(201)
      expect(res.json()).toMatchObject({
        name: 'widget',
        full_path: '/importer/widget',
        import_source: 'tools/widget',
        import_status: 'scheduled',
      })
      await importsIdle(target.app.burrow)
      const id = res.json().id as number
      expect((await tgt(importer.token, 'GET', `/projects/${id}/import`)).json()).toMatchObject({
        import_status: 'finished',
        import_type: 'git_server',
        import_error: null,
      })
      const branches = (await tgt(importer.token, 'GET', `/projects/${id}/repository/branches`)).json() as {
        name: string
        commit: { id: string }
      }[]
      expect(branches.map((b) => [b.name, b.name === 'feature' ? b.commit.id : 'any'])).toEqual([
        ['feature', featureHead],
        ['trunk', 'any'],
      ])
      expect(
        ((await tgt(importer.token, 'GET', `/projects/${id}/repository/tags`)).json() as { name: string }[]).map(
          (t) => t.name,
        ),
      ).toEqual(['v2.0'])
      expect((await tgt(importer.token, 'GET', `/projects/${id}`)).json().default_branch).toBe('trunk')
      expect(server.requests.length).toBeGreaterThan(0)
      expect(server.requests.every((r) => r.user === 'svc-import' || r.user === null)).toBe(true)
      expect(server.requests.some((r) => r.path.startsWith('/tools/widget.git/') && r.user === 'svc-import')).toBe(true)

      const refused = await importFrom('wrong-secret', 'widget-refused')
      expect(refused.statusCode).toBe(201)
      await importsIdle(target.app.burrow)
      const status = (await tgt(importer.token, 'GET', `/projects/${refused.json().id}/import`)).json() as Json
      expect(status.import_status).toBe('failed')
      expect(status.import_error).toBe(
        'Could not fetch the repository: Authentication failed: the server refused the username and token (HTTP 401)',
      )
      expect(status.import_error).not.toContain('wrong-secret')
    } finally {
      await server.close()
      rmSync(root, { recursive: true, force: true })
      rmSync(work, { recursive: true, force: true })
    }
  })

  it('fails a git server import whose credentials are refused, with the reason', async () => {
    const res = await tgt(importer.token, 'POST', '/import/git_server', {
      git_server_url: source.url,
      git_server_username: 'upstream_owner',
      personal_access_token: 'not-a-token',
      git_server_project: 'up',
      git_server_repo: 'secret',
      new_name: 'secret-copy',
      target_namespace: 'imported',
    })
    expect(res.statusCode).toBe(201)
    await importsIdle(target.app.burrow)
    const status = (await tgt(importer.token, 'GET', `/projects/${res.json().id}/import`)).json() as Json
    expect(status.import_status).toBe('failed')
    expect(status.import_error).toMatch(/^Could not fetch the repository: /)
    const missing = await tgt(importer.token, 'POST', '/import/git_server', { git_server_url: source.url })
    expect([missing.statusCode, missing.json()]).toEqual([
      400,
      {
        error:
          'git_server_username is missing, personal_access_token is missing, git_server_project is missing, git_server_repo is missing',
      },
    ])
  })

  it('records audit events and the created activity event of an imported project', async () => {
    const list = (await tgt(importer.token, 'GET', '/projects?search=renamed')).json() as Json[]
    const id = list[0].id as number
    const audits = (await tgt(ROOT_TOKEN, 'GET', `/projects/${id}/audit_events`)).json() as { details: Json }[]
    expect(audits.map((a) => a.details.custom_message)).toEqual(
      expect.arrayContaining([
        'Added project',
        `Started the import of up/upstream from ${source.url}`,
        'Finished the import',
      ]),
    )
    const events = (await tgt(importer.token, 'GET', `/projects/${id}/events`)).json() as {
      action_name: string
      author_id: number
    }[]
    expect(events.map((e) => [e.action_name, e.author_id])).toContainEqual(['created', importer.user.id])
  })

  it('reads every page of a source list, following X-Next-Page', async () => {
    const api = new SourceApi(source.url, owner.token, { allowLocal: true, allowlist: [] })
    const pages: number[][] = []
    for await (const page of api.pages<{ iid: number }>(
      `/projects/${upstream.id}/issues`,
      { scope: 'all', state: 'all', order_by: 'created_at', sort: 'asc' },
      2,
    )) {
      pages.push(page.map((i) => i.iid))
    }
    expect(pages).toEqual([[1, 2], [4]])
  })

  it('answers import_status none for a project that was not imported', async () => {
    const created = (await tgt(importer.token, 'POST', '/projects', { name: 'plain' })).json() as Json
    const status = (await tgt(importer.token, 'GET', `/projects/${created.id}/import`)).json() as Json
    expect(status).toMatchObject({ id: created.id, import_status: 'none', import_error: null, correlation_id: null })
  })

  it('marks an import the server stopped before running as failed after a restart', async () => {
    const other = await makeServer()
    await other.request(ROOT_TOKEN, {
      method: 'PUT',
      url: `${API}/application/settings`,
      payload: { allow_local_requests_from_web_hooks_and_services: true },
    })
    const user = seedUser(other, { username: 'restarter' })
    holdImports(other.app.burrow)
    const res = await other.request(user.token, {
      method: 'POST',
      url: `${API}/import/git_server`,
      payload: {
        git_server_url: source.url,
        git_server_username: 'upstream_owner',
        personal_access_token: owner.token,
        git_server_project: 'up',
        git_server_repo: 'upstream',
      },
    })
    expect(res.statusCode).toBe(201)
    await other.app.close()
    const again = await buildApp({ dataDir: other.dataDir, rootToken: ROOT_TOKEN, externalUrl: 'http://burrow.test' })
    try {
      await again.ready()
      const status = (
        await again.inject({
          method: 'GET',
          url: `${API}/projects/${res.json().id}/import`,
          headers: { 'private-token': user.token },
        })
      ).json() as Json
      expect(status.import_status).toBe('failed')
      expect(status.import_error).toBe(
        'The import was interrupted: the server stopped before it finished. Import the project again.',
      )
    } finally {
      await again.close()
      rmSync(other.dataDir, { recursive: true, force: true })
    }
  })
})
