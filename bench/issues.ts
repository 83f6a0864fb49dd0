/**
 * `npm run bench -- issues [count]`: the issue lists over HTTP on 127.0.0.1 with `count` issues in
 * the database (default 100k: 90k in one project, the rest over ten more): `GET
 * /projects/:id/issues?per_page=100` and `GET /issues?scope=all&per_page=100`, as a Developer of
 * the group (the membership and confidentiality checks run), side by side with a bare Fastify
 * route replaying the same bytes. Latency (P50/P90/P99) is measured one request at a time — the
 * time a caller waits; throughput (req/s) with 8 concurrent keep-alive connections. Writes
 * bench/results/issues.json; never asserts timings. GitLab's P90 target for these is 200 ms.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildApp } from '../src/server/app'
import { digestToken } from '../src/server/platform/auth/secrets'
import type { Db } from '../src/server/platform/db/connection'
import { get, keepAliveAgent, measure, type FetchedResponse } from './lib/load'
import { startRawServer } from './lib/raw-server'
import { round3, type LoadSummary } from './lib/stats'

const ROOT_TOKEN = 'burrow-bench-root-token'
export const DEV_TOKEN = 'burrow-bench-developer-token'
const LATENCY_REQUESTS = 400
const THROUGHPUT_REQUESTS = 1_600
const WARMUP = 100
const CONCURRENCY = 8
const OTHER_PROJECTS = 10

interface Target {
  readonly name: 'project_issues' | 'global_issues'
  readonly path: string
  readonly query: string
}

/** A timestamp `i` minutes after a fixed origin: distinct, stable, in creation order. */
function stamp(i: number): string {
  return new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString()
}

/**
 * Inserts the data set straight into the database in one transaction: 20 users, a group with a
 * Developer, 11 projects, group labels and milestones, and `count` issues of which some carry
 * labels, assignees, a milestone, a weight, task lists, confidentiality, notes and award emoji —
 * so each page does the presentation work a real one does.
 */
export function seedIssues(db: Db, count: number): { projectId: number } {
  const now = stamp(0)
  db.transaction(() => {
    const user = db.prepare(
      `INSERT INTO users (username, name, email, state, confirmed_at, created_at, updated_at) VALUES (?, ?, ?, 'active', ?, ?, ?)`,
    )
    const userIds: number[] = []
    for (let u = 1; u <= 20; u++)
      userIds.push(
        Number(user.run(`bench-${u}`, `Bench User ${u}`, `bench-${u}@bench.example`, now, now, now).lastInsertRowid),
      )
    const developer = userIds[0]
    db.prepare(
      `INSERT INTO personal_access_tokens (user_id, name, token_digest, scopes, created_at) VALUES (?, 'bench', ?, '["api"]', ?)`,
    ).run(developer, digestToken(DEV_TOKEN), now)
    const group = Number(
      db
        .prepare(
          `INSERT INTO namespaces (kind, name, path, full_path, full_name, visibility, created_at, updated_at) VALUES ('group', 'Bench', 'bench', 'bench', 'Bench', 'private', ?, ?)`,
        )
        .run(now, now).lastInsertRowid,
    )
    db.prepare(
      `INSERT INTO members (source_type, source_id, user_id, access_level, created_at, updated_at) VALUES ('Namespace', ?, ?, 30, ?, ?)`,
    ).run(group, developer, now, now)
    const project = db.prepare(
      `INSERT INTO projects (namespace_id, name, path, visibility, default_branch, creator_id, created_at, updated_at, last_activity_at) VALUES (?, ?, ?, 'private', 'main', ?, ?, ?, ?)`,
    )
    const projectIds: number[] = []
    for (let p = 0; p <= OTHER_PROJECTS; p++)
      projectIds.push(
        Number(project.run(group, `Project ${p}`, `project-${p}`, developer, now, now, now).lastInsertRowid),
      )
    const label = db.prepare(
      `INSERT INTO labels (title, color, description, group_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
    )
    const labelIds = ['bug', 'feature', 'ui', 'backend', 'docs', 'security'].map((t, n) =>
      Number(label.run(t, `#${(0x336699 + n * 0x101010).toString(16)}`, `${t} work`, group, now, now).lastInsertRowid),
    )
    const milestone = db.prepare(
      `INSERT INTO milestones (iid, group_id, title, start_date, due_date, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    const milestoneIds = [1, 2, 3].map((n) =>
      Number(milestone.run(n, group, `Release ${n}`, `2020-0${n}-01`, `2020-0${n}-28`, now, now).lastInsertRowid),
    )
    const issue = db.prepare(
      `INSERT INTO issues (iid, project_id, author_id, title, description, state, confidential, milestone_id, weight, closed_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    const link = db.prepare(
      "INSERT INTO label_links (label_id, target_type, target_id, created_at) VALUES (?, 'Issue', ?, ?)",
    )
    const assignee = db.prepare('INSERT INTO issue_assignees (issue_id, user_id) VALUES (?, ?)')
    const note = db.prepare(
      `INSERT INTO notes (noteable_type, noteable_id, project_id, author_id, body, discussion_id, created_at, updated_at) VALUES ('Issue', ?, ?, ?, 'A comment', ?, ?, ?)`,
    )
    const award = db.prepare(
      "INSERT INTO award_emoji (name, user_id, awardable_type, awardable_id, created_at, updated_at) VALUES ('thumbsup', ?, 'Issue', ?, ?, ?)",
    )
    const mainCount = count - Math.floor(count / 10)
    const iids = new Map<number, number>()
    for (let i = 1; i <= count; i++) {
      const projectId = i <= mainCount ? projectIds[0] : projectIds[1 + (i % OTHER_PROJECTS)]
      const iid = (iids.get(projectId) ?? 0) + 1
      iids.set(projectId, iid)
      const t = stamp(i)
      const closed = i % 3 === 0
      const description =
        i % 4 === 0
          ? `Steps:\n- [x] reproduce ${i}\n- [ ] fix\n- [ ] test`
          : `Description of issue ${i}, long enough to look like one a person wrote.`
      const id = Number(
        issue.run(
          iid,
          projectId,
          userIds[i % userIds.length],
          `Issue number ${i}`,
          description,
          closed ? 'closed' : 'opened',
          i % 50 === 0 ? 1 : 0,
          i % 5 === 0 ? milestoneIds[i % milestoneIds.length] : null,
          i % 2 === 0 ? i % 8 : null,
          closed ? t : null,
          t,
          t,
        ).lastInsertRowid,
      )
      if (i % 2 === 0) link.run(labelIds[i % labelIds.length], id, t)
      if (i % 7 === 0) link.run(labelIds[(i + 1) % labelIds.length], id, t)
      if (i % 3 !== 0) assignee.run(id, userIds[(i * 7) % userIds.length])
      if (i % 6 === 0) note.run(id, projectId, userIds[(i + 3) % userIds.length], `d${i}`.padEnd(40, '0'), t, t)
      if (i % 9 === 0) award.run(userIds[(i + 5) % userIds.length], id, t, t)
    }
    const counter = db.prepare(
      `INSERT INTO internal_ids (scope_type, scope_id, usage, last_value) VALUES ('Project', ?, 'issues', ?)`,
    )
    for (const [projectId, last] of iids) counter.run(projectId, last)
  })()
  db.exec('ANALYZE')
  return { projectId: (db.prepare("SELECT id FROM projects WHERE path = 'project-0'").get() as { id: number }).id }
}

/** One real response, checked to be the full page a client would get. */
async function capture(url: string): Promise<FetchedResponse> {
  const agent = keepAliveAgent(1)
  try {
    const res = await get(agent, url, { 'private-token': DEV_TOKEN })
    if (res.status !== 200)
      throw new Error(`GET ${url} answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`)
    const rows = JSON.parse(res.body.toString('utf8')) as unknown
    if (!Array.isArray(rows) || rows.length !== 100) throw new Error(`GET ${url} did not return a page of 100 issues`)
    return res
  } finally {
    agent.destroy()
  }
}

interface Measured {
  readonly latency: LoadSummary
  readonly throughput: LoadSummary
}

async function measureBoth(url: string): Promise<Measured> {
  const headers = { 'private-token': DEV_TOKEN }
  const latency = await measure({ url, headers, warmup: WARMUP, requests: LATENCY_REQUESTS, concurrency: 1 })
  const throughput = await measure({
    url,
    headers,
    warmup: WARMUP,
    requests: THROUGHPUT_REQUESTS,
    concurrency: CONCURRENCY,
  })
  return { latency, throughput }
}

function row(name: string, m: Measured): string {
  return `${name.padEnd(22)} ${m.latency.p50_ms.toFixed(2).padStart(9)} ${m.latency.p90_ms.toFixed(2).padStart(9)} ${m.latency.p99_ms.toFixed(2).padStart(9)} ${m.throughput.rps.toFixed(0).padStart(9)}`
}

/** Runs the issue list benchmark and writes bench/results/issues.json. */
export default async function issuesBench(args: readonly string[]): Promise<void> {
  const count = Number(args[0] ?? 100_000)
  if (!Number.isInteger(count) || count < 1_000) throw new Error('usage: npm run bench -- issues [count ≥ 1000]')
  const dataDir = mkdtempSync(join(tmpdir(), 'burrow-bench-issues-'))
  const app = await buildApp({ dataDir, rootToken: ROOT_TOKEN })
  let raw: Awaited<ReturnType<typeof startRawServer>> | null = null
  try {
    const seeded = Date.now()
    const { projectId } = seedIssues(app.burrow.db, count)
    process.stdout.write(`seeded ${count} issues in ${Date.now() - seeded} ms\n`)
    const realUrl = await app.listen({ host: '127.0.0.1', port: 0 })
    const targets: readonly Target[] = [
      { name: 'project_issues', path: `/api/v4/projects/${projectId}/issues`, query: '?per_page=100' },
      { name: 'global_issues', path: '/api/v4/issues', query: '?scope=all&per_page=100' },
    ]
    const captured = new Map<string, FetchedResponse>()
    for (const t of targets) captured.set(t.path, await capture(`${realUrl}${t.path}${t.query}`))
    raw = await startRawServer(captured)

    // The machine is shared: the load average says how much of the latency is waiting for a CPU.
    const loadBefore = loadavg()[0]
    const results = new Map<Target['name'], { real: Measured; raw: Measured }>()
    for (const t of targets) {
      const real = await measureBoth(`${realUrl}${t.path}${t.query}`)
      const bare = await measureBoth(`${raw.url}${t.path}${t.query}`)
      results.set(t.name, { real, raw: bare })
    }
    const p = results.get('project_issues') as { real: Measured; raw: Measured }
    const g = results.get('global_issues') as { real: Measured; raw: Measured }
    const ratio = (r: { real: Measured; raw: Measured }): number => round3(r.real.throughput.rps / r.raw.throughput.rps)
    const out = {
      date: new Date().toISOString(),
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      cpus: availableParallelism(),
      load_average_1m: { before: round3(loadBefore), after: round3(loadavg()[0]) },
      issues: count,
      issues_in_project: count - Math.floor(count / 10),
      viewer: 'group Developer (membership and confidentiality checks on)',
      latency_requests: LATENCY_REQUESTS,
      latency_concurrency: 1,
      throughput_requests: THROUGHPUT_REQUESTS,
      throughput_concurrency: CONCURRENCY,
      response_bytes: {
        project_issues: captured.get(targets[0].path)?.body.length,
        global_issues: captured.get(targets[1].path)?.body.length,
      },
      project_issues_p50_ms: p.real.latency.p50_ms,
      project_issues_p90_ms: p.real.latency.p90_ms,
      project_issues_p99_ms: p.real.latency.p99_ms,
      project_issues_rps: p.real.throughput.rps,
      project_issues_raw_p50_ms: p.raw.latency.p50_ms,
      project_issues_raw_p90_ms: p.raw.latency.p90_ms,
      project_issues_raw_rps: p.raw.throughput.rps,
      project_issues_rps_ratio_vs_raw: ratio(p),
      global_issues_p50_ms: g.real.latency.p50_ms,
      global_issues_p90_ms: g.real.latency.p90_ms,
      global_issues_p99_ms: g.real.latency.p99_ms,
      global_issues_rps: g.real.throughput.rps,
      global_issues_raw_p50_ms: g.raw.latency.p50_ms,
      global_issues_raw_p90_ms: g.raw.latency.p90_ms,
      global_issues_raw_rps: g.raw.throughput.rps,
      global_issues_rps_ratio_vs_raw: ratio(g),
      // The headline ratio is the lower of the two lists' (the slower list bounds a client).
      issues_rps_ratio_vs_raw: Math.min(ratio(p), ratio(g)),
      gitlab_p90_target_ms: 200,
    }
    process.stdout.write(
      `\n${'target'.padEnd(22)} ${'p50 ms'.padStart(9)} ${'p90 ms'.padStart(9)} ${'p99 ms'.padStart(9)} ${'req/s'.padStart(9)}\n`,
    )
    for (const t of targets) {
      const r = results.get(t.name) as { real: Measured; raw: Measured }
      process.stdout.write(`${row(t.name, r.real)}\n${row(`${t.name} (raw)`, r.raw)}\n`)
    }
    process.stdout.write(
      `\nreq/s ratio vs raw: project ${out.project_issues_rps_ratio_vs_raw}, global ${out.global_issues_rps_ratio_vs_raw}\n`,
    )
    const resultsDir = join(dirname(fileURLToPath(import.meta.url)), 'results')
    mkdirSync(resultsDir, { recursive: true })
    writeFileSync(join(resultsDir, 'issues.json'), `${JSON.stringify(out, null, 2)}\n`)
    process.stdout.write(`wrote ${join(resultsDir, 'issues.json')}\n`)
  } finally {
    if (raw) await raw.app.close()
    await app.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
