import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { commitFiles, makeWorkRepo, remoteUrl, sh } from '../helpers/git'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let s: ListeningServer
let group: NamespaceRow
let project: ProjectRow
let dev: SeededUser
let guest: SeededUser

const api = async (
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: Json,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ statusCode: number; body: any; headers: Json }> => {
  const res = await s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
  return { statusCode: res.statusCode, body: res.body ? JSON.parse(res.body) : null, headers: res.headers }
}
const isoDay = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)

beforeAll(async () => {
  s = await startServer()
  group = seedGroup(s, { path: 'charts', visibility: 'private' })
  project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'private' })
  dev = seedUser(s)
  guest = seedUser(s)
  seedMember(s, 'Namespace', group.id, dev.user.id, AccessLevel.DEVELOPER)
  seedMember(s, 'Project', project.id, guest.user.id, AccessLevel.GUEST)
})
afterAll(async () => s.close())

describe('burndown events', () => {
  it('lists created, closed and reopened events of the milestone’s issues with their weights', async () => {
    const m = (
      await api(dev.token, 'POST', `/projects/${project.id}/milestones`, {
        title: 'sprint',
        start_date: isoDay(-10),
        due_date: isoDay(10),
      })
    ).body
    const a = (
      await api(dev.token, 'POST', `/projects/${project.id}/issues`, { title: 'a', weight: 3, milestone_id: m.id })
    ).body
    const b = (
      await api(dev.token, 'POST', `/projects/${project.id}/issues`, { title: 'b', weight: 5, milestone_id: m.id })
    ).body
    await api(dev.token, 'POST', `/projects/${project.id}/issues`, { title: 'outside', weight: 8 })
    const secret = (
      await api(dev.token, 'POST', `/projects/${project.id}/issues`, {
        title: 'secret',
        confidential: true,
        milestone_id: m.id,
      })
    ).body
    const aUrl = `/projects/${project.id}/issues/${a.iid}`
    await api(dev.token, 'PUT', aUrl, { state_event: 'close' })
    await api(dev.token, 'PUT', aUrl, { state_event: 'reopen' })
    await api(dev.token, 'PUT', aUrl, { state_event: 'close' })

    const r = await api(dev.token, 'GET', `/projects/${project.id}/milestones/${m.id}/burndown_events`)
    expect(r.statusCode).toBe(200)
    const events = r.body as Json[]
    expect(events.map((e) => [e.action, e.weight])).toEqual([
      ['created', 3],
      ['closed', 3],
      ['reopened', 3],
      ['closed', 3],
      ['created', 5],
      ['created', null],
    ])
    expect(events[0]).toEqual({ created_at: a.created_at, weight: 3, action: 'created' })
    expect(events.find((e) => e.weight === 5)?.created_at).toBe(b.created_at)
    // Confidential issues count only for callers who can see them.
    const asGuest = (await api(guest.token, 'GET', `/projects/${project.id}/milestones/${m.id}/burndown_events`))
      .body as Json[]
    expect(asGuest).toHaveLength(5)
    expect(asGuest.some((e) => e.created_at === secret.created_at && e.weight === null)).toBe(false)
  })

  it('dates a closed issue without a closed event at the milestone start', async () => {
    const m = (
      await api(dev.token, 'POST', `/projects/${project.id}/milestones`, {
        title: 'legacy',
        start_date: isoDay(-5),
        due_date: isoDay(5),
      })
    ).body
    const i = (
      await api(dev.token, 'POST', `/projects/${project.id}/issues`, {
        title: 'closed long ago',
        milestone_id: m.id,
        weight: 2,
      })
    ).body
    s.app.burrow.db
      .prepare("UPDATE issues SET state = 'closed', closed_at = ? WHERE id = ?")
      .run(new Date().toISOString(), i.id)
    const events = (await api(dev.token, 'GET', `/projects/${project.id}/milestones/${m.id}/burndown_events`))
      .body as Json[]
    expect(events).toEqual([
      { created_at: i.created_at, weight: 2, action: 'created' },
      { created_at: `${isoDay(-5)}T00:00:00.000Z`, weight: 2, action: 'closed' },
    ])
  })

  it('answers an empty chart for a milestone without start or due date', async () => {
    const m = (await api(dev.token, 'POST', `/projects/${project.id}/milestones`, { title: 'undated' })).body
    await api(dev.token, 'POST', `/projects/${project.id}/issues`, { title: 'x', milestone_id: m.id })
    expect((await api(dev.token, 'GET', `/projects/${project.id}/milestones/${m.id}/burndown_events`)).body).toEqual([])
  })

  it('serves group milestones from every project of the group', async () => {
    const m = (
      await api(dev.token, 'POST', `/groups/${group.id}/milestones`, {
        title: 'group sprint',
        start_date: isoDay(-3),
        due_date: isoDay(3),
      })
    ).body
    const other = seedProject(s, { namespaceId: group.id, path: 'other', visibility: 'private' })
    await api(dev.token, 'POST', `/projects/${project.id}/issues`, { title: 'g1', milestone_id: m.id, weight: 1 })
    await api(dev.token, 'POST', `/projects/${other.id}/issues`, { title: 'g2', milestone_id: m.id, weight: 2 })
    const events = (await api(dev.token, 'GET', `/groups/${group.id}/milestones/${m.id}/burndown_events`))
      .body as Json[]
    expect(events.map((e) => e.weight).sort()).toEqual([1, 2])
  })
})

describe('deleting a milestone', () => {
  it('clears milestone_id on its issues and merge requests and marks them updated', async () => {
    const work = makeWorkRepo()
    commitFiles(work, { 'README.md': '# app\n' }, 'Initial commit')
    const url = remoteUrl(s.url, `${group.full_path}/app`, dev.token)
    await sh(work, 'push', '--quiet', url, 'main')
    await sh(work, 'checkout', '--quiet', '-b', 'feature', 'main')
    commitFiles(work, { 'f.txt': 'f\n' }, 'Add f')
    await sh(work, 'push', '--quiet', url, 'feature')

    const m = (await api(dev.token, 'POST', `/projects/${project.id}/milestones`, { title: 'to delete' })).body
    const issue = (
      await api(dev.token, 'POST', `/projects/${project.id}/issues`, { title: 'held', milestone_id: m.id })
    ).body
    const mr = (
      await api(dev.token, 'POST', `/projects/${project.id}/merge_requests`, {
        source_branch: 'feature',
        target_branch: 'main',
        title: 'held mr',
        milestone_id: m.id,
      })
    ).body
    expect(issue.milestone.id).toBe(m.id)
    expect(mr.milestone.id).toBe(m.id)

    expect((await api(dev.token, 'DELETE', `/projects/${project.id}/milestones/${m.id}`)).statusCode).toBe(204)
    const issueAfter = (await api(dev.token, 'GET', `/projects/${project.id}/issues/${issue.iid}`)).body
    const mrAfter = (await api(dev.token, 'GET', `/projects/${project.id}/merge_requests/${mr.iid}`)).body
    expect(issueAfter.milestone).toBeNull()
    expect(mrAfter.milestone).toBeNull()
    expect(issueAfter.updated_at > issue.updated_at).toBe(true)
    expect(mrAfter.updated_at > mr.updated_at).toBe(true)
    const none = (await api(dev.token, 'GET', `/projects/${project.id}/issues?milestone=None&search=held`))
      .body as Json[]
    expect(none.map((i) => i.iid)).toEqual([issue.iid])
  })
})
