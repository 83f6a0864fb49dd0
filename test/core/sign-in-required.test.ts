import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccountStore } from '../../src/main/core/accounts/account-store'
import { Accounts } from '../../src/main/core/accounts/accounts'
import { EncryptedFileSecretStore } from '../../src/main/core/accounts/encrypted-file-secret-store'
import { SignInRequiredError } from '../../src/main/core/api/errors'
import { openCache, type Cache } from '../../src/main/core/cache/index'
import { createCore, type Core } from '../../src/main/core/index'
import { Outbox } from '../../src/main/core/outbox/outbox'
import type { Account } from '../../src/shared/ipc/contract'
import type { SyncFinished } from '../../src/shared/ipc/cache'
import type { OutboxEntry } from '../../src/shared/ipc/outbox'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedMember, seedProject } from '../helpers/fixtures'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

/*
 * Two accounts of one Burrow Server on 127.0.0.1, run as the shells run them: periodic sync and
 * to-do/alert checks (every 100 ms here) and the outbox. The server bans an address for an hour
 * after 10 refused credentials in a minute, and both accounts share the address.
 */

/** One request the desktop sent: whose token, where, and what the server answered. */
interface Sent {
  readonly token: string | null
  readonly path: string
  readonly status: number
  /** The account's gate still held a Retry-After when it went out. */
  readonly duringWait: boolean
}

interface World {
  readonly server: ListeningServer
  readonly dir: string
  readonly accounts: Accounts
  readonly cache: Cache
  readonly core: Core
  readonly sent: Sent[]
  close(): Promise<void>
}

/** Accounts whose every request is recorded (the fetch passes it on untouched), and a core scheduling them fast. */
async function makeWorld(
  server: ListeningServer,
  dir: string,
  users: readonly SeededUser[],
): Promise<World & { readonly added: Account[] }> {
  const sent: Sent[] = []
  let accounts: Accounts | null = null
  const byToken = new Map<string, string>()
  const recording = (async (input: string | URL | Request, init?: RequestInit) => {
    const token = new Headers(init?.headers).get('private-token')
    const id = token === null ? undefined : byToken.get(token)
    const duringWait = id !== undefined && accounts !== null && accounts.accessFor(id).waitLeftMs() > 0
    const response = await fetch(input, init)
    sent.push({ token, path: new URL(String(input)).pathname, status: response.status, duringWait })
    return response
  }) as typeof fetch
  accounts = new Accounts({
    store: new AccountStore(join(dir, 'accounts.json')),
    secrets: await EncryptedFileSecretStore.open(join(dir, 'secrets.enc.json'), 'sign-in test'),
    fetch: recording,
    probeIntervalMs: 60_000,
  })
  const added: Account[] = []
  for (const u of users) {
    const account = await accounts.add({ baseUrl: server.url, token: u.token })
    byToken.set(u.token, account.id)
    added.push(account)
  }
  const cache = openCache({ userDataDir: dir })
  const core = createCore({
    version: '0.1.0',
    mode: 'browser',
    serverUrl: server.url,
    accounts,
    cache,
    syncOptions: { schedule: true, intervalMs: 100 },
    notifyOptions: { schedule: true, intervalMs: 100 },
  })
  const owned = accounts
  return {
    server,
    dir,
    accounts: owned,
    cache,
    core,
    sent,
    added,
    async close() {
      await core.dispose()
      owned.dispose()
      cache.close()
    },
  }
}

/** Resolves after `count` more sync runs of the account have finished (whatever their outcome). */
function syncRuns(core: Core, accountId: string, count: number): Promise<SyncFinished> {
  let left = count
  return new Promise((resolve) => {
    const off = core.events.subscribe((event, payload) => {
      if (event !== 'sync:did-finish' || payload.accountId !== accountId) return
      left -= 1
      if (left > 0) return
      off()
      resolve(payload)
    })
  })
}

/** Resolves once `ready()` holds, checked now and on every change of the account's gate. */
function gateUntil(accounts: Accounts, accountId: string, ready: () => boolean): Promise<void> {
  const gate = accounts.accessFor(accountId)
  if (ready()) return Promise.resolve()
  return new Promise((resolve) => {
    const off = gate.onDidChange(() => {
      if (!ready()) return
      off()
      resolve()
    })
  })
}

describe('an account whose token the server refuses goes quiet', () => {
  let server: ListeningServer
  let dir: string
  let world: World & { readonly added: Account[] }
  let outbox: Outbox
  let alice: SeededUser
  let bob: SeededUser
  let project: { id: number }

  beforeAll(async () => {
    // The failed-sign-in ban as shipped: 10 refused credentials in 60 s ban 127.0.0.1 for an hour.
    server = await startServer()
    alice = seedUser(server, { name: 'Alice Revoked' })
    bob = seedUser(server, { name: 'Bob Working' })
    project = seedProject(server, { ownerId: alice.user.id })
    seedMember(server, 'Project', project.id, alice.user.id, AccessLevel.MAINTAINER)
    dir = mkdtempSync(join(tmpdir(), 'burrow-sign-in-'))
    world = await makeWorld(server, dir, [alice, bob])
    outbox = new Outbox({ cache: world.cache, accounts: world.accounts, retryDelayMs: () => 50 })
    outbox.start()
  })
  afterAll(async () => {
    await outbox.dispose()
    await world.close()
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('holds it after a handful of refused requests, keeps its writes queued, and the other account keeps working', async () => {
    const [aliceAccount, bobAccount] = world.added
    const { accounts, core, sent } = world
    // Both accounts have synced once with working tokens.
    await Promise.all([syncRuns(core, aliceAccount.id, 1), syncRuns(core, bobAccount.id, 1)])
    const issue = await server.request(alice.token, {
      method: 'POST',
      url: `/api/v4/projects/${project.id}/issues`,
      payload: { title: 'Written while signed out' },
    })
    world.cache.upsert(aliceAccount.id, 'issue', [issue.json()])

    server.app.burrow.db.prepare('UPDATE personal_access_tokens SET revoked = 1 WHERE user_id = ?').run(alice.user.id)
    await gateUntil(accounts, aliceAccount.id, () => accounts.accessFor(aliceAccount.id).signInRequired !== null)
    const entry = await outbox.enqueue(
      aliceAccount.id,
      { type: 'issue', projectId: project.id, iid: issue.json<{ iid: number }>().iid },
      { kind: 'comment', body: 'sent once signed in again' },
    )
    // Bob syncs ten more times meanwhile: Alice's schedules came due as often.
    await syncRuns(core, bobAccount.id, 10)
    await outbox.idle()

    const refused = sent.filter((s) => s.token === alice.token && s.status === 401)
    expect(refused.length).toBeGreaterThan(0)
    expect(refused.length).toBeLessThanOrEqual(5)
    expect(sent.filter((s) => s.status === 429)).toEqual([])
    expect(outbox.get(entry.id).state).toBe('queued')
    const saved = (await accounts.list()).find((a) => a.id === aliceAccount.id)
    expect(saved?.signInRequired?.reason).toMatch(/refused the saved sign-in \(401\)/)
    // No ban: Bob's token still answers, from the same address.
    expect(await accounts.verify(bobAccount.id)).toMatchObject({ state: 'valid' })
    const direct = await fetch(`${server.url}/api/v4/user`, { headers: { 'private-token': bob.token } })
    expect(direct.status).toBe(200)

    // A new launch on the same files starts held: it sends nothing with the refused token.
    const alicesRequests = (): number => sent.filter((s) => s.token === alice.token).length
    const before = alicesRequests()
    const relaunched = new Accounts({
      store: new AccountStore(join(dir, 'accounts.json')),
      secrets: await EncryptedFileSecretStore.open(join(dir, 'secrets.enc.json'), 'sign-in test'),
      fetch: () => Promise.reject(new Error('nothing may be sent')),
    })
    await expect((await relaunched.clientFor(aliceAccount.id)).get('/projects')).rejects.toBeInstanceOf(
      SignInRequiredError,
    )
    relaunched.dispose()
    expect(alicesRequests()).toBe(before)
  })

  it('lets it go once the sign-in checks out: the queued write goes and sync runs again', async () => {
    const [aliceAccount] = world.added
    const { accounts, core } = world
    server.app.burrow.db.prepare('UPDATE personal_access_tokens SET revoked = 0 WHERE user_id = ?').run(alice.user.id)
    const nextRun = syncRuns(core, aliceAccount.id, 1)
    const [entry] = outbox.list().filter((e) => e.accountId === aliceAccount.id)
    const written = new Promise<OutboxEntry>((resolve) => {
      const off = outbox.onDidChange((e) => {
        if (e.id !== entry.id || e.state !== 'done') return
        off()
        resolve(e)
      })
    })

    expect(await accounts.verify(aliceAccount.id)).toMatchObject({ state: 'valid' })
    expect(accounts.accessFor(aliceAccount.id).open).toBe(true)
    expect((await written).state).toBe('done')
    expect((await nextRun).outcome).toBe('completed')
    expect((await accounts.list()).find((a) => a.id === aliceAccount.id)?.signInRequired).toBeUndefined()
  })
})

describe('a 429 with Retry-After pauses the whole account', () => {
  let server: ListeningServer
  let dir: string
  let world: World & { readonly added: Account[] }
  let carol: SeededUser

  beforeAll(async () => {
    // Six requests a user every 2 s: a sync at 100 ms intervals runs past it at once.
    server = await startServer({
      settings: { throttle_authenticated_api_requests_per_period: 6, throttle_authenticated_api_period_in_seconds: 2 },
    })
    carol = seedUser(server, { name: 'Carol Throttled' })
    dir = mkdtempSync(join(tmpdir(), 'burrow-retry-after-'))
    world = await makeWorld(server, dir, [carol])
  })
  afterAll(async () => {
    await world.close()
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('sends nothing of that account until the Retry-After is over, then carries on', async () => {
    const [account] = world.added
    const { accounts, sent } = world
    const gate = accounts.accessFor(account.id)
    await gateUntil(accounts, account.id, () => gate.waitLeftMs() > 0)
    // The wait ends (the gate opens again) and the account is answered again after it.
    await gateUntil(accounts, account.id, () => gate.open)
    const firstThrottled = sent.findIndex((s) => s.status === 429)
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (sent.slice(firstThrottled).some((s) => s.status === 200)) return resolve()
        setTimeout(check, 20)
      }
      check()
    })

    expect(firstThrottled).toBeGreaterThanOrEqual(0)
    // Requests already out when the 429 came may be answered 429 too; none left during a wait.
    expect(sent.filter((s) => s.duringWait)).toEqual([])
  })
})
