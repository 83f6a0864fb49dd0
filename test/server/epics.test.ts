import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let s: TestServer
let group: NamespaceRow
let sub: NamespaceRow
let project: ProjectRow
let subProject: ProjectRow
let owner: SeededUser
let reporter: SeededUser
let guest: SeededUser
let outsider: SeededUser

async function call(
  token: string | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: Json,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ statusCode: number; body: any; headers: Json }> {
  const res = await s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
  return { statusCode: res.statusCode, body: res.body ? JSON.parse(res.body) : null, headers: res.headers }
}
const get = (token: string | null, url: string) => call(token, 'GET', url)
const post = (token: string | null, url: string, payload: Json = {}) => call(token, 'POST', url, payload)
const put = (token: string | null, url: string, payload: Json) => call(token, 'PUT', url, payload)
const del = (token: string | null, url: string) => call(token, 'DELETE', url)

async function epic(token: string, g: NamespaceRow, payload: Json): Promise<Json> {
  const r = await post(token, `/groups/${g.id}/epics`, payload)
  expect(r.statusCode).toBe(201)
  return r.body as Json
}
async function issue(token: string, p: ProjectRow, payload: Json): Promise<Json> {
  const r = await post(token, `/projects/${p.id}/issues`, payload)
  expect(r.statusCode).toBe(201)
  return r.body as Json
}
const titles = (list: Json[]): string[] => list.map((e) => e.title as string)

beforeAll(async () => {
  s = await makeServer()
  group = seedGroup(s, { path: 'acme', visibility: 'private' })
  sub = seedGroup(s, { path: 'sub', parentId: group.id, visibility: 'private' })
  project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'private' })
  subProject = seedProject(s, { namespaceId: sub.id, path: 'lib', visibility: 'private' })
  owner = seedUser(s, { username: 'olive' })
  reporter = seedUser(s, { username: 'rex' })
  guest = seedUser(s, { username: 'gia' })
  outsider = seedUser(s, { username: 'otto' })
  seedMember(s, 'Namespace', group.id, owner.user.id, AccessLevel.OWNER)
  seedMember(s, 'Namespace', group.id, reporter.user.id, AccessLevel.REPORTER)
  seedMember(s, 'Namespace', group.id, guest.user.id, AccessLevel.GUEST)
})
afterAll(async () => s.close())

describe('access', () => {
  it('answers 401 to anonymous callers, even on a public group', async () => {
    const pub = seedGroup(s, { visibility: 'public' })
    expect((await get(null, `/groups/${pub.id}/epics`)).statusCode).toBe(401)
  })

  it('answers 404 Group Not Found to non-members of a private group', async () => {
    const r = await get(outsider.token, `/groups/${group.id}/epics`)
    expect(r.statusCode).toBe(404)
    expect(r.body).toEqual({ message: '404 Group Not Found' })
  })

  it('answers 403 on every epics endpoint while epics_enabled is off', async () => {
    const e = await epic(reporter.token, group, { title: 'feature gate' })
    const put = (value: boolean) =>
      s.request(ROOT_TOKEN, { method: 'PUT', url: '/api/v4/application/settings', payload: { epics_enabled: value } })
    expect((await put(false)).statusCode).toBe(200)
    try {
      expect((await get(reporter.token, `/groups/${group.id}/epics`)).statusCode).toBe(403)
      expect((await get(reporter.token, `/groups/${group.id}/epics/${e.iid}`)).statusCode).toBe(403)
      expect((await post(reporter.token, `/groups/${group.id}/epics`, { title: 'x' })).statusCode).toBe(403)
      expect((await get(reporter.token, `/groups/${group.id}/epics/${e.id}/notes`)).statusCode).toBe(403)
      expect((await get(reporter.token, `/groups/${group.id}/epics/${e.iid}/award_emoji`)).statusCode).toBe(403)
    } finally {
      await put(true)
    }
  })

  it('lets Guests read epics but not create them (403)', async () => {
    expect((await get(guest.token, `/groups/${group.id}/epics`)).statusCode).toBe(200)
    expect((await post(guest.token, `/groups/${group.id}/epics`, { title: 'nope' })).statusCode).toBe(403)
  })
})

describe('create and read', () => {
  it('creates an epic with every field of the Epic resource', async () => {
    const r = await post(reporter.token, `/groups/${group.id}/epics`, {
      title: 'Roadmap',
      description: 'The plan',
      labels: 'plan,Q3',
      start_date_is_fixed: true,
      start_date_fixed: '2030-01-01',
      due_date_fixed: '2030-06-30',
    })
    expect(r.statusCode).toBe(201)
    const e = r.body
    expect(e).toMatchObject({
      group_id: group.id,
      parent_id: null,
      parent_iid: null,
      title: 'Roadmap',
      description: 'The plan',
      state: 'opened',
      confidential: false,
      web_url: `http://burrow.test/groups/acme/-/epics/${e.iid}`,
      reference: `&${e.iid}`,
      references: { short: `&${e.iid}`, relative: `&${e.iid}`, full: `acme&${e.iid}` },
      author: { username: 'rex' },
      labels: ['Q3', 'plan'],
      upvotes: 0,
      downvotes: 0,
      subscribed: true,
      closed_at: null,
      start_date: '2030-01-01',
      start_date_is_fixed: true,
      start_date_fixed: '2030-01-01',
      start_date_from_inherited_source: null,
      start_date_from_milestones: null,
      // due_date_fixed is kept, but the due date stays inherited until due_date_is_fixed is set.
      due_date: null,
      end_date: null,
      due_date_is_fixed: false,
      due_date_fixed: '2030-06-30',
      due_date_from_inherited_source: null,
      due_date_from_milestones: null,
      _links: {
        self: `http://burrow.test/api/v4/groups/${group.id}/epics/${e.iid}`,
        epic_issues: `http://burrow.test/api/v4/groups/${group.id}/epics/${e.iid}/issues`,
        group: `http://burrow.test/api/v4/groups/${group.id}`,
        parent: null,
      },
    })
    expect(typeof e.id).toBe('number')
    expect(e.created_at).toBe(e.updated_at)
    const labels = await get(reporter.token, `/groups/${group.id}/labels`)
    expect(labels.body.map((l: Json) => l.name)).toEqual(expect.arrayContaining(['plan', 'Q3']))
  })

  it('400 title is missing; 400 for a description over 1,048,576 characters', async () => {
    expect(await post(reporter.token, `/groups/${group.id}/epics`, { description: 'x' })).toMatchObject({
      statusCode: 400,
      body: { error: 'title is missing' },
    })
    const long = await post(reporter.token, `/groups/${group.id}/epics`, {
      title: 'long',
      description: 'x'.repeat(1_048_577),
    })
    expect(long.statusCode).toBe(400)
    expect(long.body).toEqual({ message: { description: ['is too long (maximum is 1048576 characters)'] } })
    expect(
      (await post(reporter.token, `/groups/${group.id}/epics`, { title: 'ok', description: 'x'.repeat(1_048_576) }))
        .statusCode,
    ).toBe(201)
  })

  it('400 for a malformed fixed date', async () => {
    const r = await post(reporter.token, `/groups/${group.id}/epics`, {
      title: 'bad date',
      due_date_fixed: '2030-02-30',
    })
    expect(r).toMatchObject({ statusCode: 400, body: { error: 'due_date_fixed is invalid' } })
  })

  it('honours created_at for group owners only', async () => {
    const mine = await epic(owner.token, group, { title: 'backdated', created_at: '2020-05-01T10:00:00Z' })
    expect(mine.created_at).toBe('2020-05-01T10:00:00.000Z')
    const theirs = await epic(reporter.token, group, { title: 'not backdated', created_at: '2020-05-01T10:00:00Z' })
    expect(theirs.created_at).not.toBe('2020-05-01T10:00:00.000Z')
  })

  it('gets an epic by iid and answers 404 Epic Not Found for an unknown one', async () => {
    const e = await epic(reporter.token, group, { title: 'single' })
    expect((await get(guest.token, `/groups/${group.id}/epics/${e.iid}`)).body).toMatchObject({
      id: e.id,
      title: 'single',
    })
    expect((await get(guest.token, `/groups/acme/epics/${e.iid}`)).body).toMatchObject({ id: e.id })
    expect(await get(guest.token, `/groups/${group.id}/epics/99999`)).toMatchObject({
      statusCode: 404,
      body: { message: '404 Epic Not Found' },
    })
  })

  it('shows the fixed-date fields only to callers who may edit the epic', async () => {
    const e = await epic(reporter.token, group, { title: 'dates shown' })
    const seen = (await get(guest.token, `/groups/${group.id}/epics/${e.iid}`)).body
    for (const field of ['start_date_is_fixed', 'start_date_fixed', 'due_date_is_fixed', 'due_date_fixed'])
      expect(seen).not.toHaveProperty(field)
    expect(seen).toHaveProperty('start_date_from_inherited_source', null)
    expect(seen).toHaveProperty('due_date', null)
  })

  it('keeps confidential epics to Reporters and above', async () => {
    const c = await epic(reporter.token, group, { title: 'secret plan', confidential: true })
    expect(c.confidential).toBe(true)
    expect((await get(guest.token, `/groups/${group.id}/epics/${c.iid}`)).statusCode).toBe(404)
    expect(titles((await get(guest.token, `/groups/${group.id}/epics?per_page=100`)).body)).not.toContain('secret plan')
    expect(titles((await get(reporter.token, `/groups/${group.id}/epics?per_page=100`)).body)).toContain('secret plan')
    expect(
      titles((await get(reporter.token, `/groups/${group.id}/epics?per_page=100&confidential=true`)).body),
    ).toEqual(['secret plan'])
  })

  it('hands out iids per group without gaps under concurrency', async () => {
    const g = seedGroup(s)
    seedMember(s, 'Namespace', g.id, reporter.user.id, AccessLevel.REPORTER)
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, n) => post(reporter.token, `/groups/${g.id}/epics`, { title: `e${n}` })),
    )
    expect(results.every((r) => r.statusCode === 201)).toBe(true)
    expect(results.map((r) => r.body.iid as number).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 30 }, (_, n) => n + 1),
    )
    const other = await epic(reporter.token, group, { title: 'other group counter' })
    expect(other.iid).toBeLessThan(30 + 20)
  })
})

describe('update and delete', () => {
  it('updates title, description and labels (labels, add_labels, remove_labels)', async () => {
    const e = await epic(reporter.token, group, { title: 'u1', labels: 'a,b' })
    const url = `/groups/${group.id}/epics/${e.iid}`
    expect(
      (await put(reporter.token, url, { title: 'u1!', description: 'd', add_labels: 'c', remove_labels: 'a' })).body,
    ).toMatchObject({ title: 'u1!', description: 'd', labels: ['b', 'c'] })
    expect((await put(reporter.token, url, { labels: '' })).body.labels).toEqual([])
  })

  it('closes and reopens with state_event, recording closed/reopened epic events', async () => {
    const e = await epic(reporter.token, group, { title: 'states' })
    const url = `/groups/${group.id}/epics/${e.iid}`
    const closed = (await put(reporter.token, url, { state_event: 'close' })).body
    expect(closed.state).toBe('closed')
    expect(closed.closed_at).not.toBeNull()
    const reopened = (await put(reporter.token, url, { state_event: 'reopen' })).body
    expect(reopened).toMatchObject({ state: 'opened', closed_at: null })
    const events = (await get(reporter.token, `/users/${reporter.user.id}/events?target_type=epic&per_page=100`))
      .body as Json[]
    expect(
      events
        .filter((ev) => ev.target_id === e.id)
        .map((ev) => ev.action_name)
        .sort(),
    ).toEqual(['closed', 'opened', 'opened'])
    expect(events.find((ev) => ev.target_id === e.id)).toMatchObject({
      target_type: 'Epic',
      target_iid: e.iid,
      project_id: null,
    })
    expect((await put(reporter.token, url, { state_event: 'archive' })).statusCode).toBe(400)
  })

  it('400 when no updatable parameter is given; 403 for Guests', async () => {
    const e = await epic(reporter.token, group, { title: 'u2' })
    const url = `/groups/${group.id}/epics/${e.iid}`
    const r = await put(reporter.token, url, {})
    expect(r.statusCode).toBe(400)
    expect(r.body.error).toMatch(/at least one parameter must be provided/)
    expect((await put(guest.token, url, { title: 'x' })).statusCode).toBe(403)
  })

  it('sets, changes and clears the parent with parent_id, refusing cycles', async () => {
    const a = await epic(reporter.token, group, { title: 'parent a' })
    const b = await epic(reporter.token, group, { title: 'child b' })
    const bUrl = `/groups/${group.id}/epics/${b.iid}`
    const moved = (await put(reporter.token, bUrl, { parent_id: a.id })).body
    expect(moved).toMatchObject({
      parent_id: a.id,
      parent_iid: a.iid,
      _links: { parent: `http://burrow.test/api/v4/groups/${group.id}/epics/${a.iid}` },
    })
    const cycle = await put(reporter.token, `/groups/${group.id}/epics/${a.iid}`, { parent_id: b.id })
    expect(cycle.statusCode).toBe(400)
    expect(cycle.body).toEqual({
      message: { parent: ['This epic cannot be added. It is already an ancestor of the parent epic.'] },
    })
    expect((await put(reporter.token, bUrl, { parent_id: b.id })).body.message.parent[0]).toMatch(
      /cannot be added to itself/,
    )
    expect((await put(reporter.token, bUrl, { parent_id: 0 })).body.parent_id).toBeNull()
  })

  it('refuses a parent in another hierarchy and a parent beyond seven levels', async () => {
    const inSub = await epic(owner.token, sub, { title: 'sub epic' })
    const top = await epic(owner.token, group, { title: 'top epic' })
    // A subgroup's epic may sit under its ancestor group's epic, not the other way round.
    expect((await put(owner.token, `/groups/${sub.id}/epics/${inSub.iid}`, { parent_id: top.id })).statusCode).toBe(200)
    const otherTop = await epic(owner.token, group, { title: 'other top epic' })
    const wrong = await put(owner.token, `/groups/${group.id}/epics/${otherTop.iid}`, { parent_id: inSub.id })
    expect(wrong.body.message.parent[0]).toMatch(/same group or subgroup/)
    let parent = await epic(owner.token, group, { title: 'level 1' })
    for (let level = 2; level <= 7; level++)
      parent = await epic(owner.token, group, { title: `level ${level}`, parent_id: parent.id })
    const tooDeep = await post(owner.token, `/groups/${group.id}/epics`, { title: 'level 8', parent_id: parent.id })
    expect(tooDeep.statusCode).toBe(400)
    expect(tooDeep.body.message.parent[0]).toMatch(/maximum depth \(7\)/)
  })

  it('refuses to make an epic confidential while it holds public issues', async () => {
    const e = await epic(reporter.token, group, { title: 'public holder' })
    const i = await issue(reporter.token, project, { title: 'public issue' })
    await post(reporter.token, `/groups/${group.id}/epics/${e.iid}/issues/${i.id}`)
    const r = await put(reporter.token, `/groups/${group.id}/epics/${e.iid}`, { confidential: true })
    expect(r).toMatchObject({
      statusCode: 400,
      body: { message: { confidential: ['Cannot make the epic confidential if it contains non-confidential issues'] } },
    })
  })

  it('deletes for group owners only (403 for Reporters), freeing its issues', async () => {
    const e = await epic(reporter.token, group, { title: 'doomed' })
    const i = await issue(reporter.token, project, { title: 'in doomed' })
    await post(reporter.token, `/groups/${group.id}/epics/${e.iid}/issues/${i.id}`)
    const url = `/groups/${group.id}/epics/${e.iid}`
    expect((await del(reporter.token, url)).statusCode).toBe(403)
    expect((await del(owner.token, url)).statusCode).toBe(204)
    expect((await get(owner.token, url)).statusCode).toBe(404)
    expect((await get(owner.token, `/projects/${project.id}/issues/${i.iid}`)).body).toMatchObject({
      epic: null,
      epic_iid: null,
    })
  })
})

describe('list filters', () => {
  let g: NamespaceRow
  let gsub: NamespaceRow
  const list = async (query: string, token = owner.token): Promise<string[]> => {
    const r = await get(token, `/groups/${g.id}/epics?per_page=100&${query}`)
    expect(r.statusCode).toBe(200)
    return titles(r.body)
  }

  beforeAll(async () => {
    g = seedGroup(s, { path: 'filters', visibility: 'private' })
    gsub = seedGroup(s, { path: 'deep', parentId: g.id, visibility: 'private' })
    seedMember(s, 'Namespace', g.id, owner.user.id, AccessLevel.OWNER)
    seedMember(s, 'Namespace', g.id, reporter.user.id, AccessLevel.REPORTER)
    const at = (t: string) => ({ created_at: t })
    await epic(owner.token, g, {
      title: 'Alpha',
      description: 'first needle',
      labels: 'bug,ui',
      ...at('2021-01-01T00:00:00Z'),
    })
    // Administrators may backdate too: root authors one epic so the author filters have two authors.
    await epic(ROOT_TOKEN, g, { title: 'beta', labels: 'bug', ...at('2021-02-01T00:00:00Z') })
    const c = await epic(owner.token, g, { title: 'Gamma', ...at('2021-03-01T00:00:00Z') })
    await epic(owner.token, gsub, { title: 'Delta in subgroup', ...at('2021-04-01T00:00:00Z') })
    await put(owner.token, `/groups/${g.id}/epics/${c.iid}`, { state_event: 'close' })
    await post(reporter.token, `/groups/${g.id}/epics/${c.iid}/award_emoji`, { name: 'thumbsup' })
  })

  it('lists every state by default, newest first, with descendant groups included', async () => {
    expect(await list('')).toEqual(['Delta in subgroup', 'Gamma', 'beta', 'Alpha'])
  })

  it('filters by state, author_id and author_username', async () => {
    expect(await list('state=closed')).toEqual(['Gamma'])
    expect(await list('state=opened')).toEqual(['Delta in subgroup', 'beta', 'Alpha'])
    expect(await list(`author_id=${owner.user.id}`)).toEqual(['Delta in subgroup', 'Gamma', 'Alpha'])
    expect(await list('author_username=root')).toEqual(['beta'])
    expect((await get(owner.token, `/groups/${g.id}/epics?author_id=1&author_username=rex`)).statusCode).toBe(400)
  })

  it('filters by labels (all must match), None and Any, and not[labels]', async () => {
    expect(await list('labels=bug')).toEqual(['beta', 'Alpha'])
    expect(await list('labels=bug,ui')).toEqual(['Alpha'])
    expect(await list('labels=None')).toEqual(['Delta in subgroup', 'Gamma'])
    expect(await list('labels=Any')).toEqual(['beta', 'Alpha'])
    expect(await list('not[labels]=ui')).toEqual(['Delta in subgroup', 'Gamma', 'beta'])
    expect(await list(`not[author_id]=${owner.user.id}`)).toEqual(['beta'])
  })

  it('adds label details with with_labels_details', async () => {
    const r = await get(owner.token, `/groups/${g.id}/epics?labels=ui&with_labels_details=true`)
    expect(r.body[0].labels).toEqual([
      expect.objectContaining({
        name: 'bug',
        color: expect.any(String),
        text_color: expect.any(String),
        description_html: null,
      }),
      expect.objectContaining({ name: 'ui' }),
    ])
  })

  it('orders by title and updated_at, asc or desc', async () => {
    expect(await list('order_by=title&sort=asc')).toEqual(['Alpha', 'beta', 'Delta in subgroup', 'Gamma'])
    expect((await list('order_by=updated_at&sort=desc'))[0]).toBe('Gamma')
    expect((await get(owner.token, `/groups/${g.id}/epics?order_by=weight`)).statusCode).toBe(400)
  })

  it('searches title and description', async () => {
    expect(await list('search=needle')).toEqual(['Alpha'])
    expect(await list('search=GAMMA')).toEqual(['Gamma'])
  })

  it('filters on created and updated times', async () => {
    expect(await list('created_after=2021-02-01T00:00:00Z&created_before=2021-03-15T00:00:00Z')).toEqual([
      'Gamma',
      'beta',
    ])
    // Only Gamma changed (closed) after its backdated creation.
    expect(await list('updated_before=2021-12-31T00:00:00Z')).toEqual(['Delta in subgroup', 'beta', 'Alpha'])
    expect(await list('updated_after=2022-01-01T00:00:00Z')).toEqual(['Gamma'])
  })

  it('honours include_descendant_groups=false and include_ancestor_groups=true', async () => {
    expect(await list('include_descendant_groups=false')).toEqual(['Gamma', 'beta', 'Alpha'])
    const fromSub = titles((await get(owner.token, `/groups/${gsub.id}/epics?include_ancestor_groups=true`)).body)
    expect(fromSub).toEqual(['Delta in subgroup', 'Gamma', 'beta', 'Alpha'])
    expect(titles((await get(owner.token, `/groups/${gsub.id}/epics`)).body)).toEqual(['Delta in subgroup'])
  })

  it('gives references relative to the requesting group', async () => {
    const fromTop = (await get(owner.token, `/groups/${g.id}/epics?search=Delta`)).body[0]
    expect(fromTop.references).toEqual({ short: '&1', relative: 'deep&1', full: 'filters/deep&1' })
    const fromSub = (await get(owner.token, `/groups/${gsub.id}/epics`)).body[0]
    expect(fromSub.references.relative).toBe('&1')
    const topFromSub = (await get(owner.token, `/groups/${gsub.id}/epics?include_ancestor_groups=true&search=Alpha`))
      .body[0]
    expect(topFromSub.references.relative).toBe(`filters&${topFromSub.iid}`)
  })

  it('filters on the caller’s reactions with my_reaction_emoji (name, Any, None)', async () => {
    expect(await list('my_reaction_emoji=thumbsup', reporter.token)).toEqual(['Gamma'])
    expect(await list('my_reaction_emoji=Any', reporter.token)).toEqual(['Gamma'])
    expect(await list('my_reaction_emoji=None', reporter.token)).toEqual(['Delta in subgroup', 'beta', 'Alpha'])
    expect((await get(reporter.token, `/groups/${g.id}/epics?search=Gamma`)).body[0]).toMatchObject({
      upvotes: 1,
      downvotes: 0,
    })
  })

  it('paginates with GitLab’s headers', async () => {
    const r = await get(owner.token, `/groups/${g.id}/epics?per_page=3&page=2`)
    expect(titles(r.body)).toEqual(['Alpha'])
    expect(r.headers['x-total']).toBe('4')
    expect(r.headers['x-total-pages']).toBe('2')
    expect(String(r.headers.link)).toContain('rel="first"')
  })
})

describe('dates', () => {
  it('inherits start and due dates from the milestones of its issues and its child epics', async () => {
    const db = s.app.burrow.db
    const m1 = (
      await post(reporter.token, `/projects/${project.id}/milestones`, {
        title: 'date m1',
        start_date: '2031-02-01',
        due_date: '2031-03-01',
      })
    ).body
    const m2 = (
      await post(reporter.token, `/groups/${group.id}/milestones`, {
        title: 'date m2',
        start_date: '2031-01-15',
        due_date: '2031-02-20',
      })
    ).body
    const e = await epic(reporter.token, group, { title: 'dated' })
    const i1 = await issue(reporter.token, project, { title: 'd1', milestone_id: m1.id })
    const i2 = await issue(reporter.token, project, { title: 'd2', milestone_id: m2.id })
    for (const i of [i1, i2])
      expect((await post(reporter.token, `/groups/${group.id}/epics/${e.iid}/issues/${i.id}`)).statusCode).toBe(201)
    const url = `/groups/${group.id}/epics/${e.iid}`
    expect((await get(reporter.token, url)).body).toMatchObject({
      start_date: '2031-01-15',
      start_date_from_inherited_source: '2031-01-15',
      start_date_from_milestones: '2031-01-15',
      due_date: '2031-03-01',
      end_date: '2031-03-01',
      due_date_from_inherited_source: '2031-03-01',
      due_date_from_milestones: '2031-03-01',
    })
    // A fixed date wins over the inherited one, which is still reported.
    const fixed = (await put(reporter.token, url, { due_date_is_fixed: true, due_date_fixed: '2031-12-31' })).body
    expect(fixed).toMatchObject({
      due_date: '2031-12-31',
      due_date_fixed: '2031-12-31',
      due_date_is_fixed: true,
      due_date_from_inherited_source: '2031-03-01',
    })
    // The parent inherits the child's effective dates.
    const parent = await epic(reporter.token, group, { title: 'dated parent' })
    await put(reporter.token, url, { parent_id: parent.id })
    expect((await get(reporter.token, `/groups/${group.id}/epics/${parent.iid}`)).body).toMatchObject({
      start_date: '2031-01-15',
      due_date: '2031-12-31',
    })
    expect(db.prepare('SELECT COUNT(*) AS n FROM epics WHERE id = ?').get(parent.id)).toEqual({ n: 1 })
  })
})

describe('epic issues', () => {
  let e: Json
  let url: string
  let i1: Json
  let i2: Json
  let i3: Json

  beforeAll(async () => {
    e = await epic(reporter.token, group, { title: 'holder' })
    url = `/groups/${group.id}/epics/${e.iid}/issues`
    i1 = await issue(reporter.token, project, { title: 'first' })
    i2 = await issue(reporter.token, project, { title: 'second' })
    seedMember(s, 'Namespace', sub.id, reporter.user.id, AccessLevel.REPORTER)
    i3 = await issue(reporter.token, subProject, { title: 'third, in a subgroup' })
  })

  it('assigns an issue (201) with the link, its epic in full reference and its issue', async () => {
    const r = await post(reporter.token, `${url}/${i1.id}`)
    expect(r.statusCode).toBe(201)
    expect(r.body).toMatchObject({
      id: expect.any(Number),
      relative_position: expect.any(Number),
      epic: { id: e.id, iid: e.iid, reference: `acme&${e.iid}` },
      issue: {
        id: i1.id,
        iid: i1.iid,
        title: 'first',
        epic_iid: e.iid,
        epic: { id: e.id, iid: e.iid, title: 'holder', url: `/groups/acme/-/epics/${e.iid}`, group_id: group.id },
      },
    })
    expect((await post(reporter.token, `${url}/${i2.id}`)).statusCode).toBe(201)
    expect((await post(reporter.token, `${url}/${i3.id}`)).statusCode).toBe(201)
  })

  it('answers 409 for an issue already in the epic and 404 for an unknown or foreign issue', async () => {
    expect(await post(reporter.token, `${url}/${i1.id}`)).toMatchObject({
      statusCode: 409,
      body: { message: 'Issue(s) already assigned' },
    })
    expect(await post(reporter.token, `${url}/999999`)).toMatchObject({
      statusCode: 404,
      body: { message: 'No Issue found for given params' },
    })
    const foreign = seedProject(s, { ownerId: reporter.user.id })
    const f = await issue(reporter.token, foreign, { title: 'elsewhere' })
    expect((await post(reporter.token, `${url}/${f.id}`)).statusCode).toBe(404)
    expect((await post(guest.token, `${url}/${i1.id}`)).statusCode).toBe(403)
  })

  it('lists the epic’s issues in order with epic_issue_id and relative_position', async () => {
    const r = await get(guest.token, url)
    expect(r.statusCode).toBe(200)
    expect(titles(r.body)).toEqual(['first', 'second', 'third, in a subgroup'])
    expect(r.body[0]).toMatchObject({
      epic_issue_id: expect.any(Number),
      relative_position: expect.any(Number),
      references: { relative: `app#${i1.iid}` },
    })
    expect(r.headers['x-total']).toBe('3')
  })

  it('reorders with move_before_id / move_after_id and answers the new order', async () => {
    const links = (await get(reporter.token, url)).body as Json[]
    const [first, second, third] = links.map((l) => l.epic_issue_id as number)
    const r = await put(reporter.token, `${url}/${third}`, { move_before_id: first, move_after_id: second })
    expect(r.statusCode).toBe(200)
    expect(titles(r.body)).toEqual(['first', 'third, in a subgroup', 'second'])
    expect(titles((await get(reporter.token, url)).body)).toEqual(['first', 'third, in a subgroup', 'second'])
    expect((await put(reporter.token, `${url}/${third}`, { move_before_id: 123456789 })).statusCode).toBe(400)
  })

  it('moves an issue from another epic when assigned again elsewhere, keeping its link id', async () => {
    const other = await epic(reporter.token, group, { title: 'other holder' })
    const before = (await get(reporter.token, url)).body.find((i: Json) => i.id === i2.id).epic_issue_id
    const r = await post(reporter.token, `/groups/${group.id}/epics/${other.iid}/issues/${i2.id}`)
    expect(r.body.id).toBe(before)
    expect(titles((await get(reporter.token, url)).body)).not.toContain('second')
    await post(reporter.token, `${url}/${i2.id}`)
  })

  it('removes an issue from the epic and answers the removed link', async () => {
    const link = (await get(reporter.token, url)).body.find((i: Json) => i.id === i3.id).epic_issue_id
    const r = await del(reporter.token, `${url}/${link}`)
    expect(r).toMatchObject({ statusCode: 200, body: { id: link, issue: { id: i3.id } } })
    expect((await del(reporter.token, `${url}/${link}`)).statusCode).toBe(404)
    expect((await get(reporter.token, `/projects/${subProject.id}/issues/${i3.iid}`)).body).toMatchObject({
      epic: null,
      epic_iid: null,
    })
  })

  it('sets and clears the epic with epic_id / epic_iid on issue create and update', async () => {
    const made = await issue(reporter.token, project, { title: 'born in epic', epic_id: e.id })
    expect(made).toMatchObject({ epic_iid: e.iid, epic: { id: e.id } })
    const moved = (await put(reporter.token, `/projects/${project.id}/issues/${made.iid}`, { epic_iid: 0 })).body
    expect(moved).toMatchObject({ epic: null, epic_iid: null })
    expect(
      (await put(reporter.token, `/projects/${project.id}/issues/${made.iid}`, { epic_iid: e.iid })).body.epic_iid,
    ).toBe(e.iid)
    expect(await put(reporter.token, `/projects/${project.id}/issues/${made.iid}`, { epic_id: 987654 })).toMatchObject({
      statusCode: 404,
      body: { message: '404 Epic Not Found' },
    })
    expect(
      (await put(reporter.token, `/projects/${project.id}/issues/${made.iid}`, { epic_id: e.id, epic_iid: e.iid }))
        .statusCode,
    ).toBe(400)
    const list = (await get(reporter.token, `/projects/${project.id}/issues?search=born`)).body
    expect(list[0]).toMatchObject({ epic_iid: e.iid, epic: { id: e.id, group_id: group.id } })
  })

  it('hides a confidential epic from issue readers below Reporter and leaves the keys out for personal projects', async () => {
    const ce = await epic(reporter.token, group, { title: 'confidential holder', confidential: true })
    const ci = await issue(reporter.token, project, { title: 'confidential member', confidential: true })
    expect((await post(reporter.token, `/groups/${group.id}/epics/${ce.iid}/issues/${ci.id}`)).statusCode).toBe(201)
    const pub = await issue(reporter.token, project, { title: 'public member' })
    expect(await post(reporter.token, `/groups/${group.id}/epics/${ce.iid}/issues/${pub.id}`)).toMatchObject({
      statusCode: 422,
    })
    seedMember(s, 'Project', project.id, guest.user.id, AccessLevel.GUEST)
    const asGuest = (await get(guest.token, `/projects/${project.id}/issues?scope=all&search=holder`)).body as Json[]
    expect(asGuest).toEqual([])
    const personal = seedProject(s, { ownerId: outsider.user.id, visibility: 'private' })
    const mine = await issue(outsider.token, personal, { title: 'personal' })
    expect(mine).not.toHaveProperty('epic')
    expect(mine).not.toHaveProperty('epic_iid')
  })
})

describe('issue lists with epics', () => {
  /** Statements run while `fn` runs (every get/all/run/iterate of better-sqlite3). */
  async function statementsDuring(fn: () => Promise<unknown>): Promise<number> {
    const proto = Object.getPrototypeOf(s.app.burrow.db.prepare('SELECT 1')) as Record<
      string,
      (...a: unknown[]) => unknown
    >
    const originals = new Map(['get', 'all', 'run', 'iterate'].map((m) => [m, proto[m]]))
    let count = 0
    for (const [m, original] of originals) {
      proto[m] = function (this: unknown, ...a: unknown[]) {
        count += 1
        return original.apply(this, a)
      }
    }
    try {
      await fn()
    } finally {
      for (const [m, original] of originals) proto[m] = original
    }
    return count
  }

  it('present epic fields without a query per issue (N+1-free)', async () => {
    const g = seedGroup(s, { visibility: 'private' })
    const sg = seedGroup(s, { parentId: g.id, visibility: 'private' })
    const projects = [
      seedProject(s, { namespaceId: g.id, visibility: 'private' }),
      seedProject(s, { namespaceId: sg.id, visibility: 'private' }),
    ]
    seedMember(s, 'Namespace', g.id, reporter.user.id, AccessLevel.REPORTER)
    const epics = [
      await epic(reporter.token, g, { title: 'e1' }),
      await epic(reporter.token, sg, { title: 'e2' }),
      await epic(reporter.token, g, { title: 'e3', confidential: true }),
    ]
    for (let n = 0; n < 30; n++) {
      // Issues of the subgroup's project go to the subgroup's epic; the others to the group's.
      const i = await issue(reporter.token, projects[n % 3 === 1 ? 1 : 0], {
        title: `n${n}`,
        confidential: n % 3 === 2,
        labels: `l${n % 4}`,
      })
      const e = epics[n % 3]
      expect((await post(reporter.token, `/groups/${e.group_id}/epics/${e.iid}/issues/${i.id}`)).statusCode).toBe(201)
    }
    // Totals and readable projects are memoised until the next write: warm them so both pages count alike
    // (through another page size: a page asked again is answered from memory without its queries).
    await get(reporter.token, `/groups/${g.id}/issues?per_page=2`)
    const small = await statementsDuring(() => get(reporter.token, `/groups/${g.id}/issues?per_page=3`))
    const large = await statementsDuring(() => get(reporter.token, `/groups/${g.id}/issues?per_page=30`))
    expect(large).toBe(small)
    const page = (await get(reporter.token, `/groups/${g.id}/issues?per_page=30`)).body as Json[]
    expect(page.every((i) => i.epic !== null && i.epic_iid === i.epic.iid)).toBe(true)
    await get(reporter.token, `/groups/${g.id}/epics?per_page=2`)
    const epicsSmall = await statementsDuring(() => get(reporter.token, `/groups/${g.id}/epics?per_page=1`))
    const epicsLarge = await statementsDuring(() => get(reporter.token, `/groups/${g.id}/epics?per_page=3`))
    expect(epicsLarge).toBe(epicsSmall)
  })
})

describe('child epics', () => {
  it('lists, assigns, creates, reorders and removes child epics', async () => {
    const parent = await epic(reporter.token, group, { title: 'tree root' })
    const base = `/groups/${group.id}/epics/${parent.iid}/epics`
    const a = await epic(reporter.token, group, { title: 'child a' })
    const assigned = await post(reporter.token, `${base}/${a.id}`)
    expect(assigned).toMatchObject({ statusCode: 201, body: { id: a.id, parent_id: parent.id } })
    expect((await post(reporter.token, `${base}/${a.id}`)).statusCode).toBe(409)
    const created = await post(reporter.token, base, { title: 'child b' })
    expect(created.statusCode).toBe(201)
    expect(created.body).toMatchObject({
      title: 'child b',
      group_id: group.id,
      parent_id: parent.id,
      has_children: false,
      has_issues: false,
      reference: `&${created.body.iid}`,
      url: `http://burrow.test/groups/acme/-/epics/${created.body.iid}`,
      relation_url: `http://burrow.test/groups/acme/-/epics/${parent.iid}/links/${created.body.id}`,
    })
    expect(titles((await get(guest.token, base)).body)).toEqual(['child a', 'child b'])
    const reordered = await put(reporter.token, `${base}/${created.body.id}`, { move_after_id: a.id })
    expect(titles(reordered.body)).toEqual(['child b', 'child a'])
    const removed = await del(reporter.token, `${base}/${a.id}`)
    expect(removed).toMatchObject({ statusCode: 200, body: { id: a.id, parent_id: null } })
    expect(titles((await get(reporter.token, base)).body)).toEqual(['child b'])
    const loop = await post(reporter.token, `/groups/${group.id}/epics/${created.body.iid}/epics/${parent.id}`)
    expect(loop.statusCode).toBe(409)
    expect(loop.body.message).toMatch(/already an ancestor/)
  })
})

describe('notes, discussions, award emoji, subscriptions and to-dos', () => {
  it('comments on an epic by its global id through the notes and discussions endpoints', async () => {
    const e = await epic(reporter.token, group, { title: 'talk' })
    const notes = `/groups/${group.id}/epics/${e.id}/notes`
    const n = await post(guest.token, notes, { body: '@rex hello' })
    expect(n.statusCode).toBe(201)
    expect(n.body).toMatchObject({
      body: '@rex hello',
      noteable_type: 'Epic',
      noteable_id: e.id,
      noteable_iid: e.iid,
      project_id: null,
      system: false,
    })
    expect((await get(guest.token, notes)).body).toHaveLength(1)
    // The mention raised a to-do on the epic for rex, with the epic's group (rex's own comment below settles it).
    const todos = (await get(reporter.token, '/todos?type=Epic')).body as Json[]
    expect(todos[0]).toMatchObject({
      target_type: 'Epic',
      action_name: 'directly_addressed',
      project: null,
      group: { id: group.id, full_path: 'acme', kind: 'group' },
      target: { id: e.id },
    })
    expect(todos[0].target_url).toBe(`http://burrow.test/groups/acme/-/epics/${e.iid}#note_${n.body.id}`)
    const thread = await post(reporter.token, `/groups/${group.id}/epics/${e.id}/discussions`, { body: 'thread' })
    expect(thread.statusCode).toBe(201)
    const reply = await post(guest.token, `/groups/${group.id}/epics/${e.id}/discussions/${thread.body.id}/notes`, {
      body: 'reply',
    })
    expect(reply.statusCode).toBe(201)
    const discussion = (await get(guest.token, `/groups/${group.id}/epics/${e.id}/discussions/${thread.body.id}`)).body
    expect(discussion.notes.map((x: Json) => x.body)).toEqual(['thread', 'reply'])
    expect((await get(guest.token, `/groups/${group.id}/epics/${e.iid + 100000}/notes`)).statusCode).toBe(404)
    // Commenting touches the epic and records a group event.
    const events = (await get(guest.token, `/users/${guest.user.id}/events?action=commented`)).body as Json[]
    expect(events[0]).toMatchObject({ action_name: 'commented on', project_id: null, note: { noteable_type: 'Epic' } })
  })

  it('keeps internal notes to Reporters and lets an author delete their own note', async () => {
    const e = await epic(reporter.token, group, { title: 'internal talk' })
    const notes = `/groups/${group.id}/epics/${e.id}/notes`
    expect((await post(reporter.token, notes, { body: 'hidden', internal: true })).statusCode).toBe(201)
    expect((await post(guest.token, notes, { body: 'nope', internal: true })).statusCode).toBe(403)
    expect((await get(guest.token, notes)).body).toEqual([])
    const mine = await post(guest.token, notes, { body: 'mine' })
    expect((await del(guest.token, `${notes}/${mine.body.id}`)).statusCode).toBe(204)
  })

  it('awards emoji by epic iid and counts votes', async () => {
    const e = await epic(reporter.token, group, { title: 'vote' })
    const awards = `/groups/${group.id}/epics/${e.iid}/award_emoji`
    const up = await post(guest.token, awards, { name: 'thumbsup' })
    expect(up).toMatchObject({
      statusCode: 201,
      body: { name: 'thumbsup', awardable_type: 'Epic', awardable_id: e.id },
    })
    await post(reporter.token, awards, { name: 'thumbsdown' })
    expect((await get(guest.token, `/groups/${group.id}/epics/${e.iid}`)).body).toMatchObject({
      upvotes: 1,
      downvotes: 1,
    })
    expect((await get(guest.token, awards)).body).toHaveLength(2)
    // Only the one who gave it (or an administrator) takes it back; GitLab answers anyone else 401.
    expect((await del(reporter.token, `${awards}/${up.body.id}`)).statusCode).toBe(401)
    expect((await get(guest.token, awards)).body).toHaveLength(2)
  })

  it('subscribes and unsubscribes (201, then 304 when unchanged)', async () => {
    const e = await epic(reporter.token, group, { title: 'watch' })
    const base = `/groups/${group.id}/epics/${e.iid}`
    expect((await get(guest.token, base)).body.subscribed).toBe(false)
    expect(await post(guest.token, `${base}/subscribe`)).toMatchObject({ statusCode: 201, body: { subscribed: true } })
    expect((await post(guest.token, `${base}/subscribe`)).statusCode).toBe(304)
    expect(await post(reporter.token, `${base}/unsubscribe`)).toMatchObject({
      statusCode: 201,
      body: { subscribed: false },
    })
    expect((await post(reporter.token, `${base}/unsubscribe`)).statusCode).toBe(304)
  })

  it('marks an epic as a to-do (201) and answers 304 when one is pending', async () => {
    const e = await epic(reporter.token, group, { title: 'remember' })
    const r = await post(guest.token, `/groups/${group.id}/epics/${e.iid}/todo`)
    expect(r.statusCode).toBe(201)
    expect(r.body).toMatchObject({
      action_name: 'marked',
      target_type: 'Epic',
      state: 'pending',
      project: null,
      group: { id: group.id, path: 'acme' },
      target: { iid: e.iid },
    })
    expect(r.body.target_url).toBe(`http://burrow.test/groups/acme/-/epics/${e.iid}`)
    expect((await post(guest.token, `/groups/${group.id}/epics/${e.iid}/todo`)).statusCode).toBe(304)
    const listed = (await get(guest.token, '/todos')).body as Json[]
    expect(listed.find((t) => t.id === r.body.id)).toMatchObject({ target: { title: 'remember' } })
  })
})

describe('moving and cloning an issue of an epic', () => {
  it('a moved issue’s copy takes the original’s place in the epic; the original leaves it', async () => {
    const e = await epic(reporter.token, group, { title: 'carry on move' })
    const first = await issue(reporter.token, project, { title: 'first' })
    const moving = await issue(reporter.token, project, { title: 'moving' })
    await post(reporter.token, `/groups/${group.id}/epics/${e.iid}/issues/${first.id}`)
    await post(reporter.token, `/groups/${group.id}/epics/${e.iid}/issues/${moving.id}`)
    const moved = await post(reporter.token, `/projects/${project.id}/issues/${moving.iid}/move`, {
      to_project_id: subProject.id,
    })
    expect(moved.statusCode).toBe(201)
    expect(moved.body.epic).toMatchObject({ id: e.id, iid: e.iid })
    expect((await get(reporter.token, `/projects/${project.id}/issues/${moving.iid}`)).body.epic).toBeNull()
    const listed = (await get(reporter.token, `/groups/${group.id}/epics/${e.iid}/issues`)).body as Json[]
    expect(listed.map((i) => i.id)).toEqual([first.id, moved.body.id])
  })

  it('a clone joins the original’s epic too', async () => {
    const e = await epic(reporter.token, group, { title: 'carry on clone' })
    const original = await issue(reporter.token, project, { title: 'cloned' })
    await post(reporter.token, `/groups/${group.id}/epics/${e.iid}/issues/${original.id}`)
    const clone = await post(reporter.token, `/projects/${project.id}/issues/${original.iid}/clone`, {
      to_project_id: project.id,
    })
    expect(clone.body.epic).toMatchObject({ id: e.id })
    const listed = (await get(reporter.token, `/groups/${group.id}/epics/${e.iid}/issues`)).body as Json[]
    expect(listed.map((i) => i.id)).toEqual([original.id, clone.body.id])
  })

  it('leaves the epic alone when the caller may not edit it', async () => {
    const other = seedGroup(s, { visibility: 'private' })
    const otherProject = seedProject(s, { namespaceId: other.id, visibility: 'private' })
    const mover = seedUser(s)
    seedMember(s, 'Namespace', other.id, owner.user.id, AccessLevel.OWNER)
    const e = await epic(owner.token, other, { title: 'not yours' })
    const held = await issue(owner.token, otherProject, { title: 'held' })
    await post(owner.token, `/groups/${other.id}/epics/${e.iid}/issues/${held.id}`)
    // Reporter of both projects (so the move is allowed), Guest of the epic's group (no epic edits).
    seedMember(s, 'Namespace', other.id, mover.user.id, AccessLevel.GUEST)
    seedMember(s, 'Project', otherProject.id, mover.user.id, AccessLevel.REPORTER)
    seedMember(s, 'Project', project.id, mover.user.id, AccessLevel.REPORTER)
    const moved = await post(mover.token, `/projects/${otherProject.id}/issues/${held.iid}/move`, {
      to_project_id: project.id,
    })
    expect(moved.statusCode).toBe(201)
    expect(moved.body.epic).toBeNull()
    expect(
      ((await get(owner.token, `/groups/${other.id}/epics/${e.iid}/issues`)).body as Json[]).map((i) => i.id),
    ).toEqual([held.id])
  })
})

describe('deleting a group', () => {
  it('removes its epics (and its subgroups’ epics) with their label links, notes, award emoji, subscriptions and to-dos', async () => {
    const doomed = seedGroup(s, { visibility: 'private' })
    const below = seedGroup(s, { parentId: doomed.id, visibility: 'private' })
    seedMember(s, 'Namespace', doomed.id, owner.user.id, AccessLevel.OWNER)
    seedMember(s, 'Namespace', doomed.id, reporter.user.id, AccessLevel.REPORTER)
    const ids: number[] = []
    for (const g of [doomed, below]) {
      const e = await epic(owner.token, g, { title: `doomed ${g.id}`, labels: 'going,gone' })
      ids.push(e.id)
      const note = await post(owner.token, `/groups/${g.id}/epics/${e.id}/notes`, {
        body: `bye @${reporter.user.username}`,
      })
      await post(owner.token, `/groups/${g.id}/epics/${e.iid}/notes/${note.body.id}/award_emoji`, { name: 'wave' })
      await post(owner.token, `/groups/${g.id}/epics/${e.iid}/award_emoji`, { name: 'thumbsup' })
      await post(owner.token, `/groups/${g.id}/epics/${e.iid}/todo`)
      await post(reporter.token, `/groups/${g.id}/epics/${e.iid}/subscribe`)
    }
    const left = (): Record<string, number> => {
      const db = s.app.burrow.db
      const count = (sql: string): number => (db.prepare(sql).get(JSON.stringify(ids)) as { n: number }).n
      const of = (table: string, column: string): number =>
        count(
          `SELECT COUNT(*) AS n FROM ${table} WHERE ${column}_type = 'Epic' AND ${column}_id IN (SELECT value FROM json_each(?))`,
        )
      return {
        labelLinks: of('label_links', 'target'),
        notes: of('notes', 'noteable'),
        awards: of('award_emoji', 'awardable'),
        subscriptions: of('subscriptions', 'subscribable'),
        todos: of('todos', 'target'),
        noteAwards: (
          db
            .prepare(
              "SELECT COUNT(*) AS n FROM award_emoji WHERE awardable_type = 'Note' AND awardable_id NOT IN (SELECT id FROM notes)",
            )
            .get() as { n: number }
        ).n,
      }
    }
    const before = left()
    expect(before).toEqual({ labelLinks: 4, notes: 2, awards: 2, subscriptions: 2, todos: 4, noteAwards: 0 })
    expect((await del(owner.token, `/groups/${doomed.id}`)).statusCode).toBe(202)
    expect(left()).toEqual({ labelLinks: 0, notes: 0, awards: 0, subscriptions: 0, todos: 0, noteAwards: 0 })
  })
})
