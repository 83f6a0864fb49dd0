import Database from 'better-sqlite3'
import Fastify from 'fastify'
import { Type } from 'typebox'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ANONYMOUS } from '../../src/server/platform/auth/actor'
import type { ServerContext } from '../../src/server/platform/context'
import { answerFromMemo } from '../../src/server/platform/http/answer-memo'
import { withClock } from '../../src/server/platform/db/connection'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

/*
 * Lists answered from memory (platform/http/answer-memo.ts): a page asked again before anything
 * changed is not built again, and every change that could alter it (a write, another caller, a
 * sign-in lock running out) gets a freshly built answer.
 */

/** How many user pages the server read from the database, counted around the one query that reads them. */
const reads = vi.hoisted(() => ({ userPages: 0 }))
vi.mock('../../src/server/modules/users/queries', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/server/modules/users/queries')>()
  const listUsers: typeof actual.listUsers = (...args) => {
    reads.userPages += 1
    return actual.listUsers(...args)
  }
  return { ...actual, listUsers }
})

let s: TestServer
let member: SeededUser
let target: SeededUser

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000)

/** `GET url` as `token`, with how many user pages the server read to answer it. */
async function listed(token: string, url: string, headers: Record<string, string> = {}) {
  const before = reads.userPages
  const res = await s.request(token, { method: 'GET', url, headers })
  return { res, pageReads: reads.userPages - before }
}

beforeAll(async () => {
  s = await makeServer()
  member = seedUser(s)
  target = seedUser(s, { username: 'memo-target', name: 'Memo Target' })
  // The first request of a day records the caller's activity (a write): make it now, not mid-test.
  await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/user' })
  await s.request(member.token, { method: 'GET', url: '/api/v4/user' })
})
afterAll(async () => {
  await s.close()
})

describe('lists answered from memory', () => {
  it('answers the same page again without reading it, with the same body and headers', async () => {
    const url = '/api/v4/users?per_page=2&order_by=id&sort=asc'
    const first = await listed(ROOT_TOKEN, url)
    const second = await listed(ROOT_TOKEN, url)
    expect(first.res.statusCode).toBe(200)
    expect(first.pageReads).toBe(1)
    expect(second.pageReads).toBe(0)
    expect(second.res.body).toBe(first.res.body)
    for (const name of ['link', 'x-total', 'x-total-pages', 'x-page', 'x-next-page', 'etag', 'content-type'])
      expect(second.res.headers[name], name).toBe(first.res.headers[name])
    // The remembered answer still honours If-None-Match.
    const conditional = await listed(ROOT_TOKEN, url, { 'if-none-match': String(first.res.headers.etag) })
    expect(conditional.res.statusCode).toBe(304)
    expect(conditional.pageReads).toBe(0)
  })

  it('builds the page again after any write', async () => {
    const url = `/api/v4/users?username=${target.user.username}`
    const before = await listed(ROOT_TOKEN, url)
    expect((before.res.json() as { name: string }[])[0].name).toBe('Memo Target')
    const renamed = await s.request(ROOT_TOKEN, {
      method: 'PUT',
      url: `/api/v4/users/${target.user.id}`,
      payload: { name: 'Renamed Target' },
    })
    expect(renamed.statusCode).toBe(200)
    const after = await listed(ROOT_TOKEN, url)
    expect(after.pageReads).toBe(1)
    expect((after.res.json() as { name: string }[])[0].name).toBe('Renamed Target')
  })

  it('never gives one caller the page built for another', async () => {
    const url = `/api/v4/users?username=${target.user.username}`
    const admin = (await listed(ROOT_TOKEN, url)).res.json() as Record<string, unknown>[]
    expect(admin[0].email).toBe(target.user.email)
    const plain = await listed(member.token, url)
    expect(plain.pageReads).toBe(1)
    expect((plain.res.json() as Record<string, unknown>[])[0]).not.toHaveProperty('email')
  })

  it('builds the page again when a sign-in lock runs out, or the clock is before the page was built', async () => {
    s.app.burrow.db
      .prepare('UPDATE users SET locked_until = ? WHERE id = ?')
      .run(inMinutes(5).toISOString(), target.user.id)
    const url = `/api/v4/users?username=${target.user.username}&per_page=5`
    const locked = (): Promise<boolean> =>
      listed(ROOT_TOKEN, url).then((r) => (r.res.json() as { locked: boolean }[])[0].locked)
    expect(await locked()).toBe(true)
    expect(await locked()).toBe(true)
    // No write in between: only the time says the lock is over.
    expect(await withClock(() => inMinutes(10), locked)).toBe(false)
    expect(await locked()).toBe(true)
  })
})

describe('answerFromMemo', () => {
  it('serializes through the route response schema, so a field it does not name never leaks', async () => {
    const db = new Database(':memory:')
    db.exec('CREATE TABLE users (locked_until TEXT)')
    const app = Fastify()
    app.decorate('burrow', { db, baseUrl: () => 'http://memo.test' } as unknown as ServerContext)
    app.decorateRequest('actor', null as never)
    app.decorateRequest('perms', null as never)
    app.addHook('onRequest', async (request) => {
      request.actor = ANONYMOUS
    })
    const Thing = Type.Object({ id: Type.Integer(), name: Type.String() })
    app.get('/things', { schema: { response: { 200: Type.Array(Thing) } } }, async (request, reply) =>
      answerFromMemo(request, reply, () => [{ id: 1, name: 'one', secret: 'not named' }]),
    )
    try {
      for (let i = 0; i < 2; i++) {
        const res = await app.inject({ method: 'GET', url: '/things' })
        expect(res.statusCode).toBe(200)
        expect(res.body).toBe('[{"id":1,"name":"one"}]')
      }
    } finally {
      await app.close()
      db.close()
    }
  })
})
