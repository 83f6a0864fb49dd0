import { nowIso, type Db } from '../../platform/db/connection'
import { nextIid } from '../../platform/db/internal-ids'

export const ENVIRONMENT_TIERS = ['production', 'staging', 'testing', 'development', 'other'] as const
export type EnvironmentTier = (typeof ENVIRONMENT_TIERS)[number]
export const ENVIRONMENT_STATES = ['available', 'stopping', 'stopped'] as const
export type EnvironmentState = (typeof ENVIRONMENT_STATES)[number]
export const DEPLOYMENT_STATUSES = [
  'created',
  'running',
  'success',
  'failed',
  'canceled',
  'skipped',
  'blocked',
] as const
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number]

export interface EnvironmentRow {
  readonly id: number
  readonly project_id: number
  readonly name: string
  readonly slug: string
  readonly external_url: string | null
  readonly description: string | null
  readonly state: EnvironmentState
  readonly tier: EnvironmentTier
  readonly environment_type: string | null
  readonly auto_stop_at: string | null
  readonly auto_delete_at: string | null
  readonly created_at: string
  readonly updated_at: string
}

export interface DeploymentRow {
  readonly id: number
  readonly iid: number
  readonly project_id: number
  readonly environment_id: number
  readonly ref: string
  readonly tag: number
  readonly sha: string
  readonly user_id: number | null
  readonly deployable_id: number | null
  readonly status: DeploymentStatus
  readonly created_at: string
  readonly updated_at: string
  readonly finished_at: string | null
}

/** The folder of an environment: the first segment of a name with a '/' (GitLab's environment_type). */
export function environmentType(name: string): string | null {
  const parts = name.split('/')
  return parts.length > 1 ? parts[0] : null
}

export function findEnvironment(db: Db, projectId: number, id: number): EnvironmentRow | undefined {
  return db.prepare('SELECT * FROM environments WHERE project_id = ? AND id = ?').get(projectId, id) as
    EnvironmentRow | undefined
}

export function findEnvironmentByName(db: Db, projectId: number, name: string): EnvironmentRow | undefined {
  return db.prepare('SELECT * FROM environments WHERE project_id = ? AND name = ?').get(projectId, name) as
    EnvironmentRow | undefined
}

export function slugTaken(db: Db, projectId: number, slug: string): boolean {
  return db.prepare('SELECT 1 FROM environments WHERE project_id = ? AND slug = ?').get(projectId, slug) !== undefined
}

export interface EnvironmentFilter {
  readonly projectId: number
  /** Exact name. */
  readonly name?: string
  /** Case-insensitive prefix of the name or of its part inside a folder. */
  readonly search?: string
  readonly states?: EnvironmentState
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/** One page of a project's environments, oldest first. */
export function listEnvironments(
  db: Db,
  f: EnvironmentFilter,
  page: { readonly limit: number; readonly offset: number },
): { rows: EnvironmentRow[]; total: number } {
  const where = ['project_id = ?']
  const args: unknown[] = [f.projectId]
  if (f.name !== undefined) {
    where.push('name = ?')
    args.push(f.name)
  }
  if (f.search !== undefined) {
    where.push(`(name LIKE ? ESCAPE '\\' OR name LIKE ? ESCAPE '\\')`)
    const prefix = escapeLike(f.search)
    args.push(`${prefix}%`, `%/${prefix}%`)
  }
  if (f.states !== undefined) {
    where.push('state = ?')
    args.push(f.states)
  }
  const sql = where.join(' AND ')
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM environments WHERE ${sql}`).get(...args) as { n: number }).n
  const rows = db
    .prepare(`SELECT * FROM environments WHERE ${sql} ORDER BY id LIMIT ? OFFSET ?`)
    .all(...args, page.limit, page.offset) as EnvironmentRow[]
  return { rows, total }
}

export interface NewEnvironment {
  readonly projectId: number
  readonly name: string
  readonly slug: string
  readonly externalUrl: string | null
  readonly description: string | null
  readonly tier: EnvironmentTier
  readonly autoStopAt?: string | null
}

export function insertEnvironment(db: Db, e: NewEnvironment): EnvironmentRow {
  const now = nowIso()
  const info = db
    .prepare(
      `INSERT INTO environments (project_id, name, slug, external_url, description, tier, environment_type, auto_stop_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      e.projectId,
      e.name,
      e.slug,
      e.externalUrl,
      e.description,
      e.tier,
      environmentType(e.name),
      e.autoStopAt ?? null,
      now,
      now,
    )
  return db.prepare('SELECT * FROM environments WHERE id = ?').get(Number(info.lastInsertRowid)) as EnvironmentRow
}

export type EnvironmentChanges = Partial<
  Pick<EnvironmentRow, 'name' | 'external_url' | 'description' | 'tier' | 'state' | 'auto_stop_at' | 'auto_delete_at'>
>

/** Applies the changes (the folder follows the name) and bumps updated_at. */
export function updateEnvironment(db: Db, id: number, changes: EnvironmentChanges): EnvironmentRow {
  const values: Record<string, unknown> = { ...changes }
  if (changes.name !== undefined) values.environment_type = environmentType(changes.name)
  const keys = Object.keys(values)
  const sets = [...keys.map((k) => `${k} = @${k}`), 'updated_at = @updated_at']
  db.prepare(`UPDATE environments SET ${sets.join(', ')} WHERE id = @id`).run({ ...values, updated_at: nowIso(), id })
  return db.prepare('SELECT * FROM environments WHERE id = ?').get(id) as EnvironmentRow
}

export function deleteEnvironment(db: Db, id: number): void {
  db.prepare('DELETE FROM environments WHERE id = ?').run(id)
}

/**
 * Stopped environments of the `review` folder created before `before`, not yet scheduled for
 * deletion, oldest first (GitLab's stopped_review_apps scope).
 */
export function stoppedReviewApps(db: Db, projectId: number, before: string, limit: number): EnvironmentRow[] {
  return db
    .prepare(
      `SELECT * FROM environments
       WHERE project_id = ? AND environment_type = 'review' AND state = 'stopped' AND auto_delete_at IS NULL AND created_at < ?
       ORDER BY created_at, id LIMIT ?`,
    )
    .all(projectId, before, limit) as EnvironmentRow[]
}

export function scheduleEnvironmentDeletion(db: Db, ids: readonly number[], at: string): void {
  db.prepare(
    'UPDATE environments SET auto_delete_at = ?, updated_at = ? WHERE id IN (SELECT value FROM json_each(?))',
  ).run(at, nowIso(), JSON.stringify(ids))
}

/** Environments whose scheduled deletion time has come. */
export function environmentsDueForDeletion(db: Db, now: string): EnvironmentRow[] {
  return db
    .prepare('SELECT * FROM environments WHERE auto_delete_at IS NOT NULL AND auto_delete_at <= ? ORDER BY id')
    .all(now) as EnvironmentRow[]
}

/** Available environments whose auto_stop_at has passed. */
export function environmentsDueForStop(db: Db, now: string): EnvironmentRow[] {
  return db
    .prepare(
      `SELECT * FROM environments WHERE state = 'available' AND auto_stop_at IS NOT NULL AND auto_stop_at <= ? ORDER BY id`,
    )
    .all(now) as EnvironmentRow[]
}

/** The latest successful deployment of each environment (GitLab's last_deployment), in one query. */
export function lastDeployments(db: Db, environmentIds: readonly number[]): Map<number, DeploymentRow> {
  const map = new Map<number, DeploymentRow>()
  if (environmentIds.length === 0) return map
  const rows = db
    .prepare(
      `SELECT d.* FROM deployments d
       WHERE d.id = (SELECT d2.id FROM deployments d2 WHERE d2.environment_id = d.environment_id AND d2.status = 'success'
                     ORDER BY d2.finished_at DESC, d2.id DESC LIMIT 1)
         AND d.environment_id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(environmentIds)) as DeploymentRow[]
  for (const r of rows) map.set(r.environment_id, r)
  return map
}

export function environmentsByIds(db: Db, ids: readonly number[]): Map<number, EnvironmentRow> {
  const map = new Map<number, EnvironmentRow>()
  if (ids.length === 0) return map
  for (const r of db
    .prepare('SELECT * FROM environments WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(ids)) as EnvironmentRow[])
    map.set(r.id, r)
  return map
}

/** A deployment to record. */
export interface NewDeployment {
  readonly projectId: number
  readonly environmentId: number
  readonly ref: string
  readonly sha: string
  readonly tag: boolean
  readonly userId: number | null
  /** The CI job that deploys; null for deployments made through the API. */
  readonly deployableId: number | null
  readonly status: DeploymentStatus
}

const FINISHED: readonly DeploymentStatus[] = ['success', 'failed', 'canceled', 'skipped']

/** Inserts a deployment with the project's next deployment iid. */
export function insertDeployment(db: Db, d: NewDeployment): DeploymentRow {
  return db.transaction(() => {
    const now = nowIso()
    const iid = nextIid(db, { projectId: d.projectId }, 'deployments')
    const info = db
      .prepare(
        `INSERT INTO deployments (iid, project_id, environment_id, ref, tag, sha, user_id, deployable_id, status, created_at, updated_at, finished_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        iid,
        d.projectId,
        d.environmentId,
        d.ref,
        d.tag ? 1 : 0,
        d.sha,
        d.userId,
        d.deployableId,
        d.status,
        now,
        now,
        FINISHED.includes(d.status) ? now : null,
      )
    return db.prepare('SELECT * FROM deployments WHERE id = ?').get(Number(info.lastInsertRowid)) as DeploymentRow
  })()
}

/** Sets a deployment's status; a finishing status records finished_at once. */
export function setDeploymentStatus(db: Db, id: number, status: DeploymentStatus): DeploymentRow {
  const now = nowIso()
  db.prepare(
    `UPDATE deployments SET status = ?, updated_at = ?, finished_at = CASE WHEN ? THEN COALESCE(finished_at, ?) ELSE NULL END WHERE id = ?`,
  ).run(status, now, FINISHED.includes(status) ? 1 : 0, now, id)
  return db.prepare('SELECT * FROM deployments WHERE id = ?').get(id) as DeploymentRow
}

export function findDeployment(db: Db, projectId: number, id: number): DeploymentRow | undefined {
  return db.prepare('SELECT * FROM deployments WHERE project_id = ? AND id = ?').get(projectId, id) as
    DeploymentRow | undefined
}

export function findDeploymentById(db: Db, id: number): DeploymentRow | undefined {
  return db.prepare('SELECT * FROM deployments WHERE id = ?').get(id) as DeploymentRow | undefined
}

/** Deployments made by a CI job. */
export function deploymentsOfDeployable(db: Db, deployableId: number): DeploymentRow[] {
  return db
    .prepare('SELECT * FROM deployments WHERE deployable_id = ? ORDER BY id')
    .all(deployableId) as DeploymentRow[]
}

export const DEPLOYMENT_ORDERS = ['id', 'iid', 'created_at', 'updated_at', 'finished_at', 'ref'] as const
export type DeploymentOrder = (typeof DEPLOYMENT_ORDERS)[number]

export interface DeploymentFilter {
  readonly projectId: number
  readonly environmentId?: number
  readonly status?: DeploymentStatus
  readonly updatedAfter?: string
  readonly updatedBefore?: string
  readonly finishedAfter?: string
  readonly finishedBefore?: string
}

/** One page of deployments in the requested order (ties broken by id). */
export function listDeployments(
  db: Db,
  f: DeploymentFilter,
  order: { readonly by: DeploymentOrder; readonly sort: 'asc' | 'desc' },
  page: { readonly limit: number; readonly offset: number },
): { rows: DeploymentRow[]; total: number } {
  const where = ['project_id = ?']
  const args: unknown[] = [f.projectId]
  const add = (clause: string, value: unknown): void => {
    where.push(clause)
    args.push(value)
  }
  if (f.environmentId !== undefined) add('environment_id = ?', f.environmentId)
  if (f.status !== undefined) add('status = ?', f.status)
  if (f.updatedAfter !== undefined) add('updated_at > ?', f.updatedAfter)
  if (f.updatedBefore !== undefined) add('updated_at < ?', f.updatedBefore)
  if (f.finishedAfter !== undefined) add('finished_at > ?', f.finishedAfter)
  if (f.finishedBefore !== undefined) add('finished_at < ?', f.finishedBefore)
  const sql = where.join(' AND ')
  const dir = order.sort === 'desc' ? 'DESC' : 'ASC'
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM deployments WHERE ${sql}`).get(...args) as { n: number }).n
  const rows = db
    .prepare(`SELECT * FROM deployments WHERE ${sql} ORDER BY ${order.by} ${dir}, id ${dir} LIMIT ? OFFSET ?`)
    .all(...args, page.limit, page.offset) as DeploymentRow[]
  return { rows, total }
}

export function deleteDeployment(db: Db, id: number): void {
  db.prepare('DELETE FROM deployments WHERE id = ?').run(id)
}

/** Starts a stopped environment again and cancels its scheduled deletion (a successful deployment's effect). */
export function makeEnvironmentAvailable(db: Db, id: number): void {
  db.prepare(
    `UPDATE environments SET state = 'available', auto_delete_at = NULL, updated_at = ? WHERE id = ? AND (state <> 'available' OR auto_delete_at IS NOT NULL)`,
  ).run(nowIso(), id)
}
