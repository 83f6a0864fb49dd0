import { buildClientSchema, getIntrospectionQuery } from 'graphql'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { ROOT_TOKEN, makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

describe('GraphQL endpoint /api/graphql', () => {
  let s: TestServer
  let alice: SeededUser
  let readOnly: SeededUser

  const post = (headers: Record<string, string>, payload: unknown) =>
    s.app.inject({ method: 'POST', url: '/api/graphql', headers, payload: payload as Record<string, unknown> })

  beforeAll(async () => {
    s = await makeServer()
    alice = seedUser(s, { username: 'gql_alice', name: 'Alice Q' })
    readOnly = seedUser(s, { username: 'gql_reader', scopes: ['read_api'] })
    const project = seedProject(s, {
      namespaceId: seedGroup(s, { path: 'gql' }).id,
      path: 'app',
      visibility: 'private',
    })
    seedMember(s, 'Project', project.id, alice.user.id, AccessLevel.MAINTAINER)
    seedMember(s, 'Project', project.id, readOnly.user.id, AccessLevel.MAINTAINER)
  })
  afterAll(async () => {
    await s.close()
  })

  it('answers currentUser for a PRIVATE-TOKEN caller', async () => {
    const res = await post(
      { 'private-token': alice.token },
      { query: '{ currentUser { id username name state webUrl webPath bot } }' },
    )
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/json')
    expect(res.json()).toEqual({
      data: {
        currentUser: {
          id: `gid://gitlab/User/${alice.user.id}`,
          username: 'gql_alice',
          name: 'Alice Q',
          state: 'active',
          webUrl: 'http://burrow.test/gql_alice',
          webPath: '/gql_alice',
          bot: false,
        },
      },
    })
  })

  it('accepts a personal access token as Authorization: Bearer', async () => {
    const res = await post({ authorization: `Bearer ${alice.token}` }, { query: '{ currentUser { username } }' })
    expect(res.json()).toEqual({ data: { currentUser: { username: 'gql_alice' } } })
  })

  it('accepts an OAuth access token as Authorization: Bearer', async () => {
    const token = await s.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'password', username: 'gql_alice', password: alice.password },
    })
    const res = await post(
      { authorization: `Bearer ${token.json().access_token as string}` },
      { query: '{ currentUser { username } }' },
    )
    expect(res.json()).toEqual({ data: { currentUser: { username: 'gql_alice' } } })
  })

  it('gives anonymous callers a null currentUser and no private project', async () => {
    const res = await post({}, { query: '{ currentUser { username } project(fullPath: "gql/app") { id } }' })
    expect(res.json()).toEqual({ data: { currentUser: null, project: null } })
  })

  it('answers 401 with GraphQL errors for an invalid token', async () => {
    const res = await post({ 'private-token': 'not-a-token' }, { query: '{ currentUser { username } }' })
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ errors: [{ message: 'Invalid token' }] })
  })

  it('runs queries sent with GET and refuses mutations there (405)', async () => {
    const query = encodeURIComponent('{ currentUser { username } }')
    const res = await s.app.inject({
      method: 'GET',
      url: `/api/graphql?query=${query}`,
      headers: { 'private-token': alice.token },
    })
    expect(res.json()).toEqual({ data: { currentUser: { username: 'gql_alice' } } })
    const mutation = encodeURIComponent(
      'mutation { alertTodoCreate(input: {projectPath: "gql/app", iid: "1"}) { errors } }',
    )
    const refused = await s.app.inject({
      method: 'GET',
      url: `/api/graphql?query=${mutation}`,
      headers: { 'private-token': alice.token },
    })
    expect(refused.statusCode).toBe(405)
    expect(refused.json()).toEqual({ errors: [{ message: 'Mutations are forbidden in GET requests' }] })
  })

  it('takes variables as an object or as JSON text, and an operation name', async () => {
    const query = 'query A($p: ID!) { project(fullPath: $p) { fullPath } } query B { currentUser { username } }'
    const a = await post({ 'private-token': alice.token }, { query, variables: { p: 'gql/app' }, operationName: 'A' })
    expect(a.json()).toEqual({ data: { project: { fullPath: 'gql/app' } } })
    const b = await post({ 'private-token': alice.token }, { query, variables: '{"p": "gql/app"}', operationName: 'B' })
    expect(b.json()).toEqual({ data: { currentUser: { username: 'gql_alice' } } })
  })

  it('reports syntax and validation errors in errors with status 200', async () => {
    const syntax = await post({ 'private-token': alice.token }, { query: '{ currentUser { ' })
    expect(syntax.statusCode).toBe(200)
    expect(syntax.json().errors[0].message).toMatch(/^Syntax Error/)
    const unknown = await post({ 'private-token': alice.token }, { query: '{ currentUser { shoeSize } }' })
    expect(unknown.json()).toEqual({
      errors: [expect.objectContaining({ message: 'Cannot query field "shoeSize" on type "UserCore".' })],
    })
  })

  it('answers 400 without a query and for variables that are not an object', async () => {
    const none = await post({ 'private-token': alice.token }, {})
    expect(none.statusCode).toBe(400)
    expect(none.json()).toEqual({ errors: [{ message: 'No query string was present' }] })
    const bad = await post(
      { 'private-token': alice.token },
      { query: '{ currentUser { username } }', variables: '[1]' },
    )
    expect(bad.statusCode).toBe(400)
  })

  it('lets a read_api token query but not mutate', async () => {
    const read = await post({ 'private-token': readOnly.token }, { query: '{ currentUser { username } }' })
    expect(read.json()).toEqual({ data: { currentUser: { username: 'gql_reader' } } })
    const write = await post(
      { 'private-token': readOnly.token },
      {
        query:
          'mutation { httpIntegrationCreate(input: {projectPath: "gql/app", name: "x", active: true}) { errors } }',
      },
    )
    expect(write.json()).toEqual({
      data: { httpIntegrationCreate: null },
      errors: [
        expect.objectContaining({
          message: 'Insufficient scope: mutations need a token with the api scope',
          path: ['httpIntegrationCreate'],
        }),
      ],
    })
  })

  it('runs as the sudo user when an administrator asks', async () => {
    const res = await post(
      { 'private-token': ROOT_TOKEN, sudo: 'gql_alice' },
      { query: '{ currentUser { username } }' },
    )
    expect(res.json()).toEqual({ data: { currentUser: { username: 'gql_alice' } } })
  })

  it('answers introspection, so clients can build the schema', async () => {
    const res = await post(
      { 'private-token': alice.token },
      { query: '{ __type(name: "AlertManagementAlert") { fields { name } } }' },
    )
    const names = (res.json().data.__type.fields as { name: string }[]).map((f) => f.name)
    expect(names).toEqual(
      expect.arrayContaining([
        'iid',
        'title',
        'severity',
        'status',
        'startedAt',
        'eventCount',
        'details',
        'assignees',
        'todos',
      ]),
    )
  })

  describe('limits', () => {
    /** `{ a0: __typename a1: __typename … }`: `count` fields of complexity 1 each. */
    const aliased = (count: number) => `{ ${Array.from({ length: count }, (_, i) => `a${i}: __typename`).join(' ')} }`
    /** `__type(name: "Query")` followed by ofType chains: `depth` fields deep. */
    const nested = (depth: number) =>
      `{ __type(name: "Query") { ${'ofType { '.repeat(depth - 2)}name${' }'.repeat(depth - 2)} } }`

    it('refuses a query text over 10,000 characters with 422, as GitLab, without running it', async () => {
      const res = await post({}, { query: aliased(3000) })
      expect(res.statusCode).toBe(422)
      expect(res.json()).toEqual({ errors: [{ message: 'Query too large' }] })
    })

    it('refuses an anonymous query over complexity 200 and runs one at 200', async () => {
      const refused = await post({}, { query: aliased(201) })
      expect(refused.statusCode).toBe(200)
      expect(refused.json()).toEqual({
        errors: [{ message: 'Query has complexity of 201, which exceeds max complexity of 200' }],
      })
      const allowed = await post({}, { query: aliased(200) })
      expect(Object.keys(allowed.json().data)).toHaveLength(200)
    })

    it('allows signed-in users complexity 250 and administrators 300', async () => {
      expect(
        Object.keys((await post({ 'private-token': alice.token }, { query: aliased(250) })).json().data),
      ).toHaveLength(250)
      expect((await post({ 'private-token': alice.token }, { query: aliased(251) })).json()).toEqual({
        errors: [{ message: 'Query has complexity of 251, which exceeds max complexity of 250' }],
      })
      expect(
        Object.keys((await post({ 'private-token': ROOT_TOKEN }, { query: aliased(300) })).json().data),
      ).toHaveLength(300)
      expect((await post({ 'private-token': ROOT_TOKEN }, { query: aliased(301) })).json().errors[0].message).toBe(
        'Query has complexity of 301, which exceeds max complexity of 300',
      )
    })

    it('counts a fragment at every place it is spread', async () => {
      const fields = Array.from({ length: 30 }, (_, i) => `f${i}: __typename`).join(' ')
      const query = `query { ...F a: __type(name: "Query") { name } } fragment F on Query { ${fields} }`
      expect((await post({}, { query })).json().data.a).toEqual({ name: 'Query' })
      const spreads = Array.from({ length: 7 }, (_, i) => `q${i}: currentUser { ...G }`).join(' ')
      const repeated = `query { ${spreads} } fragment G on UserCore { ${fields} }`
      expect((await post({}, { query: repeated })).json()).toEqual({
        errors: [{ message: 'Query has complexity of 217, which exceeds max complexity of 200' }],
      })
    })

    it('counts a connection’s selections 1% more per item it may return, a page of 100 at most and by default', async () => {
      const fields = Array.from({ length: 99 }, (_, i) => `i${i}: iid`).join(' ')
      const query = `query($n: Int) { project(fullPath: "gql/app") { alertManagementAlerts(first: $n) { nodes { ${fields} } } } }`
      // 1 (project) + 1 (connection) + (1 nodes + 99 fields) × (1 + n/100)
      expect((await post({}, { query, variables: { n: 1 } })).json()).toEqual({ data: { project: null } })
      const refused = { errors: [{ message: 'Query has complexity of 202, which exceeds max complexity of 200' }] }
      expect((await post({}, { query, variables: { n: 100 } })).json()).toEqual(refused)
      expect((await post({}, { query, variables: { n: 5000 } })).json()).toEqual(refused)
      expect(
        (await post({}, { query: query.replace('query($n: Int)', 'query').replace('(first: $n)', '') })).json(),
      ).toEqual(refused)
    })

    it('refuses an anonymous query deeper than 15 and a signed-in one deeper than 20', async () => {
      expect((await post({}, { query: nested(15) })).json().data.__type).toEqual(
        expect.objectContaining({ ofType: null }),
      )
      expect((await post({}, { query: nested(16) })).json()).toEqual({
        errors: [{ message: 'Query has depth of 16, which exceeds max depth of 15' }],
      })
      expect((await post({ 'private-token': alice.token }, { query: nested(20) })).json().errors).toBeUndefined()
      expect((await post({ 'private-token': alice.token }, { query: nested(21) })).json()).toEqual({
        errors: [{ message: 'Query has depth of 21, which exceeds max depth of 20' }],
      })
    })

    it('lets an anonymous tool introspect the whole schema: introspection counts for depth, not complexity', async () => {
      const res = await post({}, { query: getIntrospectionQuery() })
      expect(res.json().errors).toBeUndefined()
      expect(res.json().data.__schema.queryType).toEqual({ kind: 'OBJECT', name: 'Query' })
      expect(buildClientSchema(res.json().data).getQueryType()?.getFields().currentUser).toBeDefined()
    })

    it('refuses introspection that nests lists in lists, which complexity no longer counts', async () => {
      const twice = '{ __type(name: "Query") { fields { type { fields { name } } } } }'
      expect((await post({}, { query: twice })).json().errors).toBeUndefined()
      const thrice = '{ __type(name: "Query") { fields { type { fields { type { fields { name } } } } } } }'
      expect((await post({}, { query: thrice })).json().errors).toEqual([
        expect.objectContaining({ message: 'Maximum introspection depth exceeded' }),
      ])
    })

    it('measures only the operation asked for by name', async () => {
      const query = `query Small { currentUser { username } } query Big ${aliased(201)}`
      expect((await post({}, { query, operationName: 'Small' })).json()).toEqual({ data: { currentUser: null } })
      expect((await post({}, { query, operationName: 'Big' })).json().errors[0].message).toMatch(
        /^Query has complexity of 201/,
      )
    })
  })
})
