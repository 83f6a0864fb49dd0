import { execFile, spawn, type ChildProcess } from 'node:child_process'

/** Why a git command failed, when we can tell; callers map these to HTTP answers. */
export type GitErrorKind = 'not-found' | 'bad-ref' | 'conflict' | 'timeout' | 'unknown'

/** A git command that exited with a code it was not expected to. */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
    readonly kind: GitErrorKind,
  ) {
    super(`git ${args[0] ?? ''} failed (${exitCode ?? 'signal'}): ${stderr.trim().split('\n')[0] ?? ''}`)
  }
}

export interface GitOptions {
  /** The bare repository (sets GIT_DIR); omit for commands that take no repository. */
  readonly gitDir?: string
  readonly cwd?: string
  readonly input?: string | Buffer
  readonly env?: Readonly<Record<string, string>>
  /** Exit codes that count as success (default just 0), as GitHub Desktop's wrapper. */
  readonly successExitCodes?: readonly number[]
  readonly timeoutMs?: number
  readonly maxBuffer?: number
}

export interface GitResult {
  readonly stdout: Buffer
  readonly stderr: string
  readonly exitCode: number
}

const BASE_ENV: Readonly<Record<string, string>> = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_CONFIG_NOSYSTEM: '1',
  // The server's git must not pick up the machine user's ~/.gitconfig (identity, aliases, hooks).
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Burrow',
  GIT_AUTHOR_EMAIL: 'burrow@localhost',
  GIT_COMMITTER_NAME: 'Burrow',
  GIT_COMMITTER_EMAIL: 'burrow@localhost',
  LANG: 'C',
  LC_ALL: 'C',
  // Paths from callers are file names, never pathspec magic: `:(glob)**` names a file called that.
  GIT_LITERAL_PATHSPECS: '1',
  // Local repositories only (a fork's fetch names its source's directory): no http, ssh, git://
  // or ext:: transport, whatever a URL, a config or a submodule names. The one command that may
  // reach another host, platform/git/fetch-remote.ts, allows http and https to the addresses the
  // outbound guard checked.
  GIT_ALLOW_PROTOCOL: 'file',
}

function gitEnv(opts: GitOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME ?? '/tmp', ...BASE_ENV, ...opts.env }
  if (opts.gitDir) env.GIT_DIR = opts.gitDir
  return env
}

function classify(stderr: string): GitErrorKind {
  if (
    /unknown revision|bad revision|not a valid object name|does not exist|Not a valid object|invalid object name|path '.*' does not exist|exists on disk, but not in/i.test(
      stderr,
    )
  )
    return 'not-found'
  if (/not a valid ref|is not a valid branch name|bad ref/i.test(stderr)) return 'bad-ref'
  if (/CONFLICT|conflict/.test(stderr)) return 'conflict'
  return 'unknown'
}

/**
 * Runs `git args…` without a shell and resolves with its output; rejects with a GitError
 * when the exit code is not one of `successExitCodes`. Every git call of the server goes
 * through here, so argument safety (see `assertRef`, `assertPath`) is checked in one place.
 */
export function git(args: readonly string[], opts: GitOptions = {}): Promise<GitResult> {
  const success = opts.successExitCodes ?? [0]
  const unsafe = nulArgument(args, opts)
  if (unsafe !== undefined)
    return Promise.reject(new GitError(args, null, `argument with a NUL byte: ${JSON.stringify(unsafe)}`, 'bad-ref'))
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      args as string[],
      {
        cwd: opts.cwd,
        env: gitEnv(opts),
        encoding: 'buffer',
        maxBuffer: opts.maxBuffer ?? 256 * 1024 * 1024,
        timeout: opts.timeoutMs ?? 60_000,
        killSignal: 'SIGKILL',
      },
      (error, stdout, stderrBuf) => {
        const stderr = stderrBuf.toString('utf8')
        if (error && typeof error.code !== 'number') {
          const kind: GitErrorKind = error.killed ? 'timeout' : 'unknown'
          reject(new GitError(args, null, stderr || error.message, kind))
          return
        }
        const exitCode = error ? (error.code as number) : 0
        if (!success.includes(exitCode)) {
          reject(new GitError(args, exitCode, stderr, classify(stderr)))
          return
        }
        resolve({ stdout, stderr, exitCode })
      },
    )
    if (opts.input !== undefined) child.stdin?.end(opts.input)
    else child.stdin?.end()
  })
}

/**
 * An argument or environment value no process can receive (C strings end at NUL; Node throws a
 * TypeError), which a caller's name or path let through: rejected as a GitError callers map.
 */
function nulArgument(args: readonly string[], opts: GitOptions): string | undefined {
  return [...args, ...Object.values(opts.env ?? {})].find((value) => value.includes('\0'))
}

/** Like `git` but returns stdout as UTF-8 text. */
export async function gitText(args: readonly string[], opts: GitOptions = {}): Promise<string> {
  return (await git(args, opts)).stdout.toString('utf8')
}

/** Starts a long-running git process with streamed stdio (http-backend, archive). */
export function spawnGit(args: readonly string[], opts: GitOptions = {}): ChildProcess {
  return spawn('git', args as string[], { cwd: opts.cwd, env: gitEnv(opts), stdio: ['pipe', 'pipe', 'pipe'] })
}

/**
 * Throws unless `ref` is safe to pass to git as a revision: it can never start with `-`
 * (it would become an option) and must follow git's ref-name rules loosely enough to accept
 * branch names, tag names, SHAs and `HEAD~2`-style expressions we generate ourselves.
 */
export function assertRef(ref: string): void {
  if (
    ref.length === 0 ||
    ref.length > 1024 ||
    ref.startsWith('-') ||
    ref.startsWith('/') ||
    ref.includes('..') ||
    ref.includes('@{') ||
    ref.endsWith('/') ||
    ref.endsWith('.') ||
    ref.endsWith('.lock') ||
    // eslint-disable-next-line no-control-regex
    /[\x00-\x20\x7f ~^:?*[\\]/.test(ref) ||
    /(^|\/)\./.test(ref) ||
    ref.includes('//')
  ) {
    throw new GitError(['rev-parse', ref], null, `invalid ref ${JSON.stringify(ref)}`, 'bad-ref')
  }
}

/** True when `ref` passes `assertRef`. */
export function isValidRef(ref: string): boolean {
  try {
    assertRef(ref)
    return true
  } catch {
    return false
  }
}

/** Throws unless `path` is a relative repository path without `..` segments or a leading `-`. */
export function assertPath(path: string): void {
  const segments = path.split('/')
  if (
    path.startsWith('-') ||
    path.startsWith('/') ||
    path.includes('\0') ||
    segments.some((s) => s === '..' || s === '.') ||
    path.length > 4096
  ) {
    throw new GitError(['ls-tree', path], null, `invalid path ${JSON.stringify(path)}`, 'bad-ref')
  }
}

/**
 * Why a file path cannot be committed, or null when it can: `empty`; `traversal` for a `..`
 * segment; `invalid` for anything else git would refuse or silently drop from the index (an
 * absolute path, an empty or `.` segment, `.git` in any spelling git's verify_path protects
 * against — `.GIT`, `.git.`, `git~1`, also between backslashes —, a NUL) or that could read as an
 * option (a leading `-`), or a path longer than 4096 characters. Both file-writing APIs and the
 * Files API's reads check paths with this one rule.
 */
export type FilePathProblem = 'empty' | 'traversal' | 'invalid'

const MAX_PATH_LENGTH = 4096
const GIT_DIR_NAMES = new Set(['.git', 'git~1'])

function isRefusedSegment(segment: string): boolean {
  if (segment === '' || segment === '.') return true
  // Git's NTFS protection (on by default) also splits at backslashes and ignores trailing dots and spaces.
  return segment
    .split('\\')
    .some((part) => part === '.' || part === '..' || GIT_DIR_NAMES.has(part.toLowerCase().replace(/[. ]+$/, '')))
}

/** The problem with `path` as a file path to commit or read (see FilePathProblem), or null. */
export function filePathProblem(path: string): FilePathProblem | null {
  if (path === '') return 'empty'
  const segments = path.split('/')
  if (segments.includes('..')) return 'traversal'
  if (path.startsWith('-') || path.includes('\0') || path.length > MAX_PATH_LENGTH || segments.some(isRefusedSegment))
    return 'invalid'
  return null
}

/** True for a full or abbreviated hexadecimal object name. */
export function isSha(value: string): boolean {
  return /^[0-9a-f]{4,64}$/i.test(value)
}

/** The all-zero object name git uses for "no commit" in ref updates. */
export const ZERO_SHA = '0000000000000000000000000000000000000000'
