import type { RouteLocationRaw } from 'vue-router'
import { isRecord } from '../../shared/json'
import { commitRoute, repositoryRoute } from './repository'

/*
 * The search view's "On the server" section: the search API's scopes for what the cache does
 * not hold, and where each result opens. Results are read defensively (an instance answers
 * what it answers): a result without the fields its place needs is shown without a link.
 */

/** The search API scopes asked for what the cache lacks (issues, merge requests, epics and milestones are synced). */
export const SERVER_SEARCH_SCOPES = ['projects', 'commits', 'blobs', 'notes', 'wiki_blobs', 'users'] as const
export type ServerSearchScope = (typeof SERVER_SEARCH_SCOPES)[number]

/** Each scope's heading. */
export const SCOPE_TITLES: Readonly<Record<ServerSearchScope, string>> = {
  projects: 'Projects',
  commits: 'Commits',
  blobs: 'Code',
  notes: 'Comments',
  wiki_blobs: 'Wiki',
  users: 'Users',
}

/** One search result as the section shows it. */
export interface ServerHit {
  readonly key: string
  readonly title: string
  /** Where it is: project, ref and line, author… */
  readonly detail: string
  /** Matching text (code keeps its lines). */
  readonly snippet: string | null
  /** Where it opens in the app; null when it has no place here. */
  readonly to: RouteLocationRaw | null
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null)
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null)

/** The first lines of a text with something on them, for a snippet. */
function firstLines(value: string | null, lines = 4): string | null {
  if (value === null) return null
  const kept = value
    .replace(/^\s*\n/, '')
    .split('\n')
    .slice(0, lines)
    .join('\n')
    .trimEnd()
  return kept === '' ? null : kept
}

/**
 * The line a code result is about: GitLab's `startline` is where its chunk starts (context lines
 * included), so the first line of the chunk holding the search text, else the chunk's start.
 */
export function matchedLine(data: string, startline: number, search: string): number {
  const needle = search.toLowerCase()
  const index = data.split('\n').findIndex((line) => line.toLowerCase().includes(needle))
  return startline + Math.max(index, 0)
}

/** A wiki page's slug from its file path: `How-to/Deploy.md` → `How-to/Deploy`. */
function wikiSlug(path: string): string {
  return path.replace(/\.[^./]+$/, '')
}

/** What reading a result needs besides it. */
interface ReadContext {
  readonly accountId: string
  /** The result's project's path (empty for a result without a project). */
  readonly projectPath: string
  /** The text searched for. */
  readonly search: string
}

type Reader = (r: Readonly<Record<string, unknown>>, c: ReadContext) => ServerHit | null

const READERS: Readonly<Record<ServerSearchScope, Reader>> = {
  projects: (r, { accountId }) => {
    const id = int(r.id)
    const path = text(r.path_with_namespace)
    if (id === null || path === null) return null
    return {
      key: `p${id}`,
      title: path,
      detail: text(r.description) ?? '',
      snippet: null,
      to: repositoryRoute({ accountId, projectId: id }, 'tree'),
    }
  },
  commits: (r, { accountId, projectPath }) => {
    const sha = text(r.id)
    const projectId = int(r.project_id)
    if (sha === null) return null
    return {
      key: `c${sha}`,
      title: text(r.title) ?? sha,
      detail: `${projectPath} · ${text(r.short_id) ?? sha.slice(0, 8)} · ${text(r.author_name) ?? ''}`,
      snippet: null,
      to: projectId === null ? null : commitRoute({ accountId, projectId }, sha),
    }
  },
  blobs: (r, { accountId, projectPath, search }) => {
    const path = text(r.path)
    const ref = text(r.ref)
    const projectId = int(r.project_id)
    const data = text(r.data) ?? ''
    const line = matchedLine(data, int(r.startline) ?? 1, search)
    if (path === null) return null
    return {
      key: `b${projectId}:${ref}:${path}:${line}`,
      title: path,
      detail: `${projectPath} · ${ref ?? ''} · line ${line}`,
      snippet: firstLines(data, 5),
      to: projectId === null ? null : repositoryRoute({ accountId, projectId }, 'blob', { ref, path, line }),
    }
  },
  notes: (r, { accountId, projectPath }) => {
    const id = int(r.id)
    const projectId = int(r.project_id)
    const iid = int(r.noteable_iid)
    const type = text(r.noteable_type)
    if (id === null) return null
    const family = type === 'Issue' ? 'issues' : type === 'MergeRequest' ? 'merge_requests' : null
    const author = isRecord(r.author) ? text(r.author.name) : null
    const on = family === null || iid === null ? (type ?? '') : `${family === 'issues' ? '#' : '!'}${iid}`
    return {
      key: `n${id}`,
      title: `Comment by ${author ?? 'someone'} on ${projectPath}${on}`,
      detail: type === null ? projectPath : `${type === 'MergeRequest' ? 'Merge request' : type} comment`,
      snippet: firstLines(text(r.body)),
      to:
        family === null || projectId === null || iid === null
          ? null
          : `/a/${accountId}/projects/${projectId}/${family}/${iid}`,
    }
  },
  wiki_blobs: (r, { accountId, projectPath, search }) => {
    const path = text(r.path)
    const projectId = int(r.project_id)
    if (path === null) return null
    return {
      key: `w${projectId}:${path}`,
      title: wikiSlug(path),
      detail: `${projectPath} wiki`,
      snippet: firstLines(text(r.data)),
      to:
        projectId === null
          ? null
          : { name: 'wiki', query: { account: accountId, project: String(projectId), page: wikiSlug(path) } },
    }
  },
  users: (r) => {
    const id = int(r.id)
    const username = text(r.username)
    if (id === null || username === null) return null
    return { key: `u${id}`, title: text(r.name) ?? username, detail: `@${username}`, snippet: null, to: null }
  },
}

/**
 * A search API result of a search for `search` as the section shows it; null for one it cannot
 * read. `projectPath` names a project id (from the cache; `project 7` when it has none).
 */
export function serverHit(
  place: { readonly accountId: string; readonly scope: ServerSearchScope; readonly search: string },
  result: unknown,
  projectPath: (projectId: number) => string,
): ServerHit | null {
  if (!isRecord(result)) return null
  const projectId = int(result.project_id)
  return READERS[place.scope](result, {
    accountId: place.accountId,
    projectPath: projectId === null ? '' : projectPath(projectId),
    search: place.search,
  })
}
