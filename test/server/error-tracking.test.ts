import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

interface ClientKey {
  readonly id: number
  readonly active: boolean
  readonly public_key: string
  readonly sentry_dsn: string
  readonly tracker_dsn: string
}

describe('error tracking', () => {
  let s: TestServer
  let project: ProjectRow
  let maintainer: SeededUser
  let developer: SeededUser
  let outsider: SeededUser

  const req = (
    token: string | null,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
  ) => s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
  const settings = (): string => `/projects/${project.id}/error_tracking/settings`
  const keys = (): string => `/projects/${project.id}/error_tracking/client_keys`

  beforeAll(async () => {
    s = await makeServer()
    project = seedProject(s, { namespaceId: seedGroup(s, { path: 'obs' }).id, path: 'api' })
    maintainer = seedUser(s)
    developer = seedUser(s)
    outsider = seedUser(s)
    seedMember(s, 'Project', project.id, maintainer.user.id, AccessLevel.MAINTAINER)
    seedMember(s, 'Project', project.id, developer.user.id, AccessLevel.DEVELOPER)
  })
  afterAll(async () => {
    await s.close()
  })

  describe('settings', () => {
    it('answers 404 Error Tracking Setting Not Found before anything was set', async () => {
      const res = await req(maintainer.token, 'GET', settings())
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: '404 Error Tracking Setting Not Found' })
    })

    it('PATCH active creates the integrated setting', async () => {
      const res = await req(maintainer.token, 'PATCH', settings(), { active: true })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({
        active: true,
        project_name: null,
        sentry_external_url: null,
        tracker_external_url: null,
        api_url: null,
        integrated: true,
      })
      expect((await req(maintainer.token, 'GET', settings())).json()).toMatchObject({ active: true, integrated: true })
    })

    it('PATCH switches active and integrated independently', async () => {
      expect((await req(maintainer.token, 'PATCH', settings(), { active: false })).json()).toMatchObject({
        active: false,
        integrated: true,
      })
      expect(
        (await req(maintainer.token, 'PATCH', settings(), { active: true, integrated: false })).json(),
      ).toMatchObject({ active: true, integrated: false })
      expect((await req(maintainer.token, 'PATCH', settings(), { active: true })).json()).toMatchObject({
        integrated: false,
      })
    })

    it('PATCH without active answers 400 active is missing', async () => {
      const res = await req(maintainer.token, 'PATCH', settings(), { integrated: true })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'active is missing' })
    })

    it('PUT needs both active and integrated', async () => {
      expect((await req(maintainer.token, 'PUT', settings(), { active: true })).json()).toEqual({
        error: 'integrated is missing',
      })
      expect((await req(maintainer.token, 'PUT', settings(), { active: true, integrated: true })).json()).toMatchObject(
        { active: true, integrated: true },
      )
    })

    it('is for Maintainers: 403 for Developers, 404 for outsiders, 401 anonymous', async () => {
      expect((await req(developer.token, 'GET', settings())).statusCode).toBe(403)
      expect((await req(developer.token, 'PATCH', settings(), { active: false })).statusCode).toBe(403)
      expect((await req(outsider.token, 'GET', settings())).statusCode).toBe(404)
      expect((await req(null, 'GET', settings())).statusCode).toBe(401)
    })

    it('records the changes as audit events', async () => {
      const details = (
        s.app.burrow.db
          .prepare("SELECT details FROM audit_events WHERE entity_type = 'Project' AND entity_id = ?")
          .all(project.id) as { details: string }[]
      ).map((r) => JSON.parse(r.details).custom_message)
      expect(details).toContain('Changed error tracking settings: active true, integrated true')
      expect(details).toContain('Changed error tracking settings: active false')
    })
  })

  describe('client keys', () => {
    let first: ClientKey

    it('generates a key (201) with a random glet_ public key and its DSN', async () => {
      const res = await req(maintainer.token, 'POST', keys())
      expect(res.statusCode).toBe(201)
      first = res.json() as ClientKey
      expect(first.public_key).toMatch(/^glet_[0-9a-f]{32}$/)
      expect(first.active).toBe(true)
      expect(first.sentry_dsn).toBe(
        `http://${first.public_key}@burrow.test/api/v4/error_tracking/collector/${project.id}`,
      )
      expect(first.tracker_dsn).toBe(first.sentry_dsn)
    })

    it('generates a different public key each time', async () => {
      const second = (await req(maintainer.token, 'POST', keys())).json() as ClientKey
      expect(second.public_key).not.toBe(first.public_key)
    })

    it('lists the keys with pagination headers', async () => {
      const res = await req(maintainer.token, 'GET', keys())
      expect(res.json().map((k: ClientKey) => k.id)).toHaveLength(2)
      expect(res.headers['x-total']).toBe('2')
    })

    it('builds an https DSN, with the port, for an https instance', async () => {
      const secure = await makeServer({ externalUrl: 'https://gitlab.example.com:8443' })
      try {
        const p = seedProject(secure, { namespaceId: seedGroup(secure).id })
        const admin = seedUser(secure, { admin: true })
        const key = (
          await secure.request(admin.token, {
            method: 'POST',
            url: `/api/v4/projects/${p.id}/error_tracking/client_keys`,
          })
        ).json() as ClientKey
        expect(key.sentry_dsn).toBe(
          `https://${key.public_key}@gitlab.example.com:8443/api/v4/error_tracking/collector/${p.id}`,
        )
      } finally {
        await secure.close()
      }
    })

    it('deletes a key, answering with it (200), then 404', async () => {
      const res = await req(maintainer.token, 'DELETE', `${keys()}/${first.id}`)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({ id: first.id, public_key: first.public_key })
      const again = await req(maintainer.token, 'DELETE', `${keys()}/${first.id}`)
      expect(again.statusCode).toBe(404)
      expect(again.json()).toEqual({ message: '404 Not found' })
    })

    it('is for Maintainers (403 for Developers)', async () => {
      expect((await req(developer.token, 'GET', keys())).statusCode).toBe(403)
      expect((await req(developer.token, 'POST', keys())).statusCode).toBe(403)
    })

    it('keeps public keys out of audit events', () => {
      const details = (s.app.burrow.db.prepare('SELECT details FROM audit_events').all() as { details: string }[])
        .map((r) => r.details)
        .join('\n')
      expect(details).not.toContain(first.public_key)
      expect(details).toContain(`Deleted error tracking client key ${first.id}`)
    })
  })
})
