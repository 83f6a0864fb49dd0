import { GraphQLError } from 'graphql'
import type { Caller } from '../../platform/caller'

/**
 * What every resolver gets: the request's Caller (the server, the user, their permissions and
 * token scopes, the base URL, and the client address for audit events).
 */
export type GraphQLContext = Caller

/** GitLab's answer to anything missing or not allowed, so the two cannot be told apart. */
export const RESOURCE_UNAVAILABLE =
  "The resource that you are attempting to access does not exist or you don't have permission to perform this action"

/** A GraphQL error carrying RESOURCE_UNAVAILABLE. */
export function unavailable(): GraphQLError {
  return new GraphQLError(RESOURCE_UNAVAILABLE)
}

/** `gid://gitlab/<Type>/<id>`, GitLab's global IDs. */
export function globalId(type: string, id: number): string {
  return `gid://gitlab/${type}/${id}`
}

/** The numeric id of a global ID of `type`, or null when the value is not one. */
export function parseGlobalId(value: unknown, type: string): number | null {
  if (typeof value !== 'string') return null
  const m = /^gid:\/\/gitlab\/([A-Za-z:]+)\/(\d+)$/.exec(value)
  if (!m || m[1] !== type) return null
  return Number(m[2])
}

/** GitLab's default and maximum page size of a connection. */
export const MAX_PAGE_SIZE = 100

export interface ConnectionArgs {
  readonly first?: number | null
  readonly last?: number | null
  readonly after?: string | null
  readonly before?: string | null
}

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString('base64')
}

function decodeCursor(cursor: string, name: string): number {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')) as { offset?: unknown }
    if (typeof value.offset === 'number' && Number.isInteger(value.offset) && value.offset >= 0) return value.offset
  } catch {
    // fall through to the error below
  }
  throw new GraphQLError(`Please provide a valid cursor for ${name}`)
}

/** The `[start, end)` window of a list of `total` items that connection arguments select. */
export function connectionWindow(args: ConnectionArgs, total: number): { start: number; end: number } {
  for (const name of ['first', 'last'] as const) {
    const v = args[name]
    if (v !== undefined && v !== null && v < 0)
      throw new GraphQLError(`Argument '${name}' on Field must be a non-negative integer`)
  }
  let start = args.after ? decodeCursor(args.after, 'after') + 1 : 0
  let end = args.before ? Math.min(total, decodeCursor(args.before, 'before')) : total
  start = Math.min(start, total)
  end = Math.max(start, end)
  if (args.first !== undefined && args.first !== null) end = Math.min(end, start + Math.min(args.first, MAX_PAGE_SIZE))
  if (args.last !== undefined && args.last !== null) start = Math.max(start, end - Math.min(args.last, MAX_PAGE_SIZE))
  if (end - start > MAX_PAGE_SIZE) end = start + MAX_PAGE_SIZE
  return { start, end }
}

export interface Connection<T> {
  readonly count: number
  readonly nodes: readonly T[]
  readonly edges: readonly { readonly cursor: string; readonly node: T }[]
  readonly pageInfo: {
    readonly hasNextPage: boolean
    readonly hasPreviousPage: boolean
    readonly startCursor: string | null
    readonly endCursor: string | null
  }
}

/** A Relay connection over the window `start..start+nodes.length` of `total` items. */
export function connection<T>(nodes: readonly T[], start: number, total: number): Connection<T> {
  const edges = nodes.map((node, i) => ({ cursor: encodeCursor(start + i), node }))
  return {
    count: total,
    nodes,
    edges,
    pageInfo: {
      hasNextPage: start + nodes.length < total,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  }
}

/** A connection over an in-memory list. */
export function connectionOf<T>(items: readonly T[], args: ConnectionArgs): Connection<T> {
  const { start, end } = connectionWindow(args, items.length)
  return connection(items.slice(start, end), start, items.length)
}
