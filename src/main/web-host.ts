import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import type { EventChannel, IpcEvents } from '../shared/ipc/contract'
import { WIRE_PATH, type WireEvent, type WireRequest, type WireResponse } from '../shared/ipc/wire'
import type { Core } from './core/index'
import { contentSecurityPolicy } from './core/csp'
import { readStaticFile } from './core/static-files'

export interface WebHostOptions {
  /** The built renderer (out/renderer). */
  readonly rendererDir: string
  readonly core: Core
  /** 0 (default) picks a free port. Always bound to 127.0.0.1. */
  readonly port?: number
  /** Per-launch secret; random when absent. */
  readonly secret?: string
}

export interface WebHost {
  /** `http://127.0.0.1:PORT` */
  readonly url: string
  readonly secret: string
  /** The URL to open: the page, with the secret in the fragment (never sent over HTTP). */
  readonly pageUrl: string
  close(): Promise<void>
}

const HOST = '127.0.0.1'

function sameSecret(given: string | null, expected: string): boolean {
  if (given === null) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

function refuseUpgrade(socket: Duplex, status: 401 | 403 | 404): void {
  const reason = status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Not Found'
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
}

function parseRequest(data: string): WireRequest | null {
  let frame: unknown
  try {
    frame = JSON.parse(data)
  } catch {
    return null
  }
  if (frame === null || typeof frame !== 'object') return null
  const { type, id } = frame as { type?: unknown; id?: unknown }
  if (type !== 'request' || typeof id !== 'number') return null
  return frame as WireRequest
}

/**
 * Runs the renderer without Electron (browser mode, end-to-end tests): serves the built
 * renderer as static files and carries the IPC contract over a WebSocket, on 127.0.0.1 only,
 * for pages that present this launch's secret.
 */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const secret = options.secret ?? randomBytes(24).toString('base64url')
  let origin = ''
  let csp = ''

  // Requests for another Host are DNS-rebinding attempts: only our own origin is served.
  const hostAllowed = (req: IncomingMessage): boolean => {
    const host = req.headers.host
    return host !== undefined && (`http://${host}` === origin || `http://${host}` === origin.replace(HOST, 'localhost'))
  }

  const serveFile = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    res.setHeader('Content-Security-Policy', csp)
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('Referrer-Policy', 'no-referrer')
    if (!hostAllowed(req)) {
      res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Forbidden host')
      return
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end()
      return
    }
    const file = await readStaticFile(options.rendererDir, new URL(req.url ?? '/', origin).pathname)
    if (file === null) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found')
      return
    }
    res.writeHead(200, {
      'Content-Type': file.contentType,
      'Content-Length': file.body.length,
      'Cache-Control': 'no-cache',
    })
    res.end(req.method === 'HEAD' ? undefined : file.body)
  }

  const http = createServer((req, res) => {
    serveFile(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500)
      res.end()
    })
  })

  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 })
  const sockets = new Set<WebSocket>()

  http.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', origin)
    if (url.pathname !== WIRE_PATH) return refuseUpgrade(socket, 404)
    if (!hostAllowed(req)) return refuseUpgrade(socket, 403)
    // Browsers always send Origin on WebSocket handshakes; another site's page must not connect.
    const requestOrigin = req.headers.origin
    if (requestOrigin !== undefined && requestOrigin !== origin && requestOrigin !== origin.replace(HOST, 'localhost'))
      return refuseUpgrade(socket, 403)
    if (!sameSecret(url.searchParams.get('secret'), secret)) return refuseUpgrade(socket, 401)
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
  })

  wss.on('connection', (ws: WebSocket) => {
    sockets.add(ws)
    ws.on('close', () => sockets.delete(ws))
    ws.on('message', (data, isBinary) => {
      const request = isBinary ? null : parseRequest(data.toString())
      if (request === null) {
        ws.close(1003, 'Expected a JSON request frame')
        return
      }
      void options.core.dispatch(request.channel, request.args).then((response) => {
        const frame: WireResponse = { type: 'response', id: request.id, ...response }
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame))
      })
    })
  })

  const unsubscribe = options.core.events.subscribe(<E extends EventChannel>(event: E, payload: IpcEvents[E]) => {
    const frame: WireEvent<E> = { type: 'event', event, payload }
    const text = JSON.stringify(frame)
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(text)
  })

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject)
    http.listen(options.port ?? 0, HOST, () => {
      http.off('error', reject)
      resolve()
    })
  })
  const { port } = http.address() as AddressInfo
  origin = `http://${HOST}:${port}`
  csp = contentSecurityPolicy([`ws://${HOST}:${port}`])

  return {
    url: origin,
    secret,
    pageUrl: `${origin}/#secret=${secret}`,
    async close() {
      unsubscribe()
      for (const ws of sockets) ws.terminate()
      wss.close()
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
}
