import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { AccountStore } from '../../src/main/core/accounts/account-store'
import { Accounts } from '../../src/main/core/accounts/accounts'
import { EncryptedFileSecretStore } from '../../src/main/core/accounts/encrypted-file-secret-store'
import { openCache, type Cache } from '../../src/main/core/cache/index'
import { createDispatcher, type IpcHandlers } from '../../src/main/core/dispatch'
import { createCore, type Core } from '../../src/main/core/index'
import { Outbox } from '../../src/main/core/outbox/index'
import { REQUEST_CHANNELS, type Account, type IpcResponse } from '../../src/shared/ipc/contract'
import type { OutboxEntry } from '../../src/shared/ipc/outbox'
import { seedUser, type SeededUser } from '../helpers/server'
import { startRestartableServer, type RestartableServer } from '../helpers/sync'

/*
 * The security bar of the desktop core: every request channel's arguments are checked in main
 * before any handler runs, and no secret (personal access token, password, OAuth access or
 * refresh token) reaches the cache database, the app's files, its logs, an IPC result or an
 * event, after a sync, cached reads, a queued write and its replay, against a real server.
 */

describe('argument validation of every request channel', () => {
  const called: string[] = []
  // Handlers that only record that they ran: validation must stop every malformed call first.
  const handlers = new Proxy({} as IpcHandlers, {
    get: (_target, channel) => async () => {
      called.push(String(channel))
      return null
    },
  })
  const dispatch = createDispatcher(handlers)
  const pollution = JSON.parse('{"__proto__": {"polluted": true}}') as unknown
  const malformed: readonly (readonly [string, unknown])[] = [
    ['arguments that are not a list', { 0: 'acct' }],
    ['a string instead of the list', 'acct'],
    ['seven arguments', [1, 2, 3, 4, 5, 6, 7]],
    ['null first', [null]],
    ['a list first', [['acct']]],
    ['a 100,000-character string first', ['x'.repeat(100_000)]],
    ['an object carrying __proto__ first', [pollution]],
    ['a function-like object first', [{ then: 'x', toString: 1 }]],
  ]

  it('covers the whole contract', () => {
    expect(REQUEST_CHANNELS.length).toBeGreaterThan(40)
  })

  for (const channel of REQUEST_CHANNELS) {
    it(`${channel} refuses malformed arguments with invalid-arguments before its handler runs`, async () => {
      called.length = 0
      for (const [what, args] of malformed) {
        const response = await dispatch(channel, args)
        expect(response, `${channel} with ${what}`).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } })
      }
      expect(called).toEqual([])
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    })
  }

  it('refuses channels outside the contract, inherited names included', async () => {
    for (const channel of ['fs:read', '__proto__', 'constructor', 'toString', '', 42, null]) {
      expect(await dispatch(channel, [])).toMatchObject({ ok: false, error: { code: 'unknown-channel' } })
    }
    expect(called).toEqual([])
  })
})

/** Every byte under a directory (the app's user data dir). */
function filesUnder(dir: string): Buffer {
  const parts: Buffer[] = []
  const visit = (path: string): void => {
    if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry))
    else parts.push(readFileSync(path))
  }
  visit(dir)
  return Buffer.concat(parts)
}

describe('no secret leaves the keychain', () => {
  let server: RestartableServer
  let owner: SeededUser
  let member: SeededUser
  let dir: string
  let accounts: Accounts
  let secrets: EncryptedFileSecretStore
  let cache: Cache
  let outbox: Outbox
  let core: Core
  const crossed: string[] = []
  const logged: string[] = []
  const restores: (() => void)[] = []

  async function call<T>(channel: string, ...args: unknown[]): Promise<T> {
    const response = (await core.dispatch(channel, args)) as IpcResponse<T>
    crossed.push(JSON.stringify(response))
    if (!response.ok) throw new Error(`${channel}: ${response.error.code} ${response.error.message}`)
    return response.result
  }

  beforeAll(async () => {
    server = await startRestartableServer()
    owner = seedUser(server)
    member = seedUser(server)
    const project = (
      await server.request(owner.token, {
        method: 'POST',
        url: '/api/v4/projects',
        payload: { name: 'Secrets', initialize_with_readme: true },
      })
    ).json() as { id: number }
    await server.request(owner.token, {
      method: 'POST',
      url: `/api/v4/projects/${project.id}/members`,
      payload: { user_id: member.user.id, access_level: 30 },
    })
    const issue = (
      await server.request(owner.token, {
        method: 'POST',
        url: `/api/v4/projects/${project.id}/issues`,
        payload: { title: 'Token handling', description: 'Nothing secret here' },
      })
    ).json() as { iid: number }
    await server.request(member.token, {
      method: 'POST',
      url: `/api/v4/projects/${project.id}/issues/${issue.iid}/notes`,
      payload: { body: 'A note' },
    })

    // Whatever the core, or anything it runs, prints while this suite runs.
    for (const stream of [process.stdout, process.stderr]) {
      const spy = vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        logged.push(String(chunk))
        return true
      })
      restores.push(() => spy.mockRestore())
    }
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      const spy = vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        logged.push(args.map(String).join(' '))
      })
      restores.push(() => spy.mockRestore())
    }

    dir = mkdtempSync(join(tmpdir(), 'burrow-secrets-'))
    secrets = await EncryptedFileSecretStore.open(join(dir, 'secrets.enc.json'), 'a passphrase for the test')
    accounts = new Accounts({ store: new AccountStore(join(dir, 'accounts.json')), secrets, probeIntervalMs: 50 })
    cache = openCache({ userDataDir: dir })
    outbox = new Outbox({ cache, accounts })
    outbox.start()
    core = createCore({ version: '0.1.0', mode: 'browser', serverUrl: server.url, accounts, cache, outbox })
    core.events.subscribe((event, payload) => crossed.push(`${event} ${JSON.stringify(payload)}`))

    // One account with a token, one signed in with a password (OAuth: access and refresh tokens).
    const byToken = await call<Account>('accounts:add', { baseUrl: server.url, token: owner.token })
    const byPassword = await call<Account>('accounts:add', {
      baseUrl: server.url,
      username: member.user.username,
      password: member.password,
    })
    for (const account of [byToken, byPassword]) {
      expect((await core.sync?.run(account.id))?.outcome).toBe('completed')
      await call('accounts:verify', account.id)
      await call('sync:status', account.id)
      await call('issues:list', account.id, {})
      await call('issues:get', account.id, { project_id: project.id, iid: issue.iid })
      await call('search:query', account.id, { query: 'token' })
      await call('api:get', account.id, '/user')
      await call('api:get', account.id, `/projects/${project.id}/members/all`)
      await call('projects:list', account.id, {})
      await call('users:list', account.id, {})
      await call('todos:list', account.id, {})
      const entry = await call<OutboxEntry>('issues:comment', account.id, {
        projectId: project.id,
        iid: issue.iid,
        body: `Written by ${account.username}`,
      })
      for (let i = 0; i < 200; i++) {
        const [now] = await call<OutboxEntry[]>('outbox:list', { accountId: account.id, includeSettled: true }).then(
          (list) => list.filter((e) => e.id === entry.id),
        )
        if (now?.state === 'done') break
        await new Promise((r) => setTimeout(r, 50))
      }
    }
    await call('accounts:list')
    await call('app:info')
    await call('notify:summary')
    await call('outbox:list', { includeSettled: true })
  })

  afterAll(async () => {
    for (const restore of restores.splice(0)) restore()
    await core.dispose()
    await outbox.dispose()
    accounts.dispose()
    cache.close()
    rmSync(dir, { recursive: true, force: true })
    await server.close()
  })

  /** The PAT, the password, and the OAuth tokens the keychain holds for the password account. */
  async function allSecrets(): Promise<string[]> {
    const list = await accounts.list()
    const oauth = list.find((a) => a.authKind === 'oauth')
    const stored = oauth === undefined ? null : await secrets.get(oauth.id)
    const credential = JSON.parse(stored ?? '{}') as { accessToken?: string; refreshToken?: string }
    const tokens = [credential.accessToken, credential.refreshToken].filter(
      (t): t is string => typeof t === 'string' && t.length > 0,
    )
    expect(tokens).toHaveLength(2)
    return [owner.token, member.password, ...tokens]
  }

  it('the replayed writes reached the server (the scenario ran)', async () => {
    const entries = await call<OutboxEntry[]>('outbox:list', { includeSettled: true })
    expect(entries.map((e) => e.state)).toEqual(['done', 'done'])
  })

  it('none is in the cache database or any other file of the app', async () => {
    cache.db.pragma('wal_checkpoint(FULL)')
    const bytes = filesUnder(dir)
    // The scan reads what the cache holds (a synced title, a replayed comment).
    expect(bytes.includes('Token handling')).toBe(true)
    expect(bytes.includes(`Written by ${member.user.username}`)).toBe(true)
    for (const secret of await allSecrets()) expect(bytes.includes(secret), 'a secret on disk').toBe(false)
  })

  it('none is in an IPC result or an event', async () => {
    const text = crossed.join('\n')
    expect(crossed.length).toBeGreaterThan(20)
    for (const secret of await allSecrets()) expect(text.includes(secret), 'a secret crossed the bridge').toBe(false)
  })

  it('none was printed', async () => {
    const text = logged.join('\n')
    for (const secret of await allSecrets()) expect(text.includes(secret), 'a secret in the logs').toBe(false)
  })
})
