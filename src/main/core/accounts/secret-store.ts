import { randomUUID } from 'node:crypto'
import { AsyncEntry } from '@napi-rs/keyring'

export type SecretStoreAvailability =
  { readonly available: true } | { readonly available: false; readonly reason: string }

/** Where account secrets (a serialized Credential) live, keyed by account id. */
export interface SecretStore {
  readonly kind: 'keychain' | 'encrypted-file'
  /** Whether secrets can be stored right now; with a readable reason when not. */
  availability(): Promise<SecretStoreAvailability>
  get(accountId: string): Promise<string | null>
  set(accountId: string, secret: string): Promise<void>
  /** Returns whether there was something to delete. */
  delete(accountId: string): Promise<boolean>
}

export const KEYCHAIN_SERVICE = 'burrow'

/** The keychain may sit behind a prompt or a dead D-Bus: never wait on it forever. */
const KEYCHAIN_TIMEOUT_MS = 10_000

function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.length > 300 ? `${text.slice(0, 300)}…` : text
}

/**
 * Tries a write, read and delete of a throwaway entry in the OS keychain (macOS Keychain,
 * Windows Credential Manager, the Secret Service on Linux) and says why it is unusable.
 */
export async function detectKeychain(service = KEYCHAIN_SERVICE): Promise<SecretStoreAvailability> {
  const probe = new AsyncEntry(service, `availability-probe-${randomUUID()}`)
  const value = randomUUID()
  try {
    const signal = AbortSignal.timeout(KEYCHAIN_TIMEOUT_MS)
    await probe.setPassword(value, signal)
    const back = await probe.getPassword(signal)
    await probe.deletePassword(signal)
    if (back !== value) return { available: false, reason: 'The OS keychain did not return what was stored in it.' }
    return { available: true }
  } catch (error) {
    return { available: false, reason: `The OS keychain is not usable: ${reasonOf(error)}` }
  }
}

/** Secrets in the OS keychain through @napi-rs/keyring: service `burrow`, account = account id. */
export class KeyringSecretStore implements SecretStore {
  readonly kind = 'keychain'

  constructor(private readonly service = KEYCHAIN_SERVICE) {}

  availability(): Promise<SecretStoreAvailability> {
    return detectKeychain(this.service)
  }

  async get(accountId: string): Promise<string | null> {
    return new AsyncEntry(this.service, accountId).getPassword(AbortSignal.timeout(KEYCHAIN_TIMEOUT_MS))
  }

  async set(accountId: string, secret: string): Promise<void> {
    await new AsyncEntry(this.service, accountId).setPassword(secret, AbortSignal.timeout(KEYCHAIN_TIMEOUT_MS))
  }

  async delete(accountId: string): Promise<boolean> {
    return new AsyncEntry(this.service, accountId).deletePassword(AbortSignal.timeout(KEYCHAIN_TIMEOUT_MS))
  }
}
