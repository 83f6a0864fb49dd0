import { join } from 'node:path'
import { trustSystemStore } from '../api/tls-fetch'
import { AccountStore } from './account-store'
import { Accounts, type LocalServer } from './accounts'
import { SecretStorage } from './secret-storage'
import { KeyringSecretStore, type SecretStore } from './secret-store'

export { AccountStore } from './account-store'
export { AccountError, Accounts, normalizeBaseUrl, type AccountsOptions, type LocalServer } from './accounts'
export { EncryptedFileSecretStore, WrongPassphraseError } from './encrypted-file-secret-store'
export { KeyringSecretStore, detectKeychain, type SecretStore, type SecretStoreAvailability } from './secret-store'
export { SecretStorage } from './secret-storage'

/** The secret storage each Accounts of openAccounts saves to (the `accounts:secret-storage` channels switch it). */
const storages = new WeakMap<Accounts, SecretStorage>()

/** The switchable secret storage behind `accounts`, when openAccounts made it. */
export function secretStorageOf(accounts: Accounts): SecretStorage | null {
  return storages.get(accounts) ?? null
}

/**
 * The accounts of one user data dir (`accounts.json` there). Secrets go to the OS keychain
 * unless the user opted into the encrypted file by giving its passphrase; the local server's
 * credential (`local`, from the launcher) stays in memory.
 */
export async function openAccounts(options: {
  readonly userDataDir: string
  readonly encryptedFilePassphrase?: string
  readonly fetch?: typeof fetch
  readonly local?: LocalServer
  /** The OS keychain; tests give a stand-in for a machine without one. */
  readonly keychain?: SecretStore
}): Promise<Accounts> {
  // Before any account connects: the OS trust store joins the runtime's roots where it can.
  trustSystemStore()
  const store = new AccountStore(join(options.userDataDir, 'accounts.json'))
  const secrets = await SecretStorage.open({
    file: join(options.userDataDir, 'secrets.enc.json'),
    keychain: options.keychain ?? new KeyringSecretStore(),
    passphrase: options.encryptedFilePassphrase,
  })
  const accounts = new Accounts({ store, secrets, fetch: options.fetch, local: options.local })
  storages.set(accounts, secrets)
  return accounts
}
