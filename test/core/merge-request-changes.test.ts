import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../src/main/core/index'
import type { IpcResponse } from '../../src/shared/ipc/contract'
import type { RepoClone, RepoDiff, RepoMergeRequestChanges } from '../../src/shared/ipc/repos'
import { commitFiles, makeWorkRepo, remoteUrl, sh } from '../helpers/git'
import { seedUser, type SeededUser } from '../helpers/server'
import { desktopServices, RequestLog, startRestartableServer, type RestartableServer } from '../helpers/sync'

/*
 * A merge request's changes offline: the server's answer while it can be reached (saved, and read
 * back stale offline); with nothing saved, computed from the project's clone from the merge base
 * of the target and the merge request's head, as the server computes them.
 */

async function call<T>(core: Core, channel: string, ...args: unknown[]): Promise<T> {
  const response = (await core.dispatch(channel, args)) as IpcResponse<T>
  if (!response.ok)
    throw Object.assign(new Error(`${channel}: ${response.error.code} ${response.error.message}`), {
      code: response.error.code,
    })
  return response.result
}

async function failure(core: Core, channel: string, ...args: unknown[]): Promise<string> {
  const response = await core.dispatch(channel, args)
  if (response.ok) throw new Error(`${channel} unexpectedly succeeded`)
  return response.error.code
}

const shape = (d: RepoDiff) => ({
  old_path: d.old_path,
  new_path: d.new_path,
  new_file: d.new_file,
  renamed_file: d.renamed_file,
  deleted_file: d.deleted_file,
  diff: d.diff,
})
const byPath = (a: RepoDiff, b: RepoDiff): number => a.new_path.localeCompare(b.new_path)

let server: RestartableServer
let log: RequestLog
let owner: SeededUser
let core: Core
let accountId = ''
let dispose: () => void
let cloned: {
  id: number
  mrs: { iid: number; json: Record<string, unknown> }[]
  secondChanges: RepoDiff[]
  third: number
}
let services: Awaited<ReturnType<typeof desktopServices>>
let notCloned: { id: number; iid: number }

async function api<T>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>): Promise<T> {
  const response = await server.request(owner.token, { method, url: `/api/v4${url}`, payload })
  if (response.statusCode >= 400) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`)
  return response.json() as T
}

/** A project whose main moved on after `feature` left it (so the merge base is not main's head), with merge requests. */
async function projectWithMergeRequests(path: string): Promise<{ id: number; iids: number[] }> {
  const project = await api<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: path, path })
  const work = makeWorkRepo()
  commitFiles(work, { 'src/app.ts': 'export const a = 1\nexport const b = 2\n', 'README.md': '# App\n' }, 'First')
  await sh(work, 'checkout', '--quiet', '-b', 'feature')
  commitFiles(work, { 'src/app.ts': 'export const a = 1\nexport const b = 3\n', 'notes.txt': 'why\n' }, 'Feature')
  await sh(work, 'checkout', '--quiet', '-b', 'second', 'main')
  commitFiles(work, { 'docs/guide.md': 'A guide.\n' }, 'Second')
  await sh(work, 'checkout', '--quiet', '-b', 'third', 'main')
  commitFiles(work, { 'src/app.ts': 'export const a = 10\nexport const b = 2\n' }, 'Third')
  await sh(work, 'checkout', '--quiet', 'main')
  commitFiles(work, { 'README.md': '# App\n\nMoved on.\n' }, 'Main moves on')
  await sh(
    work,
    'push',
    '--quiet',
    remoteUrl(server.url, project.path_with_namespace, owner.token),
    'main',
    'feature',
    'second',
    'third',
  )
  const iids: number[] = []
  for (const source of ['feature', 'second', 'third']) {
    const mr = await api<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, {
      source_branch: source,
      target_branch: 'main',
      title: `Merge ${source}`,
      // The owner reviews the first two; the third waits on nobody.
      ...(source === 'third' ? {} : { reviewer_ids: [owner.user.id] }),
    })
    iids.push(mr.iid)
  }
  return { id: project.id, iids }
}

beforeAll(async () => {
  server = await startRestartableServer()
  owner = seedUser(server, { username: `reviewer${Math.random().toString(36).slice(2, 7)}` })
  const a = await projectWithMergeRequests('cloned')
  const b = await projectWithMergeRequests('remote-only')
  log = new RequestLog()
  services = await desktopServices(log)
  dispose = services.dispose
  core = createCore({
    version: '0.1.0',
    mode: 'browser',
    serverUrl: server.url,
    accounts: services.accounts,
    cache: services.cache,
    reposDir: join(services.dir, 'repos'),
    repoOptions: { progressIntervalMs: 0 },
  })
  accountId = (await services.accounts.add({ baseUrl: server.url, token: owner.token })).id
  // The merge requests as sync keeps them in the cache.
  const mrs = await Promise.all(
    a.iids.slice(0, 2).map(async (iid) => ({
      iid,
      json: await api<Record<string, unknown>>('GET', `/projects/${a.id}/merge_requests/${iid}`),
    })),
  )
  services.cache.upsert(accountId, 'merge_request', [
    ...mrs.map((m) => m.json),
    await api<Record<string, unknown>>('GET', `/projects/${b.id}/merge_requests/${b.iids[0]}`),
  ])
  // What the server says the second one changes, read beside core (so nothing of it is saved there).
  const second = await api<{ changes: RepoDiff[] }>('GET', `/projects/${a.id}/merge_requests/${a.iids[1]}/changes`)
  cloned = { id: a.id, mrs, secondChanges: second.changes, third: a.iids[2] }
  notCloned = { id: b.id, iid: b.iids[0] }
  const clone = await call<RepoClone>(core, 'repos:clone', accountId, a.id)
  expect(clone.state).toBe('ready')
}, 120_000)

afterAll(async () => {
  await core.dispose()
  dispose()
  await server.close()
})

describe('a merge request’s changes', () => {
  let serverFeature: RepoMergeRequestChanges

  it('online: the server’s changes, with the head they end at', async () => {
    serverFeature = await call(core, 'repos:merge-request-changes', accountId, {
      projectId: cloned.id,
      iid: cloned.mrs[0].iid,
    })
    expect(serverFeature).toMatchObject({ source: 'server', stale: false })
    expect(serverFeature.diffs.map((d) => d.new_path).sort()).toEqual(['notes.txt', 'src/app.ts'])
    expect(serverFeature.headSha).toBe((cloned.mrs[0].json.diff_refs as { head_sha: string }).head_sha)
    await call(core, 'repos:merge-request-changes', accountId, { projectId: notCloned.id, iid: notCloned.iid })
  })

  it('a saved answer at the head the cache holds is used without asking the server again', async () => {
    const changesRequests = (): number => log.count((e) => /\/merge_requests\/\d+\/changes$/.test(e.path))
    const before = changesRequests()
    const again = await call<RepoMergeRequestChanges>(core, 'repos:merge-request-changes', accountId, {
      projectId: cloned.id,
      iid: cloned.mrs[0].iid,
    })
    expect(changesRequests()).toBe(before)
    expect(again.diffs.map(shape)).toEqual(serverFeature.diffs.map(shape))
  })

  it('a new target branch (same head) asks the server again: the merge base moved', async () => {
    const changesRequests = (): number => log.count((e) => /\/merge_requests\/\d+\/changes$/.test(e.path))
    const { iid } = cloned.mrs[0]
    const retarget = async (target: string): Promise<RepoMergeRequestChanges> => {
      const mr = await api<Record<string, unknown>>('PUT', `/projects/${cloned.id}/merge_requests/${iid}`, {
        target_branch: target,
      })
      services.cache.upsert(accountId, 'merge_request', [mr])
      const before = changesRequests()
      const changes = await call<RepoMergeRequestChanges>(core, 'repos:merge-request-changes', accountId, {
        projectId: cloned.id,
        iid,
      })
      expect(changesRequests()).toBe(before + 1)
      return changes
    }
    await retarget('third')
    const back = await retarget('main')
    expect(back.diffs.map(shape)).toEqual(serverFeature.diffs.map(shape))
  })

  it('offline: a saved answer is read back; one never read is computed from the clone, from the merge base, as the server would', async () => {
    await server.stop()
    try {
      const saved = await call<RepoMergeRequestChanges>(core, 'repos:merge-request-changes', accountId, {
        projectId: cloned.id,
        iid: cloned.mrs[0].iid,
      })
      expect(saved.source).toBe('server')
      expect(saved.diffs.map(shape)).toEqual(serverFeature.diffs.map(shape))

      const computed = await call<RepoMergeRequestChanges>(core, 'repos:merge-request-changes', accountId, {
        projectId: cloned.id,
        iid: cloned.mrs[1].iid,
      })
      expect(computed).toMatchObject({ source: 'clone', overflow: false })
      expect(computed.headSha).toBe((cloned.mrs[1].json.diff_refs as { head_sha: string }).head_sha)
      // Only the branch's own change (main's later README edit is not in it: from the merge base), byte for byte the server's.
      expect(computed.diffs.map((d) => d.new_path)).toEqual(['docs/guide.md'])
      expect([...computed.diffs].sort(byPath).map(shape)).toEqual([...cloned.secondChanges].sort(byPath).map(shape))

      // Without a clone and never read: nothing to show, said as an offline read.
      expect(
        await failure(core, 'repos:merge-request-changes', accountId, {
          projectId: notCloned.id,
          iid: notCloned.iid + 1,
        }),
      ).toBe('offline')
    } finally {
      await server.restart()
    }
  })

  it('offline, a merged merge request known only from a list (no diff refs), its branch deleted, is computed from its merge commit', async () => {
    const iid = cloned.third
    const merged = await api<Record<string, unknown>>('PUT', `/projects/${cloned.id}/merge_requests/${iid}/merge`, {
      should_remove_source_branch: true,
    })
    expect(merged.state).toBe('merged')
    const fromServer = await api<{ changes: RepoDiff[] }>('GET', `/projects/${cloned.id}/merge_requests/${iid}/changes`)
    const [listed] = await api<Record<string, unknown>[]>('GET', `/projects/${cloned.id}/merge_requests?iids[]=${iid}`)
    expect(listed.diff_refs).toBeUndefined()
    services.cache.upsert(accountId, 'merge_request', [listed])
    await call(core, 'repos:fetch', accountId, cloned.id)
    await server.stop()
    try {
      const computed = await call<RepoMergeRequestChanges>(core, 'repos:merge-request-changes', accountId, {
        projectId: cloned.id,
        iid,
      })
      expect(computed.source).toBe('clone')
      expect([...computed.diffs].sort(byPath).map(shape)).toEqual([...fromServer.changes].sort(byPath).map(shape))
    } finally {
      await server.restart()
    }
  })

  it('sync keeps the changes of open merge requests the user reviews (a quiet sync asks for none): readable offline without a clone', async () => {
    const changesRequests = (): number => log.count((e) => /\/merge_requests\/\d+\/changes$/.test(e.path))
    const thirdOfNotCloned = `/projects/${notCloned.id}/merge_requests/${notCloned.iid + 2}/changes`
    if (core.sync === null) throw new Error('no sync service')
    const before = changesRequests()
    expect((await core.sync.run(accountId)).outcome).toBe('completed')
    // Four open merge requests the owner reviews: the two never read at least (one read above is read again when
    // its mergeability check moved updated_at after that read). The third of each project waits on nobody.
    expect(changesRequests() - before).toBeGreaterThanOrEqual(2)
    expect(log.count((e) => e.path.endsWith(thirdOfNotCloned))).toBe(0)
    const quiet = changesRequests()
    expect((await core.sync.run(accountId)).outcome).toBe('completed')
    expect(changesRequests()).toBe(quiet)
    await server.stop()
    try {
      const offline = await call<RepoMergeRequestChanges>(core, 'repos:merge-request-changes', accountId, {
        projectId: notCloned.id,
        iid: notCloned.iid + 1,
      })
      expect(offline.source).toBe('server')
      expect(offline.diffs.map((d) => d.new_path)).toEqual(['docs/guide.md'])
      expect(
        await failure(core, 'repos:merge-request-changes', accountId, {
          projectId: notCloned.id,
          iid: notCloned.iid + 2,
        }),
      ).toBe('offline')
    } finally {
      await server.restart()
    }
  })

  it('refuses an iid that is not a positive integer', async () => {
    expect(await failure(core, 'repos:merge-request-changes', accountId, { projectId: cloned.id, iid: 0 })).toBe(
      'invalid-arguments',
    )
  })
})
