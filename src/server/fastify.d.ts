import type { Actor, TokenScope } from './auth/actor'
import type { Permissions } from './auth/permissions'
import type { ServerContext } from './context'

declare module 'fastify' {
  interface FastifyInstance {
    burrow: ServerContext
  }
  interface FastifyRequest {
    /** The authenticated caller (anonymous when no credentials were sent). */
    actor: Actor
    /** Role answers for `actor.user`, memoised for this request. */
    perms: Permissions
  }
  interface FastifyContextConfig {
    /**
     * Token scopes any one of which allows the route. Default: GET/HEAD accept `api` or
     * `read_api`; writes need `api`.
     */
    scopes?: readonly TokenScope[]
  }
}
