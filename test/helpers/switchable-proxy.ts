import { request as httpRequest, createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * How the proxy treats requests:
 * - `pass`: forwards them and their answers;
 * - `hold-responses`: forwards each request (the server handles it) but never answers the
 *   client: the response is "lost", as after a crash or a timeout;
 * - `hold-requests`: accepts each request and never forwards it (it never reaches the server).
 */
export type ProxyMode = 'pass' | 'hold-responses' | 'hold-requests'

export interface SwitchableProxy {
  /** `http://127.0.0.1:PORT`, the same across offline/online switches. */
  readonly url: string
  /** `METHOD /path?query` of every request that reached the server through the proxy. */
  readonly forwarded: string[]
  /** The same, for requests the server has answered (whether or not the answer was passed on). */
  readonly answered: string[]
  mode: ProxyMode
  /** When set, `mode` applies only to the requests it matches; the others pass. */
  only: ((line: string) => boolean) | null
  /** Awaited before a request is forwarded: a test can change the server in between (a race). */
  beforeForward: ((line: string) => Promise<void>) | null
  /** Stops listening and cuts open connections: clients get ECONNREFUSED, as with the network down. */
  goOffline(): Promise<void>
  goOnline(): Promise<void>
  /** Resolves when a forwarded request matches (already or later). */
  waitForForwarded(match: (line: string) => boolean): Promise<string>
  /** Resolves when the server has answered a matching request (already or later). */
  waitForAnswered(match: (line: string) => boolean): Promise<string>
  close(): Promise<void>
}

/**
 * A real HTTP proxy on 127.0.0.1 in front of a Burrow Server, that can go offline (refuse
 * connections) and come back on the same port, or swallow requests or responses: the network
 * failures the outbox has to survive, on real sockets.
 */
export async function startSwitchableProxy(targetUrl: string): Promise<SwitchableProxy> {
  const target = new URL(targetUrl)
  const forwarded: string[] = []
  const answered: string[] = []
  type Waiter = { list: string[]; match: (line: string) => boolean; resolve: (line: string) => void }
  const waiters: Waiter[] = []
  const held = new Set<ServerResponse>()

  const record = (list: string[], line: string): void => {
    list.push(line)
    for (const w of [...waiters]) {
      if (w.list === list && w.match(line)) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve(line)
      }
    }
  }
  const waitIn = (list: string[], match: (line: string) => boolean): Promise<string> => {
    const found = list.find(match)
    if (found !== undefined) return Promise.resolve(found)
    return new Promise((resolve) => waiters.push({ list, match, resolve }))
  }

  const proxy: SwitchableProxy = {
    url: '',
    forwarded,
    answered,
    mode: 'pass',
    only: null,
    beforeForward: null,
    goOffline,
    goOnline,
    waitForForwarded: (match) => waitIn(forwarded, match),
    waitForAnswered: (match) => waitIn(answered, match),
    close: async () => {
      await goOffline()
    },
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const line = `${req.method} ${req.url}`
    if (proxy.beforeForward !== null) await proxy.beforeForward(line)
    const mode = proxy.only === null || proxy.only(line) ? proxy.mode : 'pass'
    if (mode === 'hold-requests') {
      held.add(res)
      req.resume()
      return
    }
    const holdResponse = mode === 'hold-responses'
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        record(answered, line)
        if (holdResponse) {
          held.add(res)
          answer.resume()
          return
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    upstream.on('error', () => res.destroy())
    // Recorded once the whole request went upstream: from then on the server has it.
    upstream.on('finish', () => record(forwarded, line))
    req.pipe(upstream)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy())
  })
  let port = 0

  async function goOnline(): Promise<void> {
    if (server.listening) return
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject)
        resolve()
      })
    })
    port = (server.address() as AddressInfo).port
  }

  async function goOffline(): Promise<void> {
    for (const res of held) res.destroy()
    held.clear()
    if (!server.listening) return
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    server.closeAllConnections()
    await closed
  }

  await goOnline()
  Object.assign(proxy, { url: `http://127.0.0.1:${port}` })
  return proxy
}
