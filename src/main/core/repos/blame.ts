import { diffArrays } from 'diff'
import { CommitQueue } from './commit-queue'

/**
 * Blame computed from history, since isomorphic-git has none: git's own algorithm without move
 * and copy detection (`git blame` with no `-M`/`-C`). Every line of the file starts suspected
 * on the head commit; commits are visited newest commit time first (git's order), and a commit
 * passes each line it did not change on to the parent it came from. A parent with the very same
 * file takes every line; otherwise a line diff against each parent in turn finds the lines that
 * were already there. What no parent takes was written by that commit.
 *
 * Pure over a `BlameHistory` (the clone's objects in CloneReader, `git` in the tests).
 */

/** A commit as blame needs it: its commit time (the walk's order) and its parents. */
export interface BlameCommit {
  readonly time: number
  readonly parents: readonly string[]
}

/** The file in one commit: an id equal for equal contents (its blob id) and its lines. */
export interface BlameFile {
  readonly id: string
  readonly lines: readonly string[]
}

/** The history blame reads: commits, and the blamed file as each commit has it (null where it does not exist). */
export interface BlameHistory {
  commit(id: string): Promise<BlameCommit>
  file(commitId: string): Promise<BlameFile | null>
}

/** Past this many changed lines between two versions, the diff gives up and the child keeps its lines. */
export const BLAME_MAX_EDITS = 20_000

/** Lines held by one commit, as `at[i]` (a line of the commit's version) is `final[i]` (a line of the blamed file). */
interface Held {
  readonly at: number[]
  readonly final: number[]
}

/** A commit holding lines, queued until its parents have been asked about them. */
interface Suspect {
  readonly id: string
  readonly time: number
  readonly parents: readonly string[]
  readonly file: BlameFile
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
 * For each line of the file at `head`, the commit that last changed it. Throws when `head` has
 * no such file (the caller says which path).
 */
export async function blameCommits(history: BlameHistory, head: string): Promise<string[]> {
  const headFile = await history.file(head)
  if (headFile === null) throw new Error(`The file does not exist at ${head}.`)
  const owners = new Array<string>(headFile.lines.length)
  const suspects = new Map<string, Suspect>()
  const queue = new CommitQueue<Suspect>()

  /** Gives lines to a commit, queueing it again if it was already visited (commit times can be out of order). */
  const give = async (id: string, file: BlameFile, lines: Held): Promise<void> => {
    let known = suspects.get(id)
    if (known === undefined) {
      const commit = await history.commit(id)
      known = { id, time: commit.time, parents: commit.parents, file, held: { at: [], final: [] }, queued: false }
      suspects.set(id, known)
    }
    known.held.at.push(...lines.at)
    known.held.final.push(...lines.final)
    if (!known.queued) {
      known.queued = true
      queue.push(known)
    }
  }

  const all = headFile.lines.map((_, i) => i)
  await give(head, headFile, { at: all, final: [...all] })
  while (queue.size > 0) {
    const current = queue.pop() as Suspect
    current.queued = false
    let held = current.held
    current.held = { at: [], final: [] }
    const parents = await parentFiles(history, current.parents)
    const same = parents.find((p) => p.file.id === current.file.id)
    if (same !== undefined) {
      await give(same.id, same.file, held)
      continue
    }
    for (const parent of parents) {
      if (held.at.length === 0) break
      const { passed, kept } = passToParent(parent.file, current.file, held)
      if (passed.at.length > 0) await give(parent.id, parent.file, passed)
      held = kept
    }
    for (const line of held.final) owners[line] = current.id
  }
  return owners
}

async function parentFiles(
  history: BlameHistory,
  parents: readonly string[],
): Promise<{ readonly id: string; readonly file: BlameFile }[]> {
  const found: { readonly id: string; readonly file: BlameFile }[] = []
  for (const id of parents) {
    const file = await history.file(id)
    if (file !== null) found.push({ id, file })
  }
  return found
}

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
