import type { Caller } from '../../platform/caller'
import type { NamespaceRow, ProjectRow, UserRow, Visibility } from '../../platform/db/rows'
import { projectGitDir, repoExists } from '../../platform/git/project-repo'
import { isValidRef } from '../../platform/git/git'
import { copyRefsFrom, readRef } from '../../platform/git/refs'
import { apiMessage, ApiError, forbidden, notFound } from '../../platform/http/errors'
import {
  findNamespaceByFullPath,
  findNamespaceById,
  findProjectById,
  groupSettings,
  rootNamespace,
  VISIBILITY_LEVELS,
} from '../namespaces'
import { canCreateProjectIn, createProject, destroyProject } from '../projects'
import { refreshRepositoryFlags } from '../repository'
import { userNamespaceId } from '../users'
import { canForkProject } from './policy'
import { deleteForkMember, findForkMember, inSameForkNetwork, insertForkLink, networkPeerIds } from './queries'
import { forkUnlinked } from './unlinked'

/** What `POST /projects/:id/fork` asks for, as parsed by its route. */
export interface ForkInput {
  readonly namespaceId?: string
  readonly namespacePath?: string
  /** Deprecated: a namespace id or full path. */
  readonly namespace?: string
  readonly name?: string
  readonly path?: string
  readonly description?: string
  readonly visibility?: Visibility
  /** Fork only this branch (it becomes the fork's default branch); every branch and tag otherwise. */
  readonly branches?: string
  readonly mrDefaultTargetSelf?: boolean
}

/**
 * The namespace the fork goes to: the one named (404 when the caller cannot see it, 404 `Target
 * Namespace` when they may not create projects there, as GitLab's `valid_fork_target?`), else the
 * caller's personal namespace.
 */
function forkNamespace(caller: Caller, source: ProjectRow, user: UserRow, input: ForkInput): NamespaceRow {
  const { db } = caller
  const byId = input.namespaceId || (!input.namespacePath && input.namespace && /^\d+$/.test(input.namespace))
  const raw = input.namespaceId || input.namespacePath || input.namespace
  let ns: NamespaceRow | undefined
  if (!raw) ns = findNamespaceById(db, userNamespaceId(db, user.id) as number)
  else {
    ns = byId ? findNamespaceById(db, Number(raw)) : findNamespaceByFullPath(db, raw)
    if (!ns || (ns.kind === 'group' && !caller.perms.canReadGroup(ns))) throw notFound('Namespace')
  }
  if (!ns || !canCreateProjectIn(caller, ns) || forkingKeptInGroup(caller, source, ns))
    throw notFound('Target Namespace')
  return ns
}

/**
 * GitLab's `prevent_forking_outside_group`: when the source's top-level group sets it, forks stay
 * in that group's hierarchy (administrators included, as GitLab's fork targets).
 */
function forkingKeptInGroup(caller: Caller, source: ProjectRow, target: NamespaceRow): boolean {
  const root = rootNamespace(caller.db, source.namespace_id)
  if (root.kind !== 'group' || groupSettings(root.settings).prevent_forking_outside_group !== true) return false
  return rootNamespace(caller.db, target.id).id !== root.id
}

/**
 * GitLab's fork visibility: the least open of the source's, the target group's and the one asked
 * for, so a fork never shows more than its source does.
 */
function forkVisibility(source: ProjectRow, ns: NamespaceRow, asked: Visibility | undefined): Visibility {
  const levels: Visibility[] = [source.visibility]
  if (ns.kind === 'group') levels.push(ns.visibility)
  if (asked) levels.push(asked)
  return levels.reduce((a, b) => (VISIBILITY_LEVELS[b] < VISIBILITY_LEVELS[a] ? b : a))
}

async function hasBranch(gitDir: string, branch: string): Promise<boolean> {
  const ref = `refs/heads/${branch}`
  return isValidRef(ref) && repoExists(gitDir) && (await readRef(gitDir, ref)) !== null
}

/** A validation failure of the new project, answered 409 as GitLab's fork endpoint does. */
function asConflict(error: unknown): unknown {
  return error instanceof ApiError && error.statusCode === 400 ? new ApiError(409, error.body) : error
}

/**
 * Forks `source` (GitLab's Projects::ForkService): a new project owned as any project the caller
 * creates there, linked to the source in its fork network, its repository filled with the source's
 * branches and tags by git. Throws 403 when forking is not open to the caller, 404 for a namespace or
 * branch that is not there, and 409 with the field errors when the name or path is taken. A fork
 * whose repository cannot be filled is removed again.
 */
export async function forkProject(caller: Caller, source: ProjectRow, input: ForkInput): Promise<ProjectRow> {
  const { db, ctx } = caller
  if (!canForkProject(caller, source)) throw forbidden()
  const user = caller.user as UserRow
  const namespace = forkNamespace(caller, source, user, input)
  const sourceDir = projectGitDir(ctx, source)
  if (input.branches && !(await hasBranch(sourceDir, input.branches))) throw notFound('Source Branch')
  const fork = await createProject(caller, {
    name: input.name ?? source.name,
    path: input.path ?? source.path,
    namespace,
    creator: user,
    description: input.description ?? source.description,
    visibility: forkVisibility(source, namespace, input.visibility),
    defaultBranch: input.branches || source.default_branch || undefined,
    params: input.mrDefaultTargetSelf === undefined ? {} : { mr_default_target_self: input.mrDefaultTargetSelf },
  }).catch((error: unknown) => {
    throw asConflict(error)
  })
  try {
    insertForkLink(db, fork.id, source.id)
    if (repoExists(sourceDir)) await copyRefsFrom(projectGitDir(ctx, fork), sourceDir, input.branches || undefined)
    await refreshRepositoryFlags(ctx, fork)
  } catch (error) {
    destroyProject(caller, fork)
    throw error
  }
  return findProjectById(db, fork.id) as ProjectRow
}

/**
 * Makes an existing project a fork of `source` (`POST /projects/:id/fork/:forked_from_id`): 409
 * when it already is a fork, 403 when forking `source` is not open to the caller, 400 when `source`
 * is the project itself or already in its fork network (the link would make a cycle).
 */
export function linkFork(caller: Caller, project: ProjectRow, source: ProjectRow): void {
  const { db } = caller
  if (findForkMember(db, project.id)?.forked_from_project_id) throw apiMessage(409, '409 Project already forked')
  if (!canForkProject(caller, source)) throw forbidden()
  if (inSameForkNetwork(db, project.id, source.id))
    throw apiMessage(400, '400 Bad request - Project cannot be forked from a project of its own fork network')
  insertForkLink(db, project.id, source.id)
}

/**
 * Removes the project's forked-from relationship (`DELETE /projects/:id/fork`) and tells the
 * unlink listeners (open merge requests between it and the network close); false when it is not
 * a fork (GitLab answers 304).
 */
export async function unlinkFork(caller: Caller, project: ProjectRow): Promise<boolean> {
  const member = findForkMember(caller.db, project.id)
  if (!member?.forked_from_project_id) return false
  const peers = networkPeerIds(caller.db, project.id)
  deleteForkMember(caller.db, project.id)
  await forkUnlinked(caller, project, peers)
  return true
}
