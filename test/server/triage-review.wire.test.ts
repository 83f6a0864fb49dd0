import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { commitFiles, makeWorkRepo, remoteUrl, sh } from '../helpers/git'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The whole triage and review cycle of issue #3's "done" line, end to end with each real client:
 * a Reporter triages an issue (labels, assignment, a comment of quick actions, a milestone, a
 * duplicate closed), a Developer pushes a branch and opens a merge request that closes the issue
 * and asks for a review, the reviewer gets the to-do, opens a thread, the author replies and the
 * reviewer resolves it and approves, the author merges, and the issue is closed by the merge.
 */
describe('a full triage and review cycle over the wire', () => {
  let s: ListeningServer
  let project: ProjectRow
  let triager: SeededUser
  let author: SeededUser
  let reviewer: SeededUser

  beforeAll(async () => {
    s = await startServer()
    const group = seedGroup(s, { path: 'cycle', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'private' })
    triager = seedUser(s, { username: 'tess' })
    author = seedUser(s, { username: 'dana' })
    reviewer = seedUser(s, { username: 'rory' })
    seedMember(s, 'Namespace', group.id, triager.user.id, AccessLevel.REPORTER)
    seedMember(s, 'Namespace', group.id, author.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Namespace', group.id, reviewer.user.id, AccessLevel.DEVELOPER)
    const work = makeWorkRepo()
    const url = remoteUrl(s.url, 'cycle/app', author.token)
    commitFiles(work, { 'login.py': 'def login(user):\n    return False\n' }, 'Initial commit')
    await sh(work, 'push', '--quiet', url, 'main')
    // The two branches touch different files, so both merge whichever client runs first.
    for (const [branch, file] of [
      ['py-fix', 'login.py'],
      ['gb-fix', 'logout.py'],
    ]) {
      await sh(work, 'checkout', '--quiet', '-B', branch, 'main')
      commitFiles(work, { [file]: `def ${file.slice(0, -3)}(user):\n    return user is not None\n` }, `Fix ${file}`)
      await sh(work, 'push', '--quiet', url, branch)
    }
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab: triage, review request, thread, approval, merge closes the issue', async () => {
    const r = await withPythonGitlab<Json>(
      s.url,
      { private_token: triager.token },
      `
dana = gitlab.Gitlab(os.environ["GL_URL"], private_token=${JSON.stringify(author.token)})
rory = gitlab.Gitlab(os.environ["GL_URL"], private_token=${JSON.stringify(reviewer.token)})
p = gl.projects.get('cycle/app')
p.labels.create({'name': 'bug', 'color': 'red'})
sprint = p.milestones.create({'title': 'Sprint 1', 'due_date': '2099-01-31'})
issue = p.issues.create({'title': 'Login always fails', 'description': '- [ ] reproduce\\n- [ ] fix'})
issue.labels = ['bug']
issue.save()
issue.assignee_ids = [${author.user.id}]
issue.save()
note = issue.notes.create({'body': 'Confirmed on main.\\n/label ~"priority::high"\\n/milestone %"Sprint 1"\\n/estimate 1d 2h\\n/spend 30m\\n/due 2099-01-15'})
dup = p.issues.create({'title': 'Cannot sign in'})
dup.notes.create({'body': 'Duplicate of #' + str(issue.iid) + '\\n/close'})
triaged = p.issues.get(issue.iid)
dana_todos = [(t.action_name, t.target_type, t.attributes['target']['iid']) for t in dana.todos.list(get_all=True)]

dp = dana.projects.get('cycle/app')
mr = dp.mergerequests.create({'source_branch': 'py-fix', 'target_branch': 'main', 'title': 'Fix login',
                              'description': 'Closes #' + str(issue.iid), 'reviewer_ids': [${reviewer.user.id}], 'milestone_id': sprint.id})
rory_todos = [(t.action_name, t.target_type, t.attributes['target']['iid']) for t in rory.todos.list(state='pending', get_all=True)]
closes = [i.iid for i in mr.closes_issues()]
rp = rory.projects.get('cycle/app', lazy=True)
rmr = rp.mergerequests.get(mr.iid)
thread = rmr.discussions.create({'body': 'Should this also log the failure?'})
dmr = dp.mergerequests.get(mr.iid)
dana_thread = dmr.discussions.get(thread.id)
dana_thread.notes.create({'body': 'Logged in a follow-up.'})
thread = rmr.discussions.get(thread.id)
thread.resolved = True
thread.save()
resolved = [n['resolved'] for n in rmr.discussions.get(thread.id).attributes['notes']]
rmr.approve()
approvals = dmr.approvals.get()
for t in rory.todos.list(state='pending', get_all=True):
    t.mark_as_done()
dmr.merge(should_remove_source_branch=True)
merged = dp.mergerequests.get(mr.iid)
closed = p.issues.get(issue.iid)
closed_by = [m['iid'] if isinstance(m, dict) else m.iid for m in closed.closed_by()]
branches = [b.name for b in dp.branches.list(get_all=True)]
events = sorted({(e.action_name, e.target_type) for e in dp.events.list(get_all=True)}, key=str)
out({
  'triaged': {k: triaged.attributes[k] for k in ('labels', 'assignees', 'milestone', 'due_date', 'time_stats', 'task_completion_status', 'state')},
  'note_body': note.body, 'note_changes': note.attributes.get('commands_changes'),
  'dup_state': p.issues.get(dup.iid).state,
  'dana_todos': dana_todos, 'rory_todos': rory_todos, 'rory_pending': len(rory.todos.list(state='pending', get_all=True)),
  'closes': closes, 'thread_notes': len(rmr.discussions.get(thread.id).attributes['notes']), 'resolved': resolved,
  'approved_by': [a['user']['username'] for a in approvals.approved_by],
  'merged': {k: merged.attributes[k] for k in ('state', 'merge_commit_sha')},
  'merged_by': merged.attributes['merged_by']['username'],
  'closed': {'state': closed.state, 'closed_by': closed.attributes['closed_by']['username']}, 'closed_by_mrs': closed_by,
  'branches': branches, 'events': events,
})
`,
    )
    expect(r.triaged.labels).toEqual(['bug', 'priority::high'])
    expect(r.triaged.assignees.map((u: Json) => u.username)).toEqual(['dana'])
    expect(r.triaged.milestone).toMatchObject({ title: 'Sprint 1' })
    expect(r.triaged.due_date).toBe('2099-01-15')
    expect(r.triaged.time_stats).toEqual({
      time_estimate: 36000,
      total_time_spent: 1800,
      human_time_estimate: '1d 2h',
      human_total_time_spent: '30m',
    })
    expect(r.triaged.task_completion_status).toEqual({ count: 2, completed_count: 0 })
    expect(r.note_body).toBe('Confirmed on main.')
    expect(r.note_changes).toMatchObject({
      milestone_id: expect.any(Number),
      due_date: '2099-01-15',
      time_estimate: 36000,
    })
    expect(r.dup_state).toBe('closed')
    expect(r.dana_todos).toEqual([['assigned', 'Issue', 1]])
    expect(r.rory_todos).toEqual([['review_requested', 'MergeRequest', 1]])
    expect(r.closes).toEqual([1])
    expect(r.thread_notes).toBe(2)
    expect(r.resolved).toEqual([true, true])
    expect(r.approved_by).toEqual(['rory'])
    expect(r.rory_pending).toBe(0)
    expect(r.merged.state).toBe('merged')
    expect(r.merged.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/)
    expect(r.merged_by).toBe('dana')
    expect(r.closed).toEqual({ state: 'closed', closed_by: 'dana' })
    expect(r.closed_by_mrs).toEqual([1])
    expect(r.branches).toEqual(['gb-fix', 'main'])
    expect(r.events).toEqual(
      expect.arrayContaining([
        ['opened', 'Issue'],
        ['closed', 'Issue'],
        ['commented on', 'Note'],
        ['commented on', 'DiscussionNote'],
        ['opened', 'MergeRequest'],
        ['approved', 'MergeRequest'],
        ['accepted', 'MergeRequest'],
        ['pushed to', null],
      ]),
    )
  })

  it('@gitbeaker/rest: triage, review request, thread, approval, merge closes the issue', async () => {
    const tess = new Gitlab({ host: s.url, token: triager.token })
    const dana = new Gitlab({ host: s.url, token: author.token })
    const rory = new Gitlab({ host: s.url, token: reviewer.token })
    const pid = project.id

    const sprint = await tess.ProjectMilestones.create(pid, 'Sprint 2', { dueDate: '2099-02-28' })
    const issue = await tess.Issues.create(pid, 'Logout hangs', { description: 'Seen twice.' })
    await tess.Issues.edit(pid, issue.iid, { addLabels: 'bug' })
    await tess.Issues.edit(pid, issue.iid, { assigneeIds: [author.user.id] })
    const note = await tess.IssueNotes.create(
      pid,
      issue.iid,
      'Priority bump.\n/label ~"priority::low"\n/milestone %"Sprint 2"\n/estimate 1w\n/spend 1h30m',
    )
    expect(note.body).toBe('Priority bump.')
    const triaged = await tess.Issues.show(issue.iid, { projectId: pid })
    expect(triaged).toMatchObject({
      labels: ['bug', 'priority::low'],
      milestone: { id: sprint.id },
      assignees: [{ username: 'dana' }],
    })
    expect(triaged.time_stats).toEqual({
      time_estimate: 144000,
      total_time_spent: 5400,
      human_time_estimate: '1w',
      human_total_time_spent: '1h 30m',
    })
    const danaTodos = await dana.TodoLists.all({ state: 'pending' })
    expect(danaTodos.map((t) => [t.action_name, t.target_type, (t.target as Json).iid])).toContainEqual([
      'assigned',
      'Issue',
      issue.iid,
    ])

    const mr = await dana.MergeRequests.create(pid, 'gb-fix', 'main', 'Fix logout', {
      description: `Fixes #${issue.iid}`,
      reviewerIds: [reviewer.user.id],
    })
    const roryTodos = await rory.TodoLists.all({ state: 'pending' })
    expect(roryTodos.map((t) => [t.action_name, (t.target as Json).iid])).toContainEqual(['review_requested', mr.iid])
    const thread = await rory.MergeRequestDiscussions.create(pid, mr.iid, 'Needs a test.')
    await dana.MergeRequestDiscussions.addNote(pid, mr.iid, thread.id, 'Test added.')
    await rory.MergeRequestDiscussions.resolve(pid, mr.iid, thread.id, true)
    const shown = await rory.MergeRequestDiscussions.show(pid, mr.iid, thread.id)
    expect((shown.notes as Json[]).map((n) => [n.resolved, n.resolved_by?.username])).toEqual([
      [true, 'rory'],
      [true, 'rory'],
    ])
    await rory.MergeRequestApprovals.approve(pid, mr.iid)
    const merged = await dana.MergeRequests.merge(pid, mr.iid, { shouldRemoveSourceBranch: true })
    expect(merged).toMatchObject({ state: 'merged', merged_by: { username: 'dana' } })
    const closed = await tess.Issues.show(issue.iid, { projectId: pid })
    expect(closed).toMatchObject({ state: 'closed', closed_by: { username: 'dana' } })
    const closedBy = await tess.Issues.allClosedByMergeRequestst(pid, issue.iid)
    expect(closedBy.map((m) => m.iid)).toEqual([mr.iid])
  })
})
