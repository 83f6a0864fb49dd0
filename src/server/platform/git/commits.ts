import type { Commit } from '../../../shared/api/repository'
import { gitText, assertRef, GitError, type GitOptions } from './git'

/** A commit as git stores it, parsed from `git log`. */
export interface GitCommit {
  readonly id: string
  readonly parentIds: readonly string[]
  readonly authorName: string
  readonly authorEmail: string
  readonly authoredDate: string
  readonly committerName: string
  readonly committerEmail: string
  readonly committedDate: string
  /** Full message, trailing newline removed. */
  readonly message: string
  /** First line of the message. */
  readonly title: string
  /** `Key: value` trailers of the message. */
  readonly trailers: Readonly<Record<string, string>>
}

// Fields separated by NUL, records by 0x1e, so any message text survives.
const FORMAT =
  ['%H', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%B', '%(trailers:only,unfold)'].join('%x00') + '%x1e'

/**
 * A commit from its `%H %P %an %ae %aI %cn %ce %cI %B %(trailers)` fields, in that order (the
 * order of COMMIT_FIELDS), as `git log` and `git for-each-ref` both print them.
 */
export function commitFromFields(fields: readonly string[]): GitCommit {
  const [id, parents, an, ae, ad, cn, ce, cd, body, trailerText] = fields
  const message = (body ?? '').replace(/\n+$/, '')
  const trailers: Record<string, string> = {}
  for (const line of (trailerText ?? '').split('\n')) {
    const m = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line)
    if (m) trailers[m[1]] = m[2]
  }
  return {
    id,
    parentIds: parents ? parents.split(' ') : [],
    authorName: an,
    authorEmail: ae,
    authoredDate: ad,
    committerName: cn,
    committerEmail: ce,
    committedDate: cd,
    message,
    title: message.split('\n')[0] ?? '',
    trailers,
  }
}

function parse(out: string): GitCommit[] {
  const commits: GitCommit[] = []
  for (const record of out.split('\x1e')) {
    const text = record.replace(/^\n/, '')
    if (!text) continue
    commits.push(commitFromFields(text.split('\x00')))
  }
  return commits
}

/** Reads one commit by SHA, branch, tag or other revision; throws GitError('not-found') when absent. */
export async function readCommit(gitDir: string, rev: string): Promise<GitCommit> {
  assertRef(rev)
  const out = await gitText(['log', '-1', '--no-walk', `--format=${FORMAT}`, '--end-of-options', rev], {
    gitDir,
  }).catch((error: unknown) => {
    if (error instanceof GitError)
      throw new GitError(error.args, error.exitCode, error.stderr, error.kind === 'unknown' ? 'not-found' : error.kind)
    throw error
  })
  const [commit] = parse(out)
  if (!commit) throw new GitError(['log', rev], 128, `unknown revision ${rev}`, 'not-found')
  return commit
}

/**
 * Reads the commits `git log` lists for the given arguments (revisions, ranges, `--`, paths,
 * `--since` …); callers validate user-supplied parts with assertRef/assertPath first.
 */
export async function logCommits(
  gitDir: string,
  args: readonly string[],
  limits: Pick<GitOptions, 'timeoutMs' | 'maxBuffer'> = {},
): Promise<GitCommit[]> {
  return parse(await gitText(['log', `--format=${FORMAT}`, ...args], { gitDir, ...limits }))
}

/** The commits with these ids (resolved SHAs), read with one `git log --no-walk`, by id. */
export async function commitsByIds(gitDir: string, ids: readonly string[]): Promise<Map<string, GitCommit>> {
  const unique = [...new Set(ids)]
  for (const id of unique) assertRef(id)
  if (unique.length === 0) return new Map()
  const commits = await logCommits(gitDir, ['--no-walk=unsorted', '--end-of-options', ...unique])
  return new Map(commits.map((c) => [c.id, c]))
}

/** GitLab's commit entity (`Entities::Commit`) for a parsed commit. */
export function commitEntity(c: GitCommit, projectWebUrl: string): Commit {
  return {
    id: c.id,
    short_id: c.id.slice(0, 8),
    created_at: c.committedDate,
    parent_ids: [...c.parentIds],
    title: c.title,
    message: c.message,
    author_name: c.authorName,
    author_email: c.authorEmail,
    authored_date: c.authoredDate,
    committer_name: c.committerName,
    committer_email: c.committerEmail,
    committed_date: c.committedDate,
    trailers: c.trailers,
    extended_trailers: Object.fromEntries(Object.entries(c.trailers).map(([k, v]) => [k, [v]])),
    web_url: `${projectWebUrl}/-/commit/${c.id}`,
  }
}

/** Commits reachable from `to` but not from `from` (`git rev-list from..to`), newest first, at most `limit`. */
export async function commitsBetween(gitDir: string, from: string, to: string, limit = 10_000): Promise<string[]> {
  assertRef(from)
  assertRef(to)
  const out = await gitText(['rev-list', `--max-count=${limit}`, '--end-of-options', `${from}..${to}`], { gitDir })
  return out.split('\n').filter((l) => l !== '')
}
