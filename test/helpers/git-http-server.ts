import { spawn } from 'node:child_process'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'

/** A plain git server: `git http-backend` behind a small Node HTTP server with basic auth. */
export interface GitHttpServer {
  /** `http://127.0.0.1:<port>`; repositories are at `<url>/<path under root>`. */
  readonly url: string
  /** Every request as it arrived: method, path and the user it authenticated (null if refused). */
  readonly requests: readonly { readonly method: string; readonly path: string; readonly user: string | null }[]
  close(): Promise<void>
}

function credentialsOf(request: IncomingMessage): { user: string; password: string } | null {
  const m = /^Basic\s+(.+)$/i.exec(request.headers.authorization ?? '')
  if (!m) return null
  const decoded = Buffer.from(m[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  return colon < 0 ? null : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
}

/** Runs `git http-backend` as a CGI program for one request and streams its answer. */
function serveCgi(root: string, user: string, request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://localhost')
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: tmpdir(),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.slice(1),
    REQUEST_METHOD: request.method ?? 'GET',
    CONTENT_TYPE: request.headers['content-type'] ?? '',
    REMOTE_USER: user,
    REMOTE_ADDR: request.socket.remoteAddress ?? '127.0.0.1',
  }
  if (request.headers['content-encoding']) env.HTTP_CONTENT_ENCODING = request.headers['content-encoding']
  if (typeof request.headers['git-protocol'] === 'string') env.GIT_PROTOCOL = request.headers['git-protocol']
  const child = spawn('git', ['http-backend'], { env })
  request.pipe(child.stdin)
  let head = Buffer.alloc(0)
  let headersSent = false
  child.stdout.on('data', (chunk: Buffer) => {
    if (headersSent) {
      response.write(chunk)
      return
    }
    head = Buffer.concat([head, chunk])
    const crlf = head.indexOf('\r\n\r\n')
    const at = crlf >= 0 ? crlf : head.indexOf('\n\n')
    if (at < 0) return
    headersSent = true
    let status = 200
    for (const line of head.subarray(0, at).toString('latin1').split(/\r?\n/)) {
      const colon = line.indexOf(':')
      if (colon < 0) continue
      const name = line.slice(0, colon).trim()
      const value = line.slice(colon + 1).trim()
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 200
      else response.setHeader(name, value)
    }
    response.writeHead(status)
    response.write(head.subarray(at + (crlf >= 0 ? 4 : 2)))
  })
  child.stdout.on('end', () => {
    if (!headersSent) response.writeHead(500)
    response.end()
  })
}

/**
 * Serves the bare repositories under `root` over smart HTTP to one user: requests without
 * basic auth, or with another user or password, get 401 with a challenge, as a git server does.
 */
export async function startGitHttpServer(
  root: string,
  account: { readonly user: string; readonly password: string },
): Promise<GitHttpServer> {
  const requests: { method: string; path: string; user: string | null }[] = []
  const server = createServer((request, response) => {
    const creds = credentialsOf(request)
    const ok = creds !== null && creds.user === account.user && creds.password === account.password
    requests.push({ method: request.method ?? 'GET', path: request.url ?? '/', user: ok ? account.user : null })
    if (!ok) {
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"', 'Content-Type': 'text/plain' })
      response.end('Authentication required\n')
      return
    }
    serveCgi(root, account.user, request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  }
}
