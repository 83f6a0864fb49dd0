import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

type Json = Record<string, unknown>

describe('issue boards API', () => {
  let s: TestServer
  let group: NamespaceRow
  let project: ProjectRow
  let guest: SeededUser
  let reporter: SeededUser
  const labels: Record<string, number> = {}

  const base = (p: ProjectRow = project) => `/api/v4/projects/${p.id}/boards`
  const call = (token: string | null, method: string, url: string, payload?: Json) =>
    s.request(token, { method: method as 'GET', url, ...(payload ? { payload } : {}) })
  const asRoot = async (method: string, url: string, payload?: Json): Promise<Json & Json[]> => {
    const res = await call(ROOT_TOKEN, method, url, payload)
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
    return (res.body === '' ? {} : res.json()) as Json & Json[]
  }
  const listLabels = async (boardId: number): Promise<string[]> =>
    ((await asRoot('GET', `${base()}/${boardId}/lists`)) as Json[]).map((l) => String((l.label as Json).name))

  beforeAll(async () => {
    s = await makeServer()
    group = seedGroup(s, { path: 'crew', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'deck', visibility: 'private' })
    guest = seedUser(s)
    reporter = seedUser(s)
    seedMember(s, 'Project', project.id, guest.user.id, AccessLevel.GUEST)
    seedMember(s, 'Project', project.id, reporter.user.id, AccessLevel.REPORTER)
    for (const name of ['To Do', 'Doing', 'Review']) {
      labels[name] = Number(
        (await asRoot('POST', `/api/v4/projects/${project.id}/labels`, { name, color: '#428BCA' })).id,
      )
    }
    labels.Team = Number(
      (await asRoot('POST', `/api/v4/groups/${group.id}/labels`, { name: 'Team', color: '#00AA00' })).id,
    )
    await asRoot('POST', `/api/v4/projects/${project.id}/milestones`, { title: 'Sprint 1' })
  })
  afterAll(async () => {
    await s.close()
  })

  it('creates a board for Reporters, with its project and no lists, and lists the boards', async () => {
    const res = await call(reporter.token, 'POST', base(), { name: 'Development' })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toMatchObject({
      name: 'Development',
      hide_backlog_list: false,
      hide_closed_list: false,
      project: { id: project.id, path_with_namespace: 'crew/deck', web_url: 'http://burrow.test/crew/deck' },
      group: null,
      milestone: null,
      assignee: null,
      labels: [],
      weight: null,
      lists: [],
    })
    const listed = await call(guest.token, 'GET', base())
    expect(listed.statusCode).toBe(200)
    expect(listed.headers['x-total']).toBe('1')
    expect((listed.json() as Json[]).map((b) => b.name)).toEqual(['Development'])
  })

  it('refuses Guests writes, anonymous callers everything, and outsiders see nothing', async () => {
    expect((await call(guest.token, 'POST', base(), { name: 'Mine' })).statusCode).toBe(403)
    expect((await call(null, 'GET', base())).statusCode).toBe(401)
    expect((await call(seedUser(s).token, 'GET', base())).statusCode).toBe(404)
    const blank = await call(reporter.token, 'POST', base(), { name: ' ' })
    expect(blank.statusCode).toBe(400)
    expect(blank.json()).toEqual({ message: { name: ["can't be blank"] } })
    expect(((await asRoot('GET', base())) as Json[]).length).toBe(1)
  })

  it('adds label lists at the end, from the project and its groups, once each', async () => {
    const [board] = (await asRoot('GET', base())) as Json[]
    for (const name of ['To Do', 'Doing', 'Team']) {
      const res = await call(reporter.token, 'POST', `${base()}/${board.id}/lists`, { label_id: labels[name] })
      expect(res.statusCode, res.body).toBe(201)
    }
    const lists = (await asRoot('GET', `${base()}/${board.id}/lists`)) as Json[]
    expect(lists.map((l) => [(l.label as Json).name, l.position])).toEqual([
      ['To Do', 0],
      ['Doing', 1],
      ['Team', 2],
    ])
    expect(lists[0]).toMatchObject({
      label: { id: labels['To Do'], name: 'To Do', color: '#428BCA', description: null, text_color: '#FFFFFF' },
      max_issue_count: 0,
      max_issue_weight: 0,
      limit_metric: null,
    })
    const again = await call(reporter.token, 'POST', `${base()}/${board.id}/lists`, { label_id: labels['To Do'] })
    expect(again.statusCode).toBe(400)
    expect(again.json()).toEqual({ message: { label: ['has already been taken'] } })
    const elsewhere = seedProject(s, { namespaceId: group.id, path: 'other' })
    const foreign = Number(
      (await asRoot('POST', `/api/v4/projects/${elsewhere.id}/labels`, { name: 'Foreign', color: '#000000' })).id,
    )
    const missing = await call(reporter.token, 'POST', `${base()}/${board.id}/lists`, { label_id: foreign })
    expect(missing.statusCode).toBe(400)
    expect(missing.json()).toEqual({ error: 'Label not found!' })
    expect(await listLabels(Number(board.id))).toEqual(['To Do', 'Doing', 'Team'])
  })

  it('moves a list, the others shifting, and refuses its own or an impossible position', async () => {
    const [board] = (await asRoot('GET', base())) as Json[]
    const [todo] = (await asRoot('GET', `${base()}/${board.id}/lists`)) as Json[]
    const moved = await call(reporter.token, 'PUT', `${base()}/${board.id}/lists/${todo.id}`, { position: 2 })
    expect(moved.statusCode, moved.body).toBe(200)
    expect(moved.json()).toMatchObject({ id: todo.id, position: 2 })
    expect(await listLabels(Number(board.id))).toEqual(['Doing', 'Team', 'To Do'])
    for (const position of [2, 3, -1]) {
      const res = await call(reporter.token, 'PUT', `${base()}/${board.id}/lists/${todo.id}`, { position })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'List could not be moved!' })
    }
    expect((await call(guest.token, 'PUT', `${base()}/${board.id}/lists/${todo.id}`, { position: 0 })).statusCode).toBe(
      403,
    )
    expect(await listLabels(Number(board.id))).toEqual(['Doing', 'Team', 'To Do'])
  })

  it('deletes a list, the lists after it moving up, and a deleted label takes its lists with it', async () => {
    const [board] = (await asRoot('GET', base())) as Json[]
    const lists = (await asRoot('GET', `${base()}/${board.id}/lists`)) as Json[]
    const res = await call(reporter.token, 'DELETE', `${base()}/${board.id}/lists/${lists[0].id}`)
    expect(res.statusCode).toBe(204)
    const left = (await asRoot('GET', `${base()}/${board.id}/lists`)) as Json[]
    expect(left.map((l) => [(l.label as Json).name, l.position])).toEqual([
      ['Team', 0],
      ['To Do', 1],
    ])
    expect((await call(reporter.token, 'GET', `${base()}/${board.id}/lists/${lists[0].id}`)).statusCode).toBe(404)
    await asRoot('DELETE', `/api/v4/groups/${group.id}/labels/${labels.Team}`)
    expect(await listLabels(Number(board.id))).toEqual(['To Do'])
  })

  it("updates the name, hidden lists and scope; unknown scope values are left out as GitLab's filter does", async () => {
    const [board] = (await asRoot('GET', base())) as Json[]
    const milestone = (await asRoot('GET', `/api/v4/projects/${project.id}/milestones`))[0] as Json
    const res = await call(reporter.token, 'PUT', `${base()}/${board.id}`, {
      name: 'Sprint board',
      hide_backlog_list: true,
      milestone_id: milestone.id,
      assignee_id: reporter.user.id,
      labels: 'Doing,Nope',
      weight: 3,
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      name: 'Sprint board',
      hide_backlog_list: true,
      hide_closed_list: false,
      milestone: { id: milestone.id, title: 'Sprint 1', web_url: 'http://burrow.test/crew/deck/-/milestones/1' },
      assignee: { id: reporter.user.id },
      labels: [{ name: 'Doing' }],
      weight: 3,
    })
    const cleared = await call(reporter.token, 'PUT', `${base()}/${board.id}`, { milestone_id: 999_999, labels: '' })
    expect(cleared.json()).toMatchObject({ name: 'Sprint board', milestone: null, labels: [], weight: 3 })
  })

  it('keeps the last board: deleting it is refused, deleting another works', async () => {
    const [first] = (await asRoot('GET', base())) as Json[]
    const last = await call(reporter.token, 'DELETE', `${base()}/${first.id}`)
    expect(last.statusCode).toBe(400)
    expect(last.json()).toEqual({
      message: "The board could not be deleted, because the parent doesn't have any other boards.",
    })
    const second = await asRoot('POST', base(), { name: 'Ops' })
    expect((await call(guest.token, 'DELETE', `${base()}/${second.id}`)).statusCode).toBe(403)
    expect((await call(reporter.token, 'DELETE', `${base()}/${second.id}`)).statusCode).toBe(204)
    expect(((await asRoot('GET', base())) as Json[]).map((b) => b.name)).toEqual(['Sprint board'])
    expect((await call(reporter.token, 'GET', `${base()}/${second.id}`)).statusCode).toBe(404)
  })

  it('answers 403 when the issues feature is off', async () => {
    const closed = seedProject(s, { namespaceId: group.id, path: 'closed', visibility: 'public' })
    await asRoot('PUT', `/api/v4/projects/${closed.id}`, { issues_access_level: 'disabled' })
    expect((await call(reporter.token, 'GET', base(closed))).statusCode).toBe(403)
  })
})
