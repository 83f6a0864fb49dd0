import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nowIso } from '../../src/server/platform/db/connection'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { pruneExpiredMembers } from '../../src/server/modules/members/service'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

const API = '/api/v4'

function futureDate(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
}

describe('members: listing and reading', () => {
  let s: TestServer
  let top: NamespaceRow
  let mid: NamespaceRow
  let leaf: NamespaceRow
  let project: ProjectRow
  let invited: NamespaceRow
  let topOwner: SeededUser
  let midDev: SeededUser
  let leafGuest: SeededUser
  let projectReporter: SeededUser
  let sharedMaintainer: SeededUser
  let outsider: SeededUser

  beforeAll(async () => {
    s = await makeServer()
    top = seedGroup(s, { path: 'top' })
    mid = seedGroup(s, { path: 'mid', parentId: top.id })
    leaf = seedGroup(s, { path: 'leaf', parentId: mid.id })
    project = seedProject(s, { namespaceId: leaf.id, path: 'app' })
    invited = seedGroup(s, { path: 'invited' })
    topOwner = seedUser(s, { username: 'top_owner', public_email: 'owner@public.example' })
    midDev = seedUser(s, { username: 'mid_dev' })
    leafGuest = seedUser(s, { username: 'leaf_guest' })
    projectReporter = seedUser(s, { username: 'proj_reporter' })
    sharedMaintainer = seedUser(s, { username: 'shared_maint' })
    outsider = seedUser(s, { username: 'outsider' })
    seedMember(s, 'Namespace', top.id, topOwner.user.id, 50)
    seedMember(s, 'Namespace', mid.id, midDev.user.id, 30)
    seedMember(s, 'Namespace', leaf.id, leafGuest.user.id, 10)
    // midDev is also a direct Guest of the project: the inherited Developer level must win.
    seedMember(s, 'Project', project.id, midDev.user.id, 10)
    seedMember(s, 'Project', project.id, projectReporter.user.id, 20)
    seedMember(s, 'Namespace', invited.id, sharedMaintainer.user.id, 40)
    // The project is shared with `invited` at Reporter: its Maintainer gets min(20, 40) = 20.
    s.app.burrow.db
      .prepare('INSERT INTO project_group_links (project_id, group_id, group_access) VALUES (?, ?, ?)')
      .run(project.id, invited.id, 20)
  })
  afterAll(async () => {
    await s.close()
  })

  it('lists only direct project members with the Member fields', async () => {
    const res = await s.request(projectReporter.token, { method: 'GET', url: `${API}/projects/${project.id}/members` })
    expect(res.statusCode).toBe(200)
    const body = res.json() as Record<string, unknown>[]
    expect(body.map((m) => m.username)).toEqual(['mid_dev', 'proj_reporter'])
    const reporter = body[1]
    expect(reporter).toMatchObject({
      id: projectReporter.user.id,
      username: 'proj_reporter',
      name: projectReporter.user.name,
      state: 'active',
      avatar_url: null,
      web_url: 'http://burrow.test/proj_reporter',
      expires_at: null,
      access_level: 20,
      group_saml_identity: null,
      membership_state: 'active',
    })
    expect(typeof reporter.created_at).toBe('string')
    expect(reporter).not.toHaveProperty('email')
  })

  it('lists inherited and shared members once each at their highest level', async () => {
    const res = await s.request(projectReporter.token, {
      method: 'GET',
      url: `${API}/projects/${project.id}/members/all`,
    })
    expect(res.statusCode).toBe(200)
    const levels = Object.fromEntries(
      (res.json() as { username: string; access_level: number }[]).map((m) => [m.username, m.access_level]),
    )
    expect(levels).toEqual({ top_owner: 50, mid_dev: 30, leaf_guest: 10, proj_reporter: 20, shared_maint: 20 })
  })

  it("shows members of ancestor groups in a subgroup's /members/all but not in /members", async () => {
    const direct = await s.request(ROOT_TOKEN, { method: 'GET', url: `${API}/groups/${leaf.id}/members` })
    expect((direct.json() as { username: string }[]).map((m) => m.username)).toEqual(['leaf_guest'])
    const all = await s.request(ROOT_TOKEN, {
      method: 'GET',
      url: `${API}/groups/${encodeURIComponent('top/mid/leaf')}/members/all`,
    })
    expect((all.json() as { username: string }[]).map((m) => m.username).sort()).toEqual([
      'leaf_guest',
      'mid_dev',
      'top_owner',
    ])
  })

  it('includes members of a group shared with an ancestor group, capped at the share level', async () => {
    const partner = seedGroup(s, { path: 'partner' })
    const partnerOwner = seedUser(s, { username: 'partner_owner' })
    seedMember(s, 'Namespace', partner.id, partnerOwner.user.id, 50)
    s.app.burrow.db
      .prepare('INSERT INTO group_group_links (shared_group_id, shared_with_group_id, group_access) VALUES (?, ?, ?)')
      .run(mid.id, partner.id, 30)
    const res = await s.request(ROOT_TOKEN, {
      method: 'GET',
      url: `${API}/groups/${leaf.id}/members/all/${partnerOwner.user.id}`,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().access_level).toBe(30)
    s.app.burrow.db.prepare('DELETE FROM group_group_links WHERE shared_with_group_id = ?').run(partner.id)
  })

  it('shows the public email only for users who made one public', async () => {
    const res = await s.request(ROOT_TOKEN, {
      method: 'GET',
      url: `${API}/groups/${top.id}/members/${topOwner.user.id}`,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().email).toBe('owner@public.example')
  })

  it('filters by query and user_ids (array and comma-separated)', async () => {
    const byQuery = await s.request(ROOT_TOKEN, {
      method: 'GET',
      url: `${API}/projects/${project.id}/members/all?query=leaf`,
    })
    expect((byQuery.json() as { username: string }[]).map((m) => m.username)).toEqual(['leaf_guest'])
    const byIds = await s.request(ROOT_TOKEN, {
      method: 'GET',
      url: `${API}/projects/${project.id}/members/all?user_ids[]=${topOwner.user.id}&user_ids[]=${sharedMaintainer.user.id}`,
    })
    expect((byIds.json() as { id: number }[]).map((m) => m.id).sort()).toEqual(
      [topOwner.user.id, sharedMaintainer.user.id].sort(),
    )
    const comma = await s.request(ROOT_TOKEN, {
      method: 'GET',
      url: `${API}/projects/${project.id}/members?user_ids=${projectReporter.user.id},${midDev.user.id}`,
    })
    expect((comma.json() as unknown[]).length).toBe(2)
    const skip = await s.request(ROOT_TOKEN, {
      method: 'GET',
      url: `${API}/projects/${project.id}/members?skip_users[]=${midDev.user.id}`,
    })
    expect((skip.json() as { id: number }[]).map((m) => m.id)).toEqual([projectReporter.user.id])
  })

  it('rejects a non-integer user_ids with 400', async () => {
    const res = await s.request(ROOT_TOKEN, {
      method: 'GET',
      url: `${API}/projects/${project.id}/members?user_ids[]=abc`,
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'user_ids is invalid' })
  })

  it('answers 404 Member Not Found for a user who is not a direct member', async () => {
    const res = await s.request(ROOT_TOKEN, {
      method: 'GET',
      url: `${API}/projects/${project.id}/members/${topOwner.user.id}`,
    })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: '404 Member Not Found' })
    const inherited = await s.request(ROOT_TOKEN, {
      method: 'GET',
      url: `${API}/projects/${project.id}/members/all/${topOwner.user.id}`,
    })
    expect(inherited.statusCode).toBe(200)
    expect(inherited.json().access_level).toBe(50)
    const none = await s.request(ROOT_TOKEN, {
      method: 'GET',
      url: `${API}/projects/${project.id}/members/all/${outsider.user.id}`,
    })
    expect(none.statusCode).toBe(404)
  })

  it("hides a private project's members from non-members with 404", async () => {
    const res = await s.request(outsider.token, { method: 'GET', url: `${API}/projects/${project.id}/members` })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: '404 Project Not Found' })
    const group = await s.request(outsider.token, { method: 'GET', url: `${API}/groups/${top.id}/members` })
    expect(group.json()).toEqual({ message: '404 Group Not Found' })
  })

  it('requires authentication even on public groups', async () => {
    const pub = seedGroup(s, { visibility: 'public' })
    const res = await s.request(null, { method: 'GET', url: `${API}/groups/${pub.id}/members` })
    expect(res.statusCode).toBe(401)
    const member = await s.request(outsider.token, { method: 'GET', url: `${API}/groups/${pub.id}/members` })
    expect(member.statusCode).toBe(200)
  })

  it('lets a Guest of the project read its member list', async () => {
    const res = await s.request(leafGuest.token, { method: 'GET', url: `${API}/projects/${project.id}/members/all` })
    expect(res.statusCode).toBe(200)
  })

  it('paginates with Link and X-* headers', async () => {
    const res = await s.request(ROOT_TOKEN, {
      method: 'GET',
      url: `${API}/projects/${project.id}/members/all?per_page=2&page=2`,
    })
    expect(res.statusCode).toBe(200)
    expect((res.json() as unknown[]).length).toBe(2)
    expect(res.headers['x-total']).toBe('5')
    expect(res.headers['x-total-pages']).toBe('3')
    expect(res.headers['x-page']).toBe('2')
    expect(res.headers['x-next-page']).toBe('3')
    expect(res.headers['x-prev-page']).toBe('1')
    expect(String(res.headers.link)).toContain('rel="next"')
    expect(String(res.headers.link)).toContain('rel="last"')
  })

  it('includes the owner of a personal project in /members/all', async () => {
    const owner = seedUser(s)
    const personal = seedProject(s, { ownerId: owner.user.id })
    const res = await s.request(owner.token, { method: 'GET', url: `${API}/projects/${personal.id}/members/all` })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject([{ id: owner.user.id, access_level: 50 }])
  })

  it('leaves out expired memberships', async () => {
    const g = seedGroup(s)
    const u = seedUser(s)
    seedMember(s, 'Namespace', g.id, u.user.id, 30)
    s.app.burrow.db
      .prepare("UPDATE members SET expires_at = '2000-01-01' WHERE source_id = ? AND user_id = ?")
      .run(g.id, u.user.id)
    const res = await s.request(ROOT_TOKEN, { method: 'GET', url: `${API}/groups/${g.id}/members` })
    expect(res.json()).toEqual([])
  })
})

describe('members: adding, editing, removing', () => {
  let s: TestServer
  let group: NamespaceRow
  let project: ProjectRow
  let owner: SeededUser
  let maintainer: SeededUser
  let developer: SeededUser

  beforeAll(async () => {
    s = await makeServer()
    group = seedGroup(s, { path: 'team' })
    project = seedProject(s, { namespaceId: group.id, path: 'svc' })
    owner = seedUser(s, { username: 'team_owner' })
    maintainer = seedUser(s, { username: 'proj_maint' })
    developer = seedUser(s, { username: 'proj_dev' })
    seedMember(s, 'Namespace', group.id, owner.user.id, 50)
    seedMember(s, 'Project', project.id, maintainer.user.id, 40)
    seedMember(s, 'Project', project.id, developer.user.id, 30)
  })
  afterAll(async () => {
    await s.close()
  })

  it('adds a project member: 201 with the member, created_by, a joined event and an audit event', async () => {
    const u = seedUser(s)
    const expires = futureDate(30)
    const res = await s.request(maintainer.token, {
      method: 'POST',
      url: `${API}/projects/${project.id}/members`,
      payload: { user_id: u.user.id, access_level: 30, expires_at: expires },
    })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({
      id: u.user.id,
      username: u.user.username,
      access_level: 30,
      expires_at: expires,
      created_by: { id: maintainer.user.id },
    })
    const event = s.app.burrow.db
      .prepare("SELECT * FROM events WHERE action = 'joined' AND project_id = ? AND author_id = ?")
      .get(project.id, u.user.id) as { target_type: string | null } | undefined
    expect(event).toBeDefined()
    expect(event?.target_type).toBeNull()
    const audit = s.app.burrow.db
      .prepare("SELECT details FROM audit_events WHERE entity_type = 'Project' AND entity_id = ? ORDER BY id DESC")
      .get(project.id) as { details: string }
    expect(JSON.parse(audit.details)).toMatchObject({ add: 'user_access', as: 'Developer', target_id: u.user.id })
  })

  it('adds by username and with form-encoded bodies', async () => {
    const u = seedUser(s)
    const res = await s.request(owner.token, {
      method: 'POST',
      url: `${API}/groups/${group.id}/members`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `username=${u.user.username}&access_level=20`,
    })
    expect(res.statusCode).toBe(201)
    expect(res.json().access_level).toBe(20)
  })

  it('adds several users from comma-separated ids with a status body', async () => {
    const a = seedUser(s)
    const b = seedUser(s)
    const res = await s.request(owner.token, {
      method: 'POST',
      url: `${API}/groups/${group.id}/members`,
      payload: { user_id: `${a.user.id},${b.user.id}`, access_level: 10 },
    })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toEqual({ status: 'success' })
    const again = await s.request(owner.token, {
      method: 'POST',
      url: `${API}/groups/${group.id}/members`,
      payload: { user_id: `${a.user.id},999999`, access_level: 10 },
    })
    expect(again.json()).toMatchObject({ status: 'error' })
  })

  it('answers 409 Member already exists', async () => {
    const res = await s.request(owner.token, {
      method: 'POST',
      url: `${API}/projects/${project.id}/members`,
      payload: { user_id: developer.user.id, access_level: 30 },
    })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({ message: 'Member already exists' })
  })

  it('answers 404 User Not Found for an unknown user', async () => {
    const res = await s.request(owner.token, {
      method: 'POST',
      url: `${API}/projects/${project.id}/members`,
      payload: { user_id: 987654, access_level: 30 },
    })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: '404 User Not Found' })
  })

  it('answers 400 when access_level is missing or not a valid level', async () => {
    const u = seedUser(s)
    const missing = await s.request(owner.token, {
      method: 'POST',
      url: `${API}/projects/${project.id}/members`,
      payload: { user_id: u.user.id },
    })
    expect(missing.statusCode).toBe(400)
    expect(missing.json()).toEqual({ error: 'access_level is missing' })
    const bad = await s.request(owner.token, {
      method: 'POST',
      url: `${API}/projects/${project.id}/members`,
      payload: { user_id: u.user.id, access_level: 45 },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toEqual({ message: { access_level: ['is not included in the list'] } })
  })

  it('answers 400 when user_id and username are both missing', async () => {
    const res = await s.request(owner.token, {
      method: 'POST',
      url: `${API}/projects/${project.id}/members`,
      payload: { access_level: 30 },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toContain('user_id')
  })

  it('refuses an expiry date in the past with 400', async () => {
    const u = seedUser(s)
    const res = await s.request(owner.token, {
      method: 'POST',
      url: `${API}/projects/${project.id}/members`,
      payload: { user_id: u.user.id, access_level: 30, expires_at: '2001-01-01' },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ message: { expires_at: ['cannot be a date in the past'] } })
    const garbage = await s.request(owner.token, {
      method: 'POST',
      url: `${API}/projects/${project.id}/members`,
      payload: { user_id: u.user.id, access_level: 30, expires_at: 'soon' },
    })
    expect(garbage.json()).toEqual({ error: 'expires_at is invalid' })
  })

  it('forbids a Developer from adding project members', async () => {
    const u = seedUser(s)
    const res = await s.request(developer.token, {
      method: 'POST',
      url: `${API}/projects/${project.id}/members`,
      payload: { user_id: u.user.id, access_level: 10 },
    })
    expect(res.statusCode).toBe(403)
  })

  it('forbids a project Maintainer from adding an Owner', async () => {
    const u = seedUser(s)
    const res = await s.request(maintainer.token, {
      method: 'POST',
      url: `${API}/projects/${project.id}/members`,
      payload: { user_id: u.user.id, access_level: 50 },
    })
    expect(res.statusCode).toBe(403)
  })

  it('lets a group Owner add a project Owner', async () => {
    const u = seedUser(s)
    const res = await s.request(owner.token, {
      method: 'POST',
      url: `${API}/projects/${project.id}/members`,
      payload: { user_id: u.user.id, access_level: 50 },
    })
    expect(res.statusCode).toBe(201)
  })

  it('forbids a group Maintainer from managing group members (Owner only, as GitLab)', async () => {
    const gm = seedUser(s)
    seedMember(s, 'Namespace', group.id, gm.user.id, 40)
    const u = seedUser(s)
    const res = await s.request(gm.token, {
      method: 'POST',
      url: `${API}/groups/${group.id}/members`,
      payload: { user_id: u.user.id, access_level: 10 },
    })
    expect(res.statusCode).toBe(403)
  })

  it('answers 401 to anonymous writes and 404 to non-members of a private project', async () => {
    const anon = await s.request(null, {
      method: 'POST',
      url: `${API}/projects/${project.id}/members`,
      payload: { user_id: 1, access_level: 10 },
    })
    expect(anon.statusCode).toBe(401)
    const stranger = seedUser(s)
    const res = await s.request(stranger.token, {
      method: 'POST',
      url: `${API}/projects/${project.id}/members`,
      payload: { user_id: 1, access_level: 10 },
    })
    expect(res.statusCode).toBe(404)
  })

  it('lets an administrator add members anywhere', async () => {
    const u = seedUser(s)
    const res = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `${API}/groups/${group.id}/members`,
      payload: { user_id: u.user.id, access_level: 50 },
    })
    expect(res.statusCode).toBe(201)
  })

  it("edits a member's level and expiry and audits the level change", async () => {
    const u = seedUser(s)
    seedMember(s, 'Project', project.id, u.user.id, 10)
    const expires = futureDate(10)
    const res = await s.request(maintainer.token, {
      method: 'PUT',
      url: `${API}/projects/${project.id}/members/${u.user.id}`,
      payload: { access_level: 40, expires_at: expires },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ id: u.user.id, access_level: 40, expires_at: expires })
    const audit = s.app.burrow.db
      .prepare(
        "SELECT details FROM audit_events WHERE details LIKE '%access_level%' AND entity_id = ? ORDER BY id DESC",
      )
      .get(project.id) as { details: string }
    expect(JSON.parse(audit.details)).toMatchObject({ change: 'access_level', from: 'Guest', to: 'Maintainer' })
  })

  it('answers 404 when editing someone who is not a direct member', async () => {
    const res = await s.request(owner.token, {
      method: 'PUT',
      url: `${API}/projects/${project.id}/members/${owner.user.id}`,
      payload: { access_level: 30 },
    })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: '404 Member Not Found' })
  })

  it('forbids a project Maintainer from promoting to Owner', async () => {
    const res = await s.request(maintainer.token, {
      method: 'PUT',
      url: `${API}/projects/${project.id}/members/${developer.user.id}`,
      payload: { access_level: 50 },
    })
    expect(res.statusCode).toBe(403)
  })

  it('answers 412 when the member changed after If-Unmodified-Since', async () => {
    const res = await s.request(owner.token, {
      method: 'PUT',
      url: `${API}/projects/${project.id}/members/${developer.user.id}`,
      headers: { 'if-unmodified-since': new Date(Date.now() - 86_400_000 * 365).toUTCString() },
      payload: { access_level: 30 },
    })
    expect(res.statusCode).toBe(412)
  })

  it('forbids demoting or removing the last owner of a group', async () => {
    const g = seedGroup(s)
    const sole = seedUser(s)
    seedMember(s, 'Namespace', g.id, sole.user.id, 50)
    const demote = await s.request(ROOT_TOKEN, {
      method: 'PUT',
      url: `${API}/groups/${g.id}/members/${sole.user.id}`,
      payload: { access_level: 40 },
    })
    expect(demote.statusCode).toBe(403)
    const leave = await s.request(sole.token, {
      method: 'DELETE',
      url: `${API}/groups/${g.id}/members/${sole.user.id}`,
    })
    expect(leave.statusCode).toBe(403)
  })

  it('lets a second owner remove the first', async () => {
    const g = seedGroup(s)
    const a = seedUser(s)
    const b = seedUser(s)
    seedMember(s, 'Namespace', g.id, a.user.id, 50)
    seedMember(s, 'Namespace', g.id, b.user.id, 50)
    const res = await s.request(b.token, { method: 'DELETE', url: `${API}/groups/${g.id}/members/${a.user.id}` })
    expect(res.statusCode).toBe(204)
  })

  it('removes a member with 204 and records a left event', async () => {
    const u = seedUser(s)
    seedMember(s, 'Project', project.id, u.user.id, 20)
    const res = await s.request(maintainer.token, {
      method: 'DELETE',
      url: `${API}/projects/${project.id}/members/${u.user.id}?unassign_issuables=true`,
    })
    expect(res.statusCode).toBe(204)
    const gone = await s.request(owner.token, {
      method: 'GET',
      url: `${API}/projects/${project.id}/members/${u.user.id}`,
    })
    expect(gone.statusCode).toBe(404)
    const left = s.app.burrow.db
      .prepare("SELECT 1 FROM events WHERE action = 'left' AND project_id = ? AND author_id = ?")
      .get(project.id, u.user.id)
    expect(left).toBeDefined()
  })

  it('lets a member leave on their own at any level', async () => {
    const u = seedUser(s)
    seedMember(s, 'Project', project.id, u.user.id, 10)
    const res = await s.request(u.token, {
      method: 'DELETE',
      url: `${API}/projects/${project.id}/members/${u.user.id}`,
    })
    expect(res.statusCode).toBe(204)
  })

  it('forbids a Developer from removing someone else', async () => {
    const res = await s.request(developer.token, {
      method: 'DELETE',
      url: `${API}/projects/${project.id}/members/${maintainer.user.id}`,
    })
    expect(res.statusCode).toBe(403)
  })

  it('removes a group member from its subgroups and projects unless skip_subresources', async () => {
    const g = seedGroup(s)
    const sub = seedGroup(s, { parentId: g.id })
    const p = seedProject(s, { namespaceId: sub.id })
    const u = seedUser(s)
    const v = seedUser(s)
    for (const who of [u, v]) {
      seedMember(s, 'Namespace', g.id, who.user.id, 30)
      seedMember(s, 'Namespace', sub.id, who.user.id, 30)
      seedMember(s, 'Project', p.id, who.user.id, 30)
    }
    expect(
      (await s.request(ROOT_TOKEN, { method: 'DELETE', url: `${API}/groups/${g.id}/members/${u.user.id}` })).statusCode,
    ).toBe(204)
    expect(
      (
        await s.request(ROOT_TOKEN, {
          method: 'DELETE',
          url: `${API}/groups/${g.id}/members/${v.user.id}?skip_subresources=true`,
        })
      ).statusCode,
    ).toBe(204)
    const left = s.app.burrow.db
      .prepare('SELECT user_id FROM members WHERE user_id IN (?, ?)')
      .all(u.user.id, v.user.id) as { user_id: number }[]
    expect(left.map((r) => r.user_id)).toEqual([v.user.id, v.user.id])
  })

  it('adding a member consumes their pending access request', async () => {
    const u = seedUser(s)
    const now = nowIso()
    s.app.burrow.db
      .prepare(
        "INSERT INTO access_requests (source_type, source_id, user_id, requested_at, created_at) VALUES ('Project', ?, ?, ?, ?)",
      )
      .run(project.id, u.user.id, now, now)
    await s.request(owner.token, {
      method: 'POST',
      url: `${API}/projects/${project.id}/members`,
      payload: { user_id: u.user.id, access_level: 30 },
    })
    const pending = s.app.burrow.db.prepare('SELECT 1 FROM access_requests WHERE user_id = ?').get(u.user.id)
    expect(pending).toBeUndefined()
  })
})

describe('GET /users/:id/memberships', () => {
  let s: TestServer
  beforeAll(async () => {
    s = await makeServer()
  })
  afterAll(async () => {
    await s.close()
  })

  it("lists a user's memberships for administrators, filtered by type", async () => {
    const g = seedGroup(s, { name: 'Alpha' })
    const p = seedProject(s, { namespaceId: g.id, name: 'Beta' })
    const u = seedUser(s)
    seedMember(s, 'Namespace', g.id, u.user.id, 30)
    seedMember(s, 'Project', p.id, u.user.id, 40)
    const all = await s.request(ROOT_TOKEN, { method: 'GET', url: `${API}/users/${u.user.id}/memberships` })
    expect(all.statusCode).toBe(200)
    expect(all.json()).toEqual([
      { source_id: g.id, source_name: 'Alpha', source_type: 'Namespace', access_level: 30 },
      { source_id: p.id, source_name: 'Beta', source_type: 'Project', access_level: 40 },
    ])
    const projects = await s.request(ROOT_TOKEN, {
      method: 'GET',
      url: `${API}/users/${u.user.id}/memberships?type=Project`,
    })
    expect((projects.json() as unknown[]).length).toBe(1)
    const bad = await s.request(ROOT_TOKEN, { method: 'GET', url: `${API}/users/${u.user.id}/memberships?type=Group` })
    expect(bad.statusCode).toBe(400)
  })

  it('is forbidden to non-administrators', async () => {
    const u = seedUser(s)
    const res = await s.request(u.token, { method: 'GET', url: `${API}/users/${u.user.id}/memberships` })
    expect(res.statusCode).toBe(403)
  })
})

describe('expired memberships', () => {
  it('prunes them and records an expired event for project memberships', async () => {
    const s = await makeServer()
    try {
      const g = seedGroup(s)
      const p = seedProject(s, { namespaceId: g.id })
      const u = seedUser(s)
      const keep = seedUser(s)
      seedMember(s, 'Project', p.id, u.user.id, 30)
      seedMember(s, 'Namespace', g.id, u.user.id, 30)
      seedMember(s, 'Project', p.id, keep.user.id, 30)
      s.app.burrow.db.prepare("UPDATE members SET expires_at = '2000-01-01' WHERE user_id = ?").run(u.user.id)
      expect(pruneExpiredMembers(s.app.burrow.db)).toBe(2)
      const remaining = s.app.burrow.db.prepare('SELECT user_id FROM members').all() as { user_id: number }[]
      expect(remaining.map((r) => r.user_id)).toEqual([keep.user.id])
      const expired = s.app.burrow.db
        .prepare("SELECT project_id FROM events WHERE action = 'expired' AND author_id = ?")
        .all(u.user.id)
      expect(expired).toEqual([{ project_id: p.id }])
    } finally {
      await s.close()
    }
  })
})
