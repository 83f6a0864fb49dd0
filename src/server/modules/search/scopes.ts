/**
 * The scopes of GitLab's search API, per level (Burrow Server searches code, commits and notes
 * everywhere, as GitLab does with advanced search enabled).
 */
export const GLOBAL_SCOPES = [
  'projects',
  'issues',
  'merge_requests',
  'milestones',
  'snippet_titles',
  'users',
  'commits',
  'blobs',
  'wiki_blobs',
  'notes',
] as const

export type SearchScope = (typeof GLOBAL_SCOPES)[number]

/** A group search has the instance's scopes but snippet titles (GitLab searches snippets only instance-wide). */
export const GROUP_SCOPES: readonly SearchScope[] = GLOBAL_SCOPES.filter((scope) => scope !== 'snippet_titles')

/** A project search has the group's scopes but projects. */
export const PROJECT_SCOPES: readonly SearchScope[] = GROUP_SCOPES.filter((scope) => scope !== 'projects')
