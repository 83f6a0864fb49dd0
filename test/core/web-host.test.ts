import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { get } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createCore } from '../../src/main/core/index'
import { readStaticFile } from '../../src/main/core/static-files'
import { startWebHost, type WebHost } from '../../src/main/web-host'
import type { WireResponse } from '../../src/shared/ipc/wire'
import { startServer, type ListeningServer } from '../helpers/server'

let server: ListeningServer
let host: WebHost
let rendererDir: string

beforeAll(async () => {
  server = await startServer()
  // A tiny stand-in for out/renderer: the host serves whatever files it is given.
  rendererDir = mkdtempSync(join(tmpdir(), 'burrow-renderer-'))
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Burrow</title><div id="app"></div>')
  writeFileSync(join(rendererDir, 'app.js'), 'export {}')
  host = await startWebHost({
    rendererDir,
    core: createCore({ version: '0.1.0-test', mode: 'browser', serverUrl: server.url }),
  })
})

afterAll(async () => {
  await host?.close()
  await server?.close()
  rmSync(rendererDir, { recursive: true, force: true })
})

/** Opens the IPC socket; resolves with the socket once open, rejects with the handshake status. */
function connect(query: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${host.url.replace('http', 'ws')}/ipc${query}`, { origin: host.url })
    ws.once('open', () => resolve(ws))
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    ws.once('error', reject)
  })
}

/** Sends one request frame and waits for its response. */
function call(ws: WebSocket, id: number, channel: unknown, args: unknown): Promise<WireResponse> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData): void => {
      const frame = JSON.parse(data.toString()) as WireResponse
      if (frame.type === 'response' && frame.id === id) {
        ws.off('message', onMessage)
        resolve(frame)
      }
    }
    ws.on('message', onMessage)
    ws.send(JSON.stringify({ type: 'request', id, channel, args }))
  })
}

describe('web host', () => {
  it('listens on 127.0.0.1 and gives a page URL carrying the secret in the fragment', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(host.pageUrl).toBe(`${host.url}/#secret=${host.secret}`)
    expect(host.secret.length).toBeGreaterThanOrEqual(32)
  })

  it('serves index.html with a strict Content-Security-Policy header', async () => {
    const response = await fetch(`${host.url}/`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const csp = response.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe-eval')
    expect(await response.text()).toContain('<title>Burrow</title>')
  })

  it('serves assets with their content type and the same CSP header', async () => {
    const response = await fetch(`${host.url}/app.js`)
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'")
  })

  it('answers 404 for a missing asset', async () => {
    expect((await fetch(`${host.url}/missing.js`)).status).toBe(404)
  })

  it('never serves a file outside the renderer dir', async () => {
    const body = await new Promise<string>((resolve, reject) => {
      // node:http sends the path as written, dot segments included.
      get(`${host.url}/../../../../etc/passwd`, (res) => {
        let text = ''
        res.on('data', (chunk: Buffer) => (text += chunk.toString()))
        res.on('end', () => resolve(text))
      }).on('error', reject)
    })
    expect(body).not.toContain('root:')
    expect(await readStaticFile(rendererDir, '/../../../../etc/passwd')).toBeNull()
    expect(await readStaticFile(rendererDir, '/%2e%2e/%2e%2e/%2e%2e/etc/passwd')).toBeNull()
  })

  it('refuses a WebSocket without the secret with 401', async () => {
    await expect(connect('')).rejects.toThrow('HTTP 401')
  })

  it('refuses a WebSocket with a wrong secret with 401', async () => {
    await expect(connect('?secret=not-the-secret')).rejects.toThrow('HTTP 401')
  })

  it('refuses a WebSocket opened from another origin with 403', async () => {
    const attempt = new Promise((resolve, reject) => {
      const ws = new WebSocket(`${host.url.replace('http', 'ws')}/ipc?secret=${host.secret}`, {
        origin: 'http://evil.example',
      })
      ws.once('open', resolve)
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    })
    await expect(attempt).rejects.toThrow('HTTP 403')
  })

  describe('with the secret', () => {
    let ws: WebSocket
    beforeAll(async () => {
      ws = await connect(`?secret=${encodeURIComponent(host.secret)}`)
    })
    afterAll(() => ws?.close())

    it('answers app:info with the version, the mode and the server URL', async () => {
      const response = await call(ws, 1, 'app:info', [])
      expect(response).toEqual({
        type: 'response',
        id: 1,
        ok: true,
        result: { version: '0.1.0-test', mode: 'browser', serverUrl: server.url, localAccount: false },
      })
    })

    it('answers server:status from the real server', async () => {
      const response = await call(ws, 2, 'server:status', [])
      expect(response.ok && response.result).toMatchObject({
        url: server.url,
        state: 'reachable',
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      })
    })

    it('answers an unknown channel with an unknown-channel error', async () => {
      const response = await call(ws, 3, 'fs:read', ['/etc/passwd'])
      expect(response).toEqual({
        type: 'response',
        id: 3,
        ok: false,
        error: { code: 'unknown-channel', message: expect.any(String) },
      })
    })

    it('answers bad arguments with an invalid-arguments error', async () => {
      const response = await call(ws, 4, 'app:info', ['unexpected'])
      expect(response.ok).toBe(false)
      expect(!response.ok && response.error).toMatchObject({
        code: 'invalid-arguments',
        message: expect.stringContaining('app:info'),
      })
    })

    it('answers arguments that are not an array with an invalid-arguments error', async () => {
      const response = await call(ws, 5, 'app:info', { not: 'an array' })
      expect(!response.ok && response.error.code).toBe('invalid-arguments')
    })
  })
})
