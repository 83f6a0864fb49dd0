import type { IpcHandlers } from '../dispatch'
import type { Accounts } from './accounts'
import { secretStorageOf } from './index'

/**
 * `accounts:secret-storage` and `accounts:use-encrypted-file` (shared/ipc/secrets.ts): where
 * sign-ins are saved, and the opt-in encrypted file for machines without a keychain.
 */
export function secretStorageHandlers(
  accounts: () => Accounts,
): Pick<IpcHandlers, 'accounts:secret-storage' | 'accounts:use-encrypted-file'> {
  const storage = () => {
    const found = secretStorageOf(accounts())
    if (found === null)
      throw Object.assign(new Error('This launch does not let the sign-in storage change.'), { code: 'unavailable' })
    return found
  }
  return {
    'accounts:secret-storage': async () => storage().status(),
    'accounts:use-encrypted-file': async (passphrase) => {
      // The local server's account has no saved secret (its token lives in memory).
      const ids = (await accounts().list()).filter((a) => a.kind !== 'local').map((a) => a.id)
      return storage().useEncryptedFile(passphrase, ids)
    },
  }
}
