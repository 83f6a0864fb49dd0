import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>

describe('badges', () => {
  let s: ListeningServer
  let top: NamespaceRow
  let sub: NamespaceRow
  let empty: NamespaceRow
  let project: ProjectRow
  let developer: SeededUser
  let maintainer: SeededUser
  let groupMaintainer: SeededUser
  let head = ''

  const projectBadges = (p: ProjectRow = project) => `/api/v4/projects/${p.id}/badges`
  const groupBadges = (g: NamespaceRow) => `/api/v4/groups/${g.id}/badges`
  const call = (token: string | null, method: string, url: string, payload?: Json) =>
    s.request(token, { method: method as 'GET', url, ...(payload ? { payload } : {}) })
  const count = () => (s.app.burrow.db.prepare('SELECT COUNT(*) AS n FROM badges').get() as { n: number }).n

  beforeAll(async () => {
    s = await startServer()
    top = seedGroup(s, { path: 'acme', name: 'Acme', visibility: 'private' })
    sub = seedGroup(s, { path: 'tools', parentId: top.id, visibility: 'private' })
    empty = seedGroup(s, { path: 'empty', visibility: 'private' })
    project = seedProject(s, { namespaceId: sub.id, path: 'cli', name: 'Command line', visibility: 'private' })
    developer = seedUser(s)
    maintainer = seedUser(s)
    groupMaintainer = seedUser(s)
    seedMember(s, 'Project', project.id, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, maintainer.user.id, AccessLevel.MAINTAINER)
    seedMember(s, 'Namespace', top.id, groupMaintainer.user.id, AccessLevel.MAINTAINER)
    const commit = await call(ROOT_TOKEN, 'POST', `/api/v4/projects/${project.id}/repository/commits`, {
      branch: 'main',
      commit_message: 'Initial commit',
      actions: [{ action: 'create', file_path: 'README.md', content: '# CLI\n' }],
    })
    expect(commit.statusCode, commit.body).toBe(201)
    head = String((commit.json() as Json).id)
    const tag = await call(ROOT_TOKEN, 'POST', `/api/v4/projects/${project.id}/repository/tags`, {
      tag_name: 'v1.2.0',
      ref: 'main',
    })
    expect(tag.statusCode, tag.body).toBe(201)
  })
  afterAll(async () => {
    await s.close()
  })

  it("adds a project badge for Maintainers and renders every placeholder with the project's values", async () => {
    const link = 'https://ci.example.com/%{project_path}/%{project_id}?ref=%{default_branch}&sha=%{commit_sha}'
    const image =
      'https://img.example.com/%{project_namespace}/%{project_name}/%{group_name}/%{latest_tag}.svg?t=%{project_title}&h=%{gitlab_server}&x=%{unknown}'
    const res = await call(maintainer.token, 'POST', projectBadges(), { link_url: link, image_url: image, name: 'CI' })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toEqual({
      id: expect.any(Number),
      name: 'CI',
      link_url: link,
      image_url: image,
      rendered_link_url: `https://ci.example.com/acme/tools/cli/${project.id}?ref=main&sha=${head}`,
      rendered_image_url:
        'https://img.example.com/acme/tools/cli/acme/v1.2.0.svg?t=Command line&h=localhost&x=%{unknown}',
      kind: 'project',
    })
  })

  it('lists a project badge with the badges of the groups above the project (kind group), filtered by name', async () => {
    const res = await call(groupMaintainer.token, 'POST', groupBadges(top), {
      link_url: 'https://docs.example.com/%{project_path}',
      image_url: 'https://img.example.com/docs.svg',
      name: 'Docs',
    })
    expect(res.statusCode, res.body).toBe(403)

    const owner = seedUser(s)
    seedMember(s, 'Namespace', top.id, owner.user.id, AccessLevel.OWNER)
    const created = await call(owner.token, 'POST', groupBadges(top), {
      link_url: 'https://docs.example.com/%{project_path}',
      image_url: 'https://img.example.com/docs.svg',
      name: 'Docs',
    })
    expect(created.statusCode, created.body).toBe(201)
    // A group badge renders with the group's first project: acme has none of its own.
    expect(created.json()).toMatchObject({
      kind: 'group',
      rendered_link_url: 'https://docs.example.com/%{project_path}',
    })

    const listed = (await call(developer.token, 'GET', projectBadges())).json() as Json[]
    expect(listed.map((b) => [b.name, b.kind])).toEqual([
      ['CI', 'project'],
      ['Docs', 'group'],
    ])
    expect(listed[1].rendered_link_url).toBe('https://docs.example.com/acme/tools/cli')
    const named = (await call(developer.token, 'GET', `${projectBadges()}?name=Docs`)).json() as Json[]
    expect(named.map((b) => b.name)).toEqual(['Docs'])
    // A group lists its own badges only.
    expect(((await call(owner.token, 'GET', groupBadges(top))).json() as Json[]).map((b) => b.name)).toEqual(['Docs'])
    expect((await call(owner.token, 'GET', groupBadges(sub))).json()).toEqual([])

    // The group's badge is not one of the project's own to read, change or remove.
    const groupBadge = listed[1].id
    expect((await call(maintainer.token, 'GET', `${projectBadges()}/${groupBadge}`)).statusCode).toBe(404)
    expect((await call(maintainer.token, 'DELETE', `${projectBadges()}/${groupBadge}`)).statusCode).toBe(404)
  })

  it("renders a group's badges with its first project's values, and as stored when it has no project", async () => {
    const owner = seedUser(s)
    seedMember(s, 'Namespace', sub.id, owner.user.id, AccessLevel.OWNER)
    seedMember(s, 'Namespace', empty.id, owner.user.id, AccessLevel.OWNER)
    const urls = { link_url: 'https://x.example.com/%{project_name}', image_url: 'https://x.example.com/b.svg' }
    const inSub = await call(owner.token, 'GET', `${groupBadges(sub)}/render?${new URLSearchParams(urls)}`)
    expect(inSub.statusCode, inSub.body).toBe(200)
    expect(inSub.json()).toEqual({
      name: null,
      ...urls,
      rendered_link_url: 'https://x.example.com/cli',
      rendered_image_url: urls.image_url,
    })
    const inEmpty = await call(owner.token, 'GET', `${groupBadges(empty)}/render?${new URLSearchParams(urls)}`)
    expect(inEmpty.json()).toMatchObject({ rendered_link_url: urls.link_url })
    expect(count()).toBe(2)
  })

  it("renders a group's badges only with a project the caller may read: a private one's path stays hidden", async () => {
    const open = seedGroup(s, { path: 'open', visibility: 'public' })
    const hidden = seedProject(s, { namespaceId: open.id, path: 'hidden-app', visibility: 'private' })
    const outsider = seedUser(s)
    const member = seedUser(s)
    seedMember(s, 'Project', hidden.id, member.user.id, AccessLevel.GUEST)
    const link = 'https://x.example.com/%{project_path}'
    const added = await call(ROOT_TOKEN, 'POST', groupBadges(open), { link_url: link, image_url: link })
    expect(added.statusCode, added.body).toBe(201)
    const seenBy = async (token: string | null): Promise<unknown> =>
      ((await call(token, 'GET', groupBadges(open))).json() as Json[])[0]?.rendered_link_url

    expect(await seenBy(member.token)).toBe('https://x.example.com/open/hidden-app')
    expect(await seenBy(outsider.token)).toBe(link)
    expect(await seenBy(null)).toBe(link)
    const one = await call(outsider.token, 'GET', `${groupBadges(open)}/${String((added.json() as Json).id)}`)
    expect(one.body).not.toContain('hidden-app')

    // A public project created later renders the badge for everyone; the private one still for its member.
    seedProject(s, { namespaceId: open.id, path: 'shown-app', visibility: 'public' })
    expect(await seenBy(outsider.token)).toBe('https://x.example.com/open/shown-app')
    expect(await seenBy(member.token)).toBe('https://x.example.com/open/hidden-app')
  })

  it('previews a project badge for Maintainers only, signed in', async () => {
    const query = new URLSearchParams({
      link_url: 'https://x.example.com/%{default_branch}',
      image_url: 'https://i.example.com/i.svg',
    })
    const res = await call(maintainer.token, 'GET', `${projectBadges()}/render?${query}`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ rendered_link_url: 'https://x.example.com/main' })
    expect((await call(developer.token, 'GET', `${projectBadges()}/render?${query}`)).statusCode).toBe(403)
    expect((await call(null, 'GET', `${projectBadges()}/render?${query}`)).statusCode).toBe(401)
  })

  it('refuses URLs that are not http(s) or blank with a GitLab-style 400, writing nothing', async () => {
    const before = count()
    const bad = await call(maintainer.token, 'POST', projectBadges(), {
      link_url: 'javascript:alert(1)',
      image_url: ' ',
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toEqual({ message: { link_url: ['must be a valid URL'], image_url: ["can't be blank"] } })
    const missing = await call(maintainer.token, 'POST', projectBadges(), { link_url: 'https://a.example.com' })
    expect(missing.statusCode).toBe(400)
    const query = new URLSearchParams({ link_url: 'ftp://x.example.com', image_url: 'https://i.example.com/i.svg' })
    expect((await call(maintainer.token, 'GET', `${projectBadges()}/render?${query}`)).statusCode).toBe(400)
    expect(count()).toBe(before)
  })

  it('changes and removes a project badge for Maintainers; Developers are refused', async () => {
    const created = (
      await call(maintainer.token, 'POST', projectBadges(), {
        link_url: 'https://a.example.com',
        image_url: 'https://a.example.com/a.svg',
      })
    ).json() as Json
    expect(created.name).toBeNull()
    const url = `${projectBadges()}/${created.id}`
    expect((await call(developer.token, 'PUT', url, { name: 'No' })).statusCode).toBe(403)
    expect((await call(developer.token, 'DELETE', url)).statusCode).toBe(403)
    expect((await call(null, 'PUT', url, { name: 'No' })).statusCode).toBe(401)

    const changed = await call(maintainer.token, 'PUT', url, {
      name: 'Status',
      link_url: 'https://b.example.com/%{project_id}',
    })
    expect(changed.statusCode, changed.body).toBe(200)
    expect(changed.json()).toMatchObject({
      name: 'Status',
      link_url: 'https://b.example.com/%{project_id}',
      image_url: 'https://a.example.com/a.svg',
      rendered_link_url: `https://b.example.com/${project.id}`,
    })
    expect((await call(maintainer.token, 'PUT', url, { image_url: 'nope' })).statusCode).toBe(400)
    expect(((await call(developer.token, 'GET', url)).json() as Json).image_url).toBe('https://a.example.com/a.svg')

    expect((await call(maintainer.token, 'DELETE', url)).statusCode).toBe(204)
    expect((await call(maintainer.token, 'GET', url)).statusCode).toBe(404)
  })

  it('hides the badges of a project the caller cannot see', async () => {
    const stranger = seedUser(s)
    expect((await call(stranger.token, 'GET', projectBadges())).statusCode).toBe(404)
    expect((await call(stranger.token, 'GET', groupBadges(top))).statusCode).toBe(404)
  })
})
