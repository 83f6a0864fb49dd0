import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Encryption at rest for secrets the server must read back (CI variables, pipeline variables,
 * registration tokens, cluster tokens, Pages private keys, alert and error tracking keys), like
 * GitLab's attr_encrypted with `db_key_base`: AES-256-GCM under a random instance key kept in
 * `<data-dir>/secrets/db_key` (mode 0600, its folder 0700), outside the database, so a copy of
 * the database alone reveals nothing.
 */

const VERSION = 'v1'
const keys = new Map<string, Buffer>()

/** The instance key of a data directory, created on first use. */
function instanceKey(dataDir: string): Buffer {
  let key = keys.get(dataDir)
  if (key) return key
  const dir = join(dataDir, 'secrets')
  const file = join(dir, 'db_key')
  try {
    key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')
  } catch {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    chmodSync(dir, 0o700)
    const fresh = randomBytes(32)
    try {
      // 'wx' refuses to overwrite: a key written by another process in between wins.
      writeFileSync(file, fresh.toString('base64'), { mode: 0o600, flag: 'wx' })
      key = fresh
    } catch {
      key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')
    }
  }
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`)
  keys.set(dataDir, key)
  return key
}

/** `v1:<iv>:<tag>:<ciphertext>` (base64 parts) of a secret. */
export function encryptSecret(dataDir: string, plaintext: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', instanceKey(dataDir), iv)
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':')
}

/** The secret `encryptSecret` sealed; throws when it was tampered with or sealed under another key. */
export function decryptSecret(dataDir: string, sealed: string): string {
  const [version, iv, tag, body] = sealed.split(':')
  if (version !== VERSION || iv === undefined || tag === undefined || body === undefined)
    throw new Error('unknown secret format')
  const decipher = createDecipheriv('aes-256-gcm', instanceKey(dataDir), Buffer.from(iv, 'base64'))
  decipher.setAuthTag(Buffer.from(tag, 'base64'))
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8')
}

/** Whether `value` has the shape `encryptSecret` gives (not whether it opens). */
export function isSealed(value: string): boolean {
  const parts = value.split(':')
  return parts.length === 4 && parts[0] === VERSION
}

/** Seals and opens the secrets of one Burrow Server: what the data layer needs of the instance key. */
export interface SecretBox {
  seal(plaintext: string): string
  open(sealed: string): string
}

/** The SecretBox of a data directory's instance key (created on first seal). */
export function secretBox(dataDir: string): SecretBox {
  return {
    seal: (plaintext) => encryptSecret(dataDir, plaintext),
    open: (sealed) => decryptSecret(dataDir, sealed),
  }
}
