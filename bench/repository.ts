/**
 * `npm run bench -- repository`: latency of Burrow Server's repository read endpoints on a
 * synthetic repository of 10k files and 5k commits (built with one `git fast-import`), over
 * HTTP on 127.0.0.1: recursive tree pages, a blob, a compare of two commits 100 apart and a
 * tar.gz archive. Writes bench/results/repository.json. Never asserts timings.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildApp } from '../src/server/app'
import { nowIso } from '../src/server/platform/db/connection'
import { findProjectById } from '../src/server/modules/namespaces/queries'
import type { ProjectRow } from '../src/server/platform/db/rows'
import { projectGitDir } from '../src/server/platform/git/project-repo'
import { fastImport, fastImportStream, type HistoryShape } from './lib/git-repo'
import { get, keepAliveAgent, measure } from './lib/load'
import { round3, type LoadSummary } from './lib/stats'

const ROOT_TOKEN = 'burrow-bench-root-token'
const SHAPE: HistoryShape = { files: 10_000, commits: 5_000 }

function gitOut(gitDir: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args as string[],
      { env: { ...process.env, GIT_DIR: gitDir }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout.trim())),
    )
  })
}

/** Checks a URL answers 200 once and returns its body size, so we never benchmark an error page. */
async function probe(url: string): Promise<number> {
  const agent = keepAliveAgent(1)
  try {
    const res = await get(agent, url, { 'private-token': ROOT_TOKEN })
    if (res.status !== 200)
      throw new Error(`GET ${url} answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`)
    return res.body.length
  } finally {
    agent.destroy()
  }
}

/** Runs the repository benchmark and writes bench/results/repository.json. */
export default async function repositoryBench(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'burrow-bench-repo-'))
  const app = await buildApp({ dataDir, rootToken: ROOT_TOKEN })
  try {
    const db = app.burrow.db
    const now = nowIso()
    const ns = db
      .prepare(
        `INSERT INTO namespaces (kind, name, path, full_path, full_name, visibility, created_at, updated_at) VALUES ('group', 'bench', 'bench', 'bench', 'bench', 'public', ?, ?)`,
      )
      .run(now, now)
    const info = db
      .prepare(
        `INSERT INTO projects (namespace_id, name, path, visibility, default_branch, created_at, updated_at, last_activity_at) VALUES (?, 'big', 'big', 'public', 'main', ?, ?, ?)`,
      )
      .run(Number(ns.lastInsertRowid), now, now, now)
    const project = findProjectById(db, Number(info.lastInsertRowid)) as ProjectRow
    const gitDir = projectGitDir(app.burrow, project)
    await app.burrow.repos.create(gitDir, 'main')

    const started = Date.now()
    const stream = fastImportStream(SHAPE)
    await fastImport(gitDir, stream)
    const importMs = Date.now() - started
    process.stdout.write(
      `imported ${SHAPE.files} files and ${SHAPE.commits} commits (${(stream.length / 1e6).toFixed(1)} MB stream) in ${importMs} ms\n`,
    )

    const history = (await gitOut(gitDir, ['rev-list', 'main'])).split('\n')
    const to = history[1000]
    const from = history[1100]
    const blob = (await gitOut(gitDir, ['rev-parse', 'main:dir-050/file-05000.txt'])).trim()

    const base = await app.listen({ host: '127.0.0.1', port: 0 })
    const api = `${base}/api/v4/projects/${project.id}/repository`
    const targets = {
      tree_recursive: {
        url: `${api}/tree?recursive=true&per_page=100&page=3`,
        warmup: 20,
        requests: 300,
        concurrency: 4,
      },
      blob: { url: `${api}/blobs/${blob}`, warmup: 50, requests: 1000, concurrency: 4 },
      compare: { url: `${api}/compare?from=${from}&to=${to}`, warmup: 5, requests: 100, concurrency: 2 },
      archive_tar_gz: { url: `${api}/archive.tar.gz`, warmup: 2, requests: 20, concurrency: 1 },
    } as const
    // The machine is shared: the load average says how much of the latency is waiting for a CPU.
    const loadBefore = loadavg()[0]
    const sizes: Record<string, number> = {}
    const results: Record<string, LoadSummary> = {}
    for (const [name, t] of Object.entries(targets)) {
      sizes[name] = await probe(t.url)
      results[name] = await measure({ ...t, headers: { 'private-token': ROOT_TOKEN } })
      process.stdout.write(
        `${name.padEnd(16)} p50 ${results[name].p50_ms.toFixed(2).padStart(9)} ms  p90 ${results[name].p90_ms.toFixed(2).padStart(9)} ms  (${sizes[name]} bytes)\n`,
      )
    }

    const loadAfter = loadavg()[0]
    const out = {
      date: new Date().toISOString(),
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      cpus: availableParallelism(),
      load_average_1m: { before: round3(loadBefore), after: round3(loadAfter) },
      git: await gitOut(gitDir, ['--version']),
      repository: { files: SHAPE.files, commits: SHAPE.commits, import_ms: importMs, compare_distance: 100 },
      requests: Object.fromEntries(
        Object.entries(targets).map(([k, t]) => [k, { requests: t.requests, concurrency: t.concurrency }]),
      ),
      response_bytes: sizes,
      tree_recursive_p50_ms: results.tree_recursive.p50_ms,
      tree_recursive_p90_ms: results.tree_recursive.p90_ms,
      blob_p50_ms: results.blob.p50_ms,
      blob_p90_ms: results.blob.p90_ms,
      compare_p50_ms: results.compare.p50_ms,
      compare_p90_ms: results.compare.p90_ms,
      archive_tar_gz_p50_ms: results.archive_tar_gz.p50_ms,
      archive_tar_gz_p90_ms: results.archive_tar_gz.p90_ms,
    }
    const resultsDir = join(dirname(fileURLToPath(import.meta.url)), 'results')
    mkdirSync(resultsDir, { recursive: true })
    writeFileSync(join(resultsDir, 'repository.json'), `${JSON.stringify(out, null, 2)}\n`)
    process.stdout.write(`wrote ${join(resultsDir, 'repository.json')}\n`)
  } finally {
    await app.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
