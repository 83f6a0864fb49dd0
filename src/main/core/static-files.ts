import { readFile, stat } from 'node:fs/promises'
import { extname, join, normalize, resolve, sep } from 'node:path'

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
}

export interface StaticFile {
  readonly body: Buffer
  readonly contentType: string
}

/**
 * Reads `urlPath` under `rootDir`, refusing anything that escapes it. Paths without an
 * extension fall back to index.html (the app routes in the page); missing assets are null.
 */
export async function readStaticFile(rootDir: string, urlPath: string): Promise<StaticFile | null> {
  const root = resolve(rootDir)
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0] ?? '/')
  } catch {
    return null
  }
  if (decoded.includes('\0')) return null
  let path = normalize(join(root, decoded))
  if (path !== root && !path.startsWith(root + sep)) return null
  const isFile = await stat(path).then(
    (s) => s.isFile(),
    () => false,
  )
  if (!isFile) {
    if (extname(decoded) !== '') return null
    path = join(root, 'index.html')
  }
  try {
    const body = await readFile(path)
    return { body, contentType: CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream' }
  } catch {
    return null
  }
}
