import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { noneMatchHits, weakEtag } from '../../src/server/platform/http/etag'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

/*
 * ETags and 304 on JSON GETs, as GitLab's Rack::ETag answers them: a weak ETag over the body,
 * If-None-Match answered with 304 and no body, streams and non-JSON answers left alone.
 */

let s: TestServer
let owner: SeededUser
let projectId: number

beforeAll(async () => {
  s = await makeServer()
  owner = seedUser(s)
  const created = await s.request(owner.token, {
    method: 'POST',
    url: '/api/v4/projects',
    payload: { name: 'Etag Target', initialize_with_readme: true },
  })
  expect(created.statusCode).toBe(201)
  projectId = (created.json() as { id: number }).id
  for (const title of ['First', 'Second', 'Third']) {
    expect(
      (
        await s.request(owner.token, {
          method: 'POST',
          url: `/api/v4/projects/${projectId}/issues`,
          payload: { title },
        })
      ).statusCode,
    ).toBe(201)
  }
})
afterAll(async () => {
  await s.close()
})

const get = (url: string, headers: Record<string, string> = {}) =>
  s.request(owner.token, { method: 'GET', url: `/api/v4${url}`, headers })

describe('ETag on JSON GETs', () => {
  it('gives a weak ETag computed over the body, and private revalidation', async () => {
    const res = await get(`/projects/${projectId}`)
    expect(res.statusCode).toBe(200)
    expect(res.headers.etag).toBe(weakEtag(res.body))
    expect(res.headers.etag).toMatch(/^W\/"[0-9a-f]{32}"$/)
    expect(res.headers['cache-control']).toBe('max-age=0, private, must-revalidate')
  })

  it('answers 304 without a body to If-None-Match with the current ETag, keeping the pagination headers', async () => {
    const first = await get(`/projects/${projectId}/issues?per_page=2`)
    const again = await get(`/projects/${projectId}/issues?per_page=2`, {
      'if-none-match': first.headers.etag as string,
    })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
    expect(again.headers.etag).toBe(first.headers.etag)
    expect(again.headers['x-total']).toBe('3')
    expect(again.headers['x-next-page']).toBe('2')
    expect(again.headers['content-type']).toBeUndefined()
  })

  it('answers 200 with the new body and a new ETag once the resource changed', async () => {
    const before = await get(`/projects/${projectId}/issues/1`)
    expect(
      (
        await s.request(owner.token, {
          method: 'PUT',
          url: `/api/v4/projects/${projectId}/issues/1`,
          payload: { title: 'First, renamed' },
        })
      ).statusCode,
    ).toBe(200)
    const after = await get(`/projects/${projectId}/issues/1`, { 'if-none-match': before.headers.etag as string })
    expect(after.statusCode).toBe(200)
    expect((after.json() as { title: string }).title).toBe('First, renamed')
    expect(after.headers.etag).not.toBe(before.headers.etag)
  })

  it('differs per caller when the body does (the same URL for another user)', async () => {
    const root = await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/user' })
    const mine = await get('/user')
    expect(root.headers.etag).not.toBe(mine.headers.etag)
    const crossed = await get('/user', { 'if-none-match': root.headers.etag as string })
    expect(crossed.statusCode).toBe(200)
  })

  it('matches the strong spelling, a list of tags and *', async () => {
    const { etag } = (await get(`/projects/${projectId}`)).headers as { etag: string }
    const strong = etag.replace(/^W\//, '')
    expect((await get(`/projects/${projectId}`, { 'if-none-match': strong })).statusCode).toBe(304)
    expect((await get(`/projects/${projectId}`, { 'if-none-match': `W/"0000", ${etag}` })).statusCode).toBe(304)
    expect((await get(`/projects/${projectId}`, { 'if-none-match': '*' })).statusCode).toBe(304)
    expect((await get(`/projects/${projectId}`, { 'if-none-match': 'W/"0000"' })).statusCode).toBe(200)
  })

  it('leaves errors, writes and raw files alone', async () => {
    const missing = await get('/projects/999999')
    expect(missing.statusCode).toBe(404)
    expect(missing.headers.etag).toBeUndefined()
    const created = await s.request(owner.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/issues`,
      payload: { title: 'Fourth' },
    })
    expect(created.statusCode).toBe(201)
    expect(created.headers.etag).toBeUndefined()
    const raw = await get(`/projects/${projectId}/repository/files/README.md/raw?ref=main`)
    expect(raw.statusCode).toBe(200)
    expect(raw.headers['content-type']).not.toMatch(/json/)
    expect(raw.headers.etag === undefined || !String(raw.headers.etag).startsWith('W/')).toBe(true)
  })
})

describe('If-None-Match parsing', () => {
  it('compares weakly and ignores spaces', () => {
    expect(noneMatchHits('W/"abc"', 'W/"abc"')).toBe(true)
    expect(noneMatchHits(' "abc" ', 'W/"abc"')).toBe(true)
    expect(noneMatchHits('"x", W/"abc"', 'W/"abc"')).toBe(true)
    expect(noneMatchHits('"abcd"', 'W/"abc"')).toBe(false)
    expect(noneMatchHits(undefined, 'W/"abc"')).toBe(false)
  })
})
