import type { FastifyReply } from 'fastify'

/**
 * Raw user content (repository files and blobs, snippets, artifacts, archives, uploads) served so
 * that no browser ever runs it, as GitLab's Workhorse serves blobs: text as `text/plain;
 * charset=utf-8` (HTML and SVG included), raster images in their own type, anything else as an
 * `application/octet-stream` download, each under a sandboxing Content-Security-Policy (and the
 * global `nosniff`, see security-headers.ts), so even a document opened directly has no script,
 * no plugins and no origin.
 */

/** Forbids everything a document could load or run, and gives it a unique, opaque origin. */
export const RAW_CONTENT_POLICY = "default-src 'none'; sandbox"

/** Raster image formats a browser may show inline, by their leading bytes; SVG is text, never an image here. */
const SAFE_IMAGES: readonly { readonly type: string; readonly matches: (head: Buffer) => boolean }[] = [
  {
    type: 'image/png',
    matches: (h) => h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { type: 'image/jpeg', matches: (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff },
  { type: 'image/gif', matches: (h) => /^GIF8[79]a/.test(h.subarray(0, 6).toString('latin1')) },
  {
    type: 'image/webp',
    matches: (h) => h.subarray(0, 4).toString('latin1') === 'RIFF' && h.subarray(8, 12).toString('latin1') === 'WEBP',
  },
  { type: 'image/bmp', matches: (h) => h.subarray(0, 2).toString('latin1') === 'BM' && h.length >= 26 },
  { type: 'image/x-icon', matches: (h) => h.subarray(0, 4).equals(Buffer.from([0, 0, 1, 0])) },
  { type: 'image/tiff', matches: (h) => ['II*\0', 'MM\0*'].includes(h.subarray(0, 4).toString('latin1')) },
]

/** What a raw body is served as: its Content-Type and whether it is shown or downloaded. */
export interface RawKind {
  readonly type: string
  readonly disposition: 'inline' | 'attachment'
}

/**
 * The kind of raw content: a safe raster image by its signature, else text unless a NUL byte
 * appears in its first 8,000 bytes (git's own binary test), else a download.
 */
export function rawKind(content: Buffer | string): RawKind {
  if (typeof content === 'string') return { type: 'text/plain; charset=utf-8', disposition: 'inline' }
  const head = content.subarray(0, 8000)
  const image = SAFE_IMAGES.find((i) => i.matches(head))
  if (image) return { type: image.type, disposition: 'inline' }
  if (head.includes(0)) return { type: 'application/octet-stream', disposition: 'attachment' }
  return { type: 'text/plain; charset=utf-8', disposition: 'inline' }
}

/**
 * A Content-Disposition value naming `filename` safely (RFC 6266): a plain ASCII `filename`, with
 * quotes, backslashes, control and non-ASCII characters replaced, and when that changed the name,
 * the exact name as UTF-8 in `filename*`. A name can never break out of the header.
 */
export function contentDisposition(disposition: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_')
  if (ascii === filename) return `${disposition}; filename="${ascii}"`
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`
}

/** Sets the headers of raw content on `reply`: the type and disposition of `kind`, the file name and the sandboxing policy. */
export function rawContentHeaders(reply: FastifyReply, filename: string, kind: RawKind): FastifyReply {
  return reply
    .header('Content-Type', kind.type)
    .header('Content-Disposition', contentDisposition(kind.disposition, filename))
    .header('Content-Security-Policy', RAW_CONTENT_POLICY)
}

/** Sends `content` as raw user content named `filename` (see rawKind). */
export function sendRawContent(reply: FastifyReply, content: Buffer | string, filename: string): FastifyReply {
  return rawContentHeaders(reply, filename, rawKind(content)).send(content)
}

/** The kind of a download that is never shown: archives and artifacts. */
export const DOWNLOAD: RawKind = { type: 'application/octet-stream', disposition: 'attachment' }
