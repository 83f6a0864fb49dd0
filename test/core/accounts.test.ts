import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Entry } from '@napi-rs/keyring'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { AccountStore } from '../../src/main/core/accounts/account-store'
import { AccountError, Accounts, normalizeBaseUrl } from '../../src/main/core/accounts/accounts'
import {
  EncryptedFileSecretStore,
  WrongPassphraseError,
} from '../../src/main/core/accounts/encrypted-file-secret-store'
import {
  KEYCHAIN_SERVICE,
  KeyringSecretStore,
  detectKeychain,
  type SecretStore,
  type SecretStoreAvailability,
} from '../../src/main/core/accounts/secret-store'
import { createCore } from '../../src/main/core/index'
import type { Account } from '../../src/shared/ipc/contract'
import { seedUser, startServer, type ListeningServer } from '../helpers/server'

/** Stands in for a machine without a usable keychain (cannot be arranged on this one): records every call. */
class FakeUnavailableSecretStore implements SecretStore {
  readonly kind = 'keychain'
  readonly calls: string[] = []
  async availability(): Promise<SecretStoreAvailability> {
    this.calls.push('availability')
    return { available: false, reason: 'The OS keychain is not usable: no Secret Service on the session bus.' }
  }
  async get(): Promise<string | null> {
    this.calls.push('get')
    return null
  }
  async set(): Promise<void> {
    this.calls.push('set')
  }
  async delete(): Promise<boolean> {
    this.calls.push('delete')
    return false
  }
}

const dirs: string[] = []
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'burrow-accounts-'))
  dirs.push(dir)
  return dir
}

describe('Accounts with the OS keychain (Secret Service)', () => {
  let server: ListeningServer
  let accounts: Accounts
  let dir: string
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(async () => {
    await server.close()
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  })
  afterEach(async () => {
    for (const a of await accounts.list()) await accounts.remove(a.id)
    accounts.dispose()
  })
  const open = (): Accounts => {
    dir = tempDir()
    accounts = new Accounts({ store: new AccountStore(join(dir, 'accounts.json')), secrets: new KeyringSecretStore() })
    return accounts
  }

  it('finds the keychain usable in the test session', async () => {
    open()
    expect(await detectKeychain()).toEqual({ available: true })
  })

  it('adds an account with a personal access token, verified by GET /user, token in the keychain only', async () => {
    open()
    const { user, token } = seedUser(server, { name: 'Pat Token' })
    const account = await accounts.add({ baseUrl: `${server.url}/`, token })
    expect(account).toMatchObject({
      baseUrl: server.url,
      username: user.username,
      userId: user.id,
      name: 'Pat Token',
      authKind: 'pat',
    })
    expect(JSON.parse(new Entry(KEYCHAIN_SERVICE, account.id).getPassword() ?? 'null')).toEqual({ kind: 'pat', token })
    const file = readFileSync(join(dir, 'accounts.json'), 'utf8')
    expect(file).toContain(user.username)
    expect(file).not.toContain(token)
    expect(await accounts.list()).toEqual([account])
    expect(await (await accounts.clientFor(account.id)).get('/user')).toMatchObject({ id: user.id })
  })

  it('adds an account with username and password through the OAuth password grant', async () => {
    open()
    const { user, password } = seedUser(server)
    const account = await accounts.add({ baseUrl: server.url, username: user.username, password })
    expect(account).toMatchObject({ userId: user.id, authKind: 'oauth' })
    const saved = JSON.parse(new Entry(KEYCHAIN_SERVICE, account.id).getPassword() ?? 'null') as Record<string, unknown>
    expect(saved).toMatchObject({
      kind: 'oauth',
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expiresAt: expect.any(Number),
    })
    const file = readFileSync(join(dir, 'accounts.json'), 'utf8')
    for (const secret of [password, saved.accessToken, saved.refreshToken] as string[])
      expect(file).not.toContain(secret)
    expect(await accounts.verify(account.id)).toMatchObject({ state: 'valid', account: { id: account.id } })
  })

  it('refuses a wrong token with a clear error and stores nothing', async () => {
    open()
    const error = await accounts.add({ baseUrl: server.url, token: 'glpat-wrong-token-value' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AccountError)
    expect(error).toMatchObject({ code: 'invalid-credentials' })
    expect((error as Error).message).not.toContain('glpat-wrong-token-value')
    expect(await accounts.list()).toEqual([])
  })

  it('refuses a second account for the same user on the same instance', async () => {
    open()
    const { user, token, password } = seedUser(server)
    await accounts.add({ baseUrl: server.url, token })
    const error = await accounts
      .add({ baseUrl: server.url, username: user.username, password })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({
      code: 'duplicate-account',
      message: `${user.username} on ${new URL(server.url).host} is already signed in.`,
    })
    expect(await accounts.list()).toHaveLength(1)
    // The OAuth pair issued for the refused attempt was revoked, not left valid.
    const tokens = server.app.burrow.db
      .prepare('SELECT revoked_at FROM oauth_access_tokens WHERE user_id = ?')
      .all(user.id) as { revoked_at: string | null }[]
    expect(tokens.length).toBeGreaterThan(0)
    expect(tokens.every((t) => t.revoked_at !== null)).toBe(true)
  })

  it('holds several accounts at once, each with its own client', async () => {
    open()
    const a = seedUser(server)
    const b = seedUser(server)
    const first = await accounts.add({ baseUrl: server.url, token: a.token })
    const second = await accounts.add({ baseUrl: server.url, token: b.token })
    expect((await accounts.list()).map((x) => x.userId)).toEqual([a.user.id, b.user.id])
    expect(await (await accounts.clientFor(first.id)).get('/user')).toMatchObject({ id: a.user.id })
    expect(await (await accounts.clientFor(second.id)).get('/user')).toMatchObject({ id: b.user.id })
  })

  it('remove deletes the keychain secret and the metadata', async () => {
    open()
    const { token } = seedUser(server)
    const account = await accounts.add({ baseUrl: server.url, token })
    await accounts.remove(account.id)
    expect(new Entry(KEYCHAIN_SERVICE, account.id).getPassword()).toBeNull()
    expect(await accounts.list()).toEqual([])
    expect(readFileSync(join(dir, 'accounts.json'), 'utf8')).not.toContain(account.id)
  })

  it('verify reports invalid credentials once the token is revoked', async () => {
    open()
    const { user, token } = seedUser(server)
    const account = await accounts.add({ baseUrl: server.url, token })
    server.app.burrow.db.prepare('UPDATE personal_access_tokens SET revoked = 1 WHERE user_id = ?').run(user.id)
    expect(await accounts.verify(account.id)).toMatchObject({ state: 'invalid-credentials' })
  })

  it('reloads accounts from the metadata file and the keychain after a restart', async () => {
    open()
    const { user, token } = seedUser(server)
    const account = await accounts.add({ baseUrl: server.url, token })
    const again = new Accounts({
      store: new AccountStore(join(dir, 'accounts.json')),
      secrets: new KeyringSecretStore(),
    })
    expect(await again.list()).toEqual([account])
    expect(await (await again.clientFor(account.id)).get('/user')).toMatchObject({ id: user.id })
    again.dispose()
  })
})

describe('Accounts without a keychain', () => {
  let server: ListeningServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(async () => {
    await server.close()
  })

  it('fails add with a clear message and stores nothing when no keychain is available', async () => {
    const dir = tempDir()
    const secrets = new FakeUnavailableSecretStore()
    const accounts = new Accounts({ store: new AccountStore(join(dir, 'accounts.json')), secrets })
    const { token } = seedUser(server)
    const error = await accounts.add({ baseUrl: server.url, token }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'keychain-unavailable' })
    expect((error as Error).message).toContain('no Secret Service on the session bus')
    expect((error as Error).message).toContain('encrypted-file')
    expect(secrets.calls).toEqual(['availability'])
    expect(await accounts.list()).toEqual([])
    expect(() => readFileSync(join(dir, 'accounts.json'))).toThrow(/ENOENT/)
  })

  it('works with the opt-in encrypted file store, whose file holds no token in clear', async () => {
    const dir = tempDir()
    const secrets = await EncryptedFileSecretStore.open(join(dir, 'secrets.enc.json'), 'correct horse battery staple')
    const accounts = new Accounts({ store: new AccountStore(join(dir, 'accounts.json')), secrets })
    const { user, token } = seedUser(server)
    const account = await accounts.add({ baseUrl: server.url, token })
    expect(readFileSync(join(dir, 'secrets.enc.json'), 'utf8')).not.toContain(token)
    expect(await (await accounts.clientFor(account.id)).get('/user')).toMatchObject({ id: user.id })
    accounts.dispose()
  })
})

describe('EncryptedFileSecretStore', () => {
  it('round-trips secrets across a reopen with the same passphrase', async () => {
    const file = join(tempDir(), 'secrets.enc.json')
    const store = await EncryptedFileSecretStore.open(file, 'passphrase one')
    await store.set('a', 'secret-a')
    await store.set('b', 'secret-b')
    expect(await store.delete('b')).toBe(true)
    const reopened = await EncryptedFileSecretStore.open(file, 'passphrase one')
    expect(await reopened.get('a')).toBe('secret-a')
    expect(await reopened.get('b')).toBeNull()
    expect(readFileSync(file, 'utf8')).not.toContain('secret-a')
  })

  it('refuses a wrong passphrase with WrongPassphraseError', async () => {
    const file = join(tempDir(), 'secrets.enc.json')
    await (await EncryptedFileSecretStore.open(file, 'the right one')).set('a', 'secret-a')
    await expect(EncryptedFileSecretStore.open(file, 'the wrong one')).rejects.toBeInstanceOf(WrongPassphraseError)
  })
})

describe('normalizeBaseUrl', () => {
  it('gives one spelling per instance', () => {
    expect(normalizeBaseUrl('https://GitLab.Example.com:443/')).toBe('https://gitlab.example.com')
    expect(normalizeBaseUrl('https://example.com/gitlab/api/v4/')).toBe('https://example.com/gitlab')
    expect(() => normalizeBaseUrl('ftp://example.com')).toThrow(AccountError)
  })
})

describe('accounts channels through the core dispatcher', () => {
  let server: ListeningServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(async () => {
    await server.close()
  })

  it('accounts:add returns the account without any secret and announces accounts:did-change', async () => {
    const dir = tempDir()
    const accounts = new Accounts({
      store: new AccountStore(join(dir, 'accounts.json')),
      secrets: new KeyringSecretStore(),
    })
    const core = createCore({ version: '0.1.0', mode: 'browser', serverUrl: server.url, accounts })
    const changes: (readonly Account[])[] = []
    core.events.subscribe((event, payload) => {
      if (event === 'accounts:did-change') changes.push(payload)
    })
    const { user, password } = seedUser(server)
    const response = await core.dispatch('accounts:add', [{ baseUrl: server.url, username: user.username, password }])
    expect(response.ok).toBe(true)
    const account = (response as { result: Account }).result
    expect(Object.keys(account).sort()).toEqual([
      'addedAt',
      'authKind',
      'avatarUrl',
      'baseUrl',
      'id',
      'name',
      'userId',
      'username',
    ])
    const secret = JSON.parse(new Entry(KEYCHAIN_SERVICE, account.id).getPassword() ?? '{}') as {
      accessToken: string
      refreshToken: string
    }
    const wire = JSON.stringify(response)
    for (const s of [password, secret.accessToken, secret.refreshToken]) expect(wire).not.toContain(s)
    expect(changes).toEqual([[account]])

    expect(await core.dispatch('accounts:list', [])).toEqual({ ok: true, result: [account] })
    expect(await core.dispatch('accounts:verify', [account.id])).toMatchObject({ ok: true, result: { state: 'valid' } })
    expect(await core.dispatch('accounts:remove', [account.id])).toEqual({ ok: true, result: null })
    expect(changes).toHaveLength(2)
    expect(await core.dispatch('accounts:remove', [account.id])).toMatchObject({
      ok: false,
      error: { code: 'account-not-found' },
    })
    accounts.dispose()
  })

  it('answers bad arguments with invalid-arguments', async () => {
    const core = createCore({ version: '0.1.0', mode: 'browser', serverUrl: null })
    for (const args of [
      [],
      [{ baseUrl: 'not a url', token: 't' }],
      [{ baseUrl: 'https://x.test' }],
      [{ baseUrl: 'https://x.test', token: 't', password: 'p' }],
      [{ baseUrl: 'https://x.test', token: '' }],
      [{ baseUrl: 'https://x.test', token: 't', extra: 1 }],
      ['https://x.test', 't'],
    ]) {
      expect(await core.dispatch('accounts:add', args)).toMatchObject({
        ok: false,
        error: { code: 'invalid-arguments' },
      })
    }
    expect(await core.dispatch('accounts:remove', [])).toMatchObject({
      ok: false,
      error: { code: 'invalid-arguments' },
    })
    expect(await core.dispatch('accounts:verify', [42])).toMatchObject({
      ok: false,
      error: { code: 'invalid-arguments' },
    })
  })

  it('answers unavailable when the launch has no accounts service', async () => {
    const core = createCore({ version: '0.1.0', mode: 'browser', serverUrl: null })
    expect(await core.dispatch('accounts:list', [])).toMatchObject({ ok: false, error: { code: 'unavailable' } })
  })
})
