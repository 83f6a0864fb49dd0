import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

const API = '/api/v4'

describe('access requests', () => {
  let s: TestServer
  let group: NamespaceRow
  let project: ProjectRow
  let owner: SeededUser
  let maintainer: SeededUser
  let developer: SeededUser

  beforeAll(async () => {
    s = await makeServer()
    group = seedGroup(s, { path: 'ar-group', visibility: 'public' })
    project = seedProject(s, { namespaceId: group.id, path: 'ar-project', visibility: 'public' })
    owner = seedUser(s)
    maintainer = seedUser(s)
    developer = seedUser(s)
    seedMember(s, 'Namespace', group.id, owner.user.id, 50)
    seedMember(s, 'Project', project.id, maintainer.user.id, 40)
    seedMember(s, 'Project', project.id, developer.user.id, 30)
  })
  afterAll(async () => {
    await s.close()
  })

  it('walks a project request from creation to approval', async () => {
    const requester = seedUser(s, { username: 'wants_in' })
    const created = await s.request(requester.token, {
      method: 'POST',
      url: `${API}/projects/${project.id}/access_requests`,
    })
    expect(created.statusCode).toBe(201)
    expect(created.json()).toMatchObject({
      id: requester.user.id,
      username: 'wants_in',
      name: requester.user.name,
      state: 'active',
    })
    expect(typeof created.json().requested_at).toBe('string')
    expect(typeof created.json().created_at).toBe('string')

    const listed = await s.request(maintainer.token, {
      method: 'GET',
      url: `${API}/projects/${project.id}/access_requests`,
    })
    expect(listed.statusCode).toBe(200)
    expect((listed.json() as { id: number }[]).map((r) => r.id)).toEqual([requester.user.id])
    expect(listed.headers['x-total']).toBe('1')

    const approved = await s.request(maintainer.token, {
      method: 'PUT',
      url: `${API}/projects/${project.id}/access_requests/${requester.user.id}/approve`,
    })
    expect(approved.statusCode).toBe(201)
    expect(approved.json()).toMatchObject({
      id: requester.user.id,
      username: 'wants_in',
      state: 'active',
      access_level: 30,
    })
    expect(approved.json()).not.toHaveProperty('requested_at')

    const after = await s.request(maintainer.token, {
      method: 'GET',
      url: `${API}/projects/${project.id}/access_requests`,
    })
    expect(after.json()).toEqual([])
    const member = await s.request(maintainer.token, {
      method: 'GET',
      url: `${API}/projects/${project.id}/members/${requester.user.id}`,
    })
    expect(member.json().access_level).toBe(30)
    const joined = s.app.burrow.db
      .prepare("SELECT 1 FROM events WHERE action = 'joined' AND project_id = ? AND author_id = ?")
      .get(project.id, requester.user.id)
    expect(joined).toBeDefined()
  })

  it('approves a group request at the given access_level', async () => {
    const requester = seedUser(s)
    await s.request(requester.token, { method: 'POST', url: `${API}/groups/${group.id}/access_requests` })
    const approved = await s.request(owner.token, {
      method: 'PUT',
      url: `${API}/groups/${group.id}/access_requests/${requester.user.id}/approve`,
      payload: { access_level: 20 },
    })
    expect(approved.statusCode).toBe(201)
    expect(approved.json().access_level).toBe(20)
  })

  it('forbids a member from requesting access again', async () => {
    const res = await s.request(developer.token, {
      method: 'POST',
      url: `${API}/projects/${project.id}/access_requests`,
    })
    expect(res.statusCode).toBe(403)
  })

  it('forbids requests where request_access_enabled is off', async () => {
    const closed = seedProject(s, { namespaceId: group.id, visibility: 'public' })
    s.app.burrow.db.prepare('UPDATE projects SET request_access_enabled = 0 WHERE id = ?').run(closed.id)
    const u = seedUser(s)
    const res = await s.request(u.token, { method: 'POST', url: `${API}/projects/${closed.id}/access_requests` })
    expect(res.statusCode).toBe(403)
  })

  it('answers 400 to a duplicate request', async () => {
    const u = seedUser(s)
    expect(
      (await s.request(u.token, { method: 'POST', url: `${API}/groups/${group.id}/access_requests` })).statusCode,
    ).toBe(201)
    const again = await s.request(u.token, { method: 'POST', url: `${API}/groups/${group.id}/access_requests` })
    expect(again.statusCode).toBe(400)
    expect(again.json()).toEqual({ message: { user: ['already exists in source'] } })
  })

  it('requires authentication to request access', async () => {
    const res = await s.request(null, { method: 'POST', url: `${API}/projects/${project.id}/access_requests` })
    expect(res.statusCode).toBe(401)
  })

  it('hides the request list from Developers (403) and private sources from strangers (404)', async () => {
    const dev = await s.request(developer.token, {
      method: 'GET',
      url: `${API}/projects/${project.id}/access_requests`,
    })
    expect(dev.statusCode).toBe(403)
    const hidden = seedGroup(s)
    const stranger = seedUser(s)
    const res = await s.request(stranger.token, { method: 'POST', url: `${API}/groups/${hidden.id}/access_requests` })
    expect(res.statusCode).toBe(404)
  })

  it('lets only group Owners list group requests', async () => {
    const gm = seedUser(s)
    seedMember(s, 'Namespace', group.id, gm.user.id, 40)
    expect(
      (await s.request(gm.token, { method: 'GET', url: `${API}/groups/${group.id}/access_requests` })).statusCode,
    ).toBe(403)
    expect(
      (await s.request(owner.token, { method: 'GET', url: `${API}/groups/${group.id}/access_requests` })).statusCode,
    ).toBe(200)
  })

  it('denies a request with 204', async () => {
    const u = seedUser(s)
    await s.request(u.token, { method: 'POST', url: `${API}/projects/${project.id}/access_requests` })
    const res = await s.request(maintainer.token, {
      method: 'DELETE',
      url: `${API}/projects/${project.id}/access_requests/${u.user.id}`,
    })
    expect(res.statusCode).toBe(204)
    const member = await s.request(ROOT_TOKEN, {
      method: 'GET',
      url: `${API}/projects/${project.id}/members/${u.user.id}`,
    })
    expect(member.statusCode).toBe(404)
  })

  it('lets the requester withdraw their own request', async () => {
    const u = seedUser(s)
    await s.request(u.token, { method: 'POST', url: `${API}/projects/${project.id}/access_requests` })
    const res = await s.request(u.token, {
      method: 'DELETE',
      url: `${API}/projects/${project.id}/access_requests/${u.user.id}`,
    })
    expect(res.statusCode).toBe(204)
  })

  it('forbids a Developer from approving or denying', async () => {
    const u = seedUser(s)
    await s.request(u.token, { method: 'POST', url: `${API}/projects/${project.id}/access_requests` })
    const approve = await s.request(developer.token, {
      method: 'PUT',
      url: `${API}/projects/${project.id}/access_requests/${u.user.id}/approve`,
    })
    expect(approve.statusCode).toBe(403)
    const deny = await s.request(developer.token, {
      method: 'DELETE',
      url: `${API}/projects/${project.id}/access_requests/${u.user.id}`,
    })
    expect(deny.statusCode).toBe(403)
  })

  it('answers 404 for approving or denying a request that does not exist', async () => {
    const u = seedUser(s)
    const approve = await s.request(maintainer.token, {
      method: 'PUT',
      url: `${API}/projects/${project.id}/access_requests/${u.user.id}/approve`,
    })
    expect(approve.statusCode).toBe(404)
    const deny = await s.request(maintainer.token, {
      method: 'DELETE',
      url: `${API}/projects/${project.id}/access_requests/${u.user.id}`,
    })
    expect(deny.statusCode).toBe(404)
  })

  it('forbids a project Maintainer from approving at Owner level', async () => {
    const u = seedUser(s)
    await s.request(u.token, { method: 'POST', url: `${API}/projects/${project.id}/access_requests` })
    const res = await s.request(maintainer.token, {
      method: 'PUT',
      url: `${API}/projects/${project.id}/access_requests/${u.user.id}/approve`,
      payload: { access_level: 50 },
    })
    expect(res.statusCode).toBe(403)
  })
})
