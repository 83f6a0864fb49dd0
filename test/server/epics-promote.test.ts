import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let s: TestServer
let group: NamespaceRow
let project: ProjectRow
let reporter: SeededUser
let projectOnly: SeededUser
let guest: SeededUser

const api = async (
  token: string,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: Json,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ statusCode: number; body: any }> => {
  const res = await s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
  return { statusCode: res.statusCode, body: res.body ? JSON.parse(res.body) : null }
}

beforeEach(async () => {
  s = await makeServer()
  group = seedGroup(s, { path: 'promo', visibility: 'private' })
  project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'private' })
  reporter = seedUser(s, { username: 'rae' })
  projectOnly = seedUser(s, { username: 'pat' })
  guest = seedUser(s, { username: 'gil' })
  seedMember(s, 'Namespace', group.id, reporter.user.id, AccessLevel.REPORTER)
  seedMember(s, 'Project', project.id, projectOnly.user.id, AccessLevel.REPORTER)
  seedMember(s, 'Project', project.id, guest.user.id, AccessLevel.GUEST)
})
afterEach(async () => s.close())

async function newIssue(payload: Json): Promise<Json> {
  const r = await api(reporter.token, 'POST', `/projects/${project.id}/issues`, payload)
  expect(r.statusCode).toBe(201)
  return r.body as Json
}

describe('/promote', () => {
  it('creates an epic in the group from the issue, closes the issue and links both', async () => {
    const groupLabel = await api(reporter.token, 'POST', `/groups/${group.id}/labels`, {
      name: 'roadmap',
      color: '#112233',
    })
    expect(groupLabel.statusCode).toBe(201)
    const parent = (await api(reporter.token, 'POST', `/groups/${group.id}/epics`, { title: 'Parent' })).body
    const issue = await newIssue({
      title: 'Big thing',
      description: 'Lots to do',
      labels: 'roadmap,project-only',
      epic_id: parent.id,
    })
    const iurl = `/projects/${project.id}/issues/${issue.iid}`
    await api(projectOnly.token, 'POST', `${iurl}/notes`, { body: 'an early comment' })
    await api(guest.token, 'POST', `${iurl}/award_emoji`, { name: 'thumbsup' })

    const res = await api(reporter.token, 'POST', `${iurl}/notes`, { body: 'Bigger than an issue\n/promote' })
    expect(res.statusCode).toBe(201)
    expect(res.body).toMatchObject({ body: 'Bigger than an issue', commands_changes: { promote_to_epic: true } })

    const epics = (await api(reporter.token, 'GET', `/groups/${group.id}/epics?search=Big`)).body as Json[]
    expect(epics).toHaveLength(1)
    const epic = epics[0]
    expect(epic).toMatchObject({
      title: 'Big thing',
      description: 'Lots to do',
      state: 'opened',
      confidential: false,
      author: { username: 'rae' },
      labels: ['roadmap'],
      upvotes: 1,
      parent_id: parent.id,
    })
    const after = (await api(reporter.token, 'GET', iurl)).body
    expect(after).toMatchObject({ state: 'closed', closed_by: { username: 'rae' }, epic: { id: parent.id } })
    expect(s.app.burrow.db.prepare('SELECT promoted_to_epic_id AS p FROM issues WHERE id = ?').get(issue.id)).toEqual({
      p: epic.id,
    })

    const epicNotes = (await api(reporter.token, 'GET', `/groups/${group.id}/epics/${epic.id}/notes?sort=asc`))
      .body as Json[]
    // The promoting comment is saved before its command runs (as in GitLab), so it is copied too,
    // as are the issue's system notes; the new epic's parent link writes its own note.
    expect(epicNotes.map((n) => [n.body, n.system])).toEqual([
      [`added to epic &${parent.iid}`, true],
      ['an early comment', false],
      ['Bigger than an issue', false],
      [`added epic &${parent.iid} as parent epic`, true],
      [`promoted from issue promo/app#${issue.iid}`, true],
    ])
    const issueNotes = (await api(reporter.token, 'GET', `${iurl}/notes?sort=asc`)).body as Json[]
    expect(issueNotes.map((n) => [n.body, n.system])).toEqual([
      [`added to epic &${parent.iid}`, true],
      ['an early comment', false],
      ['Bigger than an issue', false],
      [`promoted to epic &${epic.iid}`, true],
    ])
  })

  it('answers 400 when the issue was promoted already', async () => {
    const issue = await newIssue({ title: 'Twice' })
    const url = `/projects/${project.id}/issues/${issue.iid}/notes`
    expect((await api(reporter.token, 'POST', url, { body: '/promote' })).statusCode).toBe(202)
    const again = await api(reporter.token, 'POST', url, { body: '/promote' })
    expect(again).toEqual({ statusCode: 400, body: { message: 'Issue already promoted to epic.' } })
  })

  it('answers 400 for a project outside any group', async () => {
    const personal = seedProject(s, { ownerId: reporter.user.id, path: 'mine' })
    const issue = (await api(reporter.token, 'POST', `/projects/${personal.id}/issues`, { title: 'Personal' })).body
    const res = await api(reporter.token, 'POST', `/projects/${personal.id}/issues/${issue.iid}/notes`, {
      body: 'x\n/promote',
    })
    expect(res).toEqual({
      statusCode: 400,
      body: { message: 'Cannot promote issue because it does not belong to a group.' },
    })
    expect((await api(reporter.token, 'GET', `/projects/${personal.id}/issues/${issue.iid}`)).body.state).toBe('opened')
    expect((await api(reporter.token, 'GET', `/projects/${personal.id}/issues/${issue.iid}/notes`)).body).toEqual([])
  })

  it('answers 403 when the caller may not create epics in the group, changing nothing', async () => {
    const issue = await newIssue({ title: 'Not yours to promote' })
    const url = `/projects/${project.id}/issues/${issue.iid}/notes`
    const res = await api(projectOnly.token, 'POST', url, { body: '/label ~x\n/promote' })
    expect(res).toEqual({ statusCode: 403, body: { message: 'Cannot promote issue due to insufficient permissions.' } })
    expect((await api(reporter.token, 'GET', `/projects/${project.id}/issues/${issue.iid}`)).body).toMatchObject({
      state: 'opened',
      labels: [],
    })
    expect((await api(reporter.token, 'GET', `/groups/${group.id}/epics`)).body).toEqual([])
  })

  it('answers 403 while epics are disabled', async () => {
    s.app.burrow.settings.update({ epics_enabled: false })
    const issue = await newIssue({ title: 'Feature off' })
    const res = await api(reporter.token, 'POST', `/projects/${project.id}/issues/${issue.iid}/notes`, {
      body: '/promote',
    })
    expect(res.statusCode).toBe(403)
  })

  it('leaves /promote as text for a Guest, as GitLab leaves commands the caller may not use', async () => {
    const issue = await newIssue({ title: 'Guest' })
    const res = await api(guest.token, 'POST', `/projects/${project.id}/issues/${issue.iid}/notes`, {
      body: 'please\n/promote',
    })
    expect(res).toMatchObject({ statusCode: 201, body: { body: 'please\n/promote' } })
  })

  it('keeps a confidential issue’s confidentiality on the new epic', async () => {
    const issue = await newIssue({ title: 'Quiet', confidential: true })
    expect(
      (await api(reporter.token, 'POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { body: '/promote' }))
        .statusCode,
    ).toBe(202)
    const epic = (await api(reporter.token, 'GET', `/groups/${group.id}/epics?search=Quiet`)).body[0]
    expect(epic.confidential).toBe(true)
  })
})
