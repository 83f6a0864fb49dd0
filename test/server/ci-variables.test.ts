import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { createProject } from '../helpers/ci'
import { seedMember } from '../helpers/fixtures'
import { makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

describe('Project CI/CD variables', () => {
  let s: TestServer
  let maintainer: SeededUser
  let developer: SeededUser
  let pid: number

  const call = (
    token: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    payload?: Record<string, unknown>,
  ) => s.request(token, { method, url: `/api/v4/projects/${pid}/variables${path}`, ...(payload ? { payload } : {}) })

  beforeAll(async () => {
    s = await makeServer()
    maintainer = seedUser(s)
    developer = seedUser(s)
    pid = await createProject(s, maintainer.token)
    seedMember(s, 'Project', pid, developer.user.id, AccessLevel.DEVELOPER)
  })
  afterAll(async () => {
    await s.close()
  })

  it("creates a variable (201) with GitLab's defaults and reads it back", async () => {
    const res = await call(maintainer.token, 'POST', '', { key: 'API_URL', value: 'https://example.com' })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toEqual({
      variable_type: 'env_var',
      key: 'API_URL',
      value: 'https://example.com',
      hidden: false,
      protected: false,
      masked: false,
      raw: false,
      environment_scope: '*',
      description: null,
    })
    expect((await call(maintainer.token, 'GET', '/API_URL')).json()).toMatchObject({
      key: 'API_URL',
      value: 'https://example.com',
    })
    expect((await call(maintainer.token, 'GET', '')).json()).toHaveLength(1)
  })

  it('refuses bad keys, duplicates and values that cannot be masked', async () => {
    expect((await call(maintainer.token, 'POST', '', { key: 'BAD-KEY', value: 'x' })).json()).toEqual({
      message: { key: ["can contain only letters, digits and '_'."] },
    })
    expect((await call(maintainer.token, 'POST', '', { key: 'API_URL', value: 'x' })).json()).toEqual({
      message: { key: ['(API_URL) has already been taken'] },
    })
    expect((await call(maintainer.token, 'POST', '', { key: 'SHORT', value: 'abc', masked: true })).json()).toEqual({
      message: { value: ['is invalid'] },
    })
    expect((await call(maintainer.token, 'POST', '', { key: 'NOVALUE' })).json()).toEqual({ error: 'value is missing' })
  })

  it('keeps one variable per key and environment scope; ambiguous reads need filter[environment_scope] (409)', async () => {
    expect(
      (await call(maintainer.token, 'POST', '', { key: 'DB', value: 'prod-db', environment_scope: 'production' }))
        .statusCode,
    ).toBe(201)
    expect(
      (await call(maintainer.token, 'POST', '', { key: 'DB', value: 'review-db', environment_scope: 'review/*' }))
        .statusCode,
    ).toBe(201)
    const ambiguous = await call(maintainer.token, 'GET', '/DB')
    expect(ambiguous.statusCode).toBe(409)
    expect(ambiguous.json()).toEqual({
      message: "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'",
    })
    expect((await call(maintainer.token, 'GET', '/DB?filter[environment_scope]=production')).json().value).toBe(
      'prod-db',
    )
  })

  it('updates (200) and deletes (204) a variable; 404 Variable Not Found afterwards', async () => {
    const updated = await call(maintainer.token, 'PUT', '/API_URL', {
      value: 'https://example.org',
      protected: true,
      variable_type: 'file',
      description: 'where',
    })
    expect(updated.json()).toMatchObject({
      value: 'https://example.org',
      protected: true,
      variable_type: 'file',
      description: 'where',
    })
    expect((await call(maintainer.token, 'DELETE', '/API_URL')).statusCode).toBe(204)
    const gone = await call(maintainer.token, 'GET', '/API_URL')
    expect(gone.statusCode).toBe(404)
    expect(gone.json()).toEqual({ message: '404 Variable Not Found' })
  })

  it('is for Maintainers: Developers get 403', async () => {
    expect((await call(developer.token, 'GET', '')).statusCode).toBe(403)
    expect((await call(developer.token, 'POST', '', { key: 'X', value: 'y' })).statusCode).toBe(403)
  })

  it('records changes as audit events of the project', async () => {
    const events = (
      await s.request(maintainer.token, { method: 'GET', url: `/api/v4/projects/${pid}/audit_events?per_page=100` })
    ).json() as { details: { custom_message?: string } }[]
    const messages = events.map((e) => e.details.custom_message)
    expect(messages).toEqual(
      expect.arrayContaining([
        'Added ci variable API_URL',
        'Changed ci variable API_URL',
        'Removed ci variable API_URL',
      ]),
    )
  })
})
