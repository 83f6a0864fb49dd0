import { currentTime } from '../db/connection'
import { ApiError, tooManyRequests } from '../http/errors'
import { RateLimiter } from '../http/rate-limit'

/**
 * The failed-authentication ban's settings: GitLab's `rack_attack.git_basic_auth` in
 * gitlab.yml (not application settings there either), given per server in ServerOptions.
 */
export interface FailedAuthBanOptions {
  /** Off: no address is ever banned. */
  readonly enabled: boolean
  /** Failed authentications from one address within `findtime` that ban it. */
  readonly maxretry: number
  /** Seconds over which failures are counted. */
  readonly findtime: number
  /** Seconds a ban lasts. */
  readonly bantime: number
  /** Addresses never banned (GitLab's `ip_whitelist`). */
  readonly ipAllowlist: readonly string[]
}

/**
 * GitLab's example values for `rack_attack.git_basic_auth`, on by default here: GitLab ships it
 * off, and lists 127.0.0.1 as trusted, which for a server on the desktop would leave it all but off.
 */
export const FAILED_AUTH_BAN_DEFAULTS: FailedAuthBanOptions = {
  enabled: true,
  maxretry: 10,
  findtime: 60,
  bantime: 3600,
  ipAllowlist: [],
}

/** `::ffff:127.0.0.1` and `127.0.0.1` are one client. */
function clientAddress(ip: string): string {
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice('::ffff:'.length) : ip
}

/**
 * Rack::Attack's fail2ban as GitLab applies it to credentials: `maxretry` failed authentications
 * from one address within `findtime` seconds ban that address for `bantime` seconds, during which
 * every authentication it attempts is answered 429 with `Retry-After`, right credentials included.
 * A successful authentication clears the count of failures, not a ban already started. Guards the
 * API's tokens (every transport), the OAuth token endpoints and git's basic auth. In memory: a
 * restart lifts bans, as a restarted Rack::Attack cache would.
 */
export class FailedAuthBan {
  private readonly options: FailedAuthBanOptions
  private readonly failures = new RateLimiter()
  /** Banned address → when its ban ends (ms). */
  private readonly bans = new Map<string, number>()

  constructor(options: Partial<FailedAuthBanOptions> = {}) {
    this.options = { ...FAILED_AUTH_BAN_DEFAULTS, ...options }
  }

  /**
   * Runs one authentication from `ip`: 429 while the address is banned; an attempt that answers
   * null or throws 401 counts as a failure, one that answers something clears the count.
   */
  attempt<T>(ip: string, authenticate: () => T | null): T | null {
    const client = clientAddress(ip)
    if (!this.applies(client)) return authenticate()
    const now = currentTime().getTime()
    const left = this.banLeft(client, now)
    if (left > 0) throw tooManyRequests(Math.ceil(left / 1000))
    let result: T | null
    try {
      result = authenticate()
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 401) this.fail(client, now)
      throw error
    }
    if (result === null) this.fail(client, now)
    else this.failures.reset(client)
    return result
  }

  private applies(client: string): boolean {
    return this.options.enabled && !this.options.ipAllowlist.some((allowed) => clientAddress(allowed) === client)
  }

  private fail(client: string, now: number): void {
    if (this.failures.count(client, this.options.findtime, now).count < this.options.maxretry) return
    this.failures.reset(client)
    this.bans.set(client, now + this.options.bantime * 1000)
    if (this.bans.size > 10_000) for (const [address, until] of this.bans) if (until <= now) this.bans.delete(address)
  }

  /** Milliseconds left of `client`'s ban, 0 when it has none. */
  private banLeft(client: string, now: number): number {
    const until = this.bans.get(client)
    if (until === undefined) return 0
    if (until > now) return until - now
    this.bans.delete(client)
    return 0
  }
}
