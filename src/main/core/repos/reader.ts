import fs from 'node:fs'
import git, { type ReadCommitResult, type TreeEntry } from 'isomorphic-git'
import type {
  RepoBlame,
  RepoBlameRange,
  RepoBlob,
  RepoBranch,
  RepoCommit,
  RepoCommitDetail,
  RepoCompare,
  RepoDiff,
  RepoLog,
  RepoRefs,
  RepoTag,
  RepoTree,
  RepoTreeEntry,
} from '../../../shared/ipc/repos'
import { refProblem, repoPathProblem } from '../../../shared/ipc/repos'
import { fold } from '../cache/search'
import { DEFAULT_DIFF_LIMITS, decodeText, diffFile, isBinary, type DiffLimits } from './diff'
import { notFound, RepoError } from './errors'
import { blameCommits, blameLinesOf, blameRuns, type BlameFile, type BlameHistory } from './blame'
import { CommitQueue } from './commit-queue'
import { sniffImageType } from '../image-type'

/** Where the branches of the server live in a clone (the usual remote-tracking layout). */
const REMOTE_PREFIX = 'refs/remotes/origin/'

/** Past this, a file is not sent for preview (its size still is). */
export const PREVIEW_MAX_BYTES = 1024 * 1024
/** Images up to this size are sent as data URLs. */
export const IMAGE_MAX_BYTES = 1024 * 1024

export interface ReadLimits {
  readonly previewMaxBytes: number
  readonly imageMaxBytes: number
  readonly diff: DiffLimits
  /** Files a commit or compare diff lists before `overflow`. */
  readonly maxDiffFiles: number
  /** Diff lines across files; files past it are sent collapsed. */
  readonly maxDiffLines: number
  /** Commits a compare lists before `commitsTruncated`. */
  readonly maxCompareCommits: number
}

export const DEFAULT_READ_LIMITS: ReadLimits = {
  previewMaxBytes: PREVIEW_MAX_BYTES,
  imageMaxBytes: IMAGE_MAX_BYTES,
  diff: DEFAULT_DIFF_LIMITS,
  maxDiffFiles: 1000,
  maxDiffLines: 50_000,
  maxCompareCommits: 500,
}

/** What a blob read gives the page, the same whether the bytes came from the clone or the server. */
export function blobPreview(
  bytes: Uint8Array,
  size: number,
  limits: Pick<ReadLimits, 'previewMaxBytes' | 'imageMaxBytes'>,
): Pick<RepoBlob, 'binary' | 'tooLarge' | 'text' | 'imageDataUrl'> {
  const image = sniffImageType(bytes)
  if (image !== null) {
    const small = size <= limits.imageMaxBytes
    return {
      binary: true,
      tooLarge: !small,
      text: null,
      imageDataUrl: small ? `data:${image};base64,${Buffer.from(bytes).toString('base64')}` : null,
    }
  }
  const binary = isBinary(bytes)
  if (binary) return { binary, tooLarge: false, text: null, imageDataUrl: null }
  if (size > limits.previewMaxBytes) return { binary, tooLarge: true, text: null, imageDataUrl: null }
  return { binary, tooLarge: false, text: decodeText(bytes), imageDataUrl: null }
}

/** A git timestamp and offset as GitLab writes dates: `2024-05-01T09:30:00.000+02:00`. */
export function gitDate(timestamp: number, timezoneOffset: number): string {
  // isomorphic-git's offset has Date#getTimezoneOffset's sign: -120 is UTC+02:00.
  const local = new Date(timestamp * 1000 - timezoneOffset * 60_000).toISOString().slice(0, 23)
  const east = -timezoneOffset
  const abs = Math.abs(east)
  return `${local}${east >= 0 ? '+' : '-'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

/** A commit object in the API's shape. */
export function commitJson(result: ReadCommitResult, webUrl: string | null): RepoCommit {
  const { commit, oid } = result
  const message = commit.message
  return {
    id: oid,
    short_id: oid.slice(0, 8),
    title: message.split('\n', 1)[0] ?? '',
    message,
    author_name: commit.author.name,
    author_email: commit.author.email,
    authored_date: gitDate(commit.author.timestamp, commit.author.timezoneOffset),
    committer_name: commit.committer.name,
    committer_email: commit.committer.email,
    committed_date: gitDate(commit.committer.timestamp, commit.committer.timezoneOffset),
    parent_ids: commit.parent,
    web_url: webUrl === null ? null : `${webUrl}/-/commit/${oid}`,
  }
}

/** A changed path between two trees (null on the side where it does not exist). */
interface Change {
  readonly path: string
  readonly before: TreeEntry | null
  readonly after: TreeEntry | null
}

/** Git sorts paths byte by byte; so do diffs here. */
const byPath = (a: { readonly path: string }, b: { readonly path: string }): number =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : 0

/** A bounded map that forgets its oldest entries: parsed trees and commits are immutable, so caching them is always right. */
class Lru<K, V> {
  private readonly map = new Map<K, V>()
  constructor(private readonly max: number) {}
  get(key: K): V | undefined {
    return this.map.get(key)
  }
  set(key: K, value: V): void {
    this.map.set(key, value)
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K)
  }
}

function checkRef(ref: string): void {
  const problem = refProblem(ref)
  if (problem !== null) throw new RepoError('invalid-arguments', problem)
}

function checkPath(path: string, allowRoot: boolean): void {
  const problem = repoPathProblem(path, allowRoot)
  if (problem !== null) throw new RepoError('invalid-arguments', problem)
}

/** Files whose text the content search holds: each at most this big… */
export const SEARCH_FILE_MAX_BYTES = 256 * 1024
/** …and at most this much text per clone (the rest match by name only). */
export const SEARCH_TEXT_MAX_BYTES = 8 * 1024 * 1024

/** One file of a commit's tree, for search: its text when it is small text (`null` otherwise), and that text folded as the search folds words. */
export interface SearchableFile {
  readonly path: string
  readonly text: string | null
  readonly folded: string | null
}

/** Every file of one commit, for search (see CloneReader.searchableFiles). */
export interface SearchableFiles {
  readonly commit: string
  readonly files: readonly SearchableFile[]
  /** Files whose text is not held (too large, binary, or past the clone's budget). */
  readonly skipped: number
}

/**
 * Offline reads of one bare clone (core/repos/clone.ts made it): refs, trees, files, history and
 * diffs, all with isomorphic-git on the local object store. One reader per clone and launch; its
 * caches hold only immutable objects (and isomorphic-git's pack indexes), so a fetch adding new
 * packs needs no reset, only `refsChanged()`.
 */
export class CloneReader {
  /** isomorphic-git's own cache (parsed pack indexes), shared by every call on this clone. */
  private cache: object = {}
  private readonly trees = new Lru<string, readonly TreeEntry[]>(4000)
  private readonly commits = new Lru<string, ReadCommitResult>(20_000)
  /** The files of the last commit searched, kept until the branch moves. */
  private searchable: SearchableFiles | null = null

  constructor(
    readonly gitdir: string,
    private readonly webUrl: () => string | null,
    private readonly limits: ReadLimits = DEFAULT_READ_LIMITS,
  ) {}

  /** After a fetch: packs were added (and maybe repacked). */
  refsChanged(): void {
    this.cache = {}
  }

  async refs(fallbackDefault: string | null): Promise<Pick<RepoRefs, 'defaultBranch' | 'branches' | 'tags'>> {
    const { gitdir, cache } = this
    let defaultBranch = fallbackDefault
    try {
      const head = await git.resolveRef({ fs, gitdir, ref: `${REMOTE_PREFIX}HEAD`, depth: 2 })
      if (head.startsWith(REMOTE_PREFIX)) defaultBranch = head.slice(REMOTE_PREFIX.length)
    } catch {
      /* no HEAD advertised: keep what the project said */
    }
    const branchNames = (await git.listBranches({ fs, gitdir, remote: 'origin' })).filter((name) => name !== 'HEAD')
    const branches: RepoBranch[] = []
    for (const name of branchNames) {
      const commit = await git.resolveRef({ fs, gitdir, ref: `${REMOTE_PREFIX}${name}` })
      branches.push({ name, commit, default: name === defaultBranch })
    }
    const tags: RepoTag[] = []
    for (const name of await git.listTags({ fs, gitdir })) {
      let oid = await git.resolveRef({ fs, gitdir, ref: `refs/tags/${name}` })
      let message: string | null = null
      // Annotated tags (and tags of tags) are peeled to the commit they name.
      for (let depth = 0; depth < 5; depth++) {
        const { type } = await git.readObject({ fs, gitdir, oid, format: 'parsed', cache })
        if (type !== 'tag') break
        const tag = await git.readTag({ fs, gitdir, oid, cache })
        message ??= tag.tag.message.trim()
        oid = tag.tag.object
      }
      tags.push({ name, commit: oid, message })
    }
    const byName = (a: { readonly name: string }, b: { readonly name: string }): number =>
      a.name.localeCompare(b.name, 'en')
    branches.sort((a, b) => (a.default === b.default ? byName(a, b) : a.default ? -1 : 1))
    // Newest version first, the way GitLab lists tags by default (by name, descending, numbers compared as numbers).
    tags.sort((a, b) => b.name.localeCompare(a.name, 'en', { numeric: true }))
    return { defaultBranch, branches, tags }
  }

  /** The commit a branch, tag, full or abbreviated commit id names. */
  async resolveCommit(ref: string): Promise<string> {
    checkRef(ref)
    const { gitdir, cache } = this
    let oid: string | null = null
    if (/^[0-9a-f]{40}$/i.test(ref)) oid = ref.toLowerCase()
    for (const candidate of [`${REMOTE_PREFIX}${ref}`, `refs/tags/${ref}`]) {
      if (oid !== null) break
      try {
        oid = await git.resolveRef({ fs, gitdir, ref: candidate })
      } catch {
        /* not this kind of ref */
      }
    }
    if (oid === null && /^[0-9a-f]{4,39}$/i.test(ref)) {
      try {
        oid = await git.expandOid({ fs, gitdir, oid: ref.toLowerCase(), cache })
      } catch {
        /* no such object, or ambiguous */
      }
    }
    if (oid === null) throw notFound(`No branch, tag or commit named ${ref} in the local clone.`)
    for (let depth = 0; depth < 5; depth++) {
      let type: string
      try {
        type = (await git.readObject({ fs, gitdir, oid, format: 'parsed', cache })).type
      } catch {
        throw notFound(`Commit ${ref} is not in the local clone.`)
      }
      if (type === 'commit') return oid
      if (type !== 'tag') throw notFound(`${ref} does not name a commit.`)
      oid = (await git.readTag({ fs, gitdir, oid, cache })).tag.object
    }
    throw notFound(`${ref} does not name a commit.`)
  }

  async tree(ref: string, path: string): Promise<Pick<RepoTree, 'ref' | 'commit' | 'path' | 'entries'>> {
    checkPath(path, true)
    const commit = await this.resolveCommit(ref)
    const root = (await this.readCommit(commit)).commit.tree
    let treeOid = root
    if (path !== '') {
      const entry = await this.entryAt(root, path)
      if (entry === null) throw notFound(`${path} does not exist at ${ref}.`)
      if (entry.type !== 'tree') throw new RepoError('not-a-directory', `${path} is a file, not a directory.`)
      treeOid = entry.oid
    }
    const entries: RepoTreeEntry[] = (await this.readTree(treeOid)).map((e) => ({
      name: e.path,
      path: path === '' ? e.path : `${path}/${e.path}`,
      type: e.type,
      mode: e.mode,
      id: e.oid,
    }))
    entries.sort((a, b) =>
      (a.type === 'tree') === (b.type === 'tree') ? a.name.localeCompare(b.name, 'en') : a.type === 'tree' ? -1 : 1,
    )
    return { ref, commit, path, entries }
  }

  async blob(
    ref: string,
    path: string,
  ): Promise<Pick<RepoBlob, 'ref' | 'path' | 'id' | 'size' | 'binary' | 'tooLarge' | 'text' | 'imageDataUrl'>> {
    const { entry, blob } = await this.fileAt(ref, path)
    return { ref, path, id: entry.oid, size: blob.length, ...blobPreview(blob, blob.length, this.limits) }
  }

  /**
   * Who last changed each line of the file at `ref`, computed from the clone's history
   * (blame.ts). Binary files and files past the preview cap have no ranges.
   */
  async blame(ref: string, path: string): Promise<Pick<RepoBlame, 'ref' | 'path' | 'binary' | 'tooLarge' | 'ranges'>> {
    const { commit, blob } = await this.fileAt(ref, path)
    const binary = isBinary(blob)
    const tooLarge = !binary && blob.length > this.limits.previewMaxBytes
    if (binary || tooLarge) return { ref, path, binary, tooLarge, ranges: [] }
    const lines = blameLinesOf(decodeText(blob))
    const owners = await blameCommits(this.blameHistory(), commit, path)
    const ranges: RepoBlameRange[] = []
    for (const run of blameRuns(owners))
      ranges.push({
        commit: commitJson(await this.readCommit(run.commit), this.webUrl()),
        lines: lines.slice(run.start, run.start + run.count),
      })
    return { ref, path, binary, tooLarge, ranges }
  }

  /** The history blame reads (blame.ts): each version's lines read once per blob. */
  private blameHistory(): BlameHistory {
    const versions = new Map<string, BlameFile>()
    const treeOf = async (commit: string): Promise<string> => (await this.readCommit(commit)).commit.tree
    return {
      commit: async (id) => {
        const { commit } = await this.readCommit(id)
        return { time: commit.committer.timestamp, parents: commit.parent }
      },
      file: async (id, path) => {
        const entry = await this.entryAt(await treeOf(id), path)
        if (entry === null || entry.type !== 'blob') return null
        let version = versions.get(entry.oid)
        if (version === undefined) {
          const { blob } = await git.readBlob({ fs, gitdir: this.gitdir, oid: entry.oid, cache: this.cache })
          version = { id: entry.oid, bytes: blob, lines: blameLinesOf(decodeText(blob)) }
          versions.set(entry.oid, version)
        }
        return version
      },
      removed: async (parent, child) => {
        const changes: Change[] = []
        await this.changes(await treeOf(parent), await treeOf(child), '', changes)
        return changes.flatMap((c) =>
          c.after === null && c.before?.type === 'blob' ? [{ path: c.path, id: c.before.oid }] : [],
        )
      },
    }
  }

  /** The file at `path` in `ref`'s commit, with its bytes; not-found or not-a-file otherwise. */
  private async fileAt(
    ref: string,
    path: string,
  ): Promise<{ readonly commit: string; readonly entry: TreeEntry; readonly blob: Uint8Array }> {
    checkPath(path, false)
    const commit = await this.resolveCommit(ref)
    const entry = await this.entryAt((await this.readCommit(commit)).commit.tree, path)
    if (entry === null) throw notFound(`${path} does not exist at ${ref}.`)
    if (entry.type !== 'blob')
      throw new RepoError(
        'not-a-file',
        `${path} is a ${entry.type === 'tree' ? 'directory' : 'submodule'}, not a file.`,
      )
    const { blob } = await git.readBlob({ fs, gitdir: this.gitdir, oid: entry.oid, cache: this.cache })
    return { commit, entry, blob }
  }

  /**
   * A page of history from `ref`, newest first by commit time as `git log` walks it. With a
   * path, only commits that changed it: a commit whose version of the path equals one of its
   * parents' is left out and history follows that parent only (git's default simplification).
   */
  async log(
    ref: string,
    path: string,
    page: number,
    perPage: number,
  ): Promise<Pick<RepoLog, 'commits' | 'page' | 'perPage' | 'hasMore'>> {
    checkPath(path, true)
    const start = await this.resolveCommit(ref)
    const skip = (page - 1) * perPage
    const commits: RepoCommit[] = []
    let shown = 0
    let hasMore = false
    for await (const commit of this.walk([start], path)) {
      if (shown >= skip + perPage) {
        hasMore = true
        break
      }
      if (shown >= skip) commits.push(commitJson(commit, this.webUrl()))
      shown++
    }
    return { commits, page, perPage, hasMore }
  }

  async commit(sha: string): Promise<Pick<RepoCommitDetail, 'commit' | 'diffs' | 'overflow'>> {
    const oid = await this.resolveCommit(sha)
    const commit = await this.readCommit(oid)
    const parent = commit.commit.parent[0]
    const parentTree = parent === undefined ? null : (await this.readCommit(parent)).commit.tree
    const { diffs, overflow } = await this.diffTrees(parentTree, commit.commit.tree)
    return { commit: commitJson(commit, this.webUrl()), diffs, overflow }
  }

  /**
   * GitLab's compare: the commits in `to` and not in `from`, and the diff from their merge base
   * to `to` (or from `from` itself with `straight`).
   */
  async compare(
    from: string,
    to: string,
    straight: boolean,
  ): Promise<Pick<RepoCompare, 'from' | 'to' | 'mergeBase' | 'commits' | 'commitsTruncated' | 'diffs' | 'overflow'>> {
    const fromOid = await this.resolveCommit(from)
    const toOid = await this.resolveCommit(to)
    let mergeBase: string | null = null
    if (!straight) {
      const bases = (await git.findMergeBase({
        fs,
        gitdir: this.gitdir,
        oids: [fromOid, toOid],
        cache: this.cache,
      })) as string[]
      mergeBase = bases[0] ?? null
    }
    const { commits, truncated } = await this.onlyIn(toOid, fromOid)
    const base = straight ? fromOid : mergeBase
    const baseTree = base === null ? null : (await this.readCommit(base)).commit.tree
    const { diffs, overflow } = await this.diffTrees(baseTree, (await this.readCommit(toOid)).commit.tree)
    return {
      from,
      to,
      mergeBase,
      commits: commits.map((c) => commitJson(c, this.webUrl())),
      commitsTruncated: truncated,
      diffs,
      overflow,
    }
  }

  // ---- objects ---------------------------------------------------------------------------------

  private async readCommit(oid: string): Promise<ReadCommitResult> {
    const known = this.commits.get(oid)
    if (known !== undefined) return known
    let result: ReadCommitResult
    try {
      result = await git.readCommit({ fs, gitdir: this.gitdir, oid, cache: this.cache })
    } catch {
      throw notFound(`Commit ${oid.slice(0, 8)} is not in the local clone (it may be shallow or damaged: fetch again).`)
    }
    this.commits.set(oid, result)
    return result
  }

  /**
   * Every file of the tree at `ref` with the text of the small text files, read once per
   * commit and kept (a search goes over them in memory). Submodules are left out; binary files
   * (git's rule: a NUL in the first 8000 bytes), files over SEARCH_FILE_MAX_BYTES and text past
   * SEARCH_TEXT_MAX_BYTES keep their names only.
   */
  async searchableFiles(ref: string): Promise<SearchableFiles> {
    const commit = await this.resolveCommit(ref)
    if (this.searchable?.commit === commit) return this.searchable
    const files: SearchableFile[] = []
    let budget = SEARCH_TEXT_MAX_BYTES
    let skipped = 0
    const walk = async (treeOid: string, prefix: string): Promise<void> => {
      for (const entry of await this.readTree(treeOid)) {
        const path = prefix === '' ? entry.path : `${prefix}/${entry.path}`
        if (entry.type === 'tree') await walk(entry.oid, path)
        if (entry.type !== 'blob') continue
        const { blob } = await git.readBlob({ fs, gitdir: this.gitdir, oid: entry.oid, cache: this.cache })
        const readable =
          entry.mode !== '120000' && blob.length <= SEARCH_FILE_MAX_BYTES && blob.length <= budget && !isBinary(blob)
        if (readable) budget -= blob.length
        else skipped++
        const text = readable ? decodeText(blob) : null
        files.push({ path, text, folded: text === null ? null : fold(text) })
      }
    }
    await walk((await this.readCommit(commit)).commit.tree, '')
    this.searchable = { commit, files, skipped }
    return this.searchable
  }

  private async readTree(oid: string): Promise<readonly TreeEntry[]> {
    const known = this.trees.get(oid)
    if (known !== undefined) return known
    const { tree } = await git.readTree({ fs, gitdir: this.gitdir, oid, cache: this.cache })
    this.trees.set(oid, tree)
    return tree
  }

  /** The entry at `path` under the tree `root`, or null. */
  private async entryAt(root: string, path: string): Promise<TreeEntry | null> {
    let tree = root
    const segments = path.split('/')
    for (let i = 0; i < segments.length; i++) {
      const entry = (await this.readTree(tree)).find((e) => e.path === segments[i])
      if (entry === undefined) return null
      if (i === segments.length - 1) return entry
      if (entry.type !== 'tree') return null
      tree = entry.oid
    }
    return null
  }

  /** The version of `path` in a commit (its object id and mode), or null when absent; the root tree for ''. */
  private async versionOf(commit: ReadCommitResult, path: string): Promise<string | null> {
    if (path === '') return commit.commit.tree
    const entry = await this.entryAt(commit.commit.tree, path)
    return entry === null ? null : `${entry.mode}:${entry.oid}`
  }

  /** History from `starts`, newest commit time first, each commit once; see `log` for `path`. */
  private async *walk(starts: readonly string[], path: string): AsyncGenerator<ReadCommitResult, void, undefined> {
    const queue = new CommitQueue<{ readonly time: number; readonly commit: ReadCommitResult }>()
    const seen = new Set<string>()
    for (const oid of starts) {
      if (seen.has(oid)) continue
      seen.add(oid)
      const commit = await this.readCommit(oid)
      queue.push({ time: commit.commit.committer.timestamp, commit })
    }
    while (queue.size > 0) {
      const { commit } = queue.pop() as { readonly commit: ReadCommitResult }
      let follow = commit.commit.parent
      let show = true
      if (path !== '') {
        const mine = await this.versionOf(commit, path)
        if (follow.length === 0) show = mine !== null
        for (const parent of commit.commit.parent) {
          if ((await this.versionOf(await this.readCommit(parent), path)) === mine) {
            show = false
            follow = [parent]
            break
          }
        }
      }
      for (const parent of follow) {
        if (seen.has(parent)) continue
        seen.add(parent)
        const next = await this.readCommit(parent)
        queue.push({ time: next.commit.committer.timestamp, commit: next })
      }
      if (show) yield commit
    }
  }

  /**
   * Commits reachable from `include` and not from `exclude` (`git rev-list include ^exclude`),
   * newest first: both sides are walked together by commit time, and what the excluded side
   * reaches is painted and stops the walk once nothing interesting is left in the queue.
   */
  private async onlyIn(include: string, exclude: string): Promise<{ commits: ReadCommitResult[]; truncated: boolean }> {
    const queue = new CommitQueue<{ readonly time: number; readonly oid: string; readonly excluded: boolean }>()
    const excluded = new Set<string>()
    const included = new Map<string, ReadCommitResult>()
    const queued = new Map<string, boolean>()
    const enqueue = async (oid: string, isExcluded: boolean): Promise<void> => {
      const before = queued.get(oid)
      if (before === true || (before === false && !isExcluded)) return
      queued.set(oid, isExcluded)
      const commit = await this.readCommit(oid)
      queue.push({ time: commit.commit.committer.timestamp, oid, excluded: isExcluded })
    }
    await enqueue(exclude, true)
    await enqueue(include, false)
    let truncated = false
    // Go on while something interesting is queued, or an excluded commit still has to take back
    // one that was included (commit times tie or run backwards: the order is only a heuristic).
    const pending = (): boolean =>
      queue.toArray().some((item) => (item.excluded ? included.has(item.oid) : !excluded.has(item.oid)))
    while (queue.size > 0 && pending()) {
      const item = queue.pop() as { readonly oid: string; readonly excluded: boolean }
      const commit = await this.readCommit(item.oid)
      if (item.excluded || excluded.has(item.oid)) {
        excluded.add(item.oid)
        included.delete(item.oid)
        for (const parent of commit.commit.parent) await enqueue(parent, true)
        continue
      }
      if (included.size >= this.limits.maxCompareCommits) {
        truncated = true
        break
      }
      included.set(item.oid, commit)
      for (const parent of commit.commit.parent) await enqueue(parent, false)
    }
    const commits = [...included.values()].filter((c) => !excluded.has(c.oid))
    commits.sort((a, b) => b.commit.committer.timestamp - a.commit.committer.timestamp)
    return { commits, truncated }
  }

  // ---- diffs -----------------------------------------------------------------------------------

  /** Every changed file between two trees (null: the empty tree), by path. */
  private async changes(before: string | null, after: string | null, prefix: string, out: Change[]): Promise<void> {
    if (before === after) return
    const a = before === null ? [] : await this.readTree(before)
    const b = after === null ? [] : await this.readTree(after)
    const names = new Set([...a.map((e) => e.path), ...b.map((e) => e.path)])
    for (const name of names) {
      const x = a.find((e) => e.path === name) ?? null
      const y = b.find((e) => e.path === name) ?? null
      const path = `${prefix}${name}`
      if (x !== null && y !== null && x.oid === y.oid && x.mode === y.mode) continue
      const xTree = x?.type === 'tree'
      const yTree = y?.type === 'tree'
      if (xTree || yTree)
        await this.changes(xTree ? (x as TreeEntry).oid : null, yTree ? (y as TreeEntry).oid : null, `${path}/`, out)
      // A directory replaced by a file (or the reverse) is the file's change plus the directory's.
      const xFile = x !== null && !xTree ? x : null
      const yFile = y !== null && !yTree ? y : null
      if (xFile !== null || yFile !== null) out.push({ path, before: xFile, after: yFile })
    }
  }

  private async diffTrees(before: string | null, after: string): Promise<{ diffs: RepoDiff[]; overflow: boolean }> {
    const found: Change[] = []
    await this.changes(before, after, '', found)
    found.sort(byPath)
    // Exact renames: a deleted file whose content reappears, added, under another path.
    const added = new Map<string, Change[]>()
    for (const c of found)
      if (c.before === null && c.after !== null && c.after.type === 'blob')
        added.set(c.after.oid, [...(added.get(c.after.oid) ?? []), c])
    const renamedTo = new Map<Change, Change>()
    const taken = new Set<Change>()
    for (const c of found) {
      if (c.after !== null || c.before === null || c.before.type !== 'blob') continue
      const target = added.get(c.before.oid)?.find((t) => !taken.has(t))
      if (target === undefined) continue
      taken.add(target)
      renamedTo.set(c, target)
    }
    const entries: {
      readonly path: string
      readonly oldPath: string
      readonly before: TreeEntry | null
      readonly after: TreeEntry | null
      readonly renamed: boolean
    }[] = []
    for (const c of found) {
      if (taken.has(c)) continue
      const target = renamedTo.get(c)
      if (target !== undefined)
        entries.push({ path: target.path, oldPath: c.path, before: c.before, after: target.after, renamed: true })
      else entries.push({ path: c.path, oldPath: c.path, before: c.before, after: c.after, renamed: false })
    }
    entries.sort(byPath)
    const overflow = entries.length > this.limits.maxDiffFiles
    const diffs: RepoDiff[] = []
    let budget = this.limits.maxDiffLines
    for (const e of entries.slice(0, this.limits.maxDiffFiles)) {
      const base = {
        old_path: e.oldPath,
        new_path: e.path,
        a_mode: e.before?.mode ?? null,
        b_mode: e.after?.mode ?? null,
        new_file: e.before === null,
        renamed_file: e.renamed,
        deleted_file: e.after === null,
      }
      if (e.before?.type === 'commit' || e.after?.type === 'commit') {
        // A submodule: git shows the commit it points at.
        const lines = [
          e.before?.type === 'commit' ? `-Subproject commit ${e.before.oid}` : null,
          e.after?.type === 'commit' ? `+Subproject commit ${e.after.oid}` : null,
        ].filter((l): l is string => l !== null)
        const header = `@@ -${e.before?.type === 'commit' ? '1' : '0,0'} +${e.after?.type === 'commit' ? '1' : '0,0'} @@`
        diffs.push({ ...base, diff: `${header}\n${lines.join('\n')}\n` })
        continue
      }
      if (e.before?.oid === e.after?.oid) {
        diffs.push({ ...base, diff: '' })
        continue
      }
      if (budget <= 0) {
        diffs.push({ ...base, diff: '', collapsed: true })
        continue
      }
      const read = async (entry: TreeEntry | null): Promise<Uint8Array | null> =>
        entry === null
          ? null
          : (await git.readBlob({ fs, gitdir: this.gitdir, oid: entry.oid, cache: this.cache })).blob
      const result = diffFile(e.oldPath, e.path, await read(e.before), await read(e.after), this.limits.diff)
      if (result.kind === 'too-large') diffs.push({ ...base, diff: '', too_large: true })
      else {
        diffs.push({ ...base, diff: result.diff })
        if (result.kind === 'text') budget -= result.lines
      }
    }
    return { diffs, overflow }
  }
}
