import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedGroup, seedMember } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

describe('to-do, subscription, reaction, weight, health, duplicate, copy, move and clone quick actions on issues', () => {
  let s: TestServer
  let reporter: SeededUser
  let guest: SeededUser
  let onlyHere: SeededUser
  let a: Json
  let b: Json

  async function call(
    token: string,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: Json,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ): Promise<{ statusCode: number; body: any }> {
    const res = await s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
    return { statusCode: res.statusCode, body: res.body ? JSON.parse(res.body) : null }
  }
  const issue = async (title = 'Thing', extra: Json = {}, project: Json = a): Promise<number> =>
    (await call(ROOT_TOKEN, 'POST', `/projects/${project.id}/issues`, { title, ...extra })).body.iid as number
  const comment = (iid: number, body: string, token = reporter.token, project: Json = a) =>
    call(token, 'POST', `/projects/${project.id}/issues/${iid}/notes`, { body })
  const show = async (iid: number, token = ROOT_TOKEN, project: Json = a): Promise<Json> =>
    (await call(token, 'GET', `/projects/${project.id}/issues/${iid}`)).body as Json
  const notes = async (iid: number, project: Json = a): Promise<string[]> =>
    ((await call(ROOT_TOKEN, 'GET', `/projects/${project.id}/issues/${iid}/notes?sort=asc`)).body as Json[]).map(
      (n) => n.body as string,
    )

  beforeAll(async () => {
    s = await makeServer()
    reporter = seedUser(s, { username: 'rhea' })
    guest = seedUser(s, { username: 'gus' })
    onlyHere = seedUser(s, { username: 'hera' })
    const group = seedGroup(s, { path: 'qa-group' })
    a = (await call(ROOT_TOKEN, 'POST', '/projects', { name: 'qa-a', namespace_id: group.id })).body
    b = (await call(ROOT_TOKEN, 'POST', '/projects', { name: 'qa-b', namespace_id: group.id })).body
    for (const p of [a, b]) seedMember(s, 'Project', p.id, reporter.user.id, AccessLevel.REPORTER)
    seedMember(s, 'Project', a.id, guest.user.id, AccessLevel.GUEST)
    seedMember(s, 'Project', a.id, onlyHere.user.id, AccessLevel.REPORTER)
    // Sees the other project but may not file issues there.
    seedMember(s, 'Project', b.id, onlyHere.user.id, AccessLevel.GUEST)
    expect((await call(ROOT_TOKEN, 'POST', `/projects/${a.id}/milestones`, { title: 'v1' })).statusCode).toBe(201)
  })
  afterAll(async () => {
    await s.close()
  })

  it('/todo adds a to-do once (then stays text), /done marks it done', async () => {
    const iid = await issue()
    expect((await comment(iid, '/todo')).body).toEqual({
      commands_changes: { todo_event: 'add' },
      summary: ['Added a to-do item.'],
    })
    const todos = (await call(reporter.token, 'GET', '/todos')).body as Json[]
    expect(todos.map((t) => [t.action_name, t.target.iid])).toEqual([['marked', iid]])
    const again = await comment(iid, '/todo')
    expect(again.statusCode).toBe(201)
    expect(again.body.body).toBe('/todo')
    // Commenting marks the commenter's to-dos done (GitLab), so raise one again before /done.
    await comment(iid, '/todo')
    expect((await comment(iid, '/done')).body).toEqual({
      commands_changes: { todo_event: 'done' },
      summary: ['Marked to-do item as done.'],
    })
    expect((await call(reporter.token, 'GET', '/todos')).body).toEqual([])
  })

  it('/subscribe and /unsubscribe, each offered only when it changes something', async () => {
    const iid = await issue()
    expect((await comment(iid, '/subscribe', guest.token)).body.summary).toEqual(['Subscribed to notifications.'])
    expect((await show(iid, guest.token)).subscribed).toBe(true)
    expect((await comment(iid, '/subscribe', guest.token)).body.body).toBe('/subscribe')
    expect((await comment(iid, '/unsubscribe', guest.token)).body.summary).toEqual(['Unsubscribed from notifications.'])
    expect((await show(iid, guest.token)).subscribed).toBe(false)
  })

  it('/award toggles a reaction; a name that is no emoji is dropped and nothing applied', async () => {
    const iid = await issue()
    expect((await comment(iid, '/award :thumbsup:', guest.token)).body.summary).toEqual([
      'Toggled :thumbsup: emoji reaction.',
    ])
    expect((await show(iid)).upvotes).toBe(1)
    await comment(iid, '/react :thumbsup:', guest.token)
    expect((await show(iid)).upvotes).toBe(0)
    const bad = await comment(iid, '/award thumbs up!', guest.token)
    expect(bad.body).toEqual({ commands_changes: {}, summary: [] })
    expect((await call(ROOT_TOKEN, 'GET', `/projects/${a.id}/issues/${iid}/award_emoji`)).body).toEqual([])
  })

  it("/weight and /clear_weight for Reporters; a Guest's /weight stays text, a non-number is ignored", async () => {
    const iid = await issue()
    expect((await comment(iid, '/weight 3')).body).toEqual({
      commands_changes: { weight: 3 },
      summary: ['Set weight to 3.'],
    })
    expect((await show(iid)).weight).toBe(3)
    expect((await comment(iid, '/weight heavy')).body).toEqual({ commands_changes: {}, summary: [] })
    const refused = await comment(iid, '/weight 5', guest.token)
    expect([refused.statusCode, refused.body.body]).toEqual([201, '/weight 5'])
    expect((await show(iid)).weight).toBe(3)
    expect((await comment(iid, '/clear_weight')).body).toEqual({
      commands_changes: { weight: null },
      summary: ['Cleared weight.'],
    })
    expect((await show(iid)).weight).toBeNull()
    expect((await comment(iid, '/clear_weight')).body.body).toBe('/clear_weight')
  })

  it('/health_status and /clear_health_status; unknown values ignored, Guests refused', async () => {
    const iid = await issue()
    expect((await comment(iid, '/health_status At_Risk')).body).toEqual({
      commands_changes: { health_status: 'at_risk' },
      summary: ['Set health status to at_risk.'],
    })
    expect((await show(iid)).health_status).toBe('at_risk')
    expect((await comment(iid, '/health_status fine')).body.summary).toEqual([])
    expect((await comment(iid, '/health_status on_track', guest.token)).body.body).toBe('/health_status on_track')
    expect((await show(iid)).health_status).toBe('at_risk')
    expect((await comment(iid, '/clear_health_status')).body.summary).toEqual(['Cleared health status.'])
    expect((await show(iid)).health_status).toBeNull()
    expect(await notes(iid)).toEqual(
      expect.arrayContaining(['changed health status to **at risk**', 'removed health status **at risk**']),
    )
  })

  it('lists issues by health_status: a value, none or any; other values are 400', async () => {
    const onTrack = await issue('On track')
    await comment(onTrack, '/health_status on_track')
    const list = async (q: string): Promise<number[]> =>
      ((await call(ROOT_TOKEN, 'GET', `/projects/${a.id}/issues?per_page=100&${q}`)).body as Json[]).map(
        (i) => i.iid as number,
      )
    expect(await list('health_status=on_track')).toEqual([onTrack])
    expect(await list('health_status=ON_TRACK')).toEqual([onTrack])
    expect(await list('health_status=any')).toEqual([onTrack])
    expect(await list('health_status=none')).not.toContain(onTrack)
    const bad = await call(ROOT_TOKEN, 'GET', `/projects/${a.id}/issues?health_status=fine`)
    expect([bad.statusCode, bad.body]).toEqual([400, { error: 'health_status does not have a valid value' }])
  })

  it('/duplicate closes the issue as a duplicate with notes on both; a missing or same issue is refused', async () => {
    const canonical = await issue('Original')
    const dup = await issue('Copy')
    expect((await comment(dup, `/duplicate #${canonical}`)).body).toEqual({
      commands_changes: { canonical_issue_id: expect.any(Number) },
      summary: [`Marked this issue as a duplicate of #${canonical}.`],
    })
    const closed = await show(dup)
    expect(closed.state).toBe('closed')
    expect(closed._links.closed_as_duplicate_of).toMatch(/\/api\/v4\/issues\/\d+$/)
    expect(await notes(dup)).toContain(`marked this issue as a duplicate of #${canonical}`)
    expect(await notes(canonical)).toContain(`marked #${dup} as a duplicate of this issue`)
    const events = (await call(ROOT_TOKEN, 'GET', `/projects/${a.id}/events?target_type=issue&action=closed`))
      .body as Json[]
    expect(events.map((e) => e.target_iid)).toContain(dup)

    const other = await issue('Lonely')
    expect((await comment(other, '/duplicate #9999')).body.summary).toEqual([
      'Failed to mark this issue as a duplicate because referenced issue was not found.',
    ])
    expect((await comment(other, `/duplicate #${other}`)).body.summary).toEqual([
      'Failed to mark the issue as duplicate of itself.',
    ])
    expect((await comment(other, `/duplicate #${canonical}`, guest.token)).body.body).toBe(`/duplicate #${canonical}`)
    expect((await show(other)).state).toBe('opened')
  })

  it('/duplicate takes a full reference to an issue in another project', async () => {
    const canonical = await issue('Elsewhere', {}, b)
    const dup = await issue('Here')
    expect((await comment(dup, `/duplicate qa-group/qa-b#${canonical}`)).body.summary).toEqual([
      `Marked this issue as a duplicate of qa-group/qa-b#${canonical}.`,
    ])
    expect((await show(dup)).state).toBe('closed')
    expect(await notes(canonical, b)).toContain(`marked qa-a#${dup} as a duplicate of this issue`)
  })

  it('/copy_metadata copies labels and milestone from an issue of the same project only', async () => {
    const milestones = (await call(ROOT_TOKEN, 'GET', `/projects/${a.id}/milestones`)).body as Json[]
    const source = await issue('Source', { labels: 'frontend,ux', milestone_id: milestones[0].id })
    const target = await issue('Target', { labels: 'bug' })
    expect((await comment(target, `/copy_metadata #${source}`)).body.summary).toEqual([
      `Copied labels and milestone from #${source}.`,
    ])
    const copied = await show(target)
    expect([...copied.labels].sort()).toEqual(['bug', 'frontend', 'ux'])
    expect(copied.milestone.title).toBe('v1')
    const elsewhere = await issue('Far', { labels: 'far-away' }, b)
    expect((await comment(target, `/copy_metadata qa-group/qa-b#${elsewhere}`)).body).toEqual({
      commands_changes: {},
      summary: [],
    })
    expect((await show(target)).labels).not.toContain('far-away')
  })

  it('/move moves the issue through the move service; without rights in the target it is refused', async () => {
    const iid = await issue('Moving')
    expect((await comment(iid, '/move qa-group/qa-b')).body.summary).toEqual(['Moved this issue to qa-group/qa-b.'])
    const original = await show(iid)
    expect(original.state).toBe('closed')
    expect(original.moved_to_id).toEqual(expect.any(Number))
    const moved = ((await call(ROOT_TOKEN, 'GET', `/projects/${b.id}/issues?search=Moving`)).body as Json[])[0]
    expect(moved).toMatchObject({ title: 'Moving', state: 'opened', id: original.moved_to_id })

    const stays = await issue('Staying')
    expect((await comment(stays, '/move qa-group/qa-b', onlyHere.token)).body.summary).toEqual([
      'Unable to move. Insufficient permissions.',
    ])
    expect((await comment(stays, '/move qa-group/nowhere')).body.summary).toEqual([
      "Unable to move. Target project or group doesn't exist or doesn't support this item type.",
    ])
    expect((await show(stays)).state).toBe('opened')
    expect((await comment(stays, '/move qa-group/qa-b', guest.token)).body.body).toBe('/move qa-group/qa-b')
  })

  it('/clone copies the issue (with notes when asked), to this project when no path is given', async () => {
    const iid = await issue('Cloning')
    await comment(iid, 'A remark worth keeping')
    expect((await comment(iid, '/clone qa-group/qa-b --with_notes')).body.summary).toEqual([
      'Cloned this issue to qa-group/qa-b.',
    ])
    const clone = ((await call(ROOT_TOKEN, 'GET', `/projects/${b.id}/issues?search=Cloning`)).body as Json[])[0]
    expect(clone.state).toBe('opened')
    expect(await notes(clone.iid, b)).toContain('A remark worth keeping')
    expect((await show(iid)).state).toBe('opened')

    expect((await comment(iid, '/clone')).body.summary).toEqual(['Cloned this issue to qa-group/qa-a.'])
    expect(((await call(ROOT_TOKEN, 'GET', `/projects/${a.id}/issues?search=Cloning`)).body as Json[]).length).toBe(2)
    expect((await comment(iid, '/clone qa-group/qa-b extra')).body.summary).toEqual([
      'Failed to clone this issue: wrong parameters.',
    ])
    expect((await comment(iid, '/clone qa-group/qa-b', onlyHere.token)).body.summary).toEqual([
      'Unable to clone. Insufficient permissions.',
    ])
  })
})
