/**
 * `npm run bench -- sync [issues] [mergeRequests]`: the desktop sync against a local Burrow
 * Server (a child process, so client and server do not share an event loop).
 * - initial sync of 10k issues and 2k merge requests in 5 projects, as a ratio to the time to
 *   fetch the same pages (with the same parameters) and parse them, without storing anything
 *   (three of each, taking turns; the fastest of each counts).
 *   The baseline asks one page at a time, project after project. The sync works on two
 *   projects at once, each asking for its next page while it writes the one in hand (so up to
 *   two requests wait at the server while the client stores); the baseline is not given that,
 *   since it measures the fetch the sync must keep up with. The sync asks more than the baseline
 *   (`initial_sync_requests` beside `fetch_only_requests`): its pages follow a cursor
 *   (`updated_after`, which includes its own instant, so each page after the first repeats an
 *   item: 21 pages of issues and 5 of merge requests a project here, against 20 and 4), and it
 *   also reads its scope (projects, groups), each project's and the group's labels and
 *   milestones, the group's epics and the to-dos; those are part of its time. A first sync
 *   reads no issue links, and no merge request changes (the user is on none of them). Beside
 *   each wall time, where the fastest run's main thread spent it (`*_main_thread_ms`, Linux):
 *   `run` on a CPU, `runnable` waiting for one (a loaded machine), `blocked` on the server or
 *   the disk. On a shared machine the ratio mostly measures the scheduler; `blocked` shows the
 *   overlap the sync gets all the same;
 * - a sync with nothing changed: requests and time;
 * - full-text search P95 over 100k cached issues (prefix and multi-word queries), wall and CPU
 *   time, with the machine's load average;
 * - RSS of a process holding the 100k-issue cache while it lists and searches;
 * - reconnect_replay_ms: a comment queued while the server process is stopped, from the moment
 *   the restarted server answers until the comment has landed (the app's defaults: no manual
 *   retry, no "sync now").
 * Writes bench/results/sync.json; never asserts timings.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { AccountStore } from '../src/main/core/accounts/account-store'
import { Accounts } from '../src/main/core/accounts/accounts'
import { EncryptedFileSecretStore } from '../src/main/core/accounts/encrypted-file-secret-store'
import { AccessGate } from '../src/main/core/api/access-gate'
import { ApiClient } from '../src/main/core/api/client'
import { OnlineState } from '../src/main/core/api/connectivity'
import { Cache, openCacheDatabase, searchCache, type JsonObject } from '../src/main/core/cache/index'
import { Outbox } from '../src/main/core/outbox/outbox'
import { SyncService } from '../src/main/core/sync/service'
import { measureThread, type ThreadTime } from './lib/sched'
import { percentile, round3 } from './lib/stats'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const PROJECTS = 5

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

export interface BenchServer {
  readonly url: string
  readonly port: number
  readonly child: ChildProcess
}

/** Burrow Server as a child process; `port` to start it again where it was. Resolves once `/version` answers (polled every 10 ms). */
export async function startServer(dataDir: string, token: string, port?: number): Promise<BenchServer> {
  const listenOn = port ?? (await freePort())
  const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs')
  const child = spawn(
    process.execPath,
    [tsx, 'src/server/cli.ts', '--host', '127.0.0.1', '--port', String(listenOn), '--data-dir', dataDir],
    {
      cwd: root,
      env: { ...process.env, BURROW_ROOT_TOKEN: token },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  )
  const url = `http://127.0.0.1:${listenOn}`
  for (let i = 0; i < 3000; i++) {
    try {
      if ((await fetch(`${url}/api/v4/version`)).ok) return { url, port: listenOn, child }
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 10))
  }
  child.kill()
  throw new Error('Burrow Server did not start')
}

export async function stopServer(server: BenchServer): Promise<void> {
  if (server.child.exitCode !== null) return
  const exited = new Promise((resolve) => server.child.once('exit', resolve))
  server.child.kill('SIGTERM')
  await exited
}

/**
 * A comment queued while the server process is stopped, with the app's own accounts, outbox
 * and connectivity defaults: milliseconds from the restarted server's first answer until the
 * comment is on it. The server stays down 6 s first, past the first probes of the back-off.
 */
async function reconnectReplay(
  dir: string,
  server: BenchServer,
  dataDir: string,
  token: string,
  projectId: number,
): Promise<{ ms: number; server: BenchServer }> {
  const home = join(dir, 'replay')
  const accounts = new Accounts({
    store: new AccountStore(join(home, 'accounts.json')),
    secrets: await EncryptedFileSecretStore.open(join(home, 'secrets.enc.json'), 'bench'),
  })
  const cache = new Cache(openCacheDatabase(join(home, 'cache.sqlite3')))
  const outbox = new Outbox({ cache, accounts })
  try {
    outbox.start()
    const account = await accounts.add({ baseUrl: server.url, token })
    cache.upsert(account.id, 'issue', [
      await (await accounts.clientFor(account.id)).get<JsonObject>(`/projects/${projectId}/issues/1`),
    ])
    await stopServer(server)
    const entry = await outbox.enqueue(
      account.id,
      { type: 'issue', projectId, iid: 1 },
      { kind: 'comment', body: 'Queued while the server was stopped' },
    )
    await outbox.idle()
    if (accounts.connectivityFor(account.id).online) throw new Error('the account did not go offline')
    await new Promise((r) => setTimeout(r, 6_000))
    const landed = new Promise<void>((resolve) => {
      outbox.onDidChange((e) => {
        if (e.id === entry.id && e.state === 'done') resolve()
      })
    })
    const restarted = await startServer(dataDir, token, server.port)
    const back = performance.now()
    await landed
    return { ms: performance.now() - back, server: restarted }
  } finally {
    await outbox.dispose()
    accounts.dispose()
    cache.close()
  }
}

/** Rows straight into the server's database (as bench/issues.ts does): a group root owns, its projects, issues, merge requests, labels. */
export function seedServer(dataDir: string, issues: number, mergeRequests: number): number[] {
  const db = new Database(join(dataDir, 'burrow.sqlite3'))
  db.pragma('busy_timeout = 10000')
  const rootId = db.prepare("SELECT id FROM users WHERE username = 'root'").pluck().get() as number
  const t0 = Date.UTC(2023, 0, 1)
  const at = (i: number): string => new Date(t0 + i * 61_000).toISOString()
  const projectIds: number[] = []
  db.transaction(() => {
    const group = Number(
      db
        .prepare(
          "INSERT INTO namespaces (kind, name, path, full_path, full_name, visibility, created_at, updated_at) VALUES ('group', 'bench', 'bench', 'bench', 'bench', 'private', ?, ?)",
        )
        .run(at(0), at(0)).lastInsertRowid,
    )
    db.prepare(
      "INSERT INTO members (source_type, source_id, user_id, access_level, created_at, updated_at) VALUES ('Namespace', ?, ?, 50, ?, ?)",
    ).run(group, rootId, at(0), at(0))
    const project = db.prepare(
      "INSERT INTO projects (namespace_id, name, path, visibility, creator_id, created_at, updated_at, last_activity_at) VALUES (?, ?, ?, 'private', ?, ?, ?, ?)",
    )
    const label = db.prepare(
      'INSERT INTO labels (title, color, project_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    )
    const issue = db.prepare(
      'INSERT INTO issues (iid, project_id, author_id, title, description, state, confidential, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)',
    )
    const mr = db.prepare(
      'INSERT INTO merge_requests (iid, project_id, source_project_id, source_branch, target_branch, title, description, state, author_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    const link = db.prepare(
      'INSERT INTO label_links (label_id, target_type, target_id, created_at) VALUES (?, ?, ?, ?)',
    )
    for (let p = 1; p <= PROJECTS; p++) {
      const pid = Number(
        project.run(group, `Project ${p}`, `project-${p}`, rootId, at(0), at(0), at(0)).lastInsertRowid,
      )
      projectIds.push(pid)
      const bug = Number(label.run('bug', '#d9534f', pid, at(0), at(0)).lastInsertRowid)
      const ui = Number(label.run('ui', '#5bc0de', pid, at(0), at(0)).lastInsertRowid)
      const perProject = Math.ceil(issues / PROJECTS)
      for (let i = 1; i <= perProject; i++) {
        const n = (p - 1) * perProject + i
        const id = Number(
          issue.run(
            i,
            pid,
            rootId,
            `Issue ${n}: parser crash in module ${n % 97}`,
            `Steps to reproduce ${n}. The renderer stalls when the cache holds ${n} rows.`,
            n % 3 === 0 ? 'closed' : 'opened',
            at(n),
            at(n),
          ).lastInsertRowid,
        )
        if (n % 2 === 0) link.run(bug, 'Issue', id, at(n))
        if (n % 5 === 0) link.run(ui, 'Issue', id, at(n))
      }
      const mrsPerProject = Math.ceil(mergeRequests / PROJECTS)
      for (let i = 1; i <= mrsPerProject; i++) {
        const n = (p - 1) * mrsPerProject + i
        const id = Number(
          mr.run(
            i,
            pid,
            pid,
            `feature-${i}`,
            'main',
            `Merge request ${n}`,
            `Changes ${n}`,
            n % 4 === 0 ? 'merged' : 'opened',
            rootId,
            at(n),
            at(n),
          ).lastInsertRowid,
        )
        if (n % 3 === 0) link.run(bug, 'MergeRequest', id, at(n))
      }
    }
  })()
  db.close()
  return projectIds
}

function client(url: string, token: string, online?: OnlineState): ApiClient {
  return new ApiClient({ baseUrl: url, credentials: async () => ({ kind: 'pat', token }), connectivity: online })
}

/** Fetching and parsing the pages the sync needs, offset-paged, storing nothing: the floor. */
async function fetchOnly(api: ApiClient, projectIds: readonly number[]): Promise<{ ms: number; requests: number }> {
  const started = performance.now()
  let requests = 0
  for (const pid of projectIds) {
    for (const resource of ['issues', 'merge_requests']) {
      for (let page = 1; ; page++) {
        const result = await api.getPage(`/projects/${pid}/${resource}`, {
          order_by: 'updated_at',
          sort: 'asc',
          per_page: 100,
          page,
          with_labels_details: true,
          scope: 'all',
          state: 'all',
        })
        requests++
        if (result.nextPage === null) break
      }
    }
  }
  return { ms: performance.now() - started, requests }
}

function issueJson(n: number): JsonObject {
  const t = new Date(Date.UTC(2022, 0, 1) + n * 60_000).toISOString()
  const words = ['parser', 'renderer', 'cache', 'sync', 'network', 'keychain', 'tray', 'diff', 'merge', 'label']
  return {
    id: n,
    iid: n,
    project_id: 1 + (n % 10),
    title: `${words[n % 10]} ${words[(n * 7) % 10]} failure number ${n}`,
    description: `When the ${words[(n * 3) % 10]} runs after ${n} steps the ${words[(n * 5) % 10]} times out. Seen on build ${n % 1000}.`,
    state: n % 3 === 0 ? 'closed' : 'opened',
    confidential: false,
    labels: n % 2 === 0 ? [{ id: 1, name: 'bug', color: '#d9534f' }] : [],
    author: { id: 1 + (n % 50), username: `user${n % 50}`, name: `User ${n % 50}` },
    assignees: [],
    milestone: null,
    user_notes_count: 0,
    upvotes: 0,
    created_at: t,
    updated_at: t,
    closed_at: null,
    web_url: `http://bench/issues/${n}`,
  }
}

/** Fetch-only and initial sync runs, taking turns (see syncBench). */
const RATIO_ROUNDS = 3

/** Runs the sync benchmark. */
export default async function syncBench(args: readonly string[]): Promise<void> {
  const issues = Number(args[0] ?? 10_000)
  const mergeRequests = Number(args[1] ?? 2_000)
  const dir = mkdtempSync(join(tmpdir(), 'burrow-bench-sync-'))
  const token = randomBytes(16).toString('hex')
  let server = await startServer(join(dir, 'server'), token)
  try {
    const projectIds = seedServer(join(dir, 'server'), issues, mergeRequests)
    const api = client(server.url, token)
    const me = await api.get<{ id: number }>('/user')
    await fetchOnly(api, projectIds.slice(0, 1)) // warm-up: server statements and JIT
    const fetchMs: number[] = []
    const fetchThread: (ThreadTime | null)[] = []
    let fetchRequests = 0
    const syncMs: number[] = []
    const syncThread: (ThreadTime | null)[] = []
    let initialRequests = 0
    let cache: Cache | null = null
    let service: SyncService | null = null
    // Fetch and sync take turns, so a machine that slows down or speeds up over the run weighs
    // on both alike; the ratio is of the fastest of each.
    for (let i = 0; i < RATIO_ROUNDS; i++) {
      const { value: fetched, thread: fetchedThread } = await measureThread(() => fetchOnly(api, projectIds))
      fetchMs.push(fetched.ms)
      fetchThread.push(fetchedThread)
      fetchRequests = fetched.requests

      cache?.close()
      rmSync(join(dir, `cache-${i}`), { recursive: true, force: true })
      cache = new Cache(openCacheDatabase(join(dir, `cache-${i}`, 'cache.sqlite3')))
      const online = new OnlineState({ probe: async () => true })
      const c = client(server.url, token, online)
      const gate = new AccessGate()
      const run = new SyncService({
        cache,
        accounts: {
          list: async () => [{ id: 'bench', userId: me.id }],
          clientFor: async () => c,
          connectivityFor: () => online,
          accessFor: () => gate,
        },
      })
      service = run
      const { value: result, wallMs, thread } = await measureThread(() => run.run('bench'))
      syncMs.push(wallMs)
      syncThread.push(thread)
      if (result.outcome !== 'completed') throw new Error(`sync ${result.outcome}: ${result.error?.message}`)
      initialRequests = result.requests
    }
    const cachedIssues = cache?.db.prepare('SELECT COUNT(*) FROM issues').pluck().get() as number
    const cachedMrs = cache?.db.prepare('SELECT COUNT(*) FROM merge_requests').pluck().get() as number
    if (cachedIssues !== issues || cachedMrs !== mergeRequests)
      throw new Error(`cache holds ${cachedIssues} issues and ${cachedMrs} merge requests`)

    const noopMs: number[] = []
    let noopRequests = 0
    for (let i = 0; i < 5; i++) {
      const started = performance.now()
      const result = await (service as SyncService).run('bench')
      noopMs.push(performance.now() - started)
      noopRequests = result.requests
      if (result.itemsSynced !== 0) throw new Error(`a no-change sync wrote ${result.itemsSynced} items`)
    }
    cache?.close()

    const replay = await reconnectReplay(dir, server, join(dir, 'server'), token, projectIds[0])
    server = replay.server

    // 100k issues in a fresh cache for search and memory.
    const bigFile = join(dir, 'big', 'cache.sqlite3')
    const big = new Cache(openCacheDatabase(bigFile))
    const loadStarted = performance.now()
    const BIG = 100_000
    for (let start = 1; start <= BIG; start += 1000) {
      const batch: JsonObject[] = []
      for (let n = start; n < start + 1000 && n <= BIG; n++) batch.push(issueJson(n))
      big.upsert('bench', 'issue', batch)
    }
    const loadMs = performance.now() - loadStarted
    const queries = [
      'parser',
      'pars',
      'renderer cache',
      'network time',
      'keychain fail',
      'diff merge',
      'tray',
      'sync numb',
      'label 4242',
      'failure number 99999',
      'steps',
      'build 77',
    ]
    const samples: number[] = []
    // CPU time of this (single-threaded) process: what a search costs on a core of its own,
    // beside the wall time, which grows with whatever else the machine runs.
    const cpuSamples: number[] = []
    const loadBefore = loadavg()[0]
    for (let round = 0; round < 20; round++) {
      for (const q of queries) {
        const cpu = process.cpuUsage()
        const started = performance.now()
        searchCache(big, 'bench', { query: q, limit: 50 })
        samples.push(performance.now() - started)
        const used = process.cpuUsage(cpu)
        cpuSamples.push((used.user + used.system) / 1000)
      }
    }
    const loadAfter = loadavg()[0]
    big.close()
    const rss = spawnSync(
      process.execPath,
      [
        '--expose-gc',
        join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
        join(root, 'bench', 'lib', 'sync-rss.ts'),
        bigFile,
        'bench',
      ],
      { cwd: root, encoding: 'utf8' },
    )
    if (rss.status !== 0) throw new Error(`rss probe failed: ${rss.stderr}`)
    const rssMb = (JSON.parse(rss.stdout.trim().split('\n').pop() as string) as { rss_mb: number }).rss_mb

    const fetchBest = Math.min(...fetchMs)
    const syncBest = Math.min(...syncMs)
    const threadOf = (t: ThreadTime | null | undefined): Record<string, number> | null =>
      t == null ? null : { run: round3(t.runMs), runnable: round3(t.runnableMs), blocked: round3(t.blockedMs) }
    const results = {
      issues,
      merge_requests: mergeRequests,
      projects: PROJECTS,
      fetch_only_ms: round3(fetchBest),
      fetch_only_requests: fetchRequests,
      initial_sync_ms: round3(syncBest),
      initial_sync_requests: initialRequests,
      initial_sync_ratio_vs_fetch: round3(syncBest / fetchBest),
      fetch_only_main_thread_ms: threadOf(fetchThread[fetchMs.indexOf(fetchBest)]),
      initial_sync_main_thread_ms: threadOf(syncThread[syncMs.indexOf(syncBest)]),
      noop_sync_requests: noopRequests,
      noop_sync_ms: round3(percentile(noopMs, 50)),
      fts_docs: BIG,
      fts_load_ms: round3(loadMs),
      fts_p50_ms: round3(percentile(samples, 50)),
      fts_p95_ms: round3(percentile(samples, 95)),
      fts_p95_cpu_ms: round3(percentile(cpuSamples, 95)),
      fts_load_average_1m: { cpus: availableParallelism(), before: round3(loadBefore), after: round3(loadAfter) },
      rss_mb_100k: round3(rssMb),
      reconnect_replay_ms: round3(replay.ms),
      load_average_1m: loadavg().map(round3),
    }
    for (const [k, v] of Object.entries(results))
      console.log(`${k.padEnd(28)} ${typeof v === 'object' ? JSON.stringify(v) : v}`)
    writeFileSync(join(root, 'bench', 'results', 'sync.json'), `${JSON.stringify(results, null, 2)}\n`)
  } finally {
    await stopServer(server)
    rmSync(dir, { recursive: true, force: true })
  }
}
