import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'

/*
 * The root token a launcher hands the server (BURROW_ROOT_TOKEN): each start keeps exactly the
 * token it was given, so the tokens of earlier launches stop working and do not pile up.
 */

let dataDir: string

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'burrow-bootstrap-'))
})

afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true })
})

/** Starts the server on the shared data dir with `token`, runs `use`, and stops it. */
async function withServer<T>(
  token: string,
  use: (get: (path: string, as: string) => Promise<{ status: number; body: unknown }>) => Promise<T>,
): Promise<T> {
  const app = await buildApp({ dataDir, rootToken: token, externalUrl: 'http://burrow.test' })
  try {
    return await use(async (path, as) => {
      const res = await app.inject({ method: 'GET', url: `/api/v4${path}`, headers: { 'private-token': as } })
      return { status: res.statusCode, body: res.json() as unknown }
    })
  } finally {
    await app.close()
  }
}

const rootTokens = (body: unknown): { id: number; name: string; revoked: boolean }[] =>
  (body as { id: number; name: string; revoked: boolean }[]).filter((t) => t.name === 'BURROW_ROOT_TOKEN')

describe('root token bootstrap', () => {
  it('keeps the same token row when a restart brings the same token', async () => {
    const first = await withServer('launch-token-one-0123456789', async (get) =>
      rootTokens((await get('/personal_access_tokens', 'launch-token-one-0123456789')).body),
    )
    const second = await withServer('launch-token-one-0123456789', async (get) =>
      rootTokens((await get('/personal_access_tokens', 'launch-token-one-0123456789')).body),
    )
    expect(first).toHaveLength(1)
    expect(second.map((t) => t.id)).toEqual(first.map((t) => t.id))
  })

  it('drops the previous launch token when a new one is given, so only the current one works', async () => {
    await withServer('launch-token-one-0123456789', async (get) =>
      expect((await get('/user', 'launch-token-one-0123456789')).status).toBe(200),
    )
    await withServer('launch-token-two-0123456789', async (get) => {
      expect((await get('/user', 'launch-token-one-0123456789')).status).toBe(401)
      const me = await get('/user', 'launch-token-two-0123456789')
      expect(me.status).toBe(200)
      expect(me.body).toMatchObject({ username: 'root', is_admin: true })
    })
  })

  it('leaves one root token after many launches, and other tokens of root alone', async () => {
    let kept = 0
    await withServer('launch-token-0-0123456789', async () => {
      // A token root made for itself is not the launcher's to remove.
      const app = await buildApp({ dataDir, externalUrl: 'http://burrow.test' })
      const res = await app.inject({
        method: 'POST',
        url: '/api/v4/users/1/personal_access_tokens',
        headers: { 'private-token': 'launch-token-0-0123456789' },
        payload: { name: 'my script', scopes: ['api'] },
      })
      expect(res.statusCode).toBe(201)
      kept = (res.json() as { id: number }).id
      await app.close()
    })
    for (let i = 1; i <= 4; i++) await withServer(`launch-token-${i}-0123456789`, async () => undefined)
    await withServer('launch-token-5-0123456789', async (get) => {
      const tokens = (await get('/personal_access_tokens?user_id=1', 'launch-token-5-0123456789')).body as {
        id: number
        name: string
      }[]
      expect(tokens.filter((t) => t.name === 'BURROW_ROOT_TOKEN')).toHaveLength(1)
      expect(tokens.map((t) => t.id)).toContain(kept)
    })
  })
})
