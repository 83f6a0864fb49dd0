import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  openAccounts,
  type Accounts,
  type SecretStore,
  type SecretStoreAvailability,
} from '../../src/main/core/accounts/index'
import { createCore, type Core } from '../../src/main/core/index'
import type { Account, IpcResponse } from '../../src/shared/ipc/contract'
import type { SecretStorageStatus } from '../../src/shared/ipc/secrets'
import { seedUser, startServer, type ListeningServer } from '../helpers/server'

/*
 * Where sign-ins are saved, through the IPC contract against a real server: a machine without a
 * keychain refuses to save until the user opts into the encrypted file; that choice holds on
 * later launches, locked until its passphrase is given. The keychains here are stand-ins (the
 * real one is tested in accounts.test.ts under a D-Bus session): one a machine without any, one
 * in memory.
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

/** Stand-in for a working keychain, in memory. */
class FakeMemoryKeychain implements SecretStore {
  readonly kind = 'keychain'
  readonly entries = new Map<string, string>()
  async availability(): Promise<SecretStoreAvailability> {
    return { available: true }
  }
  async get(id: string): Promise<string | null> {
    return this.entries.get(id) ?? null
  }
  async set(id: string, secret: string): Promise<void> {
    this.entries.set(id, secret)
  }
  async delete(id: string): Promise<boolean> {
    return this.entries.delete(id)
  }
}

const PASSPHRASE = 'correct horse battery staple'
let server: ListeningServer
const dirs: string[] = []
const open: { accounts: Accounts; core: Core }[] = []

beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server.close()
})
afterEach(async () => {
  for (const launch of open.splice(0)) {
    await launch.core.dispose()
    launch.accounts.dispose()
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'burrow-secret-storage-'))
  dirs.push(dir)
  return dir
}

async function launch(dir: string, keychain: SecretStore): Promise<Core> {
  const accounts = await openAccounts({ userDataDir: dir, keychain })
  const core = createCore({ version: '0.1.0', mode: 'browser', serverUrl: server.url, accounts })
  open.push({ accounts, core })
  return core
}

async function call<T>(core: Core, channel: string, ...args: unknown[]): Promise<IpcResponse<T>> {
  return (await core.dispatch(channel, args)) as IpcResponse<T>
}

async function ok<T>(core: Core, channel: string, ...args: unknown[]): Promise<T> {
  const response = await call<T>(core, channel, ...args)
  if (!response.ok) throw new Error(`${channel}: ${response.error.code} ${response.error.message}`)
  return response.result
}

describe('a machine without a keychain', () => {
  it('says so and saves nothing until the user opts into the encrypted file', async () => {
    const dir = tempDir()
    const core = await launch(dir, new FakeUnavailableKeychain())
    expect(await ok<SecretStorageStatus>(core, 'accounts:secret-storage')).toEqual({
      kind: 'keychain',
      available: false,
      reason: 'The OS keychain is not usable: no Secret Service on the session bus.',
      encryptedFile: { exists: false, unlocked: false },
    })
    const { token } = seedUser(server)
    expect(await call(core, 'accounts:add', { baseUrl: server.url, token })).toMatchObject({
      ok: false,
      error: { code: 'keychain-unavailable' },
    })
    expect(await ok(core, 'accounts:list')).toEqual([])
    expect(() => readFileSync(join(dir, 'secrets.enc.json'))).toThrow(/ENOENT/)
  })

  it('after opting in, saves sign-ins in the encrypted file, never in clear', async () => {
    const dir = tempDir()
    const core = await launch(dir, new FakeUnavailableKeychain())
    expect(await ok<SecretStorageStatus>(core, 'accounts:use-encrypted-file', PASSPHRASE)).toEqual({
      kind: 'encrypted-file',
      available: true,
      reason: null,
      encryptedFile: { exists: true, unlocked: true },
    })
    const { user, token } = seedUser(server)
    const account = await ok<Account>(core, 'accounts:add', { baseUrl: server.url, token })
    expect(account.userId).toBe(user.id)
    expect(readFileSync(join(dir, 'secrets.enc.json'), 'utf8')).not.toContain(token)
    expect(await ok(core, 'accounts:verify', account.id)).toMatchObject({ state: 'valid' })
  })

  it('keeps the choice on the next launch, locked until the passphrase is given again', async () => {
    const dir = tempDir()
    const first = await launch(dir, new FakeUnavailableKeychain())
    await ok(first, 'accounts:use-encrypted-file', PASSPHRASE)
    const account = await ok<Account>(first, 'accounts:add', { baseUrl: server.url, token: seedUser(server).token })

    const core = await launch(dir, new FakeUnavailableKeychain())
    const locked = await ok<SecretStorageStatus>(core, 'accounts:secret-storage')
    expect(locked).toMatchObject({
      kind: 'encrypted-file',
      available: false,
      encryptedFile: { exists: true, unlocked: false },
    })
    expect(locked.reason).toMatch(/passphrase/)
    expect(await call(core, 'accounts:verify', account.id)).toMatchObject({
      ok: false,
      error: { code: 'secrets-locked' },
    })
    expect(await call(core, 'accounts:add', { baseUrl: server.url, token: seedUser(server).token })).toMatchObject({
      ok: false,
      error: { code: 'keychain-unavailable' },
    })

    expect(await call(core, 'accounts:use-encrypted-file', 'not the passphrase')).toMatchObject({
      ok: false,
      error: { code: 'wrong-passphrase' },
    })
    expect(await ok<SecretStorageStatus>(core, 'accounts:use-encrypted-file', PASSPHRASE)).toMatchObject({
      available: true,
      encryptedFile: { unlocked: true },
    })
    expect(await ok(core, 'accounts:verify', account.id)).toMatchObject({ state: 'valid' })
  })

  it('refuses a passphrase shorter than 8 characters at the boundary', async () => {
    const core = await launch(tempDir(), new FakeUnavailableKeychain())
    expect(await call(core, 'accounts:use-encrypted-file', 'short')).toMatchObject({
      ok: false,
      error: { code: 'invalid-arguments' },
    })
    expect(await call(core, 'accounts:secret-storage', 'extra')).toMatchObject({
      ok: false,
      error: { code: 'invalid-arguments' },
    })
  })
})

describe('opting into the encrypted file with a working keychain', () => {
  it('moves the sign-ins the keychain held into the file, and the accounts keep working', async () => {
    const dir = tempDir()
    const keychain = new FakeMemoryKeychain()
    const core = await launch(dir, keychain)
    expect(await ok<SecretStorageStatus>(core, 'accounts:secret-storage')).toMatchObject({
      kind: 'keychain',
      available: true,
    })
    const account = await ok<Account>(core, 'accounts:add', { baseUrl: server.url, token: seedUser(server).token })
    expect(keychain.entries.has(account.id)).toBe(true)
    await ok(core, 'accounts:use-encrypted-file', PASSPHRASE)
    expect(keychain.entries.size).toBe(0)
    expect(await ok(core, 'accounts:verify', account.id)).toMatchObject({ state: 'valid' })
  })
})
