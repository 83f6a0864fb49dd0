import { diffArrays } from 'diff'
import { CommitQueue } from './commit-queue'
import { MAX_SCORE, RENAME_MIN_SCORE, renameScore } from './similarity'

/**
 * Blame computed from history, since isomorphic-git has none: git's own algorithm without move
 * and copy detection (`git blame` with no `-M`/`-C`). Every line of the file starts suspected
 * on the head commit; commits are visited newest commit time first (git's order), and a commit
 * passes each line it did not change on to the parent it came from. A parent with the very same
 * file takes every line; otherwise a line diff against each parent in turn finds the lines that
 * were already there. What no parent takes was written by that commit.
 *
 * Like `git blame`, it follows whole-file renames: where a parent has no file at the path, the
 * file it was renamed from is the parent's removed file with the same content, else the most
 * similar one past git's 50% threshold (similarity.ts), and blame goes on under that path.
 *
 * Pure over a `BlameHistory` (the clone's objects in CloneReader, `git` in the tests).
 */

/** A commit as blame needs it: its commit time (the walk's order) and its parents. */
export interface BlameCommit {
  readonly time: number
  readonly parents: readonly string[]
}

/** The file in one commit: an id equal for equal contents (its blob id), its bytes and its lines. */
export interface BlameFile {
  readonly id: string
  readonly bytes: Uint8Array
  readonly lines: readonly string[]
}

/** A file of a commit's tree, by path and blob id. */
export interface BlamePath {
  readonly path: string
  readonly id: string
}

/** The history blame reads: commits, files by commit and path, and the files a commit removed. */
export interface BlameHistory {
  commit(id: string): Promise<BlameCommit>
  /** The file at `path` in a commit; null where the commit has no file there. */
  file(commitId: string, path: string): Promise<BlameFile | null>
  /** The files `parent` has and `child` no longer has at their path: where a renamed file can come from. */
  removed(parentId: string, childId: string): Promise<readonly BlamePath[]>
}

/** Past this many changed lines between two versions, the diff gives up and the child keeps its lines. */
export const BLAME_MAX_EDITS = 20_000

/** Lines held by one commit, as `at[i]` (a line of the commit's version) is `final[i]` (a line of the blamed file). */
interface Held {
  readonly at: number[]
  readonly final: number[]
}

/** The blamed file as one commit has it, under the path it has there. */
interface Origin {
  readonly commit: string
  readonly path: string
  readonly file: BlameFile
}

/** An origin holding lines, queued until its commit's parents have been asked about them. */
interface Suspect extends Origin {
  readonly time: number
  readonly parents: readonly string[]
  held: Held
  queued: boolean
}

/** A file's text as git counts its lines: split at newlines, a last newline ends a line rather than starting one. */
export function blameLinesOf(text: string): string[] {
  if (text === '') return []
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

/**
 * For each line of the file `path` at `head`, the commit that last changed it. Throws when
 * `head` has no such file.
 */
export async function blameCommits(history: BlameHistory, head: string, path: string): Promise<string[]> {
  const headFile = await history.file(head, path)
  if (headFile === null) throw new Error(`${path} does not exist at ${head}.`)
  const owners = new Array<string>(headFile.lines.length)
  // One suspect per commit and path: a merge can reach a commit under two names.
  const suspects = new Map<string, Suspect>()
  const queue = new CommitQueue<Suspect>()

  /** Gives lines to an origin, queueing it again if it was already visited (commit times can be out of order). */
  const give = async (origin: Origin, lines: Held): Promise<void> => {
    const key = `${origin.commit}\0${origin.path}`
    let known = suspects.get(key)
    if (known === undefined) {
      const commit = await history.commit(origin.commit)
      known = { ...origin, time: commit.time, parents: commit.parents, held: { at: [], final: [] }, queued: false }
      suspects.set(key, known)
    }
    known.held.at.push(...lines.at)
    known.held.final.push(...lines.final)
    if (!known.queued) {
      known.queued = true
      queue.push(known)
    }
  }

  const all = headFile.lines.map((_, i) => i)
  await give({ commit: head, path, file: headFile }, { at: all, final: [...all] })
  while (queue.size > 0) {
    const current = queue.pop() as Suspect
    current.queued = false
    let held = current.held
    current.held = { at: [], final: [] }
    const parents = await parentOrigins(history, current)
    const same = parents.find((p) => p.file.id === current.file.id)
    if (same !== undefined) {
      await give(same, held)
      continue
    }
    for (const parent of parents) {
      if (held.at.length === 0) break
      const { passed, kept } = passToParent(parent.file, current.file, held)
      if (passed.at.length > 0) await give(parent, passed)
      held = kept
    }
    for (const line of held.final) owners[line] = current.commit
  }
  return owners
}

/**
 * The file in each parent of `child`, in parent order, as git's blame finds it: at the same
 * path; then, unless a parent has the very same file there, a parent without the path gets the
 * file it was renamed from, if any. Parents without the file are left out.
 */
async function parentOrigins(history: BlameHistory, child: Suspect): Promise<Origin[]> {
  const found: (Origin | null)[] = []
  for (const commit of child.parents) {
    const file = await history.file(commit, child.path)
    found.push(file === null ? null : { commit, path: child.path, file })
  }
  if (!found.some((origin) => origin?.file.id === child.file.id))
    for (const [i, commit] of child.parents.entries()) found[i] ??= await renamedFrom(history, commit, child)
  return found.filter((origin): origin is Origin => origin !== null)
}

/**
 * The file of `parent` that `child` was renamed from: among the files the child removed, one
 * with the same content, else the most similar one reaching git's rename threshold. A tie goes
 * to a file of the same name, as in git.
 */
async function renamedFrom(history: BlameHistory, parent: string, child: Origin): Promise<Origin | null> {
  const removed = await history.removed(parent, child.commit)
  const exact = removed.filter((candidate) => candidate.id === child.file.id)
  let best: { readonly origin: Origin; readonly score: number; readonly sameName: boolean } | null = null
  for (const candidate of exact.length > 0 ? exact : removed) {
    const file = await history.file(parent, candidate.path)
    if (file === null) continue
    const score = exact.length > 0 ? MAX_SCORE : renameScore(file.bytes, child.file.bytes)
    if (score < RENAME_MIN_SCORE) continue
    const sameName = baseName(candidate.path) === baseName(child.path)
    if (best === null || score > best.score || (score === best.score && sameName && !best.sameName))
      best = { origin: { commit: parent, path: candidate.path, file }, score, sameName }
  }
  return best?.origin ?? null
}

const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1)

/**
 * Which of the held lines of `child` the parent already had (by a line diff), as lines of the
 * parent, and which stay with the child.
 */
function passToParent(parent: BlameFile, child: BlameFile, held: Held): { passed: Held; kept: Held } {
  const origin = parentLineOf(parent.lines, child.lines)
  const passed: Held = { at: [], final: [] }
  const kept: Held = { at: [], final: [] }
  held.at.forEach((line, i) => {
    const from = origin[line]
    const to = from === -1 ? kept : passed
    to.at.push(from === -1 ? line : from)
    to.final.push(held.final[i])
  })
  return { passed, kept }
}

/** For each line of `child`, the line of `parent` it is unchanged from, or -1 for a line the child added. */
function parentLineOf(parent: readonly string[], child: readonly string[]): Int32Array {
  const origin = new Int32Array(child.length).fill(-1)
  const changes = diffArrays([...parent], [...child], { maxEditLength: BLAME_MAX_EDITS })
  if (changes === undefined) return origin
  let p = 0
  let c = 0
  for (const change of changes) {
    const n = change.count
    if (change.added) c += n
    else if (change.removed) p += n
    else for (let i = 0; i < n; i++) origin[c++] = p++
  }
  return origin
}

/** Consecutive lines of one commit, as GitLab's blame API groups them. */
export interface BlameRun {
  readonly commit: string
  /** The first line, from 0. */
  readonly start: number
  readonly count: number
}

/** The owners of each line as runs of consecutive lines of the same commit. */
export function blameRuns(owners: readonly string[]): BlameRun[] {
  const runs: BlameRun[] = []
  owners.forEach((commit, line) => {
    const last = runs[runs.length - 1]
    if (last !== undefined && last.commit === commit) runs[runs.length - 1] = { ...last, count: last.count + 1 }
    else runs.push({ commit, start: line, count: 1 })
  })
  return runs
}
