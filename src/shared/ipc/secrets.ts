/**
 * Where sign-ins are saved: the OS keychain, or, when the user opts in (a machine without a
 * keychain), an encrypted file in the app's data dir unlocked with a passphrase each launch.
 * Spread into the contract's maps (contract.ts); the argument check is in secrets-schema.ts.
 */

export interface SecretStorageStatus {
  /** Where sign-ins are saved now. */
  readonly kind: 'keychain' | 'encrypted-file'
  /** Whether a sign-in can be saved (and read) now; `reason` says why not. */
  readonly available: boolean
  readonly reason: string | null
  /** The encrypted file exists on this device (the user opted in once), and whether this launch has unlocked it. */
  readonly encryptedFile: { readonly exists: boolean; readonly unlocked: boolean }
}

export interface SecretsRequests {
  'accounts:secret-storage': { readonly args: readonly []; readonly result: SecretStorageStatus }
  /**
   * Opts into the encrypted file (creating it with this passphrase), or unlocks it on a later
   * launch; sign-ins already in the keychain move into it. `wrong-passphrase` when it does not
   * open the existing file.
   */
  'accounts:use-encrypted-file': { readonly args: readonly [passphrase: string]; readonly result: SecretStorageStatus }
}

/** The length of a passphrase `accounts:use-encrypted-file` takes (the page's form says the same). */
export const PASSPHRASE_MIN = 8
export const PASSPHRASE_MAX = 1024
