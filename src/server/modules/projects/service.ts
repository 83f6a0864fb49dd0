import { AccessLevel } from '../../platform/auth/access'
import type { Caller } from '../../platform/caller'
import type { Db } from '../../platform/db/connection'
import {
  findNamespaceById,
  findProjectById,
  groupSettings,
  namespaceAncestors,
  pathError,
  slugify,
  VISIBILITY_LEVELS,
} from '../namespaces'
import { addProjectMemberIfAbsent } from '../members'
import {
  deleteProjectShare,
  findProjectShare,
  insertProjectShare,
  isStarred,
  projectShareExists,
  setStar,
  type ProjectGroupLinkRow,
  deleteProjectRow,
  findProjectClash,
  insertProject,
  personalProjectCount,
  updateProjectRow,
} from './queries'
import type { NamespaceRow, ProjectRow, UserRow, Visibility } from '../../platform/db/rows'
import { FEATURE_ACCESS_DEFAULTS, PROJECT_SETTING_DEFAULTS } from './entity'
import { conflict, notFound, notModified, validationFailed, type ApiError } from '../../platform/http/errors'
import { recordAudit } from '../audit-events'
import { recordEvent } from '../events'
import { createProjectRepository, removeProjectRepository } from '../repository'
import { isProjectReadOnly, scheduleProjectMove } from '../storage-moves'
import type { ServerContext } from '../../platform/context'
import { addLengthErrors, TEXT_LIMITS } from '../../platform/text/limits'

const PROJECT_NAME = /^[\p{L}\p{N}\p{Extended_Pictographic}_][\p{L}\p{N}\p{Pd}+\p{Extended_Pictographic}_. ]*$/u
const PROJECT_NAME_MESSAGE =
  "can contain only letters, digits, emoji, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'."

/** Allowed values of each enumerated project setting. */
const SETTING_ENUMS: Readonly<Record<string, readonly string[]>> = {
  merge_method: ['merge', 'rebase_merge', 'ff'],
  squash_option: ['never', 'always', 'default_on', 'default_off'],
  auto_cancel_pending_pipelines: ['enabled', 'disabled'],
  build_git_strategy: ['fetch', 'clone'],
  auto_devops_deploy_strategy: ['continuous', 'manual', 'timed_incremental'],
}

/** Deprecated `*_enabled` booleans and the access level each one sets. */
const LEGACY_FEATURE_FLAGS: Readonly<Record<string, string>> = {
  issues_enabled: 'issues_access_level',
  merge_requests_enabled: 'merge_requests_access_level',
  wiki_enabled: 'wiki_access_level',
  jobs_enabled: 'builds_access_level',
  snippets_enabled: 'snippets_access_level',
  container_registry_enabled: 'container_registry_access_level',
}

/** Aliases GitLab still accepts for settings stored under another name. */
const SETTING_ALIASES: Readonly<Record<string, string>> = { public_builds: 'public_jobs' }

/** The settings-JSON changes a request asks for (feature levels, merge options…). Values are already type-coerced. */
export function settingsFromParams(params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [flag, level] of Object.entries(LEGACY_FEATURE_FLAGS)) {
    if (typeof params[flag] === 'boolean') out[level] = params[flag] ? 'enabled' : 'disabled'
  }
  for (const key of [...Object.keys(FEATURE_ACCESS_DEFAULTS), ...Object.keys(PROJECT_SETTING_DEFAULTS)]) {
    if (params[key] !== undefined) out[key] = params[key]
  }
  for (const [alias, key] of Object.entries(SETTING_ALIASES))
    if (params[alias] !== undefined && params[key] === undefined) out[key] = params[alias]
  if (typeof params.emails_disabled === 'boolean' && params.emails_enabled === undefined)
    out.emails_enabled = !params.emails_disabled
  if (params.avatar !== undefined) delete out.avatar_url
  return out
}

const FEATURE_LEVEL_RANK: Readonly<Record<string, number>> = { disabled: 0, private: 10, enabled: 20, public: 30 }

/** Features that show repository content: GitLab keeps them no more open than the repository itself. */
const REPOSITORY_CHILDREN = ['merge_requests_access_level', 'builds_access_level'] as const

/**
 * GitLab's repository_children_level validation, added to `errors`: with the settings a write
 * would leave (`stored` and `changes` over the defaults), merge requests and CI/CD may not be
 * more open than the repository they show (else a non-member would read code through them).
 */
function addFeatureLevelErrors(
  errors: Record<string, string[]>,
  stored: Readonly<Record<string, unknown>>,
  changes: Readonly<Record<string, unknown>>,
): void {
  const levels = { ...FEATURE_ACCESS_DEFAULTS, ...stored, ...changes } as Readonly<Record<string, unknown>>
  const repository = FEATURE_LEVEL_RANK[String(levels.repository_access_level)] ?? 0
  for (const field of REPOSITORY_CHILDREN) {
    if ((FEATURE_LEVEL_RANK[String(levels[field])] ?? 0) > repository) {
      errors[field] = ['cannot have higher visibility level than repository access level']
    }
  }
}

/** 400 `x does not have a valid value` for a bad enumerated setting, or null. */
export function settingsEnumError(params: Readonly<Record<string, unknown>>): string | null {
  for (const [key, allowed] of Object.entries(SETTING_ENUMS)) {
    if (params[key] !== undefined && !allowed.includes(String(params[key]))) return key
  }
  for (const key of Object.keys(FEATURE_ACCESS_DEFAULTS)) {
    const v = params[key]
    if (v === undefined) continue
    const allowed =
      key === 'pages_access_level' ? ['disabled', 'private', 'enabled', 'public'] : ['disabled', 'private', 'enabled']
    if (!allowed.includes(String(v))) return key
  }
  return null
}

/** Topics from `topics` (array or comma-separated) or the deprecated `tag_list`. */
export function topicsFromParams(params: Readonly<Record<string, unknown>>): string[] | undefined {
  const raw = params.topics ?? params.tag_list
  if (raw === undefined || raw === null) return undefined
  const list = Array.isArray(raw) ? raw : [raw]
  const seen = new Map<string, string>()
  for (const item of list) {
    for (const part of String(item).split(',')) {
      const t = part.trim()
      if (t !== '' && !seen.has(t.toLowerCase())) seen.set(t.toLowerCase(), t)
    }
  }
  return [...seen.values()]
}

/** The level a group's `project_creation_level` requires, or null when nobody but administrators may. */
export function projectCreationLevel(group: NamespaceRow): number | null {
  switch (groupSettings(group.settings).project_creation_level) {
    case 'developer':
      return AccessLevel.DEVELOPER
    case 'maintainer':
      return AccessLevel.MAINTAINER
    case 'owner':
      return AccessLevel.OWNER
    default:
      return null
  }
}

/** True when the caller may create projects in the namespace. */
export function canCreateProjectIn(caller: Caller, ns: NamespaceRow): boolean {
  const { perms, user } = caller
  if (perms.isAdmin) return true
  if (!user) return false
  if (ns.kind === 'user') return ns.owner_id === user.id
  const level = projectCreationLevel(ns)
  return level !== null && perms.groupAccess(ns.id) >= level
}

function visibilityError(visibility: Visibility, ns: NamespaceRow): string | null {
  if (ns.kind !== 'group' || VISIBILITY_LEVELS[visibility] <= VISIBILITY_LEVELS[ns.visibility]) return null
  return `${visibility} is not allowed in a ${ns.visibility} group.`
}

/** The most open visibility not above the namespace's (new projects never exceed their group). */
export function clampVisibility(visibility: Visibility, ns: NamespaceRow): Visibility {
  if (ns.kind !== 'group') return visibility
  return VISIBILITY_LEVELS[visibility] <= VISIBILITY_LEVELS[ns.visibility] ? visibility : ns.visibility
}

export interface CreateProjectInput {
  readonly name?: string
  readonly path?: string
  readonly namespace: NamespaceRow
  /** Who the project is for: the creator, or the user an administrator creates it for. */
  readonly creator: UserRow
  readonly description?: string | null
  readonly visibility?: Visibility
  readonly defaultBranch?: string
  readonly repositoryStorage?: string
  readonly params: Readonly<Record<string, unknown>>
}

/**
 * Creates a project: validates name, path, visibility, storage and the personal project limit
 * the way GitLab's Projects::CreateService does, inserts it, adds the creator as member, and
 * records activity and audit events. Throws 400 with `{"message": {...}}` on validation errors.
 */
export async function createProject(caller: Caller, input: CreateProjectInput): Promise<ProjectRow> {
  const { db, ctx } = caller
  const { settings, storages } = ctx
  const ns = input.namespace
  const name = input.name ?? input.path ?? ''
  const path = input.path ?? slugify(input.name ?? '')
  const errors: Record<string, string[]> = {}
  const add = (key: string, message: string): void => {
    errors[key] = [...(errors[key] ?? []), message]
  }

  if (ns.kind === 'user' && ns.owner_id === input.creator.id && !caller.perms.isAdmin) {
    const limit = input.creator.projects_limit
    if (limit === 0)
      add('limit_reached', 'Personal project creation is not allowed. Please contact your administrator with questions')
    else if (personalProjectCount(db, input.creator.id) >= limit)
      add('limit_reached', `Your project limit is ${limit} projects! Please contact your administrator to increase it`)
  }
  if (name.trim() === '') add('name', "can't be blank")
  else if (!PROJECT_NAME.test(name)) add('name', PROJECT_NAME_MESSAGE)
  else if (findProjectClash(db, ns.id, 'name', name)) add('name', 'has already been taken')
  addLengthErrors(errors, { name, description: input.description }, TEXT_LIMITS.project)
  const badPath = pathError(path)
  if (badPath) add('path', badPath)
  else if (findProjectClash(db, ns.id, 'path', path)) add('path', 'has already been taken')
  const visibility = input.visibility ?? clampVisibility(settings.get('default_project_visibility') as Visibility, ns)
  const badVisibility = visibilityError(visibility, ns)
  if (badVisibility) add('visibility_level', badVisibility)
  const storage = input.repositoryStorage ?? storages[0]
  if (!storages.includes(storage)) add('repository_storage', 'is not included in the list')
  const stored = settingsFromParams(input.params)
  addFeatureLevelErrors(errors, {}, stored)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)

  if (input.params.initialize_with_readme !== undefined)
    stored.initialize_with_readme = input.params.initialize_with_readme === true
  const topics = topicsFromParams(input.params) ?? []
  const actor = caller.user as UserRow
  const project = db.transaction(() => {
    const row = insertProject(db, {
      namespaceId: ns.id,
      name,
      path,
      description: input.description ?? null,
      visibility,
      defaultBranch: input.defaultBranch ?? settings.get('default_branch_name'),
      creatorId: input.creator.id,
      repositoryStorage: storage,
      topics,
      requestAccessEnabled: input.params.request_access_enabled !== false,
      settings: stored,
    })
    addCreatorMembership(caller, row, ns, input.creator)
    recordEvent(db, { authorId: actor.id, action: 'created', projectId: row.id })
    recordAudit(caller, {
      entityType: 'Project',
      entityId: row.id,
      entityPath: `${ns.full_path}/${row.path}`,
      change: { add: 'project', custom_message: 'Added project' },
    })
    return row
  })()
  await onProjectCreated(ctx, project, {
    initializeWithReadme: stored.initialize_with_readme === true,
    creator: input.creator,
  })
  return findProjectById(db, project.id) ?? project
}

/**
 * The owner of a personal namespace becomes an Owner member (GitLab lists it among the
 * members); in a group, a creator below Maintainer becomes a Maintainer of the new project.
 */
function addCreatorMembership(caller: Caller, project: ProjectRow, ns: NamespaceRow, creator: UserRow): void {
  let level: number | null = null
  if (ns.kind === 'user') level = AccessLevel.OWNER
  else if (caller.perms.user?.id !== creator.id || caller.perms.groupAccess(ns.id) < AccessLevel.MAINTAINER)
    level = AccessLevel.MAINTAINER
  const memberId = ns.kind === 'user' ? (ns.owner_id ?? creator.id) : creator.id
  if (level === null) return
  addProjectMemberIfAbsent(caller.db, project.id, memberId, level, caller.user?.id ?? null)
}

/**
 * Runs after a project row exists: creates its bare repository with the default branch
 * protected and, when asked, the initial README commit by the creator. Awaited, so the
 * project a client gets back can be cloned at once.
 */
export async function onProjectCreated(
  ctx: ServerContext,
  project: ProjectRow,
  options: { readonly initializeWithReadme: boolean; readonly creator: UserRow },
): Promise<void> {
  await createProjectRepository(ctx, project, options)
}

/**
 * Applies `PUT /projects/:id` changes after validating them like GitLab's model validations
 * (name/path uniqueness, visibility against the group and the storage list), with audit events
 * for visibility, name and path changes.
 */
export function updateProject(
  caller: Caller,
  project: ProjectRow,
  params: Readonly<Record<string, unknown>>,
): ProjectRow {
  const { db } = caller
  const { storages } = caller.ctx
  const ns = findNamespaceById(db, project.namespace_id) as NamespaceRow
  const errors: Record<string, string[]> = {}
  const changes: Record<string, unknown> = {}
  const name = params.name as string | undefined
  const path = params.path as string | undefined
  if (name !== undefined && name !== project.name) {
    if (name.trim() === '') errors.name = ["can't be blank"]
    else if (!PROJECT_NAME.test(name)) errors.name = [PROJECT_NAME_MESSAGE]
    else if (findProjectClash(db, ns.id, 'name', name, project.id)) errors.name = ['has already been taken']
    else changes.name = name
  }
  if (path !== undefined && path !== project.path) {
    const bad = pathError(path)
    if (bad) errors.path = [bad]
    else if (findProjectClash(db, ns.id, 'path', path, project.id)) errors.path = ['has already been taken']
    else changes.path = path
  }
  const visibility = params.visibility as Visibility | undefined
  if (visibility !== undefined && visibility !== project.visibility) {
    const bad = visibilityError(visibility, ns)
    if (bad) errors.visibility_level = [bad]
    else changes.visibility = visibility
  }
  const storage = params.repository_storage as string | undefined
  // GitLab moves the repository when the storage changes (a storage move): the project shows the
  // new storage once the move has finished.
  let moveTo: string | undefined
  if (storage !== undefined && caller.perms.isAdmin) {
    if (!storages.includes(storage)) errors.repository_storage = ['is not included in the list']
    else if (storage !== project.repository_storage && isProjectReadOnly(db, project.id))
      errors.repository_storage = ['is read-only']
    else if (storage !== project.repository_storage) moveTo = storage
  }
  addLengthErrors(errors, params, TEXT_LIMITS.project)
  const settingsChanges = settingsFromParams(params)
  const storedSettings = JSON.parse(project.settings) as Record<string, unknown>
  addFeatureLevelErrors(errors, storedSettings, settingsChanges)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  if (params.description !== undefined) changes.description = params.description
  if (params.default_branch !== undefined) changes.default_branch = params.default_branch
  if (params.request_access_enabled !== undefined) changes.request_access_enabled = params.request_access_enabled
  const topics = topicsFromParams(params)
  if (topics !== undefined) changes.topics = JSON.stringify(topics)
  if (Object.keys(settingsChanges).length > 0)
    changes.settings = JSON.stringify({ ...storedSettings, ...settingsChanges })

  const result = db.transaction(() => {
    const updated = updateProjectRow(db, project.id, changes)
    const entityPath = `${ns.full_path}/${updated.path}`
    for (const field of ['visibility', 'name', 'path'] as const) {
      if (changes[field] === undefined) continue
      recordAudit(caller, {
        entityType: 'Project',
        entityId: project.id,
        entityPath,
        change: { change: field === 'visibility' ? 'visibility' : field, from: project[field], to: updated[field] },
      })
    }
    return updated
  })()
  if (moveTo !== undefined) scheduleProjectMove(caller, result, moveTo)
  return result
}

/** Deletes a project (GitLab does it in the background; here it is immediate) with an audit event. */
export function destroyProject(caller: Caller, project: ProjectRow): void {
  const { db } = caller
  const ns = findNamespaceById(db, project.namespace_id) as NamespaceRow
  db.transaction(() => {
    recordAudit(caller, {
      entityType: 'Project',
      entityId: project.id,
      entityPath: `${ns.full_path}/${project.path}`,
      change: { remove: 'project', custom_message: 'Project destroyed' },
    })
    deleteProjectRow(db, project.id)
  })()
  removeProjectRepository(caller.ctx, project)
}

/** Moves a project to another namespace; validation errors come back as the 400 to throw. */
export function transferProject(caller: Caller, project: ProjectRow, target: NamespaceRow): ProjectRow | ApiError {
  const { db } = caller
  const from = findNamespaceById(db, project.namespace_id) as NamespaceRow
  if (target.id === from.id) return validationFailed({ namespace: ['Project is already in this namespace.'] })
  if (findProjectClash(db, target.id, 'path', project.path) || findProjectClash(db, target.id, 'name', project.name)) {
    return validationFailed({ namespace: ['Project with same name or path in target namespace already exists'] })
  }
  return db.transaction(() => {
    const updated = updateProjectRow(db, project.id, {
      namespace_id: target.id,
      visibility: clampVisibility(project.visibility, target),
    })
    recordAudit(caller, {
      entityType: 'Project',
      entityId: project.id,
      entityPath: `${target.full_path}/${project.path}`,
      change: { change: 'namespace', from: from.full_path, to: target.full_path },
    })
    return updated
  })()
}

/** `group/project`: the full path audit events name a project by. */
function projectFullPath(db: Db, project: ProjectRow): string {
  const ns = findNamespaceById(db, project.namespace_id) as NamespaceRow
  return `${ns.full_path}/${project.path}`
}

/** Archives or unarchives a project; a change is audited, asking for the current state changes nothing. */
export function setProjectArchived(caller: Caller, project: ProjectRow, archived: boolean): ProjectRow {
  if ((project.archived === 1) === archived) return project
  const updated = updateProjectRow(caller.db, project.id, { archived })
  recordAudit(caller, {
    entityType: 'Project',
    entityId: project.id,
    entityPath: projectFullPath(caller.db, project),
    change: { custom_message: archived ? 'Project archived' : 'Project unarchived' },
  })
  return updated
}

/** Stars or unstars a project for the caller; 304 when it already is (or is not) starred. */
export function setProjectStarred(caller: Caller, project: ProjectRow, starred: boolean): void {
  const user = caller.user as UserRow
  if (isStarred(caller.db, user.id, project.id) === starred) throw notModified()
  setStar(caller.db, user.id, project.id, starred)
}

/**
 * Shares a project with a group at `access` (the caller's right to grant it is checked by the
 * route): never with the project's own group or an ancestor, once per group; audited.
 */
export function shareProjectWithGroup(
  caller: Caller,
  project: ProjectRow,
  group: NamespaceRow,
  access: number,
  expiresAt: string | null,
): ProjectGroupLinkRow {
  const { db } = caller
  const ns = findNamespaceById(db, project.namespace_id) as NamespaceRow
  const hierarchy = [ns.id, ...namespaceAncestors(db, ns.id).map((a) => a.id)]
  if (ns.kind === 'group' && hierarchy.includes(group.id))
    throw validationFailed({ group_id: ["can't be the project's group or one of its ancestors"] })
  if (projectShareExists(db, project.id, group.id)) throw conflict('Group already shared with this group')
  insertProjectShare(db, project.id, group.id, access, expiresAt)
  recordAudit(caller, {
    entityType: 'Project',
    entityId: project.id,
    entityPath: `${ns.full_path}/${project.path}`,
    targetId: group.id,
    targetType: 'Group',
    targetDetails: group.full_path,
    change: { add: 'project_access', as: String(access) },
  })
  return findProjectShare(db, project.id, group.id) as ProjectGroupLinkRow
}

/** Stops sharing a project with a group (404 when it was not shared), audited. */
export function unshareProject(caller: Caller, project: ProjectRow, groupId: number): void {
  if (!deleteProjectShare(caller.db, project.id, groupId)) throw notFound()
  recordAudit(caller, {
    entityType: 'Project',
    entityId: project.id,
    entityPath: projectFullPath(caller.db, project),
    targetId: groupId,
    targetType: 'Group',
    change: { remove: 'project_access' },
  })
}
