import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

const api = (path: string): string => `/api/v4${path}`

describe('projects API', () => {
  let s: TestServer
  let alice: SeededUser
  let bob: SeededUser

  beforeAll(async () => {
    s = await makeServer()
    alice = seedUser(s)
    bob = seedUser(s)
  })
  afterAll(async () => {
    await s.close()
  })

  describe('POST /projects', () => {
    it('creates a personal project, deriving the path from the name', async () => {
      const res = await s.request(alice.token, {
        method: 'POST',
        url: api('/projects'),
        payload: { name: 'My Project' },
      })
      expect(res.statusCode).toBe(201)
      const body = res.json()
      expect(body.path).toBe('my-project')
      expect(body.path_with_namespace).toBe(`${alice.user.username}/my-project`)
      expect(body.namespace).toMatchObject({ kind: 'user', full_path: alice.user.username })
      expect(body.owner.id).toBe(alice.user.id)
      expect(body.visibility).toBe('private')
      expect(body.http_url_to_repo).toBe(`http://burrow.test/${alice.user.username}/my-project.git`)
      expect(body.permissions.project_access.access_level).toBe(50)
      expect(body.default_branch).toBe('main')
      expect(body.empty_repo).toBe(true)
    })

    it('derives the name from the path when only the path is given', async () => {
      const res = await s.request(alice.token, {
        method: 'POST',
        url: api('/projects'),
        payload: { path: 'only-path' },
      })
      expect(res.statusCode).toBe(201)
      expect(res.json().name).toBe('only-path')
    })

    it('answers 400 when neither name nor path is given', async () => {
      const res = await s.request(alice.token, { method: 'POST', url: api('/projects'), payload: { description: 'x' } })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'name, path are missing, at least one parameter must be provided' })
    })

    it('answers 400 with validation messages for a duplicate path and name', async () => {
      await s.request(alice.token, { method: 'POST', url: api('/projects'), payload: { name: 'dup' } })
      const res = await s.request(alice.token, { method: 'POST', url: api('/projects'), payload: { name: 'dup' } })
      expect(res.statusCode).toBe(400)
      expect(res.json().message.path).toEqual(['has already been taken'])
      expect(res.json().message.name).toEqual(['has already been taken'])
    })

    it('answers 400 for an invalid path', async () => {
      const res = await s.request(alice.token, {
        method: 'POST',
        url: api('/projects'),
        payload: { name: 'ok', path: '-bad' },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json().message.path[0]).toMatch(/can contain only letters/)
    })

    it('answers 400 for a visibility value outside the list', async () => {
      const res = await s.request(alice.token, {
        method: 'POST',
        url: api('/projects'),
        payload: { name: 'vis', visibility: 'secret' },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'visibility does not have a valid value' })
    })

    it('refuses a visibility above the group visibility', async () => {
      const group = seedGroup(s, { visibility: 'private' })
      seedMember(s, 'Namespace', group.id, alice.user.id, 50)
      const res = await s.request(alice.token, {
        method: 'POST',
        url: api('/projects'),
        payload: { name: 'pub', namespace_id: group.id, visibility: 'public' },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: { visibility_level: ['public is not allowed in a private group.'] } })
    })

    it('creates in a group by full path for a Maintainer and records the creation event', async () => {
      const group = seedGroup(s)
      seedMember(s, 'Namespace', group.id, bob.user.id, 40)
      const res = await s.request(bob.token, {
        method: 'POST',
        url: api('/projects'),
        payload: { name: 'grp-proj', namespace_id: group.full_path, topics: 'a,b' },
      })
      expect(res.statusCode).toBe(201)
      const body = res.json()
      expect(body.namespace.id).toBe(group.id)
      expect(body.topics).toEqual(['a', 'b'])
      expect(body.tag_list).toEqual(['a', 'b'])
      const event = s.app.burrow.db.prepare('SELECT * FROM events WHERE project_id = ?').get(body.id) as {
        action: string
        target_type: string | null
      }
      expect(event).toMatchObject({ action: 'created', target_type: null })
      const audit = s.app.burrow.db
        .prepare(`SELECT * FROM audit_events WHERE entity_type = 'Project' AND entity_id = ?`)
        .get(body.id)
      expect(audit).toBeDefined()
    })

    it("lets a group's Developer create a project there by default (GitLab's Developers + Maintainers), and makes them its Maintainer", async () => {
      const group = seedGroup(s)
      seedMember(s, 'Namespace', group.id, bob.user.id, 30)
      const res = await s.request(bob.token, {
        method: 'POST',
        url: api('/projects'),
        payload: { name: 'by-a-developer', namespace_id: group.id },
      })
      expect(res.statusCode, res.body).toBe(201)
      const member = await s.request(bob.token, {
        method: 'GET',
        url: api(`/projects/${res.json().id}/members/${bob.user.id}`),
      })
      expect(member.json()).toMatchObject({ access_level: 40 })
    })

    it('refuses project creation in a group to a Developer when the group asks for Maintainers', async () => {
      const group = seedGroup(s)
      s.app.burrow.db
        .prepare(
          `UPDATE namespaces SET settings = json_set(COALESCE(settings, '{}'), '$.project_creation_level', 'maintainer') WHERE id = ?`,
        )
        .run(group.id)
      seedMember(s, 'Namespace', group.id, bob.user.id, 30)
      const res = await s.request(bob.token, {
        method: 'POST',
        url: api('/projects'),
        payload: { name: 'nope', namespace_id: group.id },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: { namespace: ['is not valid'] } })
    })

    it('stores feature access levels and merge settings', async () => {
      const res = await s.request(alice.token, {
        method: 'POST',
        url: api('/projects'),
        payload: {
          name: 'features',
          issues_access_level: 'disabled',
          merge_method: 'ff',
          wiki_enabled: false,
          only_allow_merge_if_pipeline_succeeds: 'true',
        },
      })
      expect(res.statusCode).toBe(201)
      expect(res.json()).toMatchObject({
        issues_access_level: 'disabled',
        issues_enabled: false,
        merge_method: 'ff',
        wiki_access_level: 'disabled',
        only_allow_merge_if_pipeline_succeeds: true,
      })
    })

    it('answers 400 for an unknown feature access level', async () => {
      const res = await s.request(alice.token, {
        method: 'POST',
        url: api('/projects'),
        payload: { name: 'badlevel', issues_access_level: 'sometimes' },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'issues_access_level does not have a valid value' })
    })

    it('enforces the personal projects_limit', async () => {
      const limited = seedUser(s, { projects_limit: 0 })
      const res = await s.request(limited.token, { method: 'POST', url: api('/projects'), payload: { name: 'x' } })
      expect(res.statusCode).toBe(400)
      expect(res.json().message.limit_reached).toHaveLength(1)
    })

    it('lets administrators choose a known repository storage only', async () => {
      const bad = await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: api('/projects'),
        payload: { name: 'stor', repository_storage: 'nowhere' },
      })
      expect(bad.statusCode).toBe(400)
      expect(bad.json()).toEqual({ message: { repository_storage: ['is not included in the list'] } })
      const ok = await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: api('/projects'),
        payload: { name: 'stor', repository_storage: 'default' },
      })
      expect(ok.json().repository_storage).toBe('default')
    })

    it('answers 401 to anonymous callers', async () => {
      const res = await s.request(null, { method: 'POST', url: api('/projects'), payload: { name: 'anon' } })
      expect(res.statusCode).toBe(401)
    })
  })

  describe('POST /projects/user/:user_id', () => {
    it('lets an administrator create a project owned by a user', async () => {
      const res = await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: api(`/projects/user/${bob.user.id}`),
        payload: { name: 'for-bob' },
      })
      expect(res.statusCode).toBe(201)
      expect(res.json().namespace.full_path).toBe(bob.user.username)
      expect(res.json().creator_id).toBe(bob.user.id)
    })

    it('answers 403 to non-administrators', async () => {
      const res = await s.request(alice.token, {
        method: 'POST',
        url: api(`/projects/user/${bob.user.id}`),
        payload: { name: 'sneaky' },
      })
      expect(res.statusCode).toBe(403)
    })
  })

  describe('GET /projects/:id', () => {
    it('finds a project by URL-encoded full path in a subgroup', async () => {
      const top = seedGroup(s, { visibility: 'public' })
      const sub = seedGroup(s, { parentId: top.id, visibility: 'public' })
      const project = seedProject(s, { namespaceId: sub.id, visibility: 'public' })
      const res = await s.request(null, {
        method: 'GET',
        url: api(`/projects/${encodeURIComponent(`${top.path}/${sub.path}/${project.path}`)}`),
      })
      expect(res.statusCode).toBe(200)
      expect(res.json().id).toBe(project.id)
      expect(res.json().permissions).toBeUndefined()
    })

    it('answers 404 for a private project to a non-member', async () => {
      const project = seedProject(s, { ownerId: alice.user.id, visibility: 'private' })
      const res = await s.request(bob.token, { method: 'GET', url: api(`/projects/${project.id}`) })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: '404 Project Not Found' })
    })

    it('shows group_access for members through the group', async () => {
      const group = seedGroup(s)
      seedMember(s, 'Namespace', group.id, bob.user.id, 30)
      const project = seedProject(s, { namespaceId: group.id })
      const res = await s.request(bob.token, { method: 'GET', url: api(`/projects/${project.id}`) })
      expect(res.json().permissions).toEqual({
        project_access: null,
        group_access: { access_level: 30, notification_level: 3 },
      })
    })
  })

  describe('PUT /projects/:id', () => {
    it('updates name, description, visibility and topics for an Owner', async () => {
      const group = seedGroup(s, { visibility: 'public' })
      seedMember(s, 'Namespace', group.id, bob.user.id, 50)
      const project = seedProject(s, { namespaceId: group.id })
      const res = await s.request(bob.token, {
        method: 'PUT',
        url: api(`/projects/${project.id}`),
        payload: { name: 'Renamed', description: 'desc', visibility: 'internal', tag_list: ['x'] },
      })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({ name: 'Renamed', description: 'desc', visibility: 'internal', topics: ['x'] })
      const audits = s.app.burrow.db
        .prepare(`SELECT details FROM audit_events WHERE entity_type = 'Project' AND entity_id = ?`)
        .all(project.id) as { details: string }[]
      expect(audits.map((a) => JSON.parse(a.details).change)).toEqual(expect.arrayContaining(['visibility', 'name']))
    })

    it('lets a Maintainer edit the description but not rename the project or change its visibility (GitLab: Owner abilities)', async () => {
      const group = seedGroup(s, { visibility: 'public' })
      seedMember(s, 'Namespace', group.id, bob.user.id, 40)
      const project = seedProject(s, { namespaceId: group.id, visibility: 'public' })
      const put = (payload: Record<string, unknown>) =>
        s.request(bob.token, { method: 'PUT', url: api(`/projects/${project.id}`), payload })
      expect((await put({ name: 'Renamed', description: 'not stored' })).statusCode).toBe(403)
      expect((await put({ visibility: 'internal' })).statusCode).toBe(403)
      const kept = await s.request(bob.token, { method: 'GET', url: api(`/projects/${project.id}`) })
      expect(kept.json()).toMatchObject({ name: project.name, description: null, visibility: 'public' })
      expect((await put({ description: 'desc' })).json()).toMatchObject({ description: 'desc' })
    })

    it('answers 403 to a Developer', async () => {
      const group = seedGroup(s)
      seedMember(s, 'Namespace', group.id, bob.user.id, 30)
      const project = seedProject(s, { namespaceId: group.id })
      const res = await s.request(bob.token, {
        method: 'PUT',
        url: api(`/projects/${project.id}`),
        payload: { description: 'no' },
      })
      expect(res.statusCode).toBe(403)
    })

    it('refuses a path already taken in the namespace', async () => {
      const a = seedProject(s, { ownerId: alice.user.id })
      const b = seedProject(s, { ownerId: alice.user.id })
      const res = await s.request(alice.token, {
        method: 'PUT',
        url: api(`/projects/${b.id}`),
        payload: { path: a.path },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: { path: ['has already been taken'] } })
    })

    it('answers 412 when If-Unmodified-Since is older than the last change', async () => {
      const project = seedProject(s, { ownerId: alice.user.id })
      const res = await s.request(alice.token, {
        method: 'PUT',
        url: api(`/projects/${project.id}`),
        payload: { description: 'late' },
        headers: { 'if-unmodified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' },
      })
      expect(res.statusCode).toBe(412)
    })
  })

  describe('DELETE /projects/:id', () => {
    it('answers 403 to a Developer', async () => {
      const group = seedGroup(s)
      seedMember(s, 'Namespace', group.id, bob.user.id, 30)
      const project = seedProject(s, { namespaceId: group.id })
      const res = await s.request(bob.token, { method: 'DELETE', url: api(`/projects/${project.id}`) })
      expect(res.statusCode).toBe(403)
    })

    it('deletes for the owner with 202 Accepted', async () => {
      const project = seedProject(s, { ownerId: alice.user.id })
      const res = await s.request(alice.token, { method: 'DELETE', url: api(`/projects/${project.id}`) })
      expect(res.statusCode).toBe(202)
      expect(res.json()).toEqual({ message: '202 Accepted' })
      expect((await s.request(alice.token, { method: 'GET', url: api(`/projects/${project.id}`) })).statusCode).toBe(
        404,
      )
    })
  })

  describe('archive, stars', () => {
    it('archives and unarchives with 201', async () => {
      const project = seedProject(s, { ownerId: alice.user.id })
      const a = await s.request(alice.token, { method: 'POST', url: api(`/projects/${project.id}/archive`) })
      expect(a.statusCode).toBe(201)
      expect(a.json().archived).toBe(true)
      const u = await s.request(alice.token, { method: 'POST', url: api(`/projects/${project.id}/unarchive`) })
      expect(u.json().archived).toBe(false)
    })

    it('stars once, answers 304 on a second star, lists starrers, and unstars', async () => {
      const project = seedProject(s, { ownerId: alice.user.id, visibility: 'public' })
      const first = await s.request(bob.token, { method: 'POST', url: api(`/projects/${project.id}/star`) })
      expect(first.statusCode).toBe(201)
      expect(first.json().star_count).toBe(1)
      expect(
        (await s.request(bob.token, { method: 'POST', url: api(`/projects/${project.id}/star`) })).statusCode,
      ).toBe(304)
      const starrers = await s.request(bob.token, { method: 'GET', url: api(`/projects/${project.id}/starrers`) })
      expect(starrers.json()[0].user.id).toBe(bob.user.id)
      const starred = await s.request(bob.token, { method: 'GET', url: api('/projects?starred=true') })
      expect(starred.json().map((p: { id: number }) => p.id)).toEqual([project.id])
      const un = await s.request(bob.token, { method: 'POST', url: api(`/projects/${project.id}/unstar`) })
      expect(un.json().star_count).toBe(0)
      expect(
        (await s.request(bob.token, { method: 'POST', url: api(`/projects/${project.id}/unstar`) })).statusCode,
      ).toBe(304)
    })
  })

  describe('shares and transfer', () => {
    it('shares a project with a group, shows it in shared_with_groups and unshares', async () => {
      const project = seedProject(s, { ownerId: alice.user.id })
      const group = seedGroup(s, { visibility: 'internal' })
      const res = await s.request(alice.token, {
        method: 'POST',
        url: api(`/projects/${project.id}/share`),
        payload: { group_id: group.id, group_access: 30 },
      })
      expect(res.statusCode).toBe(201)
      expect(res.json()).toMatchObject({
        project_id: project.id,
        group_id: group.id,
        group_access: 30,
        expires_at: null,
      })
      const again = await s.request(alice.token, {
        method: 'POST',
        url: api(`/projects/${project.id}/share`),
        payload: { group_id: group.id, group_access: 30 },
      })
      expect(again.statusCode).toBe(409)
      const got = await s.request(alice.token, { method: 'GET', url: api(`/projects/${project.id}`) })
      expect(got.json().shared_with_groups).toEqual([
        {
          group_id: group.id,
          group_name: group.name,
          group_full_path: group.full_path,
          group_access_level: 30,
          expires_at: null,
        },
      ])
      const del = await s.request(alice.token, {
        method: 'DELETE',
        url: api(`/projects/${project.id}/share/${group.id}`),
      })
      expect(del.statusCode).toBe(204)
      expect(
        (await s.request(alice.token, { method: 'DELETE', url: api(`/projects/${project.id}/share/${group.id}`) }))
          .statusCode,
      ).toBe(404)
    })

    it('answers 400 for a share level outside the list', async () => {
      const project = seedProject(s, { ownerId: alice.user.id })
      const group = seedGroup(s, { visibility: 'internal' })
      const res = await s.request(alice.token, {
        method: 'POST',
        url: api(`/projects/${project.id}/share`),
        payload: { group_id: group.id, group_access: 33 },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'group_access does not have a valid value' })
    })

    it('transfers a personal project into a group where the owner is Maintainer', async () => {
      const project = seedProject(s, { ownerId: alice.user.id })
      const group = seedGroup(s)
      seedMember(s, 'Namespace', group.id, alice.user.id, 40)
      const res = await s.request(alice.token, {
        method: 'PUT',
        url: api(`/projects/${project.id}/transfer`),
        payload: { namespace: group.full_path },
      })
      expect(res.statusCode).toBe(200)
      expect(res.json().path_with_namespace).toBe(`${group.full_path}/${project.path}`)
    })
  })
})

describe('GET /projects lists', () => {
  let s: TestServer
  let member: SeededUser
  let outsider: SeededUser
  const ids: Record<string, number> = {}

  beforeAll(async () => {
    s = await makeServer()
    member = seedUser(s)
    outsider = seedUser(s)
    const group = seedGroup(s, { visibility: 'public' })
    ids.pub = seedProject(s, { namespaceId: group.id, visibility: 'public', path: 'alpha-public' }).id
    ids.int = seedProject(s, { namespaceId: group.id, visibility: 'internal', path: 'beta-internal' }).id
    ids.priv = seedProject(s, { namespaceId: group.id, visibility: 'private', path: 'gamma-private' }).id
    ids.other = seedProject(s, { ownerId: outsider.user.id, visibility: 'private', path: 'delta-hidden' }).id
    seedMember(s, 'Project', ids.priv, member.user.id, 30)
    s.app.burrow.db.prepare('UPDATE projects SET archived = 1 WHERE id = ?').run(ids.int)
    s.app.burrow.db.prepare(`UPDATE projects SET topics = '["rust","cli"]' WHERE id = ?`).run(ids.pub)
  })
  afterAll(async () => {
    await s.close()
  })

  const listIds = async (token: string | null, query = ''): Promise<number[]> => {
    const res = await s.request(token, { method: 'GET', url: api(`/projects${query}`) })
    expect(res.statusCode).toBe(200)
    return res.json().map((p: { id: number }) => p.id)
  }

  it('shows anonymous callers public projects only', async () => {
    expect(await listIds(null)).toEqual([ids.pub])
  })

  it('shows signed-in users public, internal and their private projects', async () => {
    expect((await listIds(member.token)).sort()).toEqual([ids.pub, ids.int, ids.priv].sort())
  })

  it('shows administrators every project', async () => {
    expect((await listIds(ROOT_TOKEN)).sort()).toEqual(Object.values(ids).sort())
  })

  it('filters by membership and min_access_level', async () => {
    expect(await listIds(member.token, '?membership=true')).toEqual([ids.priv])
    expect(await listIds(member.token, '?min_access_level=40')).toEqual([])
  })

  it('filters by owned', async () => {
    expect(await listIds(outsider.token, '?owned=true')).toEqual([ids.other])
  })

  it('filters by archived, visibility, search and topic', async () => {
    expect(await listIds(ROOT_TOKEN, '?archived=true')).toEqual([ids.int])
    expect(await listIds(ROOT_TOKEN, '?visibility=public')).toEqual([ids.pub])
    expect(await listIds(ROOT_TOKEN, '?search=gamma')).toEqual([ids.priv])
    expect(await listIds(ROOT_TOKEN, '?topic=rust')).toEqual([ids.pub])
  })

  it('accepts booleans written the way python-gitlab writes them (True)', async () => {
    expect(await listIds(ROOT_TOKEN, '?archived=True')).toEqual([ids.int])
  })

  it('filters by id_after and id_before', async () => {
    expect(await listIds(ROOT_TOKEN, `?id_after=${ids.int}&order_by=id&sort=asc`)).toEqual([ids.priv, ids.other])
    expect(await listIds(ROOT_TOKEN, `?id_before=${ids.int}`)).toEqual([ids.pub])
  })

  it('orders by path ascending when asked', async () => {
    expect(await listIds(ROOT_TOKEN, '?order_by=path&sort=asc')).toEqual([ids.pub, ids.int, ids.other, ids.priv])
  })

  it('returns the simple entity with simple=true', async () => {
    const res = await s.request(ROOT_TOKEN, { method: 'GET', url: api('/projects?simple=true&per_page=1') })
    expect(Object.keys(res.json()[0])).not.toContain('permissions')
    expect(Object.keys(res.json()[0])).toContain('namespace')
  })

  it('filters by repository_storage for administrators', async () => {
    expect((await listIds(ROOT_TOKEN, '?repository_storage=default')).length).toBe(4)
    expect(await listIds(ROOT_TOKEN, '?repository_storage=other')).toEqual([])
  })

  it('ignores repository_storage for non-administrators, who cannot see storages', async () => {
    expect((await listIds(member.token, '?repository_storage=other')).sort()).toEqual(
      (await listIds(member.token)).sort(),
    )
    const [project] = (await s.request(member.token, { method: 'GET', url: api('/projects?per_page=1') })).json()
    expect(project).not.toHaveProperty('repository_storage')
  })

  it('sets offset pagination headers', async () => {
    const res = await s.request(ROOT_TOKEN, { method: 'GET', url: api('/projects?per_page=1&page=2') })
    expect(res.headers['x-total']).toBe('4')
    expect(res.headers['x-total-pages']).toBe('4')
    expect(res.headers['x-page']).toBe('2')
    expect(res.headers['x-next-page']).toBe('3')
    expect(res.headers['x-prev-page']).toBe('1')
    expect(res.headers.link).toContain('rel="next"')
    expect(res.headers.link).toContain('rel="prev"')
  })

  it('pages by keyset with a rel="next" link', async () => {
    const first = await s.request(ROOT_TOKEN, {
      method: 'GET',
      url: api('/projects?pagination=keyset&order_by=id&sort=asc&per_page=2'),
    })
    expect(first.json().map((p: { id: number }) => p.id)).toEqual([ids.pub, ids.int])
    const link = String(first.headers.link)
    expect(link).toMatch(/rel="next"/)
    const next = new URL(link.slice(1, link.indexOf('>')))
    expect(next.searchParams.get('id_after')).toBe(String(ids.int))
    const second = await s.request(ROOT_TOKEN, { method: 'GET', url: `${next.pathname}${next.search}` })
    expect(second.json().map((p: { id: number }) => p.id)).toEqual([ids.priv, ids.other])
  })

  it('answers 400 for keyset pagination ordered by something other than id', async () => {
    const res = await s.request(ROOT_TOKEN, { method: 'GET', url: api('/projects?pagination=keyset&order_by=name') })
    expect(res.statusCode).toBe(400)
  })

  it('shows a renamed group and a new permission in the next list, never a memoised older entity', async () => {
    const group = seedGroup(s, { visibility: 'public' })
    const project = seedProject(s, { namespaceId: group.id, visibility: 'public', path: 'epsilon-renamed' })
    const entityOf = async (
      token: string,
    ): Promise<{ path_with_namespace: string; permissions: { project_access: unknown } }> => {
      const res = await s.request(token, { method: 'GET', url: api('/projects?search=epsilon-renamed') })
      return res.json()[0]
    }
    expect((await entityOf(member.token)).path_with_namespace).toBe(`${group.path}/epsilon-renamed`)
    expect((await entityOf(member.token)).permissions.project_access).toBeNull()
    const renamed = await s.request(ROOT_TOKEN, {
      method: 'PUT',
      url: api(`/groups/${group.id}`),
      payload: { path: `${group.path}-moved` },
    })
    expect(renamed.statusCode).toBe(200)
    seedMember(s, 'Project', project.id, member.user.id, 20)
    const after = await entityOf(member.token)
    expect(after.path_with_namespace).toBe(`${group.path}-moved/epsilon-renamed`)
    expect(after.permissions.project_access).toEqual({ access_level: 20, notification_level: 3 })
  })

  it('lists a user’s personal projects visible to the caller', async () => {
    const res = await s.request(member.token, { method: 'GET', url: api(`/users/${outsider.user.id}/projects`) })
    expect(res.json()).toEqual([])
    const admin = await s.request(ROOT_TOKEN, { method: 'GET', url: api(`/users/${outsider.user.username}/projects`) })
    expect(admin.json().map((p: { id: number }) => p.id)).toEqual([ids.other])
  })
})
