import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contentDisposition } from '../../src/server/platform/http/raw-content'
import { makeServer, ROOT_TOKEN, type TestServer } from '../helpers/server'

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 1)])
const EVIL_HTML = '<html><body><script>alert(document.cookie)</script></body></html>\n'
const EVIL_SVG = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>\n'
const BINARY = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3, 0, 0, 60, 104, 116, 109, 108, 62])

function expectHardened(res: LightMyRequestResponse): void {
  expect(res.headers['x-content-type-options']).toBe('nosniff')
  expect(res.headers['x-frame-options']).toBe('SAMEORIGIN')
  expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
}

function expectRaw(res: LightMyRequestResponse, type: string, disposition: string): void {
  expect(res.statusCode).toBe(200)
  expectHardened(res)
  expect(res.headers['content-type']).toBe(type)
  expect(res.headers['content-disposition']).toBe(disposition)
  expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox")
}

describe('security headers', () => {
  let s: TestServer
  let projectId: number
  const blobIds = new Map<string, string>()

  beforeAll(async () => {
    s = await makeServer()
    projectId = (
      await s.request(ROOT_TOKEN, { method: 'POST', url: '/api/v4/projects', payload: { name: 'raw' } })
    ).json().id
    const files: [string, Buffer][] = [
      ['evil.html', Buffer.from(EVIL_HTML)],
      ['evil.svg', Buffer.from(EVIL_SVG)],
      ['pixel.png', PNG],
      ['tool.bin', BINARY],
      ['naïve "quote".txt', Buffer.from('hi\n')],
    ]
    const commit = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/repository/commits`,
      payload: {
        branch: 'main',
        commit_message: 'content',
        actions: files.map(([path, content]) => ({
          action: 'create',
          file_path: path,
          encoding: 'base64',
          content: content.toString('base64'),
        })),
      },
    })
    expect(commit.statusCode).toBe(201)
    const tree = await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/projects/${projectId}/repository/tree` })
    for (const entry of tree.json() as { name: string; id: string }[]) blobIds.set(entry.name, entry.id)
  })
  afterAll(async () => {
    await s.close()
  })

  it('are on JSON answers, which stay private and revalidated (ETag behaviour unchanged)', async () => {
    const res = await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/projects/${projectId}` })
    expectHardened(res)
    expect(res.headers['cache-control']).toBe('max-age=0, private, must-revalidate')
    expect(res.headers.etag).toMatch(/^W\//)
    const again = await s.request(ROOT_TOKEN, {
      method: 'GET',
      url: `/api/v4/projects/${projectId}`,
      headers: { 'if-none-match': String(res.headers.etag) },
    })
    expect(again.statusCode).toBe(304)
    expectHardened(again)
  })

  it('are on writes and errors, which no cache keeps', async () => {
    const created = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/labels`,
      payload: { name: 'bug', color: '#ff0000' },
    })
    expect(created.statusCode).toBe(201)
    expectHardened(created)
    expect(created.headers['cache-control']).toBe('max-age=0, private, must-revalidate')
    for (const res of [
      await s.request(null, { method: 'GET', url: '/api/v4/user' }),
      await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/projects/999999' }),
      await s.request(ROOT_TOKEN, { method: 'GET', url: '/no/such/route' }),
    ]) {
      expect(res.statusCode).toBeGreaterThanOrEqual(400)
      expectHardened(res)
      expect(res.headers['cache-control']).toBe('no-cache')
    }
  })

  it('are on GraphQL, OAuth, git over HTTP and uploads', async () => {
    const graphql = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: '/api/graphql',
      payload: { query: '{ currentUser { username } }' },
    })
    const oauth = await s.request(null, {
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'password', username: 'root', password: 'wrong' },
    })
    const git = await s.request(null, { method: 'GET', url: '/root/raw.git/info/refs?service=git-upload-pack' })
    const upload = await s.request(null, { method: 'GET', url: '/uploads/-/system/user/avatar/1/none.png' })
    for (const res of [graphql, oauth, git, upload]) expectHardened(res)
    expect(graphql.statusCode).toBe(200)
  })

  describe('raw content', () => {
    const raw = (path: string): Promise<LightMyRequestResponse> =>
      s.request(ROOT_TOKEN, {
        method: 'GET',
        url: `/api/v4/projects/${projectId}/repository/files/${encodeURIComponent(path)}/raw`,
        query: { ref: 'main' },
      })
    const blob = (name: string): Promise<LightMyRequestResponse> =>
      s.request(ROOT_TOKEN, {
        method: 'GET',
        url: `/api/v4/projects/${projectId}/repository/blobs/${blobIds.get(name)}/raw`,
      })

    it('serves HTML and SVG files as plain text that runs nothing', async () => {
      const html = await raw('evil.html')
      expectRaw(html, 'text/plain; charset=utf-8', 'inline; filename="evil.html"')
      expect(html.body).toBe(EVIL_HTML)
      expectRaw(await raw('evil.svg'), 'text/plain; charset=utf-8', 'inline; filename="evil.svg"')
      const sha = blobIds.get('evil.html') as string
      expectRaw(await blob('evil.html'), 'text/plain; charset=utf-8', `inline; filename="${sha}"`)
      expectRaw(await blob('evil.svg'), 'text/plain; charset=utf-8', `inline; filename="${blobIds.get('evil.svg')}"`)
    })

    it('shows raster images inline and downloads other binaries', async () => {
      const png = await raw('pixel.png')
      expectRaw(png, 'image/png', 'inline; filename="pixel.png"')
      expect(png.rawPayload.equals(PNG)).toBe(true)
      const bin = await raw('tool.bin')
      expectRaw(bin, 'application/octet-stream', 'attachment; filename="tool.bin"')
      expect(bin.rawPayload.equals(BINARY)).toBe(true)
      expectRaw(await blob('tool.bin'), 'application/octet-stream', `attachment; filename="${blobIds.get('tool.bin')}"`)
    })

    it('names a file with quotes or non-ASCII characters without breaking the header', async () => {
      expectRaw(
        await raw('naïve "quote".txt'),
        'text/plain; charset=utf-8',
        `inline; filename="na_ve _quote_.txt"; filename*=UTF-8''na%C3%AFve%20%22quote%22.txt`,
      )
      expect(contentDisposition('attachment', 'a\r\nSet-Cookie: x=1')).toBe(
        `attachment; filename="a__Set-Cookie: x=1"; filename*=UTF-8''a%0D%0ASet-Cookie%3A%20x%3D1`,
      )
    })

    it('serves snippets as text and archives as downloads, sandboxed', async () => {
      const snippet = await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: `/api/v4/projects/${projectId}/snippets`,
        payload: { title: 'page', file_name: 'page.html', content: EVIL_HTML, visibility: 'private' },
      })
      expect(snippet.statusCode).toBe(201)
      const text = await s.request(ROOT_TOKEN, {
        method: 'GET',
        url: `/api/v4/projects/${projectId}/snippets/${snippet.json().id}/raw`,
      })
      expectRaw(text, 'text/plain; charset=utf-8', 'inline; filename="page.html"')
      expect(text.body).toBe(EVIL_HTML)
      const archive = await s.request(ROOT_TOKEN, {
        method: 'GET',
        url: `/api/v4/projects/${projectId}/repository/archive.zip`,
      })
      expect(archive.statusCode).toBe(200)
      expect(archive.headers['content-type']).toBe('application/octet-stream')
      expect(archive.headers['content-disposition']).toMatch(/^attachment; filename="raw-main-[0-9a-f]{40}\.zip"$/)
      expect(archive.headers['content-security-policy']).toBe("default-src 'none'; sandbox")
      expectHardened(archive)
    })
  })
})
