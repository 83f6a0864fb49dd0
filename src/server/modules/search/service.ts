import { readableProjects, type IssueViewer } from '../../platform/auth/issue-read-queries'
import { ReadableItems } from '../../platform/auth/readable'
import type { Caller } from '../../platform/caller'
import type { NamespaceRow, ProjectRow } from '../../platform/db/rows'
import { commitEntity, logCommits, type GitCommit } from '../../platform/git/commits'
import { GitError } from '../../platform/git/git'
import { grepChunks, type GrepChunk } from '../../platform/git/grep'
import { projectGitDir, repoExists } from '../../platform/git/project-repo'
import { resolveCommit } from '../../platform/git/refs'
import { listIssues, presentIssues } from '../issues'
import { listEffectiveMembers } from '../members'
import { listMergeRequests, presentMergeRequests } from '../merge-requests'
import { listMilestones, presentMilestones, todayIso } from '../milestones'
import { groupAndDescendantIds } from '../namespaces'
import { noteEntity } from '../notes'
import {
  findProjectWithNamespace,
  listProjects,
  presentProjects,
  projectFilter,
  type ProjectWithNamespaceRow,
} from '../projects'
import { projectUsers } from '../project-users'
import { searchSnippets } from '../snippets'
import { listUsers, userRef, usersByIds } from '../users'
import { canReadWikiWith, wikiGitDir } from '../wikis'
import { notesMatching } from './queries'
import type { SearchScope } from './scopes'

/** Where a search looks: the whole instance, a group with its subgroups, or one project. */
export type SearchLevel =
  | { readonly kind: 'global' }
  | { readonly kind: 'group'; readonly group: NamespaceRow }
  | { readonly kind: 'project'; readonly project: ProjectRow }

/** What a search asks, parsed: the term and the filters GitLab's search API takes. */
export interface SearchQuery {
  readonly term: string
  /** Issues and merge requests in this state. */
  readonly state?: 'opened' | 'closed' | 'merged'
  /** Issues that are (true) or are not (false) confidential. */
  readonly confidential?: boolean
  /** Order by `created_at` (the only order GitLab's basic search has), newest first unless `asc`. */
  readonly sort: 'asc' | 'desc'
  /** The branch, tag or commit searched for commits and blobs of a project (its default branch otherwise). */
  readonly ref?: string
}

/** One page of results and how many there are in all. */
export interface SearchPage {
  /** The scope's API entities. */
  readonly items: readonly object[]
  readonly total: number
}

/** A page window. */
export interface SearchWindow {
  readonly limit: number
  readonly offset: number
}

/**
 * Terms shorter than this find nothing (GitLab's abuse detection answers such searches with an
 * empty result rather than an error).
 */
export const MIN_TERM_LENGTH = 2

// Bounds of the searches that read repositories and note bodies, so that no search holds the
// server: how many matches are gathered at most (the total then counts these), how many
// repositories an instance or group search reads, and how long it may take in all.
const MAX_GATHERED = 1000
const MAX_CODE_PROJECTS = 50
const CODE_SEARCH_MS = 10_000
const GIT_CALL_MS = 5_000

/**
 * GitLab's search API: one page of what `query` finds in `scope` at `level`, showing only what the
 * caller may read — projects they see, issues they may open (confidential ones for their author,
 * assignees and Reporters and above), merge requests and milestones of features open to them,
 * notes whose body and noteable they may read, code of repositories they may read.
 */
export async function search(
  caller: Caller,
  level: SearchLevel,
  scope: SearchScope,
  query: SearchQuery,
  window: SearchWindow,
): Promise<SearchPage> {
  if (query.term.trim().length < MIN_TERM_LENGTH) return { items: [], total: 0 }
  switch (scope) {
    case 'projects':
      return searchProjects(caller, level, query, window)
    case 'issues':
      return searchIssues(caller, level, query, window)
    case 'merge_requests':
      return searchMergeRequests(caller, level, query, window)
    case 'milestones':
      return searchMilestones(caller, level, query, window)
    case 'snippet_titles':
      return searchSnippets(caller, query.term, MAX_GATHERED, window)
    case 'users':
      return searchUsers(caller, level, query, window)
    case 'notes':
      return searchNotes(caller, level, query, window)
    case 'commits':
      return pageOf(await searchCommits(caller, level, query), window)
    case 'blobs':
      return pageOf(await searchBlobs(caller, level, query, 'repository'), window)
    case 'wiki_blobs':
      return pageOf(await searchBlobs(caller, level, query, 'wiki'), window)
  }
}

function pageOf<T extends Readonly<Record<string, unknown>>>(all: readonly T[], window: SearchWindow): SearchPage {
  return { items: all.slice(window.offset, window.offset + window.limit), total: all.length }
}

/** The namespaces a group search covers: the group and every group below it. */
function namespaceIdsOf(caller: Caller, level: SearchLevel): number[] | undefined {
  return level.kind === 'group' ? groupAndDescendantIds(caller.db, level.group.id) : undefined
}

function viewerOf(caller: Caller): IssueViewer | null {
  const user = caller.user
  return user ? { id: user.id, isAdmin: caller.perms.isAdmin, external: user.external === 1 } : null
}

/**
 * The projects of the level the caller may read, most recently active first, at most `limit`
 * (the project itself for a project search: the route already refused one the caller cannot read).
 */
function readableProjectRows(caller: Caller, level: SearchLevel, limit: number): readonly ProjectWithNamespaceRow[] {
  if (level.kind === 'project') {
    const project = findProjectWithNamespace(caller.db, level.project.id)
    return project ? [project] : []
  }
  const filter = projectFilter(
    caller,
    { order_by: 'last_activity_at' },
    { namespaceIds: namespaceIdsOf(caller, level) },
  )
  return listProjects(caller.db, filter, limit, 0).rows
}

function searchProjects(caller: Caller, level: SearchLevel, query: SearchQuery, window: SearchWindow): SearchPage {
  const filter = projectFilter(
    caller,
    { search: query.term, order_by: 'created_at', sort: query.sort },
    { namespaceIds: namespaceIdsOf(caller, level) },
  )
  const { rows, total } = listProjects(caller.db, filter, window.limit, window.offset)
  return { items: presentProjects(caller, rows, { simple: true }), total }
}

function searchIssues(caller: Caller, level: SearchLevel, query: SearchQuery, window: SearchWindow): SearchPage {
  if (query.state === 'merged') return { items: [], total: 0 }
  const viewer = viewerOf(caller)
  const readable = readableProjects(caller.db, viewer, {
    namespaceIds: level.kind === 'project' ? [level.project.namespace_id] : namespaceIdsOf(caller, level),
    nonArchived: false,
  })
  const only = (ids: readonly number[]): number[] =>
    level.kind === 'project' ? ids.filter((id) => id === level.project.id) : [...ids]
  const { rows, total } = listIssues(
    caller.db,
    {
      projectIds: only(readable.ids),
      confidentialProjectIds: viewer?.isAdmin ? null : only(readable.reporterIds),
      viewerId: viewer?.id ?? null,
      state: query.state,
      confidential: query.confidential,
      search: { text: query.term, inTitle: true, inDescription: true },
      orderBy: 'created_at',
      sort: query.sort,
      today: todayIso(),
    },
    window,
  )
  const origin =
    level.kind === 'project' ? { kind: 'project' as const, projectId: level.project.id } : { kind: 'none' as const }
  return { items: presentIssues(caller, rows, { origin }), total }
}

function searchMergeRequests(caller: Caller, level: SearchLevel, query: SearchQuery, window: SearchWindow): SearchPage {
  const viewer = viewerOf(caller)
  const { rows, total } = listMergeRequests(
    caller.db,
    {
      viewer,
      projectIds: level.kind === 'global' ? undefined : readableProjectRows(caller, level, 100_000).map((p) => p.id),
      state: query.state,
      search: query.term,
      orderBy: 'created_at',
      sort: query.sort,
    },
    window,
  )
  return { items: presentMergeRequests(caller, rows), total }
}

/**
 * Milestones of the projects whose issues or merge requests the caller may read, and in a group
 * search those of the group and of the subgroups the caller may read.
 */
function searchMilestones(caller: Caller, level: SearchLevel, query: SearchQuery, window: SearchWindow): SearchPage {
  const readable = new ReadableItems(caller.db, caller.perms)
  const projectIds = readableProjectRows(caller, level, 100_000)
    .filter((p) => readable.feature('issues', p.id) || readable.feature('merge_requests', p.id))
    .map((p) => p.id)
  const groupIds = (namespaceIdsOf(caller, level) ?? []).filter((id) => readable.group(id))
  const state = query.state === 'opened' ? 'active' : query.state === 'closed' ? 'closed' : undefined
  if (query.state === 'merged') return { items: [], total: 0 }
  const { rows, total } = listMilestones(caller.db, { projectIds, groupIds, state, search: query.term }, window)
  return { items: presentMilestones(caller, rows), total }
}

/** Users: anyone active on the instance, or the members (direct, inherited, invited) of the group or project. */
function searchUsers(caller: Caller, level: SearchLevel, query: SearchQuery, window: SearchWindow): SearchPage {
  if (level.kind === 'project') {
    const { users, total } = projectUsers(caller, level.project, { search: query.term }, window)
    return { items: users, total }
  }
  if (level.kind === 'group') {
    const source = { type: 'Namespace' as const, id: level.group.id, namespaceId: level.group.id }
    const { rows, total } = listEffectiveMembers(caller.db, source, { query: query.term }, window)
    return { items: rows.map((m) => userRef(m.user, caller.baseUrl)), total }
  }
  const { rows, total } = listUsers(
    caller.db,
    { search: query.term, searchEmails: false, active: true, excludeInternal: true },
    { orderBy: 'id', sort: 'asc' },
    window.limit,
    window.offset,
  )
  return { items: rows.map((u) => userRef(u, caller.baseUrl)), total }
}

/**
 * Notes whose body contains the term, on items the caller may read: internal notes only for
 * Reporters and above, notes of confidential issues only for their readers. Hidden notes are
 * left out before paging, so neither a page nor the total reveals them.
 */
function searchNotes(caller: Caller, level: SearchLevel, query: SearchQuery, window: SearchWindow): SearchPage {
  const projectIds = readableProjectRows(caller, level, 100_000).map((p) => p.id)
  const readable = new ReadableItems(caller.db, caller.perms)
  const hits = notesMatching(caller.db, projectIds, query.term, MAX_GATHERED).filter((n) => readable.note(n.id))
  if (query.sort === 'asc') hits.reverse()
  const page = hits.slice(window.offset, window.offset + window.limit)
  const authors = usersByIds(
    caller.db,
    page.map((n) => n.author_id),
  )
  const items = page.flatMap((n) => {
    const author = authors.get(n.author_id)
    return author ? [noteEntity(n, author, { iid: n.noteable_iid }, caller.baseUrl)] : []
  })
  return { items, total: hits.length }
}

/** A repository the caller may read, with the commit a search reads. */
interface SearchedRepository {
  readonly project: ProjectWithNamespaceRow
  readonly gitDir: string
  readonly sha: string
  readonly ref: string
}

/**
 * The repositories (or wikis) a code search reads: the project's at `ref` or its default branch,
 * or at most MAX_CODE_PROJECTS readable, most recently active projects of the level at their
 * default branch. Repositories the caller may not read, and empty ones, are left out.
 */
async function searchedRepositories(
  caller: Caller,
  level: SearchLevel,
  kind: 'repository' | 'wiki',
  ref: string | undefined,
): Promise<SearchedRepository[]> {
  const readable = new ReadableItems(caller.db, caller.perms)
  const canRead = (p: ProjectWithNamespaceRow): boolean =>
    kind === 'wiki' ? canReadWikiWith(caller.perms, p) : readable.feature('code', p.id)
  const projects = readableProjectRows(caller, level, MAX_CODE_PROJECTS).filter(canRead)
  const found: SearchedRepository[] = []
  for (const project of projects) {
    const gitDir = kind === 'wiki' ? wikiGitDir(caller.ctx, project) : projectGitDir(caller.ctx, project)
    const wanted = kind === 'wiki' ? 'HEAD' : (ref ?? project.default_branch ?? 'HEAD')
    const sha = repoExists(gitDir) ? await commitOf(gitDir, wanted) : null
    if (sha !== null) found.push({ project, gitDir, sha, ref: wanted })
  }
  return found
}

/** The commit `ref` names in the repository, or null when it names none (an empty repository, an unknown branch). */
async function commitOf(gitDir: string, ref: string): Promise<string | null> {
  try {
    return await resolveCommit(gitDir, ref)
  } catch (error) {
    if (error instanceof GitError) return null
    throw error
  }
}

/** GitLab's search blob: a chunk of matching lines of a file of a project at a ref. */
function blobEntity(chunk: GrepChunk, repo: SearchedRepository): Readonly<Record<string, unknown>> {
  const fileName = chunk.path.slice(chunk.path.lastIndexOf('/') + 1)
  const dot = fileName.lastIndexOf('.')
  const basename = dot > 0 ? chunk.path.slice(0, chunk.path.length - (fileName.length - dot)) : chunk.path
  return {
    basename,
    data: chunk.data,
    path: chunk.path,
    filename: chunk.path,
    id: null,
    ref: repo.ref,
    startline: chunk.startline,
    project_id: repo.project.id,
  }
}

/**
 * Chunks of the files (or wiki pages) that contain the term, repository after repository, at
 * most MAX_GATHERED and within CODE_SEARCH_MS in all.
 */
async function searchBlobs(
  caller: Caller,
  level: SearchLevel,
  query: SearchQuery,
  kind: 'repository' | 'wiki',
): Promise<Readonly<Record<string, unknown>>[]> {
  const deadline = Date.now() + CODE_SEARCH_MS
  const found: Readonly<Record<string, unknown>>[] = []
  for (const repo of await searchedRepositories(caller, level, kind, query.ref)) {
    const room = MAX_GATHERED - found.length
    if (room <= 0 || Date.now() >= deadline) break
    const chunks = await grepChunks(repo.gitDir, repo.sha, query.term, { maxChunks: room, deadline })
    found.push(...chunks.map((c) => blobEntity(c, repo)))
  }
  return found
}

/**
 * Commits whose message contains the term (`git log --grep`, a fixed string, any case) on each
 * searched repository's ref, newest first across repositories, at most MAX_GATHERED.
 */
async function searchCommits(
  caller: Caller,
  level: SearchLevel,
  query: SearchQuery,
): Promise<Readonly<Record<string, unknown>>[]> {
  const deadline = Date.now() + CODE_SEARCH_MS
  const found: { commit: GitCommit; entity: Readonly<Record<string, unknown>> }[] = []
  for (const repo of await searchedRepositories(caller, level, 'repository', query.ref)) {
    const remaining = deadline - Date.now()
    if (remaining <= 0) break
    const args = [`--max-count=${MAX_GATHERED}`, '-i', '-F', `--grep=${query.term}`, '--end-of-options', repo.sha]
    const commits = await logCommits(repo.gitDir, args, { timeoutMs: Math.min(GIT_CALL_MS, remaining) }).catch(
      (error: unknown) => {
        if (error instanceof GitError) return []
        throw error
      },
    )
    const webUrl = `${caller.baseUrl}/${repo.project.ns_full_path}/${repo.project.path}`
    for (const commit of commits)
      found.push({
        commit,
        entity: { ...commitEntity(commit, webUrl), status: null, project_id: repo.project.id, last_pipeline: null },
      })
  }
  const order = query.sort === 'asc' ? 1 : -1
  const time = (c: GitCommit): number => Date.parse(c.committedDate)
  found.sort((a, b) => order * (time(a.commit) - time(b.commit)))
  return found.slice(0, MAX_GATHERED).map((f) => f.entity)
}
