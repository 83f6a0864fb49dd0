import type { ServerContext } from '../../platform/context'
import type { ProjectRow } from '../../platform/db/rows'
import { findFilesByName, readBlobs } from '../../platform/git/find-files'
import { gitText } from '../../platform/git/git'
import { repoExists } from '../../platform/git/project-repo'
import { resolveCommit } from '../../platform/git/refs'
import { writeCommit, type CommitAction, type Identity } from '../../platform/git/write-commit'
import { pageOfPath, type PageFile } from './pages'

/** A page file at a commit, with its blob. */
export interface StoredPage extends PageFile {
  readonly oid: string
}

/** Where the wiki's bare repository lives (`<project>.wiki.git`), whether or not it exists yet. */
export function wikiGitDir(ctx: ServerContext, project: Pick<ProjectRow, 'id' | 'repository_storage'>): string {
  return ctx.repos.repoPath(project.repository_storage, 'wiki', project.id)
}

/** Creates the wiki repository when missing (HEAD on the instance's default branch name); its path. */
export async function ensureWikiRepo(
  ctx: ServerContext,
  project: Pick<ProjectRow, 'id' | 'repository_storage'>,
): Promise<string> {
  const gitDir = wikiGitDir(ctx, project)
  await ctx.repos.create(gitDir, ctx.settings.get('default_branch_name'))
  return gitDir
}

/** The branch HEAD names and the commit it is at (null before the first page). */
export async function wikiHead(gitDir: string): Promise<{ readonly ref: string; readonly sha: string | null }> {
  if (!repoExists(gitDir)) return { ref: 'refs/heads/main', sha: null }
  const ref = (await gitText(['symbolic-ref', 'HEAD'], { gitDir })).trim()
  return { ref, sha: await resolveCommit(gitDir, ref) }
}

/** The pages of a commit's tree, by slug order. */
export async function pagesAt(gitDir: string, sha: string): Promise<StoredPage[]> {
  const files = await findFilesByName(gitDir, sha, () => true)
  return files
    .flatMap((f) => {
      const page = pageOfPath(f.path)
      return page === null ? [] : [{ ...page, oid: f.oid }]
    })
    .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
}

/** The contents of pages as text, by blob id, in one `git cat-file --batch`. */
export async function pageContents(gitDir: string, pages: readonly StoredPage[]): Promise<Map<string, string>> {
  const blobs = await readBlobs(
    gitDir,
    pages.map((p) => p.oid),
  )
  return new Map([...blobs].map(([oid, bytes]) => [oid, bytes.toString('utf8')]))
}

/** Commits changes of the wiki on its HEAD branch; RefMovedError when another write landed meanwhile. */
export async function commitToWiki(
  gitDir: string,
  head: { readonly ref: string; readonly sha: string | null },
  actions: readonly CommitAction[],
  message: string,
  author: Identity,
): Promise<string> {
  return writeCommit(gitDir, {
    ref: head.ref,
    parent: head.sha,
    expectedOld: head.sha,
    actions,
    message,
    author,
    committer: author,
  })
}
