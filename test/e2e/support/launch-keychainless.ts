/**
 * The e2e tests' Burrow on a machine with no OS keychain, launched twice on one app data dir:
 * a real Burrow Server on 127.0.0.1 (`ada` with a token and a project `field-notes` holding one
 * issue), core with real accounts whose keychain is a stand-in that is never available (what
 * `detectKeychain()` reports without a Secret Service; core's `openAccounts` takes it as its
 * `keychain` option), the cache, scheduled sync and the outbox, and the web host serving the
 * built renderer. No encrypted-file passphrase is given: whether sign-ins end up in the file is
 * the user's choice, made in the app.
 *
 *   tsx test/e2e/support/launch-keychainless.ts
 *
 * Prints one JSON line with the addresses. On stdin, `relaunch` closes core, the accounts and
 * the web host and opens them again on the same app data dir and page port (Burrow quit and
 * started again; the server keeps running), answered `ok relaunch {"pageUrl":…}`; `comments`
 * answers `ok comments […]` with the bodies of the issue's notes as the server has them.
 * Stops on SIGTERM.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import {
  openAccounts,
  type Accounts,
  type SecretStore,
  type SecretStoreAvailability,
} from '../../../src/main/core/accounts/index'
import { openCache, type Cache } from '../../../src/main/core/cache/index'
import { createCore, type Core } from '../../../src/main/core/index'
import { Outbox } from '../../../src/main/core/outbox/index'
import { startWebHost, type WebHost } from '../../../src/main/web-host'
import { seedUser, startServer } from '../../helpers/server'

export interface KeychainlessLaunched {
  readonly pageUrl: string
  readonly serverUrl: string
  readonly user: { readonly username: string; readonly name: string; readonly token: string }
  /** The project the user owns and its one issue, for the offline-write part of the test. */
  readonly project: {
    readonly id: number
    readonly path: string
    readonly issueIid: number
    readonly issueTitle: string
  }
}

/** Stand-in for the OS keychain of a machine that has none (no Secret Service on the session bus). */
class StandInMissingKeychain implements SecretStore {
  readonly kind = 'keychain'
  async availability(): Promise<SecretStoreAvailability> {
    return {
      available: false,
      reason: 'The OS keychain is not usable: no Secret Service answers on the session bus (org.freedesktop.secrets).',
    }
  }
  async get(): Promise<string | null> {
    throw new Error('no keychain on this machine')
  }
  async set(): Promise<void> {
    throw new Error('no keychain on this machine')
  }
  async delete(): Promise<boolean> {
    throw new Error('no keychain on this machine')
  }
}

const root = resolve(import.meta.dirname, '../../..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
const appDir = mkdtempSync(join(tmpdir(), 'burrow-e2e-keychainless-'))
// The built renderer; BURROW_E2E_RENDERER_DIR points at another build (a private one while others run the suite).
const rendererDir = process.env.BURROW_E2E_RENDERER_DIR ?? join(root, 'out', 'renderer')

const server = await startServer()
const seeded = seedUser(server, { username: 'ada', name: 'Ada Lovelace' })

async function asAda<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}/api/v4${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': seeded.token, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}
const project = await asAda<{ id: number; path_with_namespace: string }>('POST', '/projects', {
  name: 'field-notes',
  visibility: 'private',
})
const issue = await asAda<{ iid: number; title: string }>('POST', `/projects/${project.id}/issues`, {
  title: 'Calibrate the anemometer before the spring survey',
})

interface Running {
  readonly accounts: Accounts
  readonly cache: Cache
  readonly outbox: Outbox
  readonly core: Core
  readonly host: WebHost
}

async function open(port?: number): Promise<Running> {
  const accounts = await openAccounts({ userDataDir: appDir, keychain: new StandInMissingKeychain() })
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
  })
  const host = await startWebHost({ rendererDir, core, port })
  return { accounts, cache, outbox, core, host }
}

async function shut(running: Running): Promise<void> {
  await running.host.close()
  await running.core.dispose()
  await running.outbox.dispose()
  running.accounts.dispose()
  running.cache.close()
}

let running = await open()
const port = Number(new URL(running.host.url).port)

const launched: KeychainlessLaunched = {
  pageUrl: running.host.pageUrl,
  serverUrl: server.url,
  user: { username: seeded.user.username, name: seeded.user.name, token: seeded.token },
  project: { id: project.id, path: project.path_with_namespace, issueIid: issue.iid, issueTitle: issue.title },
}
process.stdout.write(`${JSON.stringify(launched)}\n`)

createInterface({ input: process.stdin }).on('line', (line) => {
  const command = line.trim()
  if (command === 'relaunch') {
    void (async () => {
      await shut(running)
      running = await open(port)
      process.stdout.write(`ok relaunch ${JSON.stringify({ pageUrl: running.host.pageUrl })}\n`)
    })().catch((error: unknown) => process.stderr.write(`relaunch failed: ${String(error)}\n`))
  } else if (command === 'comments') {
    void asAda<{ body: string; system: boolean }[]>(
      'GET',
      `/projects/${project.id}/issues/${issue.iid}/notes?sort=asc`,
    ).then(
      (notes) =>
        process.stdout.write(`ok comments ${JSON.stringify(notes.filter((n) => !n.system).map((n) => n.body))}\n`),
      (error: unknown) => process.stderr.write(`comments failed: ${String(error)}\n`),
    )
  }
})

let closing = false
async function close(): Promise<void> {
  if (closing) return
  closing = true
  await shut(running)
  await server.close()
  rmSync(appDir, { recursive: true, force: true })
  process.exit(0)
}
process.on('SIGTERM', () => void close())
process.on('SIGINT', () => void close())
