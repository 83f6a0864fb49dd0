import { nowIso, type Db } from '../../platform/db/connection'

export type ClusterProvider = 'user' | 'gcp' | 'aws'
export type AuthorizationType = 'rbac' | 'abac' | 'unknown_authorization'

/** A certificate-based project cluster; the token column holds the sealed secret only. */
export interface ClusterRow {
  readonly id: number
  readonly project_id: number
  readonly user_id: number | null
  readonly name: string
  readonly domain: string | null
  readonly enabled: number
  readonly managed: number
  readonly provider_type: ClusterProvider
  readonly platform_type: string
  readonly environment_scope: string
  readonly namespace_per_environment: number
  readonly management_project_id: number | null
  readonly api_url: string
  readonly namespace: string | null
  readonly authorization_type: AuthorizationType
  readonly ca_cert: string | null
  readonly encrypted_token: string
  readonly created_at: string
  readonly updated_at: string
}

/** One page of a project's clusters, oldest first. */
export function listClusters(
  db: Db,
  projectId: number,
  page: { readonly limit: number; readonly offset: number },
): { rows: ClusterRow[]; total: number } {
  const total = (db.prepare('SELECT COUNT(*) AS n FROM clusters WHERE project_id = ?').get(projectId) as { n: number })
    .n
  const rows = db
    .prepare('SELECT * FROM clusters WHERE project_id = ? ORDER BY id LIMIT ? OFFSET ?')
    .all(projectId, page.limit, page.offset) as ClusterRow[]
  return { rows, total }
}

export function findCluster(db: Db, projectId: number, id: number): ClusterRow | undefined {
  return db.prepare('SELECT * FROM clusters WHERE project_id = ? AND id = ?').get(projectId, id) as
    ClusterRow | undefined
}

/** Another cluster of the project already serving this environment scope. */
export function environmentScopeTaken(db: Db, projectId: number, scope: string, exceptId = 0): boolean {
  return (
    db
      .prepare('SELECT 1 FROM clusters WHERE project_id = ? AND environment_scope = ? AND id <> ?')
      .get(projectId, scope, exceptId) !== undefined
  )
}

export type NewCluster = Omit<ClusterRow, 'id' | 'created_at' | 'updated_at'>

export function insertCluster(db: Db, c: NewCluster): ClusterRow {
  const now = nowIso()
  const info = db
    .prepare(
      `INSERT INTO clusters (project_id, user_id, name, domain, enabled, managed, provider_type, platform_type, environment_scope,
         namespace_per_environment, management_project_id, api_url, namespace, authorization_type, ca_cert, encrypted_token, created_at, updated_at)
       VALUES (@project_id, @user_id, @name, @domain, @enabled, @managed, @provider_type, @platform_type, @environment_scope,
         @namespace_per_environment, @management_project_id, @api_url, @namespace, @authorization_type, @ca_cert, @encrypted_token, @created_at, @updated_at)`,
    )
    .run({ ...c, created_at: now, updated_at: now })
  return db.prepare('SELECT * FROM clusters WHERE id = ?').get(Number(info.lastInsertRowid)) as ClusterRow
}

export type ClusterChanges = Partial<
  Omit<ClusterRow, 'id' | 'project_id' | 'user_id' | 'provider_type' | 'platform_type' | 'created_at' | 'updated_at'>
>

export function updateCluster(db: Db, id: number, changes: ClusterChanges): ClusterRow {
  const keys = Object.keys(changes)
  if (keys.length > 0) {
    const sets = [...keys.map((k) => `${k} = @${k}`), 'updated_at = @updated_at']
    db.prepare(`UPDATE clusters SET ${sets.join(', ')} WHERE id = @id`).run({ ...changes, updated_at: nowIso(), id })
  }
  return db.prepare('SELECT * FROM clusters WHERE id = ?').get(id) as ClusterRow
}

export function deleteCluster(db: Db, id: number): void {
  db.prepare('DELETE FROM clusters WHERE id = ?').run(id)
}
