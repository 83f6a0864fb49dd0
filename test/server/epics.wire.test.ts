import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

describe('epics over the wire', () => {
  let s: ListeningServer
  let group: NamespaceRow
  let project: ProjectRow
  let reporter: SeededUser

  beforeAll(async () => {
    s = await startServer()
    group = seedGroup(s, { path: 'wire-epics', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'wire-epics-app', visibility: 'private' })
    reporter = seedUser(s, { username: 'wire_epics_rep' })
    seedMember(s, 'Namespace', group.id, reporter.user.id, 20)
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab creates, lists and edits epics, links, reorders and unlinks issues, comments', async () => {
    const r = await withPythonGitlab<Record<string, unknown>>(
      s.url,
      { private_token: reporter.token },
      `
group = gl.groups.get(${group.id}, lazy=True)
project = gl.projects.get(${project.id}, lazy=True)
a = group.epics.create({'title': 'py epic', 'labels': ['plan', 'q3'], 'description': 'from python'})
b = group.epics.create({'title': 'py other'})
labelled = [e.title for e in group.epics.list(labels=['plan'], get_all=True)]
by_title = [e.title for e in group.epics.list(order_by='title', sort='asc', get_all=True)]
a.title = 'py epic!'
a.save()
fetched = group.epics.get(a.iid)
i1 = project.issues.create({'title': 'py issue 1'})
i2 = project.issues.create({'title': 'py issue 2'})
l1 = fetched.issues.create({'issue_id': i1.id})
l2 = fetched.issues.create({'issue_id': i2.id})
linked = [(i.title, i.epic_issue_id) for i in fetched.issues.list(get_all=True)]
moved = fetched.issues.list(get_all=True)[0]
moved.move_before_id = l2.epic_issue_id
moved.save()
order = [i.title for i in fetched.issues.list(get_all=True)]
note = fetched.notes.create({'body': 'py comment'})
notes = [(n.body, n.system) for n in fetched.notes.list(get_all=True, sort='asc')]
issue_epic = project.issues.get(i1.iid).epic_iid
unlinked = fetched.issues.list(get_all=True)[0]
unlinked.delete()
left = [i.title for i in fetched.issues.list(get_all=True)]
out({
  'iid': fetched.iid, 'title': fetched.title, 'labels': fetched.labels, 'labelled': labelled, 'by_title': by_title,
  'linked': [t for t, _ in linked], 'link_ids': [x for _, x in linked] == [l1.epic_issue_id, l2.epic_issue_id],
  'order': order, 'note': note.noteable_type, 'notes': notes, 'issue_epic': issue_epic, 'left': left, 'iids': [i1.iid, i2.iid],
})
`,
    )
    expect(r).toMatchObject({
      title: 'py epic!',
      labels: ['plan', 'q3'],
      labelled: ['py epic'],
      by_title: ['py epic', 'py other'],
      linked: ['py issue 1', 'py issue 2'],
      link_ids: true,
      order: ['py issue 2', 'py issue 1'],
      note: 'Epic',
      left: ['py issue 1'],
    })
    expect(r.issue_epic).toBe(r.iid)
    // The epic's notes are its activity (title change, linked issues) and the comment, oldest first.
    const [i1, i2] = r.iids as number[]
    expect(r.notes).toEqual([
      ['changed title from **py epic** to **py epic{+!+}**', true],
      [`added issue ${project.path}#${i1}`, true],
      [`added issue ${project.path}#${i2}`, true],
      ['py comment', false],
    ])
  })

  it('python-gitlab closes through save() and deletes an epic', async () => {
    const r = await withPythonGitlab<Record<string, unknown>>(
      s.url,
      { private_token: reporter.token },
      `
group = gl.groups.get(${group.id}, lazy=True)
e = group.epics.create({'title': 'py closing'})
e.state_event = 'close'
e.save()
closed = [x.title for x in group.epics.list(state='closed', get_all=True)]
refused = None
try:
    e.delete()
except gitlab.exceptions.GitlabDeleteError as err:
    refused = err.response_code
out({'state': e.state, 'closed': closed, 'refused': refused})
`,
    )
    // Deleting is for group owners: a Reporter gets 403.
    expect(r).toEqual({ state: 'closed', closed: ['py closing'], refused: 403 })
  })

  it('@gitbeaker/rest uses Epics, EpicIssues, EpicNotes and EpicDiscussions', async () => {
    const api = new Gitlab({ host: s.url, token: reporter.token })
    const epic = await api.Epics.create(group.id, 'gb epic', { labels: 'gb', description: 'from gitbeaker' })
    expect(epic).toMatchObject({ title: 'gb epic', labels: ['gb'], group_id: group.id, state: 'opened' })
    const shown = await api.Epics.show(group.id, epic.iid)
    expect(shown.references).toMatchObject({ short: `&${epic.iid}`, full: `wire-epics&${epic.iid}` })
    const listed = await api.Epics.all(group.id, { labels: 'gb' })
    expect(listed.map((e) => e.title)).toEqual(['gb epic'])
    const edited = await api.Epics.edit(group.id, epic.iid, { stateEvent: 'close', title: 'gb epic!' })
    expect(edited).toMatchObject({ title: 'gb epic!', state: 'closed' })
    const issue = await api.Issues.create(project.id, 'gb issue')
    const link = await api.EpicIssues.assign(group.id, epic.iid, issue.id)
    expect(link).toMatchObject({ epic: { id: epic.id }, issue: { id: issue.id } })
    const issues = await api.EpicIssues.all(group.id, epic.iid)
    expect(issues.map((i) => i.epic_issue_id)).toEqual([link.id])
    const note = await api.EpicNotes.create(group.id, epic.id, 'gb note')
    expect(note).toMatchObject({ body: 'gb note', noteable_type: 'Epic' })
    const thread = await api.EpicDiscussions.create(group.id, epic.id, 'gb thread')
    expect((await api.EpicDiscussions.all(group.id, epic.id)).map((d) => d.id)).toContain(thread.id)
    await api.EpicIssues.remove(group.id, epic.iid, link.id)
    expect(await api.EpicIssues.all(group.id, epic.iid)).toEqual([])
  })
})
