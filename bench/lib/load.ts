import { Agent, request, type IncomingHttpHeaders } from 'node:http'
import { summarize, type LoadSummary } from './stats'

/** One complete response: status, headers and body bytes. */
export interface FetchedResponse {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

/** GET `url` over `agent`, reading the whole body. */
export function get(
  agent: Agent,
  url: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<FetchedResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', agent, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

export interface LoadOptions {
  readonly url: string
  /** When given, requests cycle through these URLs instead of repeating `url`. */
  readonly urls?: readonly string[]
  readonly headers?: Readonly<Record<string, string>>
  /** Unmeasured requests sent first (JIT, caches, connection set-up). */
  readonly warmup: number
  readonly requests: number
  readonly concurrency: number
}

/** A keep-alive agent sized for `concurrency` sockets. */
export function keepAliveAgent(concurrency: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency })
}

async function drive(agent: Agent, o: LoadOptions, count: number, latencies: number[] | null): Promise<void> {
  let issued = 0
  const worker = async (): Promise<void> => {
    while (issued < count) {
      const url = o.urls ? o.urls[issued % o.urls.length] : o.url
      issued += 1
      const started = process.hrtime.bigint()
      const res = await get(agent, url, o.headers)
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      // A benchmark of error pages would be a lie: stop at the first non-200.
      if (res.status !== 200)
        throw new Error(`GET ${url} answered ${res.status}: ${res.body.toString('utf8').slice(0, 200)}`)
      latencies?.push(ms)
    }
  }
  await Promise.all(Array.from({ length: o.concurrency }, worker))
}

/**
 * Sends `warmup` then `requests` GETs to one URL from `concurrency` concurrent keep-alive
 * connections and summarises the measured ones.
 */
export async function measure(o: LoadOptions): Promise<LoadSummary> {
  const agent = keepAliveAgent(o.concurrency)
  try {
    await drive(agent, o, o.warmup, null)
    const latencies: number[] = []
    const started = process.hrtime.bigint()
    await drive(agent, o, o.requests, latencies)
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6
    return summarize(latencies, elapsedMs)
  } finally {
    agent.destroy()
  }
}
