import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { taskCompletion, taskStatus } from '../../src/server/modules/issues/entity'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, startServer, type SeededUser, type TestServer } from '../helpers/server'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let s: TestServer
let group: ReturnType<typeof seedGroup>
let project: ProjectRow
let reporter: SeededUser
let guest: SeededUser
let outsider: SeededUser

async function post(token: string | null, url: string, payload: Json): Promise<{ statusCode: number; body: Json }> {
  const res = await s.request(token, { method: 'POST', url: `/api/v4${url}`, payload })
  return { statusCode: res.statusCode, body: res.body ? (JSON.parse(res.body) as Json) : {} }
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function get(token: string | null, url: string): Promise<{ statusCode: number; body: any; headers: Json }> {
  const res = await s.request(token, { method: 'GET', url: `/api/v4${url}` })
  return { statusCode: res.statusCode, body: res.body ? JSON.parse(res.body) : null, headers: res.headers }
}
async function put(
  token: string | null,
  url: string,
  payload: Json,
  headers: Record<string, string> = {},
): Promise<{ statusCode: number; body: Json }> {
  const res = await s.request(token, { method: 'PUT', url: `/api/v4${url}`, payload, headers })
  return { statusCode: res.statusCode, body: res.body ? (JSON.parse(res.body) as Json) : {} }
}
const base = (): string => `/projects/${project.id}/issues`
const iidsOf = (list: Json[]): number[] => list.map((i) => i.iid as number).sort((a, b) => a - b)

beforeAll(async () => {
  s = await makeServer()
  group = seedGroup(s, { path: 'acme', visibility: 'public' })
  project = seedProject(s, { namespaceId: group.id, path: 'rocket', visibility: 'public' })
  reporter = seedUser(s, { username: 'rita' })
  guest = seedUser(s, { username: 'gus' })
  outsider = seedUser(s, { username: 'olga' })
  seedMember(s, 'Project', project.id, reporter.user.id, AccessLevel.REPORTER)
  seedMember(s, 'Project', project.id, guest.user.id, AccessLevel.GUEST)
})
afterAll(async () => s.close())

describe('task lists', () => {
  it('counts -, *, numbered items and checked ones', () => {
    const t = taskCompletion('- [ ] a\n* [x] b\n1. [X] c\n2) [ ] d\nnot - [x] inline\n- [~] skip')
    expect(t).toEqual({ count: 4, completed_count: 2 })
    expect(taskStatus(t)).toBe('2 of 4 checklist items completed')
    expect(taskStatus({ count: 1, completed_count: 0 })).toBe('0 of 1 checklist item completed')
  })
})

describe('create and read', () => {
  it('400 title is missing', async () => {
    const r = await post(ROOT_TOKEN, base(), { description: 'x' })
    expect(r.statusCode).toBe(400)
    expect(r.body).toEqual({ error: 'title is missing' })
  })

  it('creates with every field of the entity, labels created on the fly', async () => {
    const r = await post(ROOT_TOKEN, base(), {
      title: 'First',
      description: '- [x] one\n- [ ] two',
      labels: 'bug,Feature',
      assignee_ids: [reporter.user.id],
      due_date: '2030-01-02',
      weight: 3,
    })
    expect(r.statusCode).toBe(201)
    const i = r.body
    expect(i).toMatchObject({
      iid: 1,
      project_id: project.id,
      title: 'First',
      state: 'opened',
      labels: ['Feature', 'bug'],
      due_date: '2030-01-02',
      weight: 3,
      type: 'ISSUE',
      issue_type: 'issue',
      confidential: false,
      has_tasks: true,
      task_status: '1 of 2 checklist items completed',
      task_completion_status: { count: 2, completed_count: 1 },
      upvotes: 0,
      downvotes: 0,
      user_notes_count: 0,
      merge_requests_count: 0,
      references: { short: '#1', relative: '#1', full: 'acme/rocket#1' },
      reference: '#1',
      subscribed: true,
      epic: null,
      epic_iid: null,
      time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
      closed_by: null,
      moved_to_id: null,
    })
    expect(i.web_url).toBe('http://burrow.test/acme/rocket/-/issues/1')
    expect(i.assignee.username).toBe('rita')
    expect(i.assignees).toHaveLength(1)
    expect(i._links.self).toBe(`http://burrow.test/api/v4/projects/${project.id}/issues/1`)
    const labels = await get(ROOT_TOKEN, `/projects/${project.id}/labels`)
    expect(labels.body.map((l: Json) => l.name).sort()).toEqual(['Feature', 'bug'])
  })

  it('a guest may create but its metadata is dropped; non-members of public projects may create', async () => {
    const g = await post(guest.token, base(), { title: 'Guest issue', labels: 'bug' })
    expect(g.statusCode).toBe(201)
    expect(g.body.labels).toEqual([])
    const o = await post(outsider.token, base(), { title: 'Outsider issue' })
    expect(o.statusCode).toBe(201)
  })

  it('404 Issue Not Found for an unknown iid', async () => {
    const r = await get(ROOT_TOKEN, `${base()}/999`)
    expect(r.statusCode).toBe(404)
    expect(r.body).toEqual({ message: '404 Issue Not Found' })
  })

  it('confidential issues are hidden from guests and outsiders but shown to authors and reporters', async () => {
    const c = await post(guest.token, base(), { title: 'Secret', confidential: true })
    expect(c.statusCode).toBe(201)
    expect((await get(outsider.token, `${base()}/${c.body.iid}`)).statusCode).toBe(404)
    expect((await get(guest.token, `${base()}/${c.body.iid}`)).statusCode).toBe(200)
    expect((await get(reporter.token, `${base()}/${c.body.iid}`)).statusCode).toBe(200)
    const list = await get(outsider.token, `${base()}?per_page=100`)
    expect(list.body.map((i: Json) => i.title)).not.toContain('Secret')
    const reporterList = await get(reporter.token, `${base()}?per_page=100`)
    expect(reporterList.body.map((i: Json) => i.title)).toContain('Secret')
  })
})

describe('update and delete', () => {
  it('close and reopen record closed_by and events', async () => {
    const c = await post(ROOT_TOKEN, base(), { title: 'To close' })
    const closed = await put(reporter.token, `${base()}/${c.body.iid}`, { state_event: 'close' })
    expect(closed.body.state).toBe('closed')
    expect(closed.body.closed_by.username).toBe('rita')
    expect(closed.body.closed_at).not.toBeNull()
    const reopened = await put(reporter.token, `${base()}/${c.body.iid}`, { state_event: 'reopen' })
    expect(reopened.body).toMatchObject({ state: 'opened', closed_at: null, closed_by: null })
    const rows = s.app.burrow.db
      .prepare("SELECT action, target_title FROM events WHERE target_type = 'Issue' AND target_id = ? ORDER BY id")
      .all(c.body.id) as { action: string; target_title: string }[]
    expect(rows).toEqual(['created', 'closed', 'reopened'].map((action) => ({ action, target_title: 'To close' })))
    const events = await get(ROOT_TOKEN, `/projects/${project.id}/events?target_type=issue`)
    expect(events.body.find((e: Json) => e.target_iid === c.body.iid && e.action_name === 'closed')).toMatchObject({
      target_type: 'Issue',
      target_title: 'To close',
    })
  })

  it('add_labels and remove_labels', async () => {
    const c = await post(ROOT_TOKEN, base(), { title: 'Labels', labels: ['bug'] })
    const r = await put(ROOT_TOKEN, `${base()}/${c.body.iid}`, { add_labels: 'ui', remove_labels: 'BUG' })
    expect(r.body.labels).toEqual(['ui'])
  })

  it('authors edit their own issues; others need Reporter (403)', async () => {
    const c = await post(guest.token, base(), { title: 'Mine' })
    expect((await put(guest.token, `${base()}/${c.body.iid}`, { title: 'Mine!' })).body.title).toBe('Mine!')
    expect((await put(outsider.token, `${base()}/${c.body.iid}`, { title: 'Theirs' })).statusCode).toBe(403)
  })

  it('400 when no parameter is given, 412 on If-Unmodified-Since in the past', async () => {
    const c = await post(ROOT_TOKEN, base(), { title: 'Cond' })
    expect((await put(ROOT_TOKEN, `${base()}/${c.body.iid}`, {})).statusCode).toBe(400)
    const r = await put(
      ROOT_TOKEN,
      `${base()}/${c.body.iid}`,
      { title: 'x' },
      { 'if-unmodified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' },
    )
    expect(r.statusCode).toBe(412)
  })

  it('DELETE needs Owner: reporter 403, admin 204', async () => {
    const c = await post(ROOT_TOKEN, base(), { title: 'Doomed' })
    expect(
      (await s.request(reporter.token, { method: 'DELETE', url: `/api/v4${base()}/${c.body.iid}` })).statusCode,
    ).toBe(403)
    expect((await s.request(ROOT_TOKEN, { method: 'DELETE', url: `/api/v4${base()}/${c.body.iid}` })).statusCode).toBe(
      204,
    )
    expect((await get(ROOT_TOKEN, `${base()}/${c.body.iid}`)).statusCode).toBe(404)
  })
})

describe('time tracking, subscriptions, to-dos, awards', () => {
  it('estimate, spend, reset, human output', async () => {
    const c = await post(ROOT_TOKEN, base(), { title: 'Timed' })
    const u = `${base()}/${c.body.iid}`
    const est = await post(ROOT_TOKEN, `${u}/time_estimate`, { duration: '1w 2d 3h' })
    expect(est.body).toMatchObject({ time_estimate: (5 * 8 + 2 * 8 + 3) * 3600, human_time_estimate: '1w 2d 3h' })
    expect((await post(ROOT_TOKEN, `${u}/time_estimate`, { duration: 'soon' })).statusCode).toBe(400)
    const spent = await post(ROOT_TOKEN, `${u}/add_spent_time`, { duration: '1h30m' })
    expect(spent.statusCode).toBe(201)
    expect(spent.body.human_total_time_spent).toBe('1h 30m')
    expect((await post(ROOT_TOKEN, `${u}/add_spent_time`, { duration: '-30m' })).body.total_time_spent).toBe(3600)
    expect((await post(ROOT_TOKEN, `${u}/add_spent_time`, { duration: '-2h' })).statusCode).toBe(400)
    expect((await get(ROOT_TOKEN, `${u}/time_stats`)).body.total_time_spent).toBe(3600)
    expect((await post(ROOT_TOKEN, `${u}/reset_spent_time`, {})).body.total_time_spent).toBe(0)
    expect((await post(ROOT_TOKEN, `${u}/reset_time_estimate`, {})).body.time_estimate).toBe(0)
  })

  it('subscribe/unsubscribe with 304s; the author counts as subscribed', async () => {
    const c = await post(reporter.token, base(), { title: 'Subs' })
    const u = `${base()}/${c.body.iid}`
    expect((await post(reporter.token, `${u}/subscribe`, {})).statusCode).toBe(304)
    const un = await post(reporter.token, `${u}/unsubscribe`, {})
    expect(un.statusCode).toBe(201)
    expect(un.body.subscribed).toBe(false)
    expect((await post(reporter.token, `${u}/unsubscribe`, {})).statusCode).toBe(304)
    expect((await post(outsider.token, `${u}/subscribe`, {})).body.subscribed).toBe(true)
  })

  it('todo: 201 then 304', async () => {
    const c = await post(ROOT_TOKEN, base(), { title: 'Todo me' })
    const t = await post(outsider.token, `${base()}/${c.body.iid}/todo`, {})
    expect(t.statusCode).toBe(201)
    expect(t.body).toMatchObject({
      action_name: 'marked',
      target_type: 'Issue',
      state: 'pending',
      body: 'Todo me',
      project: { path_with_namespace: 'acme/rocket' },
    })
    expect(t.body.target.iid).toBe(c.body.iid)
    expect((await post(outsider.token, `${base()}/${c.body.iid}/todo`, {})).statusCode).toBe(304)
  })

  it('award emoji: upvotes, duplicate 404, delete', async () => {
    const c = await post(ROOT_TOKEN, base(), { title: 'Awards' })
    const u = `${base()}/${c.body.iid}`
    const a = await post(outsider.token, `${u}/award_emoji`, { name: 'thumbsup' })
    expect(a.statusCode).toBe(201)
    expect(a.body).toMatchObject({ name: 'thumbsup', awardable_type: 'Issue', awardable_id: c.body.id })
    const dup = await post(outsider.token, `${u}/award_emoji`, { name: 'thumbsup' })
    expect(dup.statusCode).toBe(404)
    expect(dup.body).toEqual({ message: '404 Award Emoji Name has already been taken Not Found' })
    expect((await get(ROOT_TOKEN, u)).body.upvotes).toBe(1)
    expect(
      (await s.request(reporter.token, { method: 'DELETE', url: `/api/v4${u}/award_emoji/${a.body.id}` })).statusCode,
    ).toBe(401)
    expect(
      (await s.request(outsider.token, { method: 'DELETE', url: `/api/v4${u}/award_emoji/${a.body.id}` })).statusCode,
    ).toBe(204)
    expect((await get(ROOT_TOKEN, `${u}/award_emoji/${a.body.id}`)).statusCode).toBe(404)
  })

  it('participants: author and assignees', async () => {
    const c = await post(ROOT_TOKEN, base(), { title: 'People', assignee_ids: [reporter.user.id] })
    const r = await get(ROOT_TOKEN, `${base()}/${c.body.iid}/participants`)
    expect(r.body.map((u: Json) => u.username)).toEqual(['root', 'rita'])
  })

  it('assignment creates an assigned to-do for the assignee', async () => {
    const c = await post(ROOT_TOKEN, base(), { title: 'Assigned', assignee_ids: [reporter.user.id] })
    const row = s.app.burrow.db
      .prepare("SELECT action FROM todos WHERE user_id = ? AND target_type = 'Issue' AND target_id = ?")
      .get(reporter.user.id, c.body.id) as { action: string }
    expect(row.action).toBe('assigned')
  })
})

describe('privileged attributes, assignees, archived projects', () => {
  it('administrators may choose iid and created_at; a reporter may not', async () => {
    const r = await post(ROOT_TOKEN, base(), { title: 'Imported', iid: 500, created_at: '2019-05-01T10:00:00Z' })
    expect(r.body).toMatchObject({ iid: 500, created_at: '2019-05-01T10:00:00.000Z' })
    expect((await post(ROOT_TOKEN, base(), { title: 'Dup', iid: 500 })).statusCode).toBe(409)
    const next = await post(ROOT_TOKEN, base(), { title: 'After import' })
    expect(next.body.iid).toBe(501)
    const rep = await post(reporter.token, base(), {
      title: 'Not imported',
      iid: 900,
      created_at: '2019-05-01T10:00:00Z',
    })
    expect(rep.body.iid).toBe(502)
    expect(rep.body.created_at).not.toBe('2019-05-01T10:00:00.000Z')
  })

  it('updated_at may be set by administrators', async () => {
    const c = await post(ROOT_TOKEN, base(), { title: 'Backdate' })
    const r = await put(ROOT_TOKEN, `${base()}/${c.body.iid}`, {
      title: 'Backdated',
      updated_at: '2021-02-03T04:05:06Z',
    })
    expect(r.body.updated_at).toBe('2021-02-03T04:05:06.000Z')
  })

  it('the deprecated assignee_id sets one assignee; assignee_ids=[] (0) clears them', async () => {
    const c = await post(ROOT_TOKEN, base(), { title: 'Single', assignee_id: guest.user.id })
    expect(c.body.assignees.map((u: Json) => u.username)).toEqual(['gus'])
    const cleared = await put(ROOT_TOKEN, `${base()}/${c.body.iid}`, { assignee_ids: 0 })
    expect(cleared.body).toMatchObject({ assignees: [], assignee: null })
  })

  it('lists show a confidential issue to its author, its assignees, Reporters and administrators only, on all three lists', async () => {
    const other = seedUser(s)
    seedMember(s, 'Project', project.id, other.user.id, AccessLevel.GUEST)
    const mine = await post(guest.token, base(), { title: 'Listed secret by gus', confidential: true })
    const theirs = await post(ROOT_TOKEN, base(), {
      title: 'Listed secret for gus',
      confidential: true,
      assignee_ids: [guest.user.id],
    })
    expect([mine.statusCode, theirs.statusCode]).toEqual([201, 201])
    const seen = async (token: string, url: string): Promise<string[]> =>
      ((await get(token, `${url}${url.includes('?') ? '&' : '?'}per_page=100&search=Listed%20secret`)).body as Json[])
        .map((i) => i.title as string)
        .sort()
    const both = ['Listed secret by gus', 'Listed secret for gus']
    for (const url of [base(), `/groups/${group.id}/issues`, '/issues?scope=all']) {
      expect(await seen(guest.token, url)).toEqual(both)
      expect(await seen(reporter.token, url)).toEqual(both)
      expect(await seen(ROOT_TOKEN, url)).toEqual(both)
      expect(await seen(other.token, url)).toEqual([])
    }
  })

  it('assignees see confidential issues assigned to them', async () => {
    const c = await post(ROOT_TOKEN, base(), {
      title: 'Secret for gus',
      confidential: true,
      assignee_ids: [guest.user.id],
    })
    expect((await get(guest.token, `${base()}/${c.body.iid}`)).statusCode).toBe(200)
    expect((await get(outsider.token, `${base()}/${c.body.iid}`)).statusCode).toBe(404)
    expect((await get(outsider.token, `${base()}/${c.body.iid}/time_stats`)).statusCode).toBe(404)
  })

  it('issues of archived projects are read-only (403)', async () => {
    const p = seedProject(s, { namespaceId: group.id, path: 'frozen', visibility: 'public' })
    const c = await post(ROOT_TOKEN, `/projects/${p.id}/issues`, { title: 'Before' })
    s.app.burrow.db.prepare('UPDATE projects SET archived = 1 WHERE id = ?').run(p.id)
    expect((await post(ROOT_TOKEN, `/projects/${p.id}/issues`, { title: 'After' })).statusCode).toBe(403)
    expect((await put(ROOT_TOKEN, `/projects/${p.id}/issues/${c.body.iid}`, { title: 'x' })).statusCode).toBe(403)
    expect((await get(ROOT_TOKEN, `/projects/${p.id}/issues/${c.body.iid}`)).statusCode).toBe(200)
  })

  it('the issues feature: disabled answers 403 and hides issues from /issues; private admits members only', async () => {
    const p = seedProject(s, { namespaceId: group.id, path: 'featured', visibility: 'public' })
    await post(ROOT_TOKEN, `/projects/${p.id}/issues`, { title: 'Feature-gated' })
    const setLevel = (level: string): void => {
      s.app.burrow.db
        .prepare('UPDATE projects SET settings = ? WHERE id = ?')
        .run(JSON.stringify({ issues_access_level: level }), p.id)
    }
    const globalTitles = async (token: string): Promise<string[]> =>
      (await get(token, '/issues?scope=all&search=Feature-gated')).body.map((i: Json) => i.title)
    setLevel('private')
    expect((await get(outsider.token, `/projects/${p.id}/issues`)).statusCode).toBe(403)
    expect((await get(outsider.token, `/projects/${p.id}/issues/1`)).statusCode).toBe(403)
    expect(await globalTitles(outsider.token)).toEqual([])
    expect(await globalTitles(ROOT_TOKEN)).toEqual(['Feature-gated'])
    setLevel('disabled')
    expect((await get(ROOT_TOKEN, `/projects/${p.id}/issues`)).statusCode).toBe(403)
    expect(await globalTitles(ROOT_TOKEN)).toEqual([])
    setLevel('enabled')
    expect(await globalTitles(outsider.token)).toEqual(['Feature-gated'])
  })

  it('400 when the description is longer than 1,048,576 characters', async () => {
    const r = await post(ROOT_TOKEN, base(), { title: 'Long', description: 'x'.repeat(1_048_577) })
    expect(r.body).toEqual({ message: { description: ['is too long (maximum is 1048576 characters)'] } })
  })

  it('400 on bad issue_type, negative weight and bad due_date', async () => {
    expect((await post(ROOT_TOKEN, base(), { title: 'x', issue_type: 'epic' })).body).toEqual({
      error: 'issue_type does not have a valid value',
    })
    expect((await post(ROOT_TOKEN, base(), { title: 'x', weight: -1 })).statusCode).toBe(400)
    expect((await post(ROOT_TOKEN, base(), { title: 'x', due_date: '2020-02-30' })).body).toEqual({
      error: 'due_date is invalid',
    })
  })

  it('incidents say so in type and severity', async () => {
    const r = await post(ROOT_TOKEN, base(), { title: 'Outage', issue_type: 'incident' })
    expect(r.body).toMatchObject({ issue_type: 'incident', type: 'INCIDENT', severity: 'UNKNOWN' })
  })
})

describe('move, related merge requests, award emoji details', () => {
  it('moves an issue: new iid in the target, labels by title, original closed with moved_to_id', async () => {
    const target = seedProject(s, { namespaceId: group.id, path: 'landing', visibility: 'public' })
    await post(ROOT_TOKEN, `/projects/${target.id}/labels`, { name: 'bug', color: '#ff0000' })
    const c = await post(reporter.token, base(), { title: 'Wanderer', labels: 'bug,local-only', description: 'text' })
    await post(outsider.token, `${base()}/${c.body.iid}/award_emoji`, { name: 'tada' })
    const moved = await post(ROOT_TOKEN, `${base()}/${c.body.iid}/move`, { to_project_id: target.id })
    expect(moved.statusCode).toBe(201)
    expect(moved.body).toMatchObject({
      project_id: target.id,
      iid: 1,
      title: 'Wanderer',
      description: 'text',
      labels: ['bug'],
      state: 'opened',
    })
    expect(moved.body.author.username).toBe('rita')
    const old = await get(ROOT_TOKEN, `${base()}/${c.body.iid}`)
    expect(old.body).toMatchObject({ state: 'closed', moved_to_id: moved.body.id })
    expect(
      (await get(ROOT_TOKEN, `/projects/${target.id}/issues/1/award_emoji`)).body.map((a: Json) => a.name),
    ).toEqual(['tada'])
    const again = await post(ROOT_TOKEN, `${base()}/${c.body.iid}/move`, { to_project_id: target.id })
    expect(again.statusCode).toBe(400)
  })

  it('move errors: same project 400, insufficient permissions 400, unknown project 404', async () => {
    const c = await post(ROOT_TOKEN, base(), { title: 'Stay' })
    expect((await post(ROOT_TOKEN, `${base()}/${c.body.iid}/move`, { to_project_id: project.id })).body).toEqual({
      message: 'Cannot move issue to project it originates from!',
    })
    const other = seedProject(s, { namespaceId: group.id, path: 'elsewhere', visibility: 'public' })
    const denied = await post(reporter.token, `${base()}/${c.body.iid}/move`, { to_project_id: other.id })
    expect(denied.body).toEqual({ message: 'Cannot move issue due to insufficient permissions!' })
    expect((await post(ROOT_TOKEN, `${base()}/${c.body.iid}/move`, { to_project_id: 99999 })).body).toEqual({
      message: '404 Project Not Found',
    })
  })

  it('clones into the same project, authored by the caller, notes only with with_notes', async () => {
    const m = await post(ROOT_TOKEN, `/projects/${project.id}/milestones`, { title: 'clone-ms' })
    const c = await post(reporter.token, base(), { title: 'Original', labels: 'bug', milestone_id: m.body.id })
    const db = s.app.burrow.db
    db.prepare(
      "INSERT INTO notes (noteable_type, noteable_id, project_id, author_id, body, discussion_id, created_at, updated_at) VALUES ('Issue', ?, ?, ?, 'hi', ?, ?, ?)",
    ).run(c.body.id, project.id, reporter.user.id, 'a'.repeat(40), c.body.created_at, c.body.created_at)
    const plain = await post(ROOT_TOKEN, `${base()}/${c.body.iid}/clone`, { to_project_id: project.id })
    expect(plain.statusCode).toBe(201)
    expect(plain.body).toMatchObject({
      title: 'Original',
      labels: ['bug'],
      state: 'opened',
      user_notes_count: 0,
      milestone: { id: m.body.id },
    })
    expect(plain.body.author.username).toBe('root')
    expect(plain.body.iid).not.toBe(c.body.iid)
    const withNotes = await post(ROOT_TOKEN, `${base()}/${c.body.iid}/clone`, {
      to_project_id: project.id,
      with_notes: true,
    })
    expect(withNotes.body.user_notes_count).toBe(1)
    expect((await get(ROOT_TOKEN, `${base()}/${c.body.iid}`)).body.state).toBe('opened')
    expect((await post(guest.token, `${base()}/${c.body.iid}/clone`, { to_project_id: project.id })).body).toEqual({
      message: 'Cannot clone issue due to insufficient permissions!',
    })
  })

  it('reorder places an issue between two others (order_by=relative_position)', async () => {
    const p = seedProject(s, { ownerId: 1, path: 'board', visibility: 'private' })
    const pb = `/projects/${p.id}/issues`
    const made: Json[] = []
    for (const t of ['one', 'two', 'three']) made.push((await post(ROOT_TOKEN, pb, { title: t })).body)
    const order = async (): Promise<string[]> =>
      (await get(ROOT_TOKEN, `${pb}?order_by=relative_position&sort=asc`)).body.map((i: Json) => i.title)
    const r = await put(ROOT_TOKEN, `${pb}/3/reorder`, { move_after_id: made[1].id, move_before_id: made[0].id })
    expect(r.statusCode).toBe(200)
    expect(await order()).toEqual(['one', 'three', 'two'])
    await put(ROOT_TOKEN, `${pb}/1/reorder`, { move_before_id: made[1].id })
    expect(await order()).toEqual(['three', 'two', 'one'])
    expect((await put(ROOT_TOKEN, `${pb}/1/reorder`, { move_after_id: 999999 })).statusCode).toBe(404)
  })

  it('related_merge_requests and closed_by are empty lists until merge requests link issues', async () => {
    const c = await post(ROOT_TOKEN, base(), { title: 'No MRs' })
    expect((await get(ROOT_TOKEN, `${base()}/${c.body.iid}/related_merge_requests`)).body).toEqual([])
    expect((await get(ROOT_TOKEN, `${base()}/${c.body.iid}/closed_by`)).body).toEqual([])
  })

  it('award emoji: 400 name is missing, list, single get, anonymous 401', async () => {
    const c = await post(ROOT_TOKEN, base(), { title: 'Emoji' })
    const u = `${base()}/${c.body.iid}/award_emoji`
    expect((await post(ROOT_TOKEN, u, {})).body).toEqual({ error: 'name is missing' })
    const a = await post(ROOT_TOKEN, u, { name: 'thumbsdown' })
    expect((await get(null, u)).body.map((x: Json) => x.name)).toEqual(['thumbsdown'])
    expect((await get(null, `${u}/${a.body.id}`)).body.user.username).toBe('root')
    expect((await post(null, u, { name: 'tada' })).statusCode).toBe(401)
    expect((await get(ROOT_TOKEN, `${base()}/${c.body.iid}`)).body.downvotes).toBe(1)
  })
})

describe('orderings and milestones', () => {
  it('milestone_due, label_priority, priority and relative_position order as documented', async () => {
    const p = seedProject(s, { ownerId: 1, path: 'ordering', visibility: 'private' })
    const pb = `/projects/${p.id}`
    const soon = await post(ROOT_TOKEN, `${pb}/milestones`, { title: 'soon', due_date: '2030-01-01' })
    const late = await post(ROOT_TOKEN, `${pb}/milestones`, { title: 'late', due_date: '2031-01-01' })
    await post(ROOT_TOKEN, `${pb}/labels`, { name: 'p1', color: '#000000', priority: 1 })
    await post(ROOT_TOKEN, `${pb}/labels`, { name: 'p2', color: '#000000', priority: 2 })
    await post(ROOT_TOKEN, `${pb}/issues`, { title: 'A', milestone_id: late.body.id, labels: 'p1' })
    await post(ROOT_TOKEN, `${pb}/issues`, { title: 'B', milestone_id: soon.body.id, labels: 'p2' })
    await post(ROOT_TOKEN, `${pb}/issues`, { title: 'C' })
    const order = async (q: string): Promise<string[]> =>
      (await get(ROOT_TOKEN, `${pb}/issues?${q}`)).body.map((i: Json) => i.title)
    expect(await order('order_by=milestone_due&sort=asc')).toEqual(['B', 'A', 'C'])
    expect(await order('order_by=label_priority&sort=asc')).toEqual(['A', 'B', 'C'])
    expect(await order('order_by=priority&sort=asc')).toEqual(['B', 'A', 'C'])
    expect(await order('order_by=relative_position&sort=asc')).toEqual(['A', 'B', 'C'])
  })

  it('deleting a milestone leaves its issues without one; promoting keeps them on the group milestone', async () => {
    const m = await post(ROOT_TOKEN, `/projects/${project.id}/milestones`, { title: 'to-delete' })
    const c = await post(ROOT_TOKEN, base(), { title: 'Milestoned', milestone_id: m.body.id })
    await s.request(ROOT_TOKEN, { method: 'DELETE', url: `/api/v4/projects/${project.id}/milestones/${m.body.id}` })
    expect((await get(ROOT_TOKEN, `${base()}/${c.body.iid}`)).body.milestone).toBeNull()
    const m2 = await post(ROOT_TOKEN, `/projects/${project.id}/milestones`, { title: 'to-promote' })
    const d = await post(ROOT_TOKEN, base(), { title: 'Promoted', milestone_id: m2.body.id })
    const promoted = await post(ROOT_TOKEN, `/projects/${project.id}/milestones/${m2.body.id}/promote`, {})
    const after = await get(ROOT_TOKEN, `${base()}/${d.body.iid}`)
    expect(after.body.milestone).toMatchObject({ id: promoted.body.id, group_id: group.id })
  })
})

describe('concurrency', () => {
  it('50 concurrent creations get iids 1..50', async () => {
    const srv = await startServer()
    try {
      const p = seedProject(srv, { ownerId: 1, path: 'race', visibility: 'private' })
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, n) =>
          fetch(`${srv.url}/api/v4/projects/${p.id}/issues`, {
            method: 'POST',
            headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'Content-Type': 'application/json' },
            body: JSON.stringify({ title: `t${n}` }),
          }).then((r) => r.json() as Promise<Json>),
        ),
      )
      expect(results.map((r) => r.iid as number).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 50 }, (_, n) => n + 1),
      )
    } finally {
      await srv.close()
    }
  })
})

export { iidsOf, get, post, put }
