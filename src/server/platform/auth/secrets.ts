import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto'

/** SHA-256 hex digest of a token: tokens are random and long, so a fast digest is enough to store. */
export function digestToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

/** A new random token with GitLab's prefix convention (`glpat-` for personal access tokens). */
export function generateToken(prefix = 'glpat-'): string {
  return prefix + randomBytes(15).toString('base64url')
}

/** scrypt hash of a password as `scrypt$salt$hash`. */
export function hashPassword(password: string): string {
  const salt = randomBytes(16)
  const hash = scryptSync(password, salt, 32)
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`
}

interface ScryptHash {
  readonly salt: Buffer
  readonly hash: Buffer
}

function parsePasswordHash(stored: string | null): ScryptHash | null {
  const [kind, salt, hash] = (stored ?? '').split('$')
  if (kind !== 'scrypt' || !salt || !hash) return null
  return { salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') }
}

/** Stands in for a missing hash: deriving against it costs what a real check costs. */
const NO_HASH: ScryptHash = { salt: randomBytes(16), hash: Buffer.alloc(32) }

/**
 * Whether `password` matches the stored hash. Exactly one scrypt derivation runs whether or not
 * there is a usable hash (a missing user, a user without a password), so the time an answer takes
 * does not tell a wrong password from an unknown account.
 */
export function verifyPassword(password: string, stored: string | null): boolean {
  const parsed = parsePasswordHash(stored)
  const against = parsed ?? NO_HASH
  const actual = scryptSync(password, against.salt, against.hash.length)
  return parsed !== null && timingSafeEqual(against.hash, actual)
}

/** A random password for `force_random_password` and bot users. */
export function randomPassword(): string {
  return randomBytes(24).toString('base64url')
}
