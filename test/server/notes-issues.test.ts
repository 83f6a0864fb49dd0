import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

let s: TestServer
let group: NamespaceRow
let reporter: SeededUser
let guest: SeededUser
let bob: SeededUser
let project: ProjectRow
let issueUrl: string

beforeEach(async () => {
  s = await makeServer()
  reporter = seedUser(s, { username: 'rita' })
  guest = seedUser(s, { username: 'gus' })
  bob = seedUser(s, { username: 'bob' })
  group = seedGroup(s, { visibility: 'private' })
  project = seedProject(s, { namespaceId: group.id, visibility: 'private' })
  seedMember(s, 'Project', project.id, reporter.user.id, AccessLevel.REPORTER)
  seedMember(s, 'Project', project.id, guest.user.id, AccessLevel.GUEST)
  seedMember(s, 'Project', project.id, bob.user.id, AccessLevel.DEVELOPER)
  const issue = await s.request(reporter.token, {
    method: 'POST',
    url: `/api/v4/projects/${project.id}/issues`,
    payload: { title: 'Bug' },
  })
  issueUrl = `/api/v4/projects/${project.id}/issues/${issue.json().iid}`
})
afterEach(async () => s.close())

const note = (token: string, body: string) =>
  s.request(token, { method: 'POST', url: `${issueUrl}/notes`, payload: { body } })
const issue = async () => (await s.request(reporter.token, { method: 'GET', url: issueUrl })).json()

describe('issue notes', () => {
  it('creates a note with noteable_iid and lists it', async () => {
    const res = await note(guest.token, 'hi')
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({ noteable_type: 'Issue', noteable_iid: (await issue()).iid, type: null })
    expect((await s.request(guest.token, { method: 'GET', url: `${issueUrl}/notes` })).json()).toHaveLength(1)
  })

  it('refuses a non-member on a locked discussion with 403 while members still comment', async () => {
    s.app.burrow.db.prepare('UPDATE projects SET visibility = ? WHERE id = ?').run('public', project.id)
    await s.request(reporter.token, { method: 'PUT', url: issueUrl, payload: { discussion_locked: true } })
    const outsider = seedUser(s)
    expect((await note(outsider.token, 'x')).statusCode).toBe(403)
    expect((await note(guest.token, 'x')).statusCode).toBe(201)
  })

  it('serves issue discussions: thread then reply', async () => {
    const d = (
      await s.request(bob.token, { method: 'POST', url: `${issueUrl}/discussions`, payload: { body: 'q' } })
    ).json()
    const r = await s.request(guest.token, {
      method: 'POST',
      url: `${issueUrl}/discussions/${d.id}/notes`,
      payload: { body: 'a' },
    })
    expect(r.statusCode).toBe(201)
    const got = (await s.request(bob.token, { method: 'GET', url: `${issueUrl}/discussions/${d.id}` })).json()
    expect(got.notes.map((n: { body: string; noteable_type: string }) => [n.body, n.noteable_type])).toEqual([
      ['q', 'Issue'],
      ['a', 'Issue'],
    ])
  })
})

describe('quick actions in issue notes', () => {
  it('labels and strips the command line from the stored body', async () => {
    const res = await note(reporter.token, 'Triaged\n/label ~bug ~"needs review"')
    expect(res.statusCode).toBe(201)
    expect(res.json().body).toBe('Triaged')
    expect(res.json().commands_changes.add_label_ids).toHaveLength(2)
    expect((await issue()).labels.sort()).toEqual(['bug', 'needs review'])
  })

  it('answers 202 with commands_changes and summary when the note held only commands, saving no note', async () => {
    const res = await note(reporter.token, '/close')
    expect(res.statusCode).toBe(202)
    expect(res.json()).toEqual({ commands_changes: { state_event: 'close' }, summary: ['Closed this issue.'] })
    expect((await issue()).state).toBe('closed')
    expect((await s.request(reporter.token, { method: 'GET', url: `${issueUrl}/notes` })).json()).toEqual([])
  })

  it('reopens, unlabels, assigns and unassigns', async () => {
    await note(reporter.token, '/label ~a ~b\n/close')
    await note(reporter.token, '/reopen\n/unlabel ~a\n/assign @bob me')
    let i = await issue()
    expect(i.state).toBe('opened')
    expect(i.labels).toEqual(['b'])
    expect(i.assignees.map((u: { username: string }) => u.username).sort()).toEqual(['bob', 'rita'])
    await note(reporter.token, '/unassign @bob\n/unlabel')
    i = await issue()
    expect(i.assignees.map((u: { username: string }) => u.username)).toEqual(['rita'])
    expect(i.labels).toEqual([])
  })

  it('sets estimate and spent time, negative spend subtracting', async () => {
    await note(reporter.token, '/estimate 1h30m\n/spend 2h')
    await note(reporter.token, '/spend -30m')
    expect((await issue()).time_stats).toMatchObject({ time_estimate: 5400, total_time_spent: 5400 })
  })

  it('sets and removes a milestone and a due date', async () => {
    await s.request(reporter.token, {
      method: 'POST',
      url: `/api/v4/projects/${project.id}/milestones`,
      payload: { title: 'm 1' },
    })
    await note(reporter.token, '/milestone %"m 1"\n/due 2026-12-01')
    let i = await issue()
    expect(i.milestone.title).toBe('m 1')
    expect(i.due_date).toBe('2026-12-01')
    await note(reporter.token, '/remove_milestone\n/remove_due_date')
    i = await issue()
    expect(i.milestone).toBeNull()
    expect(i.due_date).toBeNull()
  })

  it('reports promote_to_epic for /promote at the start of a line', async () => {
    // Promotion creates an epic in the project's group: the caller needs rights there too.
    seedMember(s, 'Namespace', group.id, reporter.user.id, AccessLevel.REPORTER)
    const res = await note(reporter.token, 'Bigger than an issue\n/promote')
    expect(res.statusCode).toBe(201)
    expect(res.json().commands_changes).toEqual({ promote_to_epic: true })
    expect(res.json().body).toBe('Bigger than an issue')
  })

  it('leaves a Guest’s commands in the text and changes nothing', async () => {
    const res = await note(guest.token, '/label ~bug\n/close')
    expect(res.statusCode).toBe(201)
    expect(res.json().body).toBe('/label ~bug\n/close')
    const i = await issue()
    expect(i.labels).toEqual([])
    expect(i.state).toBe('opened')
  })
})

describe('mentions and to-dos', () => {
  it('raises directly_addressed for a leading mention and mentioned otherwise, not for the author', async () => {
    await note(reporter.token, '@bob please check, cc @gus and @rita')
    const bobs = (await s.request(bob.token, { method: 'GET', url: '/api/v4/todos' })).json()
    expect(bobs).toHaveLength(1)
    expect(bobs[0]).toMatchObject({
      action_name: 'directly_addressed',
      target_type: 'Issue',
      state: 'pending',
      author: { username: 'rita' },
      project: { id: project.id, path: project.path },
      target: { title: 'Bug' },
    })
    expect(bobs[0].target_url).toMatch(/\/-\/issues\/\d+#note_\d+$/)
    const gus = (await s.request(guest.token, { method: 'GET', url: '/api/v4/todos' })).json()
    expect(gus.map((t: { action_name: string }) => t.action_name)).toEqual(['mentioned'])
    expect((await s.request(reporter.token, { method: 'GET', url: '/api/v4/todos' })).json()).toEqual([])
  })

  it('raises no to-do for a mention inside code or for a user who cannot read the issue', async () => {
    const stranger = seedUser(s, { username: 'stranger' })
    await note(reporter.token, '`@bob` and @stranger')
    expect((await s.request(bob.token, { method: 'GET', url: '/api/v4/todos' })).json()).toEqual([])
    expect((await s.request(stranger.token, { method: 'GET', url: '/api/v4/todos' })).json()).toEqual([])
  })

  it('filters to-dos by action, author, project, type and state', async () => {
    await note(reporter.token, '@bob one')
    await note(guest.token, 'two @bob')
    const list = async (q: string) =>
      (await s.request(bob.token, { method: 'GET', url: `/api/v4/todos?${q}` })).json().length
    expect(await list('action=mentioned')).toBe(1)
    expect(await list(`author_id=${guest.user.id}`)).toBe(1)
    expect(await list(`project_id=${project.id}`)).toBe(2)
    expect(await list(`group_id=${group.id}`)).toBe(2)
    expect(await list('type=MergeRequest')).toBe(0)
    expect(await list('state=done')).toBe(0)
  })

  it('marks one to-do done (201), refuses someone else’s with 404, and marks all done (204)', async () => {
    await note(reporter.token, '@bob one')
    await note(reporter.token, '@bob two')
    const [first] = (await s.request(bob.token, { method: 'GET', url: '/api/v4/todos' })).json()
    expect(
      (await s.request(guest.token, { method: 'POST', url: `/api/v4/todos/${first.id}/mark_as_done` })).statusCode,
    ).toBe(404)
    const done = await s.request(bob.token, { method: 'POST', url: `/api/v4/todos/${first.id}/mark_as_done` })
    expect(done.statusCode).toBe(201)
    expect(done.json()).toMatchObject({ id: first.id, state: 'done' })
    expect((await s.request(bob.token, { method: 'POST', url: '/api/v4/todos/mark_as_done' })).statusCode).toBe(204)
    expect((await s.request(bob.token, { method: 'GET', url: '/api/v4/todos' })).json()).toEqual([])
    expect((await s.request(bob.token, { method: 'GET', url: '/api/v4/todos?state=done' })).json()).toHaveLength(2)
  })
})
