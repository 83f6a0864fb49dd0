/**
 * `npm run bench -- <name> [args…]`: runs the benchmark in bench/<name>.ts (its default export);
 * `npm run bench` alone runs every benchmark, one child process each, one after the other.
 * Benchmarks print a short table and write bench/results/<name>.json; they never assert timings.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/** What every bench/<name>.ts exports by default. */
export type Benchmark = (args: readonly string[]) => Promise<void>

const here = dirname(fileURLToPath(import.meta.url))

function available(): string[] {
  return readdirSync(here)
    .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
    .map((f) => f.slice(0, -3))
    .sort()
}

/** Every benchmark in its own process, so one's database, servers and browser never weigh on the next. */
function runAll(): void {
  const failed: string[] = []
  for (const name of available()) {
    process.stdout.write(`\n==> bench ${name}\n`)
    const run = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), name], {
      stdio: 'inherit',
    })
    if (run.status !== 0) failed.push(name)
  }
  if (failed.length > 0) throw new Error(`failed: ${failed.join(', ')}`)
}

async function main(): Promise<void> {
  const [name, ...args] = process.argv.slice(2)
  if (name === undefined) return runAll()
  if (!name || !/^[a-z][a-z0-9-]*$/.test(name) || !existsSync(join(here, `${name}.ts`))) {
    throw new Error(`usage: npm run bench -- <name> [args]; available: ${available().join(', ') || '(none)'}`)
  }
  const mod = (await import(pathToFileURL(join(here, `${name}.ts`)).href)) as { default?: Benchmark }
  if (typeof mod.default !== 'function') throw new Error(`bench/${name}.ts has no default export`)
  await mod.default(args)
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exit(1)
  },
)
