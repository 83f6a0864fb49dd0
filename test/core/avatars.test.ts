import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isUnder } from '../../src/main/core/api/client'
import { AvatarService } from '../../src/main/core/avatars'
import { sniffImageType } from '../../src/main/core/image-type'
import { launchCore, type Launch } from '../../src/main/core/launch'
import type { IpcResponse } from '../../src/shared/ipc/contract'
import { RequestLog } from '../helpers/sync'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer } from '../helpers/server'

/*
 * Avatars for a page whose CSP allows only data: images: fetched by core from the account's own
 * instance (a real Burrow Server, avatars uploaded through its API), kept in the cache database
 * and served from there offline. The account is the local server's, so no keychain is needed.
 */

// A 1×1 PNG and a 1×1 GIF.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')

let server: ListeningServer
let appDir: string
let launch: Launch
let log: RequestLog

beforeEach(async () => {
  server = await startServer()
  appDir = mkdtempSync(join(tmpdir(), 'burrow-avatars-'))
  log = new RequestLog()
  launch = await launchCore({
    userDataDir: appDir,
    version: '0.1.0',
    mode: 'browser',
    localServer: { baseUrl: server.url, token: ROOT_TOKEN },
    fetch: log.fetch,
  })
})

afterEach(async () => {
  await launch.close()
  await server.close()
  rmSync(appDir, { recursive: true, force: true })
})

/** Uploads an avatar for a user through `PUT /users/:id` (multipart) and returns its avatar_url. */
async function uploadAvatar(userId: number, bytes: Buffer, filename: string): Promise<string> {
  const form = new FormData()
  form.append('avatar', new Blob([new Uint8Array(bytes)]), filename)
  const response = await fetch(`${server.url}/api/v4/users/${userId}`, {
    method: 'PUT',
    headers: { 'PRIVATE-TOKEN': ROOT_TOKEN },
    body: form,
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { avatar_url: string }).avatar_url
}

const avatarRequests = (): number => log.count((e) => e.path.startsWith('/uploads/'))

function result(response: IpcResponse): unknown {
  if (!response.ok) throw new Error(`${response.error.code}: ${response.error.message}`)
  return response.result
}

describe('avatars:get', () => {
  it("answers an avatar of the account's instance as a data URL of its bytes", async () => {
    const url = await uploadAvatar(1, PNG, 'me.png')
    expect(url.startsWith(`${server.url}/uploads/`)).toBe(true)
    expect(result(await launch.core.dispatch('avatars:get', [{ accountId: 'local', url }]))).toBe(
      `data:image/png;base64,${PNG.toString('base64')}`,
    )
  })

  it('asks the instance once and then answers from the cache', async () => {
    const url = await uploadAvatar(1, GIF, 'me.gif')
    const answers = await Promise.all(
      [1, 2, 3].map(() => launch.core.dispatch('avatars:get', [{ accountId: 'local', url }])),
    )
    await launch.core.dispatch('avatars:get', [{ accountId: 'local', url }])
    expect(new Set(answers.map(result))).toEqual(new Set([`data:image/gif;base64,${GIF.toString('base64')}`]))
    expect(avatarRequests()).toBe(1)
  })

  it('refuses a URL on another host, or on another port of this one, without sending anything', async () => {
    const other = new URL(server.url)
    other.port = String(Number(other.port) + 1)
    for (const url of [
      'https://secure.gravatar.com/avatar/0123456789abcdef?s=80&d=identicon',
      `${other.origin}/uploads/-/system/user/avatar/1/me.png`,
    ]) {
      expect(await launch.core.dispatch('avatars:get', [{ accountId: 'local', url }])).toMatchObject({
        ok: false,
        error: { code: 'foreign-url' },
      })
    }
    expect(log.entries.filter((e) => !e.path.startsWith('/user') && e.path !== '/version')).toEqual([])
  })

  it('answers null for a URL with no image, and remembers that', async () => {
    const url = `${server.url}/uploads/-/system/user/avatar/1/missing.png`
    expect(result(await launch.core.dispatch('avatars:get', [{ accountId: 'local', url }]))).toBeNull()
    expect(result(await launch.core.dispatch('avatars:get', [{ accountId: 'local', url }]))).toBeNull()
    expect(avatarRequests()).toBe(1)
  })

  it('refuses malformed requests and unknown accounts', async () => {
    expect(
      await launch.core.dispatch('avatars:get', [{ accountId: 'local', url: 'javascript:alert(1)' }]),
    ).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } })
    expect(await launch.core.dispatch('avatars:get', [{ accountId: 'local' }])).toMatchObject({
      ok: false,
      error: { code: 'invalid-arguments' },
    })
    expect(
      await launch.core.dispatch('avatars:get', [{ accountId: 'nobody', url: `${server.url}/uploads/x.png` }]),
    ).toMatchObject({ ok: false, error: { code: 'account-not-found' } })
  })
})

describe('AvatarService', () => {
  it('serves what it cached when the instance cannot be reached, and null for what it never fetched', async () => {
    // Always revalidate, so the second read really tries the instance.
    const avatars = new AvatarService({ cache: launch.cache, accounts: launch.accounts, maxAgeMs: 0 })
    const url = await uploadAvatar(1, PNG, 'me.png')
    const online = await avatars.get('local', url)
    expect(online).toBe(`data:image/png;base64,${PNG.toString('base64')}`)
    await server.app.close()
    expect(await avatars.get('local', url)).toBe(online)
    expect(launch.accounts.connectivityFor('local').online).toBe(false)
    expect(await avatars.get('local', `${server.url}/uploads/-/system/user/avatar/2/never.png`)).toBeNull()
  })

  it('keeps the table under its cap by evicting the least recently used avatars', async () => {
    const users = [
      seedUser(server, { username: 'avatar-a' }),
      seedUser(server, { username: 'avatar-b' }),
      seedUser(server, { username: 'avatar-c' }),
    ]
    const urls = await Promise.all(users.map((u, i) => uploadAvatar(u.user.id, PNG, `u${i}.png`)))
    // Room for two of them (each row costs the image plus 256 bytes of bookkeeping).
    const avatars = new AvatarService({
      cache: launch.cache,
      accounts: launch.accounts,
      maxTotalBytes: 2 * (PNG.length + 256),
    })
    for (const url of urls) expect(await avatars.get('local', url)).not.toBeNull()
    const kept = launch.cache.db.prepare('SELECT url FROM avatars ORDER BY url').pluck().all()
    expect(kept).toEqual([urls[1], urls[2]].sort())
  })

  it('forgets the avatars of a removed account', async () => {
    await launch.core.dispatch('avatars:get', [{ accountId: 'local', url: await uploadAvatar(1, PNG, 'me.png') }])
    expect(launch.cache.db.prepare('SELECT COUNT(*) FROM avatars').pluck().get()).toBe(1)
    await launch.core.dispatch('accounts:remove', ['local'])
    await expect.poll(() => launch.cache.db.prepare('SELECT COUNT(*) FROM avatars').pluck().get()).toBe(0)
  })
})

describe('image checks', () => {
  it('tells the four image types the page shows by their first bytes, and nothing else', () => {
    expect(sniffImageType(PNG)).toBe('image/png')
    expect(sniffImageType(GIF)).toBe('image/gif')
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg')
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp')
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull()
    expect(sniffImageType(Buffer.from('<html>'))).toBeNull()
  })

  it('counts only URLs under the instance as its own', () => {
    expect(isUnder('https://git.example.com/gitlab/uploads/a.png', 'https://git.example.com/gitlab')).toBe(true)
    expect(isUnder('https://git.example.com/other/uploads/a.png', 'https://git.example.com/gitlab')).toBe(false)
    expect(isUnder('https://git.example.com/gitlab/../other/a.png', 'https://git.example.com/gitlab')).toBe(false)
    expect(isUnder('https://git.example.com/gitlabber/a.png', 'https://git.example.com/gitlab')).toBe(false)
    expect(isUnder('https://user:pw@git.example.com/a.png', 'https://git.example.com')).toBe(false)
    expect(isUnder('http://git.example.com/a.png', 'https://git.example.com')).toBe(false)
  })
})
