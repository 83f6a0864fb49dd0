/**
 * GraphQL answers of GitLab's `/api/graphql` (ApiClient.graphql). GitLab answers query errors
 * with HTTP 200 and an `errors` list, sometimes beside partial `data`; mutations report refusals
 * in their payload's own `errors: [String!]!`.
 */

export interface GraphQLErrorEntry {
  readonly message: string
  readonly path?: readonly (string | number)[]
}

export interface GraphQLResponse<T> {
  readonly data?: T | null
  readonly errors?: readonly GraphQLErrorEntry[]
}

/** A GraphQL request that answered errors and no data; `code` crosses the IPC bridge as is. */
export class GraphQLRequestError extends Error {
  readonly code = 'graphql-error'
  override readonly name = 'GraphQLRequestError'

  constructor(readonly errors: readonly GraphQLErrorEntry[]) {
    super(errors.map((e) => e.message).join('; ') || 'The GraphQL request failed.')
  }

  get details(): { errors: readonly string[] } {
    return { errors: this.errors.map((e) => e.message) }
  }

  /** GitLab refuses a query over its complexity budget ("Query has complexity of 300, which exceeds max complexity of 250"). */
  get tooComplex(): boolean {
    return this.errors.some((e) => /complexity/i.test(e.message))
  }
}

/** The `data` of an answer; throws GraphQLRequestError when there is none. Partial errors are the caller's to read. */
export function graphqlData<T>(response: GraphQLResponse<T>): T {
  if (response.data === undefined || response.data === null) throw new GraphQLRequestError(response.errors ?? [])
  return response.data
}
