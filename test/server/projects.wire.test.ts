import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, startServer, type ListeningServer } from '../helpers/server'

describe('groups and projects over the wire', () => {
  let s: ListeningServer

  beforeAll(async () => {
    s = await startServer()
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab creates, lists, fetches by path, updates and deletes groups, subgroups and projects', async () => {
    const result = await withPythonGitlab<Record<string, unknown>>(
      s.url,
      { private_token: ROOT_TOKEN },
      `
g = gl.groups.create({"name": "Py Group", "path": "py-group"})
sub = gl.groups.create({"name": "Py Sub", "path": "py-sub", "parent_id": g.id})
p = gl.projects.create({"name": "Py Project", "namespace_id": sub.id, "description": "hello"})
by_path = gl.projects.get("py-group/py-sub/py-project")
group_by_path = gl.groups.get("py-group/py-sub")
subgroups = [x.full_path for x in g.subgroups.list()]
group_projects = [x.path for x in g.projects.list(include_subgroups=True)]
by_path.description = "changed"
by_path.save()
again = gl.projects.get(p.id)
g.name = "Py Group Renamed"
g.save()
listed = [x.path_with_namespace for x in gl.projects.list(search="py-project")]
gl.projects.delete(p.id)
remaining = [x.id for x in gl.projects.list(search="py-project")]
out({
  "project_path": p.path_with_namespace,
  "by_path_id": by_path.id == p.id,
  "group_by_path": group_by_path.id == sub.id,
  "subgroups": subgroups,
  "group_projects": group_projects,
  "description": again.description,
  "renamed": gl.groups.get(g.id).full_name,
  "listed": listed,
  "remaining": remaining,
})
`,
    )
    expect(result).toEqual({
      project_path: 'py-group/py-sub/py-project',
      by_path_id: true,
      group_by_path: true,
      subgroups: ['py-group/py-sub'],
      group_projects: ['py-project'],
      description: 'changed',
      renamed: 'Py Group Renamed',
      listed: ['py-group/py-sub/py-project'],
      remaining: [],
    })
  })

  it('python-gitlab walks every page of a project list through the Link header', async () => {
    const count = await withPythonGitlab<number>(
      s.url,
      { private_token: ROOT_TOKEN },
      `
for i in range(5):
    gl.projects.create({"name": "pager-%d" % i})
out(len(gl.projects.list(search="pager-", per_page=2, get_all=True)))
`,
    )
    expect(count).toBe(5)
  })

  it('python-gitlab pages projects and users with keyset pagination to the end', async () => {
    const result = await withPythonGitlab<{ projects: number[]; users: number[]; project_ids: number[] }>(
      s.url,
      { private_token: ROOT_TOKEN },
      `
for i in range(5):
    gl.projects.create({"name": "keyset-%d" % i})
for i in range(4):
    gl.users.create({"email": "ks%d@example.com" % i, "name": "Ks %d" % i, "username": "ks%d" % i, "force_random_password": True})
projects = list(gl.projects.list(pagination="keyset", order_by="id", sort="asc", per_page=2, search="keyset-", iterator=True))
users = list(gl.users.list(pagination="keyset", order_by="id", sort="asc", per_page=2, search="ks", iterator=True))
out({"projects": [p.id for p in projects], "users": [u.id for u in users], "project_ids": sorted(p.id for p in gl.projects.list(search="keyset-", get_all=True))})
`,
    )
    expect(result.projects).toEqual(result.project_ids)
    expect(result.users).toHaveLength(4)
    expect([...result.users].sort((a, b) => a - b)).toEqual(result.users)
  })

  it('gitbeaker pages projects with keyset pagination', async () => {
    const api = new Gitlab({ host: s.url, token: ROOT_TOKEN })
    for (let i = 0; i < 3; i++) await api.Projects.create({ name: `gb-keyset-${i}` })
    const listed = await api.Projects.all({
      search: 'gb-keyset-',
      pagination: 'keyset',
      orderBy: 'id',
      sort: 'asc',
      perPage: 2,
    })
    expect(listed.map((p) => p.name)).toEqual(['gb-keyset-0', 'gb-keyset-1', 'gb-keyset-2'])
  })

  it('gitbeaker creates, gets, edits and removes groups and projects', async () => {
    const api = new Gitlab({ host: s.url, token: ROOT_TOKEN })
    const group = await api.Groups.create('Beaker Group', 'beaker-group')
    const sub = await api.Groups.create('Beaker Sub', 'beaker-sub', { parentId: group.id })
    const project = await api.Projects.create({ name: 'Beaker Project', namespaceId: sub.id })
    expect(project.path_with_namespace).toBe('beaker-group/beaker-sub/beaker-project')

    const fetched = await api.Projects.show('beaker-group/beaker-sub/beaker-project')
    expect(fetched.id).toBe(project.id)
    const fetchedGroup = await api.Groups.show('beaker-group/beaker-sub')
    expect(fetchedGroup.id).toBe(sub.id)

    const edited = await api.Projects.edit(project.id, { description: 'edited', visibility: 'private' })
    expect(edited.description).toBe('edited')
    const subgroups = await api.Groups.allSubgroups(group.id)
    expect(subgroups.map((g) => g.id)).toEqual([sub.id])
    const all = await api.Projects.all({ search: 'beaker' })
    expect(all.map((p) => p.id)).toEqual([project.id])

    await api.Projects.remove(project.id)
    await api.Groups.remove(group.id)
    await expect(api.Groups.show(sub.id)).rejects.toThrow()
  })
})
