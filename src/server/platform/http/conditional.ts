import type { FastifyRequest } from 'fastify'
import { preconditionFailed } from './errors'

/**
 * GitLab's `check_unmodified_since!`: when the request carries `If-Unmodified-Since` and the
 * resource changed after that instant (compared at one-second precision), answer 412.
 */
export function checkUnmodifiedSince(request: FastifyRequest, updatedAt: string): void {
  const raw = request.headers['if-unmodified-since']
  if (typeof raw !== 'string' || raw === '') return
  const since = Date.parse(raw)
  if (Number.isNaN(since)) return
  const modified = Math.floor(Date.parse(updatedAt) / 1000) * 1000
  if (modified > since) throw preconditionFailed()
}
