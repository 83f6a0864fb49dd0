import { existsSync } from 'node:fs'
import type { SecretStorageStatus } from '../../../shared/ipc/secrets'
import { EncryptedFileSecretStore, WrongPassphraseError } from './encrypted-file-secret-store'
import type { SecretStore, SecretStoreAvailability } from './secret-store'

const LOCKED_REASON = 'Sign-ins on this device are saved in an encrypted file: enter its passphrase to unlock it.'

function failure(code: string, message: string): Error {
  return Object.assign(new Error(message), { code })
}

/**
 * The SecretStore the accounts use, switchable at run time: the OS keychain by default; the
 * encrypted file once the user opts into it (`accounts:use-encrypted-file`), which on later
 * launches starts locked (its existence is the remembered choice) until the passphrase is given
 * again. While locked nothing is read or written, and adding an account explains why.
 */
export class SecretStorage implements SecretStore {
  private current: SecretStore | null

  private constructor(
    private readonly file: string,
    private readonly keychain: SecretStore,
    current: SecretStore | null,
  ) {
    this.current = current
  }

  /** The keychain, or the encrypted file `file` when it exists (locked) or a passphrase opens it. */
  static async open(options: {
    readonly file: string
    readonly keychain: SecretStore
    readonly passphrase?: string
  }): Promise<SecretStorage> {
    if (options.passphrase !== undefined)
      return new SecretStorage(
        options.file,
        options.keychain,
        await EncryptedFileSecretStore.open(options.file, options.passphrase),
      )
    return new SecretStorage(options.file, options.keychain, existsSync(options.file) ? null : options.keychain)
  }

  get kind(): 'keychain' | 'encrypted-file' {
    return this.current === this.keychain ? 'keychain' : 'encrypted-file'
  }

  async availability(): Promise<SecretStoreAvailability> {
    return this.current === null ? { available: false, reason: LOCKED_REASON } : this.current.availability()
  }

  async get(accountId: string): Promise<string | null> {
    return this.unlocked().get(accountId)
  }

  async set(accountId: string, secret: string): Promise<void> {
    await this.unlocked().set(accountId, secret)
  }

  async delete(accountId: string): Promise<boolean> {
    return this.unlocked().delete(accountId)
  }

  async status(): Promise<SecretStorageStatus> {
    const availability = await this.availability()
    return {
      kind: this.kind,
      available: availability.available,
      reason: availability.available ? null : availability.reason,
      encryptedFile: { exists: existsSync(this.file), unlocked: this.current instanceof EncryptedFileSecretStore },
    }
  }

  /**
   * Opens (or creates) the encrypted file and saves sign-ins there from now on. The secrets of
   * `accountIds` that the keychain holds move into the file, so accounts added before keep working.
   */
  async useEncryptedFile(passphrase: string, accountIds: readonly string[]): Promise<SecretStorageStatus> {
    let file: EncryptedFileSecretStore
    try {
      file = await EncryptedFileSecretStore.open(this.file, passphrase)
    } catch (error) {
      if (error instanceof WrongPassphraseError)
        throw failure('wrong-passphrase', 'This passphrase does not open the encrypted sign-in file of this device.')
      throw error
    }
    if (this.current === this.keychain && (await this.keychain.availability()).available) {
      for (const id of accountIds) {
        const secret = await this.keychain.get(id)
        if (secret === null) continue
        await file.set(id, secret)
        await this.keychain.delete(id)
      }
    }
    this.current = file
    return this.status()
  }

  private unlocked(): SecretStore {
    if (this.current === null) throw failure('secrets-locked', LOCKED_REASON)
    return this.current
  }
}
