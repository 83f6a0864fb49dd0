import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

type Json = Record<string, unknown>

describe('releases API', () => {
  let s: TestServer
  let group: NamespaceRow
  let project: ProjectRow
  let guest: SeededUser
  let reporter: SeededUser
  let developer: SeededUser
  let maintainer: SeededUser
  let main = ''

  const base = (p: ProjectRow = project) => `/api/v4/projects/${p.id}`
  const call = (token: string | null, method: string, url: string, payload?: Json) =>
    s.request(token, { method: method as 'GET', url, ...(payload ? { payload } : {}) })
  const asRoot = async (method: string, url: string, payload?: Json): Promise<Json & Json[]> => {
    const res = await call(ROOT_TOKEN, method, url, payload)
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
    return (res.body === '' ? {} : res.json()) as Json & Json[]
  }
  const tagNames = async (): Promise<string[]> =>
    ((await asRoot('GET', `${base()}/repository/tags`)) as Json[]).map((t) => String(t.name))
  const releaseCount = (): number => s.app.burrow.db.prepare('SELECT COUNT(*) FROM releases').pluck().get() as number

  beforeAll(async () => {
    s = await makeServer()
    group = seedGroup(s, { path: 'shipyard', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'hull', visibility: 'private' })
    guest = seedUser(s)
    reporter = seedUser(s)
    developer = seedUser(s)
    maintainer = seedUser(s)
    seedMember(s, 'Project', project.id, guest.user.id, AccessLevel.GUEST)
    seedMember(s, 'Project', project.id, reporter.user.id, AccessLevel.REPORTER)
    seedMember(s, 'Project', project.id, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, maintainer.user.id, AccessLevel.MAINTAINER)
    const commit = await asRoot('POST', `${base()}/repository/commits`, {
      branch: 'main',
      commit_message: 'Initial hull',
      actions: [{ action: 'create', file_path: 'README.md', content: '# Hull\n' }],
    })
    main = String(commit.id)
    await asRoot('POST', `${base()}/repository/tags`, { tag_name: 'v0.9.0', ref: 'main', message: 'Beta' })
    await asRoot('POST', `${base()}/milestones`, { title: 'v1.0' })
    await asRoot('POST', `${base()}/milestones`, { title: 'v1.1' })
    await asRoot('POST', `/api/v4/groups/${group.id}/milestones`, { title: 'Q3' })
    await asRoot('POST', `${base()}/issues`, { title: 'Paint it', milestone_id: 1 })
  })
  afterAll(async () => {
    await s.close()
  })

  describe('creating', () => {
    it('creates the tag from ref when it does not exist, and answers the release with its commit and sources', async () => {
      const res = await call(developer.token, 'POST', `${base()}/releases`, {
        tag_name: 'v1.0.0',
        ref: 'main',
        name: 'Hull 1.0',
        description: 'First *seaworthy* hull',
        milestones: ['v1.0', 'Q3'],
        assets: { links: [{ name: 'hull.tar', url: 'https://example.com/hull.tar', direct_asset_path: '/bin/hull' }] },
      })
      expect(res.statusCode, res.body).toBe(201)
      const body = res.json()
      expect(body).toMatchObject({
        name: 'Hull 1.0',
        tag_name: 'v1.0.0',
        description: 'First *seaworthy* hull',
        author: { id: developer.user.id, username: developer.user.username },
        commit: { id: main, title: 'Initial hull' },
        upcoming_release: false,
        historical_release: false,
        commit_path: `/shipyard/hull/-/commit/${main}`,
        tag_path: '/shipyard/hull/-/tags/v1.0.0',
        evidences: [],
        _links: {
          self: 'http://burrow.test/shipyard/hull/-/releases/v1.0.0',
          edit_url: 'http://burrow.test/shipyard/hull/-/releases/v1.0.0/edit',
        },
      })
      expect(body.milestones.map((m: Json) => [m.title, m.issue_stats])).toEqual([
        ['Q3', { total: 0, closed: 0 }],
        ['v1.0', { total: 1, closed: 0 }],
      ])
      expect(body.assets.count).toBe(5)
      expect(body.assets.sources.map((src: Json) => src.format)).toEqual(['zip', 'tar.gz', 'tar.bz2', 'tar'])
      expect(body.assets.sources[0].url).toBe('http://burrow.test/shipyard/hull/-/archive/v1.0.0/hull-v1.0.0.zip')
      expect(body.assets.links).toEqual([
        {
          id: expect.any(Number),
          name: 'hull.tar',
          url: 'https://example.com/hull.tar',
          direct_asset_url: 'http://burrow.test/shipyard/hull/-/releases/v1.0.0/downloads/bin/hull',
          link_type: 'other',
        },
      ])
      expect(await tagNames()).toContain('v1.0.0')
      const tag = await asRoot('GET', `${base()}/repository/tags/v1.0.0`)
      expect(tag.release).toEqual({ tag_name: 'v1.0.0', description: 'First *seaworthy* hull' })
    })

    it('releases an existing tag without a ref, named after the tag by default', async () => {
      const res = await call(developer.token, 'POST', `${base()}/releases`, { tag_name: 'v0.9.0' })
      expect(res.statusCode, res.body).toBe(201)
      expect(res.json()).toMatchObject({ name: 'v0.9.0', tag_name: 'v0.9.0', description: null })
    })

    it('answers 409 for a tag already released and 422 for a new tag without a ref, writing nothing', async () => {
      const before = releaseCount()
      const again = await call(developer.token, 'POST', `${base()}/releases`, { tag_name: 'v1.0.0', ref: 'main' })
      expect(again.statusCode).toBe(409)
      expect(again.json()).toEqual({ message: 'Release already exists' })
      const noRef = await call(developer.token, 'POST', `${base()}/releases`, { tag_name: 'v2.0.0' })
      expect(noRef.statusCode).toBe(422)
      expect(noRef.json()).toEqual({ message: 'Ref is not specified' })
      expect(releaseCount()).toBe(before)
    })

    it('refuses unknown milestones, bad links and a ref that is no commit before making the tag', async () => {
      const before = releaseCount()
      const cases: [Json, number, unknown][] = [
        [{ milestones: ['v1.0', 'nope'] }, 400, { message: 'Milestone(s) not found: nope' }],
        [{ milestone_ids: [987] }, 400, { message: 'Milestone id(s) not found: 987' }],
        [{ milestones: ['v1.0'], milestone_ids: [1] }, 400, { error: expect.stringContaining('Cannot specify') }],
        [
          {
            assets: {
              links: [
                { name: 'a', url: 'https://example.com/a' },
                { name: 'a', url: 'javascript:alert(1)' },
              ],
            },
          },
          400,
          {
            message:
              'Validation failed: Links url is blocked: Only allowed schemes are http, https, ftp, Links name has already been taken',
          },
        ],
        [
          { assets: { links: [{ name: 'b', url: 'https://example.com/b', direct_asset_path: 'bin/b' }] } },
          400,
          { message: 'Validation failed: Links filepath is in an invalid format' },
        ],
        [{ ref: 'no-such-branch' }, 400, { message: 'Target no-such-branch is invalid' }],
        [{ released_at: 'soon' }, 400, { error: 'released_at is invalid' }],
      ]
      for (const [extra, status, body] of cases) {
        const res = await call(developer.token, 'POST', `${base()}/releases`, {
          tag_name: 'v3.0.0',
          ref: 'main',
          ...extra,
        })
        expect(res.statusCode, JSON.stringify(extra)).toBe(status)
        expect(res.json()).toEqual(body)
      }
      expect(releaseCount()).toBe(before)
      expect(await tagNames()).not.toContain('v3.0.0')
    })

    it('keeps writes to Developers: a Reporter is refused and an anonymous caller must sign in', async () => {
      expect(
        (await call(reporter.token, 'POST', `${base()}/releases`, { tag_name: 'v9', ref: 'main' })).statusCode,
      ).toBe(403)
      expect((await call(null, 'POST', `${base()}/releases`, { tag_name: 'v9', ref: 'main' })).statusCode).toBe(401)
      expect(await tagNames()).not.toContain('v9')
    })
  })

  describe('reading', () => {
    it('lists releases newest released first, or by creation in either direction, with page headers', async () => {
      await asRoot('POST', `${base()}/releases`, {
        tag_name: 'v0.1.0',
        ref: 'main',
        released_at: '2020-01-01T00:00:00Z',
      })
      const list = await call(reporter.token, 'GET', `${base()}/releases?per_page=2`)
      expect(list.statusCode).toBe(200)
      expect(list.headers['x-total']).toBe('3')
      expect((list.json() as Json[]).map((r) => r.tag_name)).toEqual(['v0.9.0', 'v1.0.0'])
      const oldest = (await asRoot('GET', `${base()}/releases?order_by=released_at&sort=asc`)) as Json[]
      expect(oldest[0]).toMatchObject({ tag_name: 'v0.1.0', historical_release: true })
      const created = (await asRoot('GET', `${base()}/releases?order_by=created_at&sort=asc`)) as Json[]
      expect(created.map((r) => r.tag_name)).toEqual(['v1.0.0', 'v0.9.0', 'v0.1.0'])
    })

    it('gets one release, with its notes as escaped HTML when asked', async () => {
      await asRoot('PUT', `${base()}/releases/v0.9.0`, { description: 'Line <one>\n\nLine two' })
      const res = await call(reporter.token, 'GET', `${base()}/releases/v0.9.0?include_html_description=true`)
      expect(res.statusCode).toBe(200)
      expect(res.json().description_html).toBe('<p>Line &lt;one&gt;</p>\n<p>Line two</p>')
      expect((await call(reporter.token, 'GET', `${base()}/releases/v0.9.0`)).json()).not.toHaveProperty(
        'description_html',
      )
      expect((await call(reporter.token, 'GET', `${base()}/releases/v7`)).statusCode).toBe(404)
    })

    it('shows a Guest of a private project the releases without tag, commit and sources, and no single release', async () => {
      const list = (await call(guest.token, 'GET', `${base()}/releases`)).json() as Json[]
      const one = list.find((r) => r.name === 'Hull 1.0') as Json
      expect(one).not.toHaveProperty('tag_name')
      expect(one).not.toHaveProperty('commit')
      expect(one).not.toHaveProperty('_links.edit_url')
      expect(one.assets).toEqual({ count: 1, links: [expect.objectContaining({ name: 'hull.tar' })] })
      expect((await call(guest.token, 'GET', `${base()}/releases/v1.0.0`)).statusCode).toBe(403)
    })

    it('hides releases of a private project from outsiders and refuses them when the feature is off', async () => {
      const outsider = seedUser(s)
      expect((await call(outsider.token, 'GET', `${base()}/releases`)).statusCode).toBe(404)
      const other = seedProject(s, { namespaceId: group.id, path: 'no-releases', visibility: 'public' })
      await asRoot('PUT', base(other), { releases_access_level: 'disabled' })
      expect((await call(outsider.token, 'GET', `${base(other)}/releases`)).statusCode).toBe(403)
      expect((await call(ROOT_TOKEN, 'GET', `${base(other)}/releases`)).statusCode).toBe(403)
    })

    it('redirects the latest-release permalink and direct asset paths', async () => {
      const latest = await call(reporter.token, 'GET', `${base()}/releases/permalink/latest/assets/links?page=1`)
      expect(latest.statusCode).toBe(302)
      expect(latest.headers.location).toBe(`/api/v4/projects/${project.id}/releases/v0.9.0/assets/links?page=1`)
      const asset = await call(reporter.token, 'GET', `${base()}/releases/v1.0.0/downloads/bin/hull`)
      expect(asset.statusCode).toBe(302)
      expect(asset.headers.location).toBe('https://example.com/hull.tar')
      expect((await call(reporter.token, 'GET', `${base()}/releases/v1.0.0/downloads/bin/other`)).statusCode).toBe(404)
    })
  })

  describe('updating and deleting', () => {
    it('updates name, notes, date and milestones; [] removes the milestones', async () => {
      const res = await call(developer.token, 'PUT', `${base()}/releases/v1.0.0`, {
        name: 'Hull 1.0 final',
        released_at: '2030-01-01T00:00:00Z',
        milestones: 'v1.0,v1.1',
      })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json()).toMatchObject({ name: 'Hull 1.0 final', upcoming_release: true })
      expect(res.json().milestones.map((m: Json) => m.title)).toEqual(['v1.0', 'v1.1'])
      const cleared = await call(developer.token, 'PUT', `${base()}/releases/v1.0.0`, { milestones: [] })
      expect(cleared.json()).not.toHaveProperty('milestones')
    })

    it('refuses an empty update and unknown milestones, changing nothing', async () => {
      const empty = await call(developer.token, 'PUT', `${base()}/releases/v1.0.0`, {})
      expect(empty.statusCode).toBe(400)
      expect(empty.json()).toEqual({ message: 'params is empty' })
      const unknown = await call(developer.token, 'PUT', `${base()}/releases/v1.0.0`, {
        name: 'Renamed',
        milestones: ['v9'],
      })
      expect(unknown.statusCode).toBe(400)
      expect((await asRoot('GET', `${base()}/releases/v1.0.0`)).name).toBe('Hull 1.0 final')
      expect((await call(reporter.token, 'PUT', `${base()}/releases/v1.0.0`, { name: 'x' })).statusCode).toBe(403)
    })

    it('deletes a release for Maintainers only, answering it and keeping its tag', async () => {
      expect((await call(developer.token, 'DELETE', `${base()}/releases/v0.1.0`)).statusCode).toBe(403)
      const res = await call(maintainer.token, 'DELETE', `${base()}/releases/v0.1.0`)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({ tag_name: 'v0.1.0' })
      expect((await call(maintainer.token, 'GET', `${base()}/releases/v0.1.0`)).statusCode).toBe(404)
      expect(await tagNames()).toContain('v0.1.0')
    })

    it('deletes the release of a tag that is deleted', async () => {
      await asRoot('POST', `${base()}/releases`, { tag_name: 'doomed', ref: 'main' })
      await asRoot('DELETE', `${base()}/repository/tags/doomed`)
      expect((await call(ROOT_TOKEN, 'GET', `${base()}/releases/doomed`)).statusCode).toBe(404)
    })
  })

  describe('asset links', () => {
    const links = (tag = 'v0.9.0') => `${base()}/releases/${tag}/assets/links`

    it('creates, lists, gets, updates and deletes links (Developers write, Reporters read)', async () => {
      const created = await call(developer.token, 'POST', links(), {
        name: 'Runbook',
        url: 'https://example.com/runbook',
        link_type: 'runbook',
        filepath: '/docs/runbook',
      })
      expect(created.statusCode, created.body).toBe(201)
      const link = created.json()
      expect(link).toMatchObject({
        name: 'Runbook',
        link_type: 'runbook',
        direct_asset_url: 'http://burrow.test/shipyard/hull/-/releases/v0.9.0/downloads/docs/runbook',
      })
      expect((await call(reporter.token, 'POST', links(), { name: 'x', url: 'https://x.example' })).statusCode).toBe(
        403,
      )
      const list = await call(reporter.token, 'GET', links())
      expect((list.json() as Json[]).map((l) => l.name)).toEqual(['Runbook'])
      expect((await call(reporter.token, 'GET', `${links()}/${link.id}`)).json()).toEqual(link)
      const renamed = await call(developer.token, 'PUT', `${links()}/${link.id}`, { name: 'Ops runbook' })
      expect(renamed.json()).toMatchObject({ name: 'Ops runbook', url: 'https://example.com/runbook' })
      const deleted = await call(developer.token, 'DELETE', `${links()}/${link.id}`)
      expect(deleted.statusCode).toBe(200)
      expect(deleted.json()).toMatchObject({ id: link.id, name: 'Ops runbook' })
      expect((await call(reporter.token, 'GET', `${links()}/${link.id}`)).statusCode).toBe(404)
    })

    it('refuses a direct asset path without its leading slash on create and update, changing nothing', async () => {
      const kept = await asRoot('POST', links(), {
        name: 'Kept',
        url: 'https://example.com/kept',
        direct_asset_path: '/bin/kept',
      })
      const before = await asRoot('GET', links())
      const invalid = { message: { filepath: ['is in an invalid format'] } }
      for (const field of ['direct_asset_path', 'filepath']) {
        const created = await call(developer.token, 'POST', links(), {
          name: `Relative ${field}`,
          url: `https://example.com/${field}`,
          [field]: 'bin/relative',
        })
        expect(created.statusCode, field).toBe(400)
        expect(created.json(), field).toEqual(invalid)
        const updated = await call(developer.token, 'PUT', `${links()}/${kept.id}`, {
          name: 'Renamed',
          [field]: 'bin/relative',
        })
        expect(updated.statusCode, field).toBe(400)
        expect(updated.json(), field).toEqual(invalid)
      }
      expect(await asRoot('GET', links())).toEqual(before)
      expect((await asRoot('GET', `${links()}/${kept.id}`)).direct_asset_url).toBe(
        'http://burrow.test/shipyard/hull/-/releases/v0.9.0/downloads/bin/kept',
      )
      await asRoot('DELETE', `${links()}/${kept.id}`)
    })

    it('refuses a taken name or URL, a bad direct asset path and an update with neither name nor url', async () => {
      const first = await asRoot('POST', links(), { name: 'Binary', url: 'https://example.com/bin' })
      const taken = await call(developer.token, 'POST', links(), { name: 'Binary', url: 'https://example.com/bin' })
      expect(taken.statusCode).toBe(400)
      expect(taken.json()).toEqual({ message: { name: ['has already been taken'], url: ['has already been taken'] } })
      const badPath = await call(developer.token, 'POST', links(), {
        name: 'Other',
        url: 'https://example.com/other',
        direct_asset_path: 'a//b',
      })
      expect(badPath.json()).toEqual({ message: { filepath: ['is in an invalid format'] } })
      const neither = await call(developer.token, 'PUT', `${links()}/${first.id}`, { link_type: 'image' })
      expect(neither.statusCode).toBe(400)
      const badType = await call(developer.token, 'POST', links(), {
        name: 'T',
        url: 'https://t.example',
        link_type: 'x',
      })
      expect(badType.statusCode).toBe(400)
      expect(((await asRoot('GET', links())) as Json[]).map((l) => l.name)).toEqual(['Binary'])
    })
  })
})
