/**
 * `npm run bench -- issues [count]`: SQL time of issue list pages (page + exact count, as the
 * list endpoints run them) on a project of `count` issues (default 100k) plus two small projects.
 * Prints a table and writes bench/results/issues.json; never asserts timings.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { nowIso, openDatabase } from '../src/server/db/connection'
import { listIssues, type IssueFilter } from '../src/server/db/issues'
import { percentile, round3 } from './lib/stats'

function seed(db: ReturnType<typeof openDatabase>, count: number): void {
  const now = nowIso()
  db.prepare("INSERT INTO users (id, username, name, email, state, created_at, updated_at) VALUES (1000, 'bench', 'Bench', 'bench@x', 'active', ?, ?)").run(now, now)
  db.prepare("INSERT INTO namespaces (id, kind, name, path, full_path, full_name, visibility, created_at, updated_at) VALUES (1000, 'group', 'g', 'g', 'g', 'g', 'public', ?, ?)").run(now, now)
  for (let p = 1; p <= 3; p++) {
    db.prepare("INSERT INTO projects (id, namespace_id, name, path, visibility, created_at, updated_at, last_activity_at) VALUES (?, 1000, ?, ?, 'public', ?, ?, ?)").run(p, `p${p}`, `p${p}`, now, now, now)
  }
  db.prepare("INSERT INTO labels (id, title, color, project_id, created_at, updated_at) VALUES (1, 'bug', '#ffffff', 1, ?, ?), (2, 'ui', '#ffffff', 1, ?, ?)").run(now, now, now, now)
  const ins = db.prepare('INSERT INTO issues (iid, project_id, author_id, title, description, state, confidential, created_at, updated_at) VALUES (?, ?, 1000, ?, ?, ?, ?, ?, ?)')
  const link = db.prepare("INSERT INTO label_links (label_id, target_type, target_id, created_at) VALUES (?, 'Issue', ?, ?)")
  db.transaction(() => {
    for (let i = 1; i <= count; i++) {
      const t = new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString()
      const id = Number(ins.run(i, 1, `Issue ${i}`, `desc ${i}`, i % 3 === 0 ? 'closed' : 'opened', i % 50 === 0 ? 1 : 0, t, t).lastInsertRowid)
      if (i % 7 === 0) link.run(1, id, t)
      if (i % 11 === 0) link.run(2, id, t)
    }
    for (let i = 1; i <= count / 5; i++) ins.run(i, 2 + (i % 2), `Other ${i}`, null, 'opened', 0, now, now)
  })()
  db.exec('ANALYZE')
}

/** Runs the issue list benchmark. */
export default async function issuesBench(args: readonly string[]): Promise<void> {
  const count = Number(args[0] ?? 100_000)
  const dir = mkdtempSync(join(tmpdir(), 'burrow-bench-issues-'))
  const db = openDatabase(dir)
  try {
    seed(db, count)
    const base: IssueFilter = { projectIds: [1], confidentialProjectIds: [], viewerId: 1000, orderBy: 'created_at', sort: 'desc', today: '2026-01-01' }
    const cases: [string, IssueFilter, number][] = [
      ['project, page 1', base, 0],
      ['project opened, page 1', { ...base, state: 'opened' }, 0],
      ['project opened, page 500', { ...base, state: 'opened' }, 49_900],
      ['project by updated_at', { ...base, orderBy: 'updated_at' }, 0],
      ['labels bug AND ui', { ...base, labels: { kind: 'value', value: ['bug', 'ui'] } }, 0],
      ['not[labels]=bug', { ...base, not: { labels: ['bug'] } }, 0],
      ['search title+description', { ...base, search: { text: '999', inTitle: true, inDescription: true } }, 0],
      ['three projects (group / global)', { ...base, projectIds: [1, 2, 3] }, 0],
      ['administrator (no confidential test)', { ...base, confidentialProjectIds: null }, 0],
    ]
    const results: Record<string, { p50_ms: number; max_ms: number; total: number }> = {}
    for (const [name, f, offset] of cases) {
      const samples: number[] = []
      let total = 0
      for (let i = 0; i < 7; i++) {
        const t0 = process.hrtime.bigint()
        total = listIssues(db, f, { limit: 100, offset }).total
        samples.push(Number(process.hrtime.bigint() - t0) / 1e6)
      }
      results[name] = { p50_ms: round3(percentile(samples, 50)), max_ms: round3(Math.max(...samples)), total }
      console.log(`${name.padEnd(38)} p50 ${results[name].p50_ms.toFixed(1).padStart(7)} ms   total=${total}`)
    }
    const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'issues.json')
    writeFileSync(out, `${JSON.stringify({ count, pageSize: 100, results }, null, 2)}\n`)
  } finally {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
