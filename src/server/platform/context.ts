import type { SecretBox } from './auth/encryption'
import { FailedAuthBan, type FailedAuthBanOptions } from './auth/failed-auth-ban'
import type { Db } from './db/connection'
import { RepositoryStorage } from './git/storage'
import type { OutboundLookup } from './outbound/outbound'
import type { PushListener, PushReplier } from './git/push-listeners'
import type { Settings, SettingKey, SettingValue } from './settings'

/** How a Burrow Server instance is started (see DESIGN.md, "Server contract"). */
export interface ServerOptions {
  /** Holds the database and the repositories. */
  readonly dataDir: string
  /** Guarantees an administrator `root` whose personal access token is this value. */
  readonly rootToken?: string
  /** Public base URL (`http://host:port`); derived from each request's Host header when absent. */
  readonly externalUrl?: string
  /** Repository storage names; the first is the default. */
  readonly storages?: readonly string[]
  /** Application settings to force at start (tests, benchmarks). */
  readonly settings?: Partial<Record<SettingKey, SettingValue>>
  /** Fastify logger; off by default. */
  readonly logger?: boolean
  /** Name resolution for outbound requests (http/outbound.ts); tests inject one, else the system's. */
  readonly outboundLookup?: OutboundLookup
  /** The failed-authentication ban (GitLab's `rack_attack.git_basic_auth`); on, with GitLab's values, unless given. */
  readonly failedAuthBan?: Partial<FailedAuthBanOptions>
  /** Webhook delivery timing (modules/hooks); GitLab's values unless given (tests shorten the retry delays). */
  readonly webhooks?: WebhookTiming
}

/** How long a webhook delivery may take, and how long to wait before each retry of a failed one. */
export interface WebhookTiming {
  readonly timeoutMs?: number
  readonly retryDelaysMs?: readonly number[]
}

/** What every route plugin gets: the database, settings and URL helpers of this instance. */
export interface ServerContext {
  readonly db: Db
  readonly options: ServerOptions
  readonly settings: Settings
  /** Seals and opens secrets at rest with this instance's key (auth/encryption.ts). */
  readonly secrets: SecretBox
  readonly storages: readonly string[]
  /** Bare repositories on disk, by storage name. */
  readonly repos: RepositoryStorage
  /** Called after every landed push (smart HTTP or API commits); see services/push.ts. */
  readonly pushListeners: PushListener[]
  /** Called after the listeners of a landed git push, for the lines its pusher sees (push-listeners.ts). */
  readonly pushRepliers: PushReplier[]
  /** Bans addresses that fail to authenticate too often (API tokens, OAuth, git basic auth). */
  readonly failedAuthBan: FailedAuthBan
  /** `http://host:port` of this instance as the caller sees it, without a trailing slash. */
  baseUrl(request?: RequestOrigin): string
}

/** Where a request was sent, as Fastify's request says it: what the base URL is made of. */
export interface RequestOrigin {
  readonly protocol: string
  readonly host: string
}

export function createContext(db: Db, options: ServerOptions, settings: Settings, secrets: SecretBox): ServerContext {
  const storages = options.storages && options.storages.length > 0 ? options.storages : ['default']
  return {
    db,
    options,
    settings,
    secrets,
    storages,
    repos: new RepositoryStorage(options.dataDir, storages),
    pushListeners: [],
    pushRepliers: [],
    failedAuthBan: new FailedAuthBan(options.failedAuthBan),
    baseUrl(request?: RequestOrigin): string {
      if (options.externalUrl) return options.externalUrl.replace(/\/+$/, '')
      if (request) return `${request.protocol}://${request.host}`
      return 'http://localhost'
    },
  }
}
