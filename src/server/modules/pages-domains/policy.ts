import { AccessLevel } from '../../platform/auth/access'
import type { ServerContext } from '../../platform/context'
import { ApiError } from '../../platform/http/errors'

/** A project's Pages domains are a Maintainer's (GitLab's `update_pages`). */
export const PAGES_DOMAIN_ACCESS = AccessLevel.MAINTAINER

/** The Pages feature is an instance setting; while it is off, every endpoint answers 404. */
export function requirePagesEnabled(ctx: ServerContext): void {
  if (!ctx.settings.get('pages_enabled')) throw new ApiError(404, { message: '404 Not Found' })
}
