import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { assertPath, assertRef, git, gitText, GitError, ZERO_SHA } from './git'

/** One change of a commit, as GitLab's commit actions describe them. */
export type CommitAction =
  | {
      readonly action: 'create' | 'update'
      readonly filePath: string
      readonly content: Buffer
      readonly executable?: boolean
    }
  | { readonly action: 'delete'; readonly filePath: string }
  | {
      readonly action: 'move'
      readonly filePath: string
      readonly previousPath: string
      readonly content?: Buffer
      readonly executable?: boolean
    }
  | { readonly action: 'chmod'; readonly filePath: string; readonly executable: boolean }

/** Who a commit is by; `date` defaults to now. */
export interface Identity {
  readonly name: string
  readonly email: string
}

export interface WriteCommitInput {
  /** Full ref to move, e.g. `refs/heads/main`. */
  readonly ref: string
  /** Commit to build on (its tree is the starting point), or null for a root commit. */
  readonly parent: string | null
  /** What `ref` must still point at when the commit lands: a SHA, or null when it must not exist yet. */
  readonly expectedOld: string | null
  readonly actions: readonly CommitAction[]
  readonly message: string
  readonly author: Identity
  readonly committer: Identity
}

/** The ref moved between reading it and writing the commit: nothing was overwritten. */
export class RefMovedError extends Error {
  constructor(readonly ref: string) {
    super(`${ref} moved while the commit was being written`)
  }
}

/**
 * True when git can record `name` as an author, committer or tagger name: git strips spaces,
 * control characters and `.,:;<>"'\\` from the ends of a name and refuses one left empty, and no
 * process argument or environment value can hold a NUL.
 */
export function isRecordableName(name: string): boolean {
  // eslint-disable-next-line no-control-regex
  return !name.includes('\0') && /[^\x00-\x20.,:;<>"'\\]/.test(name)
}

/** Git refused a path of the commit (update-index drops such paths with a warning): nothing was written. */
export class InvalidPathError extends Error {
  constructor(readonly path: string) {
    super(`invalid path ${JSON.stringify(path)}`)
  }
}

const FILE_MODE = '100644'
const EXEC_MODE = '100755'

interface IndexEntry {
  readonly mode: string
  readonly sha: string
}

async function indexEntry(
  gitDir: string,
  env: Readonly<Record<string, string>>,
  path: string,
): Promise<IndexEntry | null> {
  const out = await gitText(['ls-files', '--stage', '-z', '--', path], { gitDir, env })
  const m = /^(\d{6}) ([0-9a-f]{40,64}) \d\t/.exec(out)
  return m ? { mode: m[1], sha: m[2] } : null
}

async function hashBlob(gitDir: string, content: Buffer): Promise<string> {
  return (await gitText(['hash-object', '-w', '--stdin'], { gitDir, input: content })).trim()
}

/**
 * Commits `actions` on top of `parent` without a worktree: blobs via hash-object, a temporary
 * index (GIT_INDEX_FILE) filled by read-tree and update-index, then write-tree and commit-tree.
 * The ref moves with `update-ref <ref> <new> <old>`, so a concurrent move of the ref makes this
 * fail with RefMovedError instead of silently dropping somebody's commit. Returns the new SHA.
 */
export async function writeCommit(gitDir: string, input: WriteCommitInput): Promise<string> {
  assertRef(input.ref)
  for (const a of input.actions) {
    assertPath(a.filePath)
    if (a.action === 'move') assertPath(a.previousPath)
  }
  const tmp = mkdtempSync(join(tmpdir(), 'burrow-index-'))
  const env = { GIT_INDEX_FILE: join(tmp, 'index') }
  try {
    if (input.parent) await git(['read-tree', '--end-of-options', `${input.parent}^{tree}`], { gitDir, env })
    else await git(['read-tree', '--empty'], { gitDir, env })
    const records: string[] = []
    const stage = (mode: string, sha: string, path: string): void => {
      records.push(`${mode} ${sha}\t${path}\0`)
    }
    // Actions apply in order and may depend on earlier ones (move then update), so each
    // batch is flushed before an action that reads the index.
    const flush = async (): Promise<void> => {
      if (records.length === 0) return
      const { stderr } = await git(['update-index', '-z', '--index-info'], { gitDir, env, input: records.join('') })
      // update-index skips a path it refuses (`.git`, `a//b`) and still exits 0: a move would lose its file.
      const ignored = /^Ignoring path (.*)$/m.exec(stderr)
      if (ignored) throw new InvalidPathError(ignored[1])
      records.length = 0
    }
    for (const a of input.actions) {
      if (a.action === 'create' || a.action === 'update') {
        await flush()
        const existing = await indexEntry(gitDir, env, a.filePath)
        const mode =
          a.executable === undefined
            ? existing?.mode === EXEC_MODE
              ? EXEC_MODE
              : FILE_MODE
            : a.executable
              ? EXEC_MODE
              : FILE_MODE
        stage(mode, await hashBlob(gitDir, a.content), a.filePath)
      } else if (a.action === 'delete') {
        stage('0', ZERO_SHA, a.filePath)
      } else if (a.action === 'move') {
        await flush()
        const old = await indexEntry(gitDir, env, a.previousPath)
        const sha = a.content ? await hashBlob(gitDir, a.content) : old?.sha
        if (!sha)
          throw new GitError(
            ['update-index', a.previousPath],
            128,
            `path '${a.previousPath}' does not exist`,
            'not-found',
          )
        stage('0', ZERO_SHA, a.previousPath)
        stage(
          a.executable === undefined ? (old?.mode ?? FILE_MODE) : a.executable ? EXEC_MODE : FILE_MODE,
          sha,
          a.filePath,
        )
      } else {
        await flush()
        const existing = await indexEntry(gitDir, env, a.filePath)
        if (!existing)
          throw new GitError(['update-index', a.filePath], 128, `path '${a.filePath}' does not exist`, 'not-found')
        stage(a.executable ? EXEC_MODE : FILE_MODE, existing.sha, a.filePath)
      }
    }
    await flush()
    const tree = (await gitText(['write-tree'], { gitDir, env })).trim()
    const identity = {
      GIT_AUTHOR_NAME: input.author.name,
      GIT_AUTHOR_EMAIL: input.author.email,
      GIT_COMMITTER_NAME: input.committer.name,
      GIT_COMMITTER_EMAIL: input.committer.email,
    }
    const parentArgs = input.parent ? ['-p', input.parent] : []
    const commit = (
      await gitText(['commit-tree', tree, ...parentArgs, '-F', '-'], {
        gitDir,
        env: identity,
        input: input.message.endsWith('\n') ? input.message : `${input.message}\n`,
      })
    ).trim()
    await moveRef(gitDir, input.ref, commit, input.expectedOld)
    return commit
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

/**
 * Moves (or creates, or with `next` null deletes) a ref only if it still points at `expectedOld`
 * (null: must not exist); throws RefMovedError otherwise.
 */
export async function moveRef(
  gitDir: string,
  ref: string,
  next: string | null,
  expectedOld: string | null,
): Promise<void> {
  assertRef(ref)
  const args =
    next === null
      ? ['update-ref', '-d', '--end-of-options', ref, expectedOld ?? '']
      : ['update-ref', '--end-of-options', ref, next, expectedOld ?? ZERO_SHA]
  try {
    await git(args, { gitDir })
  } catch (error) {
    if (error instanceof GitError) throw new RefMovedError(ref)
    throw error
  }
}
