import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/auth/access'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { ROOT_TOKEN, makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

describe('GraphQL endpoint /api/graphql', () => {
  let s: TestServer
  let alice: SeededUser
  let readOnly: SeededUser

  const post = (headers: Record<string, string>, payload: unknown) => s.app.inject({ method: 'POST', url: '/api/graphql', headers, payload: payload as Record<string, unknown> })

  beforeAll(async () => {
    s = await makeServer()
    alice = seedUser(s, { username: 'gql_alice', name: 'Alice Q' })
    readOnly = seedUser(s, { username: 'gql_reader', scopes: ['read_api'] })
    const project = seedProject(s, { namespaceId: seedGroup(s, { path: 'gql' }).id, path: 'app', visibility: 'private' })
    seedMember(s, 'Project', project.id, alice.user.id, AccessLevel.MAINTAINER)
    seedMember(s, 'Project', project.id, readOnly.user.id, AccessLevel.MAINTAINER)
  })
  afterAll(async () => {
    await s.close()
  })

  it('answers currentUser for a PRIVATE-TOKEN caller', async () => {
    const res = await post({ 'private-token': alice.token }, { query: '{ currentUser { id username name state webUrl webPath bot } }' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/json')
    expect(res.json()).toEqual({
      data: { currentUser: { id: `gid://gitlab/User/${alice.user.id}`, username: 'gql_alice', name: 'Alice Q', state: 'active', webUrl: 'http://burrow.test/gql_alice', webPath: '/gql_alice', bot: false } },
    })
  })

  it('accepts a personal access token as Authorization: Bearer', async () => {
    const res = await post({ authorization: `Bearer ${alice.token}` }, { query: '{ currentUser { username } }' })
    expect(res.json()).toEqual({ data: { currentUser: { username: 'gql_alice' } } })
  })

  it('accepts an OAuth access token as Authorization: Bearer', async () => {
    const token = await s.app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: 'password', username: 'gql_alice', password: alice.password } })
    const res = await post({ authorization: `Bearer ${token.json().access_token as string}` }, { query: '{ currentUser { username } }' })
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
    const res = await s.app.inject({ method: 'GET', url: `/api/graphql?query=${query}`, headers: { 'private-token': alice.token } })
    expect(res.json()).toEqual({ data: { currentUser: { username: 'gql_alice' } } })
    const mutation = encodeURIComponent('mutation { alertTodoCreate(input: {projectPath: "gql/app", iid: "1"}) { errors } }')
    const refused = await s.app.inject({ method: 'GET', url: `/api/graphql?query=${mutation}`, headers: { 'private-token': alice.token } })
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
    expect(unknown.json()).toEqual({ errors: [expect.objectContaining({ message: 'Cannot query field "shoeSize" on type "UserCore".' })] })
  })

  it('answers 400 without a query and for variables that are not an object', async () => {
    const none = await post({ 'private-token': alice.token }, {})
    expect(none.statusCode).toBe(400)
    expect(none.json()).toEqual({ errors: [{ message: 'No query string was present' }] })
    const bad = await post({ 'private-token': alice.token }, { query: '{ currentUser { username } }', variables: '[1]' })
    expect(bad.statusCode).toBe(400)
  })

  it('lets a read_api token query but not mutate', async () => {
    const read = await post({ 'private-token': readOnly.token }, { query: '{ currentUser { username } }' })
    expect(read.json()).toEqual({ data: { currentUser: { username: 'gql_reader' } } })
    const write = await post({ 'private-token': readOnly.token }, { query: 'mutation { httpIntegrationCreate(input: {projectPath: "gql/app", name: "x", active: true}) { errors } }' })
    expect(write.json()).toEqual({
      data: { httpIntegrationCreate: null },
      errors: [expect.objectContaining({ message: 'Insufficient scope: mutations need a token with the api scope', path: ['httpIntegrationCreate'] })],
    })
  })

  it('runs as the sudo user when an administrator asks', async () => {
    const res = await post({ 'private-token': ROOT_TOKEN, sudo: 'gql_alice' }, { query: '{ currentUser { username } }' })
    expect(res.json()).toEqual({ data: { currentUser: { username: 'gql_alice' } } })
  })

  it('answers introspection, so clients can build the schema', async () => {
    const res = await post({ 'private-token': alice.token }, { query: '{ __type(name: "AlertManagementAlert") { fields { name } } }' })
    const names = (res.json().data.__type.fields as { name: string }[]).map((f) => f.name)
    expect(names).toEqual(expect.arrayContaining(['iid', 'title', 'severity', 'status', 'startedAt', 'eventCount', 'details', 'assignees', 'todos']))
  })
})
