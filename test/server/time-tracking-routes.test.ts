import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedProject } from '../helpers/fixtures'
import { commitFiles, makeWorkRepo, remoteUrl, sh } from '../helpers/git'
import { ROOT_TOKEN, startServer, type ListeningServer } from '../helpers/server'

type Json = Record<string, unknown>

const ESTIMATE_REFUSED = {
  message: '400 Bad request - Time estimate must have a valid format and be greater than or equal to zero.',
}
const NO_TIME_SPENT = { message: { 'timelogs.time_spent': ["can't be blank"] } }

// Each bad input, as JSON and as a form, with GitLab's answer: the same for issues and merge requests.
const BAD_INPUT: readonly {
  readonly endpoint: 'time_estimate' | 'add_spent_time'
  readonly input: string
  readonly body: Json | string
  readonly answer: Json
}[] = [
  { endpoint: 'time_estimate', input: 'no duration', body: {}, answer: { error: 'duration is missing' } },
  { endpoint: 'time_estimate', input: 'not a duration', body: { duration: 'soon' }, answer: ESTIMATE_REFUSED },
  { endpoint: 'time_estimate', input: 'an empty duration', body: { duration: '' }, answer: ESTIMATE_REFUSED },
  { endpoint: 'time_estimate', input: 'a null duration', body: { duration: null }, answer: ESTIMATE_REFUSED },
  { endpoint: 'time_estimate', input: 'a negative estimate', body: { duration: '-1h' }, answer: ESTIMATE_REFUSED },
  { endpoint: 'time_estimate', input: 'a hash', body: 'duration[a]=b', answer: { error: 'duration is invalid' } },
  {
    endpoint: 'add_spent_time',
    input: 'no duration',
    body: { summary: 'x' },
    answer: { error: 'duration is missing' },
  },
  { endpoint: 'add_spent_time', input: 'not a duration', body: { duration: 'soon' }, answer: NO_TIME_SPENT },
  { endpoint: 'add_spent_time', input: 'a zero duration', body: { duration: '0h' }, answer: NO_TIME_SPENT },
  {
    endpoint: 'add_spent_time',
    input: 'more subtracted than spent',
    body: { duration: '-3h' },
    answer: { message: { base: ['Time to subtract exceeds the total time spent'] } },
  },
  { endpoint: 'add_spent_time', input: 'a hash', body: 'duration[a]=b', answer: { error: 'duration is invalid' } },
]

describe('time tracking routes, shared by issues and merge requests', () => {
  let s: ListeningServer
  let project: ProjectRow
  const kinds = (): { kind: string; base: string }[] => [
    { kind: 'issue', base: `/api/v4/projects/${project.id}/issues/1` },
    { kind: 'merge request', base: `/api/v4/projects/${project.id}/merge_requests/1` },
  ]
  const post = (url: string, body: Json | string) =>
    s.request(ROOT_TOKEN, {
      method: 'POST',
      url,
      payload: body,
      headers: typeof body === 'string' ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
    })
  const state = async (base: string): Promise<{ stats: Json; notes: number }> => ({
    stats: (await s.request(ROOT_TOKEN, { method: 'GET', url: `${base}/time_stats` })).json(),
    notes: ((await s.request(ROOT_TOKEN, { method: 'GET', url: `${base}/notes?per_page=100` })).json() as Json[])
      .length,
  })

  beforeAll(async () => {
    s = await startServer()
    const group = seedGroup(s, { path: 'timed', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'app' })
    const work = makeWorkRepo()
    commitFiles(work, { 'README.md': '# app\n' }, 'Initial commit')
    const url = remoteUrl(s.url, 'timed/app', ROOT_TOKEN)
    await sh(work, 'push', '--quiet', url, 'main')
    await sh(work, 'checkout', '--quiet', '-b', 'feature', 'main')
    commitFiles(work, { 'feature.txt': 'feature\n' }, 'Add feature')
    await sh(work, 'push', '--quiet', url, 'feature')
    const api = `/api/v4/projects/${project.id}`
    expect((await post(`${api}/issues`, { title: 'Timed' })).statusCode).toBe(201)
    const mr = await post(`${api}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'Timed' })
    expect(mr.statusCode, mr.body).toBe(201)
    for (const { base } of kinds()) {
      expect((await post(`${base}/time_estimate`, { duration: '2h' })).statusCode).toBe(200)
      expect((await post(`${base}/add_spent_time`, { duration: '1h' })).statusCode).toBe(201)
    }
  })
  afterAll(async () => {
    await s.close()
  })

  for (const { endpoint, input, body, answer } of BAD_INPUT) {
    it(`answers ${endpoint} with ${input} alike for both kinds, changing nothing`, async () => {
      for (const { kind, base } of kinds()) {
        const before = await state(base)
        const res = await post(`${base}/${endpoint}`, body)
        expect([kind, res.statusCode, res.json()]).toEqual([kind, 400, answer])
        expect(await state(base)).toEqual(before)
      }
    })
  }

  it('accepts a zero estimate and subtracting what was spent, for both kinds', async () => {
    for (const { kind, base } of kinds()) {
      const estimate = await post(`${base}/time_estimate`, { duration: '0' })
      expect([kind, estimate.statusCode, estimate.json()]).toMatchObject([kind, 200, { time_estimate: 0 }])
      const spent = await post(`${base}/add_spent_time`, { duration: '-1h', summary: 'undo' })
      expect([kind, spent.statusCode, spent.json()]).toMatchObject([kind, 201, { total_time_spent: 0 }])
    }
  })
})
