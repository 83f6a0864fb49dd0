import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { commitFiles, makeWorkRepo, remoteUrl, sh } from '../helpers/git'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

interface TagJson {
  readonly name: string
  readonly message: string
  readonly target: string
  readonly commit: { id: string } | null
  readonly release: null
  readonly protected: boolean
  readonly created_at: string | null
}

describe('tags API', () => {
  let s: ListeningServer
  let dev: SeededUser
  let reporter: SeededUser
  let project: ProjectRow
  let c1 = ''
  let c2 = ''

  beforeAll(async () => {
    s = await startServer()
    dev = seedUser(s, { name: 'Dev Eloper', email: 'dev@example.com' })
    reporter = seedUser(s)
    const group = seedGroup(s, { path: 'tagged', visibility: 'public' })
    project = seedProject(s, { namespaceId: group.id, path: 'repo', visibility: 'public' })
    seedMember(s, 'Project', project.id, dev.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, reporter.user.id, AccessLevel.REPORTER)
    const work = makeWorkRepo()
    c1 = commitFiles(work, { 'a.txt': 'a' }, 'first')
    await sh(work, 'tag', 'v1.2.0')
    await sh(work, 'tag', 'v1.10.0')
    c2 = commitFiles(work, { 'b.txt': 'b' }, 'second')
    await sh(work, 'tag', '-a', 'v1.9.0', '-m', 'Nine\n\nbody')
    await sh(work, 'tag', 'release-x')
    await sh(work, 'push', '--quiet', remoteUrl(s.url, 'tagged/repo', dev.token), 'main', '--tags')
  })
  afterAll(async () => {
    await s.close()
  })

  const url = (rest = '') => `/api/v4/projects/${project.id}/repository/tags${rest}`
  const names = async (query: string): Promise<string[]> =>
    ((await s.request(null, { method: 'GET', url: url(query) })).json() as TagJson[]).map((t) => t.name)

  it('lists tags by name, version or update date in either direction', async () => {
    expect(await names('?order_by=name&sort=asc')).toEqual(['release-x', 'v1.10.0', 'v1.2.0', 'v1.9.0'])
    expect(await names('?order_by=version&sort=asc&search=^v')).toEqual(['v1.2.0', 'v1.9.0', 'v1.10.0'])
    expect(await names('?order_by=version&sort=desc&search=^v')).toEqual(['v1.10.0', 'v1.9.0', 'v1.2.0'])
    expect((await names('')).length).toBe(4)
  })

  it('filters with search, ^prefix and suffix$', async () => {
    expect(await names('?order_by=name&sort=asc&search=1.')).toEqual(['v1.10.0', 'v1.2.0', 'v1.9.0'])
    expect(await names('?search=^rel')).toEqual(['release-x'])
    expect(await names('?order_by=name&sort=asc&search=0$')).toEqual(['v1.10.0', 'v1.2.0', 'v1.9.0'])
    expect(await names('?search=nothing')).toEqual([])
  })

  it('paginates the list', async () => {
    const res = await s.request(null, { method: 'GET', url: url('?per_page=3&order_by=name') })
    expect((res.json() as unknown[]).length).toBe(3)
    expect(res.headers['x-total']).toBe('4')
  })

  it('shows an annotated tag with its message, tag object target and date', async () => {
    const tag = (await s.request(null, { method: 'GET', url: url('/v1.9.0') })).json() as TagJson
    expect(tag).toMatchObject({
      name: 'v1.9.0',
      message: 'Nine\n\nbody',
      release: null,
      protected: false,
      commit: { id: c2 },
    })
    expect(tag.target).not.toBe(c2)
    expect(tag.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/)
  })

  it('shows a lightweight tag with its commit as target, no message and no date', async () => {
    const tag = (await s.request(null, { method: 'GET', url: url('/v1.2.0') })).json() as TagJson
    expect(tag).toMatchObject({ name: 'v1.2.0', message: '', target: c1, commit: { id: c1 }, created_at: null })
  })

  it('answers 404 Tag Not Found for an unknown tag', async () => {
    const res = await s.request(null, { method: 'GET', url: url('/v9') })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: '404 Tag Not Found' })
  })

  it('creates an annotated tag with a message, records a pushed tag event, and deletes it', async () => {
    const created = await s.request(dev.token, {
      method: 'POST',
      url: url(),
      payload: { tag_name: 'rel/2.0', ref: 'main', message: 'Two' },
    })
    expect(created.statusCode).toBe(201)
    const tag = created.json() as TagJson
    expect(tag).toMatchObject({ name: 'rel/2.0', message: 'Two', commit: { id: c2 } })
    expect(tag.target).not.toBe(c2)
    const shown = await s.request(null, { method: 'GET', url: url('/rel%2F2.0') })
    expect(shown.statusCode).toBe(200)
    const events = s.app.burrow.db
      .prepare("SELECT push_data FROM events WHERE project_id = ? AND action = 'pushed'")
      .all(project.id) as { push_data: string }[]
    expect(events.map((e) => JSON.parse(e.push_data) as Record<string, unknown>)).toContainEqual(
      expect.objectContaining({ action: 'created', ref_type: 'tag', ref: 'rel/2.0' }),
    )

    const deleted = await s.request(dev.token, { method: 'DELETE', url: url('/rel%2F2.0') })
    expect(deleted.statusCode).toBe(204)
    expect((await s.request(null, { method: 'GET', url: url('/rel%2F2.0') })).statusCode).toBe(404)
    const after = s.app.burrow.db
      .prepare("SELECT push_data FROM events WHERE project_id = ? AND action = 'pushed'")
      .all(project.id) as { push_data: string }[]
    expect(after.map((e) => JSON.parse(e.push_data) as Record<string, unknown>)).toContainEqual(
      expect.objectContaining({ action: 'removed', ref_type: 'tag', ref: 'rel/2.0' }),
    )
  })

  it('creates a lightweight tag without a message, at a SHA', async () => {
    const created = await s.request(dev.token, { method: 'POST', url: url(), payload: { tag_name: 'light', ref: c1 } })
    expect(created.statusCode).toBe(201)
    expect(created.json()).toMatchObject({ name: 'light', target: c1, message: '', created_at: null })
  })

  it('refuses an existing tag, an invalid name and an unknown ref with GitLab messages', async () => {
    const exists = await s.request(dev.token, {
      method: 'POST',
      url: url(),
      payload: { tag_name: 'v1.2.0', ref: 'main' },
    })
    expect(exists.statusCode).toBe(400)
    expect(exists.json()).toEqual({ message: 'Tag v1.2.0 already exists' })
    const invalid = await s.request(dev.token, {
      method: 'POST',
      url: url(),
      payload: { tag_name: 'bad..name', ref: 'main' },
    })
    expect(invalid.statusCode).toBe(400)
    expect(invalid.json()).toEqual({ message: 'Tag name invalid' })
    const target = await s.request(dev.token, { method: 'POST', url: url(), payload: { tag_name: 'ok', ref: 'nope' } })
    expect(target.statusCode).toBe(400)
    expect(target.json()).toEqual({ message: 'Target nope is invalid' })
    const missing = await s.request(dev.token, { method: 'POST', url: url(), payload: { tag_name: 'ok' } })
    expect(missing.statusCode).toBe(400)
    expect(missing.json()).toEqual({ error: 'ref is missing' })
  })

  it('needs a Developer to create or delete tags', async () => {
    expect(
      (await s.request(reporter.token, { method: 'POST', url: url(), payload: { tag_name: 'r', ref: 'main' } }))
        .statusCode,
    ).toBe(403)
    expect((await s.request(reporter.token, { method: 'DELETE', url: url('/v1.2.0') })).statusCode).toBe(403)
    expect(
      (await s.request(null, { method: 'POST', url: url(), payload: { tag_name: 'r', ref: 'main' } })).statusCode,
    ).toBe(401)
  })

  it('answers 404 when deleting an unknown tag', async () => {
    const res = await s.request(dev.token, { method: 'DELETE', url: url('/missing') })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: '404 Tag Not Found' })
  })
})
