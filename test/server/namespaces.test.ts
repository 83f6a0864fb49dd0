import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

const api = (path: string): string => `/api/v4${path}`

describe('namespaces API', () => {
  let s: TestServer
  let alice: SeededUser

  beforeAll(async () => {
    s = await makeServer()
    alice = seedUser(s)
  })
  afterAll(async () => {
    await s.close()
  })

  it('lists the caller’s personal namespace and member groups only', async () => {
    const mine = seedGroup(s)
    seedGroup(s)
    seedMember(s, 'Namespace', mine.id, alice.user.id, 30)
    seedProject(s, { ownerId: alice.user.id })
    const res = await s.request(alice.token, { method: 'GET', url: api('/namespaces') })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.map((n: { full_path: string }) => n.full_path)).toEqual([alice.user.username, mine.full_path])
    expect(body[0]).toMatchObject({
      kind: 'user',
      projects_count: 1,
      web_url: `http://burrow.test/${alice.user.username}`,
    })
    expect(body[1]).toMatchObject({ kind: 'group', web_url: `http://burrow.test/groups/${mine.full_path}` })
    expect(res.headers['x-total']).toBe('2')
  })

  it('filters by owned_only and search', async () => {
    const owned = seedGroup(s, { path: 'owned-ns' })
    seedMember(s, 'Namespace', owned.id, alice.user.id, 50)
    const res = await s.request(alice.token, { method: 'GET', url: api('/namespaces?owned_only=true&search=owned-ns') })
    expect(res.json().map((n: { id: number }) => n.id)).toEqual([owned.id])
  })

  it('lists every namespace for administrators', async () => {
    const res = await s.request(ROOT_TOKEN, { method: 'GET', url: api('/namespaces?per_page=100') })
    const total = (s.app.burrow.db.prepare('SELECT COUNT(*) AS c FROM namespaces').get() as { c: number }).c
    expect(res.json()).toHaveLength(total)
  })

  it('answers 401 to anonymous callers', async () => {
    expect((await s.request(null, { method: 'GET', url: api('/namespaces') })).statusCode).toBe(401)
  })

  it('gets a namespace by id and by URL-encoded path', async () => {
    const top = seedGroup(s)
    const sub = seedGroup(s, { parentId: top.id })
    seedMember(s, 'Namespace', top.id, alice.user.id, 30)
    const byPath = await s.request(alice.token, {
      method: 'GET',
      url: api(`/namespaces/${encodeURIComponent(sub.full_path)}`),
    })
    expect(byPath.statusCode).toBe(200)
    expect(byPath.json()).toMatchObject({ id: sub.id, parent_id: top.id, kind: 'group' })
    const own = await s.request(alice.token, { method: 'GET', url: api(`/namespaces/${alice.user.username}`) })
    expect(own.json().kind).toBe('user')
  })

  it('answers 404 for a namespace the caller does not belong to', async () => {
    const other = seedGroup(s)
    const res = await s.request(alice.token, { method: 'GET', url: api(`/namespaces/${other.id}`) })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: '404 Namespace Not Found' })
  })

  it('tells whether a path exists and suggests a free one', async () => {
    const g = seedGroup(s, { path: 'exists-check' })
    const taken = await s.request(alice.token, { method: 'GET', url: api('/namespaces/exists-check/exists') })
    expect(taken.json()).toEqual({ exists: true, suggests: ['exists-check1'] })
    const free = await s.request(alice.token, { method: 'GET', url: api('/namespaces/free-path-xyz/exists') })
    expect(free.json()).toEqual({ exists: false, suggests: [] })
    seedGroup(s, { path: 'child', parentId: g.id })
    const nested = await s.request(alice.token, {
      method: 'GET',
      url: api(`/namespaces/child/exists?parent_id=${g.id}`),
    })
    expect(nested.json().exists).toBe(true)
  })
})
