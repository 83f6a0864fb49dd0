import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeServer, ROOT_TOKEN, type TestServer } from '../helpers/server'

describe('server basics', () => {
  let s: TestServer
  beforeAll(async () => {
    s = await makeServer()
  })
  afterAll(async () => {
    await s.close()
  })

  it('answers /api/v4/version without credentials', async () => {
    const res = await s.request(null, { method: 'GET', url: '/api/v4/version' })
    expect(res.statusCode).toBe(200)
    expect(res.json().version).toMatch(/^\d+\.\d+\.\d+/)
  })

  it('answers 404 for /api/v3 and unknown routes', async () => {
    expect((await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v3/projects' })).statusCode).toBe(404)
    const res = await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/no-such-thing' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ error: '404 Not Found' })
  })

  it('answers 401 with the spec body for an unknown token', async () => {
    const res = await s.request('nope', { method: 'GET', url: '/api/v4/version' })
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ message: '401 Unauthorized' })
  })
})
