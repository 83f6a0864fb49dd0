import type { FastifyReply, FastifyRequest } from 'fastify'
import { invalidParam } from './errors'
import { paramsOf } from './loose-params'

export interface Page {
  readonly page: number
  readonly perPage: number
  readonly offset: number
}

export const DEFAULT_PER_PAGE = 20
export const MAX_PER_PAGE = 100

function intParam(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined
  // A list or hash (`page[]=1`, `page[a]=b`) is no number; Number() of a form hash even throws.
  if (typeof value === 'object') return Number.NaN
  const n = typeof value === 'number' ? value : Number(value)
  return Number.isInteger(n) ? n : Number.NaN
}

/**
 * Offset pagination parameters: `page` (default 1) and `per_page` (default 20, at most 100).
 * 400 `page is invalid` for a page whose offset is not an exact integer (`1e20`, twenty nines):
 * SQLite and git take 64-bit offsets and JavaScript counts exactly only up to 2^53. `query` is
 * the request's query as parsed, whatever its route's schema (no query reads as none).
 */
export function pageOf(query: unknown): Page {
  const { page: pageRaw, per_page: perPageParam } = paramsOf(query)
  const page = intParam(pageRaw) ?? 1
  const perPageRaw = intParam(perPageParam) ?? DEFAULT_PER_PAGE
  if (Number.isNaN(page)) throw invalidParam('page')
  if (Number.isNaN(perPageRaw)) throw invalidParam('per_page')
  const safePage = Math.max(1, page)
  const perPage = Math.min(MAX_PER_PAGE, Math.max(1, perPageRaw))
  const offset = (safePage - 1) * perPage
  if (!Number.isSafeInteger(offset)) throw invalidParam('page')
  return { page: safePage, perPage, offset }
}

/** The externally visible URL of the current request, used to build `Link` headers. */
export function requestUrl(request: FastifyRequest, baseUrl: string): URL {
  return new URL(request.url, baseUrl)
}

function linkTo(url: URL, params: Readonly<Record<string, string>>): string {
  const next = new URL(url)
  for (const [k, v] of Object.entries(params)) next.searchParams.set(k, v)
  return next.toString()
}

/**
 * Sets GitLab's offset pagination headers: `Link` (prev, next, first, last), `X-Total`,
 * `X-Total-Pages`, `X-Page`, `X-Per-Page`, `X-Next-Page`, `X-Prev-Page`.
 */
export function setPageHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  baseUrl: string,
  page: Page,
  total: number,
): void {
  const totalPages = Math.max(1, Math.ceil(total / page.perPage))
  const url = requestUrl(request, baseUrl)
  const perPage = String(page.perPage)
  const links: string[] = []
  if (page.page > 1)
    links.push(`<${linkTo(url, { page: String(Math.min(page.page - 1, totalPages)), per_page: perPage })}>; rel="prev"`)
  if (page.page < totalPages)
    links.push(`<${linkTo(url, { page: String(page.page + 1), per_page: perPage })}>; rel="next"`)
  links.push(`<${linkTo(url, { page: '1', per_page: perPage })}>; rel="first"`)
  links.push(`<${linkTo(url, { page: String(totalPages), per_page: perPage })}>; rel="last"`)
  reply.header('Link', links.join(', '))
  reply.header('X-Total', String(total))
  reply.header('X-Total-Pages', String(totalPages))
  reply.header('X-Page', String(page.page))
  reply.header('X-Per-Page', perPage)
  reply.header('X-Next-Page', page.page < totalPages ? String(page.page + 1) : '')
  reply.header('X-Prev-Page', page.page > 1 ? String(page.page - 1) : '')
}

/**
 * Paginates an in-memory list (for small lists computed outside SQL). Large lists should
 * page in SQL with `pageOf` and call `setPageHeaders` with the count.
 */
export function paginateArray<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  baseUrl: string,
  items: readonly T[],
): T[] {
  const page = pageOf(request.query)
  setPageHeaders(request, reply, baseUrl, page, items.length)
  return items.slice(page.offset, page.offset + page.perPage)
}

export interface KeysetPage {
  readonly perPage: number
  readonly sort: 'asc' | 'desc'
  /** `id_after` (ascending) or `id_before` (descending) cursor, when given. */
  readonly cursor: number | undefined
}

/** True when the request asks for keyset pagination (`pagination=keyset`). */
export function wantsKeyset(query: Readonly<Record<string, unknown>>): boolean {
  return query.pagination === 'keyset'
}

/** Keyset parameters; only `order_by=id` is supported, as on GitLab's users endpoint. */
export function keysetOf(query: Readonly<Record<string, unknown>>): KeysetPage {
  const { perPage } = pageOf(query)
  if (query.order_by !== undefined && query.order_by !== 'id')
    throw invalidParam('order_by', 'does not support keyset pagination')
  const sort = query.sort === 'desc' ? 'desc' : 'asc'
  const raw = sort === 'asc' ? query.id_after : query.id_before
  const cursor = intParam(raw)
  if (cursor !== undefined && Number.isNaN(cursor)) throw invalidParam(sort === 'asc' ? 'id_after' : 'id_before')
  return { perPage, sort, cursor }
}

/** Sets the keyset `Link: <…>; rel="next"` header when a full page came back. */
export function setKeysetHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  baseUrl: string,
  keyset: KeysetPage,
  rows: readonly { readonly id: number }[],
): void {
  reply.header('X-Per-Page', String(keyset.perPage))
  if (rows.length < keyset.perPage || rows.length === 0) return
  const last = rows[rows.length - 1].id
  const url = requestUrl(request, baseUrl)
  const params: Record<string, string> = {
    per_page: String(keyset.perPage),
    pagination: 'keyset',
    order_by: 'id',
    sort: keyset.sort,
  }
  if (keyset.sort === 'asc') params.id_after = String(last)
  else params.id_before = String(last)
  reply.header('Link', `<${linkTo(url, params)}>; rel="next"`)
}
