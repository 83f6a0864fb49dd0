import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { Errors } from 'isomorphic-git'
import type { Account } from '../../../shared/ipc/contract'
import {
  refProblem,
  repoPathProblem,
  type RepoBlame,
  type RepoBlob,
  type RepoChange,
  type RepoClone,
  type RepoCommitDetail,
  type RepoCompare,
  type RepoLog,
  type RepoMergeRequestChanges,
  type RepoProgress,
  type RepoRefs,
  type RepoSearchHit,
  type RepoSearchRequest,
  type RepoSearchResult,
  type RepoTree,
} from '../../../shared/ipc/repos'
import type { ApiClient } from '../api/client'
import type { OnlineState } from '../api/connectivity'
import { ApiError, NetworkError, NotFoundError } from '../api/errors'
import type { Query } from '../api/query'
import { fetchForCaFile } from '../api/tls-fetch'
import type { Cache } from '../cache/cache'
import { CachedGet, OfflineError } from '../cache/http-cache'
import { CacheReader } from '../cache/lists'
import { queryTerms } from '../cache/search'
import { diskUsage, fetchAll, initClone, removeUnindexedPacks, setRemoteUrl, snapshotRefs } from './clone'
import { RepoError } from './errors'
import { GitNetworkError, gitHttpClient } from './http'
import { CloneReader, DEFAULT_READ_LIMITS, type ReadLimits, type SearchableFiles } from './reader'
import {
  remoteBlame,
  remoteBlob,
  remoteCommit,
  remoteCompare,
  remoteLog,
  mergeRequestChangesOf,
  mergeRequestChangesPath,
  remoteRefs,
  remoteTree,
  type CachedRead,
} from './remote'
import { searchFiles } from './search'
import { CloneStore, type CloneRow } from './store'

/** What the repositories need of the accounts service (accounts/accounts.ts `Accounts` fits). */
export interface RepoAccounts {
  list(): Promise<readonly Account[]>
  clientFor(id: string): Promise<ApiClient>
  connectivityFor(id: string): OnlineState
  gitCredentials(id: string): Promise<{ readonly username: string; readonly password: string }>
}

export interface RepoServiceOptions {
  readonly cache: Cache
  readonly accounts: RepoAccounts
  /** Where clones live: `<reposDir>/<account>/<project id>.git` (the shells use `repos/` in the user data dir). */
  readonly reposDir: string
  /** Injected so tests can watch git's requests; defaults to a fetch trusting the account's CA file. */
  readonly fetch?: typeof fetch
  onProgress?(progress: RepoProgress): void
  onChange?(change: RepoChange): void
  /** Least time between two progress events of one operation (default 150 ms). */
  readonly progressIntervalMs?: number
  readonly limits?: Partial<ReadLimits>
}

interface Operation {
  readonly kind: 'clone' | 'fetch'
  readonly controller: AbortController
  progress: RepoProgress
  readonly done: Promise<RepoClone>
}

interface ProjectJson {
  readonly id: number
  readonly name?: string
  readonly path_with_namespace?: string
  readonly web_url?: string
  readonly default_branch?: string | null
}

/** The fields of a cached merge request that say where its diff starts and ends. */
interface MergeRequestRefs {
  readonly state?: string
  readonly sha?: string | null
  readonly merge_commit_sha?: string | null
  readonly target_branch?: string
  readonly source_branch?: string
  readonly diff_refs?: { readonly start_sha?: string; readonly head_sha?: string } | null
}

const key = (accountId: string, projectId: number): string => `${accountId}\n${projectId}`

/** A directory name for an account: its id when that is a plain file name (UUIDs, `local`), else a hash of it. */
export function accountDirName(accountId: string): string {
  return /^[A-Za-z0-9_-]{1,100}$/.test(accountId)
    ? accountId
    : `account-${createHash('sha256').update(accountId).digest('hex').slice(0, 32)}`
}

/** The contract's checks again, for callers that do not come through it: refs that read as options, paths that climb out. */
function check(refs: readonly string[], path?: string, allowRoot = true): void {
  for (const ref of refs) {
    const problem = refProblem(ref)
    if (problem !== null) throw new RepoError('invalid-arguments', problem)
  }
  const problem = path === undefined ? null : repoPathProblem(path, allowRoot)
  if (problem !== null) throw new RepoError('invalid-arguments', problem)
}

/** isomorphic-git's and the transport's failures, as codes the page can act on. */
function transferError(error: unknown, signal: AbortSignal, what: string): RepoError {
  if (error instanceof RepoError) return error
  if (signal.aborted) return new RepoError('cancelled', `The ${what} was cancelled.`)
  if (error instanceof GitNetworkError) return new RepoError('offline', error.message)
  if (error instanceof NetworkError)
    return new RepoError('offline', `The ${what} needs the server, which cannot be reached: ${error.message}`)
  if (error instanceof Errors.UserCanceledError)
    return new RepoError(
      'invalid-credentials',
      'The server refused the account’s credential for git. Check that the token is valid and has the read_repository or api scope.',
    )
  if (error instanceof Errors.HttpError) {
    const status = (error.data as { statusCode?: number } | undefined)?.statusCode
    if (status === 401)
      return new RepoError('invalid-credentials', 'The server refused the account’s credential for git.')
    if (status === 403) return new RepoError('forbidden', 'The server does not let this account read the repository.')
    if (status === 404)
      return new RepoError('not-found', 'The server has no such repository (or hides it from this account).')
    return new RepoError('clone-failed', `The server answered the ${what} with HTTP ${status ?? '?'}.`)
  }
  if (error instanceof ApiError)
    return Object.assign(new RepoError(error instanceof NotFoundError ? 'not-found' : 'clone-failed', error.message), {
      details: { status: error.status },
    })
  const code = (error as { code?: unknown } | null)?.code
  if (code === 'offline' || code === 'network')
    return new RepoError('offline', error instanceof Error ? error.message : String(error))
  return new RepoError('clone-failed', `The ${what} failed: ${error instanceof Error ? error.message : String(error)}`)
}

/**
 * Local clones of project repositories, per account, and the repository browser's reads.
 *
 * Which repositories are cloned is the user's choice (`clone`, `remove`), kept in the cache
 * database (`repo_clones`); each clone is a bare repository under `reposDir`, made and updated
 * with isomorphic-git over smart HTTP with the account's credential given to `onAuth` in memory
 * (never in the repository's config or any file). A clone is made in a temporary directory and
 * renamed into place when complete; a fetch that does not finish puts the refs back as they
 * were. One operation at a time per clone; `cancel` aborts it.
 *
 * Reads come from the clone when it is ready — offline too — and otherwise from the REST API
 * through the URL cache (so what was seen online can be read again offline, marked stale).
 */
export class RepoService {
  private readonly store: CloneStore
  private readonly operations = new Map<string, Operation>()
  private readonly readers = new Map<string, CloneReader>()
  private readonly cachedGet: CachedGet
  private readonly limits: ReadLimits
  private disposed = false
  /** The clean-up of an earlier launch's leftovers; clones wait for it (it removes temporary directories). */
  private readonly recovered: Promise<void>

  constructor(private readonly options: RepoServiceOptions) {
    this.store = new CloneStore(options.cache)
    this.cachedGet = new CachedGet(options.cache)
    this.limits = { ...DEFAULT_READ_LIMITS, ...options.limits }
    this.store.failInterrupted()
    this.recovered = this.recover()
  }

  /** Removes what an earlier launch left half written (temporary clone directories). */
  private async recover(): Promise<void> {
    let accountDirs: string[]
    try {
      accountDirs = await readdir(this.options.reposDir)
    } catch {
      return
    }
    for (const dir of accountDirs) {
      for (const name of await readdir(join(this.options.reposDir, dir)).catch(() => [] as string[])) {
        if (name.startsWith('.tmp-')) await rm(join(this.options.reposDir, dir, name), { recursive: true, force: true })
      }
    }
  }

  list(accountId?: string): RepoClone[] {
    return this.store.list(accountId).map((row) => this.view(row))
  }

  /**
   * Clones the project's repository, or answers the clone there is. Resolves when done; a
   * clone already running is joined, not started twice.
   */
  async clone(accountId: string, projectId: number): Promise<RepoClone> {
    const running = this.operations.get(key(accountId, projectId))
    if (running !== undefined) return running.done
    const existing = this.store.get(accountId, projectId)
    if (existing !== null && existing.state === 'ready' && existsSync(this.gitdir(accountId, projectId)))
      return this.view(existing)
    return this.start(accountId, projectId, 'clone', (op) => this.runClone(accountId, projectId, existing, op))
  }

  /** Fetches every branch and tag into an existing clone. Resolves when done. */
  async fetch(accountId: string, projectId: number): Promise<RepoClone> {
    const running = this.operations.get(key(accountId, projectId))
    if (running !== undefined) return running.done
    const row = this.readyRow(accountId, projectId)
    return this.start(accountId, projectId, 'fetch', (op) => this.runFetch(row, op))
  }

  /** Stops the clone or fetch in progress; answers the clone as it then is (null when a first clone was stopped). */
  async cancel(accountId: string, projectId: number): Promise<RepoClone | null> {
    const op = this.operations.get(key(accountId, projectId))
    if (op !== undefined) {
      op.controller.abort(new RepoError('cancelled', 'Cancelled.'))
      await op.done.catch(() => undefined)
    }
    const row = this.store.get(accountId, projectId)
    return row === null ? null : this.view(row)
  }

  /** Stops anything in progress and deletes the clone and its record. */
  async remove(accountId: string, projectId: number): Promise<void> {
    await this.cancel(accountId, projectId)
    this.readers.delete(key(accountId, projectId))
    await rm(this.gitdir(accountId, projectId), { recursive: true, force: true })
    const had = this.store.get(accountId, projectId) !== null
    this.store.delete(accountId, projectId)
    if (had) this.options.onChange?.({ accountId, projectId, clone: null })
  }

  /** The account is gone: stop its operations and delete its clones from disk (its rows go with the cache's purge). */
  async forget(accountId: string): Promise<void> {
    const mine = [...this.operations.entries()].filter(([k]) => k.startsWith(`${accountId}\n`))
    for (const [, op] of mine) op.controller.abort(new RepoError('cancelled', 'The account was removed.'))
    await Promise.all(mine.map(([, op]) => op.done.catch(() => undefined)))
    for (const k of [...this.readers.keys()]) if (k.startsWith(`${accountId}\n`)) this.readers.delete(k)
    await rm(join(this.options.reposDir, accountDirName(accountId)), { recursive: true, force: true })
  }

  async dispose(): Promise<void> {
    this.disposed = true
    const ops = [...this.operations.values()]
    for (const op of ops) op.controller.abort(new RepoError('cancelled', 'Burrow is closing.'))
    await Promise.all(ops.map((op) => op.done.catch(() => undefined)))
  }

  // ---- reads -----------------------------------------------------------------------------------

  async refs(accountId: string, projectId: number): Promise<RepoRefs> {
    const local = this.reader(accountId, projectId)
    if (local === null) return remoteRefs(await this.remote(accountId), projectId)
    const refs = await this.empty(local.row, () => local.reader.refs(local.row.defaultBranch), {
      defaultBranch: local.row.defaultBranch,
      branches: [],
      tags: [],
    })
    return { ...this.origin(local.row), ...refs }
  }

  async tree(accountId: string, projectId: number, ref: string, path: string): Promise<RepoTree> {
    check([ref], path)
    const local = this.reader(accountId, projectId)
    if (local === null) return remoteTree(await this.remote(accountId), projectId, ref, path)
    return { ...this.origin(local.row), ...(await this.empty(local.row, () => local.reader.tree(ref, path))) }
  }

  async blob(accountId: string, projectId: number, ref: string, path: string): Promise<RepoBlob> {
    check([ref], path, false)
    const local = this.reader(accountId, projectId)
    if (local === null) return remoteBlob(await this.remote(accountId), projectId, ref, path, this.limits)
    return { ...this.origin(local.row), ...(await this.empty(local.row, () => local.reader.blob(ref, path))) }
  }

  /** Who last changed each line of a file: computed from the clone's history, else the server's blame. */
  async blame(accountId: string, projectId: number, ref: string, path: string): Promise<RepoBlame> {
    check([ref], path, false)
    const local = this.reader(accountId, projectId)
    if (local === null) return remoteBlame(await this.remote(accountId), projectId, ref, path)
    return { ...this.origin(local.row), ...(await this.empty(local.row, () => local.reader.blame(ref, path))) }
  }

  async log(
    accountId: string,
    projectId: number,
    ref: string,
    path: string,
    page: number,
    perPage: number,
  ): Promise<RepoLog> {
    check([ref], path)
    const local = this.reader(accountId, projectId)
    if (local === null) return remoteLog(await this.remote(accountId), projectId, ref, path, page, perPage)
    return {
      ...this.origin(local.row),
      ...(await this.empty(local.row, () => local.reader.log(ref, path, page, perPage))),
    }
  }

  async commit(accountId: string, projectId: number, sha: string): Promise<RepoCommitDetail> {
    check([sha])
    const local = this.reader(accountId, projectId)
    if (local === null) return remoteCommit(await this.remote(accountId), projectId, sha, this.limits)
    return { ...this.origin(local.row), ...(await this.empty(local.row, () => local.reader.commit(sha))) }
  }

  async compare(
    accountId: string,
    projectId: number,
    from: string,
    to: string,
    straight: boolean,
  ): Promise<RepoCompare> {
    check([from, to])
    const local = this.reader(accountId, projectId)
    if (local === null) return remoteCompare(await this.remote(accountId), projectId, from, to, straight)
    return {
      ...this.origin(local.row),
      ...(await this.empty(local.row, () => local.reader.compare(from, to, straight))),
    }
  }

  /**
   * A merge request's changes: the saved answer when it is of the head and target branch the
   * cached merge request names, else the server's (its saved copy offline). Offline with no
   * copy saved, they are computed from the clone when the project has one, as the server does:
   * from the merge base of the target and the head the cached merge request names (its
   * `diff_refs`; its branches when the clone lacks those commits).
   */
  async mergeRequestChanges(accountId: string, projectId: number, iid: number): Promise<RepoMergeRequestChanges> {
    const path = mergeRequestChangesPath(projectId, iid)
    const mr = new CacheReader(this.options.cache).detail(accountId, 'merge_request', { parentId: projectId, iid })
    // A saved answer at the head the cache holds is the answer: a merge request's diff changes only with a push,
    // which moves the head (sync keeps it current). Large diffs open without the server recomputing them.
    const client = await this.options.accounts.clientFor(accountId)
    const saved = this.cachedGet.saved(accountId, client, path)
    const refs = mr?.item.data as MergeRequestRefs | undefined
    if (saved !== null && typeof refs?.sha === 'string') {
      const changes = mergeRequestChangesOf(saved)
      // A new target branch moves the merge base without a push: the saved diff then is not this one.
      const sameTarget = (saved.body as MergeRequestRefs | null)?.target_branch === refs.target_branch
      if (changes.headSha === refs.sha && sameTarget)
        return { ...changes, stale: !this.options.accounts.connectivityFor(accountId).online }
    }
    try {
      return mergeRequestChangesOf(await (await this.remote(accountId))(path))
    } catch (error) {
      if (!(error instanceof OfflineError)) throw error
      const local = this.reader(accountId, projectId)
      if (local === null || mr === null) throw error
      const candidates = (await this.diffEnds(local.reader, mr.item.data as MergeRequestRefs)).filter(
        (pair): pair is [string, string] => pair.every((r) => typeof r === 'string' && refProblem(r) === null),
      )
      for (const [from, to] of candidates) {
        try {
          const compare = await local.reader.compare(from, to, false)
          const headSha = /^[0-9a-f]{40}$/.test(to) ? to : (compare.commits[0]?.id ?? null)
          return { ...this.origin(local.row), diffs: compare.diffs, overflow: compare.overflow, headSha }
        } catch (readError) {
          // Commits the clone has not fetched: the branches as the clone last saw them, else the server's refusal.
          if (!(readError instanceof RepoError && readError.code === 'not-found')) throw readError
        }
      }
      throw error
    }
  }

  /**
   * Where a merge request's diff starts and ends in a clone, best first: the diff refs it was
   * read with (a single read has them; lists do not); for a merged one, its merge commit's first
   * parent (the target as it was) to its head; for an open one, its target branch to its head or
   * its source branch. A merged one with neither has no start left to find (its head is in the
   * target now), so it gets none rather than an empty diff.
   */
  private async diffEnds(reader: CloneReader, mr: MergeRequestRefs): Promise<(readonly unknown[])[]> {
    const head = mr.diff_refs?.head_sha ?? mr.sha
    const ends: (readonly unknown[])[] = [[mr.diff_refs?.start_sha, head]]
    if (mr.state === 'merged') {
      if (typeof mr.merge_commit_sha === 'string' && refProblem(mr.merge_commit_sha) === null) {
        try {
          ends.push([(await reader.commit(mr.merge_commit_sha)).commit.parent_ids[0], head])
        } catch {
          /* the clone has not fetched the merge yet */
        }
      }
      return ends
    }
    return [...ends, [mr.target_branch, head], [mr.target_branch, mr.source_branch]]
  }

  /**
   * File names and contents of the account's ready clones (or one project's), at each one's
   * default branch, offline: every word must match the beginning of a word of the path or of
   * one line. A clone that cannot be read is left out rather than failing the search.
   */
  async search(accountId: string, request: RepoSearchRequest): Promise<RepoSearchResult> {
    const terms = queryTerms(request.query)
    const limit = request.limit ?? 50
    const names: RepoSearchHit[] = []
    const contents: RepoSearchHit[] = []
    let skippedFiles = 0
    if (terms.length === 0) return { hits: [], truncated: false, skippedFiles }
    for (const clone of this.list(accountId)) {
      if (request.projectId !== undefined && clone.projectId !== request.projectId) continue
      const local = this.reader(accountId, clone.projectId)
      const ref = local?.row.defaultBranch ?? null
      if (local === null || ref === null) continue
      let index: SearchableFiles
      try {
        index = await local.reader.searchableFiles(ref)
      } catch {
        continue
      }
      skippedFiles += index.skipped
      const found = searchFiles(
        { projectId: clone.projectId, pathWithNamespace: local.row.pathWithNamespace, ref },
        index,
        terms,
      )
      names.push(...found.names)
      contents.push(...found.contents)
    }
    const hits = [...names, ...contents]
    return { hits: hits.slice(0, limit), truncated: hits.length > limit, skippedFiles }
  }

  // ---- internals -------------------------------------------------------------------------------

  private gitdir(accountId: string, projectId: number): string {
    return join(this.options.reposDir, accountDirName(accountId), `${projectId}.git`)
  }

  private view(row: CloneRow): RepoClone {
    const op = this.operations.get(key(row.accountId, row.projectId))
    const state = op === undefined ? row.state : op.kind === 'clone' ? 'cloning' : 'fetching'
    return {
      accountId: row.accountId,
      projectId: row.projectId,
      pathWithNamespace: row.pathWithNamespace,
      name: row.name,
      webUrl: row.webUrl,
      state,
      defaultBranch: row.defaultBranch,
      clonedAt: row.clonedAt,
      fetchedAt: row.fetchedAt,
      lastError: row.lastError,
      sizeBytes: row.sizeBytes,
      progress: op?.progress ?? null,
    }
  }

  private origin(row: CloneRow): {
    readonly source: 'clone'
    readonly stale: boolean
    readonly fetchedAt: string | null
  } {
    return { source: 'clone', stale: false, fetchedAt: row.fetchedAt }
  }

  /** A repository without any commit has nothing to browse: say so, or answer `whenEmpty`. */
  private async empty<T>(row: CloneRow, read: () => Promise<T>, whenEmpty?: T): Promise<T> {
    if (row.defaultBranch === null && whenEmpty !== undefined) return whenEmpty
    try {
      return await read()
    } catch (error) {
      if (row.defaultBranch === null && error instanceof RepoError && error.code === 'not-found')
        throw new RepoError('empty-repository', `${row.pathWithNamespace} has no commits yet.`)
      throw error
    }
  }

  private readyRow(accountId: string, projectId: number): CloneRow {
    const row = this.store.get(accountId, projectId)
    if (row === null || row.state !== 'ready')
      throw new RepoError('not-cloned', 'This repository is not cloned on this computer.')
    if (!existsSync(this.gitdir(accountId, projectId)))
      throw new RepoError('not-cloned', 'The clone is missing from disk; remove it and clone again.')
    return row
  }

  /** The clone's reader when the clone is ready (and not being made), else null. */
  private reader(
    accountId: string,
    projectId: number,
  ): { readonly reader: CloneReader; readonly row: CloneRow } | null {
    const row = this.store.get(accountId, projectId)
    if (row === null || row.state !== 'ready' || this.operations.get(key(accountId, projectId))?.kind === 'clone')
      return null
    const gitdir = this.gitdir(accountId, projectId)
    if (!existsSync(gitdir)) return null
    let reader = this.readers.get(key(accountId, projectId))
    if (reader === undefined) {
      reader = new CloneReader(gitdir, () => this.store.get(accountId, projectId)?.webUrl ?? null, this.limits)
      this.readers.set(key(accountId, projectId), reader)
    }
    return { reader, row }
  }

  private async remote(accountId: string): Promise<CachedRead> {
    const { accounts } = this.options
    const client = await accounts.clientFor(accountId)
    return (path: string, query?: Query) =>
      this.cachedGet.get(accountId, client, path, query, { online: accounts.connectivityFor(accountId).online })
  }

  private async account(accountId: string): Promise<Account> {
    const account = (await this.options.accounts.list()).find((a) => a.id === accountId)
    if (account === undefined) throw Object.assign(new Error('No such account.'), { code: 'account-not-found' })
    return account
  }

  private start(
    accountId: string,
    projectId: number,
    kind: Operation['kind'],
    run: (op: Operation) => Promise<RepoClone>,
  ): Promise<RepoClone> {
    if (this.disposed) throw new RepoError('cancelled', 'Burrow is closing.')
    const controller = new AbortController()
    const progress: RepoProgress = {
      accountId,
      projectId,
      operation: kind,
      phase: 'Connecting',
      loaded: 0,
      total: null,
      bytes: 0,
    }
    let resolveDone!: (clone: RepoClone) => void
    let rejectDone!: (error: unknown) => void
    const done = new Promise<RepoClone>((resolve, reject) => {
      resolveDone = resolve
      rejectDone = reject
    })
    const op: Operation = { kind, controller, progress, done }
    this.operations.set(key(accountId, projectId), op)
    void run(op)
      .then(resolveDone, rejectDone)
      .finally(() => {
        if (this.operations.get(key(accountId, projectId)) === op) this.operations.delete(key(accountId, projectId))
      })
    // Each waiter gets the answer; nobody waiting must not turn a failure into an unhandled rejection.
    done.catch(() => undefined)
    return done
  }

  /** The transport and callbacks of one clone or fetch, with throttled progress events. */
  private async transfer(account: Account, op: Operation): Promise<Parameters<typeof fetchAll>[1]> {
    const { accounts } = this.options
    const fetchImpl = this.options.fetch ?? fetchForCaFile(account.caFile)
    const connectivity = accounts.connectivityFor(account.id)
    const interval = this.options.progressIntervalMs ?? 150
    let last = 0
    const report = (next: Partial<RepoProgress>, force = false): void => {
      op.progress = { ...op.progress, ...next }
      const now = Date.now()
      if (!force && now - last < interval) return
      last = now
      this.options.onProgress?.(op.progress)
    }
    const signal = op.controller.signal
    const http = gitHttpClient({
      fetch: fetchImpl,
      origin: new URL(account.baseUrl).origin,
      signal,
      onBytes: (count) => report({ bytes: op.progress.bytes + count }),
      onReachable: () => connectivity.reportReachable(),
      onNetworkError: () => connectivity.reportNetworkError(),
    })
    report({}, true)
    return {
      http,
      onAuth: async () => {
        const { username, password } = await accounts.gitCredentials(account.id)
        return { username, password }
      },
      onProgress: (event) => {
        // While indexing the downloaded pack isomorphic-git awaits this between objects: where a
        // cancel can stop that work too. (The server's progress lines are reported without being
        // awaited, so throwing there would only make an unhandled rejection.)
        if (event.phase === 'Receiving objects' || event.phase === 'Resolving deltas') signal.throwIfAborted()
        report({ phase: event.phase, loaded: event.loaded, total: event.total > 0 ? event.total : null })
      },
    }
  }

  private async project(accountId: string, projectId: number): Promise<ProjectJson> {
    const client = await this.options.accounts.clientFor(accountId)
    return client.get<ProjectJson>(`/projects/${projectId}`)
  }

  private cloneUrl(account: Account, project: ProjectJson): string {
    if (typeof project.path_with_namespace !== 'string' || project.path_with_namespace === '')
      throw new RepoError('clone-failed', 'The server did not say where the project lives.')
    // `{base}/{full path}.git`, as GitLab serves smart HTTP (under a relative URL root too).
    return `${account.baseUrl}/${project.path_with_namespace.split('/').map(encodeURIComponent).join('/')}.git`
  }

  private changed(accountId: string, projectId: number): RepoClone | null {
    const row = this.store.get(accountId, projectId)
    const clone = row === null ? null : this.view(row)
    this.options.onChange?.({ accountId, projectId, clone })
    return clone
  }

  private async runClone(
    accountId: string,
    projectId: number,
    previous: CloneRow | null,
    op: Operation,
  ): Promise<RepoClone> {
    const signal = op.controller.signal
    const now = new Date().toISOString()
    let tmp: string | null = null
    let recorded = false
    try {
      const account = await this.account(accountId)
      const project = await this.project(accountId, projectId)
      signal.throwIfAborted()
      const base: CloneRow = {
        accountId,
        projectId,
        pathWithNamespace: project.path_with_namespace ?? String(projectId),
        name: project.name ?? project.path_with_namespace ?? String(projectId),
        webUrl: project.web_url ?? null,
        defaultBranch: project.default_branch ?? null,
        state: 'cloning',
        addedAt: previous?.addedAt ?? now,
        clonedAt: null,
        fetchedAt: null,
        lastError: null,
        sizeBytes: null,
      }
      this.store.put(base)
      recorded = true
      this.changed(accountId, projectId)
      const accountDir = join(this.options.reposDir, accountDirName(accountId))
      await this.recovered
      await mkdir(accountDir, { recursive: true })
      tmp = await mkdtemp(join(accountDir, `.tmp-${projectId}-`))
      await initClone(tmp, this.cloneUrl(account, project))
      const outcome = await fetchAll(tmp, await this.transfer(account, op))
      signal.throwIfAborted()
      const gitdir = this.gitdir(accountId, projectId)
      await rm(gitdir, { recursive: true, force: true })
      await rename(tmp, gitdir)
      tmp = null
      this.readers.delete(key(accountId, projectId))
      const at = new Date().toISOString()
      this.store.put({
        ...base,
        state: 'ready',
        defaultBranch: outcome.defaultBranch ?? base.defaultBranch,
        clonedAt: at,
        fetchedAt: at,
        sizeBytes: await diskUsage(gitdir),
      })
      this.operations.delete(key(accountId, projectId))
      return this.changed(accountId, projectId) as RepoClone
    } catch (error) {
      const failure = transferError(error, signal, 'clone')
      if (tmp !== null) await rm(tmp, { recursive: true, force: true })
      this.operations.delete(key(accountId, projectId))
      if (recorded) {
        const row = this.store.get(accountId, projectId)
        // A first clone the user stopped leaves nothing behind; other failures stay listed with their reason.
        if (failure.code === 'cancelled' && previous === null) this.store.delete(accountId, projectId)
        else if (row !== null) this.store.put({ ...row, state: 'failed', lastError: failure.message })
        this.changed(accountId, projectId)
      }
      throw failure
    }
  }

  private async runFetch(row: CloneRow, op: Operation): Promise<RepoClone> {
    const { accountId, projectId } = row
    const signal = op.controller.signal
    const gitdir = this.gitdir(accountId, projectId)
    this.changed(accountId, projectId)
    let snapshot: Awaited<ReturnType<typeof snapshotRefs>> | null = null
    try {
      const account = await this.account(accountId)
      const project = await this.project(accountId, projectId)
      signal.throwIfAborted()
      // A project renamed or moved since: its remote follows.
      await setRemoteUrl(gitdir, this.cloneUrl(account, project))
      snapshot = await snapshotRefs(gitdir)
      const outcome = await fetchAll(gitdir, await this.transfer(account, op))
      signal.throwIfAborted()
      await snapshot.discard()
      snapshot = null
      this.readers.get(key(accountId, projectId))?.refsChanged()
      const at = new Date().toISOString()
      const current = this.store.get(accountId, projectId) ?? row
      this.store.put({
        ...current,
        pathWithNamespace: project.path_with_namespace ?? current.pathWithNamespace,
        name: project.name ?? current.name,
        webUrl: project.web_url ?? current.webUrl,
        defaultBranch: outcome.defaultBranch ?? project.default_branch ?? null,
        fetchedAt: at,
        lastError: null,
        sizeBytes: await diskUsage(gitdir),
      })
      this.operations.delete(key(accountId, projectId))
      return this.changed(accountId, projectId) as RepoClone
    } catch (error) {
      const failure = transferError(error, signal, 'fetch')
      if (snapshot !== null) await snapshot.restore()
      else await removeUnindexedPacks(gitdir)
      this.readers.get(key(accountId, projectId))?.refsChanged()
      this.operations.delete(key(accountId, projectId))
      const current = this.store.get(accountId, projectId)
      if (current !== null)
        this.store.put({ ...current, lastError: failure.code === 'cancelled' ? null : failure.message })
      this.changed(accountId, projectId)
      throw failure
    }
  }
}
