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

/** One part of a multipart body, bytes untouched (binary file uploads). */
export interface MultipartPart {
  readonly name: string
  /** The part's filename, null for plain fields. */
  readonly filename: string | null
  readonly contentType: string | null
  readonly content: Buffer
}

/** The parts of a `multipart/form-data` body, binary-safe; null when the body is not multipart. */
export function parseMultipartParts(contentType: string | undefined, body: unknown): MultipartPart[] | null {
  if (!contentType || !Buffer.isBuffer(body)) return null
  const m = /^multipart\/form-data\s*;.*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)
  if (!m) return null
  const delimiter = Buffer.from(`--${m[1] ?? m[2]}`)
  const parts: MultipartPart[] = []
  let at = body.indexOf(delimiter)
  while (at >= 0) {
    const start = at + delimiter.length
    if (body.subarray(start, start + 2).toString('latin1') === '--') break
    const next = body.indexOf(delimiter, start)
    if (next < 0) break
    // Each part sits between "\r\n" after the delimiter and "\r\n" before the next one.
    const part = body.subarray(start + 2, next - 2)
    const headerEnd = part.indexOf('\r\n\r\n')
    if (headerEnd >= 0) {
      const headers = part.subarray(0, headerEnd).toString('utf8')
      const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(headers)
      if (name) {
        const filename = /content-disposition:[^\r\n]*\bfilename="([^"]*)"/i.exec(headers)
        const type = /content-type:\s*([^\r\n]+)/i.exec(headers)
        parts.push({
          name: name[1],
          filename: filename ? filename[1] : null,
          contentType: type ? type[1].trim() : null,
          content: part.subarray(headerEnd + 4),
        })
      }
    }
    at = next
  }
  return parts
}
