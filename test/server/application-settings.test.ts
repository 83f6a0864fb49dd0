import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeServer, ROOT_TOKEN, type TestServer } from '../helpers/server'

let s: TestServer

beforeAll(async () => {
  s = await makeServer()
})

afterAll(async () => {
  await s.close()
})

const put = (payload: Record<string, unknown>) =>
  s.request(ROOT_TOKEN, { method: 'PUT', url: '/api/v4/application/settings', payload })

describe('PUT /application/settings', () => {
  it('refuses a default visibility that names no level, changing nothing', async () => {
    for (const key of ['default_project_visibility', 'default_group_visibility']) {
      const res = await put({ [key]: 'secret', signup_enabled: false })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: `${key} does not have a valid value` })
    }
    expect(s.app.burrow.settings.get('default_project_visibility')).toBe('private')
    expect(s.app.burrow.settings.get('signup_enabled')).toBe(true)
    const ok = await put({ default_project_visibility: 'internal', default_group_visibility: 'public' })
    expect(ok.json()).toMatchObject({ default_project_visibility: 'internal', default_group_visibility: 'public' })
  })

  it('refuses a number setting that is not a whole number, as GitLab declares them Integer', async () => {
    const res = await put({ diff_max_files: 1.5 })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'diff_max_files is invalid' })
    expect(s.app.burrow.settings.get('diff_max_files')).toBe(1000)
    expect((await put({ diff_max_files: '2000' })).json()).toMatchObject({ diff_max_files: 2000 })
  })

  it('answers the settings the instance honours, the same to GET and PUT', async () => {
    const got = await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/application/settings' })
    expect(got.statusCode).toBe(200)
    expect(got.json()).toEqual((await put({})).json())
    expect(got.json()).toMatchObject({ id: 1, outbound_local_requests_whitelist: [] })
  })
})
