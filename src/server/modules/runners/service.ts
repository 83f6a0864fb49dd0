import type { Runner, RunnerDetail } from '../../../shared/api/runner'
import type { Caller } from '../../platform/caller'
import { digestToken, generateToken } from '../../platform/auth/secrets'
import type { ServerContext } from '../../platform/context'
import { findNamespaceById, findProjectById } from '../namespaces'
import { findProjectWithNamespace } from '../../platform/db/platform-queries'
import type { NamespaceRow, ProjectRow } from '../../platform/db/rows'
import type { Db } from '../../platform/db/connection'
import { forbidden, notFound } from '../../platform/http/errors'
import {
  assignRunnerToProject,
  findRunnerById,
  findRunnerByTokenDigest,
  deleteRunnerRow,
  insertRunner,
  registrationToken,
  registrationTokenOwner,
  resetRegistrationToken,
  runnerProjectIds,
  unassignRunnerFromProject,
  updateRunnerRow,
  type RunnerAccessLevel,
  type RunnerChanges,
  type RunnerInfo,
  type RunnerRow,
} from './queries'
import { groupWebUrl } from '../namespaces'
import { runnerDetailEntity, runnerEntity, type RunnerGroupRef, type RunnerProjectRef } from './entity'
import { recordAudit, type AuditEntityType } from '../audit-events'
import { canUpdateRunner } from './policy'

/** Registration tokens carry GitLab's `GR1348941` prefix; authentication tokens `glrt-`. */
const REGISTRATION_PREFIX = 'GR1348941'

/** A new registration token. */
export function newRegistrationToken(): string {
  return generateToken(REGISTRATION_PREFIX)
}

/** The instance registration token (application setting `runners_registration_token`), created on first use. */
export function instanceRegistrationToken(ctx: ServerContext): string {
  const current = ctx.settings.get('runners_registration_token')
  if (typeof current === 'string' && current !== '') return current
  const token = newRegistrationToken()
  ctx.settings.update({ runners_registration_token: token })
  return token
}

/** A project's or group's registration token (`runners_token`), created on first use. */
export function runnersToken(
  ctx: ServerContext,
  source: { readonly kind: 'project' | 'group'; readonly id: number },
): string {
  return registrationToken(
    ctx.db,
    ctx.secrets,
    source.kind === 'project' ? 'Project' : 'Namespace',
    source.id,
    newRegistrationToken,
  )
}

/** Replaces a registration token and records who did it. */
export function resetRunnersToken(
  caller: Caller,
  source:
    | { readonly kind: 'instance' }
    | { readonly kind: 'project'; readonly project: ProjectRow }
    | { readonly kind: 'group'; readonly group: NamespaceRow },
): string {
  const ctx = caller.ctx
  const token = newRegistrationToken()
  if (source.kind === 'instance') ctx.settings.update({ runners_registration_token: token })
  else if (source.kind === 'project') resetRegistrationToken(ctx.db, ctx.secrets, 'Project', source.project.id, token)
  else resetRegistrationToken(ctx.db, ctx.secrets, 'Namespace', source.group.id, token)
  const scope = auditScope(
    ctx,
    source.kind === 'instance'
      ? null
      : source.kind === 'project'
        ? { project: source.project }
        : { group: source.group },
    caller,
  )
  recordAudit(caller, {
    ...scope,
    targetType: 'Ci::Runner',
    targetDetails: 'registration token',
    change: { custom_message: `Reset ${source.kind} runner registration token` },
  })
  return token
}

type AuditScope = { readonly entityType: AuditEntityType; readonly entityId: number; readonly entityPath: string }

/** Which audit entity a runner event belongs to: its project, its group, or (instance runners) the acting user. */
function auditScope(
  ctx: ServerContext,
  owner: { readonly project: ProjectRow } | { readonly group: NamespaceRow } | null,
  caller: Caller,
): AuditScope {
  if (owner && 'project' in owner) {
    const p = findProjectWithNamespace(ctx.db, owner.project.id)
    return {
      entityType: 'Project',
      entityId: owner.project.id,
      entityPath: p ? `${p.ns_full_path}/${p.path}` : owner.project.path,
    }
  }
  if (owner) return { entityType: 'Group', entityId: owner.group.id, entityPath: owner.group.full_path }
  const user = caller.user
  return { entityType: 'User', entityId: user?.id ?? 0, entityPath: user?.username ?? 'instance' }
}

function runnerOwner(ctx: ServerContext, runner: RunnerRow): { project: ProjectRow } | { group: NamespaceRow } | null {
  if (runner.runner_type === 'group_type' && runner.group_id !== null) {
    const group = findNamespaceById(ctx.db, runner.group_id)
    return group ? { group } : null
  }
  if (runner.runner_type === 'project_type') {
    const first = runnerProjectIds(ctx.db, [runner.id]).get(runner.id)?.[0]
    const project = first !== undefined ? findProjectById(ctx.db, first) : undefined
    return project ? { project } : null
  }
  return null
}

function auditRunner(
  caller: Caller,
  runner: RunnerRow,
  message: string,
  owner = runnerOwner(caller.ctx, runner),
): void {
  const ctx = caller.ctx
  recordAudit(caller, {
    ...auditScope(ctx, owner, caller),
    targetId: runner.id,
    targetType: 'Ci::Runner',
    targetDetails: runner.description || `#${runner.id}`,
    change: { custom_message: message },
  })
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  instance_type: 'instance',
  group_type: 'group',
  project_type: 'project',
}

/** What a new runner is told to be, whichever way it is made. */
export interface RunnerAttributes {
  readonly description?: string
  readonly maintenanceNote?: string
  readonly active?: boolean
  readonly locked?: boolean
  readonly runUntagged?: boolean
  readonly tagList?: readonly string[]
  readonly accessLevel?: RunnerAccessLevel
  readonly maximumTimeout?: number
}

/** Registration attributes (`POST /runners`). */
export interface RegistrationInput extends RunnerAttributes {
  readonly token: string
  readonly info: RunnerInfo
}

/** Where a runner belongs: the instance, a group, or a project (which it is assigned to). */
export type RunnerOwnerScope =
  | { readonly runnerType: 'instance_type' }
  | { readonly runnerType: 'group_type'; readonly groupId: number }
  | { readonly runnerType: 'project_type'; readonly projectId: number }

/** Inserts a runner with a new `glrt-` authentication token (shown only now) and records how it came. */
function createRunner(
  caller: Caller,
  scope: RunnerOwnerScope,
  attrs: RunnerAttributes,
  info: RunnerInfo,
  verb: 'Registered' | 'Created',
): { runner: RunnerRow; token: string } {
  const ctx = caller.ctx
  const token = generateToken('glrt-')
  const runner = insertRunner(
    ctx.db,
    {
      runnerType: scope.runnerType,
      groupId: scope.runnerType === 'group_type' ? scope.groupId : null,
      tokenDigest: digestToken(token),
      description: attrs.description ?? '',
      maintenanceNote: attrs.maintenanceNote ?? null,
      active: attrs.active ?? true,
      locked: attrs.locked ?? false,
      runUntagged: attrs.runUntagged ?? true,
      tagList: attrs.tagList ?? [],
      accessLevel: attrs.accessLevel ?? 'not_protected',
      maximumTimeout: attrs.maximumTimeout ?? null,
      creatorId: caller.user?.id ?? null,
      info,
    },
    scope.runnerType === 'project_type' ? scope.projectId : null,
  )
  auditRunner(caller, runner, `${verb} ${TYPE_WORDS[scope.runnerType]} CI runner`)
  return { runner, token }
}

/** The scope a registration token registers runners in, or null for a token that names nothing. */
function registrationScope(ctx: ServerContext, token: string): RunnerOwnerScope | null {
  if (token === instanceRegistrationToken(ctx)) return { runnerType: 'instance_type' }
  const owner = registrationTokenOwner(ctx.db, token)
  if (!owner) return null
  if (owner.sourceType === 'Project')
    return findProjectById(ctx.db, owner.sourceId) ? { runnerType: 'project_type', projectId: owner.sourceId } : null
  return findNamespaceById(ctx.db, owner.sourceId) ? { runnerType: 'group_type', groupId: owner.sourceId } : null
}

/**
 * Registers a runner with a registration token, as GitLab's RegisterRunnerService: the instance
 * token makes an instance runner, a group's a group runner, a project's a project runner
 * assigned to that project. Returns the runner and its new authentication token, or null for an
 * unknown token.
 */
export function registerRunner(caller: Caller, input: RegistrationInput): { runner: RunnerRow; token: string } | null {
  const scope = registrationScope(caller.ctx, input.token)
  return scope ? createRunner(caller, scope, input, input.info, 'Registered') : null
}

/**
 * Creates a runner for the signed-in user (`POST /user/runners`, GitLab's CreateRunnerService):
 * no registration token, the caller's role in the scope decides (see `canCreateRunner`). The
 * runner has not contacted the instance yet; its authentication token works at once.
 */
export function createUserRunner(
  caller: Caller,
  scope: RunnerOwnerScope,
  attrs: RunnerAttributes,
): { runner: RunnerRow; token: string } {
  return createRunner(caller, scope, attrs, {}, 'Created')
}

/** Deletes a runner (by its own token or by an authorised user), recording it. */
export function unregisterRunner(caller: Caller, runner: RunnerRow): void {
  const owner = runnerOwner(caller.ctx, runner)
  deleteRunnerRow(caller.db, runner.id)
  auditRunner(caller, runner, `Unregistered ${TYPE_WORDS[runner.runner_type]} CI runner`, owner)
}

/** Settable runner attributes (`PUT /runners/:id`). */
export interface RunnerUpdate {
  readonly description?: string
  readonly active?: boolean
  readonly tagList?: readonly string[]
  readonly runUntagged?: boolean
  readonly locked?: boolean
  readonly accessLevel?: RunnerAccessLevel
  readonly maximumTimeout?: number | null
  readonly maintenanceNote?: string
}

/** Applies an update; pausing is `active` turning false. Records each changed attribute. */
export function updateRunner(caller: Caller, runner: RunnerRow, u: RunnerUpdate): RunnerRow {
  const tags = u.tagList && [...new Set(u.tagList.map((t) => t.trim()).filter((t) => t !== ''))].sort()
  // In the order their audit events are recorded.
  const changed = changedFields(runner, {
    description: u.description,
    active: u.active === undefined ? undefined : Number(u.active),
    tag_list: tags && JSON.stringify(tags),
    run_untagged: u.runUntagged === undefined ? undefined : Number(u.runUntagged),
    locked: u.locked === undefined ? undefined : Number(u.locked),
    access_level: u.accessLevel,
    maximum_timeout: u.maximumTimeout,
    maintenance_note: u.maintenanceNote,
  })
  if (changed.length === 0) return runner
  const changes: RunnerChanges = Object.fromEntries(changed.map((c) => [c.key, c.to] as const))
  const updated = updateRunnerRow(caller.db, runner.id, changes)
  const ctx = caller.ctx
  const scope = auditScope(ctx, runnerOwner(ctx, runner), caller)
  for (const { key, from, to } of changed) {
    recordAudit(caller, {
      ...scope,
      targetId: runner.id,
      targetType: 'Ci::Runner',
      targetDetails: updated.description || `#${runner.id}`,
      change:
        key === 'active'
          ? { custom_message: to === 1 ? 'Resumed CI runner' : 'Paused CI runner' }
          : { change: key, from, to },
    })
  }
  return updated
}

/** The fields of `wanted` (those not undefined) whose value differs from the row's, with both values. */
function changedFields<Row, K extends keyof Row>(
  row: Row,
  wanted: { readonly [Key in K]: Row[Key] | undefined },
): { key: K; from: Row[K]; to: Row[K] }[] {
  return (Object.keys(wanted) as K[]).flatMap((key) => {
    const to = wanted[key]
    return to === undefined || to === row[key] ? [] : [{ key, from: row[key], to }]
  })
}

/** The runner whose authentication token was sent, or 403 (GitLab's authenticate_runner!). */
export function authenticateRunner(db: Db, token: string): RunnerRow {
  const runner = findRunnerByTokenDigest(db, digestToken(token))
  if (!runner) throw forbidden()
  return runner
}

/** The runner `id` with the projects it is assigned to; 404 when there is none. */
export function loadRunner(db: Db, id: number): { runner: RunnerRow; projectIds: number[] } {
  const runner = findRunnerById(db, id)
  if (!runner) throw notFound('Runner')
  return { runner, projectIds: runnerProjectIds(db, [id]).get(id) ?? [] }
}

/** Gives a runner a new `glrt-` authentication token (the old one stops working); returns it. */
export function newAuthenticationToken(db: Db, runner: RunnerRow): string {
  const token = generateToken('glrt-')
  updateRunnerRow(db, runner.id, { token_digest: digestToken(token) })
  return token
}

/** A user's reset of a runner's authentication token, recorded on their audit log; returns the token. */
export function resetAuthenticationToken(caller: Caller, runner: RunnerRow): string {
  const token = newAuthenticationToken(caller.db, runner)
  recordAudit(caller, {
    entityType: 'User',
    entityId: caller.user?.id ?? 0,
    entityPath: caller.user?.username ?? '',
    targetId: runner.id,
    targetType: 'Ci::Runner',
    targetDetails: runner.description || `#${runner.id}`,
    change: { custom_message: 'Reset CI runner authentication token' },
  })
  return token
}

/** Assigns a project runner to another project. */
export function assignRunner(caller: Caller, runner: RunnerRow, project: ProjectRow): void {
  assignRunnerToProject(caller.db, runner.id, project.id)
  auditRunner(caller, runner, 'Assigned CI runner to project', { project })
}

/** Removes a project runner from one of its projects. */
export function unassignRunner(caller: Caller, runner: RunnerRow, project: ProjectRow): void {
  unassignRunnerFromProject(caller.db, runner.id, project.id)
  auditRunner(caller, runner, 'Unassigned CI runner from project', { project })
}

/** Runner details with the projects and groups the caller may see. */
export function presentRunnerDetail(caller: Caller, runner: RunnerRow): RunnerDetail {
  const ctx = caller.ctx
  const baseUrl = caller.baseUrl
  const projectIds = runnerProjectIds(ctx.db, [runner.id]).get(runner.id) ?? []
  const projects: RunnerProjectRef[] = []
  for (const id of projectIds) {
    const p = findProjectWithNamespace(ctx.db, id)
    if (!p || !caller.perms.canReadProject(p)) continue
    projects.push({
      id: p.id,
      name: p.name,
      name_with_namespace: `${p.ns_full_name} / ${p.name}`,
      path: p.path,
      path_with_namespace: `${p.ns_full_path}/${p.path}`,
    })
  }
  const groups: RunnerGroupRef[] = []
  if (runner.group_id !== null) {
    const g = findNamespaceById(ctx.db, runner.group_id)
    if (g && caller.perms.canReadGroup(g))
      groups.push({ id: g.id, name: g.name, web_url: groupWebUrl(baseUrl, g.full_path) })
  }
  return runnerDetailEntity(runner, {
    projects,
    groups,
    showMaintenanceNote: canUpdateRunner(caller.perms, runner, projectIds),
  })
}

/** Runner summaries. */
export function presentRunners(rows: readonly RunnerRow[]): Runner[] {
  const now = Date.now()
  return rows.map((r) => runnerEntity(r, now))
}
