import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let s: TestServer
let p: ProjectRow
let alice: SeededUser
let bob: SeededUser
let carol: SeededUser
const day = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)

async function call(
  token: string | null,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: Json,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ statusCode: number; body: any; headers: Json }> {
  const res = await s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
  return { statusCode: res.statusCode, body: res.body ? JSON.parse(res.body) : null, headers: res.headers }
}

/** Titles (sorted) of the project's issues matching `query`, as `token` sees them. */
async function titles(
  query: string,
  token: string | null = ROOT_TOKEN,
  path = `/projects/${p.id}/issues`,
): Promise<string[]> {
  const r = await call(token, 'GET', `${path}?per_page=100&${query}`)
  expect(r.statusCode).toBe(200)
  return (r.body as Json[]).map((i) => i.title as string).sort()
}

beforeAll(async () => {
  s = await makeServer()
  const acme = seedGroup(s, { path: 'acme', visibility: 'public' })
  const sub = seedGroup(s, { path: 'sub', parentId: acme.id, visibility: 'public' })
  p = seedProject(s, { namespaceId: acme.id, path: 'rocket', visibility: 'public' })
  const q = seedProject(s, { namespaceId: sub.id, path: 'moon', visibility: 'public' })
  const archived = seedProject(s, { namespaceId: acme.id, path: 'old', visibility: 'public' })
  alice = seedUser(s, { username: 'alice' })
  bob = seedUser(s, { username: 'bob' })
  carol = seedUser(s, { username: 'carol' })
  for (const u of [alice, bob]) seedMember(s, 'Project', p.id, u.user.id, AccessLevel.REPORTER)
  const v1 = await call(ROOT_TOKEN, 'POST', `/projects/${p.id}/milestones`, { title: 'v1', due_date: day(30) })
  const v2 = await call(ROOT_TOKEN, 'POST', `/projects/${p.id}/milestones`, {
    title: 'v2',
    start_date: day(-10),
    due_date: day(-2),
  })
  const create = async (u: SeededUser | null, body: Json, project = p.id): Promise<Json> => {
    const r = await call(u ? u.token : ROOT_TOKEN, 'POST', `/projects/${project}/issues`, body)
    expect(r.statusCode).toBe(201)
    return r.body as Json
  }
  await create(null, {
    title: 'Alpha bug',
    description: 'crash on start',
    assignee_ids: [alice.user.id],
    labels: 'bug',
    milestone_id: v1.body.id,
    weight: 1,
    due_date: day(0),
  })
  const beta = await create(alice, {
    title: 'Beta feature',
    description: 'mentions alpha here',
    labels: ['feature', 'ui'],
  })
  await call(alice.token, 'PUT', `/projects/${p.id}/issues/${beta.iid}`, { state_event: 'close' })
  await create(bob, {
    title: 'Gamma',
    assignee_ids: [bob.user.id],
    milestone_id: v2.body.id,
    confidential: true,
    issue_type: 'incident',
    weight: 5,
    due_date: day(-1),
  })
  await create(null, { title: 'Sub issue' }, q.id)
  await create(null, { title: 'Archived issue' }, archived.id)
  s.app.burrow.db.prepare('UPDATE projects SET archived = 1 WHERE id = ?').run(archived.id)
  await call(ROOT_TOKEN, 'POST', `/projects/${p.id}/issues/${beta.iid}/award_emoji`, { name: 'thumbsup' })
  s.app.burrow.db
    .prepare(
      "UPDATE issues SET created_at = '2020-01-01T00:00:00.000Z', updated_at = '2020-01-02T00:00:00.000Z' WHERE title = 'Alpha bug'",
    )
    .run()
})
afterAll(async () => s.close())

const ALL = ['Alpha bug', 'Beta feature', 'Gamma']

describe('project issue list filters', () => {
  it('state', async () => {
    expect(await titles('state=opened')).toEqual(['Alpha bug', 'Gamma'])
    expect(await titles('state=closed')).toEqual(['Beta feature'])
    expect(await titles('state=all')).toEqual(ALL)
  })
  it('labels: all must match, case-insensitive, None/Any/No+Label', async () => {
    expect(await titles('labels=bug')).toEqual(['Alpha bug'])
    expect(await titles('labels=BUG')).toEqual(['Alpha bug'])
    expect(await titles('labels=feature,ui')).toEqual(['Beta feature'])
    expect(await titles('labels=feature,bug')).toEqual([])
    expect(await titles('labels=None')).toEqual(['Gamma'])
    expect(await titles('labels=No+Label')).toEqual(['Gamma'])
    expect(await titles('labels=Any')).toEqual(['Alpha bug', 'Beta feature'])
  })
  it('milestone and milestone_id (exclusive)', async () => {
    expect(await titles('milestone=v1')).toEqual(['Alpha bug'])
    expect(await titles('milestone=None')).toEqual(['Beta feature'])
    expect(await titles('milestone=Any')).toEqual(['Alpha bug', 'Gamma'])
    expect(await titles('milestone_id=Upcoming')).toEqual(['Alpha bug'])
    expect(await titles('milestone_id=Started')).toEqual(['Gamma'])
    expect(await titles('milestone_id=None')).toEqual(['Beta feature'])
    const r = await call(ROOT_TOKEN, 'GET', `/projects/${p.id}/issues?milestone=v1&milestone_id=Any`)
    expect(r.statusCode).toBe(400)
    expect(r.body).toEqual({ error: 'milestone_id, milestone are mutually exclusive' })
  })
  it('assignee_id / assignee_username (exclusive, one username only)', async () => {
    expect(await titles(`assignee_id=${alice.user.id}`)).toEqual(['Alpha bug'])
    expect(await titles('assignee_id=None')).toEqual(['Beta feature'])
    expect(await titles('assignee_id=Any')).toEqual(['Alpha bug', 'Gamma'])
    expect(await titles('assignee_username=alice')).toEqual(['Alpha bug'])
    expect(await titles('assignee_username[]=bob')).toEqual(['Gamma'])
    const two = await call(
      ROOT_TOKEN,
      'GET',
      `/projects/${p.id}/issues?assignee_username[]=alice&assignee_username[]=bob`,
    )
    expect(two.statusCode).toBe(400)
    expect(two.body).toEqual({ error: 'assignee_username allows one value, but found 2: alice, bob' })
    const both = await call(ROOT_TOKEN, 'GET', `/projects/${p.id}/issues?assignee_id=1&assignee_username=alice`)
    expect(both.body).toEqual({ error: 'assignee_id, assignee_username are mutually exclusive' })
  })
  it('author_id / author_username (exclusive)', async () => {
    expect(await titles(`author_id=${alice.user.id}`)).toEqual(['Beta feature'])
    expect(await titles('author_username=bob')).toEqual(['Gamma'])
    expect((await call(ROOT_TOKEN, 'GET', `/projects/${p.id}/issues?author_id=1&author_username=bob`)).statusCode).toBe(
      400,
    )
  })
  it('confidential, issue_type, iids', async () => {
    expect(await titles('confidential=true')).toEqual(['Gamma'])
    expect(await titles('confidential=false')).toEqual(['Alpha bug', 'Beta feature'])
    // Grape's Boolean words, read as the schema booleans are: on/y true, off/n false.
    expect(await titles('confidential=on')).toEqual(['Gamma'])
    expect(await titles('confidential=n')).toEqual(['Alpha bug', 'Beta feature'])
    expect(await titles('issue_type=incident')).toEqual(['Gamma'])
    expect(await titles('iids[]=1&iids[]=3')).toEqual(['Alpha bug', 'Gamma'])
  })
  it('search and in', async () => {
    expect(await titles('search=alpha')).toEqual(['Alpha bug', 'Beta feature'])
    expect(await titles('search=alpha&in=title')).toEqual(['Alpha bug'])
    expect(await titles('search=crash&in=description')).toEqual(['Alpha bug'])
  })
  it('weight', async () => {
    expect(await titles('weight=5')).toEqual(['Gamma'])
    expect(await titles('weight=None')).toEqual(['Beta feature'])
    expect(await titles('weight=Any')).toEqual(['Alpha bug', 'Gamma'])
  })
  it('due_date', async () => {
    expect(await titles('due_date=0')).toEqual(['Beta feature'])
    expect(await titles('due_date=overdue')).toEqual(['Gamma'])
    expect(await titles('due_date=today')).toEqual(['Alpha bug'])
    expect(await titles('due_date=next_month_and_previous_two_weeks')).toEqual(['Alpha bug', 'Gamma'])
    expect((await call(ROOT_TOKEN, 'GET', `/projects/${p.id}/issues?due_date=someday`)).statusCode).toBe(400)
  })
  it('due_date week (Monday to Sunday) and month, whatever today is', async () => {
    const now = new Date()
    const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
    const monday = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * 86_400_000)
    const yesterday = new Date(today.getTime() - 86_400_000)
    // Alpha is due today, Gamma yesterday: Gamma shares today's week and month unless today starts them.
    const sameWeek = yesterday >= monday
    const sameMonth = yesterday.getUTCMonth() === today.getUTCMonth()
    expect(await titles('due_date=week')).toEqual(sameWeek ? ['Alpha bug', 'Gamma'] : ['Alpha bug'])
    expect(await titles('due_date=month')).toEqual(sameMonth ? ['Alpha bug', 'Gamma'] : ['Alpha bug'])
    expect(await titles('due_date=tomorrow')).toEqual([])
  })
  it('my_reaction_emoji', async () => {
    expect(await titles('my_reaction_emoji=thumbsup')).toEqual(['Beta feature'])
    expect(await titles('my_reaction_emoji=Any')).toEqual(['Beta feature'])
    expect(await titles('my_reaction_emoji=None')).toEqual(['Alpha bug', 'Gamma'])
  })
  it('iterations: Any matches nothing, None everything', async () => {
    expect(await titles('iteration_id=Any')).toEqual([])
    expect(await titles('iteration_id=None')).toEqual(ALL)
    expect(await titles('iteration_title=Sprint')).toEqual([])
  })
  it('created/updated before and after', async () => {
    expect(await titles('created_before=2021-01-01T00:00:00Z')).toEqual(['Alpha bug'])
    expect(await titles('created_after=2021-01-01T00:00:00Z')).toEqual(['Beta feature', 'Gamma'])
    expect(await titles('updated_before=2021-01-01')).toEqual(['Alpha bug'])
    expect(await titles('updated_after=2021-01-01')).toEqual(['Beta feature', 'Gamma'])
  })
  it('not[...]', async () => {
    expect(await titles('not[labels]=bug')).toEqual(['Beta feature', 'Gamma'])
    expect(await titles(`not[author_id]=${alice.user.id}`)).toEqual(['Alpha bug', 'Gamma'])
    expect(await titles('not[author_username]=bob')).toEqual(['Alpha bug', 'Beta feature'])
    expect(await titles('not[iids][]=1')).toEqual(['Beta feature', 'Gamma'])
    expect(await titles('not[milestone]=v1')).toEqual(['Beta feature', 'Gamma'])
    expect(await titles('not[milestone_id]=Any')).toEqual(['Beta feature'])
    expect(await titles('not[weight]=5')).toEqual(['Alpha bug', 'Beta feature'])
    expect(await titles('not[assignee_username]=alice')).toEqual(['Beta feature', 'Gamma'])
    expect(await titles(`not[assignee_id]=${bob.user.id}`)).toEqual(['Alpha bug', 'Beta feature'])
    expect(await titles('not[iteration_id]=1')).toEqual(ALL)
    expect(await titles('not[iteration_title]=Sprint 1')).toEqual(ALL)
    expect(await titles('not[labels]=bug,feature')).toEqual(['Gamma'])
  })
  it('order_by and sort', async () => {
    const list = async (q: string): Promise<string[]> =>
      ((await call(ROOT_TOKEN, 'GET', `/projects/${p.id}/issues?${q}`)).body as Json[]).map((i) => i.title)
    expect(await list('order_by=title&sort=asc')).toEqual(ALL)
    expect(await list('order_by=title')).toEqual([...ALL].reverse())
    expect(await list('order_by=weight&sort=desc')).toEqual(['Gamma', 'Alpha bug', 'Beta feature'])
    expect(await list('order_by=due_date&sort=asc')).toEqual(['Gamma', 'Alpha bug', 'Beta feature'])
    expect((await list('order_by=created_at&sort=asc'))[0]).toBe('Alpha bug')
    expect((await list('order_by=popularity'))[0]).toBe('Beta feature')
    expect((await call(ROOT_TOKEN, 'GET', `/projects/${p.id}/issues?sort=up`)).statusCode).toBe(400)
    expect((await call(ROOT_TOKEN, 'GET', `/projects/${p.id}/issues?order_by=votes`)).statusCode).toBe(400)
  })
  it('confidential issues are absent for a non-member', async () => {
    expect(await titles('', carol.token)).toEqual(['Alpha bug', 'Beta feature'])
  })
  it('counts only the issues the caller may see in X-Total and issues_statistics', async () => {
    const seen = async (token: string, query: string): Promise<string | undefined> =>
      (await call(token, 'GET', `/projects/${p.id}/issues?per_page=1&${query}`)).headers['x-total'] as
        string | undefined
    expect(await seen(carol.token, '')).toBe('2')
    expect(await seen(carol.token, 'state=closed')).toBe('1')
    expect(await seen(alice.token, '')).toBe('3')
    expect(await seen(carol.token, 'scope=all&confidential=true')).toBe('0')
    const stats = (await call(carol.token, 'GET', `/projects/${p.id}/issues_statistics`)).body
    expect(stats).toEqual({ statistics: { counts: { all: 2, closed: 1, opened: 1 } } })
    const global = await call(carol.token, 'GET', '/issues?scope=all&per_page=1')
    expect(global.headers['x-total']).toBe('3')
  })
  it('with_labels_details gives label objects', async () => {
    const r = await call(ROOT_TOKEN, 'GET', `/projects/${p.id}/issues?labels=bug&with_labels_details=true`)
    expect(r.body[0].labels[0]).toMatchObject({
      name: 'bug',
      color: '#6699cc',
      text_color: '#FFFFFF',
      description: null,
      description_html: null,
    })
    expect(typeof r.body[0].labels[0].id).toBe('number')
  })
  it('paginates with X-Total and Link', async () => {
    const r = await call(ROOT_TOKEN, 'GET', `/projects/${p.id}/issues?per_page=2&page=2`)
    expect(r.body).toHaveLength(1)
    expect(r.headers['x-total']).toBe('3')
    expect(r.headers.link).toContain('rel="prev"')
  })
})

describe('global and group lists', () => {
  it('/issues defaults to created_by_me; assigned_to_me (and the dash form); scope=all', async () => {
    expect(await titles('', alice.token, '/issues')).toEqual(['Beta feature'])
    expect(await titles('scope=assigned_to_me', alice.token, '/issues')).toEqual(['Alpha bug'])
    expect(await titles('scope=assigned-to-me', alice.token, '/issues')).toEqual(['Alpha bug'])
    expect(await titles('scope=all', alice.token, '/issues')).toEqual([
      'Alpha bug',
      'Beta feature',
      'Gamma',
      'Sub issue',
    ])
    expect((await call(alice.token, 'GET', '/issues?scope=mine')).statusCode).toBe(400)
  })
  it('a scope and an author or assignee filter both apply', async () => {
    expect(await titles('scope=created-by-me', alice.token, '/issues')).toEqual(['Beta feature'])
    expect(await titles(`scope=created_by_me&author_id=${alice.user.id}`, alice.token, '/issues')).toEqual([
      'Beta feature',
    ])
    expect(await titles(`scope=created_by_me&author_id=${bob.user.id}`, alice.token, '/issues')).toEqual([])
    expect(await titles(`scope=assigned_to_me&assignee_id=${bob.user.id}`, alice.token, '/issues')).toEqual([])
    expect(await titles('scope=assigned_to_me&assignee_id=Any', alice.token, '/issues')).toEqual(['Alpha bug'])
  })
  it('non_archived=false includes issues of archived projects', async () => {
    expect(await titles('scope=all&non_archived=false&search=Archived', ROOT_TOKEN, '/issues')).toEqual([
      'Archived issue',
    ])
    expect(await titles('scope=all&search=Archived', ROOT_TOKEN, '/issues')).toEqual([])
  })
  it('anonymous: 401 without scope=all, public non-confidential issues with it', async () => {
    expect((await call(null, 'GET', '/issues')).statusCode).toBe(401)
    expect(await titles('scope=all', null, '/issues')).toEqual(['Alpha bug', 'Beta feature', 'Sub issue'])
  })
  it('iids on /issues', async () => {
    expect(await titles('scope=all&iids[]=3', ROOT_TOKEN, '/issues')).toEqual(['Gamma'])
  })
  it('group list includes subgroup projects; relative references from the group', async () => {
    const r = await call(ROOT_TOKEN, 'GET', '/groups/acme/issues?per_page=100&order_by=title&sort=asc')
    expect(r.body.map((i: Json) => i.title)).toEqual(['Alpha bug', 'Beta feature', 'Gamma', 'Sub issue'])
    expect(r.body[0].references).toEqual({ short: '#1', relative: 'rocket#1', full: 'acme/rocket#1' })
    expect(r.body[3].references.relative).toBe('acme/sub/moon#1')
    expect(await titles('labels=bug', ROOT_TOKEN, '/groups/acme/issues')).toEqual(['Alpha bug'])
  })
  it('global list references are full', async () => {
    const r = await call(ROOT_TOKEN, 'GET', '/issues?scope=all&search=Sub')
    expect(r.body[0].references.relative).toBe('acme/sub/moon#1')
  })
  it('issues_statistics counts by state', async () => {
    const r = await call(ROOT_TOKEN, 'GET', `/projects/${p.id}/issues_statistics`)
    expect(r.body).toEqual({ statistics: { counts: { all: 3, closed: 1, opened: 2 } } })
    const g = await call(ROOT_TOKEN, 'GET', '/groups/acme/issues_statistics?labels=bug')
    expect(g.body.statistics.counts).toEqual({ all: 1, closed: 0, opened: 1 })
  })
  it('GET /issues/:id is for administrators', async () => {
    const one = await call(ROOT_TOKEN, 'GET', `/projects/${p.id}/issues/1`)
    expect((await call(ROOT_TOKEN, 'GET', `/issues/${one.body.id}`)).body.title).toBe('Alpha bug')
    expect((await call(alice.token, 'GET', `/issues/${one.body.id}`)).statusCode).toBe(403)
  })
})

describe('hooks in labels and milestones', () => {
  it('label counts include open and closed issues', async () => {
    const r = await call(ROOT_TOKEN, 'GET', `/projects/${p.id}/labels?with_counts=true`)
    const byName = Object.fromEntries((r.body as Json[]).map((l) => [l.name, l]))
    expect(byName.bug).toMatchObject({ open_issues_count: 1, closed_issues_count: 0 })
    expect(byName.ui).toMatchObject({ open_issues_count: 0, closed_issues_count: 1 })
  })
  it('milestone issues list', async () => {
    const ms = await call(ROOT_TOKEN, 'GET', `/projects/${p.id}/milestones?title=v1`)
    const r = await call(ROOT_TOKEN, 'GET', `/projects/${p.id}/milestones/${ms.body[0].id}/issues`)
    expect(r.body.map((i: Json) => i.title)).toEqual(['Alpha bug'])
    const v2 = await call(ROOT_TOKEN, 'GET', `/projects/${p.id}/milestones?title=v2`)
    expect((await call(carol.token, 'GET', `/projects/${p.id}/milestones/${v2.body[0].id}/issues`)).body).toEqual([])
  })
})

describe('milestone wildcards as GitLab computes them', () => {
  let q: ProjectRow
  const list = async (query: string, token: string | null = ROOT_TOKEN): Promise<string[]> =>
    titles(query, token, `/projects/${q.id}/issues`)

  beforeAll(async () => {
    const acme = s.app.burrow.db.prepare("SELECT id FROM namespaces WHERE path = 'acme'").get() as { id: number }
    q = seedProject(s, { namespaceId: acme.id, path: 'wildcards', visibility: 'public' })
    const ms = async (title: string, body: Json): Promise<number> =>
      (await call(ROOT_TOKEN, 'POST', `/projects/${q.id}/milestones`, { title, ...body })).body.id
    const next = await ms('next', { due_date: day(10) })
    const later = await ms('later', { due_date: day(40), start_date: day(-5) })
    const due = await ms('due', { start_date: day(-20), due_date: day(-1) })
    const future = await ms('future', { start_date: day(5), due_date: day(50) })
    const groupMs = (
      await call(ROOT_TOKEN, 'POST', `/groups/${acme.id}/milestones`, { title: 'group next', due_date: day(20) })
    ).body.id
    for (const [title, milestone_id] of [
      ['on next', next],
      ['on later', later],
      ['on due', due],
      ['on future', future],
      ['on group', groupMs],
      ['none', null],
    ] as const) {
      expect((await call(ROOT_TOKEN, 'POST', `/projects/${q.id}/issues`, { title, milestone_id })).statusCode).toBe(201)
    }
  })

  it('milestone_id=Upcoming: the milestone due soonest after today, per project and per group', async () => {
    expect(await list('milestone_id=Upcoming')).toEqual(['on group', 'on next'])
  })
  it('milestone_id=Started: active milestones whose start date has come', async () => {
    expect(await list('milestone_id=Started')).toEqual(['on due', 'on later'])
  })
  it('milestone takes #upcoming and #started; a plain "Upcoming" is a title', async () => {
    expect(await list('milestone=%23upcoming')).toEqual(['on group', 'on next'])
    expect(await list('milestone=%23started')).toEqual(['on due', 'on later'])
    expect(await list('milestone=Upcoming')).toEqual([])
  })
  it('not[milestone_id]=Upcoming: issues of an active milestone already due; Started: of one not started yet', async () => {
    expect(await list('not[milestone_id]=Upcoming')).toEqual(['on due'])
    expect(await list('not[milestone_id]=Started')).toEqual(['on future'])
  })
  it('not[milestone_id] takes only the wildcards', async () => {
    const r = await call(ROOT_TOKEN, 'GET', `/projects/${q.id}/issues?not[milestone_id]=5`)
    expect(r).toMatchObject({ statusCode: 400, body: { error: 'not[milestone_id] does not have a valid value' } })
  })
  it('order_by milestone_due, label_priority, priority, relative_position and updated_at (nulls last either way)', async () => {
    const order = async (query: string): Promise<string[]> =>
      ((await call(ROOT_TOKEN, 'GET', `/projects/${q.id}/issues?per_page=100&${query}`)).body as Json[]).map(
        (i) => i.title,
      )
    expect(await order('order_by=milestone_due&sort=asc')).toEqual([
      'on due',
      'on next',
      'on group',
      'on later',
      'on future',
      'none',
    ])
    expect(await order('order_by=milestone_due&sort=desc')).toEqual([
      'on future',
      'on later',
      'on group',
      'on next',
      'on due',
      'none',
    ])
    await call(ROOT_TOKEN, 'POST', `/projects/${q.id}/labels`, { name: 'p1', color: '#ff0000', priority: 1 })
    await call(ROOT_TOKEN, 'POST', `/projects/${q.id}/labels`, { name: 'p5', color: '#00ff00', priority: 5 })
    const iidOf = async (title: string): Promise<number> =>
      (
        (await call(ROOT_TOKEN, 'GET', `/projects/${q.id}/issues?search=${encodeURIComponent(title)}&in=title`))
          .body as Json[]
      ).find((i) => i.title === title)?.iid
    const label = async (title: string, labels: string): Promise<void> => {
      expect(
        (await call(ROOT_TOKEN, 'PUT', `/projects/${q.id}/issues/${await iidOf(title)}`, { add_labels: labels }))
          .statusCode,
      ).toBe(200)
    }
    await label('none', 'p1')
    await label('on later', 'p5')
    await label('on future', 'p1,p5')
    expect((await order('order_by=label_priority&sort=asc')).slice(0, 3)).toEqual(['on future', 'none', 'on later'])
    // priority: the soonest milestone due date first, then the best label priority.
    expect((await order('order_by=priority&sort=asc')).slice(0, 2)).toEqual(['on due', 'on next'])
    const future = await iidOf('on future')
    const next = await iidOf('on next')
    const nextId = ((await call(ROOT_TOKEN, 'GET', `/projects/${q.id}/issues/${next}`)).body as Json).id
    expect(
      (await call(ROOT_TOKEN, 'PUT', `/projects/${q.id}/issues/${future}/reorder`, { move_after_id: nextId }))
        .statusCode,
    ).toBe(200)
    const manual = await order('order_by=relative_position&sort=asc')
    expect(manual.indexOf('on future')).toBe(manual.indexOf('on next') - 1)
    expect((await order('order_by=updated_at&sort=desc'))[0]).toBe('on future')
  })
  it('my_reaction_emoji is ignored for anonymous callers, who have no reactions', async () => {
    expect(await list('my_reaction_emoji=Any', null)).toHaveLength(6)
    expect(await list('my_reaction_emoji=None', null)).toHaveLength(6)
  })
})
