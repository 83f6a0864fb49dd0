import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Accounts } from '../../src/main/core/accounts/accounts'
import { ApiClient } from '../../src/main/core/api/client'
import type { Cache } from '../../src/main/core/cache/cache'
import { CachedGet } from '../../src/main/core/cache/http-cache'
import { CACHE_FILE, openCacheDatabase } from '../../src/main/core/cache/database'
import { cacheMigrations } from '../../src/main/core/cache/migrations/index'
import { jsonWithoutSecrets, withoutSecrets } from '../../src/main/core/cache/secrets'
import { createCore, type Core } from '../../src/main/core/index'
import type { CachedGetResult } from '../../src/shared/ipc/cache'
import type { IpcError, IpcResponse } from '../../src/shared/ipc/contract'
import { ROOT_TOKEN } from '../helpers/server'
import { desktopServices, RequestLog, startRestartableServer, type RestartableServer } from '../helpers/sync'

/*
 * The desktop cache never keeps a secret field of an API answer (the renderer still gets it
 * online), its files are the user's alone, migration 0170 scrubs what older versions saved, and
 * every channel that takes an API path refuses paths that would leave /api/v4.
 */

function fileBytes(file: string): Buffer {
  return Buffer.concat([file, `${file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)))
}

const modeOf = (path: string): number => statSync(path).mode & 0o777

describe('withoutSecrets', () => {
  it("leaves out GitLab's secret fields at any depth and keeps public ones, including plain keys", () => {
    const answer = {
      id: 7,
      runners_token: 'GR1348941abc',
      token: 't',
      nested: [
        {
          password: 'p',
          client_secret: 's',
          akismet_api_key: 'k',
          recaptcha_private_key: 'r',
          eks_secret_access_key: 'e',
          external_auth_client_key_pass: 'x',
          name: 'keep',
        },
      ],
      key: 'ssh-ed25519 AAAA public',
      public_key: 'pub',
      token_expires_at: '2026-01-01',
      ci_job_token_scope_enabled: true,
      variables: [{ key: 'DEPLOY', value: 'secret-value', variable_type: 'env_var', masked: false }],
      custom_attributes: [{ key: 'team', value: 'blue' }],
    }
    const { value, stripped } = withoutSecrets(answer)
    expect(stripped).toBe(true)
    expect(value).toEqual({
      id: 7,
      nested: [{ name: 'keep' }],
      key: 'ssh-ed25519 AAAA public',
      public_key: 'pub',
      token_expires_at: '2026-01-01',
      ci_job_token_scope_enabled: true,
      variables: [{ key: 'DEPLOY', variable_type: 'env_var', masked: false }],
      custom_attributes: [{ key: 'team', value: 'blue' }],
    })
    const clean = [{ id: 1, title: 'no secrets' }]
    expect(withoutSecrets(clean)).toEqual({ value: clean, stripped: false })
    expect(withoutSecrets(clean).value).toBe(clean)
  })

  it('jsonWithoutSecrets finds every secret name in the text, at any depth, and writes the text without it', () => {
    const names = [
      'token',
      'runners_token',
      'password',
      'db_password',
      'secret',
      'client_secret',
      'akismet_api_key',
      'recaptcha_private_key',
      'webhook_secret_key',
      'eks_secret_access_key',
      'mailgun_signing_key',
      'external_auth_client_key_pass',
      'connection_string',
    ]
    for (const name of names) {
      const scrubbed = jsonWithoutSecrets({ id: 1, nested: [{ title: 't', [name]: 'hidden' }] })
      expect(scrubbed).toEqual({
        value: { id: 1, nested: [{ title: 't' }] },
        stripped: true,
        text: '{"id":1,"nested":[{"title":"t"}]}',
      })
    }
    const variable = jsonWithoutSecrets({ variables: [{ key: 'DEPLOY', value: 'hidden', variable_type: 'env_var' }] })
    expect(variable.text).toBe('{"variables":[{"key":"DEPLOY","variable_type":"env_var"}]}')
    // A name only in a string, or a public key named like a secret word, keeps the value as it is.
    const issue = { id: 2, description: 'set "token": here', token_expires_at: null, public_key: 'pub' }
    expect(jsonWithoutSecrets(issue)).toEqual({ value: issue, stripped: false, text: JSON.stringify(issue) })
    expect(jsonWithoutSecrets(issue).value).toBe(issue)
  })
})

describe('the URL cache against a real server', () => {
  let server: RestartableServer
  let core: Core
  let dispose: () => void
  let dir: string
  let accounts: Accounts
  let cache: Cache
  let accountId: string
  let projectId: number
  const log = new RequestLog()

  async function call<T>(channel: string, ...args: unknown[]): Promise<T> {
    const response = (await core.dispatch(channel, args)) as IpcResponse<T>
    if (!response.ok) throw new Error(`${channel}: ${response.error.code} ${response.error.message}`)
    return response.result
  }

  async function refusal(channel: string, ...args: unknown[]): Promise<IpcError> {
    const response = (await core.dispatch(channel, args)) as IpcResponse<unknown>
    if (response.ok) throw new Error(`${channel} answered ${JSON.stringify(response.result)}`)
    return response.error
  }

  beforeAll(async () => {
    server = await startRestartableServer()
    const services = await desktopServices(log)
    core = createCore({
      version: '0.1.0',
      mode: 'browser',
      serverUrl: server.url,
      accounts: services.accounts,
      cache: services.cache,
    })
    dispose = services.dispose
    dir = services.dir
    accounts = services.accounts
    cache = services.cache
    accountId = (await services.accounts.add({ baseUrl: server.url, token: ROOT_TOKEN })).id
    projectId = (
      await server.request(ROOT_TOKEN, { method: 'POST', url: '/api/v4/projects', payload: { name: 'cached-secrets' } })
    ).json().id
    const variable = await server.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/variables`,
      payload: { key: 'DEPLOY_PASSWORD', value: 'variable-value-31f9a0' },
    })
    expect(variable.statusCode).toBe(201)
  })
  afterAll(async () => {
    await core?.dispose()
    dispose?.()
    await server?.close()
  })

  it('hands the renderer the secret fields online and saves none of them; offline they are absent', async () => {
    const project = await call<CachedGetResult>('api:get', accountId, `/projects/${projectId}`)
    const runnersToken = (project.body as { runners_token: string }).runners_token
    expect(runnersToken).toMatch(/^GR1348941/)
    const settings = await call<CachedGetResult>('api:get', accountId, '/application/settings')
    const registrationToken = (settings.body as { runners_registration_token: string }).runners_registration_token
    expect(registrationToken.length).toBeGreaterThan(10)
    const variables = await call<CachedGetResult>('api:get', accountId, `/projects/${projectId}/variables`)
    expect(variables.body).toMatchObject([{ key: 'DEPLOY_PASSWORD', value: 'variable-value-31f9a0' }])

    // Read again online: a 304, answered with the whole answer core kept in memory.
    log.clear()
    const again = await call<CachedGetResult>('api:get', accountId, `/projects/${projectId}`)
    expect((again.body as { runners_token: string }).runners_token).toBe(runnersToken)
    expect(log.entries).toEqual([
      expect.objectContaining({
        path: `/projects/${projectId}`,
        status: 304,
        ifNoneMatch: expect.stringMatching(/^W\//),
      }),
    ])
    // After a restart nothing is in memory: the copy missing fields is not revalidated but read whole.
    log.clear()
    const restarted = await new CachedGet(cache).get(
      accountId,
      await accounts.clientFor(accountId),
      `/projects/${projectId}`,
      undefined,
      { online: true },
    )
    expect((restarted.body as { runners_token: string }).runners_token).toBe(runnersToken)
    expect(log.entries).toEqual([
      expect.objectContaining({ path: `/projects/${projectId}`, status: 200, ifNoneMatch: null }),
    ])

    const cacheFile = join(dir, CACHE_FILE)
    const bytes = fileBytes(cacheFile)
    for (const secret of [runnersToken, registrationToken, 'variable-value-31f9a0'])
      expect(bytes.includes(secret), secret).toBe(false)
    expect(bytes.includes('DEPLOY_PASSWORD')).toBe(true)

    await server.stop()
    try {
      const offline = await call<CachedGetResult>('api:get', accountId, `/projects/${projectId}`)
      expect(offline.stale).toBe(true)
      expect(offline.body).toMatchObject({ id: projectId })
      expect(offline.body).not.toHaveProperty('runners_token')
    } finally {
      await server.restart()
    }
  })

  it('keeps its folder 0700 and its database files 0600', () => {
    expect(modeOf(dir)).toBe(0o700)
    for (const file of [CACHE_FILE, `${CACHE_FILE}-wal`, `${CACHE_FILE}-shm`])
      expect([file, modeOf(join(dir, file))]).toEqual([file, 0o600])
  })

  describe('API paths that would leave /api/v4 are refused on every channel, before anything is sent', () => {
    const attacks = [
      '/%2e%2e/%2e%2e/api/graphql',
      '/%2E%2e/graphql',
      '/..\\..\\api\\graphql',
      '/projects\\..\\..\\graphql',
      '/../graphql',
      '/projects/1/../../../api/graphql',
      '/projects/%2e',
      '//evil.example/api/v4/user',
      '/projects?private_token=x',
      '/projects#fragment',
      'projects',
      '/projects//1',
      '/projects/%zz',
    ]
    const host = (): string => new URL(server.url).host

    for (const path of attacks) {
      it(JSON.stringify(path), async () => {
        log.clear()
        const refused = [
          await refusal('api:get', accountId, path),
          await refusal('api:send', accountId, { method: 'POST', path }),
          await refusal('api:send', accountId, {
            method: 'POST',
            path: `/projects/${projectId}/variables`,
            body: { key: 'X', value: 'y' },
            invalidates: [path],
          }),
        ]
        for (const error of refused) expect(error.code).toBe('invalid-arguments')
        expect(log.entries).toEqual([])
      })
    }

    const avatarAttacks: readonly ((host: string) => string)[] = [
      (h) => `http://${h}/uploads/%2e%2e/%2e%2e/api/v4/user`,
      (h) => `http://${h}/uploads/..\\..\\api\\v4\\user`,
      (h) => `http://${h}/uploads/../../api/graphql`,
      (h) => `http://root:secret@${h}/uploads/a.png`,
      (h) => `http://${h}/uploads/a.png#x`,
    ]
    for (const url of avatarAttacks) {
      it(`avatars:get ${url('HOST')}`, async () => {
        log.clear()
        expect((await refusal('avatars:get', { accountId, url: url(host()) })).code).toBe('invalid-arguments')
        expect(log.entries).toEqual([])
      })
    }

    it('and the client itself builds URLs with the URL API and never sends one outside /api/v4', () => {
      const client = new ApiClient({
        baseUrl: 'https://gitlab.example/gitlab/',
        credentials: async () => ({ kind: 'pat', token: 'x' }),
      })
      expect(client.urlOf('/projects/group%2Fapp/issues', { labels: ['a b'], state: 'opened' })).toBe(
        'https://gitlab.example/gitlab/api/v4/projects/group%2Fapp/issues?labels%5B%5D=a%20b&state=opened',
      )
      expect(client.urlOf('/projects/1?x=1')).toBe('https://gitlab.example/gitlab/api/v4/projects/1%3Fx=1')
      for (const path of ['/%2e%2e/%2e%2e/api/graphql', '/..\\..\\api\\graphql', '/../../../admin', '/%2e%2e']) {
        expect(() => client.urlOf(path), path).toThrow(expect.objectContaining({ code: 'foreign-url' }))
      }
    })
  })
})

describe('cache migration 0170', () => {
  it('scrubs the secret fields older versions saved and marks those copies, zeroing the old bytes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'burrow-cache-0170-'))
    try {
      const file = join(dir, CACHE_FILE)
      const old = openCacheDatabase(
        file,
        cacheMigrations.filter((m) => m.version < 170),
      )
      old.prepare("INSERT INTO cache_accounts (acct, account_id) VALUES (1, 'a')").run()
      const saved = {
        id: 3,
        name: 'p',
        runners_token: 'GR1348941savedProjectToken',
        nested: { webhook_secret: 'saved-webhook-secret' },
      }
      old
        .prepare(
          'INSERT INTO http_cache (acct, url, status, etag, headers, body, fetched_at) VALUES (1, ?, 200, ?, ?, ?, ?)',
        )
        .run('https://x/api/v4/projects/3', 'W/"e"', '{}', JSON.stringify(saved), 't')
      old
        .prepare(
          'INSERT INTO http_cache (acct, url, status, etag, headers, body, fetched_at) VALUES (1, ?, 200, ?, ?, ?, ?)',
        )
        .run('https://x/api/v4/version', 'W/"v"', '{}', '{"version":"17.0"}', 't')
      old
        .prepare("INSERT INTO projects (acct, id, name, path_with_namespace, json) VALUES (1, 3, 'p', 'g/p', ?)")
        .run(JSON.stringify(saved))
      old.close()
      chmodSync(dir, 0o755)
      chmodSync(file, 0o644)
      expect(fileBytes(file).includes('GR1348941savedProjectToken')).toBe(true)

      const db = openCacheDatabase(file)
      expect(db.prepare('SELECT url, etag, body, secrets_stripped FROM http_cache ORDER BY url').all()).toEqual([
        {
          url: 'https://x/api/v4/projects/3',
          etag: 'W/"e"',
          body: JSON.stringify({ id: 3, name: 'p', nested: {} }),
          secrets_stripped: 1,
        },
        { url: 'https://x/api/v4/version', etag: 'W/"v"', body: '{"version":"17.0"}', secrets_stripped: 0 },
      ])
      expect(JSON.parse((db.prepare('SELECT json FROM projects WHERE id = 3').get() as { json: string }).json)).toEqual(
        { id: 3, name: 'p', nested: {} },
      )
      db.close()
      expect([modeOf(dir), modeOf(file)]).toEqual([0o700, 0o600])
      const bytes = fileBytes(file)
      expect(bytes.includes('GR1348941savedProjectToken')).toBe(false)
      expect(bytes.includes('saved-webhook-secret')).toBe(false)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('runs on a new, empty cache', () => {
    const db = openCacheDatabase(':memory:')
    expect(db.prepare('SELECT name FROM schema_migrations WHERE version = 170').pluck().get()).toBe('scrub-secrets')
    db.close()
  })
})
