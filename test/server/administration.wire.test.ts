import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { holdStorageMoves, storageMovesIdle } from '../../src/server/modules/storage-moves/service'
import { seedGroup, seedMember } from '../helpers/fixtures'
import { commitFiles, makeWorkRepo, remoteUrl, sh, shFails } from '../helpers/git'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>
const py = (value: unknown): string => JSON.stringify(value)

/** python-gitlab helper: polls a GET until `key` has one of `done` (bounded, 0.05 s apart). */
const PY_WAIT = `
import time
def wait_for(path, key, done):
    for _ in range(600):
        value = gl.http_get(path)
        if value[key] in done:
            return value
        time.sleep(0.05)
    raise Exception('still %s at %s' % (value[key], path))
`

describe('storage moves, replication nodes and imports over the wire', () => {
  let s: ListeningServer
  let source: ListeningServer
  let member: SeededUser
  let sourceOwner: SeededUser
  let sourceProjectId: number

  beforeAll(async () => {
    s = await startServer({ storages: ['default', 'second'] })
    source = await startServer()
    // The import source listens on 127.0.0.1, which GitLab's default refuses.
    await s.request(ROOT_TOKEN, {
      method: 'PUT',
      url: '/api/v4/application/settings',
      payload: { allow_local_requests_from_web_hooks_and_services: true },
    })
    member = seedUser(s, { username: 'wire_member' })
    const group = seedGroup(s, { path: 'wire-admin' })
    seedMember(s, 'Namespace', group.id, member.user.id, AccessLevel.MAINTAINER)
    sourceOwner = seedUser(source, { username: 'wire_source_owner' })
    const created = await source.request(sourceOwner.token, {
      method: 'POST',
      url: '/api/v4/projects',
      payload: { name: 'Origin', initialize_with_readme: true },
    })
    sourceProjectId = created.json().id
    await source.request(sourceOwner.token, {
      method: 'POST',
      url: `/api/v4/projects/${sourceProjectId}/issues`,
      payload: { title: 'Carried over' },
    })
  })
  afterAll(async () => {
    await s.close()
    await source.close()
  })

  it('git push is refused with the read-only message while a move is pending, and lands after it finished', async () => {
    const project = (
      await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: '/api/v4/projects',
        payload: { name: 'pushed-during-move', initialize_with_readme: true },
      })
    ).json() as Json
    const work = makeWorkRepo()
    await sh(work, 'pull', '--quiet', remoteUrl(s.url, project.path_with_namespace as string, ROOT_TOKEN), 'main')
    commitFiles(work, { 'later.md': 'after\n' }, 'During the move')
    const release = holdStorageMoves(s.app.burrow)
    try {
      const move = await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: `/api/v4/projects/${project.id}/repository_storage_moves`,
        payload: { destination_storage_name: 'second' },
      })
      expect(move.statusCode).toBe(201)
      const stderr = await shFails(
        work,
        'push',
        remoteUrl(s.url, project.path_with_namespace as string, ROOT_TOKEN),
        'main',
      )
      expect(stderr).toContain('The repository is temporarily read-only. Please try again later.')
    } finally {
      release()
    }
    await storageMovesIdle(s.app.burrow)
    await sh(work, 'push', '--quiet', remoteUrl(s.url, project.path_with_namespace as string, ROOT_TOKEN), 'main')
    const branch = (
      await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/projects/${project.id}/repository/branches/main` })
    ).json() as { commit: { title: string } }
    expect(branch.commit.title).toBe('During the move')
  })

  it('python-gitlab schedules project moves (single and bulk), reads them and lists projects by storage', async () => {
    const project = (
      await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: '/api/v4/projects',
        payload: { name: 'py-moved', initialize_with_readme: true },
      })
    ).json() as Json
    const result = await withPythonGitlab<{
      scheduled: Json
      finished: string
      listed: number[]
      storage: string
      on_second: boolean
      bulk: Json
      back: string
      refused: number
    }>(
      s.url,
      { private_token: ROOT_TOKEN },
      `${PY_WAIT}
scheduled = gl.http_post('/projects/${project.id}/repository_storage_moves', post_data={'destination_storage_name': 'second'})
finished = wait_for('/project_repository_storage_moves/%d' % scheduled['id'], 'state', ['finished', 'failed'])['state']
listed = [m['id'] for m in gl.http_list('/projects/${project.id}/repository_storage_moves')]
storage = gl.projects.get(${project.id}).repository_storage
on_second = ${project.id} in [p.id for p in gl.projects.list(repository_storage='second', get_all=True)]
bulk = gl.http_post('/project_repository_storage_moves', post_data={'source_storage_name': 'second', 'destination_storage_name': 'default'})
moves = gl.http_list('/projects/${project.id}/repository_storage_moves')
wait_for('/project_repository_storage_moves/%d' % moves[0]['id'], 'state', ['finished', 'failed'])
back = gl.projects.get(${project.id}).repository_storage
member = gitlab.Gitlab(os.environ['GL_URL'], private_token=${py(member.token)})
try:
    member.http_list('/project_repository_storage_moves')
    refused = 0
except gitlab.exceptions.GitlabHttpError as e:
    refused = e.response_code
out({'scheduled': scheduled, 'finished': finished, 'listed': listed, 'storage': storage, 'on_second': on_second, 'bulk': bulk, 'back': back, 'refused': refused})
`,
    )
    expect(result.scheduled).toMatchObject({
      state: 'scheduled',
      source_storage_name: 'default',
      destination_storage_name: 'second',
      project: { id: project.id, path: 'py-moved' },
    })
    expect(result.finished).toBe('finished')
    expect(result.listed).toEqual([result.scheduled.id])
    expect(result.storage).toBe('second')
    expect(result.on_second).toBe(true)
    expect(result.bulk).toEqual({ message: '202 Accepted' })
    expect(result.back).toBe('default')
    expect(result.refused).toBe(403)
  })

  it('@gitbeaker/rest schedules and reads project, snippet and group moves', async () => {
    const api = new Gitlab({ host: s.url, token: ROOT_TOKEN })
    const project = (
      await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: '/api/v4/projects',
        payload: { name: 'beaker-moved', initialize_with_readme: true },
      })
    ).json() as Json
    const projectId = project.id as number
    const scheduled = (await api.ProjectRepositoryStorageMoves.schedule('default', {
      projectId,
      destinationStorageName: 'second',
    })) as unknown as Json
    expect(scheduled).toMatchObject({ state: 'scheduled', destination_storage_name: 'second' })
    await storageMovesIdle(s.app.burrow)
    const shown = (await api.ProjectRepositoryStorageMoves.show(scheduled.id as number, {
      projectId,
    })) as unknown as Json
    expect(shown.state).toBe('finished')
    const all = (await api.ProjectRepositoryStorageMoves.all()) as unknown as Json[]
    expect(all.map((m) => m.id)).toContain(scheduled.id)

    const snippet = (
      await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: `/api/v4/projects/${projectId}/snippets`,
        payload: { title: 'beaker', file_name: 'a.txt', content: 'a', visibility: 'private' },
      })
    ).json() as Json
    const snippetMove = (await api.SnippetRepositoryStorageMoves.schedule('default', {
      snippetId: snippet.id as number,
      destinationStorageName: 'second',
    })) as unknown as Json
    expect(snippetMove).toMatchObject({ state: 'scheduled', snippet: { id: snippet.id, title: 'beaker' } })
    const group = seedGroup(s, { path: 'beaker-wiki' })
    const groupMove = (await api.GroupRepositoryStorageMoves.schedule('default', {
      groupId: group.id,
      destinationStorageName: 'second',
    })) as unknown as Json
    expect(groupMove).toMatchObject({ group: { id: group.id, name: group.name } })
    const bulk = (await api.SnippetRepositoryStorageMoves.schedule('second', {
      destinationStorageName: 'default',
    })) as unknown as Json
    expect(bulk).toEqual({ message: '202 Accepted' })
    await storageMovesIdle(s.app.burrow)
    expect(
      ((await api.SnippetRepositoryStorageMoves.all({ snippetId: snippet.id as number })) as unknown as Json[]).map(
        (m) => m.state,
      ),
    ).toEqual(['finished', 'finished'])
    expect(((await api.GroupRepositoryStorageMoves.show(groupMove.id as number)) as unknown as Json).state).toBe(
      'finished',
    )
  })

  it('python-gitlab manages replication nodes before and after a primary is recorded: changes, status records, repair, delete', async () => {
    const result = await withPythonGitlab<{
      before_primary: number
      primary: Json
      secondary: Json
      listed: string[]
      saved: number
      statuses: number[]
      status: Json
      repaired: number
      remaining: string[]
      member_refused: number
    }>(
      s.url,
      { private_token: ROOT_TOKEN },
      `
secondary = gl.http_post('/geo_nodes', post_data={'name': 'py-secondary', 'url': 'https://py-secondary.example.com'})
node = gl.geonodes.get(secondary['id'])
node.name = 'py-secondary'
node.url = 'https://py-secondary.example.com'
node.files_max_capacity = 4
node.save()
before_primary = gl.geonodes.get(secondary['id']).files_max_capacity
primary = gl.http_post('/geo_nodes', post_data={'name': os.environ['GL_URL'], 'url': os.environ['GL_URL'], 'primary': True})
listed = [n.name for n in gl.geonodes.list(get_all=True)]
node = gl.geonodes.get(secondary['id'])
node.name = 'py-secondary'
node.url = 'https://py-secondary.example.com'
node.files_max_capacity = 5
node.save()
saved = gl.geonodes.get(secondary['id']).files_max_capacity
statuses = [r['geo_node_id'] for r in gl.geonodes.status()]
status = node.status()
node.repair()
repaired = node.id
gl.geonodes.delete(secondary['id'])
remaining = [n.name for n in gl.geonodes.list(get_all=True)]
member = gitlab.Gitlab(os.environ['GL_URL'], private_token=${py(member.token)})
try:
    member.geonodes.list()
    member_refused = 0
except gitlab.exceptions.GitlabListError as e:
    member_refused = e.response_code
out({'before_primary': before_primary, 'primary': primary, 'secondary': secondary, 'listed': listed, 'saved': saved, 'statuses': statuses,
     'status': status, 'repaired': repaired, 'remaining': remaining, 'member_refused': member_refused})
`,
    )
    expect(result.before_primary).toBe(4)
    expect(result.primary).toMatchObject({
      name: `${s.url}/`,
      primary: true,
      current: true,
      files_max_capacity: 10,
      repos_max_capacity: 25,
      verification_max_capacity: 100,
      container_repositories_max_capacity: 10,
    })
    expect(result.secondary).toMatchObject({
      name: 'py-secondary',
      primary: false,
      enabled: true,
      current: false,
      sync_object_storage: false,
    })
    expect(result.listed).toEqual(['py-secondary', `${s.url}/`])
    expect(result.saved).toBe(5)
    expect(result.statuses).toEqual([result.secondary.id, result.primary.id])
    expect(result.status).toMatchObject({
      geo_node_id: result.secondary.id,
      healthy: true,
      repositories_synced_in_percentage: '100.00%',
    })
    expect(result.repaired).toBe(result.secondary.id)
    expect(result.remaining).toEqual([`${s.url}/`])
    expect(result.member_refused).toBe(403)
  })

  it('@gitbeaker/rest creates, edits, reads the status of, repairs and removes replication nodes', async () => {
    const api = new Gitlab({ host: s.url, token: ROOT_TOKEN })
    const node = (await api.GeoNodes.create('beaker-node', 'https://beaker.example.com', {
      reposMaxCapacity: 7,
    })) as unknown as Json
    expect(node).toMatchObject({
      name: 'beaker-node',
      url: 'https://beaker.example.com/',
      repos_max_capacity: 7,
      files_max_capacity: 10,
    })
    const edited = (await api.GeoNodes.edit(node.id as number, {
      name: 'beaker-node',
      url: 'https://beaker.example.com',
      selectiveSyncType: 'shards',
      selectiveSyncShards: ['second'],
    })) as unknown as Json
    expect(edited).toMatchObject({ selective_sync_type: 'shards', selective_sync_shards: ['second'] })
    const shown = (await api.GeoNodes.show(node.id as number)) as unknown as Json
    expect(shown._links).toEqual({
      self: `${s.url}/api/v4/geo_nodes/${node.id}`,
      status: `${s.url}/api/v4/geo_nodes/${node.id}/status`,
      repair: `${s.url}/api/v4/geo_nodes/${node.id}/repair`,
    })
    const status = (await api.GeoNodes.showStatus(node.id as number)) as unknown as Json
    expect(status).toMatchObject({ geo_node_id: node.id, repositories_failed_count: 0 })
    const statuses = (await api.GeoNodes.allStatuses()) as unknown as Json[]
    expect(statuses.map((r) => r.geo_node_id)).toContain(node.id)
    expect(((await api.GeoNodes.repair(node.id as number)) as unknown as Json).id).toBe(node.id)
    await api.GeoNodes.remove(node.id as number)
    await expect(api.GeoNodes.show(node.id as number)).rejects.toThrow()
  })

  it('python-gitlab imports from a second Burrow Server (hosted_git and git_server) and follows the import status', async () => {
    const result = await withPythonGitlab<{
      hosted: Json
      hosted_done: Json
      issues: string[]
      git: Json
      git_done: Json
      branches: string[]
      unknown: Json
    }>(
      s.url,
      { private_token: member.token },
      `${PY_WAIT}
hosted = gl.http_post('/import/hosted_git', post_data={'personal_access_token': ${py(sourceOwner.token)}, 'repo_id': ${sourceProjectId},
                                                        'target_namespace': 'wire-admin', 'custom_hostname': ${py(source.url)}})
hosted_done = wait_for('/projects/%d/import' % hosted['id'], 'import_status', ['finished', 'failed'])
issues = [i.title for i in gl.projects.get(hosted['id']).issues.list(get_all=True)]
git = gl.http_post('/import/git_server', post_data={'git_server_url': ${py(source.url)}, 'git_server_username': 'wire_source_owner',
                                                    'personal_access_token': ${py(sourceOwner.token)}, 'git_server_project': 'wire_source_owner',
                                                    'git_server_repo': 'origin', 'new_name': 'origin-copy', 'target_namespace': 'wire-admin'})
git_done = wait_for('/projects/%d/import' % git['id'], 'import_status', ['finished', 'failed'])
branches = [b.name for b in gl.projects.get(git['id']).branches.list(get_all=True)]
try:
    gl.http_post('/import/hosted_git', post_data={'personal_access_token': 'x', 'repo_id': 1, 'target_namespace': 'nowhere', 'custom_hostname': ${py(source.url)}})
    unknown = {}
except gitlab.exceptions.GitlabHttpError as e:
    unknown = {'code': e.response_code, 'message': str(e.error_message)}
out({'hosted': hosted, 'hosted_done': hosted_done, 'issues': issues, 'git': git, 'git_done': git_done, 'branches': branches, 'unknown': unknown})
`,
    )
    expect(result.hosted).toMatchObject({ name: 'Origin', full_path: '/wire-admin/origin', import_status: 'scheduled' })
    expect(result.hosted_done).toMatchObject({ import_status: 'finished', import_error: null })
    expect(result.issues).toEqual(['Carried over'])
    expect(result.git).toMatchObject({ name: 'origin-copy', full_path: '/wire-admin/origin-copy' })
    expect(result.git_done).toMatchObject({ import_status: 'finished', import_type: 'git_server' })
    expect(result.branches).toEqual(['main'])
    // GitLab's import endpoints answer `{"errors": …}`, which python-gitlab passes on as the raw body.
    expect(result.unknown.code).toBe(422)
    expect(JSON.parse(result.unknown.message as string)).toEqual({
      errors: 'Namespace or group to import repository into does not exist.',
    })
  })

  it('@gitbeaker/rest posts an import through its requester and reads the project import status', async () => {
    const api = new Gitlab({ host: s.url, token: member.token })
    const posted = await api.Projects.requester.post('import/hosted_git', {
      body: {
        personal_access_token: sourceOwner.token,
        repo_id: sourceProjectId,
        target_namespace: 'wire-admin',
        new_name: 'beaker-origin',
        custom_hostname: source.url,
      },
    })
    expect(posted.status).toBe(201)
    const created = posted.body as Json
    expect(created).toMatchObject({
      name: 'beaker-origin',
      full_path: '/wire-admin/beaker-origin',
      import_status: 'scheduled',
    })
    for (let i = 0; i < 600; i++) {
      const status = (await api.Projects.requester.get(`projects/${created.id}/import`)).body as Json
      if (status.import_status === 'finished' || status.import_status === 'failed') {
        expect(status).toMatchObject({ import_status: 'finished', import_type: 'hosted_git' })
        break
      }
      await new Promise((r) => setTimeout(r, 50))
    }
    const project = (await api.Projects.show(created.id as number)) as unknown as Json
    expect(project).toMatchObject({ import_status: 'finished', import_type: 'hosted_git', empty_repo: false })
  })
})
