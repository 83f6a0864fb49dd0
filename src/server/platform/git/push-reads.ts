import { commitFromFields, type GitCommit } from './commits'
import { gitText, GitError, ZERO_SHA } from './git'
import type { RefUpdate } from './push-listeners'
import { resolveCommit } from './refs'

/** Where an updated ref points after the push: its object and the commit that object peels to (null for none). */
export interface RefNow {
  readonly object: string
  readonly commit: string | null
}

/** The commit an updated ref now names, with git's subject (`%s`: the first paragraph on one line). */
export interface PushedCommit {
  readonly commit: GitCommit
  readonly subject: string
}

// commits.ts's fields, then %s: NUL between fields, 0x1e after each record.
const COMMIT_FORMAT =
  ['%H', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%B', '%(trailers:only,unfold)', '%s'].join('%x00') + '%x1e'

/**
 * What the listeners of one landed push read from git, read once for them all: every listener
 * used to spawn its own `rev-parse` per updated ref and `git log` per new head (a git process
 * costs a fork of the server). The refs are read with one `for-each-ref` when a listener first
 * asks, the new heads with one `git log --no-walk`.
 */
export class PushReads {
  private refs?: Promise<Map<string, RefNow>>
  private commits?: Promise<Map<string, PushedCommit>>

  constructor(
    readonly gitDir: string,
    readonly updates: readonly RefUpdate[],
  ) {}

  /** Where `ref` (one of the push's refs) points now, or null when it does not exist. */
  async refNow(ref: string): Promise<RefNow | null> {
    this.refs ??= readRefs(this.gitDir, [...new Set(this.updates.map((u) => u.ref))])
    return (await this.refs).get(ref) ?? null
  }

  /**
   * The commit an update's ref points at, when the ref still ends where the push said (null
   * otherwise); throws as `git log` would when that object is no commit.
   */
  async landedCommit(update: RefUpdate): Promise<PushedCommit | null> {
    const now = await this.refNow(update.ref)
    if (update.newSha === ZERO_SHA || now?.object !== update.newSha) return null
    if (now.commit === null)
      throw new GitError(['log', update.newSha], 128, `${update.newSha} is not a commit`, 'unknown')
    this.commits ??= this.readLandedCommits()
    return (await this.commits).get(now.commit) ?? null
  }

  private async readLandedCommits(): Promise<Map<string, PushedCommit>> {
    const ids = new Set<string>()
    for (const u of this.updates) {
      const now = await this.refNow(u.ref)
      if (u.newSha !== ZERO_SHA && now?.object === u.newSha && now.commit !== null) ids.add(now.commit)
    }
    if (ids.size === 0) return new Map()
    const out = await gitText(['log', '--no-walk=unsorted', `--format=${COMMIT_FORMAT}`, '--end-of-options', ...ids], {
      gitDir: this.gitDir,
    })
    const commits = new Map<string, PushedCommit>()
    for (const record of out.split('\x1e')) {
      const text = record.replace(/^\n/, '')
      if (!text) continue
      const fields = text.split('\x00')
      const commit = commitFromFields(fields.slice(0, 10))
      commits.set(commit.id, { commit, subject: fields[10] ?? '' })
    }
    return commits
  }
}

// Patterns match a ref exactly or as a prefix up to a slash: the exact names are kept.
const REF_FORMAT = '%(refname)%00%(objectname)%00%(objecttype)%00%(*objectname)%00%(*objecttype)'

async function readRefs(gitDir: string, refs: readonly string[]): Promise<Map<string, RefNow>> {
  const wanted = new Set(refs)
  const found = new Map<string, RefNow>()
  if (refs.length === 0) return found
  const out = await gitText(['for-each-ref', `--format=${REF_FORMAT}`, ...refs], { gitDir })
  for (const line of out.split('\n')) {
    const [name, object, type, peeled, peeledType] = line.split('\0')
    if (!wanted.has(name)) continue
    // A tag of a tag, or of a tree, is left to rev-parse (for-each-ref peels one level).
    const commit =
      type === 'commit'
        ? object
        : type === 'tag' && peeledType === 'commit'
          ? peeled
          : await resolveCommit(gitDir, name).catch(() => null)
    found.set(name, { object, commit })
  }
  return found
}
