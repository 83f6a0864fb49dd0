import type { FastifyPluginAsync } from 'fastify'
import version from './version'

/** Every resource family's route plugin, registered under `/api/v4`. Add new families here. */
export const apiRoutes: readonly FastifyPluginAsync[] = [version]
