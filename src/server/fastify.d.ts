import type { Actor, TokenScope } from './platform/auth/actor'
import type { Permissions } from './platform/auth/permissions'
import type { ServerContext } from './platform/context'
import type { MultipartPart } from './platform/http/multipart'

declare module 'fastify' {
  interface FastifyInstance {
    burrow: ServerContext
  }
  interface FastifyRequest {
    /** The authenticated caller (anonymous when no credentials were sent). */
    actor: Actor
    /** Role answers for `actor.user`, memoised for this request. */
    perms: Permissions
    /** File parts of a multipart body, bytes untouched (avatars); absent otherwise. */
    uploads?: readonly MultipartPart[]
  }
  interface FastifyContextConfig {
    /**
     * Token scopes any one of which allows the route. Default: GET/HEAD accept `api` or
     * `read_api`; writes need `api`.
     */
    scopes?: readonly TokenScope[]
    /**
     * The route authenticates its callers itself (alert integrations' keys in
     * `Authorization: Bearer`): app.ts skips the API token check and leaves the caller anonymous.
     */
    ownAuthentication?: boolean
  }
}
