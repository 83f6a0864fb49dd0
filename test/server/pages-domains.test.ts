import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { findProjectPagesDomain } from '../../src/server/modules/pages-domains/queries'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { pagesDomainKey } from '../../src/server/modules/pages-domains/service'
import { chainedCertificate, selfSignedCertificate, type TestCertificate } from '../helpers/certificates'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { ROOT_TOKEN, makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

/** What `openssl x509 -noout -subject -nameopt compat` prints, without the `subject=` prefix. */
function opensslSubject(pem: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'burrow-subject-'))
  try {
    writeFileSync(join(dir, 'c.pem'), pem)
    return execFileSync('openssl', ['x509', '-in', join(dir, 'c.pem'), '-noout', '-subject', '-nameopt', 'compat'])
      .toString()
      .trim()
      .replace(/^subject=/, '')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function multipart(fields: Readonly<Record<string, { value: string; filename?: string }>>): {
  body: Buffer
  contentType: string
} {
  const boundary = '----burrow-test-boundary'
  const parts = Object.entries(fields).map(([name, f]) => {
    const disposition = `Content-Disposition: form-data; name="${name}"${f.filename ? `; filename="${f.filename}"` : ''}`
    const type = f.filename ? '\r\nContent-Type: application/x-pem-file' : ''
    return `--${boundary}\r\n${disposition}${type}\r\n\r\n${f.value}\r\n`
  })
  return {
    body: Buffer.from(parts.join('') + `--${boundary}--\r\n`),
    contentType: `multipart/form-data; boundary=${boundary}`,
  }
}

describe('Pages domains', () => {
  let s: TestServer
  let group: NamespaceRow
  let project: ProjectRow
  let other: ProjectRow
  let maintainer: SeededUser
  let developer: SeededUser
  let otherMaintainer: SeededUser
  let cert: TestCertificate
  let expired: TestCertificate
  let stranger: TestCertificate

  const req = (
    token: string | null,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
  ) => s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
  const base = (): string => `/projects/${project.id}/pages/domains`

  beforeAll(async () => {
    s = await makeServer()
    group = seedGroup(s, { path: 'sites' })
    project = seedProject(s, { namespaceId: group.id, path: 'www' })
    other = seedProject(s, { namespaceId: group.id, path: 'blog' })
    maintainer = seedUser(s)
    developer = seedUser(s)
    otherMaintainer = seedUser(s)
    seedMember(s, 'Project', project.id, maintainer.user.id, AccessLevel.MAINTAINER)
    seedMember(s, 'Project', project.id, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', other.id, otherMaintainer.user.id, AccessLevel.MAINTAINER)
    cert = selfSignedCertificate('ssl.domain.example')
    expired = selfSignedCertificate('old.domain.example', { expired: true })
    stranger = selfSignedCertificate('stranger.example')
  })
  afterAll(async () => {
    await s.close()
  })

  describe('POST /projects/:id/pages/domains', () => {
    it('adds a plain-HTTP domain (201) carrying only domain and url', async () => {
      const res = await req(maintainer.token, 'POST', base(), { domain: 'www.domain.example' })
      expect(res.statusCode).toBe(201)
      expect(res.json()).toEqual({ domain: 'www.domain.example', url: 'http://www.domain.example' })
    })

    it('adds a domain with certificate and key, parsed from PEM', async () => {
      const res = await req(maintainer.token, 'POST', base(), {
        domain: 'ssl.domain.example',
        certificate: cert.certificate,
        key: cert.key,
      })
      expect(res.statusCode).toBe(201)
      const body = res.json()
      expect(body).toMatchObject({
        domain: 'ssl.domain.example',
        url: 'https://ssl.domain.example',
        auto_ssl_enabled: false,
      })
      expect(body.certificate.subject).toBe(opensslSubject(cert.certificate))
      expect(body.certificate.subject).toBe('/O=Burrow Test/CN=ssl.domain.example')
      expect(body.certificate.expired).toBe(false)
      expect(body.certificate.certificate).toBe(cert.certificate)
      expect(body.certificate.certificate_text).toMatch(/^Certificate:\n {4}Data:\n {8}Version: 3 \(0x2\)\n/)
      expect(body.certificate.certificate_text).toContain('Subject: O = Burrow Test, CN = ssl.domain.example')
      expect(body.certificate.certificate_text).toContain('Public-Key: (2048 bit)')
      expect(res.body).not.toContain('PRIVATE KEY')
    })

    it('keeps the private key sealed in the database', () => {
      const row = findProjectPagesDomain(s.app.burrow.db, project.id, 'ssl.domain.example')
      expect(row?.encrypted_key).not.toContain('PRIVATE KEY')
      expect(pagesDomainKey(s.app.burrow, row as NonNullable<typeof row>)).toBe(cert.key)
    })

    it('takes certificate and key uploaded as files (multipart)', async () => {
      const upload = selfSignedCertificate('files.domain.example')
      const { body, contentType } = multipart({
        domain: { value: 'files.domain.example' },
        certificate: { value: upload.certificate, filename: 'cert.pem' },
        key: { value: upload.key, filename: 'key.pem' },
      })
      const res = await s.request(maintainer.token, {
        method: 'POST',
        url: `/api/v4${base()}`,
        headers: { 'content-type': contentType },
        payload: body,
      })
      expect(res.statusCode).toBe(201)
      expect(res.json().certificate.subject).toBe('/O=Burrow Test/CN=files.domain.example')
    })

    it('accepts a chain with its intermediate, most specific first', async () => {
      const chained = chainedCertificate('chain.domain.example')
      const res = await req(maintainer.token, 'POST', base(), {
        domain: 'chain.domain.example',
        certificate: chained.chain,
        key: chained.key,
      })
      expect(res.statusCode).toBe(201)
      expect(res.json().certificate.subject).toBe('/O=Burrow Test/CN=chain.domain.example')
    })

    it('answers 400 misses intermediates for a leaf without its issuer', async () => {
      const chained = chainedCertificate('leaf.domain.example')
      const res = await req(maintainer.token, 'POST', base(), {
        domain: 'leaf.domain.example',
        certificate: chained.certificate,
        key: chained.key,
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: { certificate: ['misses intermediates'] } })
    })

    it('answers 400 when the key does not match the certificate', async () => {
      const res = await req(maintainer.token, 'POST', base(), {
        domain: 'mismatch.domain.example',
        certificate: cert.certificate,
        key: stranger.key,
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: { key: ["doesn't match the certificate"] } })
    })

    it('answers 400 for PEM that is not a certificate or not a key', async () => {
      const res = await req(maintainer.token, 'POST', base(), {
        domain: 'junk.domain.example',
        certificate: 'not a certificate',
        key: 'not a key',
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({
        message: {
          certificate: ['must be a valid PEM certificate'],
          key: ['must be a valid PEM private key', "doesn't match the certificate"],
        },
      })
    })

    it('answers 400 for a certificate without its key', async () => {
      const res = await req(maintainer.token, 'POST', base(), {
        domain: 'half.domain.example',
        certificate: cert.certificate,
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'certificate, key provide all or none of parameters' })
    })

    it('reports an expired certificate as expired', async () => {
      const res = await req(maintainer.token, 'POST', base(), {
        domain: 'old.domain.example',
        certificate: expired.certificate,
        key: expired.key,
      })
      expect(res.statusCode).toBe(201)
      expect(res.json().certificate.expired).toBe(true)
    })

    it('stores auto_ssl_enabled', async () => {
      const res = await req(maintainer.token, 'POST', base(), { domain: 'auto.domain.example', auto_ssl_enabled: true })
      expect(res.json()).toEqual({
        domain: 'auto.domain.example',
        url: 'http://auto.domain.example',
        auto_ssl_enabled: true,
      })
    })

    it('answers 400 for a domain another project already has, whatever its case', async () => {
      const res = await req(otherMaintainer.token, 'POST', `/projects/${other.id}/pages/domains`, {
        domain: 'WWW.Domain.Example',
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: { domain: ['has already been taken'] } })
    })

    it('answers 400 for a name that is not a hostname, and for a missing domain', async () => {
      expect((await req(maintainer.token, 'POST', base(), { domain: 'bad_domain!.example' })).json()).toEqual({
        message: { domain: ['is not a valid hostname'] },
      })
      expect((await req(maintainer.token, 'POST', base(), {})).json()).toEqual({ error: 'domain is missing' })
    })

    it('needs Maintainer (403 for Developers)', async () => {
      expect((await req(developer.token, 'POST', base(), { domain: 'dev.domain.example' })).statusCode).toBe(403)
      expect((await req(developer.token, 'GET', base())).statusCode).toBe(403)
    })
  })

  describe('GET', () => {
    it('lists the project domains by name', async () => {
      const res = await req(maintainer.token, 'GET', base())
      expect(res.statusCode).toBe(200)
      expect(res.json().map((d: { domain: string }) => d.domain)).toEqual([
        'auto.domain.example',
        'chain.domain.example',
        'files.domain.example',
        'old.domain.example',
        'ssl.domain.example',
        'www.domain.example',
      ])
    })

    it('gets one domain and answers 404 PagesDomain Not Found for another', async () => {
      expect((await req(maintainer.token, 'GET', `${base()}/ssl.domain.example`)).json()).toMatchObject({
        domain: 'ssl.domain.example',
        url: 'https://ssl.domain.example',
      })
      const res = await req(maintainer.token, 'GET', `${base()}/nope.example`)
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: '404 PagesDomain Not Found' })
    })

    it('lists every domain of the instance to administrators, with project_id and expiration', async () => {
      await req(otherMaintainer.token, 'POST', `/projects/${other.id}/pages/domains`, { domain: 'blog.example' })
      const res = await req(ROOT_TOKEN, 'GET', '/pages/domains?per_page=100')
      expect(res.statusCode).toBe(200)
      const byDomain = new Map((res.json() as { domain: string }[]).map((d) => [d.domain, d]))
      expect(byDomain.get('blog.example')).toEqual({
        domain: 'blog.example',
        url: 'http://blog.example',
        project_id: other.id,
      })
      const ssl = byDomain.get('ssl.domain.example') as Record<string, unknown>
      expect(ssl).toMatchObject({
        project_id: project.id,
        url: 'https://ssl.domain.example',
        certificate: { expired: false, expiration: expect.any(String) },
      })
      expect(ssl.certificate).not.toHaveProperty('certificate_text')
      expect(byDomain.get('old.domain.example')).toMatchObject({ certificate: { expired: true } })
    })

    it('filters the instance list by domain, case-insensitively, and answers 404 for an unknown one', async () => {
      expect(
        (await req(ROOT_TOKEN, 'GET', '/pages/domains?domain=BLOG.example'))
          .json()
          .map((d: { domain: string }) => d.domain),
      ).toEqual(['blog.example'])
      expect((await req(ROOT_TOKEN, 'GET', '/pages/domains?domain=missing.example')).statusCode).toBe(404)
    })

    it('refuses the instance list to non-administrators (403) and anonymous callers (401)', async () => {
      expect((await req(maintainer.token, 'GET', '/pages/domains')).statusCode).toBe(403)
      expect((await req(null, 'GET', '/pages/domains')).statusCode).toBe(401)
    })
  })

  describe('PUT /projects/:id/pages/domains/:domain', () => {
    it('adds a certificate to a plain-HTTP domain, which becomes https', async () => {
      const fresh = selfSignedCertificate('www.domain.example')
      const res = await req(maintainer.token, 'PUT', `${base()}/www.domain.example`, {
        certificate: fresh.certificate,
        key: fresh.key,
      })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({
        url: 'https://www.domain.example',
        certificate: { subject: '/O=Burrow Test/CN=www.domain.example' },
      })
    })

    it('replaces the certificate alone when the stored key matches it', async () => {
      const row = findProjectPagesDomain(s.app.burrow.db, project.id, 'ssl.domain.example')
      const key = pagesDomainKey(s.app.burrow, row as NonNullable<typeof row>) as string
      const dir = mkdtempSync(join(tmpdir(), 'burrow-renew-'))
      writeFileSync(join(dir, 'key.pem'), key)
      execFileSync('openssl', [
        'req',
        '-x509',
        '-new',
        '-key',
        join(dir, 'key.pem'),
        '-subj',
        '/O=Burrow Test/CN=renewed.domain.example',
        '-days',
        '90',
        '-out',
        join(dir, 'cert.pem'),
      ])
      const renewed = readFileSync(join(dir, 'cert.pem'), 'utf8')
      rmSync(dir, { recursive: true, force: true })
      const res = await req(maintainer.token, 'PUT', `${base()}/ssl.domain.example`, { certificate: renewed })
      expect(res.statusCode).toBe(200)
      expect(res.json().certificate.subject).toBe('/O=Burrow Test/CN=renewed.domain.example')
    })

    it('answers 400 when a new certificate does not match the stored key', async () => {
      const res = await req(maintainer.token, 'PUT', `${base()}/ssl.domain.example`, {
        certificate: stranger.certificate,
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: { key: ["doesn't match the certificate"] } })
    })

    it('removes the certificate when certificate and key are sent empty', async () => {
      const res = await req(maintainer.token, 'PUT', `${base()}/old.domain.example`, { certificate: '', key: '' })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ domain: 'old.domain.example', url: 'http://old.domain.example' })
      expect(findProjectPagesDomain(s.app.burrow.db, project.id, 'old.domain.example')?.encrypted_key).toBeNull()
    })

    it('turns automatic certificates on and off', async () => {
      const on = await req(maintainer.token, 'PUT', `${base()}/auto.domain.example`, { auto_ssl_enabled: true })
      expect(on.json()).toEqual({
        domain: 'auto.domain.example',
        url: 'http://auto.domain.example',
        auto_ssl_enabled: true,
      })
      const listed = (await req(ROOT_TOKEN, 'GET', '/pages/domains?domain=auto.domain.example')).json()
      expect(listed).toEqual([
        {
          domain: 'auto.domain.example',
          url: 'http://auto.domain.example',
          project_id: project.id,
          auto_ssl_enabled: true,
        },
      ])
      // Off again and without a certificate, it is a plain-HTTP domain once more.
      const off = await req(maintainer.token, 'PUT', `${base()}/auto.domain.example`, { auto_ssl_enabled: false })
      expect(off.json()).toEqual({ domain: 'auto.domain.example', url: 'http://auto.domain.example' })
      const withCertificate = (await req(maintainer.token, 'GET', `${base()}/ssl.domain.example`)).json()
      expect(withCertificate.auto_ssl_enabled).toBe(false)
    })

    it('answers 404 for an unknown domain', async () => {
      expect(
        (await req(maintainer.token, 'PUT', `${base()}/nope.example`, { auto_ssl_enabled: true })).statusCode,
      ).toBe(404)
    })
  })

  describe('DELETE /projects/:id/pages/domains/:domain', () => {
    it('removes the domain (204), freeing the name for other projects', async () => {
      expect((await req(maintainer.token, 'DELETE', `${base()}/files.domain.example`)).statusCode).toBe(204)
      expect((await req(maintainer.token, 'GET', `${base()}/files.domain.example`)).statusCode).toBe(404)
      expect(
        (
          await req(otherMaintainer.token, 'POST', `/projects/${other.id}/pages/domains`, {
            domain: 'files.domain.example',
          })
        ).statusCode,
      ).toBe(201)
    })
  })

  it('records audit events without the private key', () => {
    const details = (s.app.burrow.db.prepare('SELECT details FROM audit_events').all() as { details: string }[]).map(
      (r) => r.details,
    )
    expect(details.join('\n')).not.toContain('PRIVATE KEY')
    expect(details.map((d) => JSON.parse(d).custom_message)).toEqual(
      expect.arrayContaining([
        'Added Pages domain ssl.domain.example with a certificate',
        'Removed Pages domain files.domain.example',
      ]),
    )
  })

  it('answers 404 everywhere while Pages is disabled on the instance', async () => {
    s.app.burrow.settings.update({ pages_enabled: false })
    try {
      for (const [token, url] of [
        [maintainer.token, base()],
        [ROOT_TOKEN, '/pages/domains'],
      ] as const) {
        const res = await req(token, 'GET', url)
        expect(res.statusCode).toBe(404)
        expect(res.json()).toEqual({ message: '404 Not Found' })
      }
      expect((await req(maintainer.token, 'POST', base(), { domain: 'disabled.example' })).statusCode).toBe(404)
    } finally {
      s.app.burrow.settings.update({ pages_enabled: true })
    }
  })
})
