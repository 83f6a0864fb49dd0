import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

describe('releases over the wire', () => {
  let s: ListeningServer
  let project: ProjectRow
  let maintainer: SeededUser

  beforeAll(async () => {
    s = await startServer()
    const group = seedGroup(s, { path: 'wire-rel', visibility: 'public' })
    project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'public' })
    maintainer = seedUser(s, { username: 'wire_rel_maintainer' })
    seedMember(s, 'Namespace', group.id, maintainer.user.id, 40)
    const res = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${project.id}/repository/commits`,
      payload: {
        branch: 'main',
        commit_message: 'Initial commit',
        actions: [{ action: 'create', file_path: 'README.md', content: '# App\n' }],
      },
    })
    expect(res.statusCode).toBe(201)
    await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${project.id}/milestones`,
      payload: { title: '1.0' },
    })
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab creates a release with its tag, edits it, manages its links and deletes it', async () => {
    const result = await withPythonGitlab<{
      created: { tag_name: string; name: string; milestones: string[]; links: string[] }
      listed: string[]
      edited: string
      links: { name: string; link_type: string }[]
      tag_release: { tag_name: string; description: string }
      after_delete: string[]
    }>(
      s.url,
      { private_token: maintainer.token },
      `
project = gl.projects.get(${project.id}, lazy=True)
r = project.releases.create({'name': 'App 1.0', 'tag_name': 'v1.0', 'ref': 'main', 'description': 'Notes',
                             'milestones': ['1.0'],
                             'assets': {'links': [{'name': 'app.zip', 'url': 'https://example.com/app.zip'}]}})
created = {'tag_name': r.tag_name, 'name': r.name, 'milestones': [m['title'] for m in r.milestones],
           'links': [l['name'] for l in r.assets['links']]}
listed = [x.tag_name for x in project.releases.list(get_all=True)]
release = project.releases.get('v1.0')
release.name = 'App 1.0 final'
release.save()
edited = project.releases.get('v1.0').name
link = release.links.create({'name': 'Runbook', 'url': 'https://example.com/runbook', 'link_type': 'runbook'})
link.name = 'Ops runbook'
link.save()
links = [{'name': l.name, 'link_type': l.link_type} for l in release.links.list(get_all=True)]
release.links.delete(link.id)
tag_release = project.tags.get('v1.0').release
project.releases.delete('v1.0')
after_delete = [x.tag_name for x in project.releases.list(get_all=True)]
out({'created': created, 'listed': listed, 'edited': edited, 'links': links, 'tag_release': tag_release,
     'after_delete': after_delete})
`,
    )
    expect(result.created).toEqual({ tag_name: 'v1.0', name: 'App 1.0', milestones: ['1.0'], links: ['app.zip'] })
    expect(result.listed).toEqual(['v1.0'])
    expect(result.edited).toBe('App 1.0 final')
    expect(result.links).toEqual([
      { name: 'Ops runbook', link_type: 'runbook' },
      { name: 'app.zip', link_type: 'other' },
    ])
    expect(result.tag_release).toEqual({ tag_name: 'v1.0', description: 'Notes' })
    expect(result.after_delete).toEqual([])
  })

  it('@gitbeaker/rest creates, reads and edits releases and their links', async () => {
    const api = new Gitlab({ host: s.url, token: maintainer.token })
    const created = await api.ProjectReleases.create(project.id, {
      tagName: 'v2.0',
      ref: 'main',
      name: 'App 2.0',
      releasedAt: '2031-05-01T00:00:00Z',
    })
    expect(created).toMatchObject({ tag_name: 'v2.0', name: 'App 2.0', upcoming_release: true })
    const shown = await api.ProjectReleases.show(project.id, 'v2.0')
    expect(shown.commit?.title).toBe('Initial commit')
    const edited = await api.ProjectReleases.edit(project.id, 'v2.0', { description: 'Second' })
    expect(edited.description).toBe('Second')
    const link = await api.ReleaseLinks.create(project.id, 'v2.0', 'app.tar', 'https://example.com/app.tar', {
      directAssetPath: '/bin/app.tar',
    })
    expect(link.direct_asset_url).toBe(`${s.url}/wire-rel/app/-/releases/v2.0/downloads/bin/app.tar`)
    expect((await api.ReleaseLinks.all(project.id, 'v2.0')).map((l) => l.name)).toEqual(['app.tar'])
    expect((await api.ProjectReleases.all(project.id)).map((r) => r.tag_name)).toEqual(['v2.0'])
  })
})
