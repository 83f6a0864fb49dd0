import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { ROOT_TOKEN, makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

interface Milestone {
  readonly id: number
  readonly iid: number
  readonly project_id?: number
  readonly group_id?: number
  readonly title: string
  readonly description: string | null
  readonly state: string
  readonly due_date: string | null
  readonly start_date: string | null
  readonly expired: boolean
  readonly web_url: string
}

describe('project and group milestones', () => {
  let s: TestServer
  let top: NamespaceRow
  let sub: NamespaceRow
  let project: ProjectRow
  let other: ProjectRow
  let personal: ProjectRow
  let priv: ProjectRow
  let developer: SeededUser
  let reporter: SeededUser
  let guest: SeededUser
  let outsider: SeededUser

  const req = (
    token: string | null,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
  ) => s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
  const create = async (token: string, base: string, payload: Record<string, unknown>): Promise<Milestone> => {
    const res = await req(token, 'POST', `${base}/milestones`, payload)
    expect(res.statusCode).toBe(201)
    return res.json() as Milestone
  }
  const milestoneEvents = (targetId: number): string[] =>
    (
      s.app.burrow.db
        .prepare("SELECT action FROM events WHERE target_type = 'Milestone' AND target_id = ? ORDER BY id")
        .all(targetId) as { action: string }[]
    ).map((r) => r.action)

  beforeAll(async () => {
    s = await makeServer()
    top = seedGroup(s, { path: 'ms-top', visibility: 'public' })
    sub = seedGroup(s, { path: 'ms-sub', parentId: top.id, visibility: 'public' })
    project = seedProject(s, { namespaceId: sub.id, path: 'app', visibility: 'public' })
    other = seedProject(s, { namespaceId: sub.id, path: 'other', visibility: 'public' })
    developer = seedUser(s)
    reporter = seedUser(s)
    guest = seedUser(s)
    outsider = seedUser(s)
    personal = seedProject(s, { ownerId: developer.user.id, path: 'mine', visibility: 'public' })
    priv = seedProject(s, { namespaceId: sub.id, path: 'secret', visibility: 'private' })
    seedMember(s, 'Namespace', top.id, developer.user.id, 30)
    seedMember(s, 'Project', project.id, reporter.user.id, 20)
    seedMember(s, 'Project', project.id, guest.user.id, 10)
  })
  afterAll(async () => {
    await s.close()
  })

  it('creates a project milestone with 201 and the full entity', async () => {
    const m = await create(reporter.token, `/projects/${project.id}`, {
      title: 'v1.0',
      description: 'First',
      start_date: '2030-01-01',
      due_date: '2030-02-01',
    })
    expect(m).toMatchObject({
      iid: 1,
      project_id: project.id,
      title: 'v1.0',
      description: 'First',
      state: 'active',
      start_date: '2030-01-01',
      due_date: '2030-02-01',
      expired: false,
      web_url: `http://burrow.test/ms-top/ms-sub/app/-/milestones/1`,
    })
    expect(m).not.toHaveProperty('group_id')
    expect(milestoneEvents(m.id)).toEqual(['created'])
  })

  it('numbers iids per project without gaps or duplicates', async () => {
    const a = await create(ROOT_TOKEN, `/projects/${project.id}`, { title: 'v1.1' })
    const b = await create(ROOT_TOKEN, `/projects/${project.id}`, { title: 'v1.2' })
    const elsewhere = await create(ROOT_TOKEN, `/projects/${other.id}`, { title: 'v1.1' })
    expect([a.iid, b.iid, elsewhere.iid]).toEqual([2, 3, 1])
  })

  it('marks a milestone due in the past as expired', async () => {
    const m = await create(ROOT_TOKEN, `/projects/${project.id}`, { title: 'old', due_date: '2001-01-01' })
    expect(m.expired).toBe(true)
  })

  it('answers 400 title is missing without a title', async () => {
    const res = await req(ROOT_TOKEN, 'POST', `/projects/${project.id}/milestones`, { description: 'x' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'title is missing' })
  })

  it('answers 400 for a malformed date', async () => {
    const res = await req(ROOT_TOKEN, 'POST', `/projects/${project.id}/milestones`, {
      title: 'bad',
      due_date: '2030-02-30',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'due_date is invalid' })
  })

  it('answers 400 when the start date is after the due date', async () => {
    const res = await req(ROOT_TOKEN, 'POST', `/projects/${project.id}/milestones`, {
      title: 'backwards',
      start_date: '2030-03-01',
      due_date: '2030-02-01',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ message: { due_date: ['must be greater than start date'] } })
  })

  it('answers 400 for a title already used in the project', async () => {
    const res = await req(ROOT_TOKEN, 'POST', `/projects/${project.id}/milestones`, { title: 'v1.0' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ message: { title: ['already being used for another group or project milestone.'] } })
  })

  it('refuses creation to a Guest (403) and an anonymous caller (401)', async () => {
    expect((await req(guest.token, 'POST', `/projects/${project.id}/milestones`, { title: 'g' })).statusCode).toBe(403)
    expect((await req(null, 'POST', `/projects/${project.id}/milestones`, { title: 'g' })).statusCode).toBe(401)
  })

  it('hides milestones of a private project from outsiders with 404', async () => {
    const res = await req(outsider.token, 'GET', `/projects/${priv.id}/milestones`)
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: '404 Project Not Found' })
  })

  it('lists project milestones paginated, soonest due first', async () => {
    const res = await req(null, 'GET', `/projects/${project.id}/milestones?per_page=2`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['x-total']).toBe('4')
    expect((res.json() as Milestone[]).map((m) => m.title)).toEqual(['old', 'v1.0'])
    expect(res.headers.link).toContain('rel="next"')
  })

  it('filters by iids[], title (exact) and search', async () => {
    const byIids = (
      await req(null, 'GET', `/projects/${project.id}/milestones?iids[]=2&iids[]=3`)
    ).json() as Milestone[]
    expect(byIids.map((m) => m.iid).sort()).toEqual([2, 3])
    const single = (await req(null, 'GET', `/projects/${project.id}/milestones?iids[]=2`)).json() as Milestone[]
    expect(single.map((m) => m.iid)).toEqual([2])
    const byTitle = (await req(null, 'GET', `/projects/${project.id}/milestones?title=v1`)).json() as Milestone[]
    expect(byTitle).toEqual([])
    const exact = (await req(null, 'GET', `/projects/${project.id}/milestones?title=v1.1`)).json() as Milestone[]
    expect(exact.map((m) => m.title)).toEqual(['v1.1'])
    const search = (await req(null, 'GET', `/projects/${project.id}/milestones?search=first`)).json() as Milestone[]
    expect(search.map((m) => m.title)).toEqual(['v1.0'])
  })

  it('answers 400 for an unknown state filter', async () => {
    const res = await req(null, 'GET', `/projects/${project.id}/milestones?state=opened`)
    expect(res.statusCode).toBe(400)
  })

  it('closes with state_event=close and reactivates with activate, recording events', async () => {
    const m = await create(ROOT_TOKEN, `/projects/${project.id}`, { title: 'cycle' })
    const closed = await req(reporter.token, 'PUT', `/projects/${project.id}/milestones/${m.id}`, {
      state_event: 'close',
    })
    expect(closed.statusCode).toBe(200)
    expect((closed.json() as Milestone).state).toBe('closed')
    const closedList = (await req(null, 'GET', `/projects/${project.id}/milestones?state=closed`)).json() as Milestone[]
    expect(closedList.map((x) => x.title)).toEqual(['cycle'])
    const active = await req(reporter.token, 'PUT', `/projects/${project.id}/milestones/${m.id}`, {
      state_event: 'activate',
    })
    expect((active.json() as Milestone).state).toBe('active')
    expect(milestoneEvents(m.id)).toEqual(['created', 'closed', 'reopened'])
  })

  it('updates title, description and dates, and requires at least one parameter', async () => {
    const m = await create(ROOT_TOKEN, `/projects/${project.id}`, { title: 'edit-me' })
    const empty = await req(reporter.token, 'PUT', `/projects/${project.id}/milestones/${m.id}`, {})
    expect(empty.statusCode).toBe(400)
    expect(empty.json()).toEqual({
      error:
        'title, description, start_date, due_date, state_event are missing, at least one parameter must be provided',
    })
    const res = await req(reporter.token, 'PUT', `/projects/${project.id}/milestones/${m.id}`, {
      title: 'edited',
      description: 'now',
      due_date: '2031-01-01',
    })
    expect(res.json()).toMatchObject({ id: m.id, title: 'edited', description: 'now', due_date: '2031-01-01' })
    const clash = await req(reporter.token, 'PUT', `/projects/${project.id}/milestones/${m.id}`, { title: 'v1.0' })
    expect(clash.statusCode).toBe(400)
  })

  it('answers 400 for an unknown state_event', async () => {
    const res = await req(ROOT_TOKEN, 'PUT', `/projects/${project.id}/milestones/1`, { state_event: 'reopen' })
    expect(res.statusCode).toBe(400)
  })

  it('gets one milestone by global id and 404s an id of another project', async () => {
    const m = (await req(null, 'GET', `/projects/${project.id}/milestones?title=v1.0`)).json() as Milestone[]
    const one = await req(null, 'GET', `/projects/${project.id}/milestones/${m[0].id}`)
    expect((one.json() as Milestone).title).toBe('v1.0')
    const foreign = await req(null, 'GET', `/projects/${other.id}/milestones/${m[0].id}`)
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json()).toEqual({ message: '404 Milestone Not Found' })
  })

  it('needs Developer to delete (403 for a Reporter), answers 204 and records destroyed', async () => {
    const m = await create(ROOT_TOKEN, `/projects/${project.id}`, { title: 'doomed' })
    expect((await req(reporter.token, 'DELETE', `/projects/${project.id}/milestones/${m.id}`)).statusCode).toBe(403)
    expect((await req(developer.token, 'DELETE', `/projects/${project.id}/milestones/${m.id}`)).statusCode).toBe(204)
    expect((await req(null, 'GET', `/projects/${project.id}/milestones/${m.id}`)).statusCode).toBe(404)
    expect(milestoneEvents(m.id)).toEqual(['created', 'destroyed'])
  })

  it('lists empty, paginated issues and merge requests and an empty burndown chart of a milestone', async () => {
    const m = (await req(null, 'GET', `/projects/${project.id}/milestones?title=v1.0`)).json() as Milestone[]
    // Merge request calls need a signed-in caller (the spec); issues are open to anyone who may read them.
    for (const [kind, token] of [
      ['issues', null],
      ['merge_requests', outsider.token],
    ] as const) {
      const res = await req(token, 'GET', `/projects/${project.id}/milestones/${m[0].id}/${kind}`)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual([])
      expect(res.headers['x-total']).toBe('0')
    }
    // The burndown chart comes whole, unpaginated, as GitLab answers it.
    const chart = await req(null, 'GET', `/projects/${project.id}/milestones/${m[0].id}/burndown_events`)
    expect(chart.statusCode).toBe(200)
    expect(chart.json()).toEqual([])
    const anonymous = await req(null, 'GET', `/projects/${project.id}/milestones/${m[0].id}/merge_requests`)
    expect([anonymous.statusCode, anonymous.json()]).toEqual([401, { message: '401 Unauthorized' }])
  })

  it('creates group milestones with their own iids and a group web_url', async () => {
    const g = await create(developer.token, `/groups/${top.id}`, { title: 'Q1' })
    expect(g).toMatchObject({ iid: 1, group_id: top.id, web_url: 'http://burrow.test/groups/ms-top/-/milestones/1' })
    expect(g).not.toHaveProperty('project_id')
    const g2 = await create(developer.token, `/groups/${sub.id}`, { title: 'Sprint 1' })
    expect(g2.iid).toBe(1)
  })

  it('refuses a group milestone titled like one of its projects', async () => {
    const res = await req(ROOT_TOKEN, 'POST', `/groups/${sub.id}/milestones`, { title: 'v1.0' })
    expect(res.statusCode).toBe(400)
  })

  it('adds ancestor group milestones to a project list with include_parent_milestones, ignoring iids', async () => {
    const res = await req(
      null,
      'GET',
      `/projects/${project.id}/milestones?include_parent_milestones=true&iids[]=1&per_page=100`,
    )
    const titles = (res.json() as Milestone[]).map((m) => m.title)
    expect(titles).toContain('Q1')
    expect(titles).toContain('Sprint 1')
    expect(titles).toContain('v1.1')
  })

  it('lists group milestones with ancestors and descendants on request', async () => {
    const own = (await req(null, 'GET', `/groups/${sub.id}/milestones`)).json() as Milestone[]
    expect(own.map((m) => m.title)).toEqual(['Sprint 1'])
    const withParents = (
      await req(null, 'GET', `/groups/${sub.id}/milestones?include_parent_milestones=true`)
    ).json() as Milestone[]
    expect(withParents.map((m) => m.title).sort()).toEqual(['Q1', 'Sprint 1'])
    const below = (
      await req(null, 'GET', `/groups/${top.id}/milestones?include_descendants=true&per_page=100`)
    ).json() as Milestone[]
    expect(below.map((m) => m.title)).toEqual(expect.arrayContaining(['Q1', 'Sprint 1', 'v1.0']))
  })

  it('updates, closes and deletes a group milestone', async () => {
    const g = await create(developer.token, `/groups/${top.id}`, { title: 'Q2' })
    const closed = await req(developer.token, 'PUT', `/groups/${top.id}/milestones/${g.id}`, {
      state_event: 'close',
      description: 'done',
    })
    expect(closed.json()).toMatchObject({ state: 'closed', description: 'done' })
    expect((await req(developer.token, 'GET', `/groups/${top.id}/milestones/${g.id}`)).statusCode).toBe(200)
    expect((await req(developer.token, 'DELETE', `/groups/${top.id}/milestones/${g.id}`)).statusCode).toBe(204)
    expect((await req(developer.token, 'GET', `/groups/${top.id}/milestones/${g.id}`)).statusCode).toBe(404)
    expect(milestoneEvents(g.id)).toEqual(['created', 'closed', 'destroyed'])
  })

  it('promotes a project milestone to a group milestone, folding same-titled project milestones', async () => {
    const mine = await create(ROOT_TOKEN, `/projects/${project.id}`, {
      title: 'release',
      due_date: '2032-05-05',
      description: 'ship it',
    })
    const twin = await create(ROOT_TOKEN, `/projects/${other.id}`, { title: 'release' })
    expect(
      (await req(reporter.token, 'POST', `/projects/${project.id}/milestones/${mine.id}/promote`)).statusCode,
    ).toBe(403)
    const res = await req(developer.token, 'POST', `/projects/${project.id}/milestones/${mine.id}/promote`)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      group_id: sub.id,
      title: 'release',
      due_date: '2032-05-05',
      description: 'ship it',
      state: 'active',
    })
    expect((await req(null, 'GET', `/projects/${project.id}/milestones/${mine.id}`)).statusCode).toBe(404)
    expect((await req(null, 'GET', `/projects/${other.id}/milestones/${twin.id}`)).statusCode).toBe(404)
    const group = (await req(null, 'GET', `/groups/${sub.id}/milestones?title=release`)).json() as Milestone[]
    expect(group).toHaveLength(1)
  })

  it('answers 400 when promoting a milestone of a personal project', async () => {
    const m = await create(developer.token, `/projects/${personal.id}`, { title: 'solo' })
    const res = await req(developer.token, 'POST', `/projects/${personal.id}/milestones/${m.id}/promote`)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ message: 'Project does not belong to a group.' })
  })

  it("refuses a project's milestones to whoever may use neither its issues nor its merge requests, as GitLab's read_milestone", async () => {
    const tracker = seedProject(s, { namespaceId: top.id, path: 'members-only', visibility: 'public' })
    seedMember(s, 'Project', tracker.id, guest.user.id, AccessLevel.GUEST)
    const m = await create(ROOT_TOKEN, `/projects/${tracker.id}`, { title: 'SECRET-members-only-milestone' })
    const set = async (levels: Record<string, string>) =>
      expect((await req(ROOT_TOKEN, 'PUT', `/projects/${tracker.id}`, levels)).statusCode).toBe(200)
    const urls = ['', `/${m.id}`, `/${m.id}/issues`, `/${m.id}/merge_requests`].map(
      (tail) => `/projects/${tracker.id}/milestones${tail}`,
    )

    // One feature open to them is enough.
    await set({ issues_access_level: 'private', merge_requests_access_level: 'enabled' })
    expect((await req(outsider.token, 'GET', urls[1])).statusCode).toBe(200)

    await set({ issues_access_level: 'private', merge_requests_access_level: 'private' })
    for (const url of urls) {
      for (const token of [outsider.token, null]) {
        const res = await req(token, 'GET', url)
        // Anonymous: merge request calls ask to sign in first (401), the others are refused (403).
        expect(res.statusCode, url).toBe(token === null && url.endsWith('/merge_requests') ? 401 : 403)
        expect(res.body).not.toContain('SECRET-members-only-milestone')
      }
      expect((await req(guest.token, 'GET', url)).statusCode, url).toBe(200)
    }
    // Disabled for everyone: administrators get no milestones there either.
    await set({ issues_access_level: 'disabled', merge_requests_access_level: 'disabled' })
    expect((await req(ROOT_TOKEN, 'GET', urls[1])).statusCode).toBe(403)
  })
})
