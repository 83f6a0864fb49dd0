import type { FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { listNamespaces, projectCounts } from '../groups/queries'
import { findNamespaceByFullPath, findNamespaceById } from './queries'
import type { NamespaceRow } from '../../platform/db/rows'
import { namespaceEntity } from './entity'
import { notFound } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser } from '../../platform/http/resolve'

/** Namespaces: the caller's personal namespace and the groups they can use (GitLab's Namespaces API). */
const namespaces: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>()
  const { db } = app.burrow

  app.get(
    '/namespaces',
    {
      schema: {
        querystring: Type.Object({
          search: Type.Optional(Type.String()),
          owned_only: Type.Optional(Type.Boolean()),
          top_level_only: Type.Optional(Type.Boolean()),
        }),
      },
    },
    async (request, reply) => {
      const user = currentUser(request)
      const page = pageOf(request.query as Record<string, unknown>)
      const { rows, total } = listNamespaces(
        db,
        {
          userId: user.id,
          isAdmin: request.perms.isAdmin,
          search: request.query.search || undefined,
          ownedOnly: request.query.owned_only,
          topLevelOnly: request.query.top_level_only,
        },
        page.perPage,
        page.offset,
      )
      const baseUrl = app.burrow.baseUrl(request)
      setPageHeaders(request, reply, baseUrl, page, total)
      const counts = projectCounts(
        db,
        rows.map((n) => n.id),
      )
      return rows.map((n) => namespaceEntity(n, { baseUrl, projectsCount: counts.get(n.id) ?? 0 }))
    },
  )

  app.get(
    '/namespaces/:id/exists',
    {
      schema: {
        params: Type.Object({ id: Type.String() }),
        querystring: Type.Object({ parent_id: Type.Optional(Type.Integer()) }),
      },
    },
    async (request) => {
      currentUser(request)
      const path = request.params.id
      const parent = request.query.parent_id !== undefined ? findNamespaceById(db, request.query.parent_id) : undefined
      const prefix = parent ? `${parent.full_path}/` : ''
      const taken = (candidate: string): boolean => findNamespaceByFullPath(db, prefix + candidate) !== undefined
      if (!taken(path)) return { exists: false, suggests: [] }
      let n = 1
      while (taken(`${path}${n}`)) n += 1
      return { exists: true, suggests: [`${path}${n}`] }
    },
  )

  app.get('/namespaces/:id', { schema: { params: Type.Object({ id: Type.String() }) } }, async (request) => {
    const user = currentUser(request)
    const raw = request.params.id
    const ns: NamespaceRow | undefined = /^\d+$/.test(raw)
      ? findNamespaceById(db, Number(raw))
      : findNamespaceByFullPath(db, raw)
    if (!ns) throw notFound('Namespace')
    // Personal namespaces are visible to their owner; groups to whoever belongs to them (or may read them).
    const visible =
      request.perms.isAdmin ||
      (ns.kind === 'user'
        ? ns.owner_id === user.id
        : request.perms.groupAccess(ns.id) > 0 || request.perms.visibleGroups().has(ns.id))
    if (!visible) throw notFound('Namespace')
    const counts = projectCounts(db, [ns.id])
    return namespaceEntity(ns, { baseUrl: app.burrow.baseUrl(request), projectsCount: counts.get(ns.id) ?? 0 })
  })
}

export default namespaces
