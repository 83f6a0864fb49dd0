import { randomUUID } from 'node:crypto'
import type { Account, AccountVerification, AddAccountRequest } from '../../../shared/ipc/contract'
import type { User } from '../../../shared/api/user'
import { ApiClient } from '../api/client'
import { OnlineState } from '../api/connectivity'
import { isCredential, requestOAuthToken, revokeOAuthToken, type Credential, type OAuthCredential } from '../api/credentials'
import { NetworkError, UnauthorizedError } from '../api/errors'
import { fetchForCaFile } from '../api/tls-fetch'
import type { AccountStore } from './account-store'
import type { SecretStore } from './secret-store'

/** A failure the user can act on; `code` crosses the IPC bridge as is. */
export class AccountError extends Error {
  override readonly name = 'AccountError'
  constructor(
    readonly code: 'keychain-unavailable' | 'duplicate-account' | 'account-not-found' | 'invalid-credentials' | 'secret-missing' | 'invalid-url',
    message: string,
  ) {
    super(message)
  }
}

export interface AccountsOptions {
  readonly store: AccountStore
  readonly secrets: SecretStore
  readonly fetch?: typeof fetch
  readonly timeoutMs?: number
  /** Connectivity probe back-off start (OnlineState). */
  readonly probeIntervalMs?: number
}

/** `https://Host:443/gitlab/` → `https://host/gitlab`: one spelling per instance, for duplicate checks. */
export function normalizeBaseUrl(raw: string): string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new AccountError('invalid-url', `Not a URL: ${raw}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AccountError('invalid-url', 'The instance URL must start with http:// or https://.')
  if (url.username !== '' || url.password !== '') throw new AccountError('invalid-url', 'The instance URL must not contain a username or password.')
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v4$/, '')
  return `${url.origin}${path}`
}

/**
 * The accounts of this installation, several at once, possibly on several instances:
 * metadata in the AccountStore, credentials in the SecretStore (the OS keychain, or the
 * opt-in encrypted file), one ApiClient and one OnlineState per account.
 * Tokens never leave through a return value, an error message or a log line.
 */
export class Accounts {
  private readonly clients = new Map<string, ApiClient>()
  private readonly connectivity = new Map<string, OnlineState>()
  private readonly credentials = new Map<string, Credential>()
  private readonly listeners = new Set<(accounts: readonly Account[]) => void>()
  /** add/remove one at a time, so two adds of one user cannot both pass the duplicate check. */
  private tail: Promise<unknown> = Promise.resolve()

  constructor(private readonly options: AccountsOptions) {}

  list(): Promise<readonly Account[]> {
    return this.options.store.list()
  }

  /** Returns the unsubscribe function. */
  onDidChange(listener: (accounts: readonly Account[]) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /**
   * Signs in (a PAT as is; username and password through the OAuth password grant), checks
   * the credential with `GET /user`, refuses a second account for the same user on the same
   * instance, then stores the secret and the metadata. Stores nothing when any step fails.
   */
  add(request: AddAccountRequest): Promise<Account> {
    return this.serial(async () => {
      const availability = await this.options.secrets.availability()
      if (!availability.available) {
        throw new AccountError(
          'keychain-unavailable',
          `Cannot save the sign-in: ${availability.reason} Enable a keychain (Secret Service, macOS Keychain, Windows Credential Manager) or choose the encrypted-file store with a passphrase.`,
        )
      }
      const baseUrl = normalizeBaseUrl(request.baseUrl)
      const timeoutMs = this.options.timeoutMs ?? 30_000
      const fetchImpl = this.fetchFor(request.caFile)
      let credential: Credential
      if ('token' in request) {
        credential = { kind: 'pat', token: request.token }
      } else {
        credential = await requestOAuthToken(baseUrl, { grant_type: 'password', username: request.username, password: request.password }, { fetch: fetchImpl, timeoutMs })
      }
      let latest = credential
      const client = new ApiClient({
        baseUrl,
        caFile: request.caFile,
        fetch: this.options.fetch,
        timeoutMs,
        credentials: async () => latest,
        onCredentialsRefreshed: async (c) => void (latest = c),
      })
      let user: User
      try {
        user = await client.get<User>('/user')
      } catch (error) {
        if (error instanceof UnauthorizedError) throw new AccountError('invalid-credentials', `${new URL(baseUrl).host} refused the token (401). Check that it is valid, not expired, and has the api scope.`)
        throw error
      }
      const existing = (await this.options.store.list()).find((a) => a.baseUrl === baseUrl && a.userId === user.id)
      if (existing !== undefined) {
        // The pair just issued for this attempt is not kept: do not leave it valid on the server.
        if (latest.kind === 'oauth') await revokeOAuthToken(baseUrl, latest.refreshToken, { fetch: fetchImpl, timeoutMs })
        throw new AccountError('duplicate-account', `${user.username} on ${new URL(baseUrl).host} is already signed in.`)
      }

      const account: Account = {
        id: randomUUID(),
        baseUrl,
        username: user.username,
        userId: user.id,
        name: user.name,
        avatarUrl: user.avatar_url ?? null,
        authKind: latest.kind,
        addedAt: new Date().toISOString(),
        ...(request.caFile === undefined ? {} : { caFile: request.caFile }),
      }
      await this.options.secrets.set(account.id, JSON.stringify(latest))
      try {
        await this.options.store.add(account)
      } catch (error) {
        await this.options.secrets.delete(account.id).catch(() => false)
        throw error
      }
      this.credentials.set(account.id, latest)
      await this.changed()
      return account
    })
  }

  /** Forgets the account: metadata, secret, client. */
  remove(id: string): Promise<void> {
    return this.serial(async () => {
      const removed = await this.options.store.remove(id)
      const hadSecret = await this.options.secrets.delete(id)
      this.forget(id)
      if (!removed && !hadSecret) throw new AccountError('account-not-found', 'No such account.')
      await this.changed()
    })
  }

  /** Asks `GET /user` whether the saved credential still works; refreshes the profile fields. */
  async verify(id: string): Promise<AccountVerification> {
    const account = await this.require(id)
    const client = await this.clientFor(id)
    try {
      const user = await client.get<User>('/user')
      const updated: Account = { ...account, username: user.username, name: user.name, avatarUrl: user.avatar_url ?? null }
      if (updated.username !== account.username || updated.name !== account.name || updated.avatarUrl !== account.avatarUrl) {
        await this.options.store.update(updated)
        await this.changed()
      }
      return { account: updated, state: 'valid', message: null }
    } catch (error) {
      if (error instanceof UnauthorizedError) return { account, state: 'invalid-credentials', message: 'The saved sign-in was refused; sign in again.' }
      if (error instanceof NetworkError) return { account, state: 'unreachable', message: error.message }
      throw error
    }
  }

  /** The API client of one account (one per account, reused). */
  async clientFor(id: string): Promise<ApiClient> {
    const cached = this.clients.get(id)
    if (cached !== undefined) return cached
    const account = await this.require(id)
    const client = new ApiClient({
      baseUrl: account.baseUrl,
      caFile: account.caFile,
      fetch: this.options.fetch,
      timeoutMs: this.options.timeoutMs,
      credentials: () => this.credentialFor(id),
      onCredentialsRefreshed: (c) => this.saveRefreshed(id, c),
      connectivity: this.connectivityFor(id),
    })
    this.clients.set(id, client)
    return client
  }

  /** Online/offline of one account's instance; created with the account's client. */
  connectivityFor(id: string): OnlineState {
    let state = this.connectivity.get(id)
    if (state === undefined) {
      state = new OnlineState({ probe: async () => (await this.clientFor(id)).probe(), initialIntervalMs: this.options.probeIntervalMs })
      this.connectivity.set(id, state)
    }
    return state
  }

  dispose(): void {
    for (const id of [...this.connectivity.keys()]) this.forget(id)
    this.listeners.clear()
  }

  /** The token request must trust the same CA as the API calls. */
  private fetchFor(caFile: string | undefined): typeof fetch {
    return this.options.fetch ?? fetchForCaFile(caFile)
  }

  private async credentialFor(id: string): Promise<Credential> {
    const cached = this.credentials.get(id)
    if (cached !== undefined) return cached
    const raw = await this.options.secrets.get(id)
    let parsed: unknown = null
    try {
      parsed = raw === null ? null : JSON.parse(raw)
    } catch {
      /* a damaged entry: same as a missing one */
    }
    if (!isCredential(parsed)) throw new AccountError('secret-missing', 'The saved sign-in for this account is missing from the keychain; sign in again.')
    this.credentials.set(id, parsed)
    return parsed
  }

  private async saveRefreshed(id: string, credential: OAuthCredential): Promise<void> {
    this.credentials.set(id, credential)
    await this.options.secrets.set(id, JSON.stringify(credential))
  }

  private async require(id: string): Promise<Account> {
    const account = await this.options.store.get(id)
    if (account === undefined) throw new AccountError('account-not-found', 'No such account.')
    return account
  }

  private forget(id: string): void {
    this.clients.delete(id)
    this.credentials.delete(id)
    this.connectivity.get(id)?.dispose()
    this.connectivity.delete(id)
  }

  private async changed(): Promise<void> {
    const accounts = await this.options.store.list()
    for (const listener of this.listeners) {
      try {
        listener(accounts)
      } catch {
        /* a broken listener must not stop the others */
      }
    }
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task)
    this.tail = result.catch(() => undefined)
    return result
  }
}
