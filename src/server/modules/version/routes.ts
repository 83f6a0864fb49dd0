import type { FastifyPluginAsync } from 'fastify'
import { Version } from '../../../shared/api/version'
import { versionEntity } from './entity'

/** `GET /version` and `GET /metadata`: answer without credentials so that starters can poll readiness. */
const version: FastifyPluginAsync = async (app) => {
  const schema = { response: { 200: Version } }
  app.get('/version', { schema }, async () => versionEntity())
  app.get('/metadata', { schema }, async () => versionEntity())
}

export default version
