import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

describe('issues over the wire', () => {
  let s: ListeningServer
  let project: ProjectRow
  let developer: SeededUser

  beforeAll(async () => {
    s = await startServer()
    const group = seedGroup(s, { path: 'wire-iss', visibility: 'public' })
    project = seedProject(s, { namespaceId: group.id, path: 'wire-app', visibility: 'public' })
    developer = seedUser(s, { username: 'wire_iss_dev' })
    seedMember(s, 'Namespace', group.id, developer.user.id, 30)
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab creates, lists, closes, tracks time, subscribes, to-dos and awards', async () => {
    const r = await withPythonGitlab<Record<string, unknown>>(
      s.url,
      { private_token: developer.token },
      `
project = gl.projects.get(${project.id}, lazy=True)
a = project.issues.create({'title': 'py one', 'labels': ['bug', 'ui']})
b = project.issues.create({'title': 'py two', 'description': '- [x] done\\n- [ ] todo'})
opened = sorted(i.title for i in project.issues.list(state='opened', labels=['bug'], scope='all', get_all=True))
by_iid = [i.title for i in gl.issues.list(scope='all', iids=[b.iid], get_all=True)]
a.state_event = 'close'
a.save()
closed = [i.iid for i in project.issues.list(state='closed', get_all=True)]
est = b.time_estimate('3h30m')
spent = b.add_spent_time('1h')
# time_stats() answers from the cached attributes when present, so fetch afresh.
stats = project.issues.get(b.iid).time_stats()
b.unsubscribe()
b.subscribe()
todo = b.todo()
award = b.awardemojis.create({'name': 'thumbsup'})
again = project.issues.get(b.iid)
out({'a_iid': a.iid, 'b_iid': b.iid, 'opened': opened, 'by_iid': by_iid, 'closed': closed, 'est': est, 'spent': spent, 'stats': stats,
     'subscribed': b.subscribed, 'award': award.name, 'upvotes': again.upvotes, 'task_status': again.task_status, 'state': a.state})
`,
    )
    expect(r).toMatchObject({
      a_iid: 1,
      b_iid: 2,
      opened: ['py one'],
      by_iid: ['py two'],
      closed: [1],
      subscribed: true,
      award: 'thumbsup',
      upvotes: 1,
      task_status: '1 of 2 checklist items completed',
      state: 'closed',
    })
    expect(r.est).toMatchObject({ time_estimate: 12600, human_time_estimate: '3h 30m' })
    expect(r.spent).toMatchObject({ total_time_spent: 3600, human_total_time_spent: '1h' })
    expect(r.stats).toMatchObject({ time_estimate: 12600, total_time_spent: 3600 })
  })

  it('@gitbeaker/rest creates, lists, edits, shows and counts issues', async () => {
    const api = new Gitlab({ host: s.url, token: developer.token })
    const created = await api.Issues.create(project.id, 'gb issue', { labels: 'gb', description: 'hello' })
    expect(created.iid).toBeGreaterThan(0)
    const all = await api.Issues.all({ projectId: project.id, labels: 'gb' })
    expect(all.map((i) => i.title)).toEqual(['gb issue'])
    const edited = await api.Issues.edit(project.id, created.iid, { title: 'gb issue!', stateEvent: 'close' })
    expect(edited).toMatchObject({ title: 'gb issue!', state: 'closed' })
    const shown = await api.Issues.show(created.iid, { projectId: project.id })
    expect(shown.title).toBe('gb issue!')
    const stats = await api.IssuesStatistics.all({ projectId: project.id, labels: 'gb' })
    expect(stats).toMatchObject({ statistics: { counts: { all: 1, closed: 1, opened: 0 } } })
  })
})
