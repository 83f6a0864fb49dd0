import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { Entity } from '../../src/shared/api/common'
import { AccountId, argumentsCheck, Explained, PositiveInteger, schemaCheck } from '../../src/shared/ipc/schema-check'
import { secretsValidators } from '../../src/shared/ipc/secrets-schema'

/**
 * How schema checks word their refusals (src/shared/ipc/schema-check.ts): the `sentence` style the
 * notify, preferences and account channels answer in, explanations per keyword and inside a value,
 * refinements with their own message, and a union told about the branch it came closest to.
 */
describe('schema checks in sentences', () => {
  const Filter = Explained(
    Entity({
      id: Explained(Type.String({ minLength: 1 }), 'must be a non-empty string'),
      paths: Explained(Type.Array(Type.String({ minLength: 1 })), 'must be a list of file paths'),
    }),
    { type: 'must be an object {id, paths}' },
  )
  const Settings = Entity({
    accountId: AccountId,
    filters: Type.Optional(
      Type.Refine(
        Explained(Type.Array(Filter, { maxItems: 2 }), { type: 'must be a list', maxItems: 'holds at most 2 filters' }),
        (filters) => new Set(filters.map((f) => f.id)).size === filters.length,
        () => 'ids must be unique',
      ),
    ),
    muted: Type.Optional(Type.Record(Type.String(), Explained(Type.Array(Type.Integer()), 'must be a list of ids'))),
  })
  const check = schemaCheck(Settings, { style: 'sentence' })
  const filter = (id: string) => ({ id, paths: ['a.ts'] })

  it.each([
    [{ accountId: 'a', x: 1, y: 2 }, 'unknown field(s): x, y'],
    [{ accountId: 'a', filters: [{ ...filter('f'), colour: 'red' }] }, 'filters[0]: unknown field(s): colour'],
    [{}, 'accountId must be a non-empty string'],
    [{ accountId: '' }, 'accountId must be a non-empty string'],
    [{ accountId: 'a', filters: {} }, 'filters must be a list'],
    [{ accountId: 'a', filters: [filter('1'), filter('2'), filter('3')] }, 'filters holds at most 2 filters'],
    [{ accountId: 'a', filters: [filter('1'), filter('1')] }, 'filters ids must be unique'],
    [{ accountId: 'a', filters: [3] }, 'filters[0] must be an object {id, paths}'],
    [{ accountId: 'a', filters: [{ id: '', paths: [] }] }, 'filters[0].id must be a non-empty string'],
    [{ accountId: 'a', filters: [{ id: 'f', paths: [''] }] }, 'filters[0].paths must be a list of file paths'],
    [{ accountId: 'a', muted: { acc: ['x'] } }, 'muted[acc] must be a list of ids'],
    ['text', 'expected an object'],
  ])('refuses %j: %s', (value, message) => {
    expect(check(value)).toBe(message)
  })

  it('accepts a value the schema describes', () => {
    expect(check({ accountId: 'a', filters: [filter('1'), filter('2')], muted: { acc: [1] } })).toBeNull()
  })

  it("describes a union at the root by the branch it came closest to, with that branch's explanations", () => {
    const SignIn = Type.Union([
      Entity({ url: Type.String(), token: Explained(Type.String({ minLength: 1 }), 'must be a non-empty string') }),
      Entity({ url: Type.String(), username: Type.String(), password: Type.String() }),
    ])
    const signIn = schemaCheck(SignIn, { style: 'sentence' })
    expect(signIn({ url: 'u', token: '' })).toBe('token must be a non-empty string')
    expect(signIn({ url: 'u', username: 'ada' })).toBe('password is missing')
    expect(signIn({ url: 'u', token: 't', password: 'p' })).toBe('unknown field(s): password')
    expect(signIn({ url: 'u', token: 't' })).toBeNull()
  })

  it('explains a copy: the explained schema is left as it was', () => {
    const Id = Entity({ id: PositiveInteger })
    const ExplainedId = Entity({ id: Explained(PositiveInteger, 'must be a positive integer') })
    expect(schemaCheck(ExplainedId, { style: 'sentence' })({ id: 0 })).toBe('id must be a positive integer')
    expect(schemaCheck(Id, { style: 'sentence' })({ id: 0 })).toBe('id is invalid')
    expect(schemaCheck(Id)({ id: 0 })).toBe('invalid id')
  })
})

describe('schema checks in the verbatim style', () => {
  const Changes = Explained(
    Entity({
      title: Type.Optional(Explained(Type.String({ minLength: 1 }), 'title must be a non-empty string')),
      labels: Type.Optional(Explained(Type.Array(Type.String({ pattern: '^[^,]*$' })), 'labels must have no commas')),
    }),
    (value) => (typeof value === 'object' && value !== null ? null : 'changes must be an object'),
  )
  const Update = Entity({ iid: Explained(PositiveInteger, 'iid must be a positive integer'), changes: Changes })
  const check = schemaCheck(Update, { style: 'verbatim' })

  it.each([
    [{ iid: 1, changes: { labels: ['a,b'] } }, 'labels must have no commas'],
    [{ iid: 1, changes: { title: 'x', zz: 1, yy: 2 } }, 'unknown field(s): zz, yy'],
    [{ changes: {} }, 'iid must be a positive integer'],
    [{ iid: 1 }, 'changes must be an object'],
    [{ iid: 1, changes: 3 }, 'changes must be an object'],
  ])('words %j as its explanation says, with no path before it: %s', (value, problem) => {
    expect(check(value)).toBe(problem)
  })
})

describe('argument lists', () => {
  const list = argumentsCheck({ accountId: AccountId, 'params?': Entity({ limit: Type.Optional(PositiveInteger) }) })

  it('counts the arguments against the declared list, optional ones marked', () => {
    expect(list([])).toBe('expected [accountId, params?], got 0 argument(s)')
    expect(list(['a', {}, 3])).toBe('expected [accountId, params?], got 3 argument(s)')
    expect(argumentsCheck({})([1])).toBe('expected no arguments, got 1')
  })

  it("names the argument a refusal is about, before the argument's own problem", () => {
    expect(list([''])).toBe('accountId: must be a non-empty string')
    expect(list(['a', { limit: 0 }])).toBe('params: invalid limit')
    expect(list(['a', { zz: 1 }])).toBe('params: unknown field zz')
    expect(list(['a'])).toBeNull()
    expect(list(['a', { limit: 5 }])).toBeNull()
  })

  it('names the argument in the path style, for a check of its own too', () => {
    const ref = argumentsCheck({ accountId: AccountId, ref: (v) => (v === 1 ? null : 'expected the one') })
    expect(ref(['a', 2])).toBe('ref: expected the one')
    expect(ref(['a', 1])).toBeNull()
  })

  it('in sentences, says a problem of the argument itself of its name, and a field’s of the field', () => {
    const Request = Entity({ body: Explained(Type.String({ minLength: 1 }), 'must be a non-empty string') })
    const sentences = argumentsCheck({ accountId: AccountId, request: Request }, { style: 'sentence' })
    expect(sentences([7, { body: 'x' }])).toBe('accountId must be a non-empty string')
    expect(sentences(['a', [1]])).toBe('request must be an object')
    expect(sentences(['a', 'x'])).toBe('request must be an object')
    expect(sentences(['a', { body: '' }])).toBe('body must be a non-empty string')
    expect(sentences(['a', { body: 'x' }])).toBeNull()
  })

  it('in the verbatim style, keeps a refinement’s message and a check’s of its own whole', () => {
    const Refined = Explained(Entity({ n: Type.Integer() }), (v) =>
      (v as { n?: unknown }).n === 0 ? 'n of zero is refused' : null,
    )
    const own = (v: unknown) => (v === 1 ? null : 'flag must be 1')
    const verbatim = argumentsCheck({ accountId: AccountId, request: Refined, 'flag?': own }, { style: 'verbatim' })
    expect(verbatim(['a', { n: 0 }])).toBe('n of zero is refused')
    expect(verbatim(['a', 3])).toBe('request must be an object')
    expect(verbatim(['', { n: 1 }])).toBe('accountId must be a non-empty string')
    expect(verbatim(['a', { n: 1 }, 2])).toBe('flag must be 1')
    expect(verbatim(['a', { n: 1 }, 1])).toBeNull()
  })

  it('accounts:use-encrypted-file takes one passphrase of 8 to 1024 characters, counted as the page counts them', () => {
    const use = secretsValidators['accounts:use-encrypted-file']
    const why = 'passphrase: must be a string of 8 to 1024 characters'
    expect(use(['short'])).toBe(why)
    expect(use(['x'.repeat(1025)])).toBe(why)
    expect(use([12345678])).toBe(why)
    expect(use([])).toBe('expected [passphrase], got 0 argument(s)')
    expect(use(['long enough'])).toBeNull()
    // Four emoji are 8 UTF-16 units (the form's count) but 4 code points (JSON Schema's minLength).
    expect(use(['😀😀😀😀'])).toBeNull()
    expect(secretsValidators['accounts:secret-storage'](['x'])).toBe('expected no arguments, got 1')
  })
})
