import { rmSync } from 'node:fs'
import { type Caller, signedInUser } from '../../platform/caller'
import type { ServerContext } from '../../platform/context'
import { type RepositoryFlags, setRepositoryFlags } from './flags-queries'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import { projectSettings } from '../../platform/db/project-settings'
import { type ApiError, apiMessage, forbidden, invalidParam } from '../../platform/http/errors'
import { filePathProblem, type FilePathProblem, git, GitError, gitText, ZERO_SHA } from '../../platform/git/git'
import { ensureProjectRepo, projectGitDir, repoExists } from '../../platform/git/project-repo'
import { readRef, resolveCommit } from '../../platform/git/refs'
import {
  InvalidPathError,
  isRecordableName,
  RefMovedError,
  writeCommit,
  type CommitAction,
  type Identity,
} from '../../platform/git/write-commit'
import { listProtectedBranches, protectDefaultBranch, refusal, writeForcePushRules } from '../branches'
import { type LandedPush, pushLanded } from '../../platform/git/push-listeners'
import { assertRepositoryWritable } from '../storage-moves'

/**
 * The identity commits made through the API carry: the user's name (their username when git could
 * not record the name) and commit email, else their email.
 */
export function userIdentity(user: UserRow): Identity {
  return { name: isRecordableName(user.name) ? user.name : user.username, email: user.commit_email || user.email }
}

const README = /^readme(\.[A-Za-z0-9]+)?$/i

/** Reads the flags project lists show (empty repository, README path) from the repository itself. */
export async function readRepositoryFlags(
  gitDir: string,
  defaultBranch: string | null,
  hasBranch: () => Promise<boolean> = () => anyBranch(gitDir),
): Promise<RepositoryFlags> {
  if (!repoExists(gitDir)) return { empty_repo: true, readme_path: null }
  if (!(await hasBranch())) return { empty_repo: true, readme_path: null }
  let readme: string | null = null
  const branch = defaultBranch ?? 'HEAD'
  const out = await git(['ls-tree', '-z', '--name-only', '--end-of-options', `refs/heads/${branch}`], {
    gitDir,
    successExitCodes: [0, 128],
  })
  if (out.exitCode === 0) {
    const names = out.stdout
      .toString('utf8')
      .split('\0')
      .filter((n) => README.test(n))
    // GitLab prefers a Markdown README when several exist.
    readme = names.find((n) => /\.md$/i.test(n)) ?? names[0] ?? null
  }
  return { empty_repo: false, readme_path: readme }
}

async function anyBranch(gitDir: string): Promise<boolean> {
  const heads = await gitText(['for-each-ref', '--count=1', '--format=%(refname)', 'refs/heads/'], { gitDir })
  return heads.trim() !== ''
}

/** Recomputes and stores a project's repository flags; returns them. */
export async function refreshRepositoryFlags(
  ctx: ServerContext,
  project: ProjectRow,
  hasBranch?: () => Promise<boolean>,
): Promise<RepositoryFlags> {
  const flags = await readRepositoryFlags(projectGitDir(ctx, project), project.default_branch, hasBranch)
  const stored = projectSettings(project.settings)
  if (stored.empty_repo !== flags.empty_repo || (stored.readme_path ?? null) !== flags.readme_path)
    setRepositoryFlags(ctx.db, project.id, flags)
  return flags
}

/** Push listener keeping the list flags right after pushes (smart HTTP and API writes alike). */
export async function refreshFlagsOnPush(push: LandedPush): Promise<void> {
  const gitDir = push.reads.gitDir
  // A branch the push left in place answers "any branch?" from the push's shared ref read.
  const hasBranch = async (): Promise<boolean> => {
    for (const u of push.updates)
      if (u.ref.startsWith('refs/heads/') && (await push.reads.refNow(u.ref)) !== null) return true
    return anyBranch(gitDir)
  }
  await refreshRepositoryFlags(push.ctx, push.project, hasBranch)
}

export interface CreateRepositoryOptions {
  readonly initializeWithReadme: boolean
  readonly creator: UserRow
}

/**
 * Creates a new project's bare repository (HEAD on the default branch), protects the default
 * branch, and with `initializeWithReadme` commits GitLab's initial README.md as the creator.
 */
export async function createProjectRepository(
  ctx: ServerContext,
  project: ProjectRow,
  options: CreateRepositoryOptions,
): Promise<void> {
  const branch = project.default_branch ?? ctx.settings.get('default_branch_name')
  const gitDir = await ensureProjectRepo(ctx, project)
  protectDefaultBranch(ctx.db, project, branch)
  writeForcePushRules(gitDir, listProtectedBranches(ctx.db, project.id))
  if (!options.initializeWithReadme) return
  const identity = userIdentity(options.creator)
  const content = `# ${project.name}\n\n${project.description ?? ''}`
  const sha = await writeCommit(gitDir, {
    ref: `refs/heads/${branch}`,
    parent: null,
    expectedOld: null,
    actions: [{ action: 'create', filePath: 'README.md', content: Buffer.from(content) }],
    message: 'Initial commit',
    author: identity,
    committer: identity,
  })
  setRepositoryFlags(ctx.db, project.id, { empty_repo: false, readme_path: 'README.md' })
  await pushLanded({
    ctx,
    project,
    user: options.creator,
    updates: [{ oldSha: ZERO_SHA, newSha: sha, ref: `refs/heads/${branch}` }],
  })
}

/** Removes a deleted project's repository from disk. */
export function removeProjectRepository(ctx: ServerContext, project: ProjectRow): void {
  rmSync(projectGitDir(ctx, project), { recursive: true, force: true })
}

/** A file action with the checks GitLab's commit services make before committing. */
export type CheckedAction = CommitAction & {
  /** For updates: the commit the caller last saw the file at (`last_commit_id`). */
  readonly lastCommitId?: string
}

/** What a commit through the API writes; the caller commits it. */
export interface CommitRequest {
  readonly project: ProjectRow
  readonly branch: string
  /** Branch to start from when `branch` does not exist yet (default: `branch`). */
  readonly startBranch?: string
  readonly actions: readonly CheckedAction[]
  readonly message: string
  /** `author_name`/`author_email` overrides; the committer is always the user. */
  readonly author?: { readonly name?: string; readonly email?: string }
}

export const COMMIT_MESSAGES = {
  notOnBranch: 'You can only create or edit files when you are on a branch',
  exists: 'A file with this name already exists',
  missing: "A file with this name doesn't exist",
  changed: 'You are attempting to update a file that has changed since you started editing it.',
  protected: 'You are not allowed to push into this branch',
  emptyPath: 'You must provide a file path',
  traversal: 'Path cannot include directory traversal',
} as const

/** Gitaly's answer to a path it cannot commit, which GitLab's Commits API passes on as a 400. */
function pathRefusal(path: string, problem: FilePathProblem): ApiError {
  if (problem === 'empty') return apiMessage(400, COMMIT_MESSAGES.emptyPath)
  if (problem === 'traversal') return apiMessage(400, COMMIT_MESSAGES.traversal)
  return apiMessage(400, `invalid path: '${path}'`)
}

/** 400 for a commit message or author git cannot record (a NUL byte; a name of only what git strips). */
function checkCommitText(req: CommitRequest): void {
  if (req.message.includes('\0')) throw invalidParam('commit_message')
  if (req.author?.name && !isRecordableName(req.author.name)) throw invalidParam('author_name')
  if (req.author?.email?.includes('\0')) throw invalidParam('author_email')
}

/** Every path the actions write or remove (a move's both ends). */
function actionPaths(actions: readonly CheckedAction[]): string[] {
  return actions.flatMap((a) => (a.action === 'move' ? [a.filePath, a.previousPath] : [a.filePath]))
}

/** Paths among `paths` that exist (as blobs or trees) in commit `sha`, with one ls-tree call. */
async function existingPaths(gitDir: string, sha: string | null, paths: readonly string[]): Promise<Set<string>> {
  if (!sha || paths.length === 0) return new Set()
  const out = await gitText(['ls-tree', '-z', '--full-tree', '--name-only', sha, '--', ...paths], { gitDir })
  return new Set(out.split('\0').filter(Boolean))
}

/**
 * Commits file actions to a branch through the plumbing in git/write-commit.ts, as GitLab's
 * Files and Commits APIs do: branch and protection checks, existence checks per action,
 * `last_commit_id` staleness, then a compare-and-swap ref update (a concurrent move is a 400,
 * never a lost commit). Every path is checked before anything is read or written: a refused one
 * is a 400 and nothing is committed. Announces the push to listeners; returns the new commit SHA.
 */
export async function commitToBranch(caller: Caller, req: CommitRequest): Promise<string> {
  const { ctx } = caller
  const user = signedInUser(caller)
  const { project, branch } = req
  checkCommitText(req)
  const paths = actionPaths(req.actions)
  for (const path of paths) {
    const problem = filePathProblem(path)
    if (problem) throw pathRefusal(path, problem)
  }
  assertRepositoryWritable(ctx.db, project)
  const gitDir = await ensureProjectRepo(ctx, project)
  const ref = `refs/heads/${branch}`
  const head = await readRef(gitDir, ref)
  let start = head
  if (req.startBranch !== undefined && req.startBranch !== branch) {
    if (head)
      throw apiMessage(
        400,
        `A branch called '${branch}' already exists. Switch to that branch in order to make changes`,
      )
    start = await resolveCommit(gitDir, `refs/heads/${req.startBranch}`)
    if (!start) throw apiMessage(400, COMMIT_MESSAGES.notOnBranch)
  } else if (!head) {
    const empty =
      (await gitText(['for-each-ref', '--count=1', '--format=%(refname)', 'refs/heads/'], { gitDir })).trim() === ''
    if (!empty) throw apiMessage(400, COMMIT_MESSAGES.notOnBranch)
  }
  const rules = listProtectedBranches(ctx.db, project.id)
  if (refusal(caller.perms, project, rules, branch, head ? 'update' : 'create', 'api')) {
    throw forbidden(COMMIT_MESSAGES.protected)
  }

  const present = await existingPaths(gitDir, start, paths)
  for (const a of req.actions) {
    if (a.action === 'create' && present.has(a.filePath)) throw apiMessage(400, COMMIT_MESSAGES.exists)
    if ((a.action === 'update' || a.action === 'delete' || a.action === 'chmod') && !present.has(a.filePath))
      throw apiMessage(400, COMMIT_MESSAGES.missing)
    if (a.action === 'move') {
      if (!present.has(a.previousPath)) throw apiMessage(400, COMMIT_MESSAGES.missing)
      if (present.has(a.filePath)) throw apiMessage(400, COMMIT_MESSAGES.exists)
    }
    if (a.lastCommitId && start) {
      const last = (await gitText(['log', '-1', '--format=%H', start, '--', a.filePath], { gitDir })).trim()
      if (last !== a.lastCommitId) throw apiMessage(400, COMMIT_MESSAGES.changed)
    }
  }

  const committer = userIdentity(user)
  const author = { name: req.author?.name || committer.name, email: req.author?.email || committer.email }
  let sha: string
  try {
    sha = await writeCommit(gitDir, {
      ref,
      parent: start,
      expectedOld: head,
      actions: req.actions,
      message: req.message,
      author,
      committer,
    })
  } catch (error) {
    if (error instanceof RefMovedError)
      throw apiMessage(400, `Could not update branch ${branch}. Please refresh and try again.`)
    if (error instanceof InvalidPathError) throw pathRefusal(error.path, 'invalid')
    if (error instanceof GitError && error.kind === 'not-found') throw apiMessage(400, COMMIT_MESSAGES.missing)
    throw error
  }
  await pushLanded({ ctx, project, user, updates: [{ oldSha: head ?? ZERO_SHA, newSha: sha, ref }] })
  return sha
}
