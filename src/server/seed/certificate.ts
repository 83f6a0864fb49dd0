/**
 * A self-signed certificate for a demo Pages domain, the same for the same seed and moment.
 * Ed25519 makes that possible: its keys derive from 32 seed bytes and its signatures carry no
 * randomness (RSA keys need random primes; ECDSA signatures a random nonce), so the key comes from
 * the seed and the certificate is assembled here in DER and signed by node:crypto.
 */
import { createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto'

export interface DemoCertificate {
  /** PEM certificate. */
  readonly certificate: string
  /** PEM private key (PKCS#8). */
  readonly key: string
}

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n])
  const bytes: number[] = []
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256)
  return Buffer.from([0x80 | bytes.length, ...bytes])
}

function tlv(tag: number, ...parts: readonly Buffer[]): Buffer {
  const content = Buffer.concat(parts)
  return Buffer.concat([Buffer.from([tag]), length(content.length), content])
}

const sequence = (...parts: readonly Buffer[]): Buffer => tlv(0x30, ...parts)

function integer(bytes: Buffer): Buffer {
  return tlv(0x02, bytes[0] & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes)
}

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number)
  const bytes = [a * 40 + b]
  for (const n of rest) {
    const groups: number[] = []
    for (let v = n; ; v = Math.floor(v / 128)) {
      groups.unshift((v % 128) | (groups.length > 0 ? 0x80 : 0))
      if (v < 128) break
    }
    bytes.push(...groups)
  }
  return tlv(0x06, Buffer.from(bytes))
}

/** UTCTime (`YYMMDDHHMMSSZ`), what certificates use for dates before 2050. */
function utcTime(date: Date): Buffer {
  const text = date.toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z'
  return tlv(0x17, Buffer.from(text, 'ascii'))
}

function name(parts: readonly (readonly [string, string])[]): Buffer {
  return sequence(
    ...parts.map(([type, value]) => tlv(0x31, sequence(oid(type), tlv(0x0c, Buffer.from(value, 'utf8'))))),
  )
}

const ED25519 = '1.3.101.112'
const ORGANIZATION = '2.5.4.10'
const COMMON_NAME = '2.5.4.3'
const SUBJECT_ALT_NAME = '2.5.29.17'
const BASIC_CONSTRAINTS = '2.5.29.19'
// PKCS#8 wrapping of a raw Ed25519 private key (RFC 8410): version 0, the algorithm, the key octets.
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')

function pem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? []
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`
}

/**
 * A self-signed certificate for `domain` (subject `/O=<organization>/CN=<domain>`, the domain as
 * its subject alternative name), valid from `notBefore` to `notAfter`, with its key. The key and
 * serial number come from `seed`, so the same arguments give the same PEM texts.
 */
export function demoCertificate(
  seed: string,
  domain: string,
  organization: string,
  notBefore: Date,
  notAfter: Date,
): DemoCertificate {
  const secret = createHash('sha256').update(`pages-certificate/${seed}/${domain}`).digest()
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, secret]),
    format: 'der',
    type: 'pkcs8',
  })
  const spki = createPublicKey(privateKey).export({ type: 'spki', format: 'der' })
  const serial = createHash('sha256').update(`serial/${seed}/${domain}`).digest().subarray(0, 16)
  serial[0] &= 0x7f
  const subject = name([
    [ORGANIZATION, organization],
    [COMMON_NAME, domain],
  ])
  const algorithm = sequence(oid(ED25519))
  const extensions = tlv(
    0xa3,
    sequence(
      sequence(oid(BASIC_CONSTRAINTS), tlv(0x01, Buffer.from([0xff])), tlv(0x04, sequence())),
      sequence(oid(SUBJECT_ALT_NAME), tlv(0x04, sequence(tlv(0x82, Buffer.from(domain, 'ascii'))))),
    ),
  )
  const tbs = sequence(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(serial),
    algorithm,
    subject,
    sequence(utcTime(notBefore), utcTime(notAfter)),
    subject,
    spki,
    extensions,
  )
  const signature = sign(null, tbs, privateKey)
  const certificate = sequence(tbs, algorithm, tlv(0x03, Buffer.from([0]), signature))
  return {
    certificate: pem('CERTIFICATE', certificate),
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  }
}
