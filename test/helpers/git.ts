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
