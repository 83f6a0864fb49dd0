import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

describe('notes, discussions, snippets and to-dos over the wire', () => {
  let s: ListeningServer
  let project: ProjectRow
  let dev: SeededUser
  let mate: SeededUser

  beforeAll(async () => {
    s = await startServer()
    const group = seedGroup(s, { path: 'wire-notes', visibility: 'public' })
    project = seedProject(s, { namespaceId: group.id, path: 'wire-notes-app', visibility: 'public' })
    dev = seedUser(s, { username: 'wire_notes_dev' })
    mate = seedUser(s, { username: 'wire_notes_mate' })
    seedMember(s, 'Namespace', group.id, dev.user.id, 30)
    seedMember(s, 'Namespace', group.id, mate.user.id, 30)
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab comments, threads, replies, creates snippets and works through to-dos', async () => {
    const r = await withPythonGitlab<Record<string, unknown>>(
      s.url,
      { private_token: dev.token },
      `
project = gl.projects.get(${project.id}, lazy=True)
issue = project.issues.create({'title': 'py notes'})
n = issue.notes.create({'body': '@wire_notes_mate have a look\\n/label ~triaged'})
d = issue.discussions.create({'body': 'thread'})
reply = d.notes.create({'body': 'reply'})
d2 = issue.discussions.get(d.id)
snip = project.snippets.create({'title': 'py snip', 'file_name': 'a.py', 'content': 'print(1)', 'visibility': 'public'})
sn = snip.notes.create({'body': 'on a snippet'})
other = gitlab.Gitlab(os.environ["GL_URL"], private_token=${JSON.stringify(mate.token)})
todos = other.todos.list()
first = todos[0]
first.mark_as_done()
other.todos.mark_all_as_done()
out({
  'note_body': n.body, 'labels': project.issues.get(issue.iid).labels,
  'thread_types': [x['type'] for x in d2.attributes['notes']], 'individual': d2.individual_note, 'reply': reply.body,
  'snippet_raw': snip.content().decode(), 'snippet_note': sn.noteable_type,
  'todo_action': first.action_name, 'todo_state': first.state, 'left': len(other.todos.list()),
})
`,
    )
    expect(r).toEqual({
      note_body: '@wire_notes_mate have a look',
      labels: ['triaged'],
      thread_types: ['DiscussionNote', 'DiscussionNote'],
      individual: false,
      reply: 'reply',
      snippet_raw: 'print(1)',
      snippet_note: 'Snippet',
      todo_action: 'directly_addressed',
      todo_state: 'done',
      left: 0,
    })
  })

  it('@gitbeaker/rest uses IssueNotes, IssueDiscussions, ProjectSnippets and TodoLists', async () => {
    const api = new Gitlab({ host: s.url, token: dev.token })
    const mateApi = new Gitlab({ host: s.url, token: mate.token })
    const issue = await api.Issues.create(project.id, 'gb notes')
    const note = await api.IssueNotes.create(project.id, issue.iid, 'hello @wire_notes_mate')
    expect(note.body).toBe('hello @wire_notes_mate')
    expect((await api.IssueNotes.all(project.id, issue.iid)).map((n) => n.id)).toContain(note.id)
    const thread = await api.IssueDiscussions.create(project.id, issue.iid, 'gb thread')
    await api.IssueDiscussions.addNote(project.id, issue.iid, thread.id, 'gb reply')
    const threads = await api.IssueDiscussions.all(project.id, issue.iid)
    expect(threads.find((t) => t.id === thread.id)?.notes).toHaveLength(2)
    const snippet = await api.ProjectSnippets.create(project.id, 'gb snip', {
      visibility: 'public',
      files: [{ filePath: 'x.txt', content: 'x' }],
    })
    expect((await api.ProjectSnippets.all(project.id)).map((x) => x.id)).toContain(snippet.id)
    const todos = await mateApi.TodoLists.all({ type: 'Issue' })
    const mine = todos.find((t) => (t.target as { iid?: number }).iid === issue.iid)
    expect(mine?.action_name).toBe('mentioned')
    const done = await mateApi.TodoLists.done({ todoId: mine!.id })
    expect(done.state).toBe('done')
    await mateApi.TodoLists.done()
    expect(await mateApi.TodoLists.all()).toEqual([])
  })
})
