import { namespaceAncestors } from '../namespaces'
import { AUTHORIZED_GROUPS_CTE, AUTHORIZED_PROJECTS_CTE } from '../../platform/auth/permissions'
import { AccessLevel } from '../../platform/auth/access'
import type { SecretBox } from '../../platform/auth/encryption'
import { digestToken } from '../../platform/auth/secrets'
import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'

export type RunnerType = 'instance_type' | 'group_type' | 'project_type'
export type RunnerAccessLevel = 'not_protected' | 'ref_protected'

/** A row of `ci_runners`. */
export interface RunnerRow {
  readonly id: number
  readonly runner_type: RunnerType
  readonly group_id: number | null
  readonly token_digest: string
  readonly description: string
  readonly maintenance_note: string | null
  readonly active: number
  readonly locked: number
  readonly run_untagged: number
  /** JSON array of tag names. */
  readonly tag_list: string
  readonly access_level: RunnerAccessLevel
  readonly maximum_timeout: number | null
  readonly name: string | null
  readonly version: string | null
  readonly revision: string | null
  readonly platform: string | null
  readonly architecture: string | null
  readonly executor: string | null
  readonly ip_address: string | null
  readonly contacted_at: string | null
  readonly creator_id: number | null
  readonly created_at: string
  readonly updated_at: string
}

/** A runner is online when it asked for jobs within the last two hours (GitLab's contact timeout). */
export const ONLINE_CONTACT_TIMEOUT_MS = 2 * 60 * 60 * 1000
/** Runners not seen for three months are stale. */
export const STALE_TIMEOUT_MS = 90 * 24 * 60 * 60 * 1000

export function runnerTags(row: Pick<RunnerRow, 'tag_list'>): string[] {
  return JSON.parse(row.tag_list) as string[]
}

export interface NewRunner {
  readonly runnerType: RunnerType
  readonly groupId: number | null
  readonly tokenDigest: string
  readonly description: string
  readonly maintenanceNote: string | null
  readonly active: boolean
  readonly locked: boolean
  readonly runUntagged: boolean
  readonly tagList: readonly string[]
  readonly accessLevel: RunnerAccessLevel
  readonly maximumTimeout: number | null
  readonly creatorId: number | null
  readonly info: Readonly<RunnerInfo>
}

/** What a runner reports about itself (`info` of registration and job requests) and where from. */
export interface RunnerInfo {
  readonly name?: string
  readonly version?: string
  readonly revision?: string
  readonly platform?: string
  readonly architecture?: string
  readonly executor?: string
  readonly ip_address?: string
}

/** Inserts a runner (and its first project, for project runners) in one transaction. */
export function insertRunner(db: Db, r: NewRunner, projectId: number | null): RunnerRow {
  return db.transaction(() => {
    const now = nowIso()
    const info = db
      .prepare(
        `INSERT INTO ci_runners (runner_type, group_id, token_digest, description, maintenance_note, active, locked, run_untagged, tag_list,
           access_level, maximum_timeout, name, version, revision, platform, architecture, executor, ip_address, creator_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        r.runnerType,
        r.groupId,
        r.tokenDigest,
        r.description,
        r.maintenanceNote,
        Number(r.active),
        Number(r.locked),
        Number(r.runUntagged),
        JSON.stringify([...new Set(r.tagList)].sort()),
        r.accessLevel,
        r.maximumTimeout,
        r.info.name ?? null,
        r.info.version ?? null,
        r.info.revision ?? null,
        r.info.platform ?? null,
        r.info.architecture ?? null,
        r.info.executor ?? null,
        r.info.ip_address ?? null,
        r.creatorId,
        now,
        now,
      )
    const id = Number(info.lastInsertRowid)
    if (projectId !== null)
      db.prepare('INSERT INTO ci_runner_projects (runner_id, project_id, created_at) VALUES (?, ?, ?)').run(
        id,
        projectId,
        now,
      )
    return findRunnerById(db, id) as RunnerRow
  })()
}

export function findRunnerById(db: Db, id: number): RunnerRow | undefined {
  return db.prepare('SELECT * FROM ci_runners WHERE id = ?').get(id) as RunnerRow | undefined
}

export function findRunnerByTokenDigest(db: Db, digest: string): RunnerRow | undefined {
  return db.prepare('SELECT * FROM ci_runners WHERE token_digest = ?').get(digest) as RunnerRow | undefined
}

export type RunnerChanges = Partial<
  Pick<
    RunnerRow,
    | 'description'
    | 'maintenance_note'
    | 'active'
    | 'locked'
    | 'run_untagged'
    | 'tag_list'
    | 'access_level'
    | 'maximum_timeout'
    | 'token_digest'
  >
>

/** Applies attribute changes and bumps updated_at. */
export function updateRunnerRow(db: Db, id: number, changes: RunnerChanges): RunnerRow {
  const keys = Object.keys(changes) as (keyof RunnerChanges)[]
  if (keys.length > 0) {
    const sets = keys.map((k) => `${k} = ?`).join(', ')
    db.prepare(`UPDATE ci_runners SET ${sets}, updated_at = ? WHERE id = ?`).run(
      ...keys.map((k) => changes[k] ?? null),
      nowIso(),
      id,
    )
  }
  return findRunnerById(db, id) as RunnerRow
}

/** Records a contact: what the runner said about itself now (heartbeat), without touching updated_at. */
export function touchRunner(db: Db, id: number, info: RunnerInfo): void {
  db.prepare(
    `UPDATE ci_runners SET contacted_at = ?, ip_address = COALESCE(?, ip_address), name = COALESCE(?, name), version = COALESCE(?, version),
       revision = COALESCE(?, revision), platform = COALESCE(?, platform), architecture = COALESCE(?, architecture), executor = COALESCE(?, executor)
     WHERE id = ?`,
  ).run(
    nowIso(),
    info.ip_address ?? null,
    info.name ?? null,
    info.version ?? null,
    info.revision ?? null,
    info.platform ?? null,
    info.architecture ?? null,
    info.executor ?? null,
    id,
  )
}

export function deleteRunnerRow(db: Db, id: number): void {
  db.prepare('DELETE FROM ci_runners WHERE id = ?').run(id)
}

/** Project ids of each runner, oldest assignment first (the first is the runner's owner project). */
export function runnerProjectIds(db: Db, runnerIds: readonly number[]): Map<number, number[]> {
  const out = new Map<number, number[]>()
  if (runnerIds.length === 0) return out
  const rows = db
    .prepare(
      'SELECT runner_id, project_id FROM ci_runner_projects WHERE runner_id IN (SELECT value FROM json_each(?)) ORDER BY created_at, project_id',
    )
    .all(JSON.stringify(runnerIds)) as { runner_id: number; project_id: number }[]
  for (const r of rows) {
    const list = out.get(r.runner_id) ?? []
    list.push(r.project_id)
    out.set(r.runner_id, list)
  }
  return out
}

export function isRunnerInProject(db: Db, runnerId: number, projectId: number): boolean {
  return (
    db.prepare('SELECT 1 FROM ci_runner_projects WHERE runner_id = ? AND project_id = ?').get(runnerId, projectId) !==
    undefined
  )
}

export function assignRunnerToProject(db: Db, runnerId: number, projectId: number): void {
  db.prepare('INSERT INTO ci_runner_projects (runner_id, project_id, created_at) VALUES (?, ?, ?)').run(
    runnerId,
    projectId,
    nowIso(),
  )
}

export function unassignRunnerFromProject(db: Db, runnerId: number, projectId: number): void {
  db.prepare('DELETE FROM ci_runner_projects WHERE runner_id = ? AND project_id = ?').run(runnerId, projectId)
}

/** Which runners a list starts from, before the filters. */
export type RunnerScope =
  | { readonly kind: 'all' }
  /** Runners the user manages: project runners of projects and group runners of groups where the user is Maintainer. */
  | { readonly kind: 'owned'; readonly userId: number }
  /** A project's own runners, its groups' runners and instance runners. */
  | { readonly kind: 'project'; readonly projectId: number; readonly groupIds: readonly number[] }
  /** A group's and its ancestors' runners and instance runners. */
  | { readonly kind: 'group'; readonly groupIds: readonly number[] }

/** Status filters, GitLab's runner scopes: active, paused, online, offline, never_contacted, stale. */
export type RunnerStatusFilter =
  'active' | 'paused' | 'online' | 'offline' | 'never_contacted' | 'stale' | 'specific' | 'shared'

export interface RunnerFilter {
  readonly scope: RunnerScope
  readonly types?: readonly RunnerType[]
  readonly statuses?: readonly RunnerStatusFilter[]
  /** Every tag must be on the runner. */
  readonly tags?: readonly string[]
}

/** Numbered SQL parameters (`?1`, `?2`…), which better-sqlite3 binds by name from an object. */
class Params {
  readonly values: Record<number, unknown> = {}
  private next = 1

  /** Adds a value and returns its placeholder. */
  add(value: unknown): string {
    const n = this.next
    this.next += 1
    this.values[n] = value
    return `?${n}`
  }
}

function scopeSql(scope: RunnerScope, p: Params): { cte: string; where: string } {
  switch (scope.kind) {
    case 'all':
      return { cte: '', where: '1 = 1' }
    case 'owned': {
      // The CTEs read the user id as ?1.
      p.add(scope.userId)
      const level = p.add(AccessLevel.MAINTAINER)
      return {
        cte: `WITH RECURSIVE ${AUTHORIZED_GROUPS_CTE}, ${AUTHORIZED_PROJECTS_CTE}`,
        where: `((r.runner_type = 'project_type' AND r.id IN (SELECT rp.runner_id FROM ci_runner_projects rp JOIN authorized_projects ap ON ap.id = rp.project_id WHERE ap.lvl >= ${level}))
          OR (r.runner_type = 'group_type' AND r.group_id IN (SELECT id FROM authorized_groups WHERE lvl >= ${level})))`,
      }
    }
    case 'project':
      return {
        cte: '',
        where: `(r.runner_type = 'instance_type'
          OR (r.runner_type = 'project_type' AND r.id IN (SELECT runner_id FROM ci_runner_projects WHERE project_id = ${p.add(scope.projectId)}))
          OR (r.runner_type = 'group_type' AND r.group_id IN (SELECT value FROM json_each(${p.add(JSON.stringify(scope.groupIds))}))))`,
      }
    case 'group':
      return {
        cte: '',
        where: `(r.runner_type = 'instance_type' OR (r.runner_type = 'group_type' AND r.group_id IN (SELECT value FROM json_each(${p.add(JSON.stringify(scope.groupIds))}))))`,
      }
  }
}

function statusSql(status: RunnerStatusFilter, onlineSince: string, staleBefore: string): string {
  switch (status) {
    case 'active':
      return 'r.active = 1'
    case 'paused':
      return 'r.active = 0'
    case 'online':
      return `r.contacted_at > '${onlineSince}'`
    case 'offline':
      // A runner that never asked for jobs shows as offline, so the filter counts it too.
      return `(r.contacted_at IS NULL OR r.contacted_at <= '${onlineSince}')`
    case 'never_contacted':
      return 'r.contacted_at IS NULL'
    case 'stale':
      return `(r.created_at <= '${staleBefore}' AND (r.contacted_at IS NULL OR r.contacted_at <= '${staleBefore}'))`
    case 'specific':
      return `r.runner_type <> 'instance_type'`
    case 'shared':
      return `r.runner_type = 'instance_type'`
  }
}

/** One page of runners, by id. The statuses all apply (a scope and a status filter narrow together). */
export function listRunners(
  db: Db,
  f: RunnerFilter,
  page: { readonly limit: number; readonly offset: number },
  now = Date.now(),
): { rows: RunnerRow[]; total: number } {
  const p = new Params()
  const { cte, where } = scopeSql(f.scope, p)
  const clauses = [where]
  if (f.types && f.types.length > 0)
    clauses.push(`r.runner_type IN (SELECT value FROM json_each(${p.add(JSON.stringify(f.types))}))`)
  const onlineSince = new Date(now - ONLINE_CONTACT_TIMEOUT_MS).toISOString()
  const staleBefore = new Date(now - STALE_TIMEOUT_MS).toISOString()
  for (const s of f.statuses ?? []) clauses.push(statusSql(s, onlineSince, staleBefore))
  if (f.tags && f.tags.length > 0) {
    clauses.push(
      `NOT EXISTS (SELECT 1 FROM json_each(${p.add(JSON.stringify(f.tags))}) t WHERE t.value NOT IN (SELECT value FROM json_each(r.tag_list)))`,
    )
  }
  const sql = clauses.join(' AND ')
  const total = (
    db.prepare(`${cte} SELECT COUNT(*) AS n FROM ci_runners r WHERE ${sql}`).get(p.values) as { n: number }
  ).n
  const rows = db
    .prepare(
      `${cte} SELECT r.* FROM ci_runners r WHERE ${sql} ORDER BY r.id LIMIT ${p.add(page.limit)} OFFSET ${p.add(page.offset)}`,
    )
    .all(p.values) as RunnerRow[]
  return { rows, total }
}

/** Registration token of a project or group, creating it with `make` on first use (stored sealed, found by its digest). */
export function registrationToken(
  db: Db,
  secrets: SecretBox,
  sourceType: 'Project' | 'Namespace',
  sourceId: number,
  make: () => string,
): string {
  const row = db
    .prepare('SELECT encrypted_token FROM ci_registration_tokens WHERE source_type = ? AND source_id = ?')
    .get(sourceType, sourceId) as { encrypted_token: string } | undefined
  if (row) return secrets.open(row.encrypted_token)
  const token = make()
  db.prepare(
    'INSERT INTO ci_registration_tokens (source_type, source_id, encrypted_token, token_digest, created_at) VALUES (?, ?, ?, ?, ?)',
  ).run(sourceType, sourceId, secrets.seal(token), digestToken(token), nowIso())
  return token
}

/** Replaces a project's or group's registration token. */
export function resetRegistrationToken(
  db: Db,
  secrets: SecretBox,
  sourceType: 'Project' | 'Namespace',
  sourceId: number,
  token: string,
): void {
  db.prepare(
    `INSERT INTO ci_registration_tokens (source_type, source_id, encrypted_token, token_digest, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (source_type, source_id) DO UPDATE SET encrypted_token = excluded.encrypted_token, token_digest = excluded.token_digest, created_at = excluded.created_at`,
  ).run(sourceType, sourceId, secrets.seal(token), digestToken(token), nowIso())
}

/** Which project or group a registration token belongs to. */
export function registrationTokenOwner(
  db: Db,
  token: string,
): { sourceType: 'Project' | 'Namespace'; sourceId: number } | undefined {
  const row = db
    .prepare('SELECT source_type, source_id FROM ci_registration_tokens WHERE token_digest = ?')
    .get(digestToken(token)) as { source_type: 'Project' | 'Namespace'; source_id: number } | undefined
  return row ? { sourceType: row.source_type, sourceId: row.source_id } : undefined
}

/** Group ids of a project's group and its ancestors (none for a personal project). */
export function projectGroupIds(db: Db, namespaceId: number): number[] {
  const ns = db.prepare('SELECT kind FROM namespaces WHERE id = ?').get(namespaceId) as { kind: string } | undefined
  if (ns?.kind !== 'group') return []
  return [namespaceId, ...namespaceAncestors(db, namespaceId).map((g) => g.id)]
}

/** The runners with these ids (those that exist), by id, in one query. */
export function runnersByIds(db: Db, ids: readonly number[]): Map<number, RunnerRow> {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return new Map()
  const rows = db
    .prepare('SELECT * FROM ci_runners WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(unique)) as RunnerRow[]
  return new Map(rows.map((r) => [r.id, r]))
}
