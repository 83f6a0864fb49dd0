import { Type, type Static } from 'typebox'
import { Entity } from '../api/common'
import { isRecord, type JsonObject } from '../json'
import { checkApiPath } from './api-path'
import { AccountId, argumentsCheck, Explained, schemaCheck, schemaGuard } from './schema-check'

/**
 * `api:send`, the online-only write of the generic resource panels (admin, CI/CD, operations):
 * one REST API v4 request with a method that changes something, relative to `/api/v4`.
 *
 * Unlike item edits (outbox.ts), these writes are never queued. They act on instance and
 * project configuration whose effect depends on the server's state at that moment (blocking a
 * user, pausing a runner, scheduling storage moves, revoking a token); replaying one later could
 * undo a newer decision made by someone else, and most have no version to check a conflict
 * against. Offline they are refused with code `offline` and a readable reason.
 */

export type ApiSendMethod = ApiSendRequest['method']

/** A query parameter value: a scalar or a list of scalars (`tag_list[]=a`). */
export type ApiQueryValue = Exclude<Static<typeof QueryParameterValue>, undefined>

/** A JSON value of a request body. */
export type ApiBodyValue =
  string | number | boolean | null | readonly ApiBodyValue[] | { readonly [key: string]: ApiBodyValue }

export interface ApiSendResult {
  /** The HTTP status of a successful answer (200, 201, 202, 204, 304). */
  readonly status: number
  /** The JSON answer, or null for an empty one (204). */
  readonly body: unknown
}

/**
 * What an API refusal carries in `IpcError.details` for `api:send` (codes `validation`,
 * `forbidden`, `not-found`, `conflict`…): the status and GitLab's error body, so a form can
 * put `{message: {email: ['has already been taken']}}` next to its field.
 */
export interface ApiSendErrorDetails {
  readonly status: number
  readonly body: unknown
}

export interface ApiRequests {
  'api:send': { readonly args: readonly [accountId: string, request: ApiSendRequest]; readonly result: ApiSendResult }
}

// ---- argument validation ---------------------------------------------------------------------

const MAX_BODY_CHARS = 1_000_000
const MAX_DEPTH = 8
const MAX_INVALIDATES = 20

// A query or body is a plain object: a Date, Map or class instance is no JSON object.
const isPlainRecord = (v: unknown): v is JsonObject => isRecord(v) && Object.getPrototypeOf(v) === Object.prototype
/** A scalar of a query or a body: a string of at most 10,000 characters, a finite number or a boolean. */
const Scalar = Type.Union([Type.String({ maxLength: 10_000 }), Type.Number(), Type.Boolean()])
const isScalar = schemaGuard(Scalar)

/** An API path (api-path.ts's rule, whose reason is the refusal: `path must be relative to /api/v4…`). */
export const ApiPath = Explained(Type.String(), (v) => checkApiPath(v))

/** A query parameter's name: letters, digits, `_` and brackets (`tag_list[]`). */
const QueryParameterName = Type.String({ pattern: '^[A-Za-z0-9_[\\]]{1,100}$' })
/** A query parameter's value: a scalar or a list of at most 500 (undefined: left out). */
const QueryParameterValue = Type.Union([
  Scalar,
  Type.Immutable(Type.Array(Scalar, { maxItems: 500 })),
  Type.Undefined(),
])
// Not a type guard: a string key refused by it is still a string (to quote in the refusal).
const isQueryParameterName: (name: string) => boolean = schemaGuard(QueryParameterName)
const isQueryParameterValue = schemaGuard(QueryParameterValue)

/** Why a query is refused, naming the first parameter at fault; also the plain-object rule no schema says. */
function queryProblem(v: unknown): string | null {
  if (!isPlainRecord(v)) return 'query must be a plain object of parameters'
  for (const [key, value] of Object.entries(v)) {
    if (!isQueryParameterName(key)) return `invalid query parameter name ${JSON.stringify(key.slice(0, 40))}`
    if (!isQueryParameterValue(value))
      return `query parameter ${key} must be a string, number, boolean or a list of them`
  }
  return null
}

/**
 * The query parameters of a REST API request (`api:get`, `api:send`): a plain object, never part
 * of the path. A name outside QueryParameterName's pattern is refused by the refinement, which
 * says why, rather than as an unknown field.
 */
export const ApiQuery = Explained(Type.Record(QueryParameterName, QueryParameterValue), queryProblem)

function checkJson(v: unknown, depth: number): boolean {
  if (v === null || isScalar(v)) return true
  if (depth >= MAX_DEPTH) return false
  if (Array.isArray(v)) return v.length <= 10_000 && v.every((x) => checkJson(x, depth + 1))
  if (isPlainRecord(v)) return Object.values(v).every((x) => x === undefined || checkJson(x, depth + 1))
  return false
}

function checkBody(v: unknown): string | null {
  if (!isPlainRecord(v)) return 'body must be a plain JSON object'
  if (!checkJson(v, 0))
    return `body must be JSON (strings, finite numbers, booleans, null, arrays, objects) nested at most ${MAX_DEPTH} deep`
  if (JSON.stringify(v).length > MAX_BODY_CHARS) return 'body is too large (over 1 MB of JSON)'
  return null
}

function checkInvalidates(v: unknown): string | null {
  if (!Array.isArray(v) || v.length > MAX_INVALIDATES)
    return `invalidates must be a list of at most ${MAX_INVALIDATES} paths`
  const problem = v.map((path) => checkApiPath(path)).find((p) => p !== null)
  return problem === undefined ? null : `invalidates: ${problem}`
}

/**
 * One `api:send` request. Query and body are JSON objects whose rules a schema does not say (a
 * plain object, a depth, a size), so their checks are refinements.
 */
export const ApiSendRequest = Entity({
  method: Explained(
    Type.Enum(['POST', 'PUT', 'PATCH', 'DELETE']),
    'method must be POST, PUT, PATCH or DELETE (reads go through api:get)',
  ),
  /** Relative to /api/v4, starting with `/`, already URL-encoded (`/projects/group%2Fapp/environments/3/stop`). */
  path: ApiPath,
  /** Query parameters as a plain object; never part of `path`. */
  query: Type.Optional(ApiQuery),
  /** The JSON body: an object (GitLab's endpoints take named parameters). */
  body: Type.Optional(Explained(Type.Unsafe<{ readonly [key: string]: ApiBodyValue }>(Type.Unknown()), checkBody)),
  /**
   * Other GET paths (relative to /api/v4, any query) whose saved copies the write makes
   * outdated besides the ones core works out from `path` — another list showing the same item
   * (`/projects/7/runners` after `PUT /runners/3`). At most 20.
   */
  invalidates: Type.Optional(Explained(Type.Immutable(Type.Array(Type.String())), checkInvalidates)),
})
export type ApiSendRequest = Static<typeof ApiSendRequest>

const checkApiSendRequest = schemaCheck(ApiSendRequest, { style: 'verbatim' })

/** An api:send request: a plain object (a Date or a class instance is none), then ApiSendRequest. */
function apiSendRequest(v: unknown): string | null {
  if (!isPlainRecord(v)) return 'request must be a plain object {method, path, query?, body?, invalidates?}'
  return checkApiSendRequest(v)
}

/** The validators of the channels above, spread into request-validators.ts. */
export const apiValidators = {
  'api:send': argumentsCheck({ accountId: AccountId, request: apiSendRequest }, { style: 'verbatim' }),
} as const
