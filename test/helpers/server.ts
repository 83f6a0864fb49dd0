import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { buildApp, type ServerOptions } from '../../src/server/app'
import { digestToken, generateToken, hashPassword } from '../../src/server/platform/auth/secrets'
import type { UserRow } from '../../src/server/platform/db/rows'
import { insertPersonalToken } from '../../src/server/modules/tokens/queries'
import { insertUser } from '../../src/server/modules/users/queries'

export const ROOT_TOKEN = 'burrow-test-root-token'

export interface TestServer {
  readonly app: FastifyInstance
  readonly dataDir: string
  /** Injects a request as `token` (a personal access token), or anonymously with `null`. */
  request(token: string | null, options: InjectOptions): Promise<LightMyRequestResponse>
  close(): Promise<void>
}

/**
 * A fresh Burrow Server on a temporary data dir with `root` holding ROOT_TOKEN. Not listening.
 * `options.dataDir` opens one made before (see copyDataDir); close() removes it either way.
 */
export async function makeServer(options: Partial<ServerOptions> = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'burrow-server-'))
  const app = await buildApp({ rootToken: ROOT_TOKEN, externalUrl: 'http://burrow.test', ...options, dataDir })
  return {
    app,
    dataDir,
    request(token, opts) {
      const headers = { ...(opts.headers ?? {}) } as Record<string, string>
      if (token) headers['private-token'] = token
      return app.inject({ ...opts, headers })
    },
    async close() {
      await app.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * A copy of the server's data dir as it is now, for a second server to start from the same
 * content (makeServer({dataDir})): the database written whole by VACUUM INTO (its WAL included),
 * the repositories, artifacts and secrets copied beside it.
 */
export function copyDataDir(s: TestServer): string {
  const copy = mkdtempSync(join(tmpdir(), 'burrow-server-copy-'))
  cpSync(s.dataDir, copy, { recursive: true, filter: (path) => !/burrow\.sqlite3(-wal|-shm)?$/.test(path) })
  s.app.burrow.db.prepare('VACUUM INTO ?').run(join(copy, 'burrow.sqlite3'))
  return copy
}

export interface ListeningServer extends TestServer {
  /** `http://127.0.0.1:PORT` */
  readonly url: string
}

/** Like makeServer, but listening on 127.0.0.1 at a free port, for wire tests with real clients. */
export async function startServer(options: Partial<ServerOptions> = {}): Promise<ListeningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'burrow-server-'))
  const probe = await buildApp({ dataDir, rootToken: ROOT_TOKEN, ...options })
  const address = await probe.listen({ host: '127.0.0.1', port: 0 })
  return {
    app: probe,
    dataDir,
    url: address,
    request(token, opts) {
      const headers = { ...(opts.headers ?? {}) } as Record<string, string>
      if (token) headers['private-token'] = token
      return probe.inject({ ...opts, headers })
    },
    async close() {
      await probe.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export interface SeededUser {
  readonly user: UserRow
  /** A personal access token with scopes `api`, `read_user` (or those given). */
  readonly token: string
  readonly password: string
}

let seq = 0

/**
 * Creates a user straight in the database with a personal access token: test setup that does
 * not depend on the endpoints under test.
 */
export function seedUser(
  server: TestServer,
  attrs: {
    username?: string
    name?: string
    email?: string
    admin?: boolean
    scopes?: string[]
    [k: string]: unknown
  } = {},
): SeededUser {
  seq += 1
  const username = attrs.username ?? `user${seq}_${Math.random().toString(36).slice(2, 7)}`
  const password = 'Passw0rd-' + username
  const { admin, scopes, ...rest } = attrs
  const user = insertUser(server.app.burrow.db, {
    ...rest,
    username,
    name: attrs.name ?? `User ${username}`,
    email: attrs.email ?? `${username}@example.com`,
    password_hash: hashPassword(password),
    is_admin: admin ?? false,
  })
  const token = generateToken()
  insertPersonalToken(server.app.burrow.db, {
    userId: user.id,
    name: 'test',
    digest: digestToken(token),
    scopes: scopes ?? ['api', 'read_user'],
    expiresAt: null,
  })
  return { user, token, password }
}
