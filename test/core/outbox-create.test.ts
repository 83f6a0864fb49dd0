import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { temporaryIid, type NewIssue, type NewMergeRequest } from '../../src/shared/ipc/outbox'
import { outboxValidators } from '../../src/shared/ipc/outbox-schema'
import { makeOutboxWorld, type Json, type OutboxWorld } from '../helpers/outbox-world'

/*
 * Issues and merge requests created through the outbox: shown at once under a temporary iid,
 * landed exactly once (a lost answer is looked up by author, title and time, never resent on its
 * own), and the writes queued on the temporary iid moved to the real one when the creation lands.
 */

let w: OutboxWorld
beforeAll(async () => {
  w = await makeOutboxWorld({ timeoutMs: 1_500 })
  // A repository with a branch to open merge requests from.
  const commit = await w.api('POST', `/projects/${w.project.id}/repository/commits`, {
    branch: 'main',
    commit_message: 'First',
    actions: [{ action: 'create', file_path: 'README.md', content: 'hello\n' }],
  })
  expect(commit.status).toBe(201)
})
afterAll(async () => w.close())
afterEach(async () => {
  w.proxy.mode = 'pass'
  w.proxy.only = null
  await w.goOnline()
})

const issueTarget = { type: 'issue' as const, projectId: 0 }
const createIssue = (fields: NewIssue) =>
  w.outbox.create(w.account.id, { ...issueTarget, projectId: w.project.id }, { kind: 'create-issue', fields })

async function issuesTitled(title: string): Promise<Json[]> {
  const res = await w.api('GET', `/projects/${w.project.id}/issues?per_page=100&state=all`)
  return (res.body as Json[]).filter((i) => i.title === title)
}

const posts = (suffix: string): number =>
  w.proxy.forwarded.filter((l) => l.startsWith('POST') && l.split('?')[0].endsWith(suffix)).length

const cachedIssue = (iid: number) => w.reader.detail(w.account.id, 'issue', { parentId: w.project.id, iid })

let branchCount = 0
async function branchWithCommit(): Promise<string> {
  const branch = `feature-${++branchCount}`
  const res = await w.api('POST', `/projects/${w.project.id}/repository/commits`, {
    branch,
    start_branch: 'main',
    commit_message: `Work on ${branch}`,
    actions: [{ action: 'create', file_path: `${branch}.txt`, content: 'work\n' }],
  })
  expect(res.status).toBe(201)
  return branch
}

describe('creating an issue through the outbox', () => {
  it('online: lands once with its fields, and the cache holds the real issue instead of the provisional one', async () => {
    const entry = await createIssue({ title: 'Online issue', description: 'Body', labels: ['bug'], confidential: true })
    expect(entry.target).toMatchObject({ type: 'issue', iid: temporaryIid(entry.id) })
    const done = await w.until(entry.id)
    expect(done.state).toBe('done')
    const [issue] = await issuesTitled('Online issue')
    expect(issue).toMatchObject({ description: 'Body', labels: ['bug'], confidential: true })
    expect(done.createdIid).toBe(issue.iid)
    expect(cachedIssue(issue.iid as number)?.item).toMatchObject({ pending: false, data: { title: 'Online issue' } })
    expect(cachedIssue(temporaryIid(entry.id))).toBeNull()
  })

  it('offline: shown at once as pending under its temporary iid; a label and a comment queued on it land on the real issue after reconnecting', async () => {
    await w.goOffline()
    const entry = await createIssue({ title: 'Written on a train', due_date: '2030-01-02' })
    const temp = entry.target.type === 'issue' ? entry.target.iid : 0
    const shown = cachedIssue(temp)
    expect(shown?.item).toMatchObject({
      pending: true,
      data: { title: 'Written on a train', references: { short: `#new-${entry.id}` }, due_date: '2030-01-02' },
    })
    const label = await w.outbox.enqueue(
      w.account.id,
      { type: 'issue', projectId: w.project.id, iid: temp },
      { kind: 'update', changes: { add_labels: ['later'] } },
    )
    const comment = await w.outbox.enqueue(
      w.account.id,
      { type: 'issue', projectId: w.project.id, iid: temp },
      { kind: 'comment', body: 'and a comment' },
    )
    expect(cachedIssue(temp)?.item.data).toMatchObject({ labels: [expect.objectContaining({ name: 'later' })] })

    await w.goOnline()
    const created = await w.until(entry.id)
    expect(created.state).toBe('done')
    expect(await w.until(label.id)).toMatchObject({ state: 'done' })
    expect(await w.until(comment.id)).toMatchObject({ state: 'done' })
    const found = await issuesTitled('Written on a train')
    expect(found).toHaveLength(1)
    const iid = found[0].iid as number
    expect(created.createdIid).toBe(iid)
    expect(w.outbox.get(comment.id).target).toEqual({ type: 'issue', projectId: w.project.id, iid })
    expect(found[0].labels).toEqual(['later'])
    const notes = await w.api('GET', `/projects/${w.project.id}/issues/${iid}/notes`)
    expect((notes.body as Json[]).filter((n) => n.system !== true).map((n) => n.body)).toEqual(['and a comment'])
    expect(cachedIssue(temp)).toBeNull()
  })

  it('a write made on the temporary iid after the creation landed goes to the real issue', async () => {
    const entry = await createIssue({ title: 'Landed before the edit' })
    const done = await w.until(entry.id)
    const late = await w.outbox.enqueue(
      w.account.id,
      { type: 'issue', projectId: w.project.id, iid: temporaryIid(entry.id) },
      { kind: 'comment', body: 'late' },
    )
    expect(late.target).toMatchObject({ iid: done.createdIid })
    expect(await w.until(late.id)).toMatchObject({ state: 'done' })
  })

  it('a creation whose answer was lost is found on the server by author, title and time: reconciled, never posted twice', async () => {
    w.proxy.mode = 'hold-responses'
    w.proxy.only = (l) => l.startsWith('POST') && l.split('?')[0].endsWith('/issues')
    const before = posts('/issues')
    const entry = await createIssue({ title: 'Answer lost on the way back' })
    const comment = await w.outbox.enqueue(
      w.account.id,
      { type: 'issue', projectId: w.project.id, iid: temporaryIid(entry.id) },
      { kind: 'comment', body: 'after the lost one' },
    )
    expect(await w.until(entry.id, ['unknown-outcome'])).toMatchObject({ state: 'unknown-outcome' })
    w.proxy.mode = 'pass'
    w.proxy.only = null
    await w.goOnline()
    const settled = await w.until(entry.id)
    expect(settled).toMatchObject({ state: 'reconciled', reason: 'The new issue was found on the server.' })
    expect(posts('/issues') - before).toBe(1)
    const found = await issuesTitled('Answer lost on the way back')
    expect(found).toHaveLength(1)
    expect(settled.createdIid).toBe(found[0].iid)
    expect(await w.until(comment.id)).toMatchObject({ state: 'done', target: { iid: found[0].iid } })
  })

  it('a creation that never reached the server is looked for, found missing and left for the user: sent once on retry', async () => {
    w.proxy.mode = 'hold-requests'
    w.proxy.only = (l) => l.startsWith('POST') && l.split('?')[0].endsWith('/issues')
    const entry = await createIssue({ title: 'Request lost on the way out' })
    await w.until(entry.id, ['unknown-outcome'])
    w.proxy.mode = 'pass'
    w.proxy.only = null
    await w.goOnline()
    expect(await w.until(entry.id)).toMatchObject({
      state: 'failed',
      reason: expect.stringContaining('It did not take effect'),
    })
    expect(await issuesTitled('Request lost on the way out')).toHaveLength(0)
    await w.outbox.retry(entry.id)
    expect(await w.until(entry.id)).toMatchObject({ state: 'done' })
    expect(await issuesTitled('Request lost on the way out')).toHaveLength(1)
  })

  it('discarding a pending creation discards the writes queued on its item, and removes the provisional issue', async () => {
    await w.goOffline()
    const entry = await createIssue({ title: 'Never mind' })
    const temp = temporaryIid(entry.id)
    const comment = await w.outbox.enqueue(
      w.account.id,
      { type: 'issue', projectId: w.project.id, iid: temp },
      { kind: 'comment', body: 'orphan' },
    )
    w.outbox.discard(entry.id)
    expect(w.outbox.get(comment.id)).toMatchObject({ state: 'discarded' })
    expect(cachedIssue(temp)).toBeNull()
    await expect(
      w.outbox.enqueue(
        w.account.id,
        { type: 'issue', projectId: w.project.id, iid: temp },
        { kind: 'comment', body: 'x' },
      ),
    ).rejects.toMatchObject({ code: 'invalid-state' })
    await w.goOnline()
    expect(await issuesTitled('Never mind')).toHaveLength(0)
  })

  it('a refused creation fails with the server’s reason and leaves no provisional issue', async () => {
    // Past GitLab's 255 characters (the IPC validator would stop it first; the server is the last word).
    const entry = await createIssue({ title: 'x'.repeat(256) })
    expect(cachedIssue(temporaryIid(entry.id))?.item.pending).toBe(true)
    expect(await w.until(entry.id)).toMatchObject({
      state: 'failed',
      status: 400,
      reason: expect.stringContaining('is too long'),
    })
    expect(cachedIssue(temporaryIid(entry.id))).toBeNull()
  })
})

describe('creating a merge request through the outbox', () => {
  const createMr = (fields: NewMergeRequest) =>
    w.outbox.create(
      w.account.id,
      { type: 'merge_request', projectId: w.project.id },
      { kind: 'create-merge-request', fields },
    )

  it('offline: shown with its branches and reviewers, lands once with them after reconnecting', async () => {
    const branch = await branchWithCommit()
    await w.goOffline()
    const entry = await createMr({
      source_branch: branch,
      target_branch: 'main',
      title: 'Draft: Work in progress',
      description: 'Closes #1',
      reviewer_ids: [w.user.user.id],
    })
    const temp = temporaryIid(entry.id)
    const shown = w.reader.detail(w.account.id, 'merge_request', { parentId: w.project.id, iid: temp })
    expect(shown?.item).toMatchObject({
      pending: true,
      data: { source_branch: branch, target_branch: 'main', draft: true, references: { short: `!new-${entry.id}` } },
    })
    await w.goOnline()
    const done = await w.until(entry.id)
    expect(done.state).toBe('done')
    const mr = await w.api('GET', `/projects/${w.project.id}/merge_requests/${done.createdIid}`)
    expect(mr.body).toMatchObject({ source_branch: branch, draft: true, reviewers: [{ id: w.user.user.id }] })
  })

  it('a merge request whose answer was lost is found by its source branch and title, not opened twice', async () => {
    const branch = await branchWithCommit()
    w.proxy.mode = 'hold-responses'
    w.proxy.only = (l) => l.startsWith('POST') && l.split('?')[0].endsWith('/merge_requests')
    const entry = await createMr({ source_branch: branch, target_branch: 'main', title: 'Lost answer MR' })
    await w.until(entry.id, ['unknown-outcome'])
    w.proxy.mode = 'pass'
    w.proxy.only = null
    await w.goOnline()
    const settled = await w.until(entry.id)
    expect(settled.state).toBe('reconciled')
    const list = await w.api('GET', `/projects/${w.project.id}/merge_requests?source_branch=${branch}&state=all`)
    expect(list.body).toHaveLength(1)
    expect(settled.createdIid).toBe((list.body as Json[])[0].iid)
  })
})

describe('the creation channels’ arguments', () => {
  it('refuse a title-less issue, an unknown field, a bad branch name and equal branches', () => {
    const issue = outboxValidators['issues:create']
    const mr = outboxValidators['merge-requests:create']
    expect(issue(['a', { projectId: 1, fields: { title: ' ' } }])).toMatch(/title/)
    expect(issue(['a', { projectId: 1, fields: { title: 'x', weight: 3 } }])).toMatch(/unknown field/)
    expect(issue(['a', { projectId: 1, fields: { title: 'x', due_date: '2030-02-30' } }])).toMatch(/due_date/)
    expect(issue(['a', { projectId: 1, fields: { title: 'x', labels: ['a'], confidential: true } }])).toBeNull()
    const fields = { source_branch: 'feature', target_branch: 'main', title: 't' }
    expect(mr(['a', { projectId: 1, fields }])).toBeNull()
    expect(mr(['a', { projectId: 1, fields: { ...fields, source_branch: '-x' } }])).toMatch(/source_branch/)
    expect(mr(['a', { projectId: 1, fields: { ...fields, target_branch: 'a..b' } }])).toMatch(/target_branch/)
    expect(mr(['a', { projectId: 1, fields: { ...fields, target_branch: 'feature' } }])).toMatch(/differ/)
  })
})
