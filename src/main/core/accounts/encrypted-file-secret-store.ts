import { createCipheriv, createDecipheriv, randomBytes, scrypt, type ScryptOptions } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { SerialQueue, writeFileAtomic } from './atomic-file'
import type { SecretStore, SecretStoreAvailability } from './secret-store'

/** scrypt cost (N = 2^15, r = 8, p = 1: OWASP's minimum); stored in the file so it can grow. */
const KDF = { N: 2 ** 15, r: 8, p: 1 } as const

interface SecretsFile {
  readonly version: 1
  readonly kdf: {
    readonly name: 'scrypt'
    readonly salt: string
    readonly N: number
    readonly r: number
    readonly p: number
  }
  readonly cipher: 'aes-256-gcm'
  readonly iv: string
  readonly tag: string
  readonly data: string
}

/** The passphrase does not open the secrets file (or the file was tampered with). */
export class WrongPassphraseError extends Error {
  readonly code = 'wrong-passphrase'
  override readonly name = 'WrongPassphraseError'
  constructor() {
    super('The passphrase does not unlock the saved sign-ins.')
  }
}

function deriveKey(passphrase: string, salt: Buffer, kdf: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { N: kdf.N, r: kdf.r, p: kdf.p, maxmem: 256 * kdf.N * kdf.r }
  return new Promise((resolve, reject) =>
    scrypt(passphrase.normalize('NFC'), salt, 32, options, (error, key) => (error ? reject(error) : resolve(key))),
  )
}

/**
 * Opt-in fallback where no OS keychain works: secrets in one file of the user data dir,
 * encrypted with AES-256-GCM under a key derived by scrypt from a passphrase the user types.
 * The whole map is re-encrypted with a fresh IV on every write; GCM's tag makes a wrong
 * passphrase (or a modified file) fail instead of decrypting to garbage.
 */
export class EncryptedFileSecretStore implements SecretStore {
  readonly kind = 'encrypted-file'
  private readonly queue = new SerialQueue()

  private constructor(
    readonly file: string,
    private readonly key: Buffer,
    private readonly salt: Buffer,
    private readonly kdf: { N: number; r: number; p: number },
    private secrets: Map<string, string>,
  ) {}

  /** Opens `file` with `passphrase`, creating it on first use; WrongPassphraseError if it does not match. */
  static async open(file: string, passphrase: string): Promise<EncryptedFileSecretStore> {
    if (passphrase.length === 0) throw new Error('A passphrase is required for the encrypted secrets file.')
    let text: string | null = null
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    if (text === null) {
      const salt = randomBytes(16)
      const store = new EncryptedFileSecretStore(
        file,
        await deriveKey(passphrase, salt, KDF),
        salt,
        { ...KDF },
        new Map(),
      )
      await store.queue.run(() => store.save())
      return store
    }
    const parsed = JSON.parse(text) as SecretsFile
    if (parsed.version !== 1 || parsed.cipher !== 'aes-256-gcm' || parsed.kdf?.name !== 'scrypt')
      throw new Error('The encrypted secrets file has an unknown format.')
    const salt = Buffer.from(parsed.kdf.salt, 'base64')
    const kdf = { N: parsed.kdf.N, r: parsed.kdf.r, p: parsed.kdf.p }
    const key = await deriveKey(passphrase, salt, kdf)
    let plain: string
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(parsed.iv, 'base64'))
      decipher.setAuthTag(Buffer.from(parsed.tag, 'base64'))
      plain = Buffer.concat([decipher.update(Buffer.from(parsed.data, 'base64')), decipher.final()]).toString('utf8')
    } catch {
      throw new WrongPassphraseError()
    }
    const entries = JSON.parse(plain) as Record<string, string>
    return new EncryptedFileSecretStore(file, key, salt, kdf, new Map(Object.entries(entries)))
  }

  async availability(): Promise<SecretStoreAvailability> {
    return { available: true }
  }

  async get(accountId: string): Promise<string | null> {
    return this.secrets.get(accountId) ?? null
  }

  async set(accountId: string, secret: string): Promise<void> {
    await this.queue.run(async () => {
      this.secrets.set(accountId, secret)
      await this.save()
    })
  }

  async delete(accountId: string): Promise<boolean> {
    return this.queue.run(async () => {
      const had = this.secrets.delete(accountId)
      if (had) await this.save()
      return had
    })
  }

  private async save(): Promise<void> {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.key, iv)
    const data = Buffer.concat([
      cipher.update(JSON.stringify(Object.fromEntries(this.secrets)), 'utf8'),
      cipher.final(),
    ])
    const file: SecretsFile = {
      version: 1,
      kdf: { name: 'scrypt', salt: this.salt.toString('base64'), ...this.kdf },
      cipher: 'aes-256-gcm',
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    }
    await writeFileAtomic(this.file, JSON.stringify(file))
  }
}
