/**
 * The e2e tests' Burrow: a real Burrow Server on 127.0.0.1 (root's token known, one more user
 * with a password), core with real accounts kept in the encrypted-file secret store (so the
 * tests need no desktop keychain), and the web host serving the built renderer. Run with tsx
 * as a child process by the specs; prints one JSON line with the addresses, stops on SIGTERM.
 *
 *   tsx test/e2e/support/launch.ts [--demo]
 *
 * With `--demo` the server holds the demo content (seed/demo.ts), `user` is its group owner
 * `amara` with a fresh token, and core runs with the cache, sync (scheduled, as in the shells)
 * and the outbox, so the triage views have data.
 */
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
import { digestToken, generateToken } from '../../../src/server/auth/secrets'
import { insertPersonalToken } from '../../../src/server/db/tokens'
import { findUserByUsername } from '../../../src/server/db/users'
import { seedInstance } from '../../../src/server/seed/index'
import { ROOT_TOKEN, seedUser, startServer } from '../../helpers/server'

export interface Launched {
  readonly pageUrl: string
  readonly serverUrl: string
  /** With `--demo`: a TCP proxy to the server that the tests can cut (`offline` on stdin) and restore (`online`). */
  readonly proxyUrl: string | null
  readonly rootToken: string
  readonly user: { readonly username: string; readonly name: string; readonly password: string; readonly token: string }
}

const root = resolve(import.meta.dirname, '../../..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }

const demo = process.argv.includes('--demo')
const server = await startServer()
const appDir = mkdtempSync(join(tmpdir(), 'burrow-e2e-app-'))
const accounts = await openAccounts({ userDataDir: appDir, encryptedFilePassphrase: 'e2e passphrase' })
let user: Launched['user']
let dispose = async (): Promise<void> => undefined
let host: Awaited<ReturnType<typeof startWebHost>>
if (demo) {
  await seedInstance(server.app.burrow, { profile: 'demo' })
  const amara = findUserByUsername(server.app.burrow.db, 'amara')
  if (!amara) throw new Error('the demo seed has no amara')
  const token = generateToken()
  insertPersonalToken(server.app.burrow.db, { userId: amara.id, name: 'e2e', digest: digestToken(token), scopes: ['api', 'read_user'], expiresAt: null })
  user = { username: amara.username, name: amara.name, password: '', token }
  const cache = openCache({ userDataDir: appDir })
  const outbox = new Outbox({ cache, accounts })
  outbox.start()
  const core = createCore({ version: pkg.version, mode: 'browser', serverUrl: server.url, accounts, cache, outbox, syncOptions: { schedule: true } })
  host = await startWebHost({ rendererDir: join(root, 'out', 'renderer'), core })
  dispose = async () => {
    await core.dispose()
    await outbox.dispose()
    cache.close()
  }
} else {
  const seeded = seedUser(server, { username: 'ada', name: 'Ada Lovelace' })
  user = { username: seeded.user.username, name: seeded.user.name, password: seeded.password, token: seeded.token }
  host = await startWebHost({
    rendererDir: join(root, 'out', 'renderer'),
    core: createCore({ version: pkg.version, mode: 'browser', serverUrl: server.url, accounts }),
  })
}

/**
 * The instance as an account sees it through a proxy: going "offline" closes the port and cuts
 * every open connection, as a dropped network does; "online" listens on the same port again.
 */
async function startProxy(targetPort: number): Promise<{ url: string; setOnline(online: boolean): Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const track = (s: Socket): void => {
    sockets.add(s)
    s.once('close', () => sockets.delete(s))
  }
  const make = (): Server =>
    createServer((client) => {
      const upstream = connect(targetPort, '127.0.0.1')
      track(client)
      track(upstream)
      client.on('error', () => upstream.destroy())
      upstream.on('error', () => client.destroy())
      client.pipe(upstream).pipe(client)
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
  return {
    url: `http://127.0.0.1:${port}`,
    async setOnline(online) {
      if (!online) return stop()
      if (proxy !== null) return
      proxy = make()
      await listen(proxy, port)
    },
    close: stop,
  }
}

const proxy = demo ? await startProxy(Number(new URL(server.url).port)) : null
if (proxy) {
  createInterface({ input: process.stdin }).on('line', (line) => {
    const command = line.trim()
    if (command !== 'offline' && command !== 'online') return
    void proxy.setOnline(command === 'online').then(() => process.stdout.write(`ok ${command}\n`))
  })
}

const launched: Launched = { pageUrl: host.pageUrl, serverUrl: server.url, proxyUrl: proxy?.url ?? null, rootToken: ROOT_TOKEN, user }
process.stdout.write(`${JSON.stringify(launched)}\n`)

let closing = false
async function close(): Promise<void> {
  if (closing) return
  closing = true
  await host.close()
  await proxy?.close()
  await dispose()
  accounts.dispose()
  await server.close()
  rmSync(appDir, { recursive: true, force: true })
  process.exit(0)
}
process.on('SIGTERM', () => void close())
process.on('SIGINT', () => void close())
