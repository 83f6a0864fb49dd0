import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  openAccounts,
  type Accounts,
  type SecretStore,
  type SecretStoreAvailability,
} from '../../src/main/core/accounts/index'
import { openCache, type Cache } from '../../src/main/core/cache/index'
import { createCore, type Core } from '../../src/main/core/index'
import { Outbox } from '../../src/main/core/outbox/index'
import type { CachedDetail } from '../../src/shared/ipc/cache'
import type { Account } from '../../src/shared/ipc/contract'
import type { OutboxEntry } from '../../src/shared/ipc/outbox'
import { seedProject } from '../helpers/fixtures'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

/*
 * A write made while the encrypted sign-in file is locked (a launch on a machine without a
 * keychain, before the passphrase is given), against a real server: core reads the sign-in only
 * when a request is about to leave, so the write must wait queued — never become failed or of
 * unknown outcome — and go out once the file is unlocked. The keychain is a stand-in for a
 * machine that has none.
 */

/** Stand-in for a machine with no usable keychain. */
class FakeUnavailableKeychain implements SecretStore {
  readonly kind = 'keychain'
  async availability(): Promise<SecretStoreAvailability> {
    return { available: false, reason: 'The OS keychain is not usable: no Secret Service on the session bus.' }
  }
  async get(): Promise<string | null> {
    throw new Error('no keychain')
  }
  async set(): Promise<void> {
    throw new Error('no keychain')
  }
  async delete(): Promise<boolean> {
    throw new Error('no keychain')
  }
}

const PASSPHRASE = 'locked outbox test passphrase'
let server: ListeningServer
let user: SeededUser
let projectId: number
let dir: string

beforeAll(async () => {
  server = await startServer()
  user = seedUser(server, { name: 'Lena Locked' })
  projectId = seedProject(server, { ownerId: user.user.id }).id
  dir = mkdtempSync(join(tmpdir(), 'burrow-outbox-locked-'))
})
afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

interface Launched {
  readonly core: Core
  close(): Promise<void>
}

/** One launch of core on `dir`: accounts (stand-in keychain), cache, outbox retrying after 20 ms. */
async function launch(): Promise<Launched> {
  const accounts: Accounts = await openAccounts({ userDataDir: dir, keychain: new FakeUnavailableKeychain() })
  const cache: Cache = openCache({ userDataDir: dir })
  const outbox = new Outbox({ cache, accounts, retryDelayMs: () => 20 })
  outbox.start()
  const core = createCore({ version: '0.1.0', mode: 'browser', serverUrl: server.url, accounts, cache, outbox })
  return {
    core,
    async close() {
      await core.dispose()
      await outbox.dispose()
      accounts.dispose()
      cache.close()
    },
  }
}

async function ok<T>(core: Core, channel: string, ...args: unknown[]): Promise<T> {
  const response = await core.dispatch(channel, args)
  if (!response.ok) throw new Error(`${channel}: ${response.error.code} ${response.error.message}`)
  return response.result as T
}

async function entryWhen(core: Core, id: number, done: (entry: OutboxEntry) => boolean): Promise<OutboxEntry> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const entry = (await ok<OutboxEntry[]>(core, 'outbox:list', { includeSettled: true })).find((e) => e.id === id)
    if (entry !== undefined && done(entry)) return entry
    if (Date.now() > deadline) throw new Error(`entry ${id} is ${JSON.stringify(entry)}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

async function notesOnServer(iid: number): Promise<string[]> {
  const response = await server.request(user.token, {
    method: 'GET',
    url: `/api/v4/projects/${projectId}/issues/${iid}/notes`,
  })
  return (JSON.parse(response.body) as { body: string; system: boolean }[]).filter((n) => !n.system).map((n) => n.body)
}

describe('a write queued while the encrypted sign-in file is locked', () => {
  it('waits queued through its attempts, keeps its comment on the item, and is sent once after the passphrase is given', async () => {
    const created = await server.request(user.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/issues`,
      payload: { title: 'Written while locked' },
    })
    const iid = (JSON.parse(created.body) as { iid: number }).iid

    // First launch: the user opts into the encrypted file, signs in, and the issue is cached.
    const first = await launch()
    await ok(first.core, 'accounts:use-encrypted-file', PASSPHRASE)
    const account = await ok<Account>(first.core, 'accounts:add', { baseUrl: server.url, token: user.token })
    await ok(first.core, 'issues:get', account.id, { project_id: projectId, iid }, { refresh: true })
    await first.close()

    // Next launch starts locked: the comment is stored and tried, but cannot leave.
    const second = await launch()
    try {
      const entry = await ok<OutboxEntry>(second.core, 'issues:comment', account.id, {
        projectId,
        iid,
        body: 'Noted while the file was locked',
      })
      const waiting = await entryWhen(
        second.core,
        entry.id,
        (e) => e.attempts >= 3 || !['queued', 'sending'].includes(e.state),
      )
      expect(waiting.state).toBe('queued')
      expect(waiting.reason).toMatch(/passphrase.*The write stays queued\./)
      const detail = await ok<CachedDetail<'issue'>>(second.core, 'issues:get', account.id, {
        project_id: projectId,
        iid,
      })
      expect(detail.discussions.flatMap((d) => d.notes.filter((n) => n.pending).map((n) => n.data.body))).toEqual([
        'Noted while the file was locked',
      ])
      expect(await notesOnServer(iid)).toEqual([])

      await ok(second.core, 'accounts:use-encrypted-file', PASSPHRASE)
      await ok(second.core, 'outbox:retry', entry.id)
      expect((await entryWhen(second.core, entry.id, (e) => e.state === 'done')).state).toBe('done')
      expect(await notesOnServer(iid)).toEqual(['Noted while the file was locked'])
    } finally {
      await second.close()
    }
  })
})
