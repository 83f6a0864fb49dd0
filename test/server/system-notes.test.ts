import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { findMergeRequestByIid } from '../../src/server/modules/merge-requests/queries'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { enableAutoMerge } from '../../src/server/modules/merge-requests/auto-merge'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { commitFiles, makeWorkRepo, remoteUrl, sh } from '../helpers/git'
import {
  makeServer,
  seedUser,
  startServer,
  type ListeningServer,
  type SeededUser,
  type TestServer,
} from '../helpers/server'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(
  s: TestServer,
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: Json,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; body: any }> {
  const res = await s.request(token, { method, url: `/api/v4${url}`, payload })
  return { status: res.statusCode, body: res.body === '' ? null : JSON.parse(res.body) }
}

/** The system notes of a noteable, oldest first, as [body, author username]. */
async function activity(s: TestServer, token: string, url: string): Promise<[string, string][]> {
  const r = await call(s, token, 'GET', `${url}/notes?sort=asc&per_page=100&activity_filter=only_activity`)
  expect(r.status).toBe(200)
  for (const n of r.body as Json[]) expect(n).toMatchObject({ system: true, type: null, resolvable: false })
  return (r.body as Json[]).map((n) => [n.body, n.author.username])
}

describe('system notes on issues', () => {
  let s: TestServer
  let group: NamespaceRow
  let project: ProjectRow
  let rita: SeededUser
  let bob: SeededUser
  let guest: SeededUser
  let base: string

  beforeEach(async () => {
    s = await makeServer()
    rita = seedUser(s, { username: 'rita' })
    bob = seedUser(s, { username: 'bob' })
    guest = seedUser(s, { username: 'gus' })
    group = seedGroup(s, { path: 'sn', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'private' })
    seedMember(s, 'Project', project.id, rita.user.id, AccessLevel.REPORTER)
    seedMember(s, 'Project', project.id, bob.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, guest.user.id, AccessLevel.GUEST)
    base = `/projects/${project.id}`
  })
  afterEach(async () => s.close())

  const newIssue = async (payload: Json, token = rita.token): Promise<Json> => {
    const r = await call(s, token, 'POST', `${base}/issues`, payload)
    expect(r.status).toBe(201)
    return r.body as Json
  }

  it('writes GitLab’s notes for title, description, due date, weight and assignees, by the actor, and none for labels, milestone or state', async () => {
    const milestone = (await call(s, rita.token, 'POST', `${base}/milestones`, { title: 'v1' })).body
    const issue = await newIssue({ title: 'Crash on start', description: 'It crashes' })
    const url = `${base}/issues/${issue.iid}`
    const put = async (token: string, payload: Json) =>
      expect((await call(s, token, 'PUT', url, payload)).status).toBe(200)
    await put(rita.token, { title: 'Crash on first start' })
    await put(bob.token, { description: 'It crashes every time' })
    await put(rita.token, { due_date: '2025-01-05', weight: 3 })
    await put(bob.token, { assignee_ids: [bob.user.id, rita.user.id] })
    await put(bob.token, { assignee_ids: [rita.user.id] })
    await put(rita.token, { due_date: null, weight: null })
    await put(rita.token, { labels: 'bug', milestone_id: milestone.id, state_event: 'close' })
    expect(await activity(s, rita.token, url)).toEqual([
      ['changed title from **Crash on start** to **Crash on {+first +}start**', 'rita'],
      ['changed the description', 'bob'],
      ['changed due date to January 5, 2025', 'rita'],
      ['changed weight to **3**', 'rita'],
      ['assigned to @bob and @rita', 'bob'],
      ['unassigned @bob', 'bob'],
      ['removed due date January 5, 2025', 'rita'],
      ['removed the weight', 'rita'],
    ])
    // Comments only: none were written; the issue counts no user notes.
    expect((await call(s, rita.token, 'GET', `${url}/notes?activity_filter=only_comments`)).body).toEqual([])
    expect((await call(s, rita.token, 'GET', url)).body.user_notes_count).toBe(0)
    // Each system note is its own individual discussion.
    const discussions = (await call(s, rita.token, 'GET', `${url}/discussions?per_page=100`)).body as Json[]
    expect(discussions).toHaveLength(8)
    expect(
      discussions.every((d) => d.individual_note === true && d.notes.length === 1 && d.notes[0].system === true),
    ).toBe(true)
  })

  it('marks ticked and cleared checklist items instead of “changed the description”', async () => {
    const issue = await newIssue({ title: 'Tasks', description: '- [ ] write\n- [x] test' })
    const url = `${base}/issues/${issue.iid}`
    await call(s, rita.token, 'PUT', url, { description: '- [x] write\n- [ ] test' })
    expect((await activity(s, rita.token, url)).map(([b]) => b)).toEqual([
      'marked the checklist item **write** as completed',
      'marked the checklist item **test** as incomplete',
    ])
  })

  it('records creation with a due date and weight, but no assignee or title note', async () => {
    const issue = await newIssue({ title: 'Planned', due_date: '2030-12-24', weight: 2, assignee_ids: [bob.user.id] })
    expect((await activity(s, rita.token, `${base}/issues/${issue.iid}`)).map(([b]) => b)).toEqual([
      'changed due date to December 24, 2030',
      'changed weight to **2**',
    ])
  })

  it('all_notes and no filter list comments and activity together; only_comments and only_activity split them', async () => {
    const issue = await newIssue({ title: 'Mixed' })
    const url = `${base}/issues/${issue.iid}`
    await call(s, rita.token, 'POST', `${url}/notes`, { body: 'a comment' })
    await call(s, rita.token, 'PUT', url, { title: 'Mixed up' })
    const bodies = async (q: string) =>
      ((await call(s, rita.token, 'GET', `${url}/notes?sort=asc${q}`)).body as Json[]).map((n) => n.body)
    expect(await bodies('')).toEqual(['a comment', 'changed title from **Mixed** to **Mixed{+ up+}**'])
    expect(await bodies('&activity_filter=all_notes')).toEqual(await bodies(''))
    expect(await bodies('&activity_filter=only_comments')).toEqual(['a comment'])
    expect(await bodies('&activity_filter=only_activity')).toEqual(['changed title from **Mixed** to **Mixed{+ up+}**'])
    expect((await call(s, rita.token, 'GET', `${url}/notes?activity_filter=some`)).status).toBe(400)
  })

  it('refuses to edit or delete a system note with 403, even for its author and an administrator', async () => {
    const admin = seedUser(s, { admin: true })
    const issue = await newIssue({ title: 'Locked down' })
    const url = `${base}/issues/${issue.iid}`
    await call(s, rita.token, 'PUT', url, { title: 'Locked down!' })
    const [note] = (await call(s, rita.token, 'GET', `${url}/notes`)).body as Json[]
    const [discussion] = (await call(s, rita.token, 'GET', `${url}/discussions`)).body as Json[]
    for (const token of [rita.token, admin.token]) {
      expect((await call(s, token, 'PUT', `${url}/notes/${note.id}`, { body: 'rewritten' })).status).toBe(403)
      expect((await call(s, token, 'DELETE', `${url}/notes/${note.id}`)).status).toBe(403)
      expect(
        (await call(s, token, 'PUT', `${url}/discussions/${discussion.id}/notes/${note.id}`, { body: 'rewritten' }))
          .status,
      ).toBe(403)
      expect((await call(s, token, 'DELETE', `${url}/discussions/${discussion.id}/notes/${note.id}`)).status).toBe(403)
    }
    expect((await call(s, rita.token, 'GET', `${url}/notes/${note.id}`)).body.body).toBe(
      'changed title from **Locked down** to **Locked down{+!+}**',
    )
  })

  it('writes time tracking notes for estimates and spent time', async () => {
    const issue = await newIssue({ title: 'Timed' })
    const url = `${base}/issues/${issue.iid}`
    await call(s, rita.token, 'POST', `${url}/time_estimate`, { duration: '1h' })
    await call(s, rita.token, 'POST', `${url}/time_estimate`, { duration: '2h30m' })
    await call(s, rita.token, 'POST', `${url}/reset_time_estimate`)
    await call(s, rita.token, 'POST', `${url}/add_spent_time`, { duration: '30m' })
    await call(s, rita.token, 'POST', `${url}/add_spent_time`, { duration: '-10m' })
    await call(s, rita.token, 'POST', `${url}/reset_spent_time`)
    const bodies = (await activity(s, rita.token, url)).map(([b]) => b)
    expect(bodies.slice(0, 3)).toEqual([
      'added time estimate of 1h',
      'changed time estimate to 2h 30m from 1h',
      'removed time estimate of 2h 30m',
    ])
    expect(bodies[3]).toMatch(/^added 30m of time spent at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/)
    expect(bodies[4]).toMatch(/^subtracted 10m of time spent at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/)
    expect(bodies.slice(5)).toEqual(['removed time spent'])
  })

  it('notes a mention once on the mentioned issue (“mentioned in issue #n”), from comments and descriptions, never on the mentioner', async () => {
    const target = await newIssue({ title: 'Target' })
    const source = await newIssue({
      title: 'Source',
      description: `Related to #${target.iid} and #${target.iid}, not to itself #999`,
    })
    const turl = `${base}/issues/${target.iid}`
    expect(await activity(s, rita.token, turl)).toEqual([[`mentioned in issue #${source.iid}`, 'rita']])
    // The same source mentioning again (in a comment) adds nothing; another issue's comment does.
    await call(s, bob.token, 'POST', `${base}/issues/${source.iid}/notes`, { body: `see #${target.iid}` })
    const third = await newIssue({ title: 'Third' })
    await call(s, bob.token, 'POST', `${base}/issues/${third.iid}/notes`, {
      body: `dup of #${target.iid}; \`#${source.iid}\` in code is not a mention`,
    })
    expect(await activity(s, rita.token, turl)).toEqual([
      [`mentioned in issue #${source.iid}`, 'rita'],
      [`mentioned in issue #${third.iid}`, 'bob'],
    ])
    expect(await activity(s, rita.token, `${base}/issues/${source.iid}`)).toEqual([])
    // An edit notes only the references it adds.
    const fourth = await newIssue({ title: 'Fourth' })
    await call(s, rita.token, 'PUT', `${base}/issues/${source.iid}`, {
      description: `Related to #${target.iid} and #${fourth.iid}`,
    })
    expect(await activity(s, rita.token, `${base}/issues/${fourth.iid}`)).toEqual([
      [`mentioned in issue #${source.iid}`, 'rita'],
    ])
  })

  it('hides a mention from a confidential issue from readers who cannot see that issue, in notes, discussions and single gets', async () => {
    const target = await newIssue({ title: 'Public one' })
    const secret = await newIssue({ title: 'Secret', confidential: true, description: `Touches #${target.iid}` })
    const turl = `${base}/issues/${target.iid}`
    const [note] = (await call(s, rita.token, 'GET', `${turl}/notes`)).body as Json[]
    expect(note.body).toBe(`mentioned in issue #${secret.iid}`)
    const [discussion] = (await call(s, rita.token, 'GET', `${turl}/discussions`)).body as Json[]
    // The Guest cannot read confidential issues of others, so the mention does not exist for them.
    expect((await call(s, guest.token, 'GET', `${turl}/notes`)).body).toEqual([])
    expect((await call(s, guest.token, 'GET', `${turl}/discussions`)).body).toEqual([])
    expect((await call(s, guest.token, 'GET', `${turl}/notes/${note.id}`)).status).toBe(404)
    expect((await call(s, guest.token, 'GET', `${turl}/discussions/${discussion.id}`)).status).toBe(404)
  })

  it('hides a mention from another project’s issue from users who cannot read that project, and names it by its path', async () => {
    const other = seedProject(s, { namespaceId: group.id, path: 'other', visibility: 'private' })
    seedMember(s, 'Project', other.id, rita.user.id, AccessLevel.REPORTER)
    const target = await newIssue({ title: 'Here' })
    const elsewhere = (
      await call(s, rita.token, 'POST', `/projects/${other.id}/issues`, {
        title: 'There',
        description: `Blocks app#${target.iid}`,
      })
    ).body
    const turl = `${base}/issues/${target.iid}`
    expect(await activity(s, rita.token, turl)).toEqual([[`mentioned in issue other#${elsewhere.iid}`, 'rita']])
    expect((await call(s, bob.token, 'GET', `${turl}/notes`)).body).toEqual([])
  })

  it('hides a mention made in an internal comment from readers below Reporter', async () => {
    const target = await newIssue({ title: 'Watched' })
    const source = await newIssue({ title: 'Watcher' })
    await call(s, rita.token, 'POST', `${base}/issues/${source.iid}/notes`, {
      body: `internal about #${target.iid}`,
      internal: true,
    })
    const turl = `${base}/issues/${target.iid}`
    expect(await activity(s, rita.token, turl)).toEqual([[`mentioned in issue #${source.iid}`, 'rita']])
    expect((await call(s, guest.token, 'GET', `${turl}/notes`)).body).toEqual([])
  })

  it('moving an issue notes both ends and carries its system notes with their metadata and its resource events', async () => {
    const dest = seedProject(s, { namespaceId: group.id, path: 'dest', visibility: 'private' })
    seedMember(s, 'Project', dest.id, bob.user.id, AccessLevel.MAINTAINER)
    seedMember(s, 'Project', dest.id, guest.user.id, AccessLevel.GUEST)
    const issue = await newIssue({ title: 'Mover', labels: 'bug' })
    await newIssue({ title: 'Hush', confidential: true, description: `see #${issue.iid}` })
    await call(s, bob.token, 'PUT', `${base}/issues/${issue.iid}`, { title: 'Mover!' })
    const moved = await call(s, bob.token, 'POST', `${base}/issues/${issue.iid}/move`, { to_project_id: dest.id })
    expect(moved.status).toBe(201)
    const murl = `/projects/${dest.id}/issues/${moved.body.iid}`
    expect(await activity(s, bob.token, murl)).toEqual([
      ['mentioned in issue app#2', 'rita'],
      ['changed title from **Mover** to **Mover{+!+}**', 'bob'],
      [`moved from app#${issue.iid}`, 'bob'],
    ])
    expect(await activity(s, bob.token, `${base}/issues/${issue.iid}`)).toContainEqual([
      `moved to dest#${moved.body.iid}`,
      'bob',
    ])
    // The copied mention still names the confidential issue as its source: hidden from the Guest.
    expect((await activity(s, guest.token, murl)).map(([b]) => b)).toEqual([
      'changed title from **Mover** to **Mover{+!+}**',
      `moved from app#${issue.iid}`,
    ])
    const labelEvents = (await call(s, bob.token, 'GET', `${murl}/resource_label_events`)).body as Json[]
    expect(labelEvents.map((e) => [e.action, e.user.username, e.resource_id])).toEqual([['add', 'rita', moved.body.id]])
  })

  it('cloning with notes copies the system notes; promoting to an epic copies them with their metadata', async () => {
    const dest = seedProject(s, { namespaceId: group.id, path: 'copy', visibility: 'private' })
    seedMember(s, 'Project', dest.id, rita.user.id, AccessLevel.REPORTER)
    seedMember(s, 'Namespace', group.id, rita.user.id, AccessLevel.REPORTER)
    const issue = await newIssue({ title: 'Original' })
    await newIssue({ title: 'Hidden', confidential: true, description: `see #${issue.iid}` })
    const clone = await call(s, rita.token, 'POST', `${base}/issues/${issue.iid}/clone`, {
      to_project_id: dest.id,
      with_notes: true,
    })
    expect(clone.status).toBe(201)
    const curl = `/projects/${dest.id}/issues/${clone.body.iid}`
    expect((await activity(s, rita.token, curl)).map(([b]) => b)).toEqual([
      'mentioned in issue app#2',
      `cloned from app#${issue.iid}`,
    ])
    expect((await activity(s, rita.token, `${base}/issues/${issue.iid}`)).map(([b]) => b)).toContain(
      `cloned to copy#${clone.body.iid}`,
    )

    await call(s, rita.token, 'POST', `${base}/issues/${issue.iid}/notes`, { body: '/promote' })
    const [epic] = (await call(s, rita.token, 'GET', `/groups/${group.id}/epics`)).body as Json[]
    const eurl = `/groups/${group.id}/epics/${epic.id}`
    // The copies' references are rewritten for the group: the issue's project is named by its path.
    expect((await activity(s, rita.token, eurl)).map(([b]) => b)).toEqual([
      'mentioned in issue app#2',
      `cloned to copy#${clone.body.iid}`,
      `promoted from issue sn/app#${issue.iid}`,
    ])
    const metadata = s.app.burrow.db
      .prepare(
        "SELECT m.action, m.source_type FROM notes n JOIN system_note_metadata m ON m.note_id = n.id WHERE n.noteable_type = 'Epic' AND n.noteable_id = ? ORDER BY n.id",
      )
      .all(epic.id)
    expect(metadata).toEqual([
      { action: 'cross_reference', source_type: 'Issue' },
      { action: 'cloned', source_type: 'Issue' },
      { action: 'moved', source_type: 'Issue' },
    ])
  })
})

describe('system notes on merge requests', () => {
  let s: ListeningServer
  let project: ProjectRow
  let dev: SeededUser
  let maintainer: SeededUser
  let work: string
  let url: string
  let base: string

  beforeAll(async () => {
    s = await startServer()
    dev = seedUser(s, { username: 'devi' })
    maintainer = seedUser(s, { username: 'mae' })
    const group = seedGroup(s, { path: 'snmr' })
    project = seedProject(s, { namespaceId: group.id, path: 'repo' })
    seedMember(s, 'Project', project.id, dev.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, maintainer.user.id, AccessLevel.MAINTAINER)
    work = makeWorkRepo()
    url = remoteUrl(s.url, `${group.full_path}/repo`, dev.token)
    commitFiles(work, { 'README.md': 'hello\n' }, 'Initial commit')
    await sh(work, 'push', '--quiet', url, 'main')
    await sh(work, 'push', '--quiet', url, 'main:refs/heads/stable')
    base = `/projects/${project.id}/merge_requests`
  })
  afterAll(async () => {
    await s.close()
  })

  const open = async (branch: string, extra: Json = {}): Promise<string> => {
    await sh(work, 'checkout', '--quiet', '-B', branch, 'main')
    commitFiles(work, { [`${branch}.txt`]: `${branch}\n` }, `Add ${branch}`)
    await sh(work, 'push', '--quiet', '--force', url, `${branch}:refs/heads/${branch}`)
    const r = await call(s, dev.token, 'POST', base, {
      source_branch: branch,
      target_branch: 'main',
      title: `Add ${branch}`,
      ...extra,
    })
    expect(r.status).toBe(201)
    return `${base}/${r.body.iid}`
  }

  it('writes assignee, reviewer, draft, title, description and target branch notes; labels and milestones are resource events', async () => {
    const mr = await open('notes-a')
    const put = async (payload: Json) => expect((await call(s, dev.token, 'PUT', mr, payload)).status).toBe(200)
    await put({ assignee_ids: [dev.user.id] })
    await put({ reviewer_ids: [maintainer.user.id] })
    await put({ title: 'Draft: Add notes-a' })
    await put({ title: 'Add notes-a' })
    await put({ title: 'Add notes-a now', description: 'Why' })
    await put({ target_branch: 'stable' })
    await put({ reviewer_ids: [], labels: 'backend' })
    expect(await activity(s, dev.token, mr)).toEqual([
      ['assigned to @devi', 'devi'],
      ['requested review from @mae', 'devi'],
      ['marked this merge request as **draft**', 'devi'],
      ['marked this merge request as **ready**', 'devi'],
      ['changed title from **Add notes-a** to **Add notes-a{+ now+}**', 'devi'],
      ['changed the description', 'devi'],
      ['changed target branch from `main` to `stable`', 'devi'],
      ['removed review request for @mae', 'devi'],
    ])
    const labels = (await call(s, dev.token, 'GET', `${mr}/resource_label_events`)).body as Json[]
    expect(labels.map((e) => [e.action, e.label.name, e.resource_type])).toEqual([['add', 'backend', 'MergeRequest']])
    expect((await call(s, dev.token, 'GET', mr)).body.user_notes_count).toBe(0)
  })

  it('notes approvals and their withdrawal, time tracking, and automatic merges set and cancelled', async () => {
    const mr = await open('notes-b')
    expect((await call(s, maintainer.token, 'POST', `${mr}/approve`)).status).toBe(201)
    expect((await call(s, maintainer.token, 'POST', `${mr}/unapprove`)).status).toBe(201)
    await call(s, dev.token, 'POST', `${mr}/time_estimate`, { duration: '3h' })
    await call(s, dev.token, 'POST', `${mr}/add_spent_time`, { duration: '1h' })
    await call(s, dev.token, 'POST', `${mr}/reset_spent_time`)
    const iid = Number(mr.split('/').pop())
    const row = findMergeRequestByIid(s.app.burrow.db, project.id, iid)
    if (!row) throw new Error('merge request missing')
    // Setting auto-merge needs a running pipeline; the service is what the merge route calls then.
    enableAutoMerge(s.app.burrow.db, row, maintainer.user, {})
    expect((await call(s, maintainer.token, 'POST', `${mr}/cancel_merge_when_pipeline_succeeds`)).status).toBe(201)
    const notes = await activity(s, dev.token, mr)
    expect(notes.slice(0, 3)).toEqual([
      ['approved this merge request', 'mae'],
      ['unapproved this merge request', 'mae'],
      ['added time estimate of 3h', 'devi'],
    ])
    expect(notes[3][0]).toMatch(/^added 1h of time spent at /)
    expect(notes.slice(4)).toEqual([
      ['removed time spent', 'devi'],
      [`enabled an automatic merge when the pipeline for ${row.head_sha as string} succeeds`, 'mae'],
      ['canceled the automatic merge', 'mae'],
    ])
  })

  it('a merge is a state event (no note), and the issue it closes gets a state event naming the merge request', async () => {
    const issue = (await call(s, dev.token, 'POST', `/projects/${project.id}/issues`, { title: 'Fixed by a merge' }))
      .body
    const mr = await open('notes-c', { description: `Closes #${issue.iid}` })
    const iurl = `/projects/${project.id}/issues/${issue.iid}`
    // The description mentions the issue: a cross-reference from the merge request.
    expect(await activity(s, dev.token, iurl)).toEqual([[`mentioned in merge request !${mr.split('/').pop()}`, 'devi']])
    for (let i = 0; i < 200; i++) {
      const m = (await call(s, dev.token, 'GET', mr)).body
      if (m.merge_status !== 'checking' && m.merge_status !== 'unchecked') break
      await new Promise((r) => setTimeout(r, 20))
    }
    const merged = await call(s, maintainer.token, 'PUT', `${mr}/merge`)
    expect(merged.status).toBe(200)
    expect(await activity(s, dev.token, mr)).toEqual([])
    const mrStates = (await call(s, dev.token, 'GET', `${mr}/resource_state_events`)).body as Json[]
    expect(mrStates.map((e) => [e.state, e.user.username, e.resource_type])).toEqual([
      ['merged', 'mae', 'MergeRequest'],
    ])
    const issueStates = (await call(s, dev.token, 'GET', `${iurl}/resource_state_events`)).body as Json[]
    expect(issueStates).toHaveLength(1)
    expect(issueStates[0]).toMatchObject({
      state: 'closed',
      resource_type: 'Issue',
      resource_id: issue.id,
      source_merge_request_id: merged.body.id,
      source_commit: null,
    })
  })
})
