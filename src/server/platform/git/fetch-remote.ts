import { gitPinning, type CheckedUrl } from '../outbound/outbound'
import { git, GitError } from './git'

/** Basic-auth credentials for a remote's smart HTTP (a token as password). */
export interface RemoteCredentials {
  readonly username: string
  readonly password: string
}

/** A fetch from a remote that failed, with git's own reason (never the credentials). */
export class RemoteFetchError extends Error {}

/**
 * The environment of one git command against the remote: the credentials as an
 * `http.extraHeader` given through GIT_CONFIG_COUNT/KEY/VALUE (never in the process arguments,
 * the remote's URL or any config file), redirects refused (they would carry the header
 * elsewhere, to a host nobody checked), smart HTTP only, and the connection pinned to the
 * addresses the outbound guard checked (git would otherwise look the name up again).
 */
function remoteEnv(remote: CheckedUrl, credentials: RemoteCredentials): Record<string, string> {
  const basic = Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')
  const config: readonly (readonly [string, string])[] = [
    ['http.extraHeader', `Authorization: Basic ${basic}`],
    ['http.followRedirects', 'false'],
    ...gitPinning(remote),
  ]
  const env: Record<string, string> = {
    GIT_CONFIG_COUNT: String(config.length),
    // Only smart HTTP: no file://, ssh:// or ext:: transports through anything the remote says.
    GIT_ALLOW_PROTOCOL: 'http:https',
  }
  config.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key
    env[`GIT_CONFIG_VALUE_${i}`] = value
  })
  return env
}

/** git's reason for a failed fetch: its `fatal:`/`error:` lines, without progress noise. */
function reason(error: GitError): string {
  // A 401 to the credentials sent makes git fall back to asking for others, which it may not do here.
  if (/could not read (Username|Password)|Authentication failed/i.test(error.stderr))
    return 'Authentication failed: the server refused the username and token (HTTP 401)'
  const lines = error.stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^(fatal|error|remote):/.test(l))
  return lines.join(' ').slice(0, 500) || error.message
}

/**
 * Fetches every branch and tag of the repository at `remote` (checked by the outbound guard)
 * into the bare repository `gitDir`, overwriting refs of the same name, over smart HTTP with
 * basic auth.
 */
export async function fetchAllRefs(gitDir: string, remote: CheckedUrl, credentials: RemoteCredentials): Promise<void> {
  try {
    await git(
      [
        'fetch',
        '--quiet',
        '--no-write-fetch-head',
        '--end-of-options',
        remote.url.href,
        '+refs/heads/*:refs/heads/*',
        '+refs/tags/*:refs/tags/*',
      ],
      {
        gitDir,
        env: remoteEnv(remote, credentials),
        timeoutMs: 30 * 60_000,
      },
    )
  } catch (error) {
    if (error instanceof GitError) throw new RemoteFetchError(reason(error))
    throw error
  }
}

/**
 * The branch the HEAD of `remote` (checked by the outbound guard) names (`git ls-remote --symref`), or null when it names none
 * (an empty repository, or a server that does not advertise the symref).
 */
export async function remoteHeadBranch(remote: CheckedUrl, credentials: RemoteCredentials): Promise<string | null> {
  try {
    const out = await git(['ls-remote', '--symref', '--end-of-options', remote.url.href, 'HEAD'], {
      env: remoteEnv(remote, credentials),
      timeoutMs: 60_000,
    })
    const m = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(out.stdout.toString('utf8'))
    return m ? m[1] : null
  } catch (error) {
    if (error instanceof GitError) throw new RemoteFetchError(reason(error))
    throw error
  }
}

/** Points HEAD at `branch` when the repository has that branch (the source's default branch). */
export async function setHeadBranch(gitDir: string, branch: string): Promise<boolean> {
  const exists = await git(['show-ref', '--verify', '--quiet', '--end-of-options', `refs/heads/${branch}`], {
    gitDir,
    successExitCodes: [0, 1],
  })
  if (exists.exitCode !== 0) return false
  await git(['symbolic-ref', 'HEAD', `refs/heads/${branch}`], { gitDir })
  return true
}
