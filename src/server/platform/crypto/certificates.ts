import { X509Certificate, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto'
import { rootCertificates } from 'node:tls'

/**
 * X.509 helpers for Pages domains and cluster CA certificates, on node:crypto: parsing PEM
 * chains, the OpenSSL-style one-line subject and text dump GitLab shows, key/certificate
 * matching and chain completeness.
 */

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g

/** Every certificate of a PEM text, in order; null when there is none or one does not parse. */
export function parseCertificates(pem: string): X509Certificate[] | null {
  const blocks = pem.match(PEM_CERTIFICATE)
  if (!blocks) return null
  try {
    return blocks.map((b) => new X509Certificate(b))
  } catch {
    return null
  }
}

/** The private key of a PEM text, or null when it holds none that parses (encrypted keys included). */
export function parsePrivateKey(pem: string): KeyObject | null {
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem)) return null
  try {
    return createPrivateKey({ key: pem, format: 'pem' })
  } catch {
    return null
  }
}

/** True when the private key belongs to the certificate's public key. */
export function keyMatchesCertificate(key: KeyObject, certificate: X509Certificate): boolean {
  const fromKey = createPublicKey(key).export({ type: 'spki', format: 'der' })
  const fromCert = certificate.publicKey.export({ type: 'spki', format: 'der' })
  return fromKey.equals(fromCert)
}

function selfSigned(c: X509Certificate): boolean {
  return c.checkIssued(c) && c.verify(c.publicKey)
}

let trustedRoots: X509Certificate[] | null = null

function roots(): X509Certificate[] {
  trustedRoots ??= rootCertificates.flatMap((pem) => {
    try {
      return [new X509Certificate(pem)]
    } catch {
      return []
    }
  })
  return trustedRoots
}

/**
 * True when the chain is complete: the leaf is self-signed, or each certificate is signed by the
 * next one given or by a root the system trusts (GitLab's "misses intermediates" rule).
 */
export function hasIntermediates(chain: readonly X509Certificate[]): boolean {
  let current = chain[0]
  if (!current) return false
  const given = chain.slice(1)
  for (let depth = 0; depth < 10; depth += 1) {
    if (selfSigned(current)) return true
    const issuedBy = (c: X509Certificate): boolean => current.checkIssued(c) && current.verify(c.publicKey)
    if (roots().some(issuedBy)) return true
    const next = given.find(issuedBy)
    if (!next) return false
    current = next
  }
  return false
}

/** True when now is outside the certificate's validity period. */
export function isExpired(c: X509Certificate, now = new Date()): boolean {
  return now < new Date(c.validFrom) || new Date(c.validTo) < now
}

/** OpenSSL's one-line form of a distinguished name: `/O=Example, Inc./CN=example.com`. */
export function oneLineName(name: string): string {
  return name
    .split('\n')
    .filter((p) => p !== '')
    .map((p) => `/${p}`)
    .join('')
}

// --- A minimal DER reader: node:crypto exposes neither the version nor the signature algorithm.

interface Tlv {
  readonly tag: number
  readonly start: number
  readonly end: number
}

function readTlv(der: Buffer, offset: number): Tlv {
  const tag = der[offset]
  let length = der[offset + 1]
  let start = offset + 2
  if (length & 0x80) {
    const bytes = length & 0x7f
    length = 0
    for (let i = 0; i < bytes; i += 1) length = length * 256 + der[offset + 2 + i]
    start += bytes
  }
  return { tag, start, end: start + length }
}

function oidText(der: Buffer, tlv: Tlv): string {
  const bytes = der.subarray(tlv.start, tlv.end)
  const parts = [Math.floor(bytes[0] / 40), bytes[0] % 40]
  let value = 0
  for (const b of bytes.subarray(1)) {
    value = value * 128 + (b & 0x7f)
    if (!(b & 0x80)) {
      parts.push(value)
      value = 0
    }
  }
  return parts.join('.')
}

const SIGNATURE_ALGORITHMS: Readonly<Record<string, string>> = {
  '1.2.840.113549.1.1.4': 'md5WithRSAEncryption',
  '1.2.840.113549.1.1.5': 'sha1WithRSAEncryption',
  '1.2.840.113549.1.1.10': 'rsassaPss',
  '1.2.840.113549.1.1.11': 'sha256WithRSAEncryption',
  '1.2.840.113549.1.1.12': 'sha384WithRSAEncryption',
  '1.2.840.113549.1.1.13': 'sha512WithRSAEncryption',
  '1.2.840.10045.4.3.2': 'ecdsa-with-SHA256',
  '1.2.840.10045.4.3.3': 'ecdsa-with-SHA384',
  '1.2.840.10045.4.3.4': 'ecdsa-with-SHA512',
  '1.3.101.112': 'ED25519',
  '1.3.101.113': 'ED448',
}

/** Version number and signature algorithm name from the DER of a certificate. */
function versionAndAlgorithm(der: Buffer): { readonly version: number; readonly algorithm: string } {
  try {
    const cert = readTlv(der, 0)
    const tbs = readTlv(der, cert.start)
    let cursor = tbs.start
    let version = 1
    const first = readTlv(der, cursor)
    if (first.tag === 0xa0) {
      const integer = readTlv(der, first.start)
      version = der[integer.start] + 1
      cursor = first.end
    }
    const serial = readTlv(der, cursor)
    const algorithm = readTlv(der, serial.end)
    const oid = oidText(der, readTlv(der, algorithm.start))
    return { version, algorithm: SIGNATURE_ALGORITHMS[oid] ?? oid }
  } catch {
    return { version: 3, algorithm: 'unknown' }
  }
}

/** `aa:bb:…` lines of 15 bytes, as OpenSSL prints long numbers. */
function hexBlock(hex: string, indent: string): string {
  const bytes = (hex.length % 2 === 1 ? `0${hex}` : hex).match(/../g) ?? []
  const lines: string[] = []
  for (let i = 0; i < bytes.length; i += 15)
    lines.push(indent + bytes.slice(i, i + 15).join(':') + (i + 15 < bytes.length ? ':' : ''))
  return lines.join('\n')
}

function commaName(name: string): string {
  return name
    .split('\n')
    .filter((p) => p !== '')
    .map((p) => p.replace('=', ' = '))
    .join(', ')
}

function publicKeyLines(c: X509Certificate): string[] {
  const key = c.publicKey
  const type = key.asymmetricKeyType ?? 'unknown'
  const lines: string[] = []
  if (type === 'rsa' || type === 'rsa-pss') {
    const jwk = key.export({ format: 'jwk' })
    const modulus = Buffer.from(String(jwk.n), 'base64url')
    const exponent = Buffer.from(String(jwk.e), 'base64url').readUIntBE(
      0,
      Buffer.from(String(jwk.e), 'base64url').length,
    )
    const modHex = (modulus[0] & 0x80 ? '00' : '') + modulus.toString('hex')
    lines.push(`            Public Key Algorithm: ${type === 'rsa' ? 'rsaEncryption' : 'rsassaPss'}`)
    lines.push(`                Public-Key: (${modulus.length * 8} bit)`)
    lines.push('                Modulus:')
    lines.push(hexBlock(modHex, '                    '))
    lines.push(`                Exponent: ${exponent} (0x${exponent.toString(16)})`)
  } else if (type === 'ec') {
    const details = key.asymmetricKeyDetails
    const spki = key.export({ type: 'spki', format: 'der' })
    lines.push('            Public Key Algorithm: id-ecPublicKey')
    lines.push(`                ASN1 OID: ${details?.namedCurve ?? 'unknown'}`)
    lines.push('                pub:')
    lines.push(hexBlock(spki.subarray(spki.length - 65).toString('hex'), '                    '))
  } else {
    lines.push(`            Public Key Algorithm: ${type.toUpperCase()}`)
  }
  return lines
}

/**
 * A text dump of the certificate in the layout of `openssl x509 -text` (GitLab's
 * certificate_text), built from what node:crypto exposes plus the version and signature
 * algorithm read from the DER.
 */
export function certificateText(c: X509Certificate): string {
  const { version, algorithm } = versionAndAlgorithm(c.raw)
  const lines = [
    'Certificate:',
    '    Data:',
    `        Version: ${version} (0x${(version - 1).toString(16)})`,
    '        Serial Number:',
    `            ${(c.serialNumber.length % 2 === 1 ? `0${c.serialNumber}` : c.serialNumber).toLowerCase().match(/../g)?.join(':') ?? ''}`,
    `        Signature Algorithm: ${algorithm}`,
    `        Issuer: ${commaName(c.issuer)}`,
    '        Validity',
    `            Not Before: ${c.validFrom}`,
    `            Not After : ${c.validTo}`,
    `        Subject: ${commaName(c.subject)}`,
    '        Subject Public Key Info:',
    ...publicKeyLines(c),
  ]
  const extensions: string[] = []
  if (c.subjectAltName)
    extensions.push('            X509v3 Subject Alternative Name: ', `                ${c.subjectAltName}`)
  if (c.keyUsage && c.keyUsage.length > 0)
    extensions.push('            X509v3 Extended Key Usage: ', `                ${c.keyUsage.join(', ')}`)
  extensions.push('            X509v3 Basic Constraints: ', `                CA:${c.ca ? 'TRUE' : 'FALSE'}`)
  lines.push('        X509v3 extensions:', ...extensions)
  lines.push(`    Signature Algorithm: ${algorithm}`)
  lines.push(`    SHA256 Fingerprint=${c.fingerprint256}`)
  return lines.join('\n') + '\n'
}
