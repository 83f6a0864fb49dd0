import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

describe('pipeline schedules over the wire', () => {
  let s: ListeningServer
  let project: ProjectRow
  let maintainer: SeededUser

  beforeAll(async () => {
    s = await startServer()
    const group = seedGroup(s, { path: 'wire-sched', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'private' })
    maintainer = seedUser(s, { username: 'wire_sched_maintainer' })
    seedMember(s, 'Namespace', group.id, maintainer.user.id, 40)
    const res = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${project.id}/repository/commits`,
      payload: {
        branch: 'main',
        commit_message: 'CI',
        actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: 'test:\n  script: echo $NIGHTLY\n' }],
      },
    })
    expect(res.statusCode).toBe(201)
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab creates, lists, edits and plays a schedule and manages its variables', async () => {
    const result = await withPythonGitlab<{
      created: { description: string; ref: string; cron_timezone: string; owner: string }
      listed: string[]
      inactive: string[]
      edited: { cron: string; active: boolean }
      variables: { key: string; value: string }[]
      after_delete: string[]
      pipelines: { source: string; ref: string }[]
      remaining: number
    }>(
      s.url,
      { private_token: maintainer.token },
      `
project = gl.projects.get(${project.id}, lazy=True)
sched = project.pipelineschedules.create({'description': 'Nightly', 'ref': 'main', 'cron': '0 2 * * *',
                                          'cron_timezone': 'Europe/Berlin'})
created = {'description': sched.description, 'ref': sched.ref, 'cron_timezone': sched.cron_timezone,
           'owner': sched.owner['username']}
project.pipelineschedules.create({'description': 'Paused', 'ref': 'main', 'cron': '@weekly', 'active': False})
listed = [x.description for x in project.pipelineschedules.list(get_all=True)]
inactive = [x.description for x in project.pipelineschedules.list(scope='inactive', get_all=True)]
sched.cron = '30 1 * * 1-5'
sched.save()
again = project.pipelineschedules.get(sched.id)
edited = {'cron': again.cron, 'active': again.active}
v = sched.variables.create({'key': 'NIGHTLY', 'value': 'on'})
sched.variables.create({'key': 'DOOMED', 'value': 'x'})
v.value = 'yes'
v.save()
variables = [{'key': x['key'], 'value': x['value']} for x in project.pipelineschedules.get(sched.id).attributes['variables']]
sched.variables.delete('DOOMED')
after_delete = [x['key'] for x in project.pipelineschedules.get(sched.id).attributes['variables']]
sid = sched.id
sched.play()  # answers GitLab's {message}, which python-gitlab takes as the object's attributes
sched = project.pipelineschedules.get(sid)
# The Debian python-gitlab has no schedule pipelines manager: the same GET through its HTTP client.
made = gl.http_list(f'/projects/${project.id}/pipeline_schedules/{sched.id}/pipelines', get_all=True)
pipelines = [{'source': p['source'], 'ref': p['ref']} for p in made]
sched.take_ownership()
paused = [x for x in project.pipelineschedules.list(get_all=True) if x.description == 'Paused'][0]
paused.delete()
remaining = len(project.pipelineschedules.list(get_all=True))
out({'created': created, 'listed': listed, 'inactive': inactive, 'edited': edited, 'variables': variables,
     'after_delete': after_delete, 'pipelines': pipelines, 'remaining': remaining})
`,
    )
    expect(result.created).toEqual({
      description: 'Nightly',
      ref: 'refs/heads/main',
      cron_timezone: 'Europe/Berlin',
      owner: 'wire_sched_maintainer',
    })
    expect(result.listed).toEqual(['Nightly', 'Paused'])
    expect(result.inactive).toEqual(['Paused'])
    expect(result.edited).toEqual({ cron: '30 1 * * 1-5', active: true })
    expect(result.variables).toEqual([
      { key: 'NIGHTLY', value: 'yes' },
      { key: 'DOOMED', value: 'x' },
    ])
    expect(result.after_delete).toEqual(['NIGHTLY'])
    expect(result.pipelines).toEqual([{ source: 'schedule', ref: 'main' }])
    expect(result.remaining).toBe(1)
  })
})
