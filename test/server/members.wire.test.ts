import { AccessLevel, Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

interface WireMember {
  readonly id: number
  readonly username: string
  readonly access_level: number
}

describe('members and access requests over the wire', () => {
  let s: ListeningServer
  let top: NamespaceRow
  let sub: NamespaceRow
  let project: ProjectRow
  let owner: SeededUser
  let maintainer: SeededUser
  let newcomer: SeededUser

  beforeAll(async () => {
    s = await startServer()
    top = seedGroup(s, { path: 'wire-top', visibility: 'public' })
    sub = seedGroup(s, { path: 'wire-sub', parentId: top.id, visibility: 'public' })
    project = seedProject(s, { namespaceId: sub.id, path: 'wire-app', visibility: 'public' })
    owner = seedUser(s, { username: 'wire_owner' })
    maintainer = seedUser(s, { username: 'wire_maint' })
    newcomer = seedUser(s, { username: 'wire_new' })
    seedMember(s, 'Namespace', top.id, owner.user.id, 50)
    seedMember(s, 'Project', project.id, maintainer.user.id, 40)
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab adds, edits, lists and removes project members', async () => {
    const result = await withPythonGitlab<{
      created: WireMember
      edited: number
      direct: string[]
      all: Record<string, number>
      after: string[]
    }>(
      s.url,
      { private_token: maintainer.token },
      `
project = gl.projects.get(${project.id}, lazy=True)
m = project.members.create({'user_id': ${newcomer.user.id}, 'access_level': 30})
created = {'id': m.id, 'username': m.username, 'access_level': m.access_level}
m.access_level = 20
m.save()
edited = project.members.get(${newcomer.user.id}).access_level
direct = sorted(x.username for x in project.members.list(get_all=True))
all_levels = {x.username: x.access_level for x in project.members_all.list(get_all=True)}
project.members.delete(${newcomer.user.id})
after = sorted(x.username for x in project.members.list(get_all=True))
out({'created': created, 'edited': edited, 'direct': direct, 'all': all_levels, 'after': after})
`,
    )
    expect(result.created).toEqual({ id: newcomer.user.id, username: 'wire_new', access_level: 30 })
    expect(result.edited).toBe(20)
    expect(result.direct).toEqual(['wire_maint', 'wire_new'])
    expect(result.all).toEqual({ wire_owner: 50, wire_maint: 40, wire_new: 20 })
    expect(result.after).toEqual(['wire_maint'])
  })

  it('python-gitlab lists inherited group members with members_all', async () => {
    const usernames = await withPythonGitlab<string[]>(
      s.url,
      { private_token: ROOT_TOKEN },
      `
group = gl.groups.get(${sub.id}, lazy=True)
out(sorted(m.username for m in group.members_all.list(get_all=True)))
`,
    )
    expect(usernames).toEqual(['wire_owner'])
  })

  it('python-gitlab creates an access request and approves it', async () => {
    const requester = seedUser(s, { username: 'wire_requester' })
    const requested = await withPythonGitlab<{ id: number; username: string }>(
      s.url,
      { private_token: requester.token },
      `
ar = gl.projects.get(${project.id}, lazy=True).accessrequests.create({})
out({'id': ar.id, 'username': ar.username})
`,
    )
    expect(requested).toEqual({ id: requester.user.id, username: 'wire_requester' })
    const approved = await withPythonGitlab<{ level: number; pending: number }>(
      s.url,
      { private_token: maintainer.token },
      `
project = gl.projects.get(${project.id}, lazy=True)
ar = [r for r in project.accessrequests.list(get_all=True) if r.id == ${requester.user.id}][0]
ar.approve()
out({'level': project.members.get(${requester.user.id}).access_level, 'pending': len(project.accessrequests.list(get_all=True))})
`,
    )
    expect(approved).toEqual({ level: 30, pending: 0 })
  })

  it('python-gitlab sees 409 as a GitlabCreateError for an existing member', async () => {
    const code = await withPythonGitlab<number>(
      s.url,
      { private_token: maintainer.token },
      `
try:
    gl.projects.get(${project.id}, lazy=True).members.create({'user_id': ${maintainer.user.id}, 'access_level': 30})
    out(0)
except gitlab.exceptions.GitlabCreateError as e:
    out(e.response_code)
`,
    )
    expect(code).toBe(409)
  })

  it('gitbeaker manages project and group members', async () => {
    const api = new Gitlab({ host: s.url, token: owner.token })
    const someone = seedUser(s, { username: 'beaker_user' })
    const added = await api.ProjectMembers.add(project.id, AccessLevel.DEVELOPER, { userId: someone.user.id })
    expect(added).toMatchObject({ id: someone.user.id, access_level: 30 })
    const shown = await api.ProjectMembers.show(project.id, someone.user.id)
    expect(shown.username).toBe('beaker_user')
    const edited = await api.ProjectMembers.edit(project.id, someone.user.id, AccessLevel.MAINTAINER)
    expect(edited.access_level).toBe(40)
    await api.ProjectMembers.remove(project.id, someone.user.id)
    const members = await api.ProjectMembers.all(project.id)
    expect(members.map((m) => m.username)).not.toContain('beaker_user')

    await api.GroupMembers.add(sub.id, AccessLevel.REPORTER, { userId: someone.user.id })
    const inherited = await api.GroupMembers.all(sub.id, { includeInherited: true })
    expect(Object.fromEntries(inherited.map((m) => [m.username, m.access_level]))).toEqual({
      wire_owner: 50,
      beaker_user: 20,
    })
    const one = await api.GroupMembers.show(sub.id, owner.user.id, { includeInherited: true })
    expect(one.access_level).toBe(50)
  })

  it('gitbeaker requests, lists and denies group access', async () => {
    const requester = seedUser(s, { username: 'beaker_req' })
    const asRequester = new Gitlab({ host: s.url, token: requester.token })
    const asOwner = new Gitlab({ host: s.url, token: owner.token })
    const req = await asRequester.GroupAccessRequests.request(top.id)
    expect(req.username).toBe('beaker_req')
    const pending = await asOwner.GroupAccessRequests.all(top.id)
    expect(pending.map((r) => r.id)).toEqual([requester.user.id])
    await asOwner.GroupAccessRequests.deny(top.id, requester.user.id)
    expect(await asOwner.GroupAccessRequests.all(top.id)).toEqual([])
  })

  it('gitbeaker reads billable members of the top-level group', async () => {
    const api = new Gitlab({ host: s.url, token: owner.token })
    const billable = await api.GroupMembers.allBillable(top.id)
    const usernames = billable.map((m) => m.username)
    expect(usernames).toContain('wire_owner')
    expect(usernames).toContain('wire_maint')
    const memberships = await api.GroupMembers.allBillableMemberships(top.id, maintainer.user.id)
    expect(memberships.map((m) => m.source_id)).toEqual([project.id])
  })
})
