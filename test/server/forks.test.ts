import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { migrate } from '../../src/server/platform/db/connection'
import { migrations } from '../../src/server/platform/db/migrations/index'
import { seedGroup, seedMember } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

describe('forks', () => {
  let s: ListeningServer
  let ann: SeededUser
  let bob: SeededUser
  let carol: SeededUser
  let source: Json
  let groupId: number
  let privateGroupId: number

  const call = (token: string | null, method: Method, url: string, payload?: Json) =>
    s.request(token, { method, url: `/api/v4${url}`, payload })
  const ok = async (token: string | null, method: Method, url: string, payload?: Json) => {
    const res = await call(token, method, url, payload)
    expect(res.statusCode, res.body).toBeLessThan(300)
    return res.json() as Json & Json[]
  }
  const projectCount = (): number =>
    (s.app.burrow.db.prepare('SELECT COUNT(*) AS n FROM projects').get() as { n: number }).n
  const branchHeads = async (token: string, projectId: unknown): Promise<Record<string, string>> =>
    Object.fromEntries(
      ((await ok(token, 'GET', `/projects/${String(projectId)}/repository/branches`)) as Json[]).map((b) => [
        b.name,
        (b.commit as Json).id,
      ]),
    )

  beforeAll(async () => {
    s = await startServer()
    ann = seedUser(s, { username: 'fork_ann' })
    bob = seedUser(s, { username: 'fork_bob' })
    carol = seedUser(s, { username: 'fork_carol' })
    const group = seedGroup(s, { path: 'upstream', visibility: 'public' })
    groupId = group.id
    privateGroupId = seedGroup(s, { path: 'quiet', visibility: 'private' }).id
    seedMember(s, 'Namespace', group.id, ann.user.id, AccessLevel.OWNER)
    seedMember(s, 'Namespace', privateGroupId, bob.user.id, AccessLevel.MAINTAINER)
    source = await ok(ann.token, 'POST', '/projects', {
      name: 'Engine',
      namespace_id: String(group.id),
      visibility: 'public',
      description: 'The engine',
      initialize_with_readme: true,
    })
    await ok(ann.token, 'POST', `/projects/${String(source.id)}/repository/commits`, {
      branch: 'feature',
      start_branch: 'main',
      commit_message: 'Add the feature',
      actions: [{ action: 'create', file_path: 'feature.txt', content: 'feature\n' }],
    })
    await ok(ann.token, 'POST', `/projects/${String(source.id)}/repository/tags`, { tag_name: 'v1.0', ref: 'main' })
  })
  afterAll(async () => {
    await s.close()
  })

  it("forks into the caller's namespace: a real copy of every branch and tag, linked to its upstream", async () => {
    const fork = await ok(bob.token, 'POST', `/projects/${String(source.id)}/fork`)
    expect(fork).toMatchObject({
      name: 'Engine',
      path: 'engine',
      path_with_namespace: 'fork_bob/engine',
      description: 'The engine',
      visibility: 'public',
      default_branch: 'main',
      empty_repo: false,
      forked_from_project: { id: source.id, path_with_namespace: 'upstream/engine', forks_count: 1 },
      permissions: { project_access: { access_level: AccessLevel.OWNER } },
    })
    expect(await branchHeads(bob.token, fork.id)).toEqual(await branchHeads(ann.token, source.id))
    const tags = (await ok(bob.token, 'GET', `/projects/${String(fork.id)}/repository/tags`)) as Json[]
    expect(tags.map((t) => t.name)).toEqual(['v1.0'])
    expect((await ok(ann.token, 'GET', `/projects/${String(source.id)}`)).forks_count).toBe(1)
    // Every project answer of a fork names its upstream; the upstream itself is no fork.
    expect((await ok(null, 'GET', `/projects/${String(fork.id)}`)).forked_from_project).toMatchObject({
      id: source.id,
    })
    expect(await ok(ann.token, 'GET', `/projects/${String(source.id)}`)).not.toHaveProperty('forked_from_project')
    const listed = (await ok(bob.token, 'GET', '/projects?owned=true')) as Json[]
    expect(listed.find((p) => p.id === fork.id)).toMatchObject({ forked_from_project: { id: source.id } })
  })

  it('takes the name, path, description, visibility, namespace and one branch asked for', async () => {
    const fork = await ok(bob.token, 'POST', `/projects/${String(source.id)}/fork`, {
      namespace_path: 'quiet',
      name: 'Engine feature',
      path: 'engine-feature',
      description: 'Only the feature',
      visibility: 'public',
      branches: 'feature',
      mr_default_target_self: true,
    })
    // Never more visible than the group it lands in.
    expect(fork).toMatchObject({
      path_with_namespace: 'quiet/engine-feature',
      visibility: 'private',
      default_branch: 'feature',
      description: 'Only the feature',
      mr_default_target_self: true,
    })
    expect(Object.keys(await branchHeads(bob.token, fork.id))).toEqual(['feature'])
  })

  it('refuses as GitLab does, and creates nothing', async () => {
    const before = projectCount()
    const refused = async (token: string | null, url: string, body: Json, status: number, answer: unknown) => {
      const res = await call(token, 'POST', url, body)
      expect(res.statusCode, res.body).toBe(status)
      expect(res.json()).toEqual(answer)
    }
    const fork = `/projects/${String(source.id)}/fork`
    await refused(null, fork, {}, 401, { message: '401 Unauthorized' })
    // bob's namespace already has an "Engine".
    await refused(bob.token, fork, {}, 409, {
      message: { name: ['has already been taken'], path: ['has already been taken'] },
    })
    await refused(carol.token, fork, { namespace_id: String(privateGroupId) }, 404, {
      message: '404 Namespace Not Found',
    })
    await refused(carol.token, fork, { namespace_id: String(groupId) }, 404, {
      message: '404 Target Namespace Not Found',
    })
    await refused(carol.token, fork, { namespace_path: 'fork_bob' }, 404, { message: '404 Target Namespace Not Found' })
    await refused(carol.token, fork, { branches: 'nope' }, 404, { message: '404 Source Branch Not Found' })
    await refused(carol.token, fork, { namespace_id: '999999' }, 404, { message: '404 Namespace Not Found' })
    const hidden = await ok(ann.token, 'POST', '/projects', { name: 'Hidden', namespace_id: String(groupId) })
    await refused(carol.token, `/projects/${String(hidden.id)}/fork`, {}, 404, { message: '404 Project Not Found' })
    await ok(ann.token, 'PUT', `/projects/${String(source.id)}`, { forking_access_level: 'disabled' })
    await refused(carol.token, fork, {}, 403, { message: '403 Forbidden' })
    await ok(ann.token, 'PUT', `/projects/${String(source.id)}`, { forking_access_level: 'private' })
    await refused(carol.token, fork, {}, 403, { message: '403 Forbidden' })
    await ok(ann.token, 'PUT', `/projects/${String(source.id)}`, { forking_access_level: 'enabled' })
    expect(projectCount()).toBe(before + 1)
  })

  it('lists the direct forks the caller may see, with the usual filters and pagination', async () => {
    const forks = `/projects/${String(source.id)}/forks`
    const res = await call(bob.token, 'GET', `${forks}?order_by=path&sort=asc`)
    expect((res.json() as Json[]).map((p) => p.path_with_namespace)).toEqual([
      'fork_bob/engine',
      'quiet/engine-feature',
    ])
    expect(res.headers['x-total']).toBe('2')
    // The private fork is hidden from those who cannot read it.
    expect(((await ok(carol.token, 'GET', forks)) as Json[]).map((p) => p.path_with_namespace)).toEqual([
      'fork_bob/engine',
    ])
    expect(((await ok(bob.token, 'GET', `${forks}?visibility=private`)) as Json[]).map((p) => p.path)).toEqual([
      'engine-feature',
    ])
    expect((await call(bob.token, 'GET', `${forks}?per_page=1`)).headers['x-total-pages']).toBe('2')
  })

  it('links and unlinks an existing project as a fork (owners and administrators), keeping forks_count right', async () => {
    const own = await ok(carol.token, 'POST', '/projects', { name: 'Motor', visibility: 'public' })
    const link = `/projects/${String(own.id)}/fork/${String(source.id)}`
    const count = async (): Promise<unknown> =>
      (await ok(ann.token, 'GET', `/projects/${String(source.id)}`)).forks_count
    const before = await count()
    expect((await call(bob.token, 'POST', link)).statusCode).toBe(403)
    expect((await call(carol.token, 'POST', `/projects/${String(own.id)}/fork/${String(own.id)}`)).statusCode).toBe(400)
    expect(await ok(carol.token, 'POST', link)).toMatchObject({ forked_from_project: { id: source.id } })
    expect(await count()).toBe(Number(before) + 1)
    const again = await call(carol.token, 'POST', link)
    expect(again.statusCode).toBe(409)
    expect(again.json()).toEqual({ message: '409 Project already forked' })
    expect((await call(bob.token, 'DELETE', `/projects/${String(own.id)}/fork`)).statusCode).toBe(403)
    expect((await call(carol.token, 'DELETE', `/projects/${String(own.id)}/fork`)).statusCode).toBe(204)
    expect(await ok(carol.token, 'GET', `/projects/${String(own.id)}`)).not.toHaveProperty('forked_from_project')
    expect(await count()).toBe(before)
    expect((await call(carol.token, 'DELETE', `/projects/${String(own.id)}/fork`)).statusCode).toBe(304)
    // An administrator links any project; deleting the fork takes it off the count.
    await ok(ROOT_TOKEN, 'POST', link)
    expect(await count()).toBe(Number(before) + 1)
    expect((await call(carol.token, 'DELETE', `/projects/${String(own.id)}`)).statusCode).toBe(202)
    expect(await count()).toBe(before)
  })

  it('keeps forks in the group when its top-level group prevents forking outside it', async () => {
    const fork = `/projects/${String(source.id)}/fork`
    await ok(ann.token, 'PUT', `/groups/${groupId}`, { prevent_forking_outside_group: true })
    try {
      const outside = await call(carol.token, 'POST', fork, { name: 'Outside', path: 'outside' })
      expect(outside.statusCode).toBe(404)
      expect(outside.json()).toEqual({ message: '404 Target Namespace Not Found' })
      const inside = await ok(ann.token, 'POST', fork, {
        namespace_id: String(groupId),
        name: 'Engine inside',
        path: 'engine-inside',
      })
      expect(inside.path_with_namespace).toBe('upstream/engine-inside')
      await ok(ann.token, 'DELETE', `/projects/${String(inside.id)}`)
    } finally {
      await ok(ann.token, 'PUT', `/groups/${groupId}`, { prevent_forking_outside_group: false })
    }
  })

  it('forks and lists forks with python-gitlab over the wire', async () => {
    const result = await withPythonGitlab<{ created: string; upstream: number; listed: string[] }>(
      s.url,
      { private_token: carol.token },
      `
project = gl.projects.get(${String(source.id)}, lazy=True)
fork = project.forks.create({'name': 'Wire engine', 'path': 'wire-engine'})
created = gl.projects.get(fork.id)
out({'created': created.path_with_namespace, 'upstream': created.forked_from_project['id'],
     'listed': sorted(p.path_with_namespace for p in project.forks.list(get_all=True))})
`,
    )
    expect(result).toEqual({
      created: 'fork_carol/wire-engine',
      upstream: source.id,
      listed: ['fork_bob/engine', 'fork_carol/wire-engine'],
    })
  })
})

describe('migration 0046 (fork networks)', () => {
  it('adds fork networks to an existing database; forks_count follows links, unlinks and deletions', () => {
    const t = '2026-01-01T00:00:00.000Z'
    const db = new Database(':memory:')
    db.pragma('foreign_keys = ON')
    migrate(
      db,
      migrations.filter((m) => m.version < 46),
    )
    db.exec(`
      INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at, updated_at) VALUES (1, 'group', 'G', 'g', 'g', 'G', '${t}', '${t}');
      INSERT INTO projects (id, namespace_id, name, path, created_at, updated_at, last_activity_at)
        VALUES (1, 1, 'A', 'a', '${t}', '${t}', '${t}'), (2, 1, 'B', 'b', '${t}', '${t}', '${t}'), (3, 1, 'C', 'c', '${t}', '${t}', '${t}');
    `)
    migrate(db)
    const counts = () => db.prepare('SELECT id, forks_count FROM projects ORDER BY id').all()
    expect(counts()).toEqual([
      { id: 1, forks_count: 0 },
      { id: 2, forks_count: 0 },
      { id: 3, forks_count: 0 },
    ])
    db.exec(`
      INSERT INTO fork_networks (id, root_project_id, created_at) VALUES (1, 1, '${t}');
      INSERT INTO fork_network_members (project_id, fork_network_id, forked_from_project_id, created_at)
        VALUES (1, 1, NULL, '${t}'), (2, 1, 1, '${t}'), (3, 1, 1, '${t}');
    `)
    expect(counts()).toEqual([
      { id: 1, forks_count: 2 },
      { id: 2, forks_count: 0 },
      { id: 3, forks_count: 0 },
    ])
    db.exec('UPDATE fork_network_members SET forked_from_project_id = 2 WHERE project_id = 3')
    db.exec('DELETE FROM projects WHERE id = 3')
    expect(counts()).toEqual([
      { id: 1, forks_count: 1 },
      { id: 2, forks_count: 0 },
    ])
    expect(() => db.exec(`UPDATE fork_network_members SET forked_from_project_id = 2 WHERE project_id = 2`)).toThrow(
      /CHECK/,
    )
  })
})
