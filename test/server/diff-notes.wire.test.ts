import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedMember } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>

describe('diff notes and diff versions over the wire', () => {
  let s: ListeningServer
  let dev: SeededUser
  let projectId: number

  async function api(method: 'GET' | 'POST', url: string, payload?: Json, token = dev.token): Promise<Json> {
    const res = await s.request(token, { method, url: `/api/v4/projects/${projectId}${url}`, payload })
    expect(res.statusCode, res.body).toBeLessThan(300)
    return res.json()
  }

  beforeAll(async () => {
    s = await startServer()
    dev = seedUser(s, { username: 'wire_diff_dev' })
    const project = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: '/api/v4/projects',
      payload: { name: 'wire-diff', initialize_with_readme: true },
    })
    projectId = project.json().id
    seedMember(s, 'Project', projectId, dev.user.id, AccessLevel.DEVELOPER)
    for (const branch of ['py', 'gb'])
      await api('POST', '/repository/commits', {
        branch,
        start_branch: 'main',
        commit_message: `Add ${branch}.txt`,
        actions: [{ action: 'create', file_path: `${branch}.txt`, content: 'one\ntwo\n' }],
      })
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab reads the versions, starts a diff thread with a position and reads the position back', async () => {
    const mr = await api('POST', '/merge_requests', { source_branch: 'py', target_branch: 'main', title: 'Py' })
    const r = await withPythonGitlab<Json>(
      s.url,
      { private_token: dev.token },
      `
mr = gl.projects.get(${projectId}, lazy=True).mergerequests.get(${mr.iid as number})
versions = mr.diffs.list()
v = mr.diffs.get(versions[0].id)
position = {
  'base_sha': v.base_commit_sha, 'start_sha': v.start_commit_sha, 'head_sha': v.head_commit_sha,
  'position_type': 'text', 'old_path': 'py.txt', 'new_path': 'py.txt', 'new_line': 2,
}
d = mr.discussions.create({'body': 'Why two?', 'position': position})
again = mr.discussions.get(d.id)
note = again.attributes['notes'][0]
out({
  'versions': len(versions), 'files': [f['new_path'] for f in v.diffs], 'commits': len(v.commits),
  'type': note['type'], 'position': note['position'], 'resolvable': note['resolvable'],
  'diff_refs_head': mr.diff_refs['head_sha'],
})
`,
    )
    expect(r).toMatchObject({
      versions: 1,
      files: ['py.txt'],
      commits: 1,
      type: 'DiffNote',
      resolvable: true,
      position: { new_path: 'py.txt', old_path: 'py.txt', new_line: 2, old_line: null, position_type: 'text' },
    })
    expect((r.position as Json).head_sha).toBe(r.diff_refs_head)
  })

  it('@gitbeaker/rest MergeRequestDiscussions.create takes a position', async () => {
    const mr = await api('POST', '/merge_requests', { source_branch: 'gb', target_branch: 'main', title: 'Gb' })
    const gb = new Gitlab({ host: s.url, token: dev.token })
    const refs = mr.diff_refs as { base_sha: string; start_sha: string; head_sha: string }
    const thread = await gb.MergeRequestDiscussions.create(projectId, mr.iid as number, 'First line?', {
      position: {
        ...refsOf(refs),
        positionType: 'text',
        oldPath: 'gb.txt',
        newPath: 'gb.txt',
        newLine: '1',
      },
    })
    const note = (thread.notes ?? [])[0] as unknown as Json
    expect(note).toMatchObject({
      type: 'DiffNote',
      position: { ...refs, new_path: 'gb.txt', new_line: 1, old_line: null },
    })
    await expect(
      gb.MergeRequestDiscussions.create(projectId, mr.iid as number, 'Nowhere', {
        position: { ...refsOf(refs), positionType: 'text', oldPath: 'gb.txt', newPath: 'gb.txt', newLine: '9' },
      }),
    ).rejects.toThrow(/Bad Request/i)
  })
})

/** Diff refs as gitbeaker's camelCase position options (it sends them snake_case). */
function refsOf(refs: { base_sha: string; start_sha: string; head_sha: string }) {
  return { baseSha: refs.base_sha, startSha: refs.start_sha, headSha: refs.head_sha }
}
