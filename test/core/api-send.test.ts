import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccountStore } from '../../src/main/core/accounts/account-store'
import { Accounts } from '../../src/main/core/accounts/accounts'
import { EncryptedFileSecretStore } from '../../src/main/core/accounts/encrypted-file-secret-store'
import { createCore, type Core } from '../../src/main/core/index'
import type { Account, IpcResponse } from '../../src/shared/ipc/contract'
import type { ApiSendResult } from '../../src/shared/ipc/api'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedMember, seedProject } from '../helpers/fixtures'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'
import { startSwitchableProxy, type SwitchableProxy } from '../helpers/switchable-proxy'

/*
 * `api:send` through createCore's dispatcher, as both shells call it, against a real Burrow
 * Server behind a proxy that can take the network away: the writes of the resource panels.
 */

type Json = Record<string, unknown>

let server: ListeningServer
let proxy: SwitchableProxy
let dir: string
let accounts: Accounts
let core: Core
let admin: Account
let member: Account
let memberUser: SeededUser
let projectId: number

beforeAll(async () => {
  server = await startServer()
  proxy = await startSwitchableProxy(server.url)
  memberUser = seedUser(server, { name: 'Mo Member' })
  const project = seedProject(server, { ownerId: memberUser.user.id })
  seedMember(server, 'Project', project.id, memberUser.user.id, AccessLevel.MAINTAINER)
  projectId = project.id
  dir = mkdtempSync(join(tmpdir(), 'burrow-api-send-'))
  accounts = new Accounts({
    store: new AccountStore(join(dir, 'accounts.json')),
    secrets: await EncryptedFileSecretStore.open(join(dir, 'secrets.enc.json'), 'api send passphrase'),
    probeIntervalMs: 60_000,
    timeoutMs: 1_500,
  })
  admin = await accounts.add({ baseUrl: proxy.url, token: ROOT_TOKEN })
  member = await accounts.add({ baseUrl: proxy.url, token: memberUser.token })
  core = createCore({ version: '0.1.0', mode: 'browser', serverUrl: server.url, accounts })
})

afterAll(async () => {
  await core?.dispose()
  accounts?.dispose()
  await proxy?.close()
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

const send = (accountId: string, request: unknown): Promise<IpcResponse> =>
  core.dispatch('api:send', [accountId, request])

async function ok(accountId: string, request: unknown): Promise<ApiSendResult> {
  const response = await send(accountId, request)
  if (!response.ok) throw new Error(`api:send failed: ${JSON.stringify(response.error)}`)
  return response.result as ApiSendResult
}

/** The server's own view, bypassing the proxy and core. */
async function read(path: string, token = ROOT_TOKEN): Promise<{ status: number; body: Json }> {
  const res = await server.request(token, { method: 'GET', url: `/api/v4${path}` })
  return { status: res.statusCode, body: res.body === '' ? {} : (JSON.parse(res.body) as Json) }
}

describe('api:send writes', () => {
  it('creates, edits, blocks, unblocks and deletes a user as an administrator, with the server’s statuses and bodies', async () => {
    const created = await ok(admin.id, {
      method: 'POST',
      path: '/users',
      body: {
        username: 'panel_user',
        name: 'Panel User',
        email: 'panel@example.com',
        password: 'long-enough-1',
        skip_confirmation: true,
      },
    })
    expect(created.status).toBe(201)
    const id = (created.body as Json).id as number
    expect(created.body).toMatchObject({ username: 'panel_user', name: 'Panel User', state: 'active' })

    expect(
      await ok(admin.id, {
        method: 'PUT',
        path: `/users/${id}`,
        body: { name: 'Panel User Renamed', note: 'made by a panel' },
      }),
    ).toMatchObject({ status: 200, body: { name: 'Panel User Renamed' } })
    expect(await ok(admin.id, { method: 'POST', path: `/users/${id}/block` })).toMatchObject({ status: 201 })
    expect((await read(`/users/${id}`)).body.state).toBe('blocked')
    await ok(admin.id, { method: 'POST', path: `/users/${id}/unblock` })
    expect((await read(`/users/${id}`)).body.state).toBe('active')

    expect(await ok(admin.id, { method: 'DELETE', path: `/users/${id}`, query: { hard_delete: true } })).toEqual({
      status: 204,
      body: null,
    })
    await expect.poll(async () => (await read(`/users/${id}`)).status).toBe(404)
  })

  it('sends query parameters from a plain object (review-app cleanup as a dry run)', async () => {
    const env = (
      await server.request(memberUser.token, {
        method: 'POST',
        url: `/api/v4/projects/${projectId}/environments`,
        payload: { name: 'review/old-app' },
      })
    ).json() as Json
    await server.request(memberUser.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/environments/${env.id as number}/stop`,
    })
    const before = new Date(Date.now() + 60_000).toISOString()
    const result = await ok(member.id, {
      method: 'DELETE',
      path: `/projects/${projectId}/environments/review_apps`,
      query: { dry_run: true, limit: 10, before },
    })
    expect(result.status).toBe(200)
    expect(result.body).toMatchObject({ scheduled_entries: [{ name: 'review/old-app' }], unprocessable_entries: [] })
    expect(
      proxy.forwarded.some(
        (line) =>
          line.startsWith(`DELETE /api/v4/projects/${projectId}/environments/review_apps?`) &&
          line.includes('dry_run=true') &&
          line.includes('limit=10'),
      ),
    ).toBe(true)
    // A dry run deletes nothing.
    expect((await read(`/projects/${projectId}/environments/${env.id as number}`, memberUser.token)).status).toBe(200)
  })

  it('a refusal whose body nests GitLab’s message reads as that message', async () => {
    // A stopped review app protected for administrators only: the member may not delete it.
    const env = (
      await server.request(memberUser.token, {
        method: 'POST',
        url: `/api/v4/projects/${projectId}/environments`,
        payload: { name: 'review/guarded' },
      })
    ).json() as Json
    await server.request(memberUser.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/environments/${env.id as number}/stop`,
    })
    await server.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/protected_environments`,
      payload: { name: 'review/guarded', deploy_access_levels: [{ access_level: 60 }] },
    })
    const before = new Date(Date.now() + 60_000).toISOString()
    const response = await send(member.id, {
      method: 'DELETE',
      path: `/projects/${projectId}/environments/review_apps`,
      query: { dry_run: true, before },
    })
    expect(response).toMatchObject({
      ok: false,
      error: { code: 'validation', details: { status: 400, body: { message: { scheduled_entries: [] } } } },
    })
    if (response.ok) return
    expect(response.error.message).toMatch(/^No environments found for scheduled deletion\./)
  })

  it('takes a project by its URL-encoded full path', async () => {
    const project = (await read(`/projects/${projectId}`)).body
    const encoded = encodeURIComponent(project.path_with_namespace as string)
    const result = await ok(member.id, {
      method: 'POST',
      path: `/projects/${encoded}/environments`,
      body: { name: 'review/panel', external_url: 'https://review.example.com' },
    })
    expect(result).toMatchObject({ status: 201, body: { name: 'review/panel', state: 'available' } })
    const stopped = await ok(member.id, {
      method: 'POST',
      path: `/projects/${encoded}/environments/${(result.body as Json).id as number}/stop`,
    })
    expect(stopped.body).toMatchObject({ state: 'stopped' })
  })

  it('answers 304 as a success ("already so"), not as a refusal', async () => {
    const issue = (
      await server.request(memberUser.token, {
        method: 'POST',
        url: `/api/v4/projects/${projectId}/issues`,
        payload: { title: 'To-do twice' },
      })
    ).json() as Json
    expect(
      (await ok(member.id, { method: 'POST', path: `/projects/${projectId}/issues/${issue.iid as number}/todo` }))
        .status,
    ).toBe(201)
    expect(
      await ok(member.id, { method: 'POST', path: `/projects/${projectId}/issues/${issue.iid as number}/todo` }),
    ).toEqual({ status: 304, body: null })
  })
})

describe('api:send refusals', () => {
  it('a 400 carries the code `validation`, GitLab’s message and its body in details', async () => {
    const response = await send(admin.id, {
      method: 'POST',
      path: '/users',
      body: { username: 'no_password', name: 'No Password', email: 'nopw@example.com' },
    })
    expect(response).toMatchObject({ ok: false, error: { code: 'validation', details: { status: 400 } } })
    if (response.ok) return
    expect(response.error.message).toMatch(/password/)
    expect((response.error.details as { body: unknown }).body).toBeTruthy()
  })

  it('a duplicate answers 409 with code `conflict`', async () => {
    await ok(admin.id, {
      method: 'POST',
      path: '/users',
      body: { username: 'twice', name: 'Twice', email: 'twice@example.com', password: 'long-enough-2' },
    })
    const response = await send(admin.id, {
      method: 'POST',
      path: '/users',
      body: { username: 'twice', name: 'Twice', email: 'twice2@example.com', password: 'long-enough-2' },
    })
    expect(response).toMatchObject({ ok: false, error: { code: 'conflict', details: { status: 409 } } })
  })

  it('a non-administrator is refused with code `forbidden` (403) and nothing is created', async () => {
    const response = await send(member.id, {
      method: 'POST',
      path: '/users',
      body: { username: 'not_by_member', name: 'X', email: 'x@example.com', password: 'long-enough-3' },
    })
    expect(response).toMatchObject({ ok: false, error: { code: 'forbidden', details: { status: 403 } } })
    expect((await read('/users?username=not_by_member')).body).toEqual([])
  })

  it('an unknown account is refused without a request', async () => {
    const before = proxy.forwarded.length
    const response = await send('no-such-account', { method: 'DELETE', path: '/users/1' })
    expect(response.ok).toBe(false)
    expect(proxy.forwarded.length).toBe(before)
  })
})

describe('api:send offline', () => {
  it('is refused with code `offline` and the reason it is not queued; nothing reaches the server later', async () => {
    await proxy.goOffline()
    await accounts.connectivityFor(admin.id).probeNow()
    try {
      const response = await send(admin.id, {
        method: 'POST',
        path: '/users',
        body: { username: 'while_offline', name: 'Offline', email: 'off@example.com', password: 'long-enough-4' },
      })
      expect(response).toMatchObject({ ok: false, error: { code: 'offline' } })
      if (response.ok) return
      expect(response.error.message).toBe(
        `This change needs a connection to ${new URL(proxy.url).host}, which cannot be reached. It is not queued for later: settings, roles and runners may have changed on the server by then, and a late replay could undo someone else’s newer decision.`,
      )
    } finally {
      await proxy.goOnline()
      await accounts.connectivityFor(admin.id).probeNow()
    }
    expect((await read('/users?username=while_offline')).body).toEqual([])
  })

  it('a connection refused while core still believed it online is reported as offline too (the request never left)', async () => {
    await proxy.goOffline()
    try {
      const response = await send(member.id, {
        method: 'POST',
        path: `/projects/${projectId}/environments`,
        body: { name: 'never-sent' },
      })
      expect(response).toMatchObject({ ok: false, error: { code: 'offline' } })
      expect(accounts.connectivityFor(member.id).online).toBe(false)
    } finally {
      await proxy.goOnline()
      await accounts.connectivityFor(member.id).probeNow()
    }
  })

  it('a POST whose answer is lost is reported as `outcome-unknown`, so the panel asks to check before retrying', async () => {
    proxy.mode = 'hold-responses'
    proxy.only = (line) => line.startsWith('POST') && line.includes('/environments')
    try {
      const response = await send(member.id, {
        method: 'POST',
        path: `/projects/${projectId}/environments`,
        body: { name: 'answer-lost' },
      })
      expect(response).toMatchObject({ ok: false, error: { code: 'outcome-unknown', details: { failure: 'timeout' } } })
      if (response.ok) return
      expect(response.error.message).toMatch(/may or may not have reached .* Reload to see whether it took effect/)
    } finally {
      proxy.mode = 'pass'
      proxy.only = null
      await accounts.connectivityFor(member.id).probeNow()
    }
    // It did reach the server: the panel's advice to reload before retrying is right.
    const envs = (
      await server.request(memberUser.token, {
        method: 'GET',
        url: `/api/v4/projects/${projectId}/environments?name=answer-lost`,
      })
    ).json() as Json[]
    expect(envs.map((e) => e.name)).toEqual(['answer-lost'])
  })
})

describe('api:send argument validation', () => {
  const invalid: readonly [string, unknown][] = [
    ['a read', { method: 'GET', path: '/users' }],
    ['an unknown method', { method: 'TRACE', path: '/users' }],
    ['an absolute URL', { method: 'POST', path: 'http://evil.example/api/v4/users' }],
    ['a host-relative URL', { method: 'POST', path: '//evil.example/users' }],
    ['a path without a leading slash', { method: 'POST', path: 'users' }],
    ['a dot segment', { method: 'DELETE', path: '/projects/../users/1' }],
    ['an encoded dot segment', { method: 'DELETE', path: '/projects/%2e%2E/users/1' }],
    ['a single encoded dot', { method: 'DELETE', path: '/users/%2e/1' }],
    ['a query in the path', { method: 'DELETE', path: '/users/1?hard_delete=true' }],
    ['a fragment', { method: 'DELETE', path: '/users/1#x' }],
    ['a backslash', { method: 'DELETE', path: '/users\\..\\1' }],
    ['a space', { method: 'DELETE', path: '/users/1 2' }],
    ['an empty segment', { method: 'DELETE', path: '/users//1' }],
    ['a malformed escape', { method: 'DELETE', path: '/users/%zz' }],
    ['a nested query object', { method: 'DELETE', path: '/users/1', query: { not: { a: 1 } } }],
    ['a query parameter name with an =', { method: 'DELETE', path: '/users/1', query: { 'a=b&c': 'd' } }],
    ['a body that is an array', { method: 'POST', path: '/users', body: [1, 2] }],
    ['a body that is a string', { method: 'POST', path: '/users', body: 'username=x' }],
    [
      'a body with a non-finite number',
      { method: 'POST', path: '/users', body: { projects_limit: Number.POSITIVE_INFINITY } },
    ],
    ['an unknown field', { method: 'POST', path: '/users', headers: { Sudo: 'root' } }],
  ]
  for (const [what, request] of invalid) {
    it(`refuses ${what} before any request`, async () => {
      const before = proxy.forwarded.length
      const response = await send(admin.id, request)
      expect(response).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } })
      expect(proxy.forwarded.length).toBe(before)
    })
  }

  it('refuses a missing request object and extra arguments', async () => {
    expect(await core.dispatch('api:send', [admin.id])).toMatchObject({
      ok: false,
      error: { code: 'invalid-arguments' },
    })
    expect(await core.dispatch('api:send', [admin.id, { method: 'POST', path: '/users' }, {}])).toMatchObject({
      ok: false,
      error: { code: 'invalid-arguments' },
    })
  })
})
