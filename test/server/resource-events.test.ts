import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Gitlab } from '@gitbeaker/rest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import {
  makeServer,
  seedUser,
  startServer,
  type ListeningServer,
  type SeededUser,
  type TestServer,
} from '../helpers/server'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(
  s: TestServer,
  token: string | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: Json,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; body: any; headers: Record<string, unknown> }> {
  const res =
    token === null
      ? await s.app.inject({ method, url: `/api/v4${url}`, payload })
      : await s.request(token, { method, url: `/api/v4${url}`, payload })
  return { status: res.statusCode, body: res.body === '' ? null : JSON.parse(res.body), headers: res.headers }
}

const USER_KEYS = ['avatar_url', 'id', 'locked', 'name', 'state', 'username', 'web_url']

describe('resource events API', () => {
  let s: TestServer
  let group: NamespaceRow
  let project: ProjectRow
  let rita: SeededUser
  let guest: SeededUser
  let outsider: SeededUser
  let base: string

  beforeEach(async () => {
    s = await makeServer()
    rita = seedUser(s, { username: 'rita' })
    guest = seedUser(s, { username: 'gus' })
    outsider = seedUser(s, { username: 'olly' })
    group = seedGroup(s, { path: 'ev', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'private' })
    seedMember(s, 'Namespace', group.id, rita.user.id, AccessLevel.REPORTER)
    seedMember(s, 'Project', project.id, guest.user.id, AccessLevel.GUEST)
    base = `/projects/${project.id}`
  })
  afterEach(async () => s.close())

  const newIssue = async (payload: Json): Promise<Json> =>
    (await call(s, rita.token, 'POST', `${base}/issues`, payload)).body

  it('lists label events of an issue with GitLab’s fields, oldest first, and gets one by id', async () => {
    await call(s, rita.token, 'POST', `${base}/labels`, { name: 'bug', color: '#ff0000', description: 'Broken' })
    const issue = await newIssue({ title: 'Labelled', labels: 'bug' })
    const url = `${base}/issues/${issue.iid}`
    await call(s, rita.token, 'PUT', url, { labels: 'feature' })
    const list = await call(s, rita.token, 'GET', `${url}/resource_label_events`)
    expect(list.status).toBe(200)
    const events = list.body as Json[]
    expect(events.map((e) => [e.action, e.label.name])).toEqual([
      ['add', 'bug'],
      ['add', 'feature'],
      ['remove', 'bug'],
    ])
    expect(Object.keys(events[0]).sort()).toEqual([
      'action',
      'created_at',
      'id',
      'label',
      'resource_id',
      'resource_type',
      'user',
    ])
    expect(events[0]).toMatchObject({
      resource_type: 'Issue',
      resource_id: issue.id,
      user: { id: rita.user.id, username: 'rita' },
    })
    expect(Object.keys(events[0].user).sort()).toEqual(USER_KEYS)
    expect(events[0].label).toEqual({
      id: events[0].label.id,
      name: 'bug',
      color: '#ff0000',
      description: 'Broken',
      description_html: expect.any(String),
      text_color: '#FFFFFF',
    })
    expect(events[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    const one = await call(s, rita.token, 'GET', `${url}/resource_label_events/${events[1].id}`)
    expect(one).toMatchObject({ status: 200, body: events[1] })
  })

  it('paginates with GitLab’s headers', async () => {
    const issue = await newIssue({ title: 'Busy', labels: 'a,b,c' })
    const url = `${base}/issues/${issue.iid}/resource_label_events`
    const page = await call(s, rita.token, 'GET', `${url}?per_page=2&page=2`)
    expect(page.body.map((e: Json) => e.label.name)).toEqual(['c'])
    expect(page.headers).toMatchObject({
      'x-total': '3',
      'x-total-pages': '2',
      'x-page': '2',
      'x-per-page': '2',
      'x-prev-page': '1',
    })
  })

  it('shows a deleted label as null and keeps its event', async () => {
    const issue = await newIssue({ title: 'Ephemeral', labels: 'gone' })
    const label = ((await call(s, rita.token, 'GET', `${base}/labels`)).body as Json[]).find(
      (l) => l.name === 'gone',
    ) as Json
    expect((await call(s, rita.token, 'DELETE', `${base}/labels/${label.id}`)).status).toBe(204)
    const events = (await call(s, rita.token, 'GET', `${base}/issues/${issue.iid}/resource_label_events`))
      .body as Json[]
    expect(events.map((e) => [e.action, e.label])).toEqual([['add', null]])
  })

  it('lists milestone events with the whole milestone and the item’s state at the time', async () => {
    const milestone = (await call(s, rita.token, 'POST', `${base}/milestones`, { title: 'v1', due_date: '2030-01-01' }))
      .body
    const issue = await newIssue({ title: 'Planned', milestone_id: milestone.id })
    const url = `${base}/issues/${issue.iid}`
    await call(s, rita.token, 'PUT', url, { state_event: 'close' })
    await call(s, rita.token, 'PUT', url, { milestone_id: null })
    const events = (await call(s, rita.token, 'GET', `${url}/resource_milestone_events`)).body as Json[]
    expect(events.map((e) => [e.action, e.state, e.milestone.title])).toEqual([
      ['add', 'opened', 'v1'],
      ['remove', 'closed', 'v1'],
    ])
    expect(Object.keys(events[0]).sort()).toEqual([
      'action',
      'created_at',
      'id',
      'milestone',
      'resource_id',
      'resource_type',
      'state',
      'user',
    ])
    expect(events[0].milestone).toMatchObject({
      id: milestone.id,
      iid: milestone.iid,
      project_id: project.id,
      title: 'v1',
      state: 'active',
      due_date: '2030-01-01',
      web_url: milestone.web_url,
    })
    expect((await call(s, rita.token, 'GET', `${url}/resource_milestone_events/${events[1].id}`)).body).toEqual(
      events[1],
    )
  })

  it('lists state events (closed, reopened) with their source fields; a new item has none', async () => {
    const issue = await newIssue({ title: 'Flip-flop' })
    const url = `${base}/issues/${issue.iid}`
    expect((await call(s, rita.token, 'GET', `${url}/resource_state_events`)).body).toEqual([])
    await call(s, rita.token, 'PUT', url, { state_event: 'close' })
    await call(s, rita.token, 'PUT', url, { state_event: 'reopen' })
    const events = (await call(s, rita.token, 'GET', `${url}/resource_state_events`)).body as Json[]
    expect(events.map((e) => e.state)).toEqual(['closed', 'reopened'])
    expect(Object.keys(events[0]).sort()).toEqual([
      'created_at',
      'id',
      'resource_id',
      'resource_type',
      'source_commit',
      'source_merge_request_id',
      'state',
      'user',
    ])
    expect(events[0]).toMatchObject({
      resource_type: 'Issue',
      resource_id: issue.id,
      source_commit: null,
      source_merge_request_id: null,
      user: { username: 'rita' },
    })
    expect((await call(s, rita.token, 'GET', `${url}/resource_state_events/${events[0].id}`)).body).toEqual(events[0])
  })

  it('serves epics: label and state events by the epic’s id; no milestone events', async () => {
    const epic = (await call(s, rita.token, 'POST', `/groups/${group.id}/epics`, { title: 'Big', labels: 'roadmap' }))
      .body
    await call(s, rita.token, 'PUT', `/groups/${group.id}/epics/${epic.iid}`, { state_event: 'close' })
    const eurl = `/groups/${group.id}/epics/${epic.id}`
    const labels = (await call(s, rita.token, 'GET', `${eurl}/resource_label_events`)).body as Json[]
    expect(labels.map((e) => [e.action, e.label.name, e.resource_type, e.resource_id])).toEqual([
      ['add', 'roadmap', 'Epic', epic.id],
    ])
    const states = (await call(s, rita.token, 'GET', `${eurl}/resource_state_events`)).body as Json[]
    expect(states.map((e) => [e.state, e.resource_type])).toEqual([['closed', 'Epic']])
    expect((await call(s, rita.token, 'GET', `${eurl}/resource_label_events/${labels[0].id}`)).body).toEqual(labels[0])
    expect((await call(s, rita.token, 'GET', `${eurl}/resource_milestone_events`)).status).toBe(404)
  })

  it('answers 404 for an event of another item, an unknown id and a non-numeric id; 400 for a non-integer state event id', async () => {
    const a = await newIssue({ title: 'A', labels: 'x' })
    const b = await newIssue({ title: 'B', labels: 'y' })
    const [event] = (await call(s, rita.token, 'GET', `${base}/issues/${a.iid}/resource_label_events`)).body as Json[]
    expect(await call(s, rita.token, 'GET', `${base}/issues/${b.iid}/resource_label_events/${event.id}`)).toMatchObject(
      { status: 404, body: { message: '404 Not found' } },
    )
    expect((await call(s, rita.token, 'GET', `${base}/issues/${a.iid}/resource_label_events/999999`)).status).toBe(404)
    expect((await call(s, rita.token, 'GET', `${base}/issues/${a.iid}/resource_label_events/abc`)).status).toBe(404)
    expect((await call(s, rita.token, 'GET', `${base}/issues/${a.iid}/resource_state_events/abc`)).status).toBe(400)
    expect((await call(s, rita.token, 'GET', `${base}/issues/999/resource_label_events`)).body).toEqual({
      message: '404 Issue Not Found',
    })
  })

  it('requires a signed-in caller, and answers 404 for a private project, an unreadable confidential issue or merge requests hidden from Guests', async () => {
    const issue = await newIssue({ title: 'Secret', confidential: true, labels: 'x' })
    const url = `${base}/issues/${issue.iid}/resource_label_events`
    expect((await call(s, null, 'GET', url)).status).toBe(401)
    expect(await call(s, outsider.token, 'GET', url)).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    })
    expect(await call(s, guest.token, 'GET', url)).toMatchObject({
      status: 404,
      body: { message: '404 Issue Not Found' },
    })
    expect((await call(s, guest.token, 'GET', `${base}/issues/${issue.iid}/resource_state_events`)).status).toBe(404)
    expect((await call(s, outsider.token, 'GET', `/groups/${group.id}/epics/1/resource_state_events`)).status).toBe(404)
  })

  it('leaves out events for labels and milestones of places the caller cannot read (a moved issue keeps its old ones)', async () => {
    const secret = seedProject(s, { namespaceId: group.id, path: 'secret', visibility: 'private' })
    const dev = seedUser(s, { username: 'dee' })
    seedMember(s, 'Project', secret.id, dev.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, dev.user.id, AccessLevel.DEVELOPER)
    const milestone = (await call(s, dev.token, 'POST', `/projects/${secret.id}/milestones`, { title: 'hidden' })).body
    const issue = (
      await call(s, dev.token, 'POST', `/projects/${secret.id}/issues`, {
        title: 'Wanders',
        labels: 'private-label',
        milestone_id: milestone.id,
      })
    ).body
    const moved = (
      await call(s, dev.token, 'POST', `/projects/${secret.id}/issues/${issue.iid}/move`, { to_project_id: project.id })
    ).body
    const url = `${base}/issues/${moved.iid}`
    expect(
      ((await call(s, dev.token, 'GET', `${url}/resource_label_events`)).body as Json[]).map((e) => e.label.name),
    ).toEqual(['private-label'])
    expect((await call(s, dev.token, 'GET', `${url}/resource_milestone_events`)).body).toHaveLength(1)
    // The Guest reads the moved issue but not the project its old label and milestone belong to.
    for (const list of ['resource_label_events', 'resource_milestone_events']) {
      const res = await call(s, guest.token, 'GET', `${url}/${list}`)
      expect(res.body).toEqual([])
      // Left out before paging: the count does not tell the Guest they exist.
      expect(res.headers['x-total']).toBe('0')
    }
    const [hidden] = (await call(s, dev.token, 'GET', `${url}/resource_label_events`)).body as Json[]
    expect(await call(s, guest.token, 'GET', `${url}/resource_label_events/${hidden.id}`)).toMatchObject({
      status: 404,
      body: { message: '404 ResourceLabelEvent Not Found' },
    })
  })
})

describe('resource events over the wire', () => {
  let s: ListeningServer
  let project: ProjectRow
  let rita: SeededUser

  beforeAll(async () => {
    s = await startServer()
    rita = seedUser(s, { username: 'wire_rita' })
    const group = seedGroup(s, { path: 'wire-ev', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'private' })
    seedMember(s, 'Project', project.id, rita.user.id, AccessLevel.REPORTER)
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab reads an issue’s label, milestone and state events', async () => {
    const r = await withPythonGitlab<Json>(
      s.url,
      { private_token: rita.token },
      `
project = gl.projects.get(${project.id})
ms = project.milestones.create({'title': 'py-ms'})
issue = project.issues.create({'title': 'py events', 'labels': ['one']})
issue.labels = ['two']
issue.milestone_id = ms.id
issue.save()
issue.state_event = 'close'
issue.save()
labels = issue.resourcelabelevents.list(get_all=True)
first = issue.resourcelabelevents.get(labels[0].id)
out({
  'labels': [(e.action, e.label['name']) for e in labels],
  'first': [first.action, first.resource_type, first.user['username']],
  'milestones': [(e.action, e.milestone['title']) for e in issue.resourcemilestoneevents.list(get_all=True)],
  'states': [e.state for e in issue.resourcestateevents.list(get_all=True)],
})
`,
    )
    expect(r).toEqual({
      labels: [
        ['add', 'one'],
        ['add', 'two'],
        ['remove', 'one'],
      ],
      first: ['add', 'Issue', 'wire_rita'],
      milestones: [['add', 'py-ms']],
      states: ['closed'],
    })
  })

  it('@gitbeaker/rest reads an issue’s state events and one label event', async () => {
    const api = new Gitlab({ host: s.url, token: rita.token })
    const issue = await api.Issues.create(project.id, 'beaker events', { labels: 'gb' })
    await api.Issues.edit(project.id, issue.iid, { stateEvent: 'close' })
    const states = await api.IssueStateEvents.all(project.id, issue.iid)
    expect(states.map((e) => [e.state, e.resource_type])).toEqual([['closed', 'Issue']])
    const [label] = await api.IssueLabelEvents.all(project.id, issue.iid)
    const one = await api.IssueLabelEvents.show(project.id, issue.iid, label.id)
    expect(one).toMatchObject({ id: label.id, action: 'add', label: { name: 'gb' }, resource_id: issue.id })
  })
})
