import type { IncomingHttpHeaders } from 'node:http'
import Fastify, { type FastifyInstance } from 'fastify'
import type { FetchedResponse } from './load'

/** Hop-by-hop and per-response headers that the raw server must produce itself. */
const SKIPPED_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'])

function replayable(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (SKIPPED_HEADERS.has(name) || value === undefined) continue
    out[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}

/**
 * A bare Fastify app answering each path with a captured response (same bytes, same headers):
 * the floor the real server is compared against, with HTTP and framework costs but no work.
 */
export async function startRawServer(
  captured: ReadonlyMap<string, FetchedResponse>,
): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify({ logger: false })
  for (const [path, res] of captured) {
    const headers = replayable(res.headers)
    app.get(path, (_request, reply) => {
      reply.headers(headers).send(res.body)
    })
  }
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  return { app, url }
}
