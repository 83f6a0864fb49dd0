import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { migrate } from '../../src/server/platform/db/connection'
import { migrations } from '../../src/server/platform/db/migrations/index'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>

describe('issue links', () => {
  let s: ListeningServer
  let open: ProjectRow
  let hidden: ProjectRow
  let developer: SeededUser
  let guest: SeededUser
  let outsider: SeededUser

  const call = (token: string | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Json) =>
    s.request(token, { method, url: `/api/v4${url}`, payload })
  const links = (iid: number) => `/projects/${open.id}/issues/${iid}/links`
  const ok = async (token: string | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Json) => {
    const res = await call(token, method, url, payload)
    expect(res.statusCode, res.body).toBeLessThan(300)
    return res.json() as Json & Json[]
  }
  const linked = async (token: string, iid: number): Promise<string[]> =>
    ((await ok(token, 'GET', links(iid))) as Json[]).map((i) => `${String(i.link_type)} ${String(i.title)}`)
  const newIssue = async (project: ProjectRow, title: string, extra: Json = {}): Promise<number> =>
    Number((await ok(ROOT_TOKEN, 'POST', `/projects/${project.id}/issues`, { title, ...extra })).iid)

  beforeAll(async () => {
    s = await startServer()
    const group = seedGroup(s, { path: 'linked', visibility: 'public' })
    open = seedProject(s, { namespaceId: group.id, path: 'open', visibility: 'public' })
    hidden = seedProject(s, {
      namespaceId: seedGroup(s, { path: 'unlinked', visibility: 'private' }).id,
      path: 'hidden',
    })
    developer = seedUser(s, { username: 'link_dev' })
    guest = seedUser(s, { username: 'link_guest' })
    outsider = seedUser(s, { username: 'link_outsider' })
    seedMember(s, 'Project', open.id, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', open.id, guest.user.id, AccessLevel.GUEST)
    for (const title of ['One', 'Two', 'Three']) await newIssue(open, title)
    await newIssue(open, 'Secret', { confidential: true })
    await newIssue(hidden, 'Private')
  })
  afterAll(async () => {
    await s.close()
  })

  it('links two issues and answers with both issues and the type', async () => {
    const link = await ok(developer.token, 'POST', links(1), { target_project_id: open.id, target_issue_iid: 2 })
    expect(link).toMatchObject({
      source_issue: { iid: 1, title: 'One', project_id: open.id },
      target_issue: { iid: 2, title: 'Two' },
      link_type: 'relates_to',
    })
    const blocked = await ok(developer.token, 'POST', links(1), {
      target_project_id: 'linked/open',
      target_issue_iid: '3',
      link_type: 'is_blocked_by',
    })
    // "Is blocked by" is the other issue blocking this one.
    expect(blocked).toMatchObject({ source_issue: { iid: 3 }, target_issue: { iid: 1 }, link_type: 'blocks' })
    expect(await linked(developer.token, 1)).toEqual(['relates_to Two', 'is_blocked_by Three'])
    expect(await linked(developer.token, 3)).toEqual(['blocks One'])
    const [first] = (await ok(developer.token, 'GET', links(1))) as Json[]
    expect(first).toMatchObject({ iid: 2, issue_link_id: expect.any(Number), link_created_at: expect.any(String) })
    expect(first.link_updated_at).toBe(first.link_created_at)
  })

  it('refuses what GitLab refuses, and writes nothing', async () => {
    const refused = async (token: string, iid: number, body: Json, status: number, answer: Json): Promise<void> => {
      const res = await call(token, 'POST', links(iid), body)
      expect(res.statusCode, res.body).toBe(status)
      expect(res.json()).toEqual(answer)
    }
    await refused(developer.token, 2, { target_project_id: open.id, target_issue_iid: 1 }, 409, {
      message: 'Issue(s) already assigned',
    })
    await refused(developer.token, 2, { target_project_id: open.id, target_issue_iid: 2 }, 422, {
      message: 'Source cannot be related to itself',
    })
    await refused(developer.token, 2, { target_project_id: hidden.id, target_issue_iid: 1 }, 404, {
      message: '404 Project Not Found',
    })
    await refused(guest.token, 2, { target_project_id: open.id, target_issue_iid: 4 }, 404, {
      message: '404 Issue Not Found',
    })
    await refused(outsider.token, 2, { target_project_id: open.id, target_issue_iid: 3 }, 403, {
      message: '403 Forbidden',
    })
    await refused(developer.token, 2, { target_project_id: open.id }, 400, { error: 'target_issue_iid is missing' })
    await refused(
      developer.token,
      2,
      { target_project_id: open.id, target_issue_iid: 3, link_type: 'duplicates' },
      400,
      {
        error: 'link_type does not have a valid value',
      },
    )
    expect(await linked(developer.token, 2)).toEqual(['relates_to One'])
  })

  it('never lists or shows a linked issue the caller may not read', async () => {
    const secret = await ok(ROOT_TOKEN, 'POST', links(2), { target_project_id: open.id, target_issue_iid: 4 })
    const toPrivate = await ok(ROOT_TOKEN, 'POST', links(2), { target_project_id: hidden.id, target_issue_iid: 1 })
    expect(await linked(ROOT_TOKEN, 2)).toEqual(['relates_to One', 'relates_to Secret', 'relates_to Private'])
    expect(await linked(developer.token, 2)).toEqual(['relates_to One', 'relates_to Secret'])
    expect(await linked(guest.token, 2)).toEqual(['relates_to One'])
    expect(await linked(outsider.token, 2)).toEqual(['relates_to One'])
    const privateLink = (await ok(ROOT_TOKEN, 'GET', links(2))).find((i) => i.title === 'Private') as Json
    const secretLink = (await ok(ROOT_TOKEN, 'GET', links(2))).find((i) => i.title === 'Secret') as Json
    expect(toPrivate.target_issue).toMatchObject({ title: 'Private' })
    expect(secret.target_issue).toMatchObject({ title: 'Secret' })
    expect((await call(developer.token, 'GET', `${links(2)}/${String(privateLink.issue_link_id)}`)).statusCode).toBe(
      404,
    )
    expect((await call(guest.token, 'GET', `${links(2)}/${String(secretLink.issue_link_id)}`)).statusCode).toBe(404)
    expect((await call(developer.token, 'DELETE', `${links(2)}/${String(privateLink.issue_link_id)}`)).statusCode).toBe(
      404,
    )
    expect(await linked(ROOT_TOKEN, 2)).toContain('relates_to Private')
  })

  it('shows the link and unlink notes naming an issue only to those who may read that issue', async () => {
    const named = await newIssue(open, 'Named')
    const notes = async (token: string | null): Promise<string[]> =>
      ((await ok(token, 'GET', `/projects/${open.id}/issues/${named}/notes?sort=asc`)) as Json[])
        .filter((n) => n.system === true)
        .map((n) => String(n.body))
    await ok(ROOT_TOKEN, 'POST', links(named), { target_project_id: open.id, target_issue_iid: 4 })
    await ok(ROOT_TOKEN, 'POST', links(named), { target_project_id: hidden.id, target_issue_iid: 1 })
    const toSecret = (await ok(ROOT_TOKEN, 'GET', links(named))).find((i) => i.title === 'Secret') as Json
    await ok(ROOT_TOKEN, 'DELETE', `${links(named)}/${String(toSecret.issue_link_id)}`)
    const all = [
      'marked this issue as related to #4',
      'marked this issue as related to unlinked/hidden#1',
      'removed the relation with #4',
    ]
    expect(await notes(ROOT_TOKEN)).toEqual(all)
    expect(await notes(developer.token)).toEqual([all[0], all[2]])
    for (const token of [guest.token, outsider.token, null]) expect(await notes(token)).toEqual([])
  })

  it('hides link notes written without a source once migration 0050 gives them their source', async () => {
    const named = await newIssue(open, 'Named before sources')
    const notes = async (token: string | null, project: ProjectRow, iid: number): Promise<string[]> =>
      ((await ok(token, 'GET', `/projects/${project.id}/issues/${iid}/notes?sort=asc`)) as Json[])
        .filter((n) => n.system === true)
        .map((n) => String(n.body))
    await ok(ROOT_TOKEN, 'POST', links(named), { target_project_id: open.id, target_issue_iid: 2 })
    await ok(ROOT_TOKEN, 'POST', links(named), { target_project_id: open.id, target_issue_iid: 4 })
    await ok(ROOT_TOKEN, 'POST', links(named), {
      target_project_id: hidden.id,
      target_issue_iid: 1,
      link_type: 'blocks',
    })
    const toSecret = (await ok(ROOT_TOKEN, 'GET', links(named))).find((i) => i.title === 'Secret') as Json
    await ok(ROOT_TOKEN, 'DELETE', `${links(named)}/${String(toSecret.issue_link_id)}`)
    // The notes as written before links recorded their source.
    const db = s.app.burrow.db
    db.prepare(
      "UPDATE system_note_metadata SET source_type = NULL, source_id = NULL WHERE action IN ('relate', 'unrelate')",
    ).run()
    const all = [
      'marked this issue as related to #2',
      'marked this issue as related to #4',
      'marked this issue as blocking unlinked/hidden#1',
      'removed the relation with #4',
    ]
    expect(await notes(outsider.token, open, named)).toEqual(all)

    db.prepare('DELETE FROM schema_migrations WHERE version = 50').run()
    migrate(db)

    expect(await notes(ROOT_TOKEN, open, named)).toEqual(all)
    expect(await notes(developer.token, open, named)).toEqual([all[0], all[1], all[3]])
    for (const token of [guest.token, outsider.token, null]) expect(await notes(token, open, named)).toEqual([all[0]])
    // The other side of each link names the public issue, which everyone may read.
    expect(await notes(ROOT_TOKEN, hidden, 1)).toContain('marked this issue as blocked by linked/open#' + named)
    const sources = db
      .prepare(
        `SELECT COUNT(*) AS n FROM system_note_metadata m JOIN notes n ON n.id = m.note_id
          WHERE m.action IN ('relate', 'unrelate') AND m.source_id IS NULL AND (n.noteable_id IN (SELECT id FROM issues))`,
      )
      .get() as { n: number }
    expect(sources.n).toBe(0)
  })

  it('shows and removes one link; a link of another issue is not found', async () => {
    const [link] = (await ok(developer.token, 'GET', links(3))) as Json[]
    const url = `${links(3)}/${String(link.issue_link_id)}`
    expect(await ok(guest.token, 'GET', url)).toMatchObject({
      source_issue: { iid: 3 },
      target_issue: { iid: 1 },
      link_type: 'blocks',
    })
    expect((await call(developer.token, 'GET', `${links(2)}/${String(link.issue_link_id)}`)).statusCode).toBe(404)
    expect((await call(outsider.token, 'DELETE', url)).statusCode).toBe(404)
    expect(await ok(developer.token, 'DELETE', url)).toMatchObject({ source_issue: { iid: 3 }, link_type: 'blocks' })
    expect(await linked(developer.token, 3)).toEqual([])
    expect(await linked(developer.token, 1)).toEqual(['relates_to Two'])
  })

  it('notes a link and its removal on both issues and marks both updated, as GitLab does', async () => {
    const blocker = await newIssue(open, 'Blocker')
    const waiting = await newIssue(open, 'Waiting')
    const issueOf = (iid: number) => ok(developer.token, 'GET', `/projects/${open.id}/issues/${iid}`)
    const systemNotes = async (iid: number): Promise<string[]> =>
      ((await ok(developer.token, 'GET', `/projects/${open.id}/issues/${iid}/notes?sort=asc`)) as Json[])
        .filter((n) => n.system === true)
        .map((n) => String(n.body))
    const before = String((await issueOf(waiting)).updated_at)
    await new Promise((resolve) => setTimeout(resolve, 5))
    const link = await ok(developer.token, 'POST', links(waiting), {
      target_project_id: open.id,
      target_issue_iid: blocker,
      link_type: 'is_blocked_by',
    })
    expect(await systemNotes(blocker)).toEqual([`marked this issue as blocking #${waiting}`])
    expect(await systemNotes(waiting)).toEqual([`marked this issue as blocked by #${blocker}`])
    const linkedAt = String((await issueOf(waiting)).updated_at)
    expect(linkedAt > before).toBe(true)
    expect((await issueOf(blocker)).updated_at).toBe(linkedAt)
    // A client syncing by updated_after sees both issues change.
    const changed = (await ok(developer.token, 'GET', `/projects/${open.id}/issues?updated_after=${before}`)) as Json[]
    expect(changed.map((i) => i.iid)).toEqual(expect.arrayContaining([blocker, waiting]))

    await new Promise((resolve) => setTimeout(resolve, 5))
    const linkId = String((await ok(developer.token, 'GET', links(waiting)))[0].issue_link_id)
    expect(link).toMatchObject({ link_type: 'blocks' })
    await ok(developer.token, 'DELETE', `${links(waiting)}/${linkId}`)
    expect(await systemNotes(blocker)).toEqual([
      `marked this issue as blocking #${waiting}`,
      `removed the relation with #${waiting}`,
    ])
    expect((await systemNotes(waiting)).at(-1)).toBe(`removed the relation with #${blocker}`)
    expect(String((await issueOf(waiting)).updated_at) > linkedAt).toBe(true)
  })

  it('/duplicate closes the issue and relates it to the original', async () => {
    const dup = await newIssue(open, 'Two again')
    await ok(developer.token, 'POST', `/projects/${open.id}/issues/${dup}/notes`, { body: '/duplicate #2' })
    expect(await ok(developer.token, 'GET', `/projects/${open.id}/issues/${dup}`)).toMatchObject({ state: 'closed' })
    expect(await linked(developer.token, dup)).toEqual(['relates_to Two'])
    expect(await linked(developer.token, 2)).toContain('relates_to Two again')
  })

  it('deleting an issue deletes its links', async () => {
    const doomed = await newIssue(open, 'Doomed')
    await ok(developer.token, 'POST', links(doomed), { target_project_id: open.id, target_issue_iid: 1 })
    expect(await linked(developer.token, 1)).toContain('relates_to Doomed')
    const res = await call(ROOT_TOKEN, 'DELETE', `/projects/${open.id}/issues/${doomed}`)
    expect(res.statusCode, res.body).toBe(204)
    expect(await linked(developer.token, 1)).not.toContain('relates_to Doomed')
    const db = s.app.burrow.db
    expect(
      db.prepare('SELECT COUNT(*) AS n FROM issue_links WHERE source_id NOT IN (SELECT id FROM issues)').get(),
    ).toEqual({ n: 0 })
  })

  it('counts the open issues an issue blocks that the caller may read (blocking_issues_count)', async () => {
    const gate = await newIssue(open, 'Gate')
    const [first, second, related] = [
      await newIssue(open, 'Wait 1'),
      await newIssue(open, 'Wait 2'),
      await newIssue(open, 'Near'),
    ]
    const link = (iid: number, body: Json) => ok(ROOT_TOKEN, 'POST', links(iid), body)
    await link(gate, { target_project_id: open.id, target_issue_iid: first, link_type: 'blocks' })
    // Stored the other way round: the second issue is blocked by the gate.
    await link(second, { target_project_id: open.id, target_issue_iid: gate, link_type: 'is_blocked_by' })
    await link(gate, { target_project_id: open.id, target_issue_iid: 4, link_type: 'blocks' })
    await link(gate, { target_project_id: hidden.id, target_issue_iid: 1, link_type: 'blocks' })
    await link(gate, { target_project_id: open.id, target_issue_iid: related })
    const countOf = async (token: string, iid: number): Promise<unknown> =>
      (await ok(token, 'GET', `/projects/${open.id}/issues/${iid}`)).blocking_issues_count
    const listed = async (token: string): Promise<Record<number, unknown>> =>
      Object.fromEntries(
        ((await ok(token, 'GET', `/projects/${open.id}/issues?iids[]=${gate}&iids[]=${first}`)) as Json[]).map((i) => [
          i.iid,
          i.blocking_issues_count,
        ]),
      )
    expect(await countOf(ROOT_TOKEN, gate)).toBe(4)
    expect(await countOf(developer.token, gate)).toBe(3)
    expect(await countOf(guest.token, gate)).toBe(2)
    expect(await countOf(developer.token, first)).toBe(0)
    expect(await listed(developer.token)).toEqual({ [gate]: 3, [first]: 0 })
    expect(await listed(guest.token)).toEqual({ [gate]: 2, [first]: 0 })
    await ok(ROOT_TOKEN, 'PUT', `/projects/${open.id}/issues/${first}`, { state_event: 'close' })
    expect(await countOf(developer.token, gate)).toBe(2)
  })

  it('python-gitlab creates, lists and deletes links', async () => {
    const result = await withPythonGitlab<{ created: string[]; listed: string[]; after: string[] }>(
      s.url,
      { private_token: developer.token },
      `
project = gl.projects.get(${open.id}, lazy=True)
issue = project.issues.get(3)
source, target = issue.links.create({'target_project_id': ${open.id}, 'target_issue_iid': 2, 'link_type': 'blocks'})
created = [source.title, target.title]
listed = [f"{i.link_type} {i.title}" for i in issue.links.list()]
issue.links.delete(issue.links.list()[0].issue_link_id)
after = [i.title for i in issue.links.list()]
out({'created': created, 'listed': listed, 'after': after})
`,
    )
    expect(result).toEqual({ created: ['Three', 'Two'], listed: ['blocks Two'], after: [] })
  })
})

describe('migration 0044 (issue links)', () => {
  it('adds the links to an existing database; deleting an issue deletes its links', () => {
    const t = '2026-01-01T00:00:00.000Z'
    const db = new Database(':memory:')
    db.pragma('foreign_keys = ON')
    migrate(
      db,
      migrations.filter((m) => m.version < 44),
    )
    db.exec(`
      INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at, updated_at) VALUES (1, 'group', 'G', 'g', 'g', 'G', '${t}', '${t}');
      INSERT INTO projects (id, namespace_id, name, path, created_at, updated_at, last_activity_at) VALUES (1, 1, 'P', 'p', '${t}', '${t}', '${t}');
      INSERT INTO users (id, username, name, email, created_at, updated_at) VALUES (1, 'ann', 'Ann', 'ann@example.com', '${t}', '${t}');
      INSERT INTO issues (id, iid, project_id, title, author_id, created_at, updated_at) VALUES (1, 1, 1, 'A', 1, '${t}', '${t}'), (2, 2, 1, 'B', 1, '${t}', '${t}');
    `)
    migrate(db)
    db.exec(
      `INSERT INTO issue_links (source_id, target_id, link_type, created_at, updated_at) VALUES (1, 2, 'blocks', '${t}', '${t}')`,
    )
    expect(() =>
      db.exec(`INSERT INTO issue_links (source_id, target_id, created_at, updated_at) VALUES (1, 2, '${t}', '${t}')`),
    ).toThrow(/UNIQUE/)
    expect(() =>
      db.exec(`INSERT INTO issue_links (source_id, target_id, created_at, updated_at) VALUES (2, 2, '${t}', '${t}')`),
    ).toThrow(/CHECK/)
    db.exec('DELETE FROM issues WHERE id = 2')
    expect(db.prepare('SELECT COUNT(*) AS n FROM issue_links').get()).toEqual({ n: 0 })
  })
})
