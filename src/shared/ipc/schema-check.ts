/**
 * IPC argument checks derived from TypeBox schemas, so a shape is declared once (the schema) and
 * both its TypeScript type (`Static`) and its check come from it. Messages stay the readable ones
 * the hand-written checks gave: `unknown field x`, `invalid x`, `not: invalid x`, `expected an object`.
 */
import { Type, type TSchema } from 'typebox'
import { Compile, type Validator } from 'typebox/compile'
import type { TLocalizedValidationError } from 'typebox/error'

/** A message describing the first problem of a value, or null when it is valid. */
export type Check = (value: unknown) => string | null

/**
 * A check of `schema`, compiled once, at its first use: the preload and the renderer import these
 * modules for their types and channel names and never check, so they never compile (nor try
 * `new Function` under the page's Content-Security-Policy). `message`, when given, is the whole
 * answer to any problem (for unions, whose per-branch errors read poorly); otherwise the first
 * error is described.
 */
export function schemaCheck(schema: TSchema, message?: string): Check {
  let validator: Validator | undefined
  return (value) => {
    validator ??= Compile(schema)
    if (validator.Check(value)) return null
    return message ?? describeError(validator.Errors(value))
  }
}

/** The field path of an error (`/not/labels/3` → `['not', 'labels']`): array indexes name no field. */
function fieldPath(instancePath: string): string[] {
  return instancePath
    .split('/')
    .slice(1)
    .filter((segment) => !/^\d+$/.test(segment))
}

/** One readable sentence for the errors of a value; an unknown field is named before anything else. */
function describeError(errors: readonly TLocalizedValidationError[]): string {
  const unknown = errors.find((e) => e.keyword === 'additionalProperties')
  if (unknown !== undefined && 'additionalProperties' in unknown.params) {
    const names = unknown.params.additionalProperties as readonly string[]
    return prefixed(fieldPath(unknown.instancePath), `unknown field ${names[0]}`)
  }
  const first = errors[0]
  const path = fieldPath(first?.instancePath ?? '')
  if (first?.keyword === 'type' && 'type' in first.params && first.params.type === 'object')
    return prefixed(path, 'expected an object')
  const field = path.pop()
  return field === undefined ? 'invalid value' : prefixed(path, `invalid ${field}`)
}

/** `problem` under the objects of `path`: `not: invalid labels`. */
function prefixed(path: readonly string[], problem: string): string {
  return [...path, problem].join(': ')
}

/** A string of at most 64 characters that `Date.parse` reads (an ISO 8601 date or date-time). */
export const DateText = Type.Refine(Type.String({ maxLength: 64 }), (v) => !Number.isNaN(Date.parse(v)))

/** Free text of an argument, at most 1,000 characters. */
export const Text = Type.String({ maxLength: 1000 })
