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

export function verifyPassword(password: string, stored: string | null): boolean {
  if (!stored) return false
  const [kind, salt, hash] = stored.split('$')
  if (kind !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64')
  const actual = scryptSync(password, Buffer.from(salt, 'base64'), expected.length)
  return timingSafeEqual(expected, actual)
}

/** A random password for `force_random_password` and bot users. */
export function randomPassword(): string {
  return randomBytes(24).toString('base64url')
}
