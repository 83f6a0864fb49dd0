import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

let s: TestServer
let owner: SeededUser
let reporter: SeededUser
let guest: SeededUser
let outsider: SeededUser
let project: ProjectRow

beforeEach(async () => {
  s = await makeServer()
  owner = seedUser(s)
  reporter = seedUser(s)
  guest = seedUser(s)
  outsider = seedUser(s)
  project = seedProject(s, { ownerId: owner.user.id, visibility: 'public' })
  seedMember(s, 'Project', project.id, reporter.user.id, AccessLevel.REPORTER)
  seedMember(s, 'Project', project.id, guest.user.id, AccessLevel.GUEST)
})
afterEach(async () => s.close())

function create(token: string | null, payload: Record<string, unknown>) {
  return s.request(token, { method: 'POST', url: `/api/v4/projects/${project.id}/snippets`, payload })
}

describe('project snippets', () => {
  it('creates a snippet with file_name and content and returns the ProjectSnippet entity', async () => {
    const res = await create(reporter.token, {
      title: 'T',
      file_name: 'a.rb',
      content: 'puts 1',
      description: 'd',
      visibility: 'internal',
    })
    expect(res.statusCode).toBe(201)
    const body = res.json()
    expect(body).toMatchObject({
      title: 'T',
      description: 'd',
      visibility: 'internal',
      file_name: 'a.rb',
      project_id: project.id,
      author: { id: reporter.user.id, username: reporter.user.username },
      ssh_url_to_repo: null,
      http_url_to_repo: null,
    })
    expect(body.web_url).toMatch(new RegExp(`/${project.path}/-/snippets/${body.id}$`))
    expect(body.raw_url).toBe(`${body.web_url}/raw`)
    expect(body.files).toEqual([{ path: 'a.rb', raw_url: `${body.web_url}/raw/main/a.rb` }])
  })

  it('creates from files[] and serves the content raw as text/plain', async () => {
    const res = await create(reporter.token, {
      title: 'T',
      visibility: 'public',
      files: [{ file_path: 'x.txt', content: 'hello\n' }],
    })
    expect(res.statusCode).toBe(201)
    const raw = await s.request(null, {
      method: 'GET',
      url: `/api/v4/projects/${project.id}/snippets/${res.json().id}/raw`,
    })
    expect(raw.statusCode).toBe(200)
    expect(raw.headers['content-type']).toMatch(/^text\/plain/)
    expect(raw.body).toBe('hello\n')
  })

  it('answers 400 for a missing title and for missing content', async () => {
    expect((await create(reporter.token, { file_name: 'a', content: 'x' })).json()).toEqual({
      error: 'title is missing',
    })
    const noContent = await create(reporter.token, { title: 'T', file_name: 'a' })
    expect(noContent.statusCode).toBe(400)
    expect(noContent.json().error).toMatch(/content, files are missing/)
  })

  it('forbids a Guest to create (Reporter needed) and asks anonymous callers to sign in', async () => {
    expect((await create(guest.token, { title: 'T', file_name: 'a', content: 'x' })).statusCode).toBe(403)
    expect((await create(null, { title: 'T', file_name: 'a', content: 'x' })).statusCode).toBe(401)
  })

  it('lists only the snippets whose visibility admits the caller, paginated', async () => {
    for (const visibility of ['private', 'internal', 'public'])
      await create(reporter.token, { title: visibility, file_name: 'a', content: 'x', visibility })
    const titles = async (token: string | null) =>
      (await s.request(token, { method: 'GET', url: `/api/v4/projects/${project.id}/snippets` }))
        .json()
        .map((x: { title: string }) => x.title)
    expect(await titles(guest.token)).toEqual(['public', 'internal', 'private'])
    expect(await titles(outsider.token)).toEqual(['public', 'internal'])
    expect(await titles(null)).toEqual(['public'])
    const page = await s.request(guest.token, {
      method: 'GET',
      url: `/api/v4/projects/${project.id}/snippets?per_page=1&page=2`,
    })
    expect(page.headers['x-total']).toBe('3')
    expect(page.json().map((x: { title: string }) => x.title)).toEqual(['internal'])
  })

  it('hides a private snippet from non-members with 404 Snippet Not Found', async () => {
    const id = (
      await create(reporter.token, { title: 'p', file_name: 'a', content: 'x', visibility: 'private' })
    ).json().id
    const res = await s.request(outsider.token, { method: 'GET', url: `/api/v4/projects/${project.id}/snippets/${id}` })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: '404 Snippet Not Found' })
  })

  it('closes every snippet endpoint when the project disables snippets', async () => {
    s.app.burrow.db
      .prepare(`UPDATE projects SET settings = json_set(settings, '$.snippets_access_level', 'disabled') WHERE id = ?`)
      .run(project.id)
    const res = await s.request(owner.token, { method: 'GET', url: `/api/v4/projects/${project.id}/snippets` })
    expect(res.statusCode).toBe(404)
  })

  it('lets the author update a snippet and refuses another Reporter with 403', async () => {
    const id = (await create(reporter.token, { title: 'T', file_name: 'a', content: 'x', visibility: 'public' })).json()
      .id
    const other = seedUser(s)
    seedMember(s, 'Project', project.id, other.user.id, AccessLevel.REPORTER)
    const url = `/api/v4/projects/${project.id}/snippets/${id}`
    expect((await s.request(other.token, { method: 'PUT', url, payload: { title: 'X' } })).statusCode).toBe(403)
    const res = await s.request(reporter.token, {
      method: 'PUT',
      url,
      payload: { title: 'New', content: 'y', visibility: 'internal' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ title: 'New', visibility: 'internal', file_name: 'a' })
    expect((await s.request(reporter.token, { method: 'GET', url: `${url}/raw` })).body).toBe('y')
  })

  it('answers 400 to an update without any attribute', async () => {
    const id = (await create(reporter.token, { title: 'T', file_name: 'a', content: 'x' })).json().id
    const res = await s.request(reporter.token, {
      method: 'PUT',
      url: `/api/v4/projects/${project.id}/snippets/${id}`,
      payload: {},
    })
    expect(res.statusCode).toBe(400)
  })

  it('lets a Maintainer delete someone else’s snippet (204) and then answers 404', async () => {
    const id = (await create(reporter.token, { title: 'T', file_name: 'a', content: 'x' })).json().id
    const url = `/api/v4/projects/${project.id}/snippets/${id}`
    expect((await s.request(guest.token, { method: 'DELETE', url })).statusCode).toBe(403)
    expect((await s.request(owner.token, { method: 'DELETE', url })).statusCode).toBe(204)
    expect((await s.request(owner.token, { method: 'GET', url })).statusCode).toBe(404)
  })
})
