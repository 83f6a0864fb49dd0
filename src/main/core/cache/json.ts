import { isRecord, type JsonObject } from '../../../shared/json'

// An API object as it came over the wire is a JsonObject, read through the helpers below.
export { isRecord, type JsonObject }

export function str(o: JsonObject, key: string): string | null {
  const v = o[key]
  return typeof v === 'string' ? v : null
}

export function num(o: JsonObject, key: string): number | null {
  const v = o[key]
  return typeof v === 'number' && Number.isFinite(v) ? v : null
}

export function bool(o: JsonObject, key: string): boolean {
  return o[key] === true
}

export function obj(o: JsonObject, key: string): JsonObject | null {
  const v = o[key]
  return isRecord(v) ? v : null
}

export function arr(o: JsonObject, key: string): readonly unknown[] {
  const v = o[key]
  return Array.isArray(v) ? v : []
}

/** `id` of a nested object (`author.id`, `milestone.id`), or null. */
export function nestedId(o: JsonObject, key: string): number | null {
  const n = obj(o, key)
  return n === null ? null : num(n, 'id')
}

/**
 * JSON merge patch (RFC 7386): objects merge key by key, `null` removes a key, anything else
 * (arrays included) replaces. The outbox's optimistic changes are patches of this form.
 */
export function mergePatch(target: JsonObject, patch: JsonObject): JsonObject {
  const out: Record<string, unknown> = { ...target }
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key]
    else if (isRecord(value) && isRecord(out[key])) out[key] = mergePatch(out[key] as JsonObject, value)
    else out[key] = value
  }
  return out
}
