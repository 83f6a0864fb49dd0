import type { FastifyRequest } from 'fastify'
import type { Actor } from '../platform/auth/actor'
import { Permissions } from '../platform/auth/permissions'
import type { ServerContext } from '../platform/context'
import type { UserRow } from '../platform/db/rows'

/**
 * What the services read from a request: the server, the caller and their permissions, the
 * client address (audit events) and the origin (URLs in stored event payloads).
 */
interface ServiceCaller {
  readonly server: { readonly burrow: ServerContext }
  readonly actor: Actor
  readonly perms: Permissions
  readonly ip: string
  readonly protocol: string
  readonly host: string
  readonly params: Readonly<Record<string, unknown>>
  readonly query: Readonly<Record<string, unknown>>
  readonly body: undefined
}

/**
 * A caller for the services acting as `user`, as if the user had sent an API request with a
 * personal access token from this machine. The seed writes through the same services the routes
 * call (every invariant — iids, events, label links, to-dos — holds), without HTTP in between.
 * Permissions are fresh per caller: build a new one after memberships change.
 */
export function actingAs(ctx: ServerContext, user: UserRow, baseUrl: string): FastifyRequest {
  const origin = new URL(baseUrl)
  const caller: ServiceCaller = {
    server: { burrow: ctx },
    actor: { user, method: 'personal_access_token', scopes: ['api'], tokenId: null, sudoBy: null },
    perms: new Permissions(ctx.db, user),
    ip: '127.0.0.1',
    protocol: origin.protocol.replace(/:$/, ''),
    host: origin.host,
    params: {},
    query: {},
    body: undefined,
  }
  // The services are typed against Fastify's request but use only the fields above.
  return caller as unknown as FastifyRequest
}
