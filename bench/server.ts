/**
 * `npm run bench -- server`: latency and throughput of Burrow Server's two largest admin lists
 * (`GET /projects?per_page=100`, `GET /users?per_page=100` as root) on 10k projects and 10k
 * users, side by side with a bare Fastify app replaying the same bytes and headers, plus the
 * project list walked over all its 100 pages (no page served twice in a row, so memoised entities
 * do not help). Writes bench/results/server.json. Fails (exit 1, no results file) when an
 * endpoint does not answer 200.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildApp } from '../src/server/app'
import { insertDataset, type DatasetSize } from './lib/dataset'
import { get, keepAliveAgent, measure, type FetchedResponse } from './lib/load'
import { startRawServer } from './lib/raw-server'
import { round3, type LoadSummary } from './lib/stats'

const ROOT_TOKEN = 'burrow-bench-root-token'
const SIZE: DatasetSize = { users: 10_000, groups: 200, projects: 10_000, memberships: 2_000 }
const WARMUP = 200
const REQUESTS = 2_000
const CONCURRENCY = 8

interface Target {
  readonly name: 'projects' | 'users'
  readonly path: string
  readonly query: string
}

const TARGETS: readonly Target[] = [
  { name: 'projects', path: '/api/v4/projects', query: '?per_page=100' },
  { name: 'users', path: '/api/v4/users', query: '?per_page=100' },
]

/** Fetches one real response and checks it is the full page a client would get. */
async function capture(baseUrl: string, t: Target): Promise<FetchedResponse> {
  const agent = keepAliveAgent(1)
  try {
    const res = await get(agent, `${baseUrl}${t.path}${t.query}`, { 'private-token': ROOT_TOKEN })
    if (res.status !== 200)
      throw new Error(`GET ${t.path}${t.query} answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`)
    const rows = JSON.parse(res.body.toString('utf8')) as unknown
    if (!Array.isArray(rows) || rows.length !== 100) {
      throw new Error(
        `GET ${t.path}${t.query} did not return a page of 100 rows (got ${Array.isArray(rows) ? rows.length : typeof rows})`,
      )
    }
    return res
  } finally {
    agent.destroy()
  }
}

function row(name: string, s: LoadSummary): string {
  return `${name.padEnd(16)} ${s.p50_ms.toFixed(2).padStart(9)} ${s.p90_ms.toFixed(2).padStart(9)} ${s.rps.toFixed(0).padStart(9)}`
}

/** Runs the server benchmark and writes bench/results/server.json. */
export default async function serverBench(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'burrow-bench-'))
  const app = await buildApp({ dataDir, rootToken: ROOT_TOKEN })
  let raw: Awaited<ReturnType<typeof startRawServer>> | null = null
  try {
    const seeded = Date.now()
    const counts = insertDataset(app.burrow.db, SIZE)
    process.stdout.write(
      `seeded ${counts.total_users} users and ${counts.total_projects} projects in ${Date.now() - seeded} ms\n`,
    )
    const realUrl = await app.listen({ host: '127.0.0.1', port: 0 })

    const captured = new Map<string, FetchedResponse>()
    for (const t of TARGETS) captured.set(t.path, await capture(realUrl, t))
    raw = await startRawServer(captured)

    // The machine is shared: the load average says how much of the latency is waiting for a CPU.
    const loadBefore = loadavg()[0]
    const results: Record<string, { real: LoadSummary; raw: LoadSummary }> = {}
    for (const t of TARGETS) {
      const common = {
        headers: { 'private-token': ROOT_TOKEN },
        warmup: WARMUP,
        requests: REQUESTS,
        concurrency: CONCURRENCY,
      }
      const real = await measure({ ...common, url: `${realUrl}${t.path}${t.query}` })
      const bare = await measure({ ...common, url: `${raw.url}${t.path}${t.query}` })
      results[t.name] = { real, raw: bare }
    }

    // The same list over all 100 pages in turn: every page is new to the server's serialised
    // project entities (2,000 kept), so this is the list's cost without that memo.
    const pages = Array.from({ length: 100 }, (_, i) => `${realUrl}/api/v4/projects?per_page=100&page=${i + 1}`)
    const rotating = await measure({
      url: pages[0],
      urls: pages,
      headers: { 'private-token': ROOT_TOKEN },
      warmup: 0,
      requests: 500,
      concurrency: CONCURRENCY,
    })

    const loadAfter = loadavg()[0]
    const { projects, users } = results
    const out = {
      date: new Date().toISOString(),
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      cpus: availableParallelism(),
      load_average_1m: { before: round3(loadBefore), after: round3(loadAfter) },
      rows: {
        users: counts.total_users,
        projects: counts.total_projects,
        groups: counts.groups,
        memberships: counts.memberships,
      },
      requests_per_target: REQUESTS,
      warmup_per_target: WARMUP,
      concurrency: CONCURRENCY,
      response_bytes: {
        projects: captured.get('/api/v4/projects')?.body.length,
        users: captured.get('/api/v4/users')?.body.length,
      },
      projects_p50_ms: projects.real.p50_ms,
      projects_p90_ms: projects.real.p90_ms,
      projects_p99_ms: projects.real.p99_ms,
      projects_rps: projects.real.rps,
      projects_raw_p50_ms: projects.raw.p50_ms,
      projects_raw_p90_ms: projects.raw.p90_ms,
      projects_raw_rps: projects.raw.rps,
      projects_rps_ratio_vs_raw: round3(projects.real.rps / projects.raw.rps),
      projects_all_pages_p50_ms: rotating.p50_ms,
      projects_all_pages_p90_ms: rotating.p90_ms,
      projects_all_pages_rps: rotating.rps,
      users_p50_ms: users.real.p50_ms,
      users_p90_ms: users.real.p90_ms,
      users_p99_ms: users.real.p99_ms,
      users_rps: users.real.rps,
      users_raw_p50_ms: users.raw.p50_ms,
      users_raw_p90_ms: users.raw.p90_ms,
      users_raw_rps: users.raw.rps,
      users_rps_ratio_vs_raw: round3(users.real.rps / users.raw.rps),
    }

    process.stdout.write(
      `\n${'target'.padEnd(16)} ${'p50 ms'.padStart(9)} ${'p90 ms'.padStart(9)} ${'req/s'.padStart(9)}\n`,
    )
    for (const t of TARGETS) {
      process.stdout.write(
        `${row(`${t.name}`, results[t.name].real)}\n${row(`${t.name} (raw)`, results[t.name].raw)}\n`,
      )
    }
    process.stdout.write(`${row('projects, pages 1-100', rotating)}\n`)
    process.stdout.write(
      `\nprojects rps ratio vs raw: ${out.projects_rps_ratio_vs_raw}; users: ${out.users_rps_ratio_vs_raw}\n`,
    )

    const resultsDir = join(dirname(fileURLToPath(import.meta.url)), 'results')
    mkdirSync(resultsDir, { recursive: true })
    writeFileSync(join(resultsDir, 'server.json'), `${JSON.stringify(out, null, 2)}\n`)
    process.stdout.write(`wrote ${join(resultsDir, 'server.json')}\n`)
  } finally {
    if (raw) await raw.app.close()
    await app.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
