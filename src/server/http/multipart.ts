import { parseParams } from './querystring'

/**
 * The fields of a `multipart/form-data` body keyed Rails-style as the querystring parser does
 * (`a[]`, `a[b]`). File parts become their content as text (PEM certificates and keys are sent
 * as files). Returns null when the body is not multipart.
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
    if (!disposition) continue
    const value = Buffer.from(part.slice(headerEnd + 4).replace(/\r\n$/, ''), 'latin1').toString('utf8')
    pairs.push(`${encodeURIComponent(disposition[1])}=${encodeURIComponent(value)}`)
  }
  return parseParams(pairs.join('&'))
}
