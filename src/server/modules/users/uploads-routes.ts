import { createReadStream, existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { rawContentHeaders } from '../../platform/http/raw-content'
import { AVATAR_TYPES, avatarDir } from './avatars'

const AvatarParams = Type.Object({
  id: Type.String({ pattern: '^[0-9]+$' }),
  filename: Type.String({ pattern: '^[A-Za-z0-9_-][A-Za-z0-9._-]*$' }),
})

/**
 * Uploaded files outside the API, where `avatar_url` points: user avatars at
 * `/uploads/-/system/user/avatar/:id/:filename`, public as GitLab serves them.
 */
const uploads: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/uploads/-/system/user/avatar/:id/:filename',
    { schema: { params: AvatarParams }, config: { scopes: [] } },
    async (request, reply) => {
      const { id, filename } = request.params
      const file = join(avatarDir(app.burrow, 'user', Number(id)), filename)
      const ext = filename.slice(filename.lastIndexOf('.') + 1).toLowerCase()
      if (!existsSync(file) || !statSync(file).isFile() || !(ext in AVATAR_TYPES))
        return reply.code(404).send({ message: '404 Not Found' })
      // Only raster types are accepted as avatars (services/avatars.ts), so they are shown inline.
      return rawContentHeaders(reply, filename, { type: AVATAR_TYPES[ext], disposition: 'inline' })
        .header('cache-control', 'max-age=3600')
        .send(createReadStream(file))
    },
  )
}

export default uploads
