/** The search module's public face: the search other modules (GraphQL, the app's fallbacks) may run. */
export { search, type SearchLevel, type SearchPage, type SearchQuery } from './service'
export type { SearchScope } from './scopes'
