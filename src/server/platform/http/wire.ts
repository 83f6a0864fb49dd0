import type { FastifyReply, FastifyRequest } from 'fastify'
import { booleanWord } from './loose-params'

/**
 * Wire-compatibility shims applied to every route by app.ts, because real GitLab clients
 * depend on details Fastify does differently by default.
 */

/** onSend hook: python-gitlab 3.12 decodes single objects only when the type is exactly `application/json`. */
export async function exactJsonContentType(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  const type = reply.getHeader('content-type')
  if (typeof type === 'string' && type.startsWith('application/json;')) reply.header('content-type', 'application/json')
  return payload
}

/** Names of the boolean properties of a route's querystring or body schema. */
function booleanKeys(schema: unknown): string[] {
  const props = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ?? {}
  return Object.entries(props)
    .filter(([, v]) => v.type === 'boolean')
    .map(([k]) => k)
}

/**
 * preValidation hook: Grape coerces booleans case-insensitively (`True`, `yes`, `1`), and
 * python-gitlab sends Python's `True`; ajv only knows `true`/`false`, so the route schema's
 * boolean parameters are normalised first.
 */
export async function normaliseBooleans(request: FastifyRequest): Promise<void> {
  const schema = request.routeOptions.schema as { querystring?: unknown; body?: unknown } | undefined
  if (!schema) return
  const keys = [...booleanKeys(schema.querystring), ...booleanKeys(schema.body)]
  for (const target of [request.query, request.body]) {
    if (!target || typeof target !== 'object') continue
    const params = target as Record<string, unknown>
    for (const key of keys) {
      const v = params[key]
      if (typeof v !== 'string') continue
      const value = booleanWord(v)
      if (value !== undefined) params[key] = value
    }
  }
}
