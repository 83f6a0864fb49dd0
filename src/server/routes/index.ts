import type { FastifyPluginAsync } from 'fastify'
import version from './version'
import events from './events'
import auditEvents from './audit-events'

/** Every resource family's route plugin, registered under `/api/v4`. Add new families here. */
export const apiRoutes: readonly FastifyPluginAsync[] = [version, events, auditEvents]
