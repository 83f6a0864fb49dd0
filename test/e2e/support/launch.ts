/**
 * The e2e tests' Burrow: a real Burrow Server on 127.0.0.1 (root's token known, one more user
 * with a password), core with real accounts kept in the encrypted-file secret store (so the
 * tests need no desktop keychain), and the web host serving the built renderer. Run with tsx
 * as a child process by the specs; prints one JSON line with the addresses, stops on SIGTERM.
 *
 *   tsx test/e2e/support/launch.ts [--demo] [--second-storage]
 *
 * With `--demo` the server is its own process (`src/server/cli.ts --seed demo`, as `npm start`
 * runs it) holding the demo content, `user` is its group owner `amara` with a fresh token, and
 * core runs with the cache, sync (scheduled, as in the shells) and the outbox, so the triage
 * views have data. Commands on stdin, each answered `ok <command>` on stdout: `offline` and
 * `online` cut and restore a TCP proxy between core and the server (a dropped network);
 * `server-stop` and `server-start` stop the server process (SIGTERM) and start it again on the
 * same port and data dir (the instance going away and coming back).
 * `drop-response METHOD PATH-PART` arms the proxy for the next request whose method is METHOD
 * and whose path contains PATH-PART: it reaches the server, which handles it and answers, but
 * the answer is not passed on: the connection is cut and the proxy goes offline, as a link that
 * fails mid-request (so the app's state can be looked at before `online`). `drop-request
 * METHOD PATH-PART` cuts the connection the same way before the request reaches the server.
 * Each prints `dropped METHOD PATH` once it has struck.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { connect, createServer, type Server, type Socket } from 'node:net'
import { createInterface } from 'node:readline'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { openAccounts } from '../../../src/main/core/accounts/index'
import { openCache } from '../../../src/main/core/cache/index'
import { createCore } from '../../../src/main/core/index'
import { Outbox } from '../../../src/main/core/outbox/index'
import { startWebHost } from '../../../src/main/web-host'
import { ROOT_TOKEN, seedUser, startServer } from '../../helpers/server'
import { fillFromTemplate, freePort } from './seed-template'

export interface Launched {
  readonly pageUrl: string
  readonly serverUrl: string
  /** With `--demo`: a TCP proxy to the server that the tests can cut (`offline` on stdin) and restore (`online`). */
  readonly proxyUrl: string | null
  readonly rootToken: string
  readonly user: { readonly username: string; readonly name: string; readonly password: string; readonly token: string }
}

const root = resolve(import.meta.dirname, '../../..')
// The built renderer; BURROW_E2E_RENDERER_DIR points at another build (a private one while others rebuild out/renderer).
const rendererDir = process.env.BURROW_E2E_RENDERER_DIR ?? join(root, 'out', 'renderer')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }

const demo = process.argv.includes('--demo')
// A second repository storage (`archive`): the demo then holds a finished storage move, and moves can be scheduled.
const secondStorage = process.argv.includes('--second-storage')
/** The demo server's seed arguments, also the key of the run's shared seed (support/seed-template.ts). */
const SERVER_SEED_ARGS: readonly string[] = [
  '--seed',
  'demo',
  ...(secondStorage ? ['--storage', 'default', '--storage', 'archive'] : []),
]
const appDir = mkdtempSync(join(tmpdir(), 'burrow-e2e-app-'))
const accounts = await openAccounts({ userDataDir: appDir, encryptedFilePassphrase: 'e2e passphrase' })
let user: Launched['user']
let serverUrl: string
let dispose = async (): Promise<void> => undefined
let closeServer = async (): Promise<void> => undefined
let serverProcess: { stop(): Promise<void>; start(): Promise<void> } | null = null
let host: Awaited<ReturnType<typeof startWebHost>>
if (demo) {
  const server = await startServerProcess()
  serverProcess = server
  serverUrl = server.url
  closeServer = async () => {
    await server.stop()
    rmSync(server.dataDir, { recursive: true, force: true })
  }
  user = await demoUserToken(server.url)
  const cache = openCache({ userDataDir: appDir })
  const outbox = new Outbox({ cache, accounts })
  outbox.start()
  const core = createCore({
    version: pkg.version,
    mode: 'browser',
    serverUrl: server.url,
    accounts,
    cache,
    outbox,
    syncOptions: { schedule: true },
    reposDir: join(appDir, 'repos'),
  })
  host = await startWebHost({ rendererDir, core })
  dispose = async () => {
    await core.dispose()
    await outbox.dispose()
    cache.close()
  }
} else {
  const server = await startServer()
  serverUrl = server.url
  closeServer = () => server.close()
  const seeded = seedUser(server, { username: 'ada', name: 'Ada Lovelace' })
  user = { username: seeded.user.username, name: seeded.user.name, password: seeded.password, token: seeded.token }
  host = await startWebHost({
    rendererDir,
    core: createCore({ version: pkg.version, mode: 'browser', serverUrl: server.url, accounts }),
  })
}

/**
 * Burrow Server as a process of its own, seeded with the demo content on its first start; it
 * can be stopped (SIGTERM, as a user quitting it) and started again on the same port and data
 * dir, where it finds its content and does not seed twice.
 */
async function startServerProcess(): Promise<{
  url: string
  dataDir: string
  stop(): Promise<void>
  start(): Promise<void>
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'burrow-e2e-server-'))
  // The run's shared demo seed, copied in (the server then does not seed again), on its port when free.
  const template = await fillFromTemplate(dataDir, SERVER_SEED_ARGS, ROOT_TOKEN)
  const port = await freePort(template?.port)
  const url = `http://127.0.0.1:${port}`
  let child: ChildProcess | null = null
  const start = async (): Promise<void> => {
    if (child !== null) return
    let output = ''
    const started = spawn(
      process.execPath,
      [
        join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
        'src/server/cli.ts',
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--data-dir',
        dataDir,
        ...SERVER_SEED_ARGS,
      ],
      {
        cwd: root,
        env: { ...process.env, BURROW_ROOT_TOKEN: ROOT_TOKEN },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    child = started
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    started.once('exit', () => {
      if (child === started) child = null
    })
    // The demo seed runs before the server listens (over a minute on a busy machine).
    const deadline = Date.now() + 240_000
    for (;;) {
      if (child !== started) throw new Error(`Burrow Server exited while starting:\n${output}`)
      try {
        if ((await fetch(`${url}/api/v4/version`)).ok) return
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`Burrow Server did not answer within 240 s:\n${output}`)
      await new Promise((r) => setTimeout(r, 200))
    }
  }
  const stop = async (): Promise<void> => {
    const running = child
    if (running === null) return
    const exited = new Promise((r) => running.once('exit', r))
    running.kill('SIGTERM')
    const timer = setTimeout(() => running.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
    child = null
  }
  await start()
  return { url, dataDir, stop, start }
}

/** The demo's group owner, with a personal access token root creates for this run. */
async function demoUserToken(url: string): Promise<Launched['user']> {
  const asRoot = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
    return (await response.json()) as T
  }
  const [amara] = await asRoot<{ id: number; username: string; name: string }[]>('GET', '/users?username=amara')
  if (amara === undefined) throw new Error('the demo seed has no amara')
  const pat = await asRoot<{ token: string }>('POST', `/users/${amara.id}/personal_access_tokens`, {
    name: 'e2e',
    scopes: ['api', 'read_user'],
  })
  return { username: amara.username, name: amara.name, password: '', token: pat.token }
}

/** A request to cut off at the proxy: before it reaches the server, or after, its answer lost. */
interface DropRule {
  readonly drop: 'request' | 'response'
  readonly method: string
  readonly pathPart: string
}

// A request line at the start of a chunk or after the previous message's end; the test proxy
// reads no further into HTTP than that.
const REQUEST_LINE = /(?:^|\r\n)([A-Z]+) (\S+) HTTP\/1\.[01]\r\n/

/**
 * The instance as an account sees it through a proxy: going "offline" closes the port and cuts
 * every open connection, as a dropped network does; "online" listens on the same port again.
 * An armed DropRule cuts one matching request (or its answer) and takes the proxy offline.
 */
async function startProxy(targetPort: number): Promise<{
  url: string
  setOnline(online: boolean): Promise<void>
  arm(rule: DropRule): void
  close(): Promise<void>
}> {
  const sockets = new Set<Socket>()
  let armed: DropRule | null = null
  const track = (s: Socket): void => {
    sockets.add(s)
    s.once('close', () => sockets.delete(s))
  }
  const struck = (line: string): void => {
    void setOnline(false).then(() => process.stdout.write(`dropped ${line}\n`))
  }
  const make = (): Server =>
    createServer((client) => {
      const upstream = connect(targetPort, '127.0.0.1')
      track(client)
      track(upstream)
      client.on('error', () => upstream.destroy())
      upstream.on('error', () => client.destroy())
      // The answer to drop on this connection: its request line, once the request has gone upstream.
      let dropAnswerOf: string | null = null
      client.on('data', (chunk: Buffer) => {
        const rule = armed
        const request = rule === null ? null : REQUEST_LINE.exec(chunk.toString('latin1'))
        if (rule !== null && request !== null && request[1] === rule.method && request[2].includes(rule.pathPart)) {
          armed = null
          const line = `${request[1]} ${request[2]}`
          if (rule.drop === 'request') {
            client.destroy()
            upstream.destroy()
            struck(line)
            return
          }
          dropAnswerOf = line
        }
        upstream.write(chunk)
      })
      upstream.on('data', (chunk: Buffer) => {
        if (dropAnswerOf === null) {
          client.write(chunk)
          return
        }
        // The server has handled the request and is answering: the answer is lost on the way.
        client.destroy()
        upstream.destroy()
        struck(dropAnswerOf)
      })
      client.on('end', () => upstream.end())
      upstream.on('end', () => client.end())
    })
  const listen = (s: Server, port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      s.once('error', reject)
      s.listen(port, '127.0.0.1', () => {
        const address = s.address()
        resolve(typeof address === 'object' && address !== null ? address.port : port)
      })
    })
  let proxy: Server | null = make()
  const port = await listen(proxy, 0)
  const stop = async (): Promise<void> => {
    const current = proxy
    proxy = null
    for (const s of sockets) s.destroy()
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()))
  }
  async function setOnline(online: boolean): Promise<void> {
    if (!online) return stop()
    if (proxy !== null) return
    proxy = make()
    await listen(proxy, port)
  }
  return {
    url: `http://127.0.0.1:${port}`,
    setOnline,
    arm(rule) {
      armed = rule
    },
    close: stop,
  }
}

const proxy = demo ? await startProxy(Number(new URL(serverUrl).port)) : null
if (proxy) {
  createInterface({ input: process.stdin }).on('line', (line) => {
    const command = line.trim()
    const done = (): void => void process.stdout.write(`ok ${command}\n`)
    if (command === 'offline' || command === 'online') void proxy.setOnline(command === 'online').then(done)
    else if (command === 'server-stop') void serverProcess?.stop().then(done)
    else if (command === 'server-start')
      void serverProcess?.start().then(done, (error: unknown) => process.stderr.write(`${String(error)}\n`))
    else {
      const [verb, method, pathPart] = command.split(/\s+/)
      if ((verb === 'drop-request' || verb === 'drop-response') && method !== undefined && pathPart !== undefined) {
        proxy.arm({ drop: verb === 'drop-request' ? 'request' : 'response', method, pathPart })
        done()
      }
    }
  })
}

const launched: Launched = {
  pageUrl: host.pageUrl,
  serverUrl,
  proxyUrl: proxy?.url ?? null,
  rootToken: ROOT_TOKEN,
  user,
}
process.stdout.write(`${JSON.stringify(launched)}\n`)

let closing = false
async function close(): Promise<void> {
  if (closing) return
  closing = true
  await host.close()
  await proxy?.close()
  await dispose()
  accounts.dispose()
  await closeServer()
  rmSync(appDir, { recursive: true, force: true })
  process.exit(0)
}
process.on('SIGTERM', () => void close())
process.on('SIGINT', () => void close())
