import type { FastifyPluginAsync } from 'fastify'

export const BURROW_VERSION = '17.6.0'

/** `GET /version`: answers without credentials so that starters can poll readiness. */
const version: FastifyPluginAsync = async (app) => {
  app.get('/version', async () => ({
    version: BURROW_VERSION,
    revision: 'burrow',
    kas: { enabled: false, externalUrl: null, version: null },
    enterprise: true,
  }))
  app.get('/metadata', async () => ({
    version: BURROW_VERSION,
    revision: 'burrow',
    kas: { enabled: false, externalUrl: null, version: null },
    enterprise: true,
  }))
}

export default version
