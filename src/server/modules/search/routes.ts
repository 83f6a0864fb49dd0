import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { SearchResults } from '../../../shared/api/search'
import { callerOf } from '../../platform/caller'
import { paramError } from '../../platform/http/errors'
import { pageOf, setPageHeaders } from '../../platform/http/pagination'
import { loadGroup, loadProject } from '../../platform/http/resolve'
import { GLOBAL_SCOPES, GROUP_SCOPES, PROJECT_SCOPES, type SearchScope } from './scopes'
import { search, type SearchLevel, type SearchQuery } from './service'

// GitLab's limits on a search term (Gitlab::Search::Params): longer terms, or more words, are refused.
const MAX_TERM_CHARS = 4096
const MAX_TERM_WORDS = 64

/** One of `values`, refused otherwise with `<name> does not have a valid value`. */
function oneOf<T extends string>(values: readonly T[]) {
  return Type.Union(values.map((v) => Type.Literal(v)))
}

/** The query of a search at a level whose scopes are `scopes`. */
function searchQuery(scopes: readonly SearchScope[]) {
  return Type.Object({
    search: Type.String(),
    scope: oneOf(scopes),
    state: Type.Optional(oneOf(['all', 'opened', 'closed', 'merged'])),
    confidential: Type.Optional(Type.Boolean()),
    order_by: Type.Optional(Type.Literal('created_at')),
    sort: Type.Optional(oneOf(['asc', 'desc'])),
    ref: Type.Optional(Type.String()),
    page: Type.Optional(Type.Unknown()),
    per_page: Type.Optional(Type.Unknown()),
  })
}

type SearchParams = {
  readonly search: string
  readonly scope: SearchScope
  readonly state?: string
  readonly confidential?: boolean
  readonly sort?: string
  readonly ref?: string
  readonly page?: unknown
  readonly per_page?: unknown
}

/** The parsed query, after GitLab's checks of the term's size. */
function queryOf(q: SearchParams): SearchQuery {
  if (q.search.length > MAX_TERM_CHARS) throw paramError('Search query is too long')
  if (q.search.split(/\s+/).filter(Boolean).length > MAX_TERM_WORDS) throw paramError('Too many search terms specified')
  return {
    term: q.search,
    state: q.state === 'all' ? undefined : (q.state as SearchQuery['state']),
    confidential: q.confidential,
    sort: q.sort === 'asc' ? 'asc' : 'desc',
    ref: q.ref || undefined,
  }
}

async function answer(
  request: FastifyRequest<{ Querystring: SearchParams }>,
  reply: FastifyReply,
  level: SearchLevel,
): Promise<SearchResults> {
  const query = queryOf(request.query)
  const page = pageOf(request.query)
  const caller = callerOf(request)
  const found = await search(caller, level, request.query.scope, query, {
    limit: page.perPage,
    offset: page.offset,
  })
  setPageHeaders(request, reply, caller.baseUrl, page, found.total)
  // The entities of the scope searched: the response schema's union serializes whichever it is.
  return found.items as SearchResults
}

const IdParams = Type.Object({ id: Type.String() })
const response = { 200: SearchResults }

/** GitLab's search API: the instance, a group (with its subgroups) or a project, one scope at a time. */
const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/search', { schema: { querystring: searchQuery(GLOBAL_SCOPES), response } }, async (request, reply) =>
    answer(request, reply, { kind: 'global' }),
  )

  app.get(
    '/groups/:id/search',
    { schema: { params: IdParams, querystring: searchQuery(GROUP_SCOPES), response } },
    async (request, reply) => answer(request, reply, { kind: 'group', group: loadGroup(request, request.params.id) }),
  )

  app.get(
    '/projects/:id/search',
    { schema: { params: IdParams, querystring: searchQuery(PROJECT_SCOPES), response } },
    async (request, reply) =>
      answer(request, reply, { kind: 'project', project: loadProject(request, request.params.id) }),
  )
}

export default searchRoutes
