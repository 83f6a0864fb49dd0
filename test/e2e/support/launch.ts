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

const launched: Launched = { pageUrl: host.pageUrl, serverUrl: server.url, rootToken: ROOT_TOKEN, user }
process.stdout.write(`${JSON.stringify(launched)}\n`)

let closing = false
async function close(): Promise<void> {
  if (closing) return
  closing = true
  await host.close()
  await dispose()
  accounts.dispose()
  await server.close()
  rmSync(appDir, { recursive: true, force: true })
  process.exit(0)
}
process.on('SIGTERM', () => void close())
process.on('SIGINT', () => void close())
