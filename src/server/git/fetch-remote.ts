import { git, GitError } from './git'

/** Basic-auth credentials for a remote's smart HTTP (a token as password). */
export interface RemoteCredentials {
  readonly username: string
  readonly password: string
}

/** A fetch from a remote that failed, with git's own reason (never the credentials). */
export class RemoteFetchError extends Error {}

/**
 * The environment that hands git the credentials for one command: an `http.extraHeader` given
 * through GIT_CONFIG_COUNT/KEY/VALUE. They never appear in the process arguments, the remote's
 * URL or any config file, and redirects (which would carry the header elsewhere) are refused.
 */
function credentialEnv(credentials: RemoteCredentials): Record<string, string> {
  const basic = Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')
  return {
    GIT_CONFIG_COUNT: '2',
    GIT_CONFIG_KEY_0: 'http.extraHeader',
    GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
    GIT_CONFIG_KEY_1: 'http.followRedirects',
    GIT_CONFIG_VALUE_1: 'false',
    // Only smart HTTP: no file://, ssh:// or ext:: transports through anything the remote says.
    GIT_ALLOW_PROTOCOL: 'http:https',
  }
}

/** git's reason for a failed fetch: its `fatal:`/`error:` lines, without progress noise. */
function reason(error: GitError): string {
  // A 401 to the credentials sent makes git fall back to asking for others, which it may not do here.
  if (/could not read (Username|Password)|Authentication failed/i.test(error.stderr)) return 'Authentication failed: the server refused the username and token (HTTP 401)'
  const lines = error.stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^(fatal|error|remote):/.test(l))
  return lines.join(' ').slice(0, 500) || error.message
}

/**
 * Fetches every branch and tag of the repository at `url` (http or https) into the bare
 * repository `gitDir`, overwriting refs of the same name, over smart HTTP with basic auth.
 */
export async function fetchAllRefs(gitDir: string, url: string, credentials: RemoteCredentials): Promise<void> {
  if (!/^https?:\/\//i.test(url)) throw new RemoteFetchError(`not an http(s) URL: ${url}`)
  try {
    await git(['fetch', '--quiet', '--no-write-fetch-head', '--end-of-options', url, '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'], {
      gitDir,
      env: credentialEnv(credentials),
      timeoutMs: 30 * 60_000,
    })
  } catch (error) {
    if (error instanceof GitError) throw new RemoteFetchError(reason(error))
    throw error
  }
}

/**
 * The branch the remote's HEAD names (`git ls-remote --symref`), or null when it names none
 * (an empty repository, or a server that does not advertise the symref).
 */
export async function remoteHeadBranch(url: string, credentials: RemoteCredentials): Promise<string | null> {
  if (!/^https?:\/\//i.test(url)) throw new RemoteFetchError(`not an http(s) URL: ${url}`)
  try {
    const out = await git(['ls-remote', '--symref', '--end-of-options', url, 'HEAD'], { env: credentialEnv(credentials), timeoutMs: 60_000 })
    const m = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(out.stdout.toString('utf8'))
    return m ? m[1] : null
  } catch (error) {
    if (error instanceof GitError) throw new RemoteFetchError(reason(error))
    throw error
  }
}

/** Points HEAD at `branch` when the repository has that branch (the source's default branch). */
export async function setHeadBranch(gitDir: string, branch: string): Promise<boolean> {
  const exists = await git(['show-ref', '--verify', '--quiet', '--end-of-options', `refs/heads/${branch}`], { gitDir, successExitCodes: [0, 1] })
  if (exists.exitCode !== 0) return false
  await git(['symbolic-ref', 'HEAD', `refs/heads/${branch}`], { gitDir })
  return true
}
