import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { Type, type Static } from 'typebox'
import { execute, getOperationAST, GraphQLError, parse, validate, type DocumentNode } from 'graphql'
import { MAX_QUERY_SIZE, queryLimitsFor, queryLimitsRule } from './limits'
import { rootValue } from './resolvers'
import { graphqlSchema } from './schema'
import type { GraphQLContext } from './support'
import { callerOf } from '../../platform/caller'
import { ApiError } from '../../platform/http/errors'

// GraphQL over HTTP's parameters, from the query string (GET) or the JSON body (POST, merged into
// the query by the app): `variables` is an object, or JSON text of one on GET.
const GraphQLParams = Type.Object({
  query: Type.Optional(Type.Unknown()),
  variables: Type.Optional(Type.Unknown()),
  operationName: Type.Optional(Type.Unknown()),
})
type GraphQLRequest = FastifyRequest<{ Querystring: Static<typeof GraphQLParams> }>

/** GraphQL over HTTP's `{errors: [{message}]}` body. */
function errorBody(message: string): { errors: { message: string }[] } {
  return { errors: [{ message }] }
}

function variablesOf(value: unknown): Record<string, unknown> | null | 'invalid' {
  if (value === undefined || value === null || value === '') return null
  if (typeof value === 'string') {
    try {
      return variablesOf(JSON.parse(value))
    } catch {
      return 'invalid'
    }
  }
  return typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : 'invalid'
}

/**
 * GitLab's GraphQL endpoint at `/api/graphql` (outside `/api/v4`), POST with a JSON body
 * `{query, variables, operationName}` or GET with the same as query parameters (queries only).
 * Callers authenticate as for REST (PRIVATE-TOKEN, Bearer personal or OAuth token, sudo); tokens
 * need `api` or `read_api`, and mutations `api`. Query errors come back with status 200 in
 * `errors`, as GitLab answers them; credentials errors keep their status with the same shape.
 */
const graphqlRoutes: FastifyPluginAsync = async (app) => {
  const schema = graphqlSchema()

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      reply.headers(error.headers)
      const message = error.statusCode === 401 ? 'Invalid token' : error.message
      return reply.code(error.statusCode).send(errorBody(message))
    }
    const status = (error as FastifyError).statusCode
    if (status !== undefined && status >= 400 && status < 500) return reply.code(status).send(errorBody(error.message))
    request.log.error(error)
    return reply.code(500).send(errorBody('Internal server error'))
  })

  const handler = async (request: GraphQLRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const params = request.query
    const source = params.query
    if (typeof source !== 'string' || source.trim() === '')
      return reply.code(400).send(errorBody('No query string was present'))
    if (source.length > MAX_QUERY_SIZE) return reply.code(422).send(errorBody('Query too large'))
    const variableValues = variablesOf(params.variables)
    if (variableValues === 'invalid') return reply.code(400).send(errorBody('Variables must be a JSON object'))
    const operationName =
      typeof params.operationName === 'string' && params.operationName !== '' ? params.operationName : undefined

    let document: DocumentNode
    try {
      document = parse(source)
    } catch (error) {
      if (error instanceof GraphQLError) return reply.send({ errors: [error.toJSON()] })
      throw error
    }
    // Limits are measured on valid documents only, as graphql-ruby runs its analyzers after validation.
    const invalid = validate(schema, document)
    const errors =
      invalid.length > 0
        ? invalid
        : validate(schema, document, [
            queryLimitsRule(queryLimitsFor(request.actor.user), variableValues, operationName),
          ])
    if (errors.length > 0) return reply.send({ errors: errors.map((e) => e.toJSON()) })
    const operation = getOperationAST(document, operationName)
    if (operation?.operation === 'mutation' && request.method === 'GET')
      return reply.code(405).send(errorBody('Mutations are forbidden in GET requests'))

    const contextValue: GraphQLContext = callerOf(request)
    const result = await execute({ schema, document, rootValue, contextValue, variableValues, operationName })
    return reply.send(result)
  }

  const options = { config: { scopes: ['api', 'read_api'] as const }, schema: { querystring: GraphQLParams } }
  app.post('/api/graphql', options, handler)
  app.get('/api/graphql', options, handler)
}

export default graphqlRoutes
