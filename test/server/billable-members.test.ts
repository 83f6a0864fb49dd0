import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

const API = '/api/v4'

describe('billable members', () => {
  let s: TestServer
  let root: NamespaceRow
  let sub: NamespaceRow
  let project: ProjectRow
  let partner: NamespaceRow
  let owner: SeededUser
  let subDev: SeededUser
  let projectGuest: SeededUser
  let invitedUser: SeededUser

  beforeAll(async () => {
    s = await makeServer()
    root = seedGroup(s, { path: 'bill' })
    sub = seedGroup(s, { path: 'sub', parentId: root.id })
    project = seedProject(s, { namespaceId: sub.id, path: 'p' })
    partner = seedGroup(s, { path: 'partner' })
    owner = seedUser(s, {
      username: 'b_owner',
      name: 'Carol',
      last_activity_on: '2024-03-01',
      public_email: 'carol@pub.example',
    })
    subDev = seedUser(s, { username: 'b_dev', name: 'Alice', last_activity_on: '2024-01-01' })
    projectGuest = seedUser(s, { username: 'b_guest', name: 'Bob', last_activity_on: '2024-02-01' })
    invitedUser = seedUser(s, { username: 'b_invited', name: 'Dave' })
    seedMember(s, 'Namespace', root.id, owner.user.id, 50)
    seedMember(s, 'Namespace', sub.id, subDev.user.id, 30)
    seedMember(s, 'Project', project.id, projectGuest.user.id, 10)
    seedMember(s, 'Namespace', partner.id, invitedUser.user.id, 40)
    s.app.burrow.db
      .prepare('INSERT INTO group_group_links (shared_group_id, shared_with_group_id, group_access) VALUES (?, ?, ?)')
      .run(sub.id, partner.id, 20)
  })
  afterAll(async () => {
    await s.close()
  })

  it('lists every user of the hierarchy and of invited groups once, with membership_type and removable', async () => {
    const res = await s.request(owner.token, { method: 'GET', url: `${API}/groups/${root.id}/billable_members` })
    expect(res.statusCode).toBe(200)
    const body = res.json() as Record<string, unknown>[]
    expect(body.map((m) => m.username)).toEqual(['b_owner', 'b_dev', 'b_guest', 'b_invited'])
    expect(body[0]).toMatchObject({
      id: owner.user.id,
      name: 'Carol',
      state: 'active',
      avatar_url: null,
      web_url: 'http://burrow.test/b_owner',
      email: 'carol@pub.example',
      membership_type: 'group_member',
      removable: true,
    })
    expect(typeof body[0].created_at).toBe('string')
    expect(body[1].email).toBeNull()
    expect(body[3]).toMatchObject({ membership_type: 'group_invite', removable: false })
    expect(res.headers['x-total']).toBe('4')
  })

  it('sorts by name, access level and last activity', async () => {
    const names = async (sort: string): Promise<unknown[]> =>
      (
        (
          await s.request(owner.token, { method: 'GET', url: `${API}/groups/${root.id}/billable_members?sort=${sort}` })
        ).json() as { name: string }[]
      ).map((m) => m.name)
    expect(await names('name_asc')).toEqual(['Alice', 'Bob', 'Carol', 'Dave'])
    expect(await names('name_desc')).toEqual(['Dave', 'Carol', 'Bob', 'Alice'])
    expect((await names('access_level_desc'))[0]).toBe('Carol')
    expect((await names('access_level_asc'))[0]).toBe('Bob')
    expect((await names('last_activity_on_asc')).slice(0, 3)).toEqual(['Alice', 'Bob', 'Carol'])
    expect((await names('last_activity_on_desc')).slice(0, 3)).toEqual(['Carol', 'Bob', 'Alice'])
  })

  it('sorts by when users joined and last signed in, users who never signed in last', async () => {
    const db = s.app.burrow.db
    const set = db.prepare('UPDATE users SET created_at = ?, last_sign_in_at = ? WHERE id = ?')
    set.run('2023-01-03T00:00:00.000Z', '2024-05-02T00:00:00.000Z', owner.user.id)
    set.run('2023-01-01T00:00:00.000Z', null, subDev.user.id)
    set.run('2023-01-04T00:00:00.000Z', '2024-05-01T00:00:00.000Z', projectGuest.user.id)
    set.run('2023-01-02T00:00:00.000Z', '2024-05-03T00:00:00.000Z', invitedUser.user.id)
    const names = async (sort: string): Promise<unknown[]> =>
      (
        (
          await s.request(owner.token, { method: 'GET', url: `${API}/groups/${root.id}/billable_members?sort=${sort}` })
        ).json() as { name: string }[]
      ).map((m) => m.name)
    expect(await names('last_joined')).toEqual(['Bob', 'Carol', 'Dave', 'Alice'])
    expect(await names('oldest_joined')).toEqual(['Alice', 'Dave', 'Carol', 'Bob'])
    expect(await names('recent_sign_in')).toEqual(['Dave', 'Carol', 'Bob', 'Alice'])
    expect(await names('oldest_sign_in')).toEqual(['Bob', 'Carol', 'Dave', 'Alice'])
  })

  it('rejects an unknown sort with 400', async () => {
    const res = await s.request(owner.token, {
      method: 'GET',
      url: `${API}/groups/${root.id}/billable_members?sort=bogus`,
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'sort does not have a valid value' })
  })

  it('searches by name', async () => {
    const res = await s.request(owner.token, {
      method: 'GET',
      url: `${API}/groups/${root.id}/billable_members?search=ali`,
    })
    expect((res.json() as { username: string }[]).map((m) => m.username)).toEqual(['b_dev'])
  })

  it('answers 400 for subgroups and for callers who are not Owners', async () => {
    const subgroup = await s.request(owner.token, { method: 'GET', url: `${API}/groups/${sub.id}/billable_members` })
    expect(subgroup.statusCode).toBe(400)
    expect(subgroup.json()).toEqual({ message: '400 Bad request' })
    const dev = await s.request(subDev.token, { method: 'GET', url: `${API}/groups/${root.id}/billable_members` })
    expect(dev.statusCode).toBe(400)
  })

  it('lists the direct memberships of a billable member in the hierarchy', async () => {
    seedMember(s, 'Project', project.id, subDev.user.id, 20)
    const res = await s.request(owner.token, {
      method: 'GET',
      url: `${API}/groups/${root.id}/billable_members/${subDev.user.id}/memberships`,
    })
    expect(res.statusCode).toBe(200)
    const body = res.json() as Record<string, unknown>[]
    expect(body).toHaveLength(2)
    expect(body[0]).toMatchObject({
      source_id: sub.id,
      source_full_name: 'bill / sub',
      source_members_url: 'http://burrow.test/groups/bill/sub/-/group_members',
      expires_at: null,
      access_level: { string_value: 'Developer', integer_value: 30 },
    })
    expect(body[1]).toMatchObject({
      source_id: project.id,
      source_full_name: 'bill / sub / p',
      source_members_url: 'http://burrow.test/bill/sub/p/-/project_members',
      access_level: { string_value: 'Reporter', integer_value: 20 },
    })
    expect(res.headers['x-total']).toBe('2')
  })

  it('answers 404 User Not Found for memberships of a user who is not billable', async () => {
    const stranger = seedUser(s)
    const res = await s.request(owner.token, {
      method: 'GET',
      url: `${API}/groups/${root.id}/billable_members/${stranger.user.id}/memberships`,
    })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: '404 User Not Found' })
  })

  it('answers 400 for memberships asked by a non-Owner', async () => {
    const res = await s.request(subDev.token, {
      method: 'GET',
      url: `${API}/groups/${root.id}/billable_members/${subDev.user.id}/memberships`,
    })
    expect(res.statusCode).toBe(400)
  })

  it('removes a billable member from the group, its subgroups and projects', async () => {
    const u = seedUser(s)
    seedMember(s, 'Namespace', sub.id, u.user.id, 30)
    seedMember(s, 'Project', project.id, u.user.id, 30)
    const res = await s.request(owner.token, {
      method: 'DELETE',
      url: `${API}/groups/${root.id}/billable_members/${u.user.id}`,
    })
    expect(res.statusCode).toBe(204)
    const left = s.app.burrow.db.prepare('SELECT COUNT(*) AS n FROM members WHERE user_id = ?').get(u.user.id) as {
      n: number
    }
    expect(left.n).toBe(0)
  })

  it('refuses to remove an invited-only member, the last owner, or from a subgroup (400)', async () => {
    const invited = await s.request(owner.token, {
      method: 'DELETE',
      url: `${API}/groups/${root.id}/billable_members/${invitedUser.user.id}`,
    })
    expect(invited.statusCode).toBe(400)
    expect(invited.json()).toEqual({ message: '400 Bad request - No member found for the given user_id' })
    const last = await s.request(owner.token, {
      method: 'DELETE',
      url: `${API}/groups/${root.id}/billable_members/${owner.user.id}`,
    })
    expect(last.statusCode).toBe(400)
    const subgroup = await s.request(owner.token, {
      method: 'DELETE',
      url: `${API}/groups/${sub.id}/billable_members/${subDev.user.id}`,
    })
    expect(subgroup.json()).toEqual({ message: '400 Bad request - Invalid group provided, must be top-level' })
  })

  it('refuses removal by a non-Owner with 400', async () => {
    const res = await s.request(subDev.token, {
      method: 'DELETE',
      url: `${API}/groups/${root.id}/billable_members/${projectGuest.user.id}`,
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ message: '400 Bad request - User unauthorized to remove member' })
  })
})
