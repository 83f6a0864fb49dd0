import type { SignInRequired } from '../../../shared/ipc/contract'

export type { SignInRequired } from '../../../shared/ipc/contract'

export interface AccessGateOptions {
  /** What was saved for the account: a launch starts held when the last one ended needing a sign-in. */
  readonly signInRequired?: SignInRequired | null
  /** Told when the account starts or stops needing a sign-in (Accounts saves it with the account). */
  readonly onSignInChange?: (signInRequired: SignInRequired | null) => void
}

/**
 * Whether one account may send requests now. Two things hold it: a credential the server
 * refused (a 401 the OAuth refresh did not fix), until the user checks or replaces it; and a
 * server's 429 Retry-After, until that instant. Held, its ApiClient sends nothing (only the
 * sign-in check itself), so background work cannot keep presenting a dead token — Burrow
 * Server, like GitLab's Rack::Attack, bans an address for an hour after 10 refused credentials
 * in a minute, and the desktop's address is every local account's. Services pause on `open`
 * and go on when it flips back (`onDidChange`).
 */
export class AccessGate {
  private signIn: SignInRequired | null
  private waitUntilMs = 0
  private waitTimer: NodeJS.Timeout | null = null
  private readonly listeners = new Set<() => void>()
  private disposed = false

  constructor(private readonly options: AccessGateOptions = {}) {
    this.signIn = options.signInRequired ?? null
  }

  /** Why the account must be signed in again, or null while its credential works. */
  get signInRequired(): SignInRequired | null {
    return this.signIn
  }

  /** Milliseconds left of the server's Retry-After, 0 when it asked for none. */
  waitLeftMs(now = Date.now()): number {
    return Math.max(0, this.waitUntilMs - now)
  }

  /** Background requests may go out: no sign-in needed and no Retry-After running. */
  get open(): boolean {
    return this.signIn === null && this.waitLeftMs() === 0
  }

  /** Called whenever `open` may have changed; returns the unsubscribe function. */
  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The server refused the credential: hold every request until `signedIn`. */
  requireSignIn(reason: string): void {
    if (this.disposed || this.signIn !== null) return
    this.signIn = { reason, since: new Date().toISOString() }
    this.options.onSignInChange?.(this.signIn)
    this.emit()
  }

  /** Holds the account as it was saved needing a sign-in (a new launch), without saving it again. */
  restore(signInRequired: SignInRequired): void {
    if (this.disposed || this.signIn !== null) return
    this.signIn = signInRequired
    this.emit()
  }

  /** The credential works (a check answered, or the user replaced it). */
  signedIn(): void {
    if (this.disposed || this.signIn === null) return
    this.signIn = null
    this.options.onSignInChange?.(null)
    this.emit()
  }

  /** The server asked to wait `seconds` (429 Retry-After): nothing goes out before then. */
  retryAfter(seconds: number): void {
    if (this.disposed) return
    const until = Date.now() + Math.ceil(seconds * 1000)
    if (until <= this.waitUntilMs) return
    const wasOpen = this.open
    this.waitUntilMs = until
    this.armWaitEnd()
    if (wasOpen) this.emit()
  }

  dispose(): void {
    this.disposed = true
    if (this.waitTimer !== null) clearTimeout(this.waitTimer)
    this.waitTimer = null
    this.listeners.clear()
  }

  /** Tells the listeners when the wait is over, by `Date.now()`: a timer may fire a little early. */
  private armWaitEnd(): void {
    if (this.waitTimer !== null) clearTimeout(this.waitTimer)
    this.waitTimer = setTimeout(() => {
      this.waitTimer = null
      if (this.waitLeftMs() > 0) return this.armWaitEnd()
      this.emit()
    }, this.waitLeftMs())
    // The end of a wait must not keep the process alive on its own.
    this.waitTimer.unref()
  }

  private emit(): void {
    for (const listener of this.listeners) {
      try {
        listener()
      } catch {
        /* a broken listener must not stop the others */
      }
    }
  }
}
