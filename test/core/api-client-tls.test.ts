import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../src/main/core/api/client'
import { NetworkError } from '../../src/main/core/api/errors'

/** A private CA and a certificate for 127.0.0.1 signed by it, made with the system openssl. */
function makeCertificates(dir: string): { caFile: string; key: string; cert: string } {
  const run = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' })
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Burrow Test CA',
  )
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1')
  const ext = join(dir, 'ext.cnf')
  execFileSync('sh', ['-c', `printf 'subjectAltName=IP:127.0.0.1\\n' > ${ext}`])
  run(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'ext.cnf',
  )
  return {
    caFile: join(dir, 'ca.pem'),
    key: readFileSync(join(dir, 'server.key'), 'utf8'),
    cert: readFileSync(join(dir, 'server.pem'), 'utf8'),
  }
}

describe('ApiClient with a per-account CA file', () => {
  let dir: string
  let server: Server
  let url: string
  let caFile: string
  const seen: (string | undefined)[] = []
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'burrow-tls-'))
    const certs = makeCertificates(dir)
    caFile = certs.caFile
    // A TLS endpoint standing in for a self-managed instance with an internal CA (Burrow Server listens on plain HTTP).
    server = createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
      seen.push(req.headers['private-token'] as string | undefined)
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id: 7, username: 'tls-user' }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    rmSync(dir, { recursive: true, force: true })
  })

  it('trusts the instance when its CA file is given, for that client only', async () => {
    const client = new ApiClient({
      baseUrl: url,
      credentials: async () => ({ kind: 'pat', token: 'tls-token' }),
      caFile,
    })
    expect(await client.get('/user')).toEqual({ id: 7, username: 'tls-user' })
    expect(seen).toContain('tls-token')
  })

  it('refuses the same instance without the CA file, as a TLS NetworkError whose request was never sent', async () => {
    const before = seen.length
    const client = new ApiClient({ baseUrl: url, credentials: async () => ({ kind: 'pat', token: 'tls-token' }) })
    const error = await client.post('/projects', { name: 'x' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NetworkError)
    expect(error).toMatchObject({ failure: 'tls', outcomeUnknown: false })
    expect(seen.length).toBe(before)
  })
})
