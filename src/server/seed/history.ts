/**
 * A planned git history (commits with explicit dates, branches, merge commits, annotated tags),
 * imported into a bare repository with one `git fast-import`. Dates are explicit, so the same
 * plan always yields the same object ids.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GitError, gitText, spawnGit } from '../platform/git/git'

/** Who wrote a commit. */
export interface Signature {
  readonly name: string
  readonly email: string
}

/** One planned commit: `changes` maps paths to new content, or null for a deletion. */
export interface PlannedCommit {
  readonly mark: number
  readonly parents: readonly number[]
  readonly at: number
  readonly author: Signature
  readonly message: string
  readonly changes: ReadonlyMap<string, string | null>
}

/** An annotated tag on a planned commit. */
export interface PlannedTag {
  readonly name: string
  readonly mark: number
  readonly at: number
  readonly tagger: Signature
  readonly message: string
}

/** A line of development: its tip commit and the files at that tip. */
export interface Line {
  tip: number | null
  readonly files: Map<string, string>
  /** Paths changed since the line forked (branches only; a merge carries these over). */
  readonly touched: Set<string>
}

/** Builds a history in memory, commit by commit. */
export class HistoryPlan {
  readonly commits: PlannedCommit[] = []
  readonly tags: PlannedTag[] = []
  private nextMark = 1

  /** An empty line (the default branch before its first commit). */
  static emptyLine(): Line {
    return { tip: null, files: new Map(), touched: new Set() }
  }

  /** A branch forked from `from` at its current tip. */
  static fork(from: Line): Line {
    return { tip: from.tip, files: new Map(from.files), touched: new Set() }
  }

  /** Commits `changes` on `line` and returns the new mark. */
  commit(
    line: Line,
    at: number,
    author: Signature,
    message: string,
    changes: ReadonlyMap<string, string | null>,
  ): number {
    const mark = this.nextMark++
    this.commits.push({ mark, parents: line.tip === null ? [] : [line.tip], at, author, message, changes })
    apply(line, changes)
    line.tip = mark
    return mark
  }

  /**
   * Merges `branch` into `target` with a merge commit whose tree is the target's files plus the
   * branch's changes. Exact as long as the target did not change the branch's paths since the
   * fork, which the planner guarantees by locking the files an open branch works on.
   */
  merge(target: Line, branch: Line, at: number, author: Signature, message: string): number {
    if (target.tip === null || branch.tip === null) throw new Error('merge needs two commits')
    const changes = new Map<string, string | null>()
    for (const path of branch.touched) changes.set(path, branch.files.get(path) ?? null)
    const mark = this.nextMark++
    this.commits.push({ mark, parents: [target.tip, branch.tip], at, author, message, changes })
    apply(target, changes)
    target.tip = mark
    return mark
  }

  /** Tags the line's tip. */
  tag(line: Line, name: string, at: number, tagger: Signature, message: string): void {
    if (line.tip === null) throw new Error('tag needs a commit')
    this.tags.push({ name, mark: line.tip, at, tagger, message })
  }

  /** The `git fast-import` stream of every commit (on a scratch ref) and tag. */
  stream(scratchRef: string): string {
    const parts: string[] = []
    for (const c of this.commits) {
      const who = (s: Signature): string =>
        `${s.name.replace(/[<>\n]/g, '')} <${s.email.replace(/[<>\n]/g, '')}> ${Math.floor(c.at / 1000)} +0000`
      parts.push(
        `commit ${scratchRef}\nmark :${c.mark}\nauthor ${who(c.author)}\ncommitter ${who(c.author)}\n${data(c.message)}`,
      )
      if (c.parents[0] !== undefined) parts.push(`from :${c.parents[0]}\n`)
      for (const p of c.parents.slice(1)) parts.push(`merge :${p}\n`)
      for (const [path, content] of c.changes) {
        parts.push(content === null ? `D ${path}\n` : `M 100644 inline ${path}\n${data(content)}`)
      }
      parts.push('\n')
    }
    for (const t of this.tags) {
      const tagger = `${t.tagger.name} <${t.tagger.email}> ${Math.floor(t.at / 1000)} +0000`
      parts.push(`tag ${t.name}\nfrom :${t.mark}\ntagger ${tagger}\n${data(t.message)}`)
    }
    return parts.join('')
  }
}

function apply(line: Line, changes: ReadonlyMap<string, string | null>): void {
  for (const [path, content] of changes) {
    if (content === null) line.files.delete(path)
    else line.files.set(path, content)
    line.touched.add(path)
  }
}

function data(text: string): string {
  return `data ${Buffer.byteLength(text)}\n${text}\n`
}

/** Object ids of an imported history: commits by mark, tag objects by name. */
export interface ImportedHistory {
  readonly commits: ReadonlyMap<number, string>
  readonly tags: ReadonlyMap<string, string>
}

const SCRATCH_REF = 'refs/seed/import'

/**
 * Writes the plan's objects into the bare repository `gitDir` and leaves no ref behind: the
 * branches and tags are created later, when the seed replays their pushes in time order.
 */
export async function importHistory(gitDir: string, plan: HistoryPlan): Promise<ImportedHistory> {
  const tmp = mkdtempSync(join(tmpdir(), 'burrow-seed-'))
  const marksFile = join(tmp, 'marks')
  try {
    await fastImport(gitDir, plan.stream(SCRATCH_REF), marksFile)
    const commits = new Map<number, string>()
    for (const line of readFileSync(marksFile, 'utf8').split('\n')) {
      const m = /^:(\d+) ([0-9a-f]{40,64})$/.exec(line)
      if (m) commits.set(Number(m[1]), m[2])
    }
    const tags = new Map<string, string>()
    const refs = await gitText(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/tags/', 'refs/seed/'], {
      gitDir,
    })
    for (const line of refs.split('\n').filter(Boolean)) {
      const [ref, sha] = line.split(' ')
      if (ref.startsWith('refs/tags/')) tags.set(ref.slice('refs/tags/'.length), sha)
      await gitText(['update-ref', '-d', '--end-of-options', ref, sha], { gitDir })
    }
    return { commits, tags }
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

function fastImport(gitDir: string, stream: string, marksFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(['fast-import', '--quiet', '--date-format=raw', `--export-marks=${marksFile}`], { gitDir })
    let stderr = ''
    child.stdout?.resume()
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new GitError(['fast-import'], code, stderr, 'unknown')),
    )
    child.stdin?.end(stream)
  })
}

/** Creates refs (`refs/heads/x` → object id) in one `git update-ref --stdin` transaction. */
export async function createRefs(gitDir: string, refs: ReadonlyMap<string, string>): Promise<void> {
  const lines = [...refs].map(([ref, sha]) => `create ${ref} ${sha}\n`).join('')
  if (lines !== '') await gitText(['update-ref', '--stdin'], { gitDir, input: lines })
}
