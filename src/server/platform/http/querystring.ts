import { invalidParam } from './errors'

/** A parsed query string or form body: Rails-style `a[]=1`, `a[b]=2` and `a[b][]=3` keys nest. */
export type ParsedParams = { [key: string]: string | string[] | ParsedParams | ParsedParams[] }

/**
 * Parses `a=1&b[]=2&b[]=3&not[labels]=x` the way GitLab (Rack) does, so that clients
 * sending arrays as `name[]` (gitbeaker, python-gitlab) and hashes as `name[key]` work.
 * A repeated plain key becomes an array too.
 */
export function parseParams(input: string): ParsedParams {
  const out: ParsedParams = Object.create(null)
  for (const [rawKey, value] of new URLSearchParams(input)) {
    const path = splitKey(rawKey)
    if (path.length === 0) continue
    // Rack's param_depth_limit: deeper keys cost quadratic time here and overflow the stack of
    // whatever walks them later (JSON.stringify of a few thousand levels does).
    if (path.length > PARAM_DEPTH_LIMIT) throw invalidParam(path[0], 'is nested too deeply')
    assign(out, path, value)
  }
  return out
}

/** How deeply `a[b][c]…` keys may nest, as Rack's default `param_depth_limit`. */
const PARAM_DEPTH_LIMIT = 32

/** Where parseQuery leaves the error of a query string it could not parse. */
const QUERY_ERROR = Symbol('query error')

/**
 * parseParams for the router's querystring parser, which must not throw (the request would hang):
 * a query it refuses parses as empty and keeps its error for `throwQueryError`.
 */
export function parseQuery(input: string): ParsedParams {
  try {
    return parseParams(input)
  } catch (error) {
    const out: ParsedParams = Object.create(null)
    Object.defineProperty(out, QUERY_ERROR, { value: error })
    return out
  }
}

/** Throws the error parseQuery kept for this request's query, if any (called from a request hook). */
export function throwQueryError(query: unknown): void {
  const error =
    typeof query === 'object' && query !== null ? (query as Record<symbol, unknown>)[QUERY_ERROR] : undefined
  if (error !== undefined) throw error
}

function splitKey(key: string): string[] {
  const first = key.indexOf('[')
  if (first <= 0) return key ? [key] : []
  const parts = [key.slice(0, first)]
  const re = /\[([^\]]*)\]/g
  let m: RegExpExecArray | null
  re.lastIndex = first
  while ((m = re.exec(key)) !== null) parts.push(m[1])
  return parts
}

function assign(target: ParsedParams, path: string[], value: string): void {
  const [head, ...rest] = path
  if (head === '__proto__' || head === 'constructor' || head === 'prototype') return
  if (rest.length === 0) {
    const existing = target[head]
    if (existing === undefined) target[head] = value
    else if (Array.isArray(existing)) (existing as string[]).push(value)
    else if (typeof existing === 'string') target[head] = [existing, value]
    return
  }
  if (rest.length === 1 && rest[0] === '') {
    const existing = target[head]
    if (Array.isArray(existing)) (existing as string[]).push(value)
    else if (typeof existing === 'string') target[head] = [existing, value]
    else target[head] = [value]
    return
  }
  let child = target[head]
  if (child === undefined || typeof child === 'string' || Array.isArray(child)) {
    child = Object.create(null) as ParsedParams
    target[head] = child
  }
  assign(child as ParsedParams, rest, value)
}
