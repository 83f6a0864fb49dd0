import { join } from 'node:path'
import { AccountStore } from './account-store'
import { Accounts, type LocalServer } from './accounts'
import { EncryptedFileSecretStore } from './encrypted-file-secret-store'
import { KeyringSecretStore } from './secret-store'

export { AccountStore } from './account-store'
export { AccountError, Accounts, normalizeBaseUrl, type AccountsOptions, type LocalServer } from './accounts'
export { EncryptedFileSecretStore, WrongPassphraseError } from './encrypted-file-secret-store'
export { KeyringSecretStore, detectKeychain, type SecretStore, type SecretStoreAvailability } from './secret-store'

/**
 * The accounts of one user data dir (`accounts.json` there). Secrets go to the OS keychain
 * unless the user opted into the encrypted file by giving its passphrase; the local server's
 * credential (`local`, from the launcher) stays in memory.
 */
export async function openAccounts(options: { readonly userDataDir: string; readonly encryptedFilePassphrase?: string; readonly fetch?: typeof fetch; readonly local?: LocalServer }): Promise<Accounts> {
  const store = new AccountStore(join(options.userDataDir, 'accounts.json'))
  const secrets =
    options.encryptedFilePassphrase === undefined ? new KeyringSecretStore() : await EncryptedFileSecretStore.open(join(options.userDataDir, 'secrets.enc.json'), options.encryptedFilePassphrase)
  return new Accounts({ store, secrets, fetch: options.fetch, local: options.local })
}
