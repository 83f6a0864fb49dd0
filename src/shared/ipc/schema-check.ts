/**
 * IPC argument checks derived from TypeBox schemas, so a shape is declared once (the schema) and
 * both its TypeScript type (`Static`) and its check come from it. Messages stay the readable ones
 * the hand-written checks gave, in one of three styles (CheckOptions).
 */
import { Type, type Static, type TSchema } from 'typebox'
import { Compile, type Validator } from 'typebox/compile'
import type { TLocalizedValidationError } from 'typebox/error'
import { isRecord } from '../json'
import { MAX_ACCOUNT_ID_LENGTH } from './account-id'

/** A message describing the first problem of a value, or null when it is valid. */
export type Check = (value: unknown) => string | null

/** How a check words its refusals. */
export interface CheckOptions {
  /** The whole answer to any problem (for unions, whose per-branch errors read poorly). */
  readonly message?: string
  /**
   * `path` (the default): the field path, then the problem — `not: invalid labels`,
   * `unknown field x`, `projectId is missing`, `ref: <explanation>`.
   * `sentence`: the field is the subject of its explanation — `savedFilters[0].name must be …`,
   * `unknown field(s): a, b` (every one), and a missing field reads as its explanation
   * (`accountId must be a non-empty string`).
   * `verbatim`: as `sentence`, but an explanation is the whole message, naming its field itself
   * (`labels must be …` inside `changes`), and unknown fields are listed without a path: the
   * outbox's and the review's texts.
   */
  readonly style?: Style
}

type Style = 'path' | 'sentence' | 'verbatim'

/**
 * A check of `schema`, compiled once, at its first use: the preload and the renderer import these
 * modules for their types and channel names and never check, so they never compile (nor try
 * `new Function` under the page's Content-Security-Policy). A string option is the whole message.
 */
export function schemaCheck(schema: TSchema, options: string | CheckOptions = {}): Check {
  const check = namedCheck(schema, options)
  return (value) => check(value)
}

/**
 * schemaCheck, which can also be told the name of the value (an argument's): in sentences, a
 * problem of the value itself is then said of that name (`request must be an object`).
 */
function namedCheck(schema: TSchema, options: string | CheckOptions): (value: unknown, name?: string) => string | null {
  const { message, style = 'path' } = typeof options === 'string' ? { message: options } : options
  const validator = compiledOnUse(schema)
  return (value, name) => {
    if (validator().Check(value)) return null
    return message ?? describeError(schema, value, validator().Errors(value), style, name)
  }
}

/**
 * A request channel's arguments, in order, by name: a schema (checked in the list's style) or a
 * check of its own (whose refusal, in sentences, is the whole message: it names what it refuses).
 */
export type ParameterList = Readonly<Record<string, TSchema | Check>>

/**
 * The check of a request channel's argument list, declared as its parameters in order by name; a
 * name ending in `?` marks a trailing argument that may be left out. A wrong count reads
 * `expected [accountId, params?], got 3 argument(s)` (or `expected no arguments, got 1`). A refusal
 * names the argument as its list's style says things: in `path` (and for a check of its own) as
 * the first step of the path (`accountId: must be a non-empty string`, `params: not: invalid
 * labels`); in sentences as the subject of a problem with the argument itself (`accountId must be
 * a non-empty string`, `request must be an object`), while a field's problem names the field as
 * the style does anyway (`body must be a non-empty string`): the names are the contract's tuple
 * labels (`args: [accountId: string, request: …]`), so a refusal says which argument to fix.
 */
export function argumentsCheck(
  parameters: ParameterList,
  options: CheckOptions = {},
): (args: readonly unknown[]) => string | null {
  const sentences = (options.style ?? 'path') !== 'path'
  const checks = Object.entries(parameters).map(([key, p]) => {
    const name = key.replace(/\?$/, '')
    const under = (problem: string | null): string | null => (problem === null ? null : `${name}: ${problem}`)
    if (typeof p === 'function') return sentences ? p : (value: unknown) => under(p(value))
    const check = namedCheck(p, options)
    return sentences ? (value: unknown) => check(value, name) : (value: unknown) => under(check(value))
  })
  const names = Object.keys(parameters)
  const required = names.filter((name) => !name.endsWith('?')).length
  const expected = (got: number): string =>
    names.length === 0 ? `expected no arguments, got ${got}` : `expected [${names.join(', ')}], got ${got} argument(s)`
  return (args) => {
    if (args.length < required || args.length > checks.length) return expected(args.length)
    for (let i = 0; i < args.length; i++) {
      const problem = checks[i](args[i])
      if (problem !== null) return problem
    }
    return null
  }
}

/** A type guard of `schema` (stored data read back), compiled at its first use like schemaCheck. */
export function schemaGuard<T extends TSchema>(schema: T): (value: unknown) => value is Static<T> {
  const validator = compiledOnUse(schema)
  return (value): value is Static<T> => validator().Check(value)
}

/** The validator of `schema`, compiled at the first call. */
function compiledOnUse(schema: TSchema): () => Validator {
  let validator: Validator | undefined
  return () => (validator ??= Compile(schema))
}

/**
 * Why a value of an explained schema is refused: a fixed text (for the value and anything in it),
 * a function that names the reason (also a refinement, see Explained), or a text per failed
 * TypeBox keyword of the value itself (`type`, `maxItems`, `required`…) for a value with several rules.
 * In sentences, an object's `additionalProperties` text leads the list of its unknown fields
 * (`position: unknown field(s)` → `position: unknown field(s): line`).
 */
type Explanation = string | ((value: unknown) => string | null) | { readonly [keyword: string]: string }

/** The schema keyword an explanation is kept under: an annotation, which checking ignores and Optional copies. */
const EXPLANATION = 'x-burrow-explanation'

/**
 * A copy of `schema` whose refusals read `field: <why>` (or, in sentences,
 * `field <why>`) instead of `invalid field`. A function explanation is also a check (a refinement:
 * the value passes when it names no reason), for rules a schema cannot say, such as git's
 * ref-name format. A rule of its own message is better said with TypeBox's `Type.Refine(schema,
 * check, () => why)`, whose message is used the same way.
 */
export function Explained<T extends TSchema>(schema: T, explanation: Explanation): T {
  // A copy with every own property (TypeBox keeps its kind and modifiers non-enumerable), so a shared schema stays unexplained.
  const annotated = Object.defineProperties(
    { [EXPLANATION]: explanation },
    Object.getOwnPropertyDescriptors(schema),
  ) as unknown as T
  return typeof explanation === 'function' ? Type.Refine(annotated, (value) => explanation(value) === null) : annotated
}

/** How a field is reached from its parent: by name, as a record's key, or as an array's element. */
interface Segment {
  readonly name: string
  readonly kind: 'field' | 'key' | 'index'
}

/** A schema on the way from the root to where an error was found, and the value it checked. */
interface Step {
  readonly schema: TSchema
  readonly value: unknown
  /** The segments from the root to this step's value. */
  readonly path: readonly Segment[]
}

/**
 * One readable sentence for the errors of a value; an unknown or missing field is named before
 * anything else. In sentences, a problem of the value itself is said of `valueName` when given
 * (an argument's name), except a refinement's message in `verbatim`, which names its fields itself.
 */
function describeError(
  schema: TSchema,
  value: unknown,
  all: readonly TLocalizedValidationError[],
  style: Style,
  valueName?: string,
): string {
  // What an explanation is said of: nothing in `verbatim`, whose explanations name their field.
  const subject = (path: readonly Segment[]): readonly Segment[] => (style === 'verbatim' ? [] : path)
  const ofValue = (problem: string): string => (valueName === undefined ? problem : `${valueName} ${problem}`)
  const errors = closestBranch(all)
  const unknown = errors.find((e) => e.keyword === 'additionalProperties')
  if (unknown !== undefined && 'additionalProperties' in unknown.params) {
    const names = unknown.params.additionalProperties as readonly string[]
    const at = lastStep(schema, value, unknown)
    if (style === 'path') return prefixed(fieldNames(at.path), `unknown field ${names[0]}`)
    const lead = ownExplanation(at.schema, 'additionalProperties')
    return lead !== null
      ? `${lead}: ${names.join(', ')}`
      : said(subject(at.path), `unknown field(s): ${names.join(', ')}`, ': ')
  }
  const missing = errors.find((e) => e.keyword === 'required')
  if (missing !== undefined && 'requiredProperties' in missing.params) {
    const name = (missing.params.requiredProperties as readonly string[])[0]
    const at = lastStep(schema, value, missing)
    if (style === 'path') return prefixed(fieldNames(at.path), `${name} is missing`)
    const field = (at.schema as { properties?: Record<string, TSchema> }).properties?.[name]
    const why = field === undefined ? null : explanationOf(field, 'required', undefined, true)
    if (why !== null && style === 'verbatim') return why
    return said([...at.path, { name, kind: 'field' }], why ?? 'is missing')
  }
  const first = errors[0]
  if (first === undefined) return 'invalid value'
  const steps = locate(schema, value, first)
  for (let i = steps.length - 1; i >= 0; i--) {
    const { schema: at, value: checked, path } = steps[i]
    const own = i === steps.length - 1
    const why = own && first.keyword === '~refine' ? refineMessage(first) : null
    const explained = why ?? explanationOf(at, first.keyword, checked, own)
    if (explained === null) continue
    if (style === 'path') return prefixed(fieldNames(path), explained)
    const whole = style === 'verbatim' && (why !== null || typeof explanationAt(at) === 'function')
    return path.length === 0 && !whole ? ofValue(explained) : said(subject(path), explained)
  }
  const path = steps[steps.length - 1].path
  const atRoot = path.length === 0
  if (first.keyword === 'type' && 'type' in first.params && first.params.type === 'object') {
    if (style === 'path' || (atRoot && valueName === undefined)) return prefixed(fieldNames(path), 'expected an object')
    return atRoot ? ofValue('must be an object') : said(path, 'must be an object')
  }
  if (style !== 'path') return atRoot ? ofValue('is invalid') : said(path, 'is invalid')
  const names = fieldNames(path)
  const field = names.pop()
  return field === undefined ? 'invalid value' : prefixed(names, `invalid ${field}`)
}

/**
 * The errors of the branch of a union at the root that came closest (fewest errors; the first on a
 * tie), so `{baseUrl, token: ''}` is told about its token rather than the other branch's password.
 */
function closestBranch(errors: readonly TLocalizedValidationError[]): readonly TLocalizedValidationError[] {
  if (!errors.some((e) => e.keyword === 'anyOf' && e.schemaPath === '#')) return errors
  const branches = new Map<string, TLocalizedValidationError[]>()
  for (const error of errors) {
    const branch = /^#\/anyOf\/\d+/.exec(error.schemaPath)?.[0]
    if (branch !== undefined) branches.set(branch, [...(branches.get(branch) ?? []), error])
  }
  let closest: readonly TLocalizedValidationError[] = errors
  for (const branch of branches.values()) if (closest === errors || branch.length < closest.length) closest = branch
  return closest
}

/** TypeBox's name for a refinement without a message of its own. */
const UNNAMED_REFINEMENT = 'Refine Error'

/** The message a `Type.Refine(schema, check, () => why)` gave its failure, or null. */
function refineMessage(error: TLocalizedValidationError): string | null {
  const message = 'message' in error.params ? error.params.message : undefined
  return typeof message === 'string' && message !== UNNAMED_REFINEMENT ? message : null
}

/**
 * The explanation `schema` gives for an error of `keyword` on `value`, or null. A keyword's own text
 * applies only to the schema's own errors (`own`); a fixed text or a function, to its descendants' too.
 */
function explanationOf(schema: TSchema, keyword: string, value: unknown, own: boolean): string | null {
  const explanation = explanationAt(schema)
  if (explanation === undefined) return null
  if (typeof explanation === 'string') return explanation
  if (typeof explanation === 'function') return explanation(value)
  return own ? ownExplanation(schema, keyword) : null
}

/** The explanation Explained gave `schema`, if any. */
function explanationAt(schema: TSchema): Explanation | undefined {
  return (schema as { [EXPLANATION]?: Explanation })[EXPLANATION]
}

/** The text `schema` explains its own errors of `keyword` with (its per-keyword explanation), or null. */
function ownExplanation(schema: TSchema, keyword: string): string | null {
  const explanation = explanationAt(schema)
  return typeof explanation === 'object' ? (explanation[keyword] ?? null) : null
}

/** The last step of `locate`: the schema that found the error. */
function lastStep(schema: TSchema, value: unknown, error: TLocalizedValidationError): Step {
  const steps = locate(schema, value, error)
  return steps[steps.length - 1]
}

/**
 * The schemas from the root to the one that found `error`, following its schema path (so a union's
 * failing branch is the one walked) alongside its instance path.
 */
function locate(root: TSchema, value: unknown, error: TLocalizedValidationError): readonly Step[] {
  const names = pointer(error.instancePath)
  const tokens = pointer(error.schemaPath.replace(/^#/, ''))
  const steps: Step[] = [{ schema: root, value, path: [] }]
  for (let i = 0; i < tokens.length; i++) {
    const { schema, value: current, path } = steps[steps.length - 1]
    const next = descend(schema, tokens[i], tokens[i + 1])
    if (next === null) break
    if (next.consumesToken) i++
    if (next.kind === null) {
      steps.push({ schema: next.schema, value: current, path })
      continue
    }
    const name = names[path.length]
    if (name === undefined) break
    const child = isRecord(current) || Array.isArray(current) ? (current as Record<string, unknown>)[name] : undefined
    steps.push({ schema: next.schema, value: child, path: [...path, { name, kind: next.kind }] })
  }
  return steps
}

/** The subschema a schema-path keyword leads to, and what kind of instance segment it consumes (null: none). */
function descend(
  schema: TSchema,
  keyword: string,
  name: string | undefined,
): { readonly schema: TSchema; readonly kind: Segment['kind'] | null; readonly consumesToken: boolean } | null {
  const s = schema as Record<string, unknown>
  const named = (container: unknown): TSchema | undefined =>
    name !== undefined && isRecord(container) ? (container[name] as TSchema | undefined) : undefined
  const pick = (keywordSchema: unknown, kind: Segment['kind'] | null, consumesToken: boolean) =>
    isRecord(keywordSchema) ? { schema: keywordSchema as TSchema, kind, consumesToken } : null
  switch (keyword) {
    case 'properties':
      return pick(named(s.properties), 'field', true)
    case 'patternProperties':
      return pick(named(s.patternProperties), 'key', true)
    case 'additionalProperties':
      return pick(s.additionalProperties, 'key', false)
    case 'items':
      return pick(s.items, 'index', false)
    case 'anyOf':
    case 'allOf':
    case 'oneOf':
      return pick(name === undefined ? undefined : (s[keyword] as unknown[] | undefined)?.[Number(name)], null, true)
    default:
      return null
  }
}

/** The segments of a JSON pointer (`/a/b~1c` → `['a', 'b/c']`). */
function pointer(text: string): string[] {
  if (text === '') return []
  return text
    .split('/')
    .slice(1)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
}

/** The field names of a path (`not`, `labels`): array elements name no field. */
function fieldNames(path: readonly Segment[]): string[] {
  return path.filter((s) => s.kind !== 'index').map((s) => s.name)
}

/** `problem` under the objects of `path`: `not: invalid labels`. */
function prefixed(path: readonly string[], problem: string): string {
  return [...path, problem].join(': ')
}

/** `problem` said of the value at `path`: `savedFilters[0].name must be …`, or the problem alone at the root. */
function said(path: readonly Segment[], problem: string, separator = ' '): string {
  if (path.length === 0) return problem
  const subject = path.map((s, i) => (s.kind === 'field' ? (i === 0 ? s.name : `.${s.name}`) : `[${s.name}]`)).join('')
  return `${subject}${separator}${problem}`
}

/** A string of at most 64 characters that `Date.parse` reads (an ISO 8601 date or date-time). */
export const DateText = Type.Refine(Type.String({ maxLength: 64 }), (v) => !Number.isNaN(Date.parse(v)))

/** Free text of an argument, at most 1,000 characters. */
export const Text = Type.String({ maxLength: 1000 })

/** An account id as a request names one (see isAccountId); refused as `must be a non-empty string`. */
export const AccountId = Explained(
  Type.String({ minLength: 1, maxLength: MAX_ACCOUNT_ID_LENGTH }),
  'must be a non-empty string',
)

/** A positive integer JavaScript holds exactly (an id, an iid). */
export const PositiveInteger = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })

/** The explanation of an enum: `must be one of a, b, c`. */
export function mustBeOneOf(values: readonly string[]): string {
  return `must be one of ${values.join(', ')}`
}
