import type { FastifyRequest } from 'fastify'
import { parseParams } from './querystring'

/**
 * The text fields of a `multipart/form-data` body (file parts are skipped), keyed Rails-style as
 * the querystring parser does (`a[]`, `a[b]`). Returns null when the body is not multipart.
 */
export function multipartFields(contentType: string | undefined, body: unknown): Record<string, unknown> | null {
  if (!contentType || !Buffer.isBuffer(body)) return null
  const m = /^multipart\/form-data\s*;.*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)
  if (!m) return null
  const boundary = `--${m[1] ?? m[2]}`
  const text = body.toString('latin1')
  const pairs: string[] = []
  for (const part of text.split(boundary).slice(1)) {
    if (part.startsWith('--')) break
    const headerEnd = part.indexOf('\r\n\r\n')
    if (headerEnd < 0) continue
    const headers = part.slice(0, headerEnd)
    const disposition = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(headers)
    if (!disposition || /\bfilename=/i.test(headers)) continue
    const value = Buffer.from(part.slice(headerEnd + 4).replace(/\r\n$/, ''), 'latin1').toString('utf8')
    pairs.push(`${encodeURIComponent(disposition[1])}=${encodeURIComponent(value)}`)
  }
  return parseParams(pairs.join('&'))
}

/**
 * Route-level preValidation hook: merges multipart text fields into the params, the way the app
 * merges JSON and urlencoded bodies (clients such as gitbeaker send user edits as forms).
 */
export async function mergeMultipartFields(request: FastifyRequest): Promise<void> {
  const fields = multipartFields(request.headers['content-type'], request.body)
  if (!fields) return
  const merged = { ...(request.query as Record<string, unknown>), ...fields }
  request.query = merged
  request.body = merged
}
