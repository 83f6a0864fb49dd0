/**
 * The scopes of GitLab's search API, per level (Burrow Server searches code, commits and notes
 * everywhere, as GitLab does with advanced search enabled).
 */
export const GLOBAL_SCOPES = [
  'projects',
  'issues',
  'merge_requests',
  'milestones',
  'users',
  'commits',
  'blobs',
  'wiki_blobs',
  'notes',
] as const

/** A group search has the instance's scopes. */
export const GROUP_SCOPES = GLOBAL_SCOPES

export type SearchScope = (typeof GLOBAL_SCOPES)[number]

/** A project search has every scope but projects. */
export const PROJECT_SCOPES: readonly SearchScope[] = GLOBAL_SCOPES.filter((scope) => scope !== 'projects')
