import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

/*
 * `npm start -- --data-dir DIR` for real (browser mode, no seed): where the app keeps its own
 * data (accounts, cache) and the launcher its state, for the default-style `…/server` dir and
 * for any other name, so two data dirs in one folder never share accounts and a cache.
 */

const root = resolve(import.meta.dirname, '../..')
const folder = mkdtempSync(join(tmpdir(), 'burrow-start-dirs-'))
const running: ChildProcess[] = []

afterAll(async () => {
  await Promise.all(running.map(stop))
  rmSync(folder, { recursive: true, force: true })
})

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  child.kill('SIGINT')
  return exited
}

/** Runs start.mjs on `dataDir` until the app is up, then stops it; resolves with what it printed. */
async function startOnce(dataDir: string): Promise<string> {
  const child = spawn(
    process.execPath,
    ['scripts/start.mjs', '--browser', '--no-open', '--no-seed', '--data-dir', dataDir],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  running.push(child)
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  await new Promise<void>((resolveUp, reject) => {
    const check = setInterval(() => {
      if (output.includes('running in browser mode at')) {
        clearInterval(check)
        resolveUp()
      }
    }, 100)
    child.once('exit', (code) => {
      clearInterval(check)
      reject(new Error(`start.mjs exited with ${code}:\n${output}`))
    })
  })
  await stop(child)
  return output
}

describe('npm start --data-dir', () => {
  it('keeps the app’s data in DIR-app for a data dir of any other name, one per data dir', async () => {
    const a = join(folder, 'alpha')
    const b = join(folder, 'beta')
    expect(await startOnce(a)).toContain('signed in to the local Burrow Server as root')
    await startOnce(b)
    for (const dir of [a, b]) {
      expect(existsSync(join(dir, 'burrow.sqlite3')), `${dir} holds the server's database`).toBe(true)
      expect(existsSync(join(`${dir}-app`, 'accounts.json')), `${dir}-app holds the app's accounts`).toBe(true)
      expect(JSON.parse(readFileSync(join(`${dir}-app`, 'launcher.json'), 'utf8'))).toEqual({
        serverPort: expect.any(Number),
      })
    }
    // Nothing shared beside them.
    expect(existsSync(join(folder, 'app'))).toBe(false)
    expect(existsSync(join(folder, 'launcher.json'))).toBe(false)
  }, 120_000)

  it('keeps the usual layout for a data dir named server: app/ and launcher.json beside it', async () => {
    const home = join(folder, 'burrow')
    await startOnce(join(home, 'server'))
    expect(existsSync(join(home, 'app', 'accounts.json'))).toBe(true)
    expect(existsSync(join(home, 'launcher.json'))).toBe(true)
  }, 120_000)
})
