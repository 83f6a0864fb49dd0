import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

describe('badges over the wire', () => {
  let s: ListeningServer
  let group: NamespaceRow
  let project: ProjectRow
  let owner: SeededUser

  beforeAll(async () => {
    s = await startServer()
    group = seedGroup(s, { path: 'wire-badges', visibility: 'public' })
    project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'public' })
    owner = seedUser(s, { username: 'wire_badges_owner' })
    seedMember(s, 'Namespace', group.id, owner.user.id, 50)
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab adds, renders, lists, edits and deletes project and group badges', async () => {
    const result = await withPythonGitlab<{
      created: { kind: string; rendered_link_url: string }
      rendered: string
      listed: [string, string][]
      edited: string
      group_listed: string[]
      after_delete: string[]
    }>(
      s.url,
      { private_token: owner.token },
      `
project = gl.projects.get(${project.id}, lazy=True)
group = gl.groups.get(${group.id}, lazy=True)
badge = project.badges.create({'link_url': 'https://ci.example.com/%{project_path}', 'image_url': 'https://ci.example.com/b.svg', 'name': 'CI'})
created = {'kind': badge.kind, 'rendered_link_url': badge.rendered_link_url}
rendered = project.badges.render('https://x.example.com/%{project_id}', 'https://x.example.com/i.svg')['rendered_link_url']
group.badges.create({'link_url': 'https://docs.example.com/%{project_name}', 'image_url': 'https://docs.example.com/d.svg', 'name': 'Docs'})
listed = [[b.name, b.kind] for b in project.badges.list(get_all=True)]
badge = project.badges.get(badge.id)
badge.link_url = 'https://ci.example.com/%{default_branch}'
badge.save()
edited = project.badges.get(badge.id).link_url
group_listed = [b.name for b in group.badges.list(get_all=True)]
project.badges.delete(badge.id)
after_delete = [b.name for b in project.badges.list(get_all=True)]
out({'created': created, 'rendered': rendered, 'listed': listed, 'edited': edited, 'group_listed': group_listed, 'after_delete': after_delete})
`,
    )
    expect(result.created).toEqual({ kind: 'project', rendered_link_url: 'https://ci.example.com/wire-badges/app' })
    expect(result.rendered).toBe(`https://x.example.com/${project.id}`)
    expect(result.listed).toEqual([
      ['CI', 'project'],
      ['Docs', 'group'],
    ])
    expect(result.edited).toBe('https://ci.example.com/%{default_branch}')
    expect(result.group_listed).toEqual(['Docs'])
    expect(result.after_delete).toEqual(['Docs'])
  })

  it('@gitbeaker/rest adds, shows and edits a group badge', async () => {
    const api = new Gitlab({ host: s.url, token: owner.token })
    const created = await api.GroupBadges.add(
      group.id,
      'https://g.example.com/%{project_name}',
      'https://g.example.com/g.svg',
    )
    expect(created).toMatchObject({ kind: 'group', rendered_link_url: 'https://g.example.com/app' })
    const edited = await api.GroupBadges.edit(group.id, created.id, { name: 'Group' })
    expect(edited).toMatchObject({ name: 'Group', link_url: 'https://g.example.com/%{project_name}' })
    expect((await api.GroupBadges.show(group.id, created.id)).name).toBe('Group')
    const preview = await api.ProjectBadges.preview(
      project.id,
      'https://p.example.com/%{project_path}',
      'https://p.example.com/p.svg',
    )
    expect(preview.rendered_link_url).toBe('https://p.example.com/wire-badges/app')
  })
})
