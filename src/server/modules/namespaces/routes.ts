import * as Api from '../../../shared/api/index'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { callerOf } from '../../platform/caller'
import { findNamespaceByFullPath, findNamespaceById, listNamespaces, projectCounts } from './queries'
import { canSeeNamespace } from './policy'
import type { NamespaceRow } from '../../platform/db/rows'
import { namespaceEntity } from './entity'
import { notFound } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { currentUser } from '../../platform/http/resolve'

/** Namespaces: the caller's personal namespace and the groups they can use (GitLab's Namespaces API). */
const namespaces: FastifyPluginAsyncTypebox = async (app) => {
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
        response: { 200: Type.Array(Api.Namespace) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request)
      const caller = callerOf(request)
      const page = pageOf(request.query)
      const { rows, total } = listNamespaces(
        db,
        {
          userId: user.id,
          isAdmin: caller.perms.isAdmin,
          search: request.query.search || undefined,
          ownedOnly: request.query.owned_only,
          topLevelOnly: request.query.top_level_only,
        },
        page.perPage,
        page.offset,
      )
      const { baseUrl } = caller
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
        response: { 200: Api.NamespaceExists },
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

  app.get(
    '/namespaces/:id',
    { schema: { params: Type.Object({ id: Type.String() }), response: { 200: Api.Namespace } } },
    async (request) => {
      currentUser(request)
      const caller = callerOf(request)
      const raw = request.params.id
      const ns: NamespaceRow | undefined = /^\d+$/.test(raw)
        ? findNamespaceById(db, Number(raw))
        : findNamespaceByFullPath(db, raw)
      if (!ns) throw notFound('Namespace')
      if (!canSeeNamespace(caller, ns)) throw notFound('Namespace')
      const counts = projectCounts(db, [ns.id])
      return namespaceEntity(ns, { baseUrl: caller.baseUrl, projectsCount: counts.get(ns.id) ?? 0 })
    },
  )
}

export default namespaces
