/**
 * The e2e tests' Burrow: a real Burrow Server on 127.0.0.1 (root's token known, one more user
 * with a password), core with real accounts kept in the encrypted-file secret store (so the
 * tests need no desktop keychain), and the web host serving the built renderer. Run with tsx
 * as a child process by the specs; prints one JSON line with the addresses, stops on SIGTERM.
 *
 *   tsx test/e2e/support/launch.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { openAccounts } from '../../../src/main/core/accounts/index'
import { createCore } from '../../../src/main/core/index'
import { startWebHost } from '../../../src/main/web-host'
import { ROOT_TOKEN, seedUser, startServer } from '../../helpers/server'

export interface Launched {
  readonly pageUrl: string
  readonly serverUrl: string
  readonly rootToken: string
  readonly user: { readonly username: string; readonly name: string; readonly password: string; readonly token: string }
}

const root = resolve(import.meta.dirname, '../../..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }

const server = await startServer()
const seeded = seedUser(server, { username: 'ada', name: 'Ada Lovelace' })
const appDir = mkdtempSync(join(tmpdir(), 'burrow-e2e-app-'))
const accounts = await openAccounts({ userDataDir: appDir, encryptedFilePassphrase: 'e2e passphrase' })
const host = await startWebHost({
  rendererDir: join(root, 'out', 'renderer'),
  core: createCore({ version: pkg.version, mode: 'browser', serverUrl: server.url, accounts }),
})

const launched: Launched = {
  pageUrl: host.pageUrl,
  serverUrl: server.url,
  rootToken: ROOT_TOKEN,
  user: { username: seeded.user.username, name: seeded.user.name, password: seeded.password, token: seeded.token },
}
process.stdout.write(`${JSON.stringify(launched)}\n`)

let closing = false
async function close(): Promise<void> {
  if (closing) return
  closing = true
  accounts.dispose()
  await host.close()
  await server.close()
  rmSync(appDir, { recursive: true, force: true })
  process.exit(0)
}
process.on('SIGTERM', () => void close())
process.on('SIGINT', () => void close())
