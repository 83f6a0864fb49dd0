import { execFile, execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

const ENV = {
  ...process.env,
  GIT_TERMINAL_PROMPT: '0',
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@example.com',
  GIT_COMMITTER_NAME: 'Test Author',
  GIT_COMMITTER_EMAIL: 'author@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: tmpdir(),
}

/**
 * Runs system git in `cwd` and resolves with trimmed stdout; rejects with stderr on failure.
 * Asynchronous on purpose: the server under test shares this process's event loop.
 */
export function sh(cwd: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: ENV, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args.join(' ')} failed: ${stderr}`))
      else resolve(stdout.trim())
    })
  })
}

/** Runs system git in `cwd` expecting success; resolves with its stderr (where `remote:` lines of a push go). */
export function shStderr(cwd: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: ENV, encoding: 'utf8' }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`git ${args.join(' ')} failed: ${stderr}`))
      else resolve(stderr)
    })
  })
}

/** Runs git expecting failure and resolves with its stderr; rejects if git succeeded. */
export function shFails(cwd: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: ENV, encoding: 'utf8' }, (error, _stdout, stderr) => {
      if (error) resolve(stderr)
      else reject(new Error(`git ${args.join(' ')} unexpectedly succeeded`))
    })
  })
}

/** Synchronous git for local-only work (no server involved). */
function shLocal(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()
}

/** A new non-bare working repository on branch `main` in a temp dir. */
export function makeWorkRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'burrow-work-'))
  shLocal(dir, 'init', '--quiet', '--initial-branch=main')
  return dir
}

/** Writes files (path → content) and commits them with `message`; returns the commit SHA. */
export function commitFiles(dir: string, files: Readonly<Record<string, string>>, message: string): string {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
  shLocal(dir, 'add', '-A')
  shLocal(dir, 'commit', '--quiet', '-m', message)
  return shLocal(dir, 'rev-parse', 'HEAD')
}

/** `http://user:token@host:port/path.git` for a listening server URL. */
export function remoteUrl(serverUrl: string, fullPath: string, token?: string): string {
  const url = new URL(`${serverUrl}/${fullPath}.git`)
  if (token) {
    url.username = 'oauth2'
    url.password = token
  }
  return url.toString()
}

/** One branch for importBranches: its commits in order, each writing files (path → content). */
export interface BranchPlan {
  readonly name: string
  readonly commits: readonly { readonly message: string; readonly files: Readonly<Record<string, string>> }[]
}

/**
 * Creates `branches` off the commit `from` (a full ref or a SHA) in the bare repository `gitDir`
 * with one `git fast-import`, by `author`: setup for tests that consume many branches, where a
 * commit API call each would cost a dozen git processes and the push listeners. The refs are
 * written straight to the repository, as a push that no server saw; their names must be new.
 */
export function importBranches(
  gitDir: string,
  from: string,
  branches: readonly BranchPlan[],
  author: { readonly name: string; readonly email: string },
): Promise<void> {
  const data = (text: string): string => `data ${Buffer.byteLength(text)}\n${text}\n`
  const who = `${author.name} <${author.email}> ${Math.floor(Date.now() / 1000)} +0000`
  const stream = branches
    .flatMap((branch) =>
      branch.commits.map((commit, i) =>
        [
          `commit refs/heads/${branch.name}\nauthor ${who}\ncommitter ${who}\n${data(commit.message)}`,
          i === 0 ? `from ${from}^0\n` : '',
          ...Object.entries(commit.files).map(([path, content]) => `M 100644 inline ${path}\n${data(content)}`),
          '\n',
        ].join(''),
      ),
    )
    .join('')
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      ['fast-import', '--quiet'],
      { env: { ...ENV, GIT_DIR: gitDir, GIT_CONFIG_GLOBAL: '/dev/null' }, encoding: 'utf8' },
      (error, _stdout, stderr) => (error ? reject(new Error(`git fast-import failed: ${stderr}`)) : resolve()),
    )
    child.stdin?.end(stream)
  })
}
