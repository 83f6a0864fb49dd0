import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let s: TestServer
let group: NamespaceRow
let other: NamespaceRow
let project: ProjectRow
let reporter: SeededUser
let guest: SeededUser

async function call(
  token: string,
  method: 'GET' | 'POST',
  url: string,
  payload?: Json,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ statusCode: number; body: any }> {
  const res = await s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
  return { statusCode: res.statusCode, body: res.body ? JSON.parse(res.body) : null }
}
async function epic(g: NamespaceRow, payload: Json): Promise<Json> {
  const r = await call(reporter.token, 'POST', `/groups/${g.id}/epics`, payload)
  expect(r.statusCode).toBe(201)
  return r.body as Json
}
async function issue(title: string): Promise<Json> {
  return (await call(reporter.token, 'POST', `/projects/${project.id}/issues`, { title })).body as Json
}
const comment = (e: Json, body: string, token = reporter.token) =>
  call(token, 'POST', `/groups/${e.group_id}/epics/${e.id}/notes`, { body })
const reload = async (e: Json): Promise<Json> =>
  (await call(reporter.token, 'GET', `/groups/${e.group_id}/epics/${e.iid}`)).body as Json

beforeAll(async () => {
  s = await makeServer()
  group = seedGroup(s, { path: 'qa', visibility: 'private' })
  other = seedGroup(s, { path: 'elsewhere', visibility: 'private' })
  project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'private' })
  reporter = seedUser(s, { username: 'rhea' })
  guest = seedUser(s, { username: 'gus' })
  seedMember(s, 'Namespace', group.id, reporter.user.id, AccessLevel.REPORTER)
  seedMember(s, 'Namespace', other.id, reporter.user.id, AccessLevel.REPORTER)
  seedMember(s, 'Namespace', group.id, guest.user.id, AccessLevel.GUEST)
})
afterAll(async () => s.close())

describe('issue quick actions for epics', () => {
  it('/epic &iid adds the issue to an epic of its group; /remove_epic takes it out', async () => {
    const e = await epic(group, { title: 'Target' })
    const i = await issue('joins')
    const added = await call(reporter.token, 'POST', `/projects/${project.id}/issues/${i.iid}/notes`, {
      body: `/epic &${e.iid}`,
    })
    expect(added).toEqual({
      statusCode: 202,
      body: { commands_changes: { epic: e.id }, summary: ['Added an issue to an epic.'] },
    })
    expect((await call(reporter.token, 'GET', `/projects/${project.id}/issues/${i.iid}`)).body.epic).toMatchObject({
      id: e.id,
      iid: e.iid,
    })
    const removed = await call(reporter.token, 'POST', `/projects/${project.id}/issues/${i.iid}/notes`, {
      body: 'Not this one\n/remove_epic',
    })
    expect(removed.statusCode).toBe(201)
    expect(removed.body.body).toBe('Not this one')
    expect((await call(reporter.token, 'GET', `/projects/${project.id}/issues/${i.iid}`)).body.epic).toBeNull()
  })

  it('/epic takes the group path form and the epic URL', async () => {
    const e = await epic(group, { title: 'By path' })
    const i = await issue('by path')
    await call(reporter.token, 'POST', `/projects/${project.id}/issues/${i.iid}/notes`, { body: `/epic qa&${e.iid}` })
    expect((await call(reporter.token, 'GET', `/projects/${project.id}/issues/${i.iid}`)).body.epic.id).toBe(e.id)
    const f = await epic(group, { title: 'By URL' })
    await call(reporter.token, 'POST', `/projects/${project.id}/issues/${i.iid}/notes`, { body: `/epic ${f.web_url}` })
    expect((await call(reporter.token, 'GET', `/projects/${project.id}/issues/${i.iid}`)).body.epic.id).toBe(f.id)
  })

  it('refuses an epic outside the project’s group hierarchy, or one that does not exist, changing nothing', async () => {
    const outside = await epic(other, { title: 'Outside' })
    const i = await issue('stays')
    const r = await call(reporter.token, 'POST', `/projects/${project.id}/issues/${i.iid}/notes`, {
      body: `/epic elsewhere&${outside.iid}`,
    })
    expect(r.body.summary).toEqual(["This epic does not exist or you don't have sufficient permission."])
    await call(reporter.token, 'POST', `/projects/${project.id}/issues/${i.iid}/notes`, { body: '/epic &999' })
    expect((await call(reporter.token, 'GET', `/projects/${project.id}/issues/${i.iid}`)).body.epic).toBeNull()
  })

  it('leaves /epic as text for a Guest and /remove_epic when the issue has no epic', async () => {
    const i = await issue('guest try')
    const r = await call(guest.token, 'POST', `/projects/${project.id}/issues/${i.iid}/notes`, { body: '/epic &1' })
    expect(r.body.body).toBe('/epic &1')
    expect(
      (await call(reporter.token, 'POST', `/projects/${project.id}/issues/${i.iid}/notes`, { body: '/remove_epic' }))
        .body.body,
    ).toBe('/remove_epic')
  })

  it('never offers the epic family’s own commands on issues', async () => {
    const i = await issue('no parents')
    expect(
      (await call(reporter.token, 'POST', `/projects/${project.id}/issues/${i.iid}/notes`, { body: '/parent_epic &1' }))
        .body.body,
    ).toBe('/parent_epic &1')
  })
})

describe('epic quick actions', () => {
  it('/label, /unlabel, /title, /close and /reopen change the epic', async () => {
    const e = await epic(group, { title: 'Quick', labels: 'old' })
    const r = await comment(e, 'Tidying up\n/label ~new ~"two words"\n/unlabel ~old\n/title Quicker\n/close')
    expect(r.statusCode).toBe(201)
    expect(r.body.body).toBe('Tidying up')
    expect(await reload(e)).toMatchObject({ title: 'Quicker', state: 'closed', labels: ['new', 'two words'] })
    expect((await comment(e, '/reopen')).body.summary).toEqual(['Reopened this epic.'])
    expect((await reload(e)).state).toBe('opened')
  })

  it('/parent_epic and /remove_parent_epic set and clear the parent', async () => {
    const parent = await epic(group, { title: 'Parent' })
    const child = await epic(group, { title: 'Child' })
    expect((await comment(child, `/parent_epic &${parent.iid}`)).body).toEqual({
      commands_changes: { parent_epic: parent.id },
      summary: [`Set &${parent.iid} as the parent epic.`],
    })
    expect((await reload(child)).parent_id).toBe(parent.id)
    await comment(child, '/remove_parent_epic')
    expect((await reload(child)).parent_id).toBeNull()
  })

  it('/child_epic and /remove_child_epic add and remove children', async () => {
    const parent = await epic(group, { title: 'Has children' })
    const child = await epic(group, { title: 'Adopted' })
    await comment(parent, `/child_epic &${child.iid}`)
    const children = (await call(reporter.token, 'GET', `/groups/${group.id}/epics/${parent.iid}/epics`)).body as Json[]
    expect(children.map((c) => c.id)).toEqual([child.id])
    expect((await comment(parent, `/remove_child_epic &${child.iid}`)).body.summary).toEqual([
      `Removed &${child.iid} from child epics.`,
    ])
    expect((await reload(child)).parent_id).toBeNull()
  })

  it('answers GitLab’s hierarchy error for a parent that would make a cycle, saving nothing', async () => {
    const a = await epic(group, { title: 'A' })
    const b = await epic(group, { title: 'B', parent_id: a.id })
    const r = await comment(a, `Loop\n/parent_epic &${b.iid}`)
    expect(r.statusCode).toBe(400)
    expect((await reload(a)).parent_id).toBeNull()
    // Only the system note of B's creation under A: neither the comment nor a hierarchy note was saved.
    const notes = (await call(reporter.token, 'GET', `/groups/${group.id}/epics/${a.id}/notes`)).body as Json[]
    expect(notes.map((n) => [n.body, n.system])).toEqual([[`added epic &${b.iid} as child epic`, true]])
  })

  it('leaves the commands as text for a Guest', async () => {
    const e = await epic(group, { title: 'Guarded' })
    const r = await comment(e, '/close', guest.token)
    expect(r.statusCode).toBe(201)
    expect(r.body.body).toBe('/close')
    expect((await reload(e)).state).toBe('opened')
  })
})
