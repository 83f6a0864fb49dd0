/**
 * The server's response serializer: fast-json-stringify built from a normalised copy of each
 * route's `schema.response`. The wire model (src/shared/api) says "X or null" as
 * `anyOf: [X, null]` and a choice of resource shapes as `anyOf: [A, B]`; fast-json-stringify
 * serializes an `anyOf` by running an Ajv validator of every option against the value, which made
 * a 100-issue page twice as slow as JSON.stringify. The copy says the same in the forms it
 * serializes directly, without validating.
 */
import fastJsonStringify from 'fast-json-stringify'

/** A JSON Schema node, as TypeBox builds them and fast-json-stringify reads them. */
type Schema = Readonly<Record<string, unknown>>

const COMBINATORS = ['anyOf', 'oneOf', 'allOf', '$ref', 'not', 'if'] as const

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const isNull = (s: Schema): boolean => s.type === 'null'
const isObject = (s: Schema): boolean => s.type === 'object' && !hasCombinator(s)
const isArray = (s: Schema): boolean => s.type === 'array' && isSchema(s.items) && !hasCombinator(s)

function hasCombinator(s: Schema): boolean {
  return COMBINATORS.some((k) => s[k] !== undefined)
}

/** The constants an `enum` or `const` node allows, or null when it allows something else too. */
function constantsOf(s: Schema): readonly unknown[] | null {
  if (hasCombinator(s)) return null
  if (Array.isArray(s.enum)) return s.enum as unknown[]
  if ('const' in s) return [s.const]
  return null
}

/** `A | B | …` of closed or open objects as one object naming every option's fields (a field in several options takes their union). */
function mergedObject(options: readonly Schema[]): Schema {
  const fields = new Map<string, Schema[]>()
  for (const option of options)
    for (const [name, field] of Object.entries((option.properties ?? {}) as Record<string, Schema>))
      fields.set(name, [...(fields.get(name) ?? []), field])
  const properties = Object.fromEntries([...fields].map(([name, schemas]) => [name, unionOf(schemas)]))
  const required = Object.keys(properties).filter((name) =>
    options.every((o) => Array.isArray(o.required) && o.required.includes(name)),
  )
  const open = options.some((o) => o.additionalProperties !== false)
  return { type: 'object', properties, required, ...(open ? {} : { additionalProperties: false }) }
}

/** `o` without its null: `nullable` dropped (the union says it once). */
function nonNull(o: Schema): Schema {
  if (o.nullable !== true) return o
  const { nullable: _, ...rest } = o
  return rest
}

/** Options a bare `{type}` option of the same scalar type already writes alike (enums, formats of a string). */
function withoutSubsumed(options: readonly Schema[]): Schema[] {
  const bare = new Set(
    options.filter((o) => Object.keys(o).length === 1 && typeof o.type === 'string').map((o) => o.type),
  )
  const scalar = (o: Schema): boolean => o.type !== 'object' && o.type !== 'array' && !hasCombinator(o)
  return options.filter((o) => Object.keys(o).length === 1 || !(bare.has(o.type) && scalar(o)))
}

/** Identical schemas once: options of a union often repeat a field's schema. */
function distinct(schemas: readonly Schema[]): Schema[] {
  const seen = new Map<string, Schema>()
  for (const s of schemas) seen.set(JSON.stringify(s), s)
  return [...seen.values()]
}

/**
 * Options of different JSON types (`string | LabelBasic`) as one node with a type list, which
 * fast-json-stringify tells apart by `typeof`; null when two options share a type or a keyword.
 */
function typeListOf(options: readonly Schema[]): Schema | null {
  const types = options.map((o) => o.type)
  if (!types.every((t) => typeof t === 'string') || new Set(types).size < types.length) return null
  if (types.includes('integer') && types.includes('number')) return null
  if (options.some(hasCombinator)) return null
  const keywords = options.flatMap((o) => Object.keys(o).filter((k) => k !== 'type'))
  if (new Set(keywords).size < keywords.length) return null
  return Object.assign({}, ...options, { type: types }) as Schema
}

/**
 * One schema serializing any value of `options` (each normalised): null becomes `nullable`,
 * constants an `enum`, objects one merged object and arrays one array of the union of their items;
 * anything else stays an `anyOf`.
 */
function unionOf(options: readonly Schema[]): Schema {
  const flat = options.flatMap((o) => (Array.isArray(o.anyOf) && Object.keys(o).length === 1 ? o.anyOf : [o]))
  const nullable = flat.some((o) => isNull(o) || o.nullable === true)
  const values = withoutSubsumed(distinct(flat.filter((o) => !isNull(o)).map(nonNull)))
  if (values.length === 0) return { type: 'null' }
  const single = ((): Schema | null => {
    if (values.length === 1) return values[0]
    const constants = values.map(constantsOf)
    if (constants.every((c) => c !== null)) return typedEnum({ enum: [...new Set(constants.flat())] })
    if (values.every(isObject)) return mergedObject(values)
    if (values.every(isArray)) return { type: 'array', items: unionOf(values.map((a) => a.items as Schema)) }
    return typeListOf(values)
  })()
  if (single === null) return { anyOf: nullable ? [...values, { type: 'null' }] : values }
  if (!nullable) return single
  if (Array.isArray(single.type)) return { ...single, type: ['null', ...(single.type as string[])] }
  // `nullable` is read only beside a `type` (or a constant): a node without one stays an anyOf.
  if (hasCombinator(single) || (single.type === undefined && constantsOf(single) === null))
    return { anyOf: [single, { type: 'null' }] }
  return { ...single, nullable: true }
}

/** Keywords whose value is a map of names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions'])
/** Keywords that describe a node without changing what it serializes. */
const ANNOTATIONS = new Set(['description', 'title', 'examples', '$comment'])

/** A string enum with its type, so fast-json-stringify writes it as a string instead of through JSON.stringify. */
function typedEnum(s: Schema): Schema {
  const strings = Array.isArray(s.enum) && s.type === undefined && s.enum.every((v) => typeof v === 'string')
  return strings ? { ...s, type: 'string' } : s
}

function normaliseMap(map: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(map).map(([name, s]) => [name, isSchema(s) ? serializableSchema(s) : s]))
}

const normalised = new WeakMap<Schema, Schema>()

/**
 * A copy of `schema` that fast-json-stringify serializes without validators: unions rewritten by
 * `unionOf`, and string enums typed so they are written as strings. Values keep their meaning: every
 * value the schema allows serializes to the same JSON.
 */
export function serializableSchema(schema: Schema): Schema {
  const done = normalised.get(schema)
  if (done) return done
  const copy: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(schema)) {
    if (name === 'enum' || name === 'const' || name === 'default' || name === 'required') copy[name] = value
    else if (SCHEMA_MAPS.has(name) && isSchema(value)) copy[name] = normaliseMap(value)
    else if (Array.isArray(value)) copy[name] = value.map((v) => (isSchema(v) ? serializableSchema(v) : v))
    else copy[name] = isSchema(value) ? serializableSchema(value) : value
  }
  const { anyOf, ...siblings } = copy
  const unionAlone = Array.isArray(anyOf) && Object.keys(siblings).every((name) => ANNOTATIONS.has(name))
  const result = unionAlone ? { ...siblings, ...unionOf(anyOf as Schema[]) } : typedEnum(copy)
  normalised.set(schema, result)
  return result
}

/** What Fastify hands a serializer compiler for one route and status. */
interface RouteSchema {
  readonly schema: unknown
}

/**
 * Fastify's serializer compiler for every route (`app.setSerializerCompiler`): fast-json-stringify
 * over `serializableSchema` of the route's response schema.
 */
export function responseSerializerCompiler({ schema }: RouteSchema): (data: unknown) => string {
  return fastJsonStringify(isSchema(schema) ? serializableSchema(schema) : {})
}
