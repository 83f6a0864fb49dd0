import { describe, expect, it } from 'vitest'
import { cacheValidators } from '../../src/shared/ipc/cache'

/**
 * `api:get`'s path and query (src/shared/ipc/api.ts `ApiPath`, `ApiQuery`) are TypeBox schemas; the
 * path's rule (api-path.ts) and the query's plain-object rule are refinements, and every refusal
 * names the argument's problem as the hand-written checks did.
 */
const apiGet = (...args: unknown[]) => cacheValidators['api:get'](['acct', ...args])

class Params {
  readonly a = 1
}

describe('api:get path and query schemas', () => {
  it.each([
    [[3], 'path: path must be a string of 1 to 2048 characters'],
    [[''], 'path: path must be a string of 1 to 2048 characters'],
    [['users'], 'path: path must be relative to /api/v4 and start with a single /'],
    [['//evil.example/x'], 'path: path must be relative to /api/v4 and start with a single /'],
    [['/projects/%2e%2e/x'], 'path: path must not contain dot segments'],
    [
      ['/users?admin=true'],
      'path: path segments may hold only URL-safe characters and %-escapes (no query, fragment, spaces or backslashes)',
    ],
    [['/users', 'x'], 'query: query must be a plain object of parameters'],
    [['/users', null], 'query: query must be a plain object of parameters'],
    [['/users', new Params()], 'query: query must be a plain object of parameters'],
    [['/users', { 'a=b': 1 }], 'query: invalid query parameter name "a=b"'],
    [['/users', { ['x'.repeat(101)]: 1 }], `query: invalid query parameter name "${'x'.repeat(40)}"`],
    [['/users', { page: { n: 1 } }], 'query: query parameter page must be a string, number, boolean or a list of them'],
    [
      ['/users', { page: Number.NaN }],
      'query: query parameter page must be a string, number, boolean or a list of them',
    ],
    [
      ['/users', { q: 'x'.repeat(10_001) }],
      'query: query parameter q must be a string, number, boolean or a list of them',
    ],
    [
      ['/users', { 'ids[]': Array.from({ length: 501 }, () => 1) }],
      'query: query parameter ids[] must be a string, number, boolean or a list of them',
    ],
    [
      ['/users', { 'ids[]': [1, null] }],
      'query: query parameter ids[] must be a string, number, boolean or a list of them',
    ],
  ])('refuses %j: %s', (args, problem) => {
    expect(apiGet(...args)).toBe(problem)
  })

  it('accepts an encoded path, scalars, lists and a parameter left undefined', () => {
    expect(apiGet('/projects/group%2Fapp/issues')).toBeNull()
    expect(
      apiGet('/users', { page: 2, active: true, search: 'a b', 'tag_list[]': ['x', 3], skip: undefined }),
    ).toBeNull()
  })
})
