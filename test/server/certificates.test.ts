import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  certificateText,
  hasIntermediates,
  isExpired,
  keyMatchesCertificate,
  oneLineName,
  parseCertificates,
  parsePrivateKey,
} from '../../src/server/platform/crypto/certificates'
import { decryptSecret, encryptSecret } from '../../src/server/platform/auth/encryption'
import { chainedCertificate, selfSignedCertificate } from '../helpers/certificates'

/** `openssl x509 -text` of a PEM certificate, the reference certificate_text imitates. */
function opensslText(pem: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'burrow-x509-'))
  try {
    writeFileSync(join(dir, 'c.pem'), pem)
    return execFileSync('openssl', ['x509', '-in', join(dir, 'c.pem'), '-noout', '-text']).toString()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('X.509 helpers (auth/certificates.ts)', () => {
  const cert = selfSignedCertificate('text.example')
  const leaf = (parseCertificates(cert.certificate) ?? [])[0]

  it('prints the lines openssl x509 -text prints for version, serial, algorithm, names, validity and key', () => {
    const ours = certificateText(leaf).split('\n')
    const reference = opensslText(cert.certificate).split('\n')
    for (const prefix of [
      '        Version:',
      '        Signature Algorithm:',
      '        Issuer:',
      '            Not Before:',
      '            Not After :',
      '        Subject:',
      '            Public Key Algorithm:',
      '                Public-Key:',
      '                Exponent:',
    ]) {
      expect(
        ours.find((l) => l.startsWith(prefix)),
        prefix,
      ).toBe(reference.find((l) => l.startsWith(prefix)))
    }
    const serialAt = reference.findIndex((l) => l.trim() === 'Serial Number:')
    expect(ours[ours.findIndex((l) => l.trim() === 'Serial Number:') + 1]).toBe(reference[serialAt + 1])
    const modulus = (lines: string[]): string =>
      lines
        .slice(lines.findIndex((l) => l.trim() === 'Modulus:') + 1)
        .filter((l) => /^ {20}[0-9a-f:]+$/.test(l))
        .join('')
    expect(modulus(ours)).toBe(modulus(reference))
  })

  it('gives the subject in OpenSSL one-line form', () => {
    expect(oneLineName(leaf.subject)).toBe('/O=Burrow Test/CN=text.example')
  })

  it('parses every certificate of a chain and refuses junk', () => {
    expect(parseCertificates(chainedCertificate('c.example').chain)).toHaveLength(2)
    expect(parseCertificates('junk')).toBeNull()
    expect(parseCertificates('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----')).toBeNull()
  })

  it('matches a key with its certificate only', () => {
    expect(
      keyMatchesCertificate(parsePrivateKey(cert.key) as NonNullable<ReturnType<typeof parsePrivateKey>>, leaf),
    ).toBe(true)
    const other = parsePrivateKey(selfSignedCertificate('other.example').key) as NonNullable<
      ReturnType<typeof parsePrivateKey>
    >
    expect(keyMatchesCertificate(other, leaf)).toBe(false)
    expect(parsePrivateKey('not a key')).toBeNull()
  })

  it('accepts self-signed certificates and complete chains, refuses a leaf without its issuer', () => {
    const chained = chainedCertificate('chain.example')
    expect(hasIntermediates([leaf])).toBe(true)
    expect(hasIntermediates(parseCertificates(chained.chain) ?? [])).toBe(true)
    expect(hasIntermediates(parseCertificates(chained.certificate) ?? [])).toBe(false)
  })

  it('tells expired certificates', () => {
    const expired = (parseCertificates(selfSignedCertificate('old.example', { expired: true }).certificate) ?? [])[0]
    expect(isExpired(expired)).toBe(true)
    expect(isExpired(leaf)).toBe(false)
  })
})

describe('secrets at rest (auth/encryption.ts)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'burrow-secrets-'))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('round-trips a secret and never stores it in clear', () => {
    const sealed = encryptSecret(dataDir, 'kube-token')
    expect(sealed).not.toContain('kube-token')
    expect(sealed.startsWith('v1:')).toBe(true)
    expect(decryptSecret(dataDir, sealed)).toBe('kube-token')
  })

  it('seals the same secret differently each time (random IV)', () => {
    expect(encryptSecret(dataDir, 'same')).not.toBe(encryptSecret(dataDir, 'same'))
  })

  it('keeps the instance key in a file only its owner can read', () => {
    expect(statSync(join(dataDir, 'secrets', 'db_key')).mode & 0o777).toBe(0o600)
  })

  it('refuses a tampered secret', () => {
    const [v, iv, tag, body] = encryptSecret(dataDir, 'kube-token').split(':')
    const flipped = Buffer.from(body, 'base64')
    flipped[0] ^= 1
    expect(() => decryptSecret(dataDir, [v, iv, tag, flipped.toString('base64')].join(':'))).toThrow()
  })

  it('cannot open a secret sealed under another instance key', () => {
    const otherDir = mkdtempSync(join(tmpdir(), 'burrow-secrets-'))
    try {
      expect(() => decryptSecret(otherDir, encryptSecret(dataDir, 'kube-token'))).toThrow()
    } finally {
      rmSync(otherDir, { recursive: true, force: true })
    }
  })
})
