import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A request a webhook receiver got. */
export interface ReceivedHook {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: Record<string, unknown>
}

/** A webhook receiver on 127.0.0.1 that records what it is sent and answers what it is told. */
export interface HookReceiver {
  /** `http://127.0.0.1:PORT` */
  readonly url: string
  readonly received: ReceivedHook[]
  /** The status the next requests get (200 unless set); `hang` never answers. */
  answer(status: number | 'hang'): void
  /** Resolves once `count` requests in all have arrived. */
  waitFor(count: number): Promise<void>
  close(): Promise<void>
}

/** Starts a receiver on a free port of 127.0.0.1. */
export async function startHookReceiver(): Promise<HookReceiver> {
  const received: ReceivedHook[] = []
  let status: number | 'hang' = 200
  let waiters: { count: number; resolve: () => void }[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>,
      })
      waiters = waiters.filter((w) => {
        if (received.length < w.count) return true
        w.resolve()
        return false
      })
      if (status === 'hang') return
      res.writeHead(status, { 'content-type': 'text/plain', 'x-receiver': 'yes' }).end(`answered ${status}`)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer(next) {
      status = next
    },
    waitFor(count) {
      if (received.length >= count) return Promise.resolve()
      return new Promise((resolve) => waiters.push({ count, resolve }))
    },
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
