import { randomUUID } from 'node:crypto'
import {
  LOCAL_ACCOUNT_ID,
  type Account,
  type AccountVerification,
  type AddAccountRequest,
  type SignInRequired,
} from '../../../shared/ipc/contract'
import type { User } from '../../../shared/api/user'
import { AccessGate } from '../api/access-gate'
import { ApiClient } from '../api/client'
import { OnlineState } from '../api/connectivity'
import {
  isCredential,
  isExpired,
  requestOAuthToken,
  revokeOAuthToken,
  type Credential,
  type OAuthCredential,
} from '../api/credentials'
import { NetworkError, SignInRequiredError, UnauthorizedError } from '../api/errors'
import { fetchForCaFile } from '../api/tls-fetch'
import type { AccountStore } from './account-store'
import type { SecretStore } from './secret-store'

/** A failure the user can act on; `code` crosses the IPC bridge as is. */
export class AccountError extends Error {
  override readonly name = 'AccountError'
  constructor(
    readonly code:
      | 'keychain-unavailable'
      | 'duplicate-account'
      | 'account-not-found'
      | 'invalid-credentials'
      | 'secret-missing'
      | 'invalid-url'
      | 'unavailable',
    message: string,
  ) {
    super(message)
  }
}

/** The Burrow Server a launcher started for this launch: where it listens and its root token (new each launch). */
export interface LocalServer {
  readonly baseUrl: string
  readonly token: string
}

export interface AccountsOptions {
  readonly store: AccountStore
  readonly secrets: SecretStore
  /**
   * The local server of this launch. Its token is held in memory only: never written to the
   * keychain, the metadata file or anything else, and it dies with the launch (the server
   * drops it at its next start).
   */
  readonly local?: LocalServer
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
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new AccountError('invalid-url', 'The instance URL must start with http:// or https://.')
  if (url.username !== '' || url.password !== '')
    throw new AccountError('invalid-url', 'The instance URL must not contain a username or password.')
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v4$/, '')
  return `${url.origin}${path}`
}

/** The account with `signInRequired` set, or without it for null. */
function withSignIn(account: Account, signInRequired: SignInRequired | null): Account {
  const { signInRequired: _previous, ...rest } = account
  return signInRequired === null ? rest : { ...rest, signInRequired }
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
  private readonly gates = new Map<string, AccessGate>()
  private readonly credentials = new Map<string, Credential>()
  private readonly listeners = new Set<(accounts: readonly Account[]) => void>()
  /** add/remove one at a time, so two adds of one user cannot both pass the duplicate check. */
  private tail: Promise<unknown> = Promise.resolve()

  constructor(private readonly options: AccountsOptions) {}

  list(): Promise<readonly Account[]> {
    return this.options.store.list()
  }

  /** Whether this launch holds the local server's credential (`accounts:add-local` can work). */
  get hasLocalServer(): boolean {
    return this.options.local !== undefined
  }

  /**
   * The launch step for the local server's account: moves it to this launch's base URL and
   * refreshes its profile, or adds it on the first launch of this app data dir. An account the
   * user removed stays removed (null) until they add it back (`addLocal`). Null too when the
   * launch has no local server.
   */
  connectLocal(): Promise<Account | null> {
    return this.serial(async () => {
      if (this.options.local === undefined) return null
      const existing = await this.options.store.get(LOCAL_ACCOUNT_ID)
      if (existing === undefined && (await this.options.store.isLocalRemoved())) return null
      return this.attachLocal(this.options.local, existing)
    })
  }

  /** Adds (or refreshes) the local server's account at the user's request, undoing an earlier removal. */
  addLocal(): Promise<Account> {
    return this.serial(async () => {
      const local = this.options.local
      if (local === undefined)
        throw new AccountError(
          'unavailable',
          'This launch runs no local Burrow Server. Start Burrow with `npm start` to use it.',
        )
      const account = await this.attachLocal(local, await this.options.store.get(LOCAL_ACCOUNT_ID))
      await this.options.store.setLocalRemoved(false)
      return account
    })
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
        credential = await requestOAuthToken(
          baseUrl,
          { grant_type: 'password', username: request.username, password: request.password },
          { fetch: fetchImpl, timeoutMs },
        )
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
        if (error instanceof UnauthorizedError)
          throw new AccountError(
            'invalid-credentials',
            `${new URL(baseUrl).host} refused the token (401). Check that it is valid, not expired, and has the api scope.`,
          )
        throw error
      }
      const existing = (await this.options.store.list()).find((a) => a.baseUrl === baseUrl && a.userId === user.id)
      if (existing?.signInRequired !== undefined && existing.kind !== 'local')
        return this.replaceCredential(existing, latest, user, request.caFile)
      if (existing !== undefined) {
        // The pair just issued for this attempt is not kept: do not leave it valid on the server.
        if (latest.kind === 'oauth')
          await revokeOAuthToken(baseUrl, latest.refreshToken, { fetch: fetchImpl, timeoutMs })
        throw new AccountError(
          'duplicate-account',
          `${user.username} on ${new URL(baseUrl).host} is already signed in.`,
        )
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
      // The local account has no secret to delete (and needs no keychain to be removed).
      const hadSecret = id === LOCAL_ACCOUNT_ID ? false : await this.options.secrets.delete(id)
      if (removed && id === LOCAL_ACCOUNT_ID) await this.options.store.setLocalRemoved(true)
      this.forget(id)
      if (!removed && !hadSecret) throw new AccountError('account-not-found', 'No such account.')
      await this.changed()
    })
  }

  /**
   * Asks `GET /user` whether the saved credential still works; refreshes the profile fields. It
   * is sent even while the account waits for a sign-in, and a working answer ends the wait.
   */
  async verify(id: string): Promise<AccountVerification> {
    const account = await this.require(id)
    const client = await this.clientFor(id)
    try {
      const user = await client.get<User>('/user', undefined, { checksSignIn: true })
      // Without the sign-in requirement read before the check: the answer just ended it.
      const updated: Account = {
        ...withSignIn(account, null),
        username: user.username,
        name: user.name,
        avatarUrl: user.avatar_url ?? null,
      }
      if (
        account.signInRequired !== undefined ||
        updated.username !== account.username ||
        updated.name !== account.name ||
        updated.avatarUrl !== account.avatarUrl
      ) {
        await this.options.store.update(updated)
        await this.changed()
      }
      return { account: updated, state: 'valid', message: null }
    } catch (error) {
      if (error instanceof UnauthorizedError)
        return { account, state: 'invalid-credentials', message: 'The saved sign-in was refused; sign in again.' }
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
      gate: this.gateOf(account),
    })
    this.clients.set(id, client)
    return client
  }

  /**
   * What holds one account's requests (access-gate.ts): a credential the server refused, until
   * `verify` finds it working or `add` replaces it, and a server's Retry-After. Its client never
   * sends past it; background work (sync, notify, the outbox) pauses while it is closed.
   */
  accessFor(id: string): AccessGate {
    let gate = this.gates.get(id)
    if (gate === undefined) {
      gate = new AccessGate({ onSignInChange: (signInRequired) => void this.saveSignIn(id, signInRequired) })
      this.gates.set(id, gate)
    }
    return gate
  }

  /** Online/offline of one account's instance; created with the account's client. */
  connectivityFor(id: string): OnlineState {
    let state = this.connectivity.get(id)
    if (state === undefined) {
      state = new OnlineState({
        probe: async () => (await this.clientFor(id)).probe(),
        initialIntervalMs: this.options.probeIntervalMs,
      })
      this.connectivity.set(id, state)
    }
    return state
  }

  /**
   * Basic-auth credentials for git over HTTP, for core/repos to hand isomorphic-git's `onAuth`
   * in memory (never written to a repository's config or anywhere else): GitLab takes any
   * username with a personal access token, and `oauth2` with an OAuth access token. An expired
   * OAuth token is refreshed first, through the account's client.
   */
  async gitCredentials(id: string): Promise<{ readonly username: string; readonly password: string }> {
    const account = await this.require(id)
    // Git's basic auth counts toward the server's failed-sign-in ban like the API's tokens.
    const signIn = this.gateOf(account).signInRequired
    if (signIn !== null) throw new SignInRequiredError(signIn.reason)
    let credential = await this.credentialFor(id)
    if (credential.kind === 'oauth' && isExpired(credential)) {
      // Any API call refreshes an expired pair (and saves it); the version endpoint is the cheapest.
      await (await this.clientFor(id)).get('/version')
      credential = await this.credentialFor(id)
    }
    return credential.kind === 'pat'
      ? { username: account.username, password: credential.token }
      : { username: 'oauth2', password: credential.accessToken }
  }

  dispose(): void {
    for (const id of new Set([...this.connectivity.keys(), ...this.gates.keys()])) this.forget(id)
    this.listeners.clear()
  }

  /** The token request must trust the same CA as the API calls. */
  private fetchFor(caFile: string | undefined): typeof fetch {
    return this.options.fetch ?? fetchForCaFile(caFile)
  }

  /**
   * Verifies the launch's token with `GET /user` and stores the account's metadata at the new
   * base URL. When the server cannot be asked, an existing account still moves to the new URL
   * with its last profile: its cache and queued writes wait for the server, as offline.
   */
  private async attachLocal(local: LocalServer, existing: Account | undefined): Promise<Account> {
    const baseUrl = normalizeBaseUrl(local.baseUrl)
    const credential: Credential = { kind: 'pat', token: local.token }
    const client = new ApiClient({
      baseUrl,
      fetch: this.options.fetch,
      timeoutMs: this.options.timeoutMs ?? 30_000,
      credentials: async () => credential,
    })
    let profile: Pick<Account, 'username' | 'userId' | 'name' | 'avatarUrl'>
    try {
      const user = await client.get<User>('/user')
      profile = { username: user.username, userId: user.id, name: user.name, avatarUrl: user.avatar_url ?? null }
    } catch (error) {
      if (error instanceof UnauthorizedError)
        throw new AccountError(
          'invalid-credentials',
          `The local Burrow Server at ${baseUrl} refused this launch's token (401).`,
        )
      if (!(error instanceof NetworkError) || existing === undefined) throw error
      profile = existing
    }
    const { username, userId, name, avatarUrl } = profile
    // No `signInRequired`: this launch's token is a new credential, whatever refused the last one.
    const account: Account = {
      id: LOCAL_ACCOUNT_ID,
      kind: 'local',
      baseUrl,
      username,
      userId,
      name,
      avatarUrl,
      authKind: 'pat',
      addedAt: existing?.addedAt ?? new Date().toISOString(),
    }
    if (existing === undefined) await this.options.store.add(account)
    else await this.options.store.update(account)
    // A client of the last base URL must not be reused; the OnlineState stays, so whoever
    // listens to it (sync, the outbox) keeps hearing about this account.
    this.clients.delete(LOCAL_ACCOUNT_ID)
    this.credentials.delete(LOCAL_ACCOUNT_ID)
    this.gates.get(LOCAL_ACCOUNT_ID)?.signedIn()
    await this.changed()
    return account
  }

  /**
   * `add` for the user of an account that must sign in again: the new credential replaces the
   * refused one under the same id, so its cache, sync cursors and queued writes carry on.
   */
  private async replaceCredential(
    existing: Account,
    credential: Credential,
    user: User,
    caFile: string | undefined,
  ): Promise<Account> {
    const account: Account = {
      ...withSignIn(existing, null),
      username: user.username,
      name: user.name,
      avatarUrl: user.avatar_url ?? null,
      authKind: credential.kind,
      ...(caFile === undefined ? {} : { caFile }),
    }
    await this.options.secrets.set(account.id, JSON.stringify(credential))
    await this.options.store.update(account)
    this.credentials.set(account.id, credential)
    // A client made for the refused pair (its refresh state, its CA file) is not reused.
    this.clients.delete(account.id)
    this.gates.get(account.id)?.signedIn()
    await this.changed()
    return account
  }

  /** The account's gate, holding its requests from the start when the account was saved needing a sign-in. */
  private gateOf(account: Account): AccessGate {
    const gate = this.accessFor(account.id)
    if (account.signInRequired !== undefined && gate.signInRequired === null) gate.restore(account.signInRequired)
    return gate
  }

  /** Keeps a sign-in requirement with the account, so a restart does not try the refused credential again. */
  private async saveSignIn(id: string, signInRequired: SignInRequired | null): Promise<void> {
    try {
      const account = await this.options.store.get(id)
      if (account === undefined || (account.signInRequired === undefined && signInRequired === null)) return
      if (account.signInRequired?.since === signInRequired?.since) return
      await this.options.store.update(withSignIn(account, signInRequired))
      await this.changed()
    } catch (error) {
      // The hold stands in memory all the same; only a restart would try the credential once more.
      process.emitWarning(`could not save the sign-in state: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  private async credentialFor(id: string): Promise<Credential> {
    const cached = this.credentials.get(id)
    if (cached !== undefined) return cached
    if (id === LOCAL_ACCOUNT_ID) {
      const local = this.options.local
      if (local === undefined)
        throw new AccountError(
          'secret-missing',
          'The local Burrow Server is not running in this launch; start Burrow with `npm start` to reach it.',
        )
      const credential: Credential = { kind: 'pat', token: local.token }
      this.credentials.set(id, credential)
      return credential
    }
    const raw = await this.options.secrets.get(id)
    let parsed: unknown = null
    try {
      parsed = raw === null ? null : JSON.parse(raw)
    } catch {
      /* a damaged entry: same as a missing one */
    }
    if (!isCredential(parsed))
      throw new AccountError(
        'secret-missing',
        'The saved sign-in for this account is missing from the keychain; sign in again.',
      )
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
    this.gates.get(id)?.dispose()
    this.gates.delete(id)
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
