import { spawn, type ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'
import type { KeychainlessLaunched } from './launch-keychainless'

const root = resolve(import.meta.dirname, '../../..')

export interface KeychainlessBurrow extends KeychainlessLaunched {
  /** Quits and starts core and the web host again on the same app data dir; the new page URL. */
  relaunch(): Promise<string>
  /** The comments as the server has them (not system notes). */
  comments(): Promise<string[]>
  stop(): Promise<void>
}

/** Starts support/launch-keychainless.ts (a machine without an OS keychain) and waits for its addresses. */
export async function launchKeychainless(): Promise<KeychainlessBurrow> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(root, 'test/e2e/support/launch-keychainless.ts')],
    {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  )
  let errors = ''
  let stdout = ''
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()))
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  const launched = await new Promise<KeychainlessLaunched>((resolveLaunch, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`launch-keychainless.ts printed nothing within 120 s:\n${errors}`)),
      120_000,
    )
    child.once('exit', (code) => reject(new Error(`launch-keychainless.ts exited with ${code}:\n${errors}`)))
    const poll = setInterval(() => {
      const line = stdout.split('\n').find((l) => l.startsWith('{'))
      if (line === undefined) return
      clearInterval(poll)
      clearTimeout(timer)
      resolveLaunch(JSON.parse(line) as KeychainlessLaunched)
    }, 50)
  })
  /** Sends a command and waits for the JSON after its `ok`. */
  async function command<T>(name: string, timeoutMs: number): Promise<T> {
    const marker = `ok ${name} `
    const before = stdout.split(marker).length
    child.stdin?.write(`${name}\n`)
    const deadline = Date.now() + timeoutMs
    while (stdout.split(marker).length === before) {
      if (Date.now() > deadline)
        throw new Error(`launch-keychainless.ts did not answer ${name}:\n${errors.slice(-2000)}`)
      await new Promise((r) => setTimeout(r, 50))
    }
    const answer = stdout.split(marker).at(-1)?.split('\n')[0] ?? 'null'
    return JSON.parse(answer) as T
  }
  return {
    ...launched,
    relaunch: async () => (await command<{ pageUrl: string }>('relaunch', 30_000)).pageUrl,
    comments: () => command<string[]>('comments', 10_000),
    async stop() {
      if (child.exitCode !== null) return
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await exited
    },
  }
}
