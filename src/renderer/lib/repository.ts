import type { RouteLocationRaw } from 'vue-router'
import type { RepoClone } from '../../shared/ipc/repos'

/**
 * Addresses and small helpers of the repository browser. The ref and the path travel in the
 * query string (`?ref=main&path=src/app.ts`): both may hold `/`, which a path parameter would
 * make ambiguous.
 */

export type RepositoryTab = 'tree' | 'blob' | 'blame' | 'commits' | 'commit' | 'compare'

export interface RepositoryPlace {
  readonly accountId: string
  readonly projectId: number
}

/** The browser's route for a tab; `ref`, `path`, `page` and `line` go in the query when given. */
export function repositoryRoute(
  place: RepositoryPlace,
  tab: Exclude<RepositoryTab, 'commit'>,
  query: {
    readonly ref?: string | null
    readonly path?: string
    readonly page?: number
    readonly from?: string
    readonly to?: string
    /** A file's line to show (blob). */
    readonly line?: number
  } = {},
): RouteLocationRaw {
  const q: Record<string, string> = {}
  if (query.ref) q.ref = query.ref
  if (query.path) q.path = query.path
  if (query.page !== undefined && query.page > 1) q.page = String(query.page)
  if (query.from) q.from = query.from
  if (query.to) q.to = query.to
  if (query.line !== undefined && query.line > 0) q.line = String(query.line)
  return {
    name: `repository-${tab}`,
    params: { account: place.accountId, projectId: String(place.projectId) },
    query: q,
  }
}

export function commitRoute(place: RepositoryPlace, sha: string): RouteLocationRaw {
  return { name: 'repository-commit', params: { account: place.accountId, projectId: String(place.projectId), sha } }
}

/** `src/lib/a.ts` → the crumbs `src`, `src/lib`, `src/lib/a.ts` with their names. */
export function breadcrumbs(path: string): { readonly name: string; readonly path: string }[] {
  if (path === '') return []
  const parts = path.split('/')
  return parts.map((name, i) => ({ name, path: parts.slice(0, i + 1).join('/') }))
}

/** The directory above `path` ('' at the top). */
export function parentPath(path: string): string {
  const i = path.lastIndexOf('/')
  return i === -1 ? '' : path.slice(0, i)
}

/** How the clone list and the browser describe a clone's state. */
export function cloneStatusText(clone: RepoClone | null): string {
  if (clone === null) return 'Not cloned: read from the server while online'
  switch (clone.state) {
    case 'cloning':
      return 'Cloning…'
    case 'fetching':
      return 'Fetching…'
    case 'failed':
      return `Clone failed: ${clone.lastError ?? 'unknown reason'}`
    default:
      return clone.lastError !== null ? 'Cloned: readable offline · the last fetch failed' : 'Cloned: readable offline'
  }
}

/** 0–100 for a progress bar, or null while the phase has no known end. */
export function progressPercent(clone: RepoClone | null): number | null {
  const p = clone?.progress
  if (p === null || p === undefined || p.total === null || p.total === 0) return null
  return Math.min(100, Math.round((p.loaded / p.total) * 100))
}

/** A commit id as people quote it. */
export function shortSha(sha: string): string {
  return sha.slice(0, 8)
}
