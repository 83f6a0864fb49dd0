import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'

const bufferEtags = new WeakMap<Buffer, string>()

/**
 * `W/"…"` from the serialized body, as Rack::ETag computes GitLab's (a SHA-256 digest, 32 hex
 * digits). Kept per Buffer: an answer sent again from memory (answer-memo.ts) is the same Buffer,
 * never changed after it was first sent, so it is hashed once.
 */
export function weakEtag(body: string | Buffer): string {
  const known = typeof body === 'string' ? undefined : bufferEtags.get(body)
  if (known !== undefined) return known
  const etag = `W/"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`
  if (typeof body !== 'string') bufferEtags.set(body, etag)
  return etag
}

/**
 * Whether `If-None-Match` names `etag`: `*`, or one of its comma-separated tags compared weakly
 * (RFC 9110 §13.1.2: `W/` prefixes ignored, the opaque quoted strings equal).
 */
export function noneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  const opaque = (tag: string): string => tag.trim().replace(/^W\//, '')
  const wanted = opaque(etag)
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === wanted)
}

/**
 * onSend hook: what GitLab's Rack::ETag middleware does for its API. A successful GET (or HEAD)
 * whose body is JSON already serialized gets a weak ETag over that body, and
 * `Cache-Control: max-age=0, private, must-revalidate` unless the route set its own; when the
 * request's `If-None-Match` names that ETag, the answer becomes a 304 without a body (the other
 * headers, pagination included, stay). Streams (archives, raw files, git) and non-JSON bodies
 * are left alone, as are answers that already carry an ETag or say `no-store`.
 */
export async function jsonEtag(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return payload
  if (reply.statusCode !== 200) return payload
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload
  const type = reply.getHeader('content-type')
  if (typeof type !== 'string' || !type.startsWith('application/json')) return payload
  if (reply.hasHeader('etag')) return payload
  const cacheControl = reply.getHeader('cache-control')
  if (typeof cacheControl === 'string' && /no-store/i.test(cacheControl)) return payload
  const etag = weakEtag(payload)
  reply.header('etag', etag)
  if (cacheControl === undefined) reply.header('cache-control', 'max-age=0, private, must-revalidate')
  const ifNoneMatch = request.headers['if-none-match']
  if (!noneMatchHits(Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch, etag)) return payload
  reply.code(304)
  reply.removeHeader('content-type')
  reply.removeHeader('content-length')
  return ''
}
