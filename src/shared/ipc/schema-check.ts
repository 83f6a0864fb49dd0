/**
 * IPC argument checks derived from TypeBox schemas, so a shape is declared once (the schema) and
 * both its TypeScript type (`Static`) and its check come from it. Messages stay the readable ones
 * the hand-written checks gave: `unknown field x`, `invalid x`, `not: invalid x`, `expected an object`.
 */
import { Type, type TSchema } from 'typebox'
import { Compile, type Validator } from 'typebox/compile'
import type { TLocalizedValidationError } from 'typebox/error'
import { isRecord } from '../json'

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
    return message ?? describeError(schema, value, validator.Errors(value))
  }
}

/** Why a value of an explained schema is refused: a fixed text, or a function that names the reason. */
type Explanation = string | ((value: unknown) => string | null)

/** The schema keyword an explanation is kept under: an annotation, which checking ignores and Optional copies. */
const EXPLANATION = 'x-burrow-explanation'

/**
 * `schema` (a new one, annotated in place), whose refusals read `field: <why>` instead of
 * `invalid field`. A function explanation is also a check (a refinement: the value passes when it
 * names no reason), for rules a schema cannot say, such as git's ref-name format.
 */
export function Explained<T extends TSchema>(schema: T, explanation: Explanation): T {
  const annotated = Object.assign(schema, { [EXPLANATION]: explanation })
  return typeof explanation === 'string' ? annotated : Type.Refine(annotated, (value) => explanation(value) === null)
}

/** The field path of an error (`/not/labels/3` → `['not', 'labels']`): array indexes name no field. */
function fieldPath(instancePath: string): string[] {
  return instancePath
    .split('/')
    .slice(1)
    .filter((segment) => !/^\d+$/.test(segment))
}

/** One readable sentence for the errors of a value; an unknown or missing field is named before anything else. */
function describeError(schema: TSchema, value: unknown, errors: readonly TLocalizedValidationError[]): string {
  const unknown = errors.find((e) => e.keyword === 'additionalProperties')
  if (unknown !== undefined && 'additionalProperties' in unknown.params) {
    const names = unknown.params.additionalProperties as readonly string[]
    return prefixed(fieldPath(unknown.instancePath), `unknown field ${names[0]}`)
  }
  const missing = errors.find((e) => e.keyword === 'required')
  if (missing !== undefined && 'requiredProperties' in missing.params) {
    const names = missing.params.requiredProperties as readonly string[]
    return prefixed(fieldPath(missing.instancePath), `${names[0]} is missing`)
  }
  const first = errors[0]
  const path = fieldPath(first?.instancePath ?? '')
  const explained = explanationAt(schema, value, path)
  if (explained !== null) return prefixed(path, explained)
  if (first?.keyword === 'type' && 'type' in first.params && first.params.type === 'object')
    return prefixed(path, 'expected an object')
  const field = path.pop()
  return field === undefined ? 'invalid value' : prefixed(path, `invalid ${field}`)
}

/** The explanation of the object field at `path` (see Explained), or null when it has none. */
function explanationAt(schema: TSchema, value: unknown, path: readonly string[]): string | null {
  let at: unknown = schema
  let field: unknown = value
  for (const name of path) {
    const properties = (at as { properties?: Record<string, TSchema> }).properties
    if (properties?.[name] === undefined || !isRecord(field)) return null
    at = properties[name]
    field = field[name]
  }
  const explanation = (at as { [EXPLANATION]?: Explanation })[EXPLANATION]
  if (explanation === undefined) return null
  return typeof explanation === 'string' ? explanation : explanation(field)
}

/** `problem` under the objects of `path`: `not: invalid labels`. */
function prefixed(path: readonly string[], problem: string): string {
  return [...path, problem].join(': ')
}

/** A string of at most 64 characters that `Date.parse` reads (an ISO 8601 date or date-time). */
export const DateText = Type.Refine(Type.String({ maxLength: 64 }), (v) => !Number.isNaN(Date.parse(v)))

/** Free text of an argument, at most 1,000 characters. */
export const Text = Type.String({ maxLength: 1000 })
