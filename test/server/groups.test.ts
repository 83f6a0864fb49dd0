import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

const api = (path: string): string => `/api/v4${path}`

describe('groups API', () => {
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

  describe('POST /groups', () => {
    it('creates a top-level group and makes the creator its Owner', async () => {
      const res = await s.request(alice.token, {
        method: 'POST',
        url: api('/groups'),
        payload: { name: 'Alpha', path: 'alpha', description: 'd' },
      })
      expect(res.statusCode).toBe(201)
      const body = res.json()
      expect(body).toMatchObject({
        name: 'Alpha',
        path: 'alpha',
        full_path: 'alpha',
        full_name: 'Alpha',
        parent_id: null,
        visibility: 'private',
        projects: [],
        shared_projects: [],
      })
      const member = s.app.burrow.db
        .prepare(`SELECT access_level FROM members WHERE source_type = 'Namespace' AND source_id = ? AND user_id = ?`)
        .get(body.id, alice.user.id)
      expect(member).toEqual({ access_level: 50 })
      const audit = s.app.burrow.db
        .prepare(`SELECT 1 FROM audit_events WHERE entity_type = 'Group' AND entity_id = ?`)
        .get(body.id)
      expect(audit).toBeDefined()
    })

    it('answers 400 when path is missing', async () => {
      const res = await s.request(alice.token, { method: 'POST', url: api('/groups'), payload: { name: 'NoPath' } })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'path is missing' })
    })

    it('answers 400 for a taken path', async () => {
      seedGroup(s, { path: 'taken' })
      const res = await s.request(alice.token, {
        method: 'POST',
        url: api('/groups'),
        payload: { name: 'Taken', path: 'taken' },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: { path: ['has already been taken'] } })
    })

    it('answers 403 when the user may not create groups', async () => {
      const noGroups = seedUser(s, { can_create_group: 0 })
      const res = await s.request(noGroups.token, {
        method: 'POST',
        url: api('/groups'),
        payload: { name: 'X', path: 'x-not-allowed' },
      })
      expect(res.statusCode).toBe(403)
    })

    it('creates a subgroup for a Maintainer of the parent', async () => {
      const parent = seedGroup(s)
      seedMember(s, 'Namespace', parent.id, bob.user.id, 40)
      const res = await s.request(bob.token, {
        method: 'POST',
        url: api('/groups'),
        payload: { name: 'Child', path: 'child', parent_id: parent.id },
      })
      expect(res.statusCode).toBe(201)
      expect(res.json()).toMatchObject({ full_path: `${parent.full_path}/child`, parent_id: parent.id })
    })

    it('answers 403 to a Developer creating a subgroup', async () => {
      const parent = seedGroup(s)
      seedMember(s, 'Namespace', parent.id, bob.user.id, 30)
      const res = await s.request(bob.token, {
        method: 'POST',
        url: api('/groups'),
        payload: { name: 'Child', path: 'child', parent_id: parent.id },
      })
      expect(res.statusCode).toBe(403)
    })

    it('refuses a subgroup more visible than its parent', async () => {
      const parent = seedGroup(s, { visibility: 'internal' })
      const res = await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: api('/groups'),
        payload: { name: 'Pub', path: 'pub', parent_id: parent.id, visibility: 'public' },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({
        message: { visibility_level: ['public is not allowed since the parent group has a internal visibility.'] },
      })
    })

    it('stores settings such as project_creation_level', async () => {
      const res = await s.request(alice.token, {
        method: 'POST',
        url: api('/groups'),
        payload: {
          name: 'Dev',
          path: 'dev-created',
          project_creation_level: 'developer',
          subgroup_creation_level: 'owner',
        },
      })
      expect(res.json()).toMatchObject({ project_creation_level: 'developer', subgroup_creation_level: 'owner' })
    })
  })

  describe('GET /groups', () => {
    it('shows anonymous callers public groups only', async () => {
      const pub = seedGroup(s, { visibility: 'public', path: 'zz-public' })
      const priv = seedGroup(s, { visibility: 'private', path: 'zz-private' })
      const res = await s.request(null, { method: 'GET', url: api('/groups?search=zz-&per_page=100') })
      const ids = res.json().map((g: { id: number }) => g.id)
      expect(ids).toContain(pub.id)
      expect(ids).not.toContain(priv.id)
    })

    it('shows signed-in users their groups by default and visible ones with all_available', async () => {
      const user = seedUser(s)
      const mine = seedGroup(s, { path: 'yy-mine' })
      const pub = seedGroup(s, { visibility: 'public', path: 'yy-public' })
      const hidden = seedGroup(s, { path: 'yy-hidden' })
      seedMember(s, 'Namespace', mine.id, user.user.id, 10)
      const own = await s.request(user.token, { method: 'GET', url: api('/groups?search=yy-') })
      expect(own.json().map((g: { id: number }) => g.id)).toEqual([mine.id])
      const all = await s.request(user.token, { method: 'GET', url: api('/groups?search=yy-&all_available=true') })
      const ids = all.json().map((g: { id: number }) => g.id)
      expect(ids.sort()).toEqual([mine.id, pub.id].sort())
      expect(ids).not.toContain(hidden.id)
    })

    it('orders by name ascending by default and skips skip_groups', async () => {
      const b = seedGroup(s, { path: 'xx-b', name: 'xx-b' })
      const a = seedGroup(s, { path: 'xx-a', name: 'xx-a' })
      const c = seedGroup(s, { path: 'xx-c', name: 'xx-c' })
      const res = await s.request(ROOT_TOKEN, { method: 'GET', url: api(`/groups?search=xx-&skip_groups[]=${c.id}`) })
      expect(res.json().map((g: { id: number }) => g.id)).toEqual([a.id, b.id])
      expect(res.headers['x-total']).toBe('2')
    })

    it('filters top_level_only and owned', async () => {
      const user = seedUser(s)
      const top = seedGroup(s, { path: 'ww-top' })
      const sub = seedGroup(s, { path: 'ww-sub', parentId: top.id })
      seedMember(s, 'Namespace', top.id, user.user.id, 50)
      const owned = await s.request(user.token, { method: 'GET', url: api('/groups?owned=true&search=ww-') })
      expect(
        owned
          .json()
          .map((g: { id: number }) => g.id)
          .sort(),
      ).toEqual([top.id, sub.id].sort())
      const tops = await s.request(user.token, { method: 'GET', url: api('/groups?top_level_only=true&search=ww-') })
      expect(tops.json().map((g: { id: number }) => g.id)).toEqual([top.id])
    })
  })

  describe('GET /groups/:id', () => {
    it('answers 404 for a private group to a non-member', async () => {
      const g = seedGroup(s)
      const res = await s.request(bob.token, { method: 'GET', url: api(`/groups/${g.id}`) })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: '404 Group Not Found' })
    })

    it('finds a subgroup by URL-encoded full path, with its projects', async () => {
      const top = seedGroup(s, { visibility: 'public' })
      const sub = seedGroup(s, { parentId: top.id, visibility: 'public' })
      const project = seedProject(s, { namespaceId: sub.id, visibility: 'public' })
      const res = await s.request(null, { method: 'GET', url: api(`/groups/${encodeURIComponent(sub.full_path)}`) })
      expect(res.statusCode).toBe(200)
      expect(res.json().id).toBe(sub.id)
      expect(res.json().projects.map((p: { id: number }) => p.id)).toEqual([project.id])
      const without = await s.request(null, { method: 'GET', url: api(`/groups/${sub.id}?with_projects=false`) })
      expect(without.json().projects).toBeUndefined()
    })
  })

  describe('PUT /groups/:id', () => {
    it('renaming the path rewrites descendants’ full paths', async () => {
      const top = seedGroup(s, { path: 'old-top', name: 'Old Top' })
      const sub = seedGroup(s, { parentId: top.id, path: 'mid' })
      const leaf = seedGroup(s, { parentId: sub.id, path: 'leaf' })
      const project = seedProject(s, { namespaceId: leaf.id, path: 'app' })
      const res = await s.request(ROOT_TOKEN, {
        method: 'PUT',
        url: api(`/groups/${top.id}`),
        payload: { path: 'new-top', name: 'New Top' },
      })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({ path: 'new-top', full_path: 'new-top', name: 'New Top' })
      const leafRes = await s.request(ROOT_TOKEN, {
        method: 'GET',
        url: api(`/groups/${encodeURIComponent('new-top/mid/leaf')}`),
      })
      expect(leafRes.json()).toMatchObject({ id: leaf.id, full_name: 'New Top / mid / leaf' })
      const proj = await s.request(ROOT_TOKEN, {
        method: 'GET',
        url: api(`/projects/${encodeURIComponent('new-top/mid/leaf/app')}`),
      })
      expect(proj.json().id).toBe(project.id)
      expect(
        (await s.request(ROOT_TOKEN, { method: 'GET', url: api(`/groups/${encodeURIComponent('old-top/mid')}`) }))
          .statusCode,
      ).toBe(404)
    })

    it('answers 403 to a Maintainer (Owner required)', async () => {
      const g = seedGroup(s)
      seedMember(s, 'Namespace', g.id, bob.user.id, 40)
      const res = await s.request(bob.token, {
        method: 'PUT',
        url: api(`/groups/${g.id}`),
        payload: { description: 'x' },
      })
      expect(res.statusCode).toBe(403)
    })

    it('refuses a visibility below that of its projects', async () => {
      const g = seedGroup(s, { visibility: 'public' })
      seedProject(s, { namespaceId: g.id, visibility: 'public' })
      const res = await s.request(ROOT_TOKEN, {
        method: 'PUT',
        url: api(`/groups/${g.id}`),
        payload: { visibility: 'private' },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({
        message: {
          visibility_level: ['private is not allowed since this group contains projects with higher visibility.'],
        },
      })
    })
  })

  describe('DELETE /groups/:id', () => {
    it('answers 403 to a Developer', async () => {
      const g = seedGroup(s)
      seedMember(s, 'Namespace', g.id, bob.user.id, 30)
      expect((await s.request(bob.token, { method: 'DELETE', url: api(`/groups/${g.id}`) })).statusCode).toBe(403)
    })

    it('deletes the group with subgroups and projects, answering 202', async () => {
      const g = seedGroup(s)
      seedMember(s, 'Namespace', g.id, alice.user.id, 50)
      const sub = seedGroup(s, { parentId: g.id })
      const project = seedProject(s, { namespaceId: sub.id })
      const res = await s.request(alice.token, { method: 'DELETE', url: api(`/groups/${g.id}`) })
      expect(res.statusCode).toBe(202)
      expect(res.json()).toEqual({ message: '202 Accepted' })
      expect((await s.request(ROOT_TOKEN, { method: 'GET', url: api(`/groups/${sub.id}`) })).statusCode).toBe(404)
      expect((await s.request(ROOT_TOKEN, { method: 'GET', url: api(`/projects/${project.id}`) })).statusCode).toBe(404)
    })
  })

  describe('subgroups, descendants and projects', () => {
    it('lists direct subgroups and all descendants', async () => {
      const top = seedGroup(s, { visibility: 'public' })
      const a = seedGroup(s, { parentId: top.id, visibility: 'public', path: 'a' })
      const deep = seedGroup(s, { parentId: a.id, visibility: 'public', path: 'deep' })
      const subs = await s.request(null, { method: 'GET', url: api(`/groups/${top.id}/subgroups`) })
      expect(subs.json().map((g: { id: number }) => g.id)).toEqual([a.id])
      const desc = await s.request(null, { method: 'GET', url: api(`/groups/${top.id}/descendant_groups`) })
      expect(
        desc
          .json()
          .map((g: { id: number }) => g.id)
          .sort(),
      ).toEqual([a.id, deep.id].sort())
    })

    it('lists group projects, with subgroups when include_subgroups=true', async () => {
      const top = seedGroup(s)
      const sub = seedGroup(s, { parentId: top.id })
      const p1 = seedProject(s, { namespaceId: top.id })
      const p2 = seedProject(s, { namespaceId: sub.id })
      const own = await s.request(ROOT_TOKEN, { method: 'GET', url: api(`/groups/${top.id}/projects`) })
      expect(own.json().map((p: { id: number }) => p.id)).toEqual([p1.id])
      const all = await s.request(ROOT_TOKEN, {
        method: 'GET',
        url: api(`/groups/${top.id}/projects?include_subgroups=true`),
      })
      expect(
        all
          .json()
          .map((p: { id: number }) => p.id)
          .sort(),
      ).toEqual([p1.id, p2.id].sort())
      expect(all.headers['x-total']).toBe('2')
    })
  })

  describe('shares and transfer', () => {
    it('shares a group with another group and unshares it', async () => {
      const g = seedGroup(s)
      const other = seedGroup(s, { visibility: 'internal' })
      seedMember(s, 'Namespace', g.id, alice.user.id, 50)
      const res = await s.request(alice.token, {
        method: 'POST',
        url: api(`/groups/${g.id}/share`),
        payload: { group_id: other.id, group_access: 20, expires_at: '2099-01-01' },
      })
      expect(res.statusCode).toBe(201)
      expect(res.json().shared_with_groups).toEqual([
        {
          group_id: other.id,
          group_name: other.name,
          group_full_path: other.full_path,
          group_access_level: 20,
          expires_at: '2099-01-01',
        },
      ])
      expect(
        (await s.request(alice.token, { method: 'DELETE', url: api(`/groups/${g.id}/share/${other.id}`) })).statusCode,
      ).toBe(204)
      expect(
        (await s.request(alice.token, { method: 'DELETE', url: api(`/groups/${g.id}/share/${other.id}`) })).statusCode,
      ).toBe(404)
    })

    it('gives members of the shared-with group access to the shared group', async () => {
      const g = seedGroup(s)
      const other = seedGroup(s)
      seedMember(s, 'Namespace', other.id, bob.user.id, 30)
      await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: api(`/groups/${g.id}/share`),
        payload: { group_id: other.id, group_access: 20 },
      })
      expect((await s.request(bob.token, { method: 'GET', url: api(`/groups/${g.id}`) })).statusCode).toBe(200)
    })

    it('transfers a group under another group', async () => {
      const g = seedGroup(s, { path: 'moving' })
      const target = seedGroup(s, { path: 'target' })
      const res = await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: api(`/groups/${g.id}/transfer`),
        payload: { group_id: target.id },
      })
      expect(res.statusCode).toBe(201)
      expect(res.json()).toMatchObject({ full_path: 'target/moving', parent_id: target.id })
    })
  })
})
