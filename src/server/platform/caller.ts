import type { FastifyRequest } from 'fastify'
import { ANONYMOUS, type Actor } from './auth/actor'
import { Permissions } from './auth/permissions'
import type { ServerContext } from './context'
import { currentTime, type Db } from './db/connection'
import type { UserRow } from './db/rows'
import { unauthorized } from './http/errors'

/**
 * Who a service acts for, and with what: the one argument every service takes instead of an HTTP
 * request (GitLab's services take `current_user` and params the same way). Routes build it with
 * `callerOf(request)`; the seed, background jobs and tests build one with `callerFor`, so nothing
 * outside HTTP has to fake a request.
 */
export interface Caller {
  /** The server instance: database, settings, repositories, secrets. */
  readonly ctx: ServerContext
  readonly db: Db
  /** How the caller authenticated (token kind, scopes, sudo). */
  readonly actor: Actor
  /** The acting user (after sudo), or null for an anonymous caller. */
  readonly user: UserRow | null
  /** Role answers for `user`, memoised for this caller. */
  readonly perms: Permissions
  /** `http://host:port` of this instance as the caller sees it, for URLs in answers and stored payloads. */
  readonly baseUrl: string
  /** The client's address, for audit events; null when the work did not come over HTTP. */
  readonly ip: string | null
  /** The time: the system clock, or the seed's simulated one. */
  readonly clock: () => Date
}

const callers = new WeakMap<FastifyRequest, Caller>()

/** The caller of an API request (one object per request, so permissions stay memoised). */
export function callerOf(request: FastifyRequest): Caller {
  let caller = callers.get(request)
  if (!caller) {
    const ctx = request.server.burrow
    caller = {
      ctx,
      db: ctx.db,
      actor: request.actor,
      user: request.actor.user,
      perms: request.perms,
      baseUrl: ctx.baseUrl(request),
      ip: request.ip,
      clock: currentTime,
    }
    callers.set(request, caller)
  }
  return caller
}

/** Options of `callerFor`. */
export interface CallerOptions {
  /** Defaults to the instance's external URL (or `http://localhost`). */
  readonly baseUrl?: string
  readonly ip?: string | null
  /** Defaults to a personal access token with the `api` scope (anonymous without a user). */
  readonly actor?: Actor
}

/**
 * A caller acting as `user` without an HTTP request, as if the user had sent one with a personal
 * access token: the seed writes through the same services the routes call this way, and background
 * work acts for the user who started it. Permissions are fresh per caller: build a new one after
 * memberships change.
 */
export function callerFor(ctx: ServerContext, user: UserRow | null, options: CallerOptions = {}): Caller {
  const actor: Actor =
    options.actor ??
    (user ? { user, method: 'personal_access_token', scopes: ['api'], tokenId: null, sudoBy: null } : ANONYMOUS)
  return {
    ctx,
    db: ctx.db,
    actor,
    user,
    perms: new Permissions(ctx.db, user),
    baseUrl: options.baseUrl ?? ctx.baseUrl(),
    ip: options.ip ?? null,
    clock: currentTime,
  }
}

/** The caller's user: 401 for an anonymous caller (GitLab's `authenticate!`). */
export function signedInUser(caller: Caller): UserRow {
  if (!caller.user) throw unauthorized()
  return caller.user
}
