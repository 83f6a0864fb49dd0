import { nowIso, type Db } from '../../platform/db/connection'

export interface ProtectedEnvironmentRow {
  readonly id: number
  readonly project_id: number
  readonly name: string
  readonly created_at: string
  readonly updated_at: string
}

export interface DeployAccessLevelRow {
  readonly id: number
  readonly protected_environment_id: number
  readonly access_level: number
  readonly user_id: number | null
  readonly group_id: number | null
}

/** A protected environment with who may deploy to it. */
export interface ProtectedEnvironment extends ProtectedEnvironmentRow {
  readonly levels: readonly DeployAccessLevelRow[]
}

/** One deploy rule: a role (access_level alone), a user or a group. */
export interface DeployGrant {
  readonly access_level?: number
  readonly user_id?: number
  readonly group_id?: number
}

function withLevels(db: Db, rows: readonly ProtectedEnvironmentRow[]): ProtectedEnvironment[] {
  if (rows.length === 0) return []
  const levels = db
    .prepare(
      'SELECT * FROM protected_environment_deploy_access_levels WHERE protected_environment_id IN (SELECT value FROM json_each(?)) ORDER BY id',
    )
    .all(JSON.stringify(rows.map((r) => r.id))) as DeployAccessLevelRow[]
  return rows.map((r) => ({ ...r, levels: levels.filter((l) => l.protected_environment_id === r.id) }))
}

/** One page of a project's protected environments by name, with their rules (one query for all rules). */
export function listProtectedEnvironments(
  db: Db,
  projectId: number,
  page: { readonly limit: number; readonly offset: number },
): { rows: ProtectedEnvironment[]; total: number } {
  const total = (
    db.prepare('SELECT COUNT(*) AS n FROM protected_environments WHERE project_id = ?').get(projectId) as { n: number }
  ).n
  const rows = db
    .prepare('SELECT * FROM protected_environments WHERE project_id = ? ORDER BY name LIMIT ? OFFSET ?')
    .all(projectId, page.limit, page.offset) as ProtectedEnvironmentRow[]
  return { rows: withLevels(db, rows), total }
}

export function findProtectedEnvironment(db: Db, projectId: number, name: string): ProtectedEnvironment | undefined {
  const row = db
    .prepare('SELECT * FROM protected_environments WHERE project_id = ? AND name = ?')
    .get(projectId, name) as ProtectedEnvironmentRow | undefined
  return row ? withLevels(db, [row])[0] : undefined
}

/** Inserts a protected environment and its rules; user and group rules keep the column default 40. */
export function insertProtectedEnvironment(
  db: Db,
  projectId: number,
  name: string,
  grants: readonly DeployGrant[],
): ProtectedEnvironment {
  return db.transaction(() => {
    const now = nowIso()
    const info = db
      .prepare('INSERT INTO protected_environments (project_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)')
      .run(projectId, name, now, now)
    const id = Number(info.lastInsertRowid)
    const insert = db.prepare(
      'INSERT INTO protected_environment_deploy_access_levels (protected_environment_id, access_level, user_id, group_id) VALUES (?, ?, ?, ?)',
    )
    for (const g of grants) insert.run(id, g.access_level ?? 40, g.user_id ?? null, g.group_id ?? null)
    return findProtectedEnvironment(db, projectId, name) as ProtectedEnvironment
  })()
}

export function deleteProtectedEnvironment(db: Db, id: number): void {
  db.prepare('DELETE FROM protected_environments WHERE id = ?').run(id)
}

/** True while the project is shared with the group (an unexpired link). */
export function isProjectSharedWithGroup(db: Db, projectId: number, groupId: number): boolean {
  const row = db
    .prepare(
      `SELECT 1 FROM project_group_links WHERE project_id = ? AND group_id = ? AND (expires_at IS NULL OR expires_at >= date('now'))`,
    )
    .get(projectId, groupId)
  return row !== undefined
}
