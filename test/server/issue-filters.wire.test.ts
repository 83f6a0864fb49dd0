import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The issue list parameters as each real client encodes them (python-gitlab: `not` as a dict,
 * lists as `name[]=`; @gitbeaker/rest: camelCase options, `not` as an object): every filter of the
 * spec's list reaches the server and filters the same way as through inject.
 */
describe('issue list parameters over the wire', () => {
  let s: ListeningServer
  let project: ProjectRow
  let dev: SeededUser
  const day = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)

  beforeAll(async () => {
    s = await startServer()
    const group = seedGroup(s, { path: 'wire-filters', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'private' })
    dev = seedUser(s, { username: 'filter_dev' })
    seedMember(s, 'Namespace', group.id, dev.user.id, AccessLevel.DEVELOPER)
    const api = async (method: string, path: string, body: Json): Promise<Json> => {
      const res = await s.request(ROOT_TOKEN, {
        method: method as 'POST',
        url: `/api/v4/projects/${project.id}${path}`,
        payload: body,
      })
      expect(res.statusCode).toBeLessThan(300)
      return res.json() as Json
    }
    const soon = await api('POST', '/milestones', { title: 'soon', due_date: day(7) })
    await api('POST', '/issues', {
      title: 'Crash on save',
      description: 'stack trace',
      labels: 'bug,ui',
      assignee_ids: [dev.user.id],
      milestone_id: soon.id,
      weight: 3,
      due_date: day(-1),
    })
    await api('POST', '/issues', { title: 'Dark mode', labels: 'feature', confidential: true, issue_type: 'incident' })
    const closed = await api('POST', '/issues', { title: 'Old crash', description: 'fixed long ago', labels: 'bug' })
    await api('PUT', `/issues/${closed.iid}`, { state_event: 'close' })
    await api('POST', '/issues/2/award_emoji', { name: 'thumbsup' })
    const dark = await s.request(dev.token, {
      method: 'POST',
      url: `/api/v4/projects/${project.id}/issues/2/award_emoji`,
      payload: { name: 'rocket' },
    })
    expect(dark.statusCode).toBe(201)
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab', async () => {
    const r = await withPythonGitlab<Record<string, string[]>>(
      s.url,
      { private_token: dev.token },
      `
p = gl.projects.get(${project.id}, lazy=True)
def titles(**kw):
    return sorted(i.title for i in p.issues.list(get_all=True, **kw))
out({
  'labels': titles(labels=['bug', 'ui']),
  'labels_none': titles(labels='None'),
  'not_labels': titles(**{'not': {'labels': 'bug'}}),
  'iids': titles(iids=[1, 3]),
  'not_iids': titles(**{'not': {'iids': [1]}}),
  'state': titles(state='closed'),
  'assignee': titles(assignee_username='filter_dev'),
  'assignee_none': titles(assignee_id='None'),
  'milestone_upcoming': titles(milestone_id='Upcoming'),
  'milestone_none': titles(milestone='None'),
  'search_in': titles(search='crash', **{'in': 'title'}),
  'search_desc': titles(search='trace', **{'in': 'description'}),
  'confidential': titles(confidential=True),
  'issue_type': titles(issue_type='incident'),
  'weight': titles(weight=3),
  'due_overdue': titles(due_date='overdue'),
  'reaction': titles(my_reaction_emoji='rocket'),
  'order': [i.title for i in p.issues.list(get_all=True, order_by='title', sort='asc')],
  'global': sorted(i.title for i in gl.issues.list(get_all=True, scope='all', labels='bug', state='opened')),
  'group': sorted(i.title for i in gl.groups.get('wire-filters', lazy=True).issues.list(get_all=True, search='crash')),
})
`,
    )
    expect(r).toEqual({
      labels: ['Crash on save'],
      labels_none: [],
      not_labels: ['Dark mode'],
      iids: ['Crash on save', 'Old crash'],
      not_iids: ['Dark mode', 'Old crash'],
      state: ['Old crash'],
      assignee: ['Crash on save'],
      assignee_none: ['Dark mode', 'Old crash'],
      milestone_upcoming: ['Crash on save'],
      milestone_none: ['Dark mode', 'Old crash'],
      search_in: ['Crash on save', 'Old crash'],
      search_desc: ['Crash on save'],
      confidential: ['Dark mode'],
      issue_type: ['Dark mode'],
      weight: ['Crash on save'],
      due_overdue: ['Crash on save'],
      reaction: ['Dark mode'],
      order: ['Crash on save', 'Dark mode', 'Old crash'],
      global: ['Crash on save'],
      group: ['Crash on save', 'Old crash'],
    })
  })

  it('@gitbeaker/rest', async () => {
    const api = new Gitlab({ host: s.url, token: dev.token })
    const titles = async (options: Json): Promise<string[]> =>
      ((await api.Issues.all({ projectId: project.id, ...options })) as Json[]).map((i) => i.title as string).sort()
    expect(await titles({ labels: 'bug', state: 'opened' })).toEqual(['Crash on save'])
    expect(await titles({ not: { labels: 'feature' } })).toEqual(['Crash on save', 'Old crash'])
    expect(await titles({ iids: [2] })).toEqual(['Dark mode'])
    expect(await titles({ assigneeId: dev.user.id })).toEqual(['Crash on save'])
    expect(await titles({ milestone: 'soon' })).toEqual(['Crash on save'])
    expect(await titles({ myReactionEmoji: 'Any' })).toEqual(['Dark mode'])
    expect(
      await titles({ createdAfter: '2000-01-01T00:00:00Z', updatedBefore: '2999-01-01T00:00:00Z', issueType: 'issue' }),
    ).toEqual(['Crash on save', 'Old crash'])
    const detailed = (await api.Issues.all({ projectId: project.id, iids: [1], withLabelsDetails: true })) as Json[]
    expect(detailed[0].labels.map((l: Json) => l.name)).toEqual(['bug', 'ui'])
    const stats = await api.IssuesStatistics.all({ projectId: project.id, labels: 'bug' })
    expect(stats).toEqual({ statistics: { counts: { all: 2, closed: 1, opened: 1 } } })
  })
})
