import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commitFiles, createProject, pipelinesOf } from '../helpers/ci'
import { makeServer, ROOT_TOKEN, type TestServer } from '../helpers/server'

type Json = Record<string, unknown>

/*
 * Ids and iids are never handed out twice, as in GitLab: a client's offline cache keys on them.
 * Each case deletes the newest row of its kind, the one SQLite would hand out again without
 * AUTOINCREMENT, and creates another.
 */
describe('ids are never reused', () => {
  let s: TestServer

  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: Json,
  ): Promise<{ status: number; body: Json }> => {
    const res = await s.request(ROOT_TOKEN, { method, url: `/api/v4${url}`, payload })
    return { status: res.statusCode, body: res.body === '' ? {} : (res.json() as Json) }
  }
  const created = async (url: string, payload: Json, field = 'id'): Promise<number> => {
    const res = await call('POST', url, payload)
    expect([url, res.status], JSON.stringify(res.body)).toEqual([url, 201])
    return res.body[field] as number
  }
  const deleted = async (url: string): Promise<void> => {
    const res = await call('DELETE', url)
    expect([url, res.status]).toEqual([url, expect.toSatisfy((status: number) => status >= 200 && status < 300)])
  }
  let projectId: number
  /** How many iid counters the database keeps for a project or group. */
  const counters = (scopeType: 'Project' | 'Namespace', id: number): number =>
    (
      s.app.burrow.db
        .prepare('SELECT COUNT(*) AS n FROM internal_ids WHERE scope_type = ? AND scope_id = ?')
        .get(scopeType, id) as { n: number }
    ).n

  beforeAll(async () => {
    s = await makeServer()
    projectId = await createProject(s, ROOT_TOKEN, { name: 'ids-home', path: 'ids-home' })
  })
  afterAll(async () => {
    await s.close()
  })

  it('a project created after the newest one was deleted gets a new id, its first issue is #1, and the deleted one leaves no iid counters', async () => {
    const doomed = await created('/projects', { name: 'doomed', path: 'doomed' })
    for (const title of ['one', 'two', 'three']) await created(`/projects/${doomed}/issues`, { title }, 'iid')
    expect(counters('Project', doomed)).toBe(1)
    await deleted(`/projects/${doomed}`)
    expect(counters('Project', doomed)).toBe(0)
    const next = await created('/projects', { name: 'next', path: 'next' })
    expect(next).toBeGreaterThan(doomed)
    expect(await created(`/projects/${next}/issues`, { title: 'first' }, 'iid')).toBe(1)
  })

  it('a user created after the newest one was deleted gets a new id; the projects deleted with it leave no iid counters', async () => {
    const user = (n: string) => ({
      username: n,
      name: n,
      email: `${n}@example.com`,
      password: 'Secret-Passw0rd!',
      skip_confirmation: true,
    })
    const first = await created('/users', user('gone-user'))
    const personal = await created(`/projects/user/${first}`, { name: 'personal', path: 'personal' })
    await created(`/projects/${personal}/issues`, { title: 'an issue' })
    await deleted(`/users/${first}?hard_delete=true`)
    expect(counters('Project', personal)).toBe(0)
    expect((await call('GET', `/users/${first}`)).status).toBe(404)
    expect(await created('/users', user('new-user'))).toBeGreaterThan(first)
  })

  it('a group created after the newest one was deleted gets a new id; the deleted group and its projects leave no iid counters', async () => {
    const first = await created('/groups', { name: 'gone-group', path: 'gone-group' })
    const inside = await created('/projects', { name: 'inside', path: 'inside', namespace_id: first })
    await created(`/groups/${first}/epics`, { title: 'an epic' })
    await created(`/projects/${inside}/issues`, { title: 'an issue' })
    await deleted(`/groups/${first}`)
    expect([counters('Namespace', first), counters('Project', inside)]).toEqual([0, 0])
    expect(await created('/groups', { name: 'new-group', path: 'new-group' })).toBeGreaterThan(first)
  })

  it('issues, merge requests, notes, labels and milestones created after the newest was deleted get new ids', async () => {
    const base = `/projects/${projectId}`
    const issue = await created(`${base}/issues`, { title: 'kept' }, 'iid')
    await commitFiles(s, ROOT_TOKEN, projectId, 'topic', { 'topic.txt': 'x' }, { startBranch: 'main' })
    /** Where to create one, what to send each time, and where the created one is deleted. */
    const kinds: {
      readonly create: string
      readonly payload: (n: number) => Json
      readonly remove: (created: Json) => string
    }[] = [
      {
        create: `${base}/issues`,
        payload: (n) => ({ title: `issue ${n}` }),
        remove: (c) => `${base}/issues/${c.iid as number}`,
      },
      {
        create: `${base}/merge_requests`,
        payload: (n) => ({ source_branch: 'topic', target_branch: 'main', title: `mr ${n}` }),
        remove: (c) => `${base}/merge_requests/${c.iid as number}`,
      },
      {
        create: `${base}/issues/${issue}/notes`,
        payload: (n) => ({ body: `comment ${n}` }),
        remove: (c) => `${base}/issues/${issue}/notes/${c.id as number}`,
      },
      {
        create: `${base}/labels`,
        payload: (n) => ({ name: `label ${n}`, color: '#ff0000' }),
        remove: (c) => `${base}/labels/${c.id as number}`,
      },
      {
        create: `${base}/milestones`,
        payload: (n) => ({ title: `milestone ${n}` }),
        remove: (c) => `${base}/milestones/${c.id as number}`,
      },
    ]
    for (const kind of kinds) {
      const first = await call('POST', kind.create, kind.payload(1))
      expect([kind.create, first.status]).toEqual([kind.create, 201])
      await deleted(kind.remove(first.body))
      const again = await call('POST', kind.create, kind.payload(2))
      expect([kind.create, again.status]).toEqual([kind.create, 201])
      expect([kind.create, again.body.id]).toEqual([
        kind.create,
        expect.toSatisfy((id: number) => id > (first.body.id as number)),
      ])
    }
  })

  it('deleting the newest issue does not free its iid', async () => {
    const base = `/projects/${projectId}`
    const newest = await created(`${base}/issues`, { title: 'newest' }, 'iid')
    await deleted(`${base}/issues/${newest}`)
    expect(await created(`${base}/issues`, { title: 'after' }, 'iid')).toBe(newest + 1)
  })

  it('deleting the newest merge request, milestone or epic does not free its iid', async () => {
    const base = `/projects/${projectId}`
    await commitFiles(s, ROOT_TOKEN, projectId, 'iid-topic', { 'iid.txt': 'x' }, { startBranch: 'main' })
    const mr = await call('POST', `${base}/merge_requests`, {
      source_branch: 'iid-topic',
      target_branch: 'main',
      title: 'newest',
    })
    expect(mr.status).toBe(201)
    await deleted(`${base}/merge_requests/${mr.body.iid as number}`)
    const mrAgain = await call('POST', `${base}/merge_requests`, {
      source_branch: 'iid-topic',
      target_branch: 'main',
      title: 'after',
    })
    expect(mrAgain.body.iid).toBe((mr.body.iid as number) + 1)

    const milestone = await call('POST', `${base}/milestones`, { title: 'newest milestone' })
    await deleted(`${base}/milestones/${milestone.body.id as number}`)
    const milestoneAgain = await call('POST', `${base}/milestones`, { title: 'after milestone' })
    expect(milestoneAgain.body.iid).toBe((milestone.body.iid as number) + 1)

    const group = await created('/groups', { name: 'iid-group', path: 'iid-group' })
    const epic = await call('POST', `/groups/${group}/epics`, { title: 'newest epic' })
    await deleted(`/groups/${group}/epics/${epic.body.iid as number}`)
    const epicAgain = await call('POST', `/groups/${group}/epics`, { title: 'after epic' })
    expect([epicAgain.body.iid, epicAgain.body.id]).toEqual([
      (epic.body.iid as number) + 1,
      expect.toSatisfy((id: number) => id > (epic.body.id as number)),
    ])
  })

  it('a pipeline created after the newest one was deleted gets a new id', async () => {
    await commitFiles(s, ROOT_TOKEN, projectId, 'main', { '.gitlab-ci.yml': 'build:\n  script: make\n' })
    const [first] = await pipelinesOf(s, ROOT_TOKEN, projectId)
    await deleted(`/projects/${projectId}/pipelines/${first.id}`)
    const again = await created(`/projects/${projectId}/pipeline?ref=main`, {})
    expect(again).toBeGreaterThan(first.id)
  })
})
