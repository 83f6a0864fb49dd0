import type { FastifyRequest } from 'fastify'
import { Type, type TProperties, type TSchema } from 'typebox'
import { callerOf } from '../../platform/caller'
import { loadGroup, loadProject } from '../../platform/http/resolve'
import type { DiscussionKind, NoteableKind } from './families'
import type { Noteable } from './service'

// What every route plugin serving a noteable family needs (notes, discussions, resource events):
// the params schema of the family's URLs and the readable noteable they name.

/**
 * The noteable named by the URL (`:id` and the family's key), readable by the caller: the
 * family's own refusals first, then the project or group, then the noteable.
 */
export function loadNoteable(request: FastifyRequest, kind: NoteableKind, params: NoteableParams): Noteable {
  const caller = callerOf(request)
  const key = Number(params[kind.param])
  kind.precheck?.(caller)
  return kind.parent === 'projects'
    ? kind.find(caller, loadProject(request, String(params.id)), key)
    : kind.find(caller, loadGroup(request, String(params.id)), key)
}

/** `loadNoteable` for any family the discussions routes serve: those named by ref are found through git. */
export async function loadDiscussionNoteable(
  request: FastifyRequest,
  kind: DiscussionKind,
  params: NoteableParams,
): Promise<Noteable> {
  if (!('byRef' in kind)) return loadNoteable(request, kind, params)
  return kind.find(callerOf(request), loadProject(request, String(params.id)), String(params[kind.param]))
}

/** The path params of a noteable's routes: the project or group `id` and the family's key. */
export type NoteableParams = Readonly<Record<string, unknown>>

/**
 * Params schema for a family's routes (its key an integer, or a string for families named by ref)
 * with extra keys. The family's key is named at runtime, so only `id` and `extra` are typed: the
 * key is read by `loadNoteable`.
 */
export function paramsSchema<Extra extends TProperties>(kind: DiscussionKind, extra?: Extra) {
  return Type.Object(
    withKey(Object.assign({ id: Type.String() }, extra), kind.param, 'byRef' in kind ? Type.String() : Type.Integer()),
  )
}

/** `properties` with one more key named at runtime, typed as `properties` alone. */
function withKey<P extends TProperties>(properties: P, name: string, schema: TSchema): P {
  return { ...properties, [name]: schema }
}
