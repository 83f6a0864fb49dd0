import type { FastifyRequest } from 'fastify'
import { AccessLevel } from '../auth/access'
import type { Permissions } from '../auth/permissions'
import { findProjectWithNamespace, type ProjectWithNamespaceRow } from '../db/platform-queries'
import type { ProjectRow } from '../db/rows'
import { projectSettings } from '../db/project-settings'
import { GitError, isValidRef } from '../git/git'
import { projectGitDir, repoExists } from '../git/project-repo'
import { resolveCommit, resolveCommits } from '../git/refs'
import { forbidden, invalidParam, notFound } from './errors'
import { loadProject } from './resolve'

/** A project whose code the caller may read, with where its repository lives. */
export interface CodeProject {
  readonly project: ProjectWithNamespaceRow
  readonly gitDir: string
  /** False when the bare repository was never created: endpoints treat it as empty. */
  readonly exists: boolean
  /** `${baseUrl}/${full_path}`, the prefix of commit and compare URLs. */
  readonly webUrl: string
}

/**
 * True when the caller may read the project's code (GitLab's `read_code`): any reader of a
 * public or internal project, Reporters and up on private ones or when the repository feature
 * is limited to members; nobody, administrators included, when the feature is disabled (GitLab's
 * feature_available? is false for everyone).
 */
export function canReadCode(request: FastifyRequest, project: ProjectWithNamespaceRow): boolean {
  return canReadCodeWith(request.perms, project)
}

/** The read_code rule of canReadCode for whoever holds `perms` (activity events, to-dos on commits). */
export function canReadCodeWith(
  perms: Permissions,
  project: Pick<ProjectRow, 'id' | 'visibility' | 'settings'>,
): boolean {
  const feature = projectSettings(project.settings).repository_access_level
  if (feature === 'disabled') return false
  if (perms.isAdmin) return true
  if (project.visibility === 'private' || feature === 'private')
    return perms.canInProject(project, AccessLevel.REPORTER)
  return perms.canReadProject(project)
}

/**
 * Loads `:id` with where its repository lives, for endpoints that read the code or things made of
 * it that readers of the project may see without the code (releases): 404 when the project is not
 * visible, and `minLevel` as loadProject applies it.
 */
export function loadRepositoryProject(request: FastifyRequest, id: string | number, minLevel?: number): CodeProject {
  const row = loadProject(request, id, minLevel)
  const project = findProjectWithNamespace(request.server.burrow.db, row.id)
  if (!project) throw notFound('Project')
  const gitDir = projectGitDir(request.server.burrow, project)
  const webUrl = `${request.server.burrow.baseUrl(request)}/${project.ns_full_path}/${project.path}`
  return { project, gitDir, exists: repoExists(gitDir), webUrl }
}

/**
 * Loads `:id` for a repository endpoint: 404 when the project is not visible, 403 when it is
 * but its code is not (a Guest of a private project), and `minLevel` as loadProject applies it.
 */
export function loadCodeProject(request: FastifyRequest, id: string | number, minLevel?: number): CodeProject {
  const repo = loadRepositoryProject(request, id, minLevel)
  if (!canReadCode(request, repo.project)) throw forbidden()
  return repo
}

/** The ref an endpoint uses when the caller names none: the project's default branch. */
export function defaultRef(project: ProjectWithNamespaceRow): string {
  return project.default_branch ?? 'HEAD'
}

/** `resolveUserRef` for several refs of one project, in one git run. */
export async function resolveUserRefs(
  repo: CodeProject,
  refs: readonly { readonly ref: string; readonly param: string }[],
): Promise<(string | null)[]> {
  for (const { ref, param } of refs) if (!isValidRef(ref)) throw invalidParam(param)
  if (!repo.exists) return refs.map(() => null)
  return resolveCommits(
    repo.gitDir,
    refs.map((r) => r.ref),
  )
}

/**
 * Resolves a caller-supplied ref (branch, tag or SHA) to a commit id: 400 `<param> is invalid`
 * when malformed, null when it names no commit (each endpoint has its own 404).
 */
export async function resolveUserRef(repo: CodeProject, ref: string, param: string): Promise<string | null> {
  if (!isValidRef(ref)) throw invalidParam(param)
  if (!repo.exists) return null
  try {
    return await resolveCommit(repo.gitDir, ref)
  } catch (error) {
    if (error instanceof GitError && error.kind !== 'unknown') return null
    throw error
  }
}
