import Fastify, { type FastifyInstance } from 'fastify'
import { Type, type TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Api from '../../src/shared/api/index'
import { Entity, Nullable } from '../../src/shared/api/common'
import { responseSerializerCompiler, serializableSchema } from '../../src/server/platform/http/serializer'

/*
 * The server's response serializer (platform/http/serializer.ts): fast-json-stringify over a copy
 * of the response schema without `anyOf`, so no Ajv validator runs per value, writing the same
 * JSON as the schema says — nulls, each option of a union, no field the schema does not name.
 */

/** Every `anyOf`/`oneOf` left in a schema: each one is a validator fast-json-stringify runs per value. */
function unions(schema: unknown, path = ''): string[] {
  if (typeof schema !== 'object' || schema === null) return []
  const here = 'anyOf' in schema || 'oneOf' in schema ? [path || '/'] : []
  return [...here, ...Object.entries(schema).flatMap(([key, value]) => unions(value, `${path}/${key}`))]
}

const Thing = Entity({
  id: Type.Integer(),
  title: Nullable(Type.String()),
  closed_at: Nullable(Type.String({ format: 'date-time' })),
  due_date: Nullable(Type.String({ format: 'date' })),
  weight: Nullable(Type.Integer()),
  score: Nullable(Type.Number()),
  done: Nullable(Type.Boolean()),
  state: Nullable(Type.Enum(['opened', 'closed'])),
  kind: Type.Union([Type.Literal('issue'), Type.Literal('incident')]),
  author: Nullable(Entity({ id: Type.Integer(), name: Type.String() })),
  tags: Nullable(Type.Array(Type.String())),
  labels: Api.ItemLabels,
  extra: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
})

const Admin = Entity({ id: Type.Integer(), username: Type.String(), is_admin: Type.Boolean(), email: Type.String() })
const Basic = Entity({ id: Type.Integer(), username: Type.String() })
const People = Type.Array(Type.Union([Admin, Basic]))

const full = {
  id: 1,
  title: 'A "quoted" title',
  closed_at: '2025-06-02T09:30:00.000Z',
  due_date: '2025-06-30',
  weight: 3,
  score: 1.5,
  done: true,
  state: 'closed',
  kind: 'incident',
  author: { id: 2, name: 'Ann' },
  tags: ['a', 'b'],
  labels: [{ id: 4, name: 'bug', color: '#f00', description: null, description_html: null, text_color: '#fff' }],
  extra: { nested: { any: [1, 'two'] } },
}
const empty = {
  id: 2,
  title: null,
  closed_at: null,
  due_date: null,
  weight: null,
  score: null,
  done: null,
  state: null,
  kind: 'issue',
  author: null,
  tags: null,
  labels: ['bug', 'ui'],
}

let app: FastifyInstance
beforeAll(async () => {
  app = Fastify()
  app.setSerializerCompiler(responseSerializerCompiler)
  const echo = (url: string, schema: TSchema): void => {
    app.post(url, { schema: { response: { 200: schema } } }, async (request) => request.body)
  }
  echo('/thing', Thing)
  echo('/things', Type.Array(Thing))
  echo('/people', People)
  echo('/issues', Type.Array(Api.Issue))
  await app.ready()
})
afterAll(() => app?.close())

const sent = async (url: string, body: unknown): Promise<unknown> =>
  JSON.parse((await app.inject({ method: 'POST', url, payload: body as object })).body) as unknown

describe('the response serializer', () => {
  it('writes every nullable field with its value and as null', async () => {
    expect(Value.Check(Type.Array(Thing), [full, empty])).toBe(true)
    expect(await sent('/things', [full, empty])).toEqual([full, empty])
    expect(await sent('/thing', full)).toEqual(full)
  })

  it('writes each option of a union of resources with its own fields, and drops fields no option names', async () => {
    const admin = { id: 1, username: 'root', is_admin: true, email: 'root@example.com' }
    const basic = { id: 2, username: 'ann' }
    expect(await sent('/people', [admin, basic, { ...basic, password: 'secret' }])).toEqual([admin, basic, basic])
  })

  it('drops a field the schema does not name, nested too', async () => {
    const leaky = { ...full, secret: 's', author: { id: 2, name: 'Ann', email: 'ann@example.com' } }
    expect(await sent('/thing', leaky)).toEqual(full)
  })

  it('serializes the wire model without validators', () => {
    for (const schema of [Api.Issue, Api.MergeRequest, Api.ProjectListItem, Api.Project, People, Thing])
      expect(unions(serializableSchema(schema as never))).toEqual([])
  })

  it('leaves the shared schemas as they were', () => {
    const before = JSON.stringify(Api.Issue)
    serializableSchema(Api.Issue as never)
    responseSerializerCompiler({ schema: Type.Array(Api.Issue) })
    expect(JSON.stringify(Api.Issue)).toBe(before)
  })
})
