import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { ROOT_TOKEN, makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

interface Label {
  readonly id: number
  readonly name: string
  readonly color: string
  readonly text_color: string
  readonly description: string | null
  readonly description_html: string | null
  readonly subscribed: boolean
  readonly is_project_label?: boolean
  readonly priority?: number | null
  readonly open_issues_count?: number
}

describe('group and project labels', () => {
  let s: TestServer
  let top: NamespaceRow
  let sub: NamespaceRow
  let priv: NamespaceRow
  let project: ProjectRow
  let personal: ProjectRow
  let reporter: SeededUser
  let guest: SeededUser
  let outsider: SeededUser

  const post = (token: string | null, url: string, payload: Record<string, unknown>) =>
    s.request(token, { method: 'POST', url: `/api/v4${url}`, payload })
  const get = (token: string | null, url: string) => s.request(token, { method: 'GET', url: `/api/v4${url}` })

  beforeAll(async () => {
    s = await makeServer()
    top = seedGroup(s, { path: 'lbl-top', visibility: 'public' })
    sub = seedGroup(s, { path: 'lbl-sub', parentId: top.id, visibility: 'public' })
    priv = seedGroup(s, { path: 'lbl-priv', visibility: 'private' })
    project = seedProject(s, { namespaceId: sub.id, path: 'app', visibility: 'public' })
    reporter = seedUser(s)
    guest = seedUser(s)
    outsider = seedUser(s)
    personal = seedProject(s, { ownerId: reporter.user.id, path: 'mine', visibility: 'public' })
    seedMember(s, 'Namespace', top.id, reporter.user.id, 20)
    seedMember(s, 'Namespace', top.id, guest.user.id, 10)
    expect(
      (
        await post(ROOT_TOKEN, `/groups/${top.id}/labels`, {
          name: 'bug',
          color: '#d9534f',
          description: 'Broken <b>things</b>',
        })
      ).statusCode,
    ).toBe(201)
    expect((await post(ROOT_TOKEN, `/groups/${sub.id}/labels`, { name: 'backend', color: 'navy' })).statusCode).toBe(
      201,
    )
    expect(
      (await post(ROOT_TOKEN, `/projects/${project.id}/labels`, { name: 'ui', color: '#FFEEAA', priority: 3 }))
        .statusCode,
    ).toBe(201)
  })
  afterAll(async () => {
    await s.close()
  })

  it('creates a group label with 201, the colour kept and text_color chosen for a dark colour', async () => {
    const res = await post(reporter.token, `/groups/${top.id}/labels`, {
      name: 'docs',
      color: '#0033CC',
      description: 'Line one\nline two',
    })
    expect(res.statusCode).toBe(201)
    const label = res.json() as Label
    expect(label).toMatchObject({
      name: 'docs',
      color: '#0033CC',
      text_color: '#FFFFFF',
      description: 'Line one\nline two',
      description_html: 'Line one line two',
      subscribed: false,
    })
    expect(label).toHaveProperty('open_issues_count', 0)
    expect(label).not.toHaveProperty('is_project_label')
  })

  it('turns CSS colour names into hex and picks dark text for light colours', async () => {
    const res = await post(reporter.token, `/groups/${top.id}/labels`, { name: 'pale', color: 'LightYellow' })
    expect(res.json() as Label).toMatchObject({ color: '#FFFFE0', text_color: '#1F1E24' })
    const short = await post(reporter.token, `/groups/${top.id}/labels`, { name: 'short', color: '#f00' })
    expect(short.json() as Label).toMatchObject({ color: '#f00', text_color: '#FFFFFF' })
  })

  it('escapes HTML in description_html', async () => {
    const res = await get(null, `/groups/${top.id}/labels/bug`)
    expect((res.json() as Label).description_html).toBe('Broken &lt;b&gt;things&lt;/b&gt;')
  })

  it('answers 400 with a validation message for an invalid colour', async () => {
    const res = await post(reporter.token, `/groups/${top.id}/labels`, { name: 'nocolor', color: 'notacolour' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ message: { color: ['must be a valid color code'] } })
  })

  it('answers 400 naming the missing required parameters', async () => {
    const res = await post(reporter.token, `/groups/${top.id}/labels`, {})
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'name is missing, color is missing' })
  })

  it('answers 409 Label already exists for a duplicate title, whatever its case', async () => {
    const res = await post(reporter.token, `/groups/${top.id}/labels`, { name: 'BUG', color: '#000000' })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({ message: 'Label already exists' })
  })

  it('answers 409 when a subgroup label would shadow an ancestor label', async () => {
    const res = await post(ROOT_TOKEN, `/groups/${sub.id}/labels`, { name: 'bug', color: '#000000' })
    expect(res.statusCode).toBe(409)
  })

  it('refuses label creation to a Guest with 403 and to anonymous callers with 401', async () => {
    expect((await post(guest.token, `/groups/${top.id}/labels`, { name: 'g', color: 'red' })).statusCode).toBe(403)
    expect((await post(null, `/groups/${top.id}/labels`, { name: 'g', color: 'red' })).statusCode).toBe(401)
  })

  it('hides a private group from non-members with 404', async () => {
    const res = await get(outsider.token, `/groups/${priv.id}/labels`)
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: '404 Group Not Found' })
  })

  it('lists a subgroup with ancestor labels by default, paginated', async () => {
    const res = await get(null, `/groups/${sub.id}/labels?per_page=2`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['x-total']).toBe('5') // backend, bug, docs, pale, short
    expect((res.json() as Label[]).map((l) => l.name)).toEqual(['backend', 'bug'])
    expect(res.headers.link).toContain('rel="next"')
  })

  it('omits ancestor labels with include_ancestor_groups=false', async () => {
    const res = await get(null, `/groups/${sub.id}/labels?include_ancestor_groups=false`)
    expect((res.json() as Label[]).map((l) => l.name)).toEqual(['backend'])
  })

  it('adds descendant group labels with include_descendant_groups and project labels with only_group_labels=false', async () => {
    const desc = await get(null, `/groups/${top.id}/labels?include_descendant_groups=true&per_page=100`)
    expect((desc.json() as Label[]).map((l) => l.name)).toContain('backend')
    expect((desc.json() as Label[]).map((l) => l.name)).not.toContain('ui')
    const withProjects = await get(null, `/groups/${sub.id}/labels?only_group_labels=false&per_page=100`)
    expect((withProjects.json() as Label[]).map((l) => l.name)).toContain('ui')
  })

  it('leaves count keys out of lists unless with_counts=true', async () => {
    const plain = (await get(null, `/groups/${top.id}/labels`)).json() as Label[]
    expect(plain[0]).not.toHaveProperty('open_issues_count')
    const counted = (await get(null, `/groups/${top.id}/labels?with_counts=true`)).json() as Label[]
    expect(counted[0]).toMatchObject({ open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 })
  })

  it('counts zero issues and merge requests for a linked label until issues exist', async () => {
    const bug = (await get(null, `/groups/${top.id}/labels/bug`)).json() as Label
    s.app.burrow.db
      .prepare(
        "INSERT INTO label_links (label_id, target_type, target_id, created_at) VALUES (?, 'Issue', 1, '2026-01-01T00:00:00.000Z')",
      )
      .run(bug.id)
    const counted = (await get(null, `/groups/${top.id}/labels?with_counts=true&search=brok`)).json() as Label[]
    expect(counted).toEqual([
      expect.objectContaining({
        name: 'bug',
        open_issues_count: 0,
        closed_issues_count: 0,
        open_merge_requests_count: 0,
      }),
    ])
  })

  it('finds labels whose titles need URL encoding', async () => {
    await post(reporter.token, `/groups/${top.id}/labels`, { name: 'priority::high', color: 'red' })
    await post(reporter.token, `/groups/${top.id}/labels`, { name: 'needs review', color: 'red' })
    expect((await get(null, `/groups/${top.id}/labels/${encodeURIComponent('priority::high')}`)).statusCode).toBe(200)
    expect(
      ((await get(null, `/groups/${top.id}/labels/${encodeURIComponent('needs review')}`)).json() as Label).name,
    ).toBe('needs review')
  })

  it('filters lists with search', async () => {
    const res = await get(null, `/groups/${top.id}/labels?search=brok`)
    expect((res.json() as Label[]).map((l) => l.name)).toEqual(['bug'])
  })

  it('gets one group label by id or by title, and 404s an unknown one', async () => {
    const byTitle = (await get(null, `/groups/${sub.id}/labels/bug`)).json() as Label
    const byId = await get(null, `/groups/${sub.id}/labels/${byTitle.id}`)
    expect((byId.json() as Label).name).toBe('bug')
    const missing = await get(null, `/groups/${top.id}/labels/nope`)
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toEqual({ message: '404 Label Not Found' })
    expect((await get(null, `/groups/${sub.id}/labels/bug?include_ancestor_groups=false`)).statusCode).toBe(404)
  })

  it('updates a group label and requires at least one updatable parameter', async () => {
    const created = (
      await post(reporter.token, `/groups/${top.id}/labels`, { name: 'edit-me', color: 'red' })
    ).json() as Label
    const empty = await s.request(reporter.token, {
      method: 'PUT',
      url: `/api/v4/groups/${top.id}/labels/${created.id}`,
      payload: {},
    })
    expect(empty.statusCode).toBe(400)
    expect(empty.json()).toEqual({
      error: 'new_name, color, description are missing, at least one parameter must be provided',
    })
    const res = await s.request(reporter.token, {
      method: 'PUT',
      url: `/api/v4/groups/${top.id}/labels/edit-me`,
      payload: { new_name: 'edited', color: '#00ff00' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ id: created.id, name: 'edited', color: '#00ff00' })
  })

  it('answers 400 has already been taken when renaming onto an existing title', async () => {
    const res = await s.request(reporter.token, {
      method: 'PUT',
      url: `/api/v4/groups/${top.id}/labels/docs`,
      payload: { new_name: 'bug' },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ message: { title: ['has already been taken'] } })
  })

  it('does not update an ancestor label through a subgroup', async () => {
    const res = await s.request(ROOT_TOKEN, {
      method: 'PUT',
      url: `/api/v4/groups/${sub.id}/labels/bug`,
      payload: { color: 'red' },
    })
    expect(res.statusCode).toBe(404)
  })

  it('supports the deprecated collection-level PUT and DELETE with name', async () => {
    await post(reporter.token, `/groups/${top.id}/labels`, { name: 'old-style', color: 'red' })
    const put = await s.request(reporter.token, {
      method: 'PUT',
      url: `/api/v4/groups/${top.id}/labels`,
      payload: { name: 'old-style', description: 'kept' },
    })
    expect(put.statusCode).toBe(200)
    expect(put.json()).toMatchObject({ name: 'old-style', description: 'kept' })
    const del = await s.request(reporter.token, {
      method: 'DELETE',
      url: `/api/v4/groups/${top.id}/labels?name=old-style`,
    })
    expect(del.statusCode).toBe(204)
    expect((await get(null, `/groups/${top.id}/labels/old-style`)).statusCode).toBe(404)
    const noName = await s.request(reporter.token, { method: 'DELETE', url: `/api/v4/groups/${top.id}/labels` })
    expect(noName.json()).toEqual({ error: 'name is missing' })
  })

  it('deletes a group label with 204', async () => {
    const created = (
      await post(reporter.token, `/groups/${top.id}/labels`, { name: 'gone', color: 'red' })
    ).json() as Label
    const res = await s.request(reporter.token, {
      method: 'DELETE',
      url: `/api/v4/groups/${top.id}/labels/${created.id}`,
    })
    expect(res.statusCode).toBe(204)
    expect((await get(null, `/groups/${top.id}/labels/${created.id}`)).statusCode).toBe(404)
  })

  it('subscribes with 201 then 304, and unsubscribes with 201 then 304', async () => {
    const url = `/groups/${top.id}/labels/bug`
    const first = await post(guest.token, `${url}/subscribe`, {})
    expect(first.statusCode).toBe(201)
    expect((first.json() as Label).subscribed).toBe(true)
    expect((await post(guest.token, `${url}/subscribe`, {})).statusCode).toBe(304)
    expect(((await get(guest.token, url)).json() as Label).subscribed).toBe(true)
    expect(((await get(reporter.token, url)).json() as Label).subscribed).toBe(false)
    const off = await post(guest.token, `${url}/unsubscribe`, {})
    expect(off.statusCode).toBe(201)
    expect((off.json() as Label).subscribed).toBe(false)
    expect((await post(guest.token, `${url}/unsubscribe`, {})).statusCode).toBe(304)
  })

  it('lists project labels with ancestor group labels, marking which are project labels', async () => {
    const res = await get(null, `/projects/${project.id}/labels?per_page=100`)
    const rows = res.json() as Label[]
    expect(rows.find((l) => l.name === 'ui')).toMatchObject({ is_project_label: true, priority: 3 })
    expect(rows.find((l) => l.name === 'bug')).toMatchObject({ is_project_label: false, priority: null })
    expect(rows.map((l) => l.name)).toContain('backend')
  })

  it('keeps only the direct group with include_ancestor_groups=false on a project', async () => {
    const rows = (
      await get(null, `/projects/${project.id}/labels?include_ancestor_groups=false&per_page=100`)
    ).json() as Label[]
    expect(rows.map((l) => l.name).sort()).toEqual(['backend', 'ui'])
  })

  it('refuses a project label whose title a group label already has with 409', async () => {
    const res = await post(ROOT_TOKEN, `/projects/${project.id}/labels`, { name: 'Backend', color: 'red' })
    expect(res.statusCode).toBe(409)
  })

  it('updates a project label priority and requires a parameter (priority listed)', async () => {
    const empty = await s.request(ROOT_TOKEN, {
      method: 'PUT',
      url: `/api/v4/projects/${project.id}/labels/ui`,
      payload: {},
    })
    expect(empty.json()).toEqual({
      error: 'new_name, color, description, priority are missing, at least one parameter must be provided',
    })
    const res = await s.request(ROOT_TOKEN, {
      method: 'PUT',
      url: `/api/v4/projects/${project.id}/labels/ui`,
      payload: { priority: null },
    })
    expect(res.json()).toMatchObject({ name: 'ui', priority: null })
  })

  it('does not change a group label through a project', async () => {
    const res = await s.request(ROOT_TOKEN, { method: 'DELETE', url: `/api/v4/projects/${project.id}/labels/bug` })
    expect(res.statusCode).toBe(404)
  })

  it('lets the project owner manage labels of a personal project and subscribe to them', async () => {
    const created = await post(reporter.token, `/projects/${personal.id}/labels`, { name: 'todo', color: 'orange' })
    expect(created.statusCode).toBe(201)
    expect(
      (await post(outsider.token, `/projects/${personal.id}/labels`, { name: 'x', color: 'red' })).statusCode,
    ).toBe(403)
    expect((await post(outsider.token, `/projects/${personal.id}/labels/todo/subscribe`, {})).statusCode).toBe(201)
    const del = await s.request(reporter.token, {
      method: 'DELETE',
      url: `/api/v4/projects/${personal.id}/labels/todo`,
    })
    expect(del.statusCode).toBe(204)
  })

  it('promotes a project label to a group label, merging same-titled labels of sibling projects', async () => {
    const sibling = seedProject(s, { namespaceId: sub.id, path: 'sibling', visibility: 'public' })
    await post(ROOT_TOKEN, `/projects/${project.id}/labels`, { name: 'perf', color: 'red' })
    await post(ROOT_TOKEN, `/projects/${sibling.id}/labels`, { name: 'perf', color: 'blue' })
    const res = await s.request(ROOT_TOKEN, {
      method: 'PUT',
      url: `/api/v4/projects/${project.id}/labels/perf/promote`,
    })
    expect(res.statusCode).toBe(200)
    const promoted = res.json() as Label
    expect(promoted).toMatchObject({ name: 'perf', color: '#FF0000' })
    expect(promoted).not.toHaveProperty('is_project_label')
    expect(((await get(null, `/groups/${sub.id}/labels/perf`)).json() as Label).id).toBe(promoted.id)
    const siblingLabels = (await get(null, `/projects/${sibling.id}/labels?per_page=100`)).json() as Label[]
    expect(siblingLabels.filter((l) => l.name === 'perf')).toEqual([
      expect.objectContaining({ id: promoted.id, is_project_label: false }),
    ])
  })

  it('refuses promotion to a project Reporter without a role in the group', async () => {
    const member = seedUser(s)
    seedMember(s, 'Project', project.id, member.user.id, 20)
    await post(member.token, `/projects/${project.id}/labels`, { name: 'local', color: 'red' })
    const res = await s.request(member.token, {
      method: 'PUT',
      url: `/api/v4/projects/${project.id}/labels/local/promote`,
    })
    expect(res.statusCode).toBe(403)
  })

  it('answers 400 when promoting a label of a personal project', async () => {
    await post(reporter.token, `/projects/${personal.id}/labels`, { name: 'solo', color: 'red' })
    const res = await s.request(reporter.token, {
      method: 'PUT',
      url: `/api/v4/projects/${personal.id}/labels/solo/promote`,
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ message: 'Failed to promote project label to group label' })
  })

  it("refuses a project's labels to whoever may use neither its issues nor its merge requests, as GitLab's read_label", async () => {
    const tracker = seedProject(s, { namespaceId: sub.id, path: 'members-only', visibility: 'public' })
    const created = await post(ROOT_TOKEN, `/projects/${tracker.id}/labels`, {
      name: 'SECRET-members-only-label',
      color: '#000000',
    })
    expect(created.statusCode, created.body).toBe(201)
    const labelId = String((created.json() as { id: number }).id)
    const set = async (levels: Record<string, string>) =>
      expect(
        (await s.request(ROOT_TOKEN, { method: 'PUT', url: `/api/v4/projects/${tracker.id}`, payload: levels }))
          .statusCode,
      ).toBe(200)
    const urls = [`/projects/${tracker.id}/labels`, `/projects/${tracker.id}/labels/${labelId}`]

    // One feature open to them is enough.
    await set({ issues_access_level: 'enabled', merge_requests_access_level: 'private' })
    expect((await get(outsider.token, urls[0])).body).toContain('SECRET-members-only-label')

    await set({ issues_access_level: 'private', merge_requests_access_level: 'private' })
    for (const url of urls) {
      for (const token of [outsider.token, null]) {
        const res = await get(token, url)
        expect(res.statusCode, url).toBe(403)
        expect(res.body).not.toContain('SECRET-members-only-label')
      }
      // A Guest of the group uses the members-only features.
      expect((await get(guest.token, url)).statusCode, url).toBe(200)
    }
    // Disabled for everyone: administrators get no labels there either.
    await set({ issues_access_level: 'disabled', merge_requests_access_level: 'disabled' })
    expect((await get(ROOT_TOKEN, urls[0])).statusCode).toBe(403)
  })
})
