import type { Commit, Diff, TreeEntry } from '../api/repository'
import { Type, type Static, type TInteger, type TSchema, type TString } from 'typebox'
import { Entity } from '../api/common'
import { AccountId, argumentsCheck, Explained, PositiveInteger } from './schema-check'

/**
 * The repositories part of the IPC contract (contract.ts spreads it in): local clones of a
 * project's repository (core/repos, isomorphic-git) and the reads the repository browser makes,
 * answered from the clone when there is one — offline too — and otherwise from the REST API
 * (through the URL cache of `api:get`, so what was seen online stays readable).
 *
 * Refs and paths are checked here, at the boundary, and again in core: a ref is a git ref name
 * or a commit id (never an option such as `--upload-pack=…`), a path is relative to the
 * repository's root and never climbs out of it.
 */

/** Where a read was answered from. */
export type RepoSource = 'clone' | 'server'

/** What a local clone is doing. `failed`: the last clone attempt did not finish (see `lastError`). */
export type RepoCloneState = 'cloning' | 'fetching' | 'ready' | 'failed'

export interface RepoProgress {
  readonly accountId: string
  readonly projectId: number
  readonly operation: 'clone' | 'fetch'
  /** What git reports (`Counting objects`, `Receiving objects`, `Resolving deltas`…), or `Connecting`. */
  readonly phase: string
  readonly loaded: number
  /** Null when the phase has no known end. */
  readonly total: number | null
  /** Bytes received from the server so far in this operation. */
  readonly bytes: number
}

/** One project's clone, as `repos:list` and `repos:did-change` carry it. */
export interface RepoClone {
  readonly accountId: string
  readonly projectId: number
  /** `group/project` when the clone was made or last fetched. */
  readonly pathWithNamespace: string
  readonly name: string
  readonly webUrl: string | null
  readonly state: RepoCloneState
  /** The server's default branch at the last clone or fetch. */
  readonly defaultBranch: string | null
  /** ISO 8601; null until a clone finished. */
  readonly clonedAt: string | null
  /** When the clone last matched the server (its clone or its last fetch). */
  readonly fetchedAt: string | null
  /** Why the last clone or fetch failed (it was cancelled, the server refused…). */
  readonly lastError: string | null
  /** Bytes on disk, measured after each clone or fetch. */
  readonly sizeBytes: number | null
  /** While cloning or fetching. */
  readonly progress: RepoProgress | null
}

export interface RepoBranch {
  readonly name: string
  /** The commit id it points at. */
  readonly commit: string
  readonly default: boolean
}

export interface RepoTag {
  readonly name: string
  /** The commit id it points at (peeled through an annotated tag). */
  readonly commit: string
  /** An annotated tag's message, else null. */
  readonly message: string | null
}

/** Answers of the reads carry where they came from: the clone (`fetchedAt` is its last fetch) or the server (`stale`: a cached answer while offline). */
export interface RepoReadOrigin {
  readonly source: RepoSource
  readonly stale: boolean
  readonly fetchedAt: string | null
}

export interface RepoRefs extends RepoReadOrigin {
  readonly defaultBranch: string | null
  readonly branches: readonly RepoBranch[]
  readonly tags: readonly RepoTag[]
}

/** GitLab's tree entry (`path` from the repository's root; `type` `commit` is a submodule), from the clone or the server alike. */
export type RepoTreeEntry = Readonly<TreeEntry>

export interface RepoTree extends RepoReadOrigin {
  readonly ref: string
  /** The commit the ref resolved to (null from the server, which does not say). */
  readonly commit: string | null
  /** '' for the root. */
  readonly path: string
  /** Directories first, then files, each by name. */
  readonly entries: readonly RepoTreeEntry[]
}

export interface RepoBlob extends RepoReadOrigin {
  readonly ref: string
  readonly path: string
  readonly id: string
  readonly size: number
  /** Git's rule: a NUL byte among the first 8000 bytes. */
  readonly binary: boolean
  /** Larger than the preview cap: no content is sent. */
  readonly tooLarge: boolean
  /** UTF-8 text (invalid sequences replaced) when not binary and not too large. */
  readonly text: string | null
  /** A small PNG, JPEG, GIF or WebP image as a `data:` URL (the page's CSP allows no other image source). */
  readonly imageDataUrl: string | null
}

/**
 * A commit as GitLab's API shapes it (`/repository/commits/:sha`), the fields a clone can give
 * too (dates ISO 8601 with the author's offset); `web_url` is null for a clone without a server URL.
 */
export type RepoCommit = Readonly<
  Pick<
    Commit,
    | 'id'
    | 'short_id'
    | 'title'
    | 'message'
    | 'author_name'
    | 'author_email'
    | 'authored_date'
    | 'committer_name'
    | 'committer_email'
    | 'committed_date'
  >
> & { readonly parent_ids: readonly string[]; readonly web_url: string | null }

/**
 * One changed file, in the API's diff shape (the renderer's DiffViewer reads it as is): `diff` is
 * the unified hunks without file headers (`@@ -1,3 +1,4 @@` …), or `Binary files … differ`.
 */
export type RepoDiff = Readonly<
  Pick<Diff, 'old_path' | 'new_path' | 'new_file' | 'renamed_file' | 'deleted_file' | 'diff'>
> & {
  readonly a_mode: string | null
  readonly b_mode: string | null
  /** Left out: the file is too large to diff here. */
  readonly too_large?: boolean
  /** Left out to keep the whole diff within its line budget. */
  readonly collapsed?: boolean
}

/** Consecutive lines of a file last changed by one commit (a range of GitLab's blame API). */
export interface RepoBlameRange {
  readonly commit: RepoCommit
  readonly lines: readonly string[]
}

/**
 * Who last changed each line of a file: from the clone (computed from its history, git blame
 * without move and copy detection) or from the server's blame API. A binary file or one past
 * the preview cap has no ranges.
 */
export interface RepoBlame extends RepoReadOrigin {
  readonly ref: string
  readonly path: string
  readonly binary: boolean
  readonly tooLarge: boolean
  readonly ranges: readonly RepoBlameRange[]
}

export interface RepoLog extends RepoReadOrigin {
  readonly commits: readonly RepoCommit[]
  readonly page: number
  readonly perPage: number
  readonly hasMore: boolean
}

export interface RepoCommitDetail extends RepoReadOrigin {
  readonly commit: RepoCommit
  /** Against the first parent (a root commit against the empty tree). */
  readonly diffs: readonly RepoDiff[]
  /** More files changed than are listed. */
  readonly overflow: boolean
}

export interface RepoCompare extends RepoReadOrigin {
  readonly from: string
  readonly to: string
  /** The common ancestor the diff starts from (null with `straight`, or when the histories do not meet). */
  readonly mergeBase: string | null
  /** In `to` and not in `from`, newest first. */
  readonly commits: readonly RepoCommit[]
  /** More commits than are listed. */
  readonly commitsTruncated: boolean
  readonly diffs: readonly RepoDiff[]
  readonly overflow: boolean
}

const ProjectId = (): TInteger => Explained(PositiveInteger, 'expected a project id (a positive integer)')
const Ref = (): TString => Explained(Type.String(), refProblem)
/** A directory (`''` is the root) or file path inside the repository. */
const DirPath = (): TString => Explained(Type.String(), (v) => repoPathProblem(v, true))
const FilePath = (): TString => Explained(Type.String(), (v) => repoPathProblem(v, false))

export const RepoTreeRequest = Entity({
  projectId: ProjectId(),
  ref: Ref(),
  /** '' or absent for the root. */
  path: Type.Optional(DirPath()),
})
export type RepoTreeRequest = Static<typeof RepoTreeRequest>

export const RepoBlobRequest = Entity({ projectId: ProjectId(), ref: Ref(), path: FilePath() })
export type RepoBlobRequest = Static<typeof RepoBlobRequest>

export const RepoLogRequest = Entity({
  projectId: ProjectId(),
  ref: Ref(),
  /** Only commits that changed this file or directory. */
  path: Type.Optional(DirPath()),
  /** 1-based; default 1. */
  page: Type.Optional(Explained(Type.Integer({ minimum: 1, maximum: 100_000 }), 'expected a page number (1 or more)')),
  /** 1–100; default 30. */
  perPage: Type.Optional(Explained(Type.Integer({ minimum: 1, maximum: 100 }), 'expected 1 to 100')),
})
export type RepoLogRequest = Static<typeof RepoLogRequest>

export const RepoCommitRequest = Entity({
  projectId: ProjectId(),
  /** A commit id, or a branch or tag name. */
  sha: Ref(),
})
export type RepoCommitRequest = Static<typeof RepoCommitRequest>

/** `repos:merge-request-changes`: a merge request of the project, by iid. */
export const RepoMergeRequestChangesRequest = Entity({
  projectId: ProjectId(),
  iid: Explained(PositiveInteger, 'expected an iid'),
})
export type RepoMergeRequestChangesRequest = Static<typeof RepoMergeRequestChangesRequest>

/**
 * A merge request's changes: the server's (`source: server`, the saved answer offline, `stale`),
 * or, offline with none saved, computed from the clone (`source: clone`) from the merge base of
 * its target and its head.
 */
export interface RepoMergeRequestChanges extends RepoReadOrigin {
  readonly diffs: readonly RepoDiff[]
  readonly overflow: boolean
  /** The head the changes end at (what viewed marks are kept against); null when not known. */
  readonly headSha: string | null
}

export const RepoCompareRequest = Entity({
  projectId: ProjectId(),
  from: Ref(),
  to: Ref(),
  /** Diff `from` against `to` directly instead of from their merge base (GitLab's `straight`). */
  straight: Type.Optional(Explained(Type.Boolean(), 'expected true or false')),
})
export type RepoCompareRequest = Static<typeof RepoCompareRequest>

export const RepoSearchRequest = Entity({
  /** Words, every one required, each matching as the beginning of a word (of the path, or of one line). */
  query: Explained(Type.String({ maxLength: 500, pattern: '\\S' }), 'expected search text (1 to 500 characters)'),
  projectId: Type.Optional(ProjectId()),
  /** Default 50. */
  limit: Type.Optional(Explained(Type.Integer({ minimum: 1, maximum: 200 }), 'expected 1 to 200')),
})
export type RepoSearchRequest = Static<typeof RepoSearchRequest>

export interface RepoChange {
  readonly accountId: string
  readonly projectId: number
  /** Null: the clone was removed. */
  readonly clone: RepoClone | null
}

// ---- argument validation ---------------------------------------------------------------------

/** At most this many characters in a ref (git has no hard limit; GitLab refuses names this long). */
export const MAX_REF_LENGTH = 255
export const MAX_REPO_PATH_LENGTH = 4096

/**
 * Why a ref name is refused, or null: git's check-ref-format rules (no `..`, `@{`, control
 * characters, space, `~^:?*[\`, no component starting with `.` or ending in `.lock`, no leading,
 * trailing or doubled `/`), and never a leading `-`, which a command line would read as an option.
 */
export function refProblem(ref: unknown): string | null {
  if (typeof ref !== 'string' || ref.length === 0 || ref.length > MAX_REF_LENGTH)
    return `a ref must be a string of 1 to ${MAX_REF_LENGTH} characters`
  if (ref.startsWith('-')) return 'a ref must not start with -'
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(ref))
    return 'a ref must not contain spaces, control characters or any of ~ ^ : ? * [ \\'
  if (ref.includes('..') || ref.includes('@{') || ref === '@') return 'a ref must not contain .. or @{ or be @'
  if (ref.startsWith('/') || ref.endsWith('/') || ref.includes('//'))
    return 'a ref must not start or end with / or contain //'
  if (ref.endsWith('.')) return 'a ref must not end with .'
  for (const part of ref.split('/')) {
    if (part.startsWith('.') || part.endsWith('.lock')) return 'no part of a ref may start with . or end with .lock'
  }
  return null
}

/**
 * Why a path inside the repository is refused, or null: relative to the root (no leading `/`),
 * no empty, `.` or `..` segment, no control character, no leading `-`. `''` is the root.
 */
export function repoPathProblem(path: unknown, allowRoot = true): string | null {
  if (typeof path !== 'string' || path.length > MAX_REPO_PATH_LENGTH)
    return `a path must be a string of at most ${MAX_REPO_PATH_LENGTH} characters`
  if (path === '') return allowRoot ? null : 'a file path must not be empty'
  if (path.startsWith('/')) return 'a path must be relative to the repository root (no leading /)'
  if (path.startsWith('-')) return 'a path must not start with -'
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\x00-\x1f\x7f]/.test(path)) return 'a path must not contain control characters'
  for (const segment of path.split('/')) {
    if (segment === '') return 'a path must not contain empty segments (// or a trailing /)'
    if (segment === '.' || segment === '..') return 'a path must not contain . or .. segments'
  }
  return null
}

/** A request naming a cloned project: the account id and the project id. */
const projectArgs = argumentsCheck({ accountId: AccountId, projectId: ProjectId() })
/** A read of the repository: the account id, then the request `schema` describes. */
const readArgs = (schema: TSchema) => argumentsCheck({ accountId: AccountId, request: schema })

/** The validators of the repository channels, spread into request-validators.ts. */
export const reposValidators = {
  'repos:list': argumentsCheck({ 'accountId?': AccountId }),
  'repos:clone': projectArgs,
  'repos:fetch': projectArgs,
  'repos:cancel': projectArgs,
  'repos:remove': projectArgs,
  'repos:refs': projectArgs,
  'repos:tree': readArgs(RepoTreeRequest),
  'repos:blob': readArgs(RepoBlobRequest),
  'repos:blame': readArgs(RepoBlobRequest),
  'repos:log': readArgs(RepoLogRequest),
  'repos:commit': readArgs(RepoCommitRequest),
  'repos:compare': readArgs(RepoCompareRequest),
  'repos:merge-request-changes': readArgs(RepoMergeRequestChangesRequest),
  'repos:search': readArgs(RepoSearchRequest),
} as const

/** The repository request channels. */
export interface ReposRequests {
  /** The clones of one account, or of every account; with their state and progress. */
  'repos:list': { readonly args: readonly [accountId?: string]; readonly result: readonly RepoClone[] }
  /** Clones the project's repository (all branches and tags) and resolves when done; `repos:did-progress` reports on the way. Online only. */
  'repos:clone': { readonly args: readonly [accountId: string, projectId: number]; readonly result: RepoClone }
  /** Fetches every branch and tag into the clone (pruning what the server deleted) and resolves when done. Online only. */
  'repos:fetch': { readonly args: readonly [accountId: string, projectId: number]; readonly result: RepoClone }
  /** Stops a clone or fetch in progress (it then fails with code `cancelled`); the clone stays as it was before. */
  'repos:cancel': { readonly args: readonly [accountId: string, projectId: number]; readonly result: RepoClone | null }
  /** Cancels anything in progress and deletes the clone from disk. */
  'repos:remove': { readonly args: readonly [accountId: string, projectId: number]; readonly result: null }
  'repos:refs': { readonly args: readonly [accountId: string, projectId: number]; readonly result: RepoRefs }
  'repos:tree': { readonly args: readonly [accountId: string, request: RepoTreeRequest]; readonly result: RepoTree }
  'repos:blob': { readonly args: readonly [accountId: string, request: RepoBlobRequest]; readonly result: RepoBlob }
  /** Who last changed each line of a file, from the clone (offline too) or the server's blame API. */
  'repos:blame': { readonly args: readonly [accountId: string, request: RepoBlobRequest]; readonly result: RepoBlame }
  'repos:log': { readonly args: readonly [accountId: string, request: RepoLogRequest]; readonly result: RepoLog }
  'repos:commit': {
    readonly args: readonly [accountId: string, request: RepoCommitRequest]
    readonly result: RepoCommitDetail
  }
  'repos:compare': {
    readonly args: readonly [accountId: string, request: RepoCompareRequest]
    readonly result: RepoCompare
  }
  /** A merge request's changes from the server (or its saved answer), else computed from the clone. */
  'repos:merge-request-changes': {
    readonly args: readonly [accountId: string, request: RepoMergeRequestChangesRequest]
    readonly result: RepoMergeRequestChanges
  }
  /** File names and contents of the default branch of the account's clones (or of one project's), offline. */
  'repos:search': {
    readonly args: readonly [accountId: string, request: RepoSearchRequest]
    readonly result: RepoSearchResult
  }
}

/** A file of a clone that the words matched: by its path, or on a line of its text. */
export interface RepoSearchHit {
  readonly projectId: number
  readonly pathWithNamespace: string
  /** The branch searched (the clone's default branch). */
  readonly ref: string
  readonly path: string
  readonly matchedIn: 'name' | 'content'
  /** The first matching line (1-based); null for a name match. */
  readonly line: number | null
  /** The path, or that line, with the matched words marked. */
  readonly snippet: readonly { readonly text: string; readonly match: boolean }[]
}

export interface RepoSearchResult {
  /** Name matches first, then content matches; clones in the order `repos:list` gives them. */
  readonly hits: readonly RepoSearchHit[]
  /** More matched than `limit`. */
  readonly truncated: boolean
  /** Files left out of the content search (larger than 256 KiB, binary, or past a clone's 16 MiB of text): their names still match. */
  readonly skippedFiles: number
}

/** The repository events. */
export interface ReposEvents {
  /** A clone or fetch moved on (at most a few per second). */
  'repos:did-progress': RepoProgress
  /** A clone was added, started or finished an operation, failed, or was removed. */
  'repos:did-change': RepoChange
}
