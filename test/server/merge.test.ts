import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import {
  findMergeRequestById,
  findMergeRequestByIid,
  updateMergeRequestRow,
  type MergeRequestRow,
} from '../../src/server/modules/merge-requests/queries'
import { insertProtectedBranch } from '../../src/server/modules/branches/protected-queries'
import {
  holdMergeabilityChecks,
  mergeabilityIdle,
  queueMergeabilityCheck,
} from '../../src/server/modules/merge-requests/mergeability'
import { onPush } from '../../src/server/platform/git/push-listeners'
import { withClock } from '../../src/server/platform/db/connection'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { commitFiles, makeWorkRepo, remoteUrl, sh } from '../helpers/git'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>

describe('merging merge requests in real repositories', () => {
  let s: ListeningServer
  let dev: SeededUser
  let reporter: SeededUser
  let project: ProjectRow
  let fullPath: string
  let work: string
  let url: string

  const api = async (token: string, method: 'GET' | 'POST' | 'PUT', path: string, payload?: Json) => {
    const res = await s.request(token, { method, url: `/api/v4/projects/${project.id}${path}`, payload })
    return { status: res.statusCode, body: res.body === '' ? null : (JSON.parse(res.body) as Json) }
  }

  /** Pushes a new branch off `base` with one commit of `files`; returns its head. */
  const pushBranch = async (name: string, files: Record<string, string>, base = 'main'): Promise<string> => {
    await sh(work, 'fetch', '--quiet', url, `+refs/heads/${base}:refs/remotes/origin/${base}`)
    await sh(work, 'checkout', '--quiet', '-B', name, `origin/${base}`)
    const sha = commitFiles(work, files, `Change on ${name}`)
    await sh(work, 'push', '--quiet', '--force', url, `${name}:refs/heads/${name}`)
    return sha
  }
  const advanceMain = async (files: Record<string, string>): Promise<string> => pushBranch('main', files)

  const open = async (source: string, title = `MR ${source}`, extra: Json = {}): Promise<number> => {
    const res = await api(dev.token, 'POST', '/merge_requests', {
      source_branch: source,
      target_branch: 'main',
      title,
      ...extra,
    })
    expect(res.status).toBe(201)
    return res.body?.iid as number
  }
  /** Polls the single merge request until its merge_status is settled. */
  const settled = async (iid: number): Promise<Json> => {
    for (let i = 0; i < 200; i++) {
      const mr = (await api(dev.token, 'GET', `/merge_requests/${iid}`)).body as Json
      if (mr.merge_status !== 'checking' && mr.merge_status !== 'unchecked') return mr
      await new Promise((r) => setTimeout(r, 20))
    }
    throw new Error('merge_status never settled')
  }
  const pollRebase = async (iid: number): Promise<Json> => {
    for (let i = 0; i < 200; i++) {
      const mr = (await api(dev.token, 'GET', `/merge_requests/${iid}?include_rebase_in_progress=true`)).body as Json
      if (mr.rebase_in_progress === false) return mr
      await new Promise((r) => setTimeout(r, 20))
    }
    throw new Error('rebase never finished')
  }
  const clone = async (): Promise<string> => {
    const dir = mkdtempSync(join(tmpdir(), 'burrow-mr-clone-'))
    await sh(dir, 'clone', '--quiet', url, 'c')
    return join(dir, 'c')
  }

  beforeAll(async () => {
    s = await startServer()
    dev = seedUser(s)
    reporter = seedUser(s)
    const group = seedGroup(s)
    project = seedProject(s, { namespaceId: group.id, path: 'repo' })
    fullPath = `${group.full_path}/repo`
    seedMember(s, 'Project', project.id, dev.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, reporter.user.id, AccessLevel.REPORTER)
    work = makeWorkRepo()
    url = remoteUrl(s.url, fullPath, dev.token)
    commitFiles(work, { 'README.md': 'line 1\n', 'shared.txt': 'base\n' }, 'Initial commit')
    await sh(work, 'push', '--quiet', url, 'main')
  })
  afterAll(async () => {
    await s.close()
  })

  it('computes merge_status asynchronously: can_be_merged for a clean merge', async () => {
    await pushBranch('clean', { 'clean.txt': 'x\n' })
    const iid = await open('clean')
    const mr = await settled(iid)
    expect(mr).toMatchObject({ merge_status: 'can_be_merged', has_conflicts: false })
  })

  it('marks a conflicting merge request cannot_be_merged with has_conflicts, and refuses to merge it with 406', async () => {
    await pushBranch('conflicting', { 'shared.txt': 'from branch\n' })
    await advanceMain({ 'shared.txt': 'from main\n' })
    const iid = await open('conflicting')
    expect(await settled(iid)).toMatchObject({ merge_status: 'cannot_be_merged', has_conflicts: true })
    const merge = await api(dev.token, 'PUT', `/merge_requests/${iid}/merge`)
    expect(merge.status).toBe(406)
    expect(merge.body).toEqual({ message: 'Branch cannot be merged' })
  })

  it('lists show the stored merge_status and recompute it only with with_merge_status_recheck=true', async () => {
    const conflicting = (
      (await api(dev.token, 'GET', '/merge_requests?source_branch=conflicting')).body as unknown as Json[]
    )[0]
    const iid = conflicting.iid as number
    s.app.burrow.db
      .prepare("UPDATE merge_requests SET merge_status = 'can_be_merged' WHERE project_id = ? AND iid = ?")
      .run(project.id, iid)
    const stored = (await api(dev.token, 'GET', `/merge_requests?iids[]=${iid}`)).body as unknown as Json[]
    expect(stored[0].merge_status).toBe('can_be_merged')
    const rechecked = (await api(dev.token, 'GET', `/merge_requests?iids[]=${iid}&with_merge_status_recheck=true`))
      .body as unknown as Json[]
    expect(rechecked[0].merge_status).toBe('checking')
    expect(await settled(iid)).toMatchObject({ merge_status: 'cannot_be_merged' })
  })

  it('never leaves checking on a merge request closed or merged while its check was queued', async () => {
    await pushBranch('closed-early', { 'closed-early.txt': 'x\n' })
    await pushBranch('merged-early', { 'merged-early.txt': 'x\n' })
    const closedIid = await open('closed-early')
    const mergedIid = await open('merged-early')
    await mergeabilityIdle(s.app.burrow)
    const db = s.app.burrow.db
    const closed = findMergeRequestByIid(db, project.id, closedIid)
    const merged = findMergeRequestByIid(db, project.id, mergedIid)
    if (!closed || !merged) throw new Error('merge requests missing')
    // Queue the checks, then change the state before they run (they start on the next turn). The
    // clock stands still: the answers come within the millisecond of the state change, as they can.
    const { closedRead, mergedRead } = await withClock(
      () => new Date('2026-01-02T03:04:05.678Z'),
      async () => {
        queueMergeabilityCheck(s.app.burrow, closed.id)
        queueMergeabilityCheck(s.app.burrow, merged.id)
        // A client may read each in between: closed (or merged) and checking, at these updated_at.
        const reads = {
          closedRead: updateMergeRequestRow(db, closed.id, { state: 'closed' }),
          mergedRead: updateMergeRequestRow(db, merged.id, { state: 'merged' }),
        }
        await mergeabilityIdle(s.app.burrow)
        return reads
      },
    )
    const closedNow = findMergeRequestByIid(db, project.id, closedIid)
    const mergedNow = findMergeRequestByIid(db, project.id, mergedIid)
    expect(closedNow?.merge_status).toBe('cannot_be_merged')
    expect(mergedNow?.merge_status).toBe('can_be_merged')
    // The answer still gets a later updated_at than the read, or a client syncing by updated_after
    // would keep `checking`.
    expect(String(closedNow?.updated_at) > closedRead.updated_at).toBe(true)
    expect(String(mergedNow?.updated_at) > mergedRead.updated_at).toBe(true)
  })

  it('counts diverged commits with include_diverged_commits_count', async () => {
    const conflicting = (
      (await api(dev.token, 'GET', '/merge_requests?source_branch=conflicting')).body as unknown as Json[]
    )[0]
    const mr = (
      await api(dev.token, 'GET', `/merge_requests/${conflicting.iid as number}?include_diverged_commits_count=true`)
    ).body as Json
    expect(mr.diverged_commits_count).toBe(1)
  })

  it('builds merge_ref without moving the target, and answers 400 for a conflicting merge request', async () => {
    await pushBranch('refme', { 'refme.txt': 'x\n' })
    const iid = await open('refme')
    const before = await sh(await clone(), 'rev-parse', 'HEAD')
    const res = await api(dev.token, 'GET', `/merge_requests/${iid}/merge_ref`)
    expect(res.status).toBe(200)
    const dir = await clone()
    await sh(dir, 'fetch', '--quiet', 'origin', `refs/merge-requests/${iid}/merge`)
    expect(await sh(dir, 'rev-parse', 'FETCH_HEAD')).toBe(res.body?.commit_id)
    expect(await sh(dir, 'rev-parse', 'HEAD')).toBe(before)
    expect((await sh(dir, 'log', '-1', '--format=%P', 'FETCH_HEAD')).split(' ')).toHaveLength(2)
    const conflicting = (await api(dev.token, 'GET', '/merge_requests?source_branch=conflicting'))
      .body as unknown as Json[]
    const bad = await api(dev.token, 'GET', `/merge_requests/${conflicting[0].iid as number}/merge_ref`)
    expect(bad.status).toBe(400)
    expect(typeof bad.body?.message).toBe('string')
  })

  it('answers merge_ref with 400 and a message for a merge request with nothing to merge, and for a merged one', async () => {
    await sh(work, 'fetch', '--quiet', url, '+refs/heads/main:refs/remotes/origin/main')
    await sh(work, 'push', '--quiet', '--force', url, 'refs/remotes/origin/main:refs/heads/nothing-new')
    const empty = await api(dev.token, 'GET', `/merge_requests/${await open('nothing-new')}/merge_ref`)
    expect(empty).toEqual({ status: 400, body: { message: 'Merge request has no changes to merge' } })
    await pushBranch('merged-ref', { 'merged-ref.txt': 'x\n' })
    const iid = await open('merged-ref')
    await settled(iid)
    expect((await api(dev.token, 'PUT', `/merge_requests/${iid}/merge`)).status).toBe(200)
    expect(await api(dev.token, 'GET', `/merge_requests/${iid}/merge_ref`)).toEqual({
      status: 400,
      body: { message: 'Merge request is not mergeable' },
    })
  })

  it('merges with a two-parent merge commit visible after cloning, records the merge and a merged event', async () => {
    const head = await pushBranch('feature', { 'feature.txt': 'feature\n' })
    const iid = await open('feature', 'Add feature')
    await settled(iid)
    const res = await api(dev.token, 'PUT', `/merge_requests/${iid}/merge`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      state: 'merged',
      merged_by: { id: dev.user.id },
      merge_user: { id: dev.user.id },
      sha: head,
    })
    const dir = await clone()
    expect(await sh(dir, 'rev-parse', 'HEAD')).toBe(res.body?.merge_commit_sha)
    const parents = (await sh(dir, 'log', '-1', '--format=%P')).split(' ')
    expect(parents).toHaveLength(2)
    expect(parents[1]).toBe(head)
    expect(await sh(dir, 'log', '-1', '--format=%s')).toBe("Merge branch 'feature' into 'main'")
    const events = s.app.burrow.db
      .prepare("SELECT action FROM events WHERE target_type = 'MergeRequest' AND target_iid = ? AND project_id = ?")
      .all(iid, project.id) as Json[]
    expect(events.map((e) => e.action)).toContain('merged')
    const listed = (
      await s.request(dev.token, { method: 'GET', url: `/api/v4/projects/${project.id}/events?action=merged` })
    ).body
    expect(
      (JSON.parse(listed) as Json[]).some(
        (e) => e.action_name === 'accepted' && e.target_type === 'MergeRequest' && e.target_iid === iid,
      ),
    ).toBe(true)
    expect((await api(dev.token, 'PUT', `/merge_requests/${iid}/merge`)).status).toBe(405)
  })

  it('closes the issues the description references with closing patterns when merged', async () => {
    const issue = (await api(dev.token, 'POST', '/issues', { title: 'To be fixed' })).body as Json
    await pushBranch('fixer', { 'fix.txt': 'x\n' })
    const iid = await open('fixer', 'Fix it', { description: `Closes #${issue.iid as number}` })
    expect((await api(dev.token, 'PUT', `/merge_requests/${iid}/merge`)).status).toBe(200)
    expect((await api(dev.token, 'GET', `/issues/${issue.iid as number}`)).body).toMatchObject({ state: 'closed' })
  })

  it("needs the protected target branch's merge level: 401 for a Developer, merged by a Maintainer", async () => {
    await pushBranch('release', { 'release.txt': 'r\n' })
    insertProtectedBranch(s.app.burrow.db, {
      projectId: project.id,
      name: 'release',
      allowForcePush: false,
      codeOwnerApprovalRequired: false,
      access: {
        push: [{ access_level: AccessLevel.MAINTAINER }],
        merge: [{ access_level: AccessLevel.MAINTAINER }],
        unprotect: [],
      },
    })
    await pushBranch('into-release', { 'ir.txt': 'x\n' }, 'release')
    const res = await api(dev.token, 'POST', '/merge_requests', {
      source_branch: 'into-release',
      target_branch: 'release',
      title: 'Into release',
    })
    const iid = res.body?.iid as number
    expect((await api(dev.token, 'PUT', `/merge_requests/${iid}/merge`)).status).toBe(401)
    const merged = await s.request(ROOT_TOKEN, {
      method: 'PUT',
      url: `/api/v4/projects/${project.id}/merge_requests/${iid}/merge`,
    })
    expect(JSON.parse(merged.body)).toMatchObject({ state: 'merged' })
  })

  it('answers 409 when sha does not match the source head', async () => {
    await pushBranch('stale', { 'stale.txt': 'x\n' })
    const iid = await open('stale')
    const res = await api(dev.token, 'PUT', `/merge_requests/${iid}/merge`, { sha: 'a'.repeat(40) })
    expect(res.status).toBe(409)
    expect(String(res.body?.message)).toMatch(/^SHA does not match HEAD of source branch/)
  })

  it('refuses merging to a Reporter with 401 and a draft with 405', async () => {
    await pushBranch('drafty', { 'drafty.txt': 'x\n' })
    const iid = await open('drafty', 'Draft: not yet')
    expect(
      (
        await s.request(reporter.token, {
          method: 'PUT',
          url: `/api/v4/projects/${project.id}/merge_requests/${iid}/merge`,
        })
      ).statusCode,
    ).toBe(401)
    expect((await api(dev.token, 'PUT', `/merge_requests/${iid}/merge`)).status).toBe(405)
  })

  it('squashes into one commit with the merge request title and removes the source branch when asked', async () => {
    await pushBranch('squashy', { 'a.txt': 'a\n' })
    commitFiles(work, { 'b.txt': 'b\n' }, 'Second commit')
    await sh(work, 'push', '--quiet', '--force', url, 'squashy:refs/heads/squashy')
    const iid = await open('squashy', 'Squash me')
    const res = await api(dev.token, 'PUT', `/merge_requests/${iid}/merge`, {
      squash: true,
      should_remove_source_branch: true,
    })
    expect(res.status).toBe(200)
    expect(res.body?.squash_commit_sha).toMatch(/^[0-9a-f]{40}$/)
    const dir = await clone()
    expect(await sh(dir, 'log', '-1', '--format=%s', res.body?.squash_commit_sha as string)).toBe('Squash me')
    expect((await sh(dir, 'log', '-1', '--format=%P', res.body?.squash_commit_sha as string)).split(' ')).toHaveLength(
      1,
    )
    expect((await sh(dir, 'ls-tree', '--name-only', 'HEAD')).split('\n')).toEqual(
      expect.arrayContaining(['a.txt', 'b.txt']),
    )
    expect(await sh(dir, 'ls-remote', '--heads', 'origin', 'squashy')).toBe('')
  })

  it('fast-forwards with merge_method ff and leaves merge_commit_sha null', async () => {
    const head = await pushBranch('ffme', { 'ff.txt': 'x\n' })
    const iid = await open('ffme')
    s.app.burrow.db
      .prepare("UPDATE projects SET settings = json_set(settings, '$.merge_method', 'ff') WHERE id = ?")
      .run(project.id)
    try {
      const res = await api(dev.token, 'PUT', `/merge_requests/${iid}/merge`)
      expect(res.body).toMatchObject({ state: 'merged', merge_commit_sha: null })
      expect(await sh(await clone(), 'rev-parse', 'HEAD')).toBe(head)
    } finally {
      s.app.burrow.db
        .prepare("UPDATE projects SET settings = json_set(settings, '$.merge_method', 'merge') WHERE id = ?")
        .run(project.id)
    }
  })

  it('rebases the source branch onto the target asynchronously (202, then rebase_in_progress false)', async () => {
    await pushBranch('rebaseme', { 'rebase.txt': 'x\n' })
    const main = await advanceMain({ 'main-only.txt': 'y\n' })
    const iid = await open('rebaseme')
    const res = await api(dev.token, 'PUT', `/merge_requests/${iid}/rebase`)
    expect(res.status).toBe(202)
    expect(res.body).toEqual({ rebase_in_progress: true })
    const mr = await pollRebase(iid)
    expect(mr.merge_error).toBeNull()
    const dir = await clone()
    await sh(dir, 'fetch', '--quiet', 'origin', 'rebaseme')
    expect(await sh(dir, 'log', '-1', '--format=%P', 'FETCH_HEAD')).toBe(main)
    expect(await sh(dir, 'log', '-1', '--format=%s', 'FETCH_HEAD')).toBe('Change on rebaseme')
    expect(mr.sha).toBe(await sh(dir, 'rev-parse', 'FETCH_HEAD'))
  })

  it('reports a conflicting rebase in merge_error and leaves the branch alone; 403 for a Reporter', async () => {
    const head = await pushBranch('rebaseconflict', { 'shared.txt': 'rebase side\n' })
    await advanceMain({ 'shared.txt': 'main side again\n' })
    const iid = await open('rebaseconflict')
    expect(
      (
        await s.request(reporter.token, {
          method: 'PUT',
          url: `/api/v4/projects/${project.id}/merge_requests/${iid}/rebase`,
        })
      ).statusCode,
    ).toBe(403)
    expect((await api(dev.token, 'PUT', `/merge_requests/${iid}/rebase`)).status).toBe(202)
    const mr = await pollRebase(iid)
    expect(mr.merge_error).toMatch(/^Rebase failed/)
    const dir = await clone()
    await sh(dir, 'fetch', '--quiet', 'origin', 'rebaseconflict')
    expect(await sh(dir, 'rev-parse', 'FETCH_HEAD')).toBe(head)
  })

  it('cancel_merge_when_pipeline_succeeds: 401 for a Reporter, 406 when not set, 405 when merged, else the flag turns false', async () => {
    await pushBranch('mwps', { 'mwps.txt': 'x\n' })
    const iid = await open('mwps')
    const cancel = (token: string, n: number) =>
      s.request(token, {
        method: 'POST',
        url: `/api/v4/projects/${project.id}/merge_requests/${n}/cancel_merge_when_pipeline_succeeds`,
      })
    expect((await cancel(reporter.token, iid)).statusCode).toBe(401)
    expect((await cancel(dev.token, iid)).statusCode).toBe(406)
    s.app.burrow.db
      .prepare('UPDATE merge_requests SET merge_when_pipeline_succeeds = 1 WHERE project_id = ? AND iid = ?')
      .run(project.id, iid)
    const ok = await cancel(dev.token, iid)
    expect(ok.statusCode).toBe(201)
    expect(JSON.parse(ok.body)).toMatchObject({ merge_when_pipeline_succeeds: false })
    const merged = (await api(dev.token, 'GET', '/merge_requests?state=merged&per_page=1')).body as unknown as Json[]
    const gone = await cancel(dev.token, merged[0].iid as number)
    expect(gone.statusCode).toBe(405)
    expect(JSON.parse(gone.body)).toEqual({ message: 'Method Not Allowed' })
  })

  it('marks a merge request merged when its source is pushed into the target outside Burrow', async () => {
    const head = await pushBranch('outside', { 'outside.txt': 'x\n' })
    const iid = await open('outside')
    await sh(work, 'push', '--quiet', url, `${head}:refs/heads/main`)
    let mr: Json = {}
    for (let i = 0; i < 100; i++) {
      mr = (await api(dev.token, 'GET', `/merge_requests/${iid}`)).body as Json
      if (mr.state === 'merged') break
      await new Promise((r) => setTimeout(r, 20))
    }
    expect(mr).toMatchObject({ state: 'merged', merged_by: { id: dev.user.id } })
  })

  it('refreshes the head sha and re-checks mergeability after a push to the source branch', async () => {
    await pushBranch('moving', { 'moving.txt': 'x\n' })
    const iid = await open('moving')
    await settled(iid)
    const next = commitFiles(work, { 'moving2.txt': 'y\n' }, 'More')
    await sh(work, 'push', '--quiet', url, 'moving:refs/heads/moving')
    let mr: Json = {}
    for (let i = 0; i < 100; i++) {
      mr = (await api(dev.token, 'GET', `/merge_requests/${iid}`)).body as Json
      if (mr.sha === next && mr.merge_status === 'can_be_merged') break
      await new Promise((r) => setTimeout(r, 20))
    }
    expect(mr).toMatchObject({ sha: next, merge_status: 'can_be_merged', diff_refs: { head_sha: next } })
  })

  /**
   * Resolves once the push listeners before this one (the merge request refresh among them) have
   * handled a push of `branch`, with what `then` returns at that moment: a git push's listeners
   * run after git's answer, so a test cannot know otherwise.
   */
  const pushHandled = <T>(branch: string, then: () => T): Promise<T> =>
    new Promise((resolve) => {
      onPush(s.app.burrow, (push) => {
        if (push.updates.some((u) => u.ref === `refs/heads/${branch}`)) resolve(then())
      })
    })

  /** pushBranch, returning once the push listeners have handled the push. */
  const pushBranchHandled = async (name: string, files: Record<string, string>, base = 'main'): Promise<void> => {
    const handled = pushHandled(name, () => undefined)
    await pushBranch(name, files, base)
    await handled
  }

  /** Polls the single merge request (a bounded wait, no fixed sleep) until `done` holds; returns it. */
  const pollUntil = async (iid: number, done: (mr: Json) => boolean): Promise<Json> => {
    let mr = (await api(dev.token, 'GET', `/merge_requests/${iid}`)).body as Json
    for (let i = 0; i < 250 && !done(mr); i++) {
      await new Promise((r) => setTimeout(r, 20))
      mr = (await api(dev.token, 'GET', `/merge_requests/${iid}`)).body as Json
    }
    return mr
  }
  /**
   * The project's merge requests changed since a client read them at `since`, as Burrow's sync
   * asks: updated_after is inclusive, and rows still at `since` are the ones it already holds.
   */
  const changedSince = async (since: string): Promise<Json[]> => {
    const listed = (
      await api(
        dev.token,
        'GET',
        `/merge_requests?state=opened&order_by=updated_at&sort=asc&updated_after=${encodeURIComponent(since)}`,
      )
    ).body as unknown as Json[]
    return listed.filter((mr) => mr.updated_at !== since)
  }

  it('settles to cannot_be_merged with has_conflicts after a push to the target makes it conflict, and syncing clients see the change', async () => {
    await pushBranchHandled('overtaken', { 'overtaken.txt': 'from branch\n' })
    const iid = await open('overtaken')
    const before = await settled(iid)
    expect(before).toMatchObject({ merge_status: 'can_be_merged', has_conflicts: false })
    await pushBranchHandled('main', { 'overtaken.txt': 'from main\n' })
    // Nobody asks for a recheck: the push alone leads to the answer.
    expect(await pollUntil(iid, (mr) => mr.merge_status === 'cannot_be_merged')).toMatchObject({
      merge_status: 'cannot_be_merged',
      has_conflicts: true,
    })
    // A client that synced the merge request before the push finds it among the changed ones.
    const changed = (await changedSince(before.updated_at as string)).find((mr) => mr.iid === iid)
    expect(changed).toMatchObject({ merge_status: 'cannot_be_merged', has_conflicts: true })
  })

  it('gives the answer a new updated_at when a client could read checking with the current one (a source push)', async () => {
    await pushBranchHandled('source-moved', { 'source-moved.txt': 'one\n' })
    const iid = await open('source-moved')
    await settled(iid)
    // Read once the push is handled, as a client could while the check runs: the check is held
    // until then (it would otherwise race the listeners' git work, and could settle first).
    const release = holdMergeabilityChecks(s.app.burrow)
    let read: MergeRequestRow | undefined
    try {
      const handled = pushHandled('source-moved', () => findMergeRequestByIid(s.app.burrow.db, project.id, iid))
      const head = await pushBranch('source-moved', { 'source-moved.txt': 'two\n' }, 'source-moved')
      read = await handled
      expect(read).toMatchObject({ head_sha: head, merge_status: 'checking' })
    } finally {
      release()
    }
    expect(await settled(iid)).toMatchObject({ merge_status: 'can_be_merged' })
    expect((await changedSince(read?.updated_at as string)).find((mr) => mr.iid === iid)).toMatchObject({
      merge_status: 'can_be_merged',
    })
  })

  it('gives the answer a new updated_at when the merge request changed while it was checking', async () => {
    await pushBranchHandled('retitled', { 'retitled.txt': 'x\n' })
    const iid = await open('retitled')
    const row = findMergeRequestById(s.app.burrow.db, (await settled(iid)).id as number) as MergeRequestRow
    queueMergeabilityCheck(s.app.burrow, row.id)
    const seen = updateMergeRequestRow(s.app.burrow.db, row.id, { title: 'Retitled while checking' }).updated_at
    await mergeabilityIdle(s.app.burrow)
    expect((await changedSince(seen)).find((mr) => mr.iid === iid)).toMatchObject({
      merge_status: 'can_be_merged',
      title: 'Retitled while checking',
    })
  })

  it('leaves updated_at alone when a recheck finds what clients already hold', async () => {
    await pushBranchHandled('rechecked', { 'rechecked.txt': 'x\n' })
    const iid = await open('rechecked')
    const before = await settled(iid)
    await api(dev.token, 'GET', `/merge_requests/${iid}?with_merge_status_recheck=true`)
    await mergeabilityIdle(s.app.burrow)
    expect(await settled(iid)).toMatchObject({ merge_status: 'can_be_merged', updated_at: before.updated_at })
  })

  it('settles cannot_be_merged when the target is force-pushed to a history unrelated to the source', async () => {
    await pushBranchHandled('unrelated', { 'unrelated.txt': 'branch\n' })
    const iid = await open('unrelated')
    await settled(iid)
    await sh(work, 'checkout', '--quiet', '--orphan', 'elsewhere')
    commitFiles(work, { 'other.txt': 'new root\n' }, 'A new root')
    await sh(work, 'push', '--quiet', '--force', url, 'elsewhere:refs/heads/side-target')
    expect((await api(dev.token, 'PUT', `/merge_requests/${iid}`, { target_branch: 'side-target' })).status).toBe(200)
    expect(
      await pollUntil(iid, (mr) => mr.merge_status !== 'checking' && mr.merge_status !== 'unchecked'),
    ).toMatchObject({ merge_status: 'cannot_be_merged', has_conflicts: true })
  })

  it('checks again on reading a merge request left checking with no check under way (a restart)', async () => {
    await pushBranchHandled('orphaned-check', { 'orphaned-check.txt': 'x\n' })
    const iid = await open('orphaned-check')
    await settled(iid)
    s.app.burrow.db
      .prepare("UPDATE merge_requests SET merge_status = 'checking' WHERE project_id = ? AND iid = ?")
      .run(project.id, iid)
    expect(await pollUntil(iid, (mr) => mr.merge_status !== 'checking')).toMatchObject({
      merge_status: 'can_be_merged',
    })
  })

  it('lists the merge requests a commit is in: its commits between base and head, and the commit it merged into', async () => {
    const first = await pushBranch('two-steps', { 'step1.txt': '1\n' })
    const second = commitFiles(work, { 'step2.txt': '2\n' }, 'Second step')
    await sh(work, 'push', '--quiet', url, 'two-steps:refs/heads/two-steps')
    const iid = await open('two-steps')
    await settled(iid)
    const ofCommit = async (sha: string, query = ''): Promise<number[]> => {
      const res = await api(dev.token, 'GET', `/repository/commits/${sha}/merge_requests${query}`)
      expect(res.status).toBe(200)
      return (res.body as unknown as Json[]).map((mr) => mr.iid as number)
    }
    expect(await ofCommit(first)).toEqual([iid])
    expect(await ofCommit(second)).toEqual([iid])
    expect(await ofCommit('two-steps')).toEqual([iid])
    const base = (await api(dev.token, 'GET', `/merge_requests/${iid}`)).body?.diff_refs as Json
    expect(await ofCommit(base.base_sha as string)).not.toContain(iid)
    const merged = await api(dev.token, 'PUT', `/merge_requests/${iid}/merge`)
    expect(merged.status).toBe(200)
    expect(await ofCommit(merged.body?.merge_commit_sha as string)).toEqual([iid])
    expect(await ofCommit(first, '?state=merged')).toEqual([iid])
    expect(await ofCommit(first, '?state=opened')).toEqual([])
    const unknown = await api(dev.token, 'GET', `/repository/commits/${'0'.repeat(40)}/merge_requests`)
    expect(unknown).toEqual({ status: 404, body: { message: '404 Commit Not Found' } })
  })
})
