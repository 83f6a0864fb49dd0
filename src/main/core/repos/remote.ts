import type { CachedGetResult } from '../../../shared/ipc/cache'
import type {
  RepoBlame,
  RepoBlob,
  RepoBranch,
  RepoCommit,
  RepoCommitDetail,
  RepoCompare,
  RepoDiff,
  RepoLog,
  RepoMergeRequestChanges,
  RepoReadOrigin,
  RepoRefs,
  RepoTag,
  RepoTree,
  RepoTreeEntry,
} from '../../../shared/ipc/repos'
import type { Query } from '../api/query'
import { blobPreview, type ReadLimits } from './reader'

/** A GET of the REST API through the URL cache (`api:get`'s CachedGet): fresh online, the stored answer offline. */
export type CachedRead = (path: string, query?: Query) => Promise<CachedGetResult>

/** Pages read at most per list (100 items each). */
const MAX_PAGES = 20

type Json = Readonly<Record<string, unknown>>

const str = (v: unknown): string => (typeof v === 'string' ? v : '')
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null)

/** Where a set of answers came from: stale when any was, as old as the oldest. */
function originOf(results: readonly CachedGetResult[]): RepoReadOrigin {
  const fetchedAt = results.map((r) => r.fetchedAt).sort()[0] ?? null
  return { source: 'server', stale: results.some((r) => r.stale), fetchedAt }
}

/** Every page of a list endpoint (up to MAX_PAGES), following X-Next-Page. */
async function allPages(
  get: CachedRead,
  path: string,
  query: Query,
): Promise<{ items: Json[]; results: CachedGetResult[]; truncated: boolean }> {
  const items: Json[] = []
  const results: CachedGetResult[] = []
  let page = 1
  for (let i = 0; i < MAX_PAGES; i++) {
    const result = await get(path, { ...query, per_page: 100, page })
    results.push(result)
    if (Array.isArray(result.body)) items.push(...(result.body as Json[]))
    const next = result.page?.nextPage ?? null
    if (next === null || !Array.isArray(result.body) || result.body.length === 0)
      return { items, results, truncated: false }
    page = next
  }
  return { items, results, truncated: true }
}

/** The API's commit JSON, with only the fields the contract names. */
export function apiCommit(json: Json): RepoCommit {
  return {
    id: str(json.id),
    short_id: str(json.short_id),
    title: str(json.title),
    message: str(json.message),
    author_name: str(json.author_name),
    author_email: str(json.author_email),
    authored_date: str(json.authored_date),
    committer_name: str(json.committer_name),
    committer_email: str(json.committer_email),
    committed_date: str(json.committed_date),
    parent_ids: Array.isArray(json.parent_ids) ? json.parent_ids.filter((p): p is string => typeof p === 'string') : [],
    web_url: strOrNull(json.web_url),
  }
}

/** The API's diff JSON (commit diffs, compare, merge request changes), with only the fields the contract names. */
export function apiDiff(json: Json): RepoDiff {
  return {
    old_path: str(json.old_path),
    new_path: str(json.new_path),
    a_mode: strOrNull(json.a_mode),
    b_mode: strOrNull(json.b_mode),
    new_file: json.new_file === true,
    renamed_file: json.renamed_file === true,
    deleted_file: json.deleted_file === true,
    diff: str(json.diff),
    ...(json.too_large === true ? { too_large: true } : {}),
    ...(json.collapsed === true ? { collapsed: true } : {}),
  }
}

const repo = (projectId: number): string => `/projects/${projectId}/repository`

/** The repository reads of the browser through the REST API, for a project that is not cloned. */
export async function remoteRefs(get: CachedRead, projectId: number): Promise<RepoRefs> {
  const project = await get(`/projects/${projectId}`)
  const defaultBranch = strOrNull((project.body as Json | null)?.default_branch)
  const branches = await allPages(get, `${repo(projectId)}/branches`, {})
  const tags = await allPages(get, `${repo(projectId)}/tags`, {})
  const branchList: RepoBranch[] = branches.items.map((b) => ({
    name: str(b.name),
    commit: str((b.commit as Json | null)?.id),
    default: str(b.name) === defaultBranch,
  }))
  branchList.sort((a, b) => (a.default === b.default ? a.name.localeCompare(b.name, 'en') : a.default ? -1 : 1))
  const tagList: RepoTag[] = tags.items.map((t) => ({
    name: str(t.name),
    commit: str((t.commit as Json | null)?.id),
    message: strOrNull(t.message) || null,
  }))
  return {
    ...originOf([project, ...branches.results, ...tags.results]),
    defaultBranch,
    branches: branchList,
    tags: tagList,
  }
}

export async function remoteTree(get: CachedRead, projectId: number, ref: string, path: string): Promise<RepoTree> {
  const { items, results } = await allPages(get, `${repo(projectId)}/tree`, { ref, ...(path === '' ? {} : { path }) })
  const entries: RepoTreeEntry[] = items.map((e) => ({
    name: str(e.name),
    path: str(e.path),
    type: e.type === 'tree' ? 'tree' : e.type === 'commit' ? 'commit' : 'blob',
    mode: str(e.mode),
    id: str(e.id),
  }))
  entries.sort((a, b) =>
    (a.type === 'tree') === (b.type === 'tree') ? a.name.localeCompare(b.name, 'en') : a.type === 'tree' ? -1 : 1,
  )
  return { ...originOf(results), ref, commit: null, path, entries }
}

export async function remoteBlob(
  get: CachedRead,
  projectId: number,
  ref: string,
  path: string,
  limits: ReadLimits,
): Promise<RepoBlob> {
  const result = await get(`${repo(projectId)}/files/${encodeURIComponent(path)}`, { ref })
  const file = (result.body ?? {}) as Json
  const bytes = Buffer.from(str(file.content), file.encoding === 'base64' ? 'base64' : 'utf8')
  const size = typeof file.size === 'number' ? file.size : bytes.length
  return { ...originOf([result]), ref, path, id: str(file.blob_id), size, ...blobPreview(bytes, size, limits) }
}

/** The server's blame of a file; its commits carry no title or short id, so they are made from the message and id. */
export async function remoteBlame(get: CachedRead, projectId: number, ref: string, path: string): Promise<RepoBlame> {
  const result = await get(`${repo(projectId)}/files/${encodeURIComponent(path)}/blame`, { ref })
  const ranges = (Array.isArray(result.body) ? (result.body as Json[]) : []).map((range) => {
    const commit = apiCommit((range.commit ?? {}) as Json)
    return {
      commit: {
        ...commit,
        title: commit.title || (commit.message.split('\n', 1)[0] ?? ''),
        short_id: commit.short_id || commit.id.slice(0, 8),
      },
      lines: Array.isArray(range.lines) ? range.lines.map(str) : [],
    }
  })
  return { ...originOf([result]), ref, path, binary: false, tooLarge: false, ranges }
}

export async function remoteLog(
  get: CachedRead,
  projectId: number,
  ref: string,
  path: string,
  page: number,
  perPage: number,
): Promise<RepoLog> {
  const result = await get(`${repo(projectId)}/commits`, {
    ref_name: ref,
    ...(path === '' ? {} : { path }),
    page,
    per_page: perPage,
  })
  const commits = Array.isArray(result.body) ? (result.body as Json[]).map(apiCommit) : []
  // X-Next-Page says; a server without pagination headers has more when the page is full.
  const hasMore = result.page === null ? commits.length === perPage : result.page.nextPage !== null
  return { ...originOf([result]), commits, page, perPage, hasMore }
}

export async function remoteCommit(
  get: CachedRead,
  projectId: number,
  sha: string,
  limits: ReadLimits,
): Promise<RepoCommitDetail> {
  const commit = await get(`${repo(projectId)}/commits/${encodeURIComponent(sha)}`)
  const diffs = await allPages(get, `${repo(projectId)}/commits/${encodeURIComponent(sha)}/diff`, {})
  const list = diffs.items.map(apiDiff)
  return {
    ...originOf([commit, ...diffs.results]),
    commit: apiCommit(commit.body as Json),
    diffs: list.slice(0, limits.maxDiffFiles),
    overflow: diffs.truncated || list.length > limits.maxDiffFiles,
  }
}

/** The path of a merge request's changes. */
export const mergeRequestChangesPath = (projectId: number, iid: number): string =>
  `/projects/${projectId}/merge_requests/${iid}/changes`

/** A `…/changes` answer as the contract names it. */
export function mergeRequestChangesOf(result: CachedGetResult): RepoMergeRequestChanges {
  const body = (result.body ?? {}) as Json
  const refs = (body.diff_refs ?? {}) as Json
  return {
    ...originOf([result]),
    diffs: (Array.isArray(body.changes) ? (body.changes as Json[]) : []).map(apiDiff),
    overflow: body.overflow === true,
    headSha: strOrNull(refs.head_sha) ?? strOrNull(body.sha),
  }
}

export async function remoteCompare(
  get: CachedRead,
  projectId: number,
  from: string,
  to: string,
  straight: boolean,
): Promise<RepoCompare> {
  const result = await get(`${repo(projectId)}/compare`, { from, to, straight })
  const body = (result.body ?? {}) as Json
  const commits = (Array.isArray(body.commits) ? (body.commits as Json[]) : []).map(apiCommit)
  commits.sort((a, b) => Date.parse(b.committed_date) - Date.parse(a.committed_date))
  const diffs = (Array.isArray(body.diffs) ? (body.diffs as Json[]) : []).map(apiDiff)
  const results = [result]
  let mergeBase: string | null = null
  if (!straight) {
    try {
      const base = await get(`${repo(projectId)}/merge_base`, { refs: [from, to] })
      results.push(base)
      mergeBase = strOrNull((base.body as Json | null)?.id)
    } catch {
      /* histories that do not meet have no merge base: the compare still stands */
    }
  }
  return {
    ...originOf(results),
    from,
    to,
    mergeBase,
    commits,
    commitsTruncated: false,
    diffs,
    overflow: body.compare_timeout === true,
  }
}
