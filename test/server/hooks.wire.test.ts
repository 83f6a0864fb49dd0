import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { startHookReceiver, type HookReceiver } from '../helpers/hook-receiver'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

describe('webhooks over the wire', () => {
  let s: ListeningServer
  let receiver: HookReceiver
  let group: NamespaceRow
  let project: ProjectRow
  let owner: SeededUser

  beforeAll(async () => {
    s = await startServer()
    receiver = await startHookReceiver()
    group = seedGroup(s, { path: 'wire-hooks', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'private' })
    owner = seedUser(s, { username: 'wire_hooks_owner' })
    seedMember(s, 'Namespace', group.id, owner.user.id, 50)
    const allowed = await s.request(ROOT_TOKEN, {
      method: 'PUT',
      url: '/api/v4/application/settings',
      payload: { allow_local_requests_from_web_hooks_and_services: true },
    })
    expect(allowed.statusCode).toBe(200)
    const commit = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${project.id}/repository/commits`,
      payload: {
        branch: 'main',
        commit_message: 'Initial commit',
        actions: [{ action: 'create', file_path: 'README.md', content: '# App\n' }],
      },
    })
    expect(commit.statusCode).toBe(201)
  })
  afterAll(async () => {
    await s.close()
    await receiver.close()
  })

  it('python-gitlab creates, lists, tests, edits and deletes project, group and system hooks', async () => {
    const result = await withPythonGitlab<{
      created: { url: string; issues_events: boolean; has_token: boolean }
      listed: string[]
      tested: unknown
      edited: boolean
      group_listed: string[]
      system_listed: string[]
      after_delete: number
    }>(
      s.url,
      { private_token: owner.token },
      `
project = gl.projects.get(${project.id}, lazy=True)
hook = project.hooks.create({'url': '${receiver.url}/wire', 'issues_events': True, 'token': 'wire-secret'})
created = {'url': hook.url, 'issues_events': hook.issues_events, 'has_token': hasattr(hook, 'token')}
listed = [h.url for h in project.hooks.list(get_all=True)]
tested = gl.http_post(f'/projects/${project.id}/hooks/{hook.id}/test/push_events')
hook = project.hooks.get(hook.id)
hook.note_events = True
hook.save()
edited = project.hooks.get(hook.id).note_events
group = gl.groups.get(${group.id}, lazy=True)
group.hooks.create({'url': '${receiver.url}/group', 'push_events': False})
group_listed = [h.url for h in group.hooks.list(get_all=True)]
admin = gitlab.Gitlab(os.environ['GL_URL'], private_token='${ROOT_TOKEN}')
admin.hooks.create({'url': '${receiver.url}/system'})
system_listed = [h.url for h in admin.hooks.list(get_all=True)]
project.hooks.delete(hook.id)
after_delete = len(project.hooks.list(get_all=True))
out({'created': created, 'listed': listed, 'tested': tested, 'edited': edited, 'group_listed': group_listed, 'system_listed': system_listed, 'after_delete': after_delete})
`,
    )
    expect(result.created).toEqual({ url: `${receiver.url}/wire`, issues_events: true, has_token: false })
    expect(result.listed).toEqual([`${receiver.url}/wire`])
    expect(result.tested).toEqual({ message: '201 Created' })
    expect(result.edited).toBe(true)
    expect(result.group_listed).toEqual([`${receiver.url}/group`])
    expect(result.system_listed).toEqual([`${receiver.url}/system`])
    expect(result.after_delete).toBe(0)
    const test = receiver.received.find((r) => r.path === '/wire')
    expect(test?.headers['x-gitlab-token']).toBe('wire-secret')
    expect(test?.body).toMatchObject({ object_kind: 'push', ref: 'refs/heads/main', project_id: project.id })
  })
})
