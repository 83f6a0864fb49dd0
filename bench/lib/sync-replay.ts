/**
 * The initial sync of bench/sync.ts without its server: where the client's own CPU goes.
 *
 *   npx tsx bench/lib/sync-replay.ts record FILE [issues] [mergeRequests]
 *     seeds a Burrow Server as bench/sync.ts does, runs one initial sync against it and saves
 *     every response (status, headers, body) by URL;
 *   npx tsx bench/lib/sync-replay.ts replay FILE [runs]
 *     runs the same sync into fresh caches, answered from FILE, and prints the CPU time
 *     (process.cpuUsage: user + system) and wall time of each run and their medians. The first
 *     run warms the JIT and is left out. Run under `node --cpu-prof` for a profile.
 *
 * The replay answers from memory, so what it measures is the client: the API client's parsing,
 * the sync's logic and the cache's writes (SQLite, JSON, the search index). Not a benchmark
 * (no results file): a tool for comparing one change of the store with another.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AccessGate } from '../../src/main/core/api/access-gate'
import { ApiClient } from '../../src/main/core/api/client'
import { OnlineState } from '../../src/main/core/api/connectivity'
import { Cache, openCacheDatabase } from '../../src/main/core/cache/index'
import { SyncService } from '../../src/main/core/sync/service'
import { seedServer, startServer, stopServer } from '../sync'
import { percentile } from './stats'

interface Recorded {
  readonly status: number
  readonly headers: [string, string][]
  readonly body: string
}

interface Recording {
  readonly userId: number
  readonly responses: Record<string, Recorded>
}

const BASE = 'http://127.0.0.1:1'

/** The URL without its host (the replay's base differs from the recording's). */
const keyOf = (url: string): string => {
  const u = new URL(url)
  return u.pathname + u.search
}

async function syncOnce(cache: Cache, fetchImpl: typeof fetch, userId: number, baseUrl: string): Promise<void> {
  const online = new OnlineState({ probe: async () => true })
  const client = new ApiClient({
    baseUrl,
    credentials: async () => ({ kind: 'pat', token: 'replay' }),
    connectivity: online,
    fetch: fetchImpl,
  })
  const gate = new AccessGate()
  const service = new SyncService({
    cache,
    accounts: {
      list: async () => [{ id: 'bench', userId }],
      clientFor: async () => client,
      connectivityFor: () => online,
      accessFor: () => gate,
    },
  })
  const result = await service.run('bench')
  if (result.outcome !== 'completed') throw new Error(`sync ${result.outcome}: ${result.error?.message}`)
}

async function record(file: string, issues: number, mergeRequests: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'burrow-sync-replay-'))
  const token = randomBytes(16).toString('hex')
  const server = await startServer(join(dir, 'server'), token)
  try {
    seedServer(join(dir, 'server'), issues, mergeRequests)
    const me = (await (await fetch(`${server.url}/api/v4/user`, { headers: { 'private-token': token } })).json()) as {
      id: number
    }
    const responses: Record<string, Recorded> = {}
    const recording: typeof fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input)
      const headers = new Headers(init?.headers)
      headers.set('private-token', token)
      const response = await fetch(url, { ...init, headers })
      const body = await response.text()
      responses[keyOf(url)] = { status: response.status, headers: [...response.headers], body }
      return new Response(body, { status: response.status, headers: response.headers })
    }
    const cache = new Cache(openCacheDatabase(join(dir, 'cache', 'cache.sqlite3')))
    await syncOnce(cache, recording, me.id, server.url)
    cache.close()
    writeFileSync(file, JSON.stringify({ userId: me.id, responses } satisfies Recording))
    console.log(`recorded ${Object.keys(responses).length} responses into ${file}`)
  } finally {
    await stopServer(server)
    rmSync(dir, { recursive: true, force: true })
  }
}

async function replay(file: string, runs: number): Promise<void> {
  const recording = JSON.parse(readFileSync(file, 'utf8')) as Recording
  const answering: typeof fetch = async (input) => {
    const url = input instanceof Request ? input.url : String(input)
    const found = recording.responses[keyOf(url)]
    if (found === undefined) throw new Error(`not recorded: ${keyOf(url)}`)
    return new Response(found.body, { status: found.status, headers: found.headers })
  }
  const dir = mkdtempSync(join(tmpdir(), 'burrow-sync-replay-'))
  const cpu: number[] = []
  const wall: number[] = []
  const store: number[] = []
  try {
    for (let i = 0; i <= runs; i++) {
      const cache = new Cache(openCacheDatabase(join(dir, `cache-${i}`, 'cache.sqlite3')))
      // CPU inside the cache's outermost transactions: the store alone, without the client's parsing.
      let storeMicros = 0
      let bodyMicros = 0
      let pragmaMicros = 0
      let depth = 0
      const cpuOf = <T>(work: () => T, add: (micros: number) => void): T => {
        const at = process.cpuUsage()
        try {
          return work()
        } finally {
          const used = process.cpuUsage(at)
          add(used.user + used.system)
        }
      }
      const pragma = cache.db.pragma.bind(cache.db)
      cache.db.pragma = ((source, options) =>
        cpuOf(
          () => pragma(source, options),
          (m) => (pragmaMicros += m),
        )) as typeof cache.db.pragma
      const transaction = cache.transaction.bind(cache)
      cache.transaction = ((fn, options) => {
        if (depth++ > 0) {
          try {
            return transaction(fn, options)
          } finally {
            depth--
          }
        }
        const body = (): ReturnType<typeof fn> => cpuOf(fn, (m) => (bodyMicros += m))
        try {
          return cpuOf(
            () => transaction(body, options),
            (m) => (storeMicros += m),
          )
        } finally {
          depth--
        }
      }) as Cache['transaction']
      const before = process.cpuUsage()
      const started = performance.now()
      await syncOnce(cache, answering, recording.userId, BASE)
      const ms = performance.now() - started
      const used = process.cpuUsage(before)
      cache.close()
      rmSync(join(dir, `cache-${i}`), { recursive: true, force: true })
      const cpuMs = (used.user + used.system) / 1000
      console.log(
        `run ${i}${i === 0 ? ' (warm-up)' : ''}: cpu ${cpuMs.toFixed(1)} ms (store ${(storeMicros / 1000).toFixed(1)}: writes ${(bodyMicros / 1000).toFixed(1)}, index+commit ${((storeMicros - bodyMicros) / 1000).toFixed(1)}; pragmas ${(pragmaMicros / 1000).toFixed(1)}), wall ${ms.toFixed(1)} ms`,
      )
      if (i > 0) {
        store.push(storeMicros / 1000)
        cpu.push(cpuMs)
        wall.push(ms)
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  console.log(
    `median of ${runs}: cpu ${percentile(cpu, 50).toFixed(1)} ms, store ${percentile(store, 50).toFixed(1)} ms, min store ${Math.min(...store).toFixed(1)} ms, wall ${percentile(wall, 50).toFixed(1)} ms`,
  )
}

const [mode, file, ...rest] = process.argv.slice(2)
if (mode === 'record' && file !== undefined) await record(file, Number(rest[0] ?? 10_000), Number(rest[1] ?? 2_000))
else if (mode === 'replay' && file !== undefined) await replay(file, Number(rest[0] ?? 5))
else throw new Error('usage: sync-replay.ts record FILE [issues] [mergeRequests] | replay FILE [runs]')
