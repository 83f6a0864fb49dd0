import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, startServer, type ListeningServer } from '../helpers/server'

describe('repository writes over the wire', () => {
  let s: ListeningServer
  let projectId: number

  beforeAll(async () => {
    s = await startServer()
    projectId = (
      await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: '/api/v4/projects',
        payload: { name: 'wire', initialize_with_readme: true },
      })
    ).json().id
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab creates, lists and deletes branches, protects one and deletes merged branches', async () => {
    const result = await withPythonGitlab<{ created: string; names: string[]; protected: string; after: string[] }>(
      s.url,
      { private_token: ROOT_TOKEN },
      `
p = gl.projects.get(${projectId})
b = p.branches.create({'branch': 'py-feature', 'ref': 'main'})
p.branches.create({'branch': 'py-temp', 'ref': 'main'})
names = [x.name for x in p.branches.list(get_all=True)]
p.branches.delete('py-temp')
pb = p.protectedbranches.create({'name': 'stable/*', 'push_access_level': 30})
p.delete_merged_branches()
after = [x.name for x in p.branches.list(get_all=True)]
out({'created': b.name, 'names': names, 'protected': pb.name, 'after': after})
`,
    )
    expect(result).toEqual({
      created: 'py-feature',
      names: ['main', 'py-feature', 'py-temp'],
      protected: 'stable/*',
      after: ['main'],
    })
  })

  it('python-gitlab creates, reads, updates and deletes a file, and posts a changelog', async () => {
    const result = await withPythonGitlab<{ content: string; updated: string; gone: boolean; status: number }>(
      s.url,
      { private_token: ROOT_TOKEN },
      `
import base64
p = gl.projects.get(${projectId})
f = p.files.create({'file_path': 'docs/py.md', 'branch': 'main', 'content': 'hello', 'commit_message': 'Add py.md'})
got = p.files.get(file_path='docs/py.md', ref='main')
content = got.decode().decode()
got.content = 'bye'
got.save(branch='main', commit_message='Update py.md')
updated = p.files.get(file_path='docs/py.md', ref='main').decode().decode()
p.files.delete(file_path='docs/py.md', branch='main', commit_message='Remove py.md')
try:
    p.files.get(file_path='docs/py.md', ref='main')
    gone = False
except gitlab.exceptions.GitlabGetError:
    gone = True
r = gl.http_post('/projects/${projectId}/repository/changelog', post_data={'version': '1.0.0', 'from': p.commits.list(get_all=True)[-1].id})
out({'content': content, 'updated': updated, 'gone': gone, 'status': getattr(r, 'status_code', 200)})
`,
    )
    expect(result).toEqual({ content: 'hello', updated: 'bye', gone: true, status: 200 })
  })

  it('@gitbeaker/rest drives Branches, ProtectedBranches and RepositoryFiles', async () => {
    const api = new Gitlab({ host: s.url, token: ROOT_TOKEN })
    const branch = await api.Branches.create(projectId, 'gb-branch', 'main')
    expect(branch.name).toBe('gb-branch')
    expect((await api.Branches.show(projectId, 'gb-branch')).default).toBe(false)
    const rule = await api.ProtectedBranches.protect(projectId, 'gb-*', { pushAccessLevel: 40 })
    expect(rule.name).toBe('gb-*')
    expect((await api.ProtectedBranches.all(projectId)).map((r) => r.name)).toContain('gb-*')
    await api.RepositoryFiles.create(projectId, 'gb.txt', 'gb-branch', 'from gitbeaker', 'Add gb.txt')
    const file = await api.RepositoryFiles.show(projectId, 'gb.txt', 'gb-branch')
    expect(Buffer.from(file.content, 'base64').toString()).toBe('from gitbeaker')
    await api.RepositoryFiles.edit(projectId, 'gb.txt', 'gb-branch', 'edited', 'Edit gb.txt')
    expect(await api.RepositoryFiles.showRaw(projectId, 'gb.txt', 'gb-branch')).toBe('edited')
    await api.RepositoryFiles.remove(projectId, 'gb.txt', 'gb-branch', 'Remove gb.txt')
    await api.ProtectedBranches.unprotect(projectId, 'gb-*')
    await api.Branches.remove(projectId, 'gb-branch')
    expect((await api.Branches.all(projectId)).map((b) => b.name)).not.toContain('gb-branch')
  })
})
