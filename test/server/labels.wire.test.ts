import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

describe('labels and milestones over the wire', () => {
  let s: ListeningServer
  let group: NamespaceRow
  let project: ProjectRow
  let developer: SeededUser

  beforeAll(async () => {
    s = await startServer()
    group = seedGroup(s, { path: 'wire-lm', visibility: 'public' })
    project = seedProject(s, { namespaceId: group.id, path: 'wire-app', visibility: 'public' })
    developer = seedUser(s, { username: 'wire_lm_dev' })
    seedMember(s, 'Namespace', group.id, developer.user.id, 30)
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab creates group labels, lists project labels and closes a milestone', async () => {
    const result = await withPythonGitlab<{
      label: { name: string; color: string; text_color: string }
      listed: { name: string; is_project_label: boolean }[]
      milestone: { iid: number; state: string }
      closed: string
      active: string[]
    }>(
      s.url,
      { private_token: developer.token },
      `
group = gl.groups.get(${group.id}, lazy=True)
project = gl.projects.get(${project.id}, lazy=True)
label = group.labels.create({'name': 'py-bug', 'color': 'red'})
project.labels.create({'name': 'py-ui', 'color': '#00AA00'})
listed = [{'name': l.name, 'is_project_label': l.is_project_label} for l in project.labels.list(get_all=True)]
m = project.milestones.create({'title': 'py-1.0', 'due_date': '2040-01-01'})
m.state_event = 'close'
m.save()
closed = project.milestones.get(m.id).state
active = [x.title for x in project.milestones.list(state='active', get_all=True)]
out({'label': {'name': label.name, 'color': label.color, 'text_color': label.text_color},
     'listed': listed, 'milestone': {'iid': m.iid, 'state': m.state}, 'closed': closed, 'active': active})
`,
    )
    expect(result.label).toEqual({ name: 'py-bug', color: '#FF0000', text_color: '#FFFFFF' })
    expect(result.listed).toEqual([
      { name: 'py-bug', is_project_label: false },
      { name: 'py-ui', is_project_label: true },
    ])
    expect(result.milestone).toEqual({ iid: 1, state: 'closed' })
    expect(result.closed).toBe('closed')
    expect(result.active).toEqual([])
  })

  it('@gitbeaker/rest manages group labels and project milestones', async () => {
    const api = new Gitlab({ host: s.url, token: developer.token })
    const created = await api.GroupLabels.create(group.id, 'gb-feature', '#428BCA', { description: 'From gitbeaker' })
    expect(created).toMatchObject({ name: 'gb-feature', color: '#428BCA', description: 'From gitbeaker' })
    const edited = await api.GroupLabels.edit(group.id, created.id, { newName: 'gb-feat' })
    expect(edited.name).toBe('gb-feat')
    // GroupLabels.subscribe is not exercised: this gitbeaker version posts it to /issues/:id/subscribe.
    const counted = await api.GroupLabels.all(group.id, { withCounts: true, search: 'gb-' })
    expect(counted).toEqual([expect.objectContaining({ name: 'gb-feat', open_issues_count: 0, subscribed: false })])
    await api.GroupLabels.remove(group.id, created.id)
    expect(await api.GroupLabels.all(group.id, { search: 'gb-' })).toEqual([])

    const milestone = await api.ProjectMilestones.create(project.id, 'gb-2.0', {
      description: 'gitbeaker',
      startDate: '2040-02-01',
      dueDate: '2040-03-01',
    })
    expect(milestone).toMatchObject({
      title: 'gb-2.0',
      iid: 2,
      project_id: project.id,
      state: 'active',
      expired: false,
    })
    const closed = await api.ProjectMilestones.edit(project.id, milestone.id, { stateEvent: 'close' })
    expect(closed.state).toBe('closed')
    const all = await api.ProjectMilestones.all(project.id, { state: 'closed' })
    expect(all.map((m) => m.title).sort()).toEqual(['gb-2.0', 'py-1.0'])
    expect(await api.ProjectMilestones.allAssignedIssues(project.id, milestone.id)).toEqual([])
  })
})
