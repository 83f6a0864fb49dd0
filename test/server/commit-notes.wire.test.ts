import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedMember } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>

describe('comments on commits over the wire', () => {
  let s: ListeningServer
  let dev: SeededUser
  let projectId: number
  let sha: string
  let parent: string

  beforeAll(async () => {
    s = await startServer()
    dev = seedUser(s, { username: 'wire_commit_dev' })
    const project = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: '/api/v4/projects',
      payload: { name: 'wire-commit-notes', initialize_with_readme: true },
    })
    projectId = project.json().id
    seedMember(s, 'Project', projectId, dev.user.id, AccessLevel.DEVELOPER)
    const made = await s.request(dev.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/repository/commits`,
      payload: {
        branch: 'feature',
        start_branch: 'main',
        commit_message: 'Add notes.txt',
        actions: [{ action: 'create', file_path: 'notes.txt', content: 'one\ntwo\n' }],
      },
    })
    expect(made.statusCode, made.body).toBe(201)
    sha = made.json().id
    parent = (made.json().parent_ids as string[])[0]
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab comments on a commit and on a line, lists the comments and works its discussions', async () => {
    const r = await withPythonGitlab<Json>(
      s.url,
      { private_token: dev.token },
      `
commit = gl.projects.get(${projectId}, lazy=True).commits.get('feature')
commit.comments.create({'note': 'Whole commit'})
commit.comments.create({'note': 'Line two', 'path': 'notes.txt', 'line': 2, 'line_type': 'new'})
d = commit.discussions.create({'body': 'A thread'})
d.notes.create({'body': 'A reply'})
position = {'base_sha': '${parent}', 'start_sha': '${parent}', 'head_sha': '${sha}', 'position_type': 'text',
            'old_path': 'notes.txt', 'new_path': 'notes.txt', 'new_line': 1}
diff = commit.discussions.create({'body': 'On line one', 'position': position})
threads = commit.discussions.list(get_all=True)
comments = commit.comments.list(get_all=True)
again = commit.discussions.get(d.id)
out({
  'comments': [[c.note, c.path, c.line, c.line_type, c.author['username']] for c in comments],
  'threads': [[n['body'] for n in t.attributes['notes']] for t in threads],
  'again': [n['body'] for n in again.attributes['notes']],
  'diff': diff.attributes['notes'][0]['position']['new_line'],
})
`,
    )
    expect(r.comments).toEqual([
      ['Whole commit', null, null, null, 'wire_commit_dev'],
      ['Line two', 'notes.txt', 2, 'new', 'wire_commit_dev'],
      ['A thread', null, null, null, 'wire_commit_dev'],
      ['A reply', null, null, null, 'wire_commit_dev'],
      ['On line one', 'notes.txt', 1, 'new', 'wire_commit_dev'],
    ])
    expect(r.threads).toEqual([['Whole commit'], ['Line two'], ['A thread', 'A reply'], ['On line one']])
    expect(r.again).toEqual(['A thread', 'A reply'])
    expect(r.diff).toBe(1)
  })
})
