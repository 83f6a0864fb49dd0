import type { FastifyReply, FastifyRequest } from 'fastify'

/**
 * The browser-hardening headers GitLab sends on every response (Rails' default headers on the
 * API, Workhorse's on blobs): no MIME sniffing, no framing by other sites, and a referrer that
 * never leaks a path across origins.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'SAMEORIGIN',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
}

/** Rack::ETag's default for a response it tags: cacheable only by the caller, always revalidated. */
export const PRIVATE_REVALIDATE = 'max-age=0, private, must-revalidate'

/**
 * onSend hook, registered after jsonEtag: adds SECURITY_HEADERS to every answer (API, git, OAuth,
 * GraphQL, uploads, errors) and the Cache-Control GitLab's Rack::ETag gives an answer that set
 * none: `max-age=0, private, must-revalidate` for a 200 or 201, `no-cache` for anything else, so
 * no shared cache keeps a private answer. A route's own Cache-Control (avatars, git) stays.
 */
export async function securityHeaders(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  reply.headers(SECURITY_HEADERS)
  if (!reply.hasHeader('cache-control'))
    reply.header(
      'cache-control',
      reply.statusCode === 200 || reply.statusCode === 201 ? PRIVATE_REVALIDATE : 'no-cache',
    )
  return payload
}
