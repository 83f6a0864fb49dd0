import type { SecretBox } from '../../platform/auth/encryption'
import { nowIso, type Db } from '../../platform/db/connection'

export interface ErrorTrackingSettingRow {
  readonly project_id: number
  readonly enabled: number
  readonly integrated: number
  readonly api_url: string | null
  readonly project_name: string | null
  readonly created_at: string
  readonly updated_at: string
}

/** A client key of a project's integrated error tracking, its key opened (stored sealed as `encrypted_public_key`). */
export interface ClientKeyRow {
  readonly id: number
  readonly project_id: number
  readonly active: number
  readonly public_key: string
  readonly created_at: string
  readonly updated_at: string
}

export function findErrorTrackingSetting(db: Db, projectId: number): ErrorTrackingSettingRow | undefined {
  return db.prepare('SELECT * FROM error_tracking_settings WHERE project_id = ?').get(projectId) as
    ErrorTrackingSettingRow | undefined
}

/** Creates or updates the project's setting; `integrated` keeps its value (default true) when undefined. */
export function upsertErrorTrackingSetting(
  db: Db,
  projectId: number,
  enabled: boolean,
  integrated: boolean | undefined,
): ErrorTrackingSettingRow {
  const now = nowIso()
  db.prepare(
    `INSERT INTO error_tracking_settings (project_id, enabled, integrated, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (project_id) DO UPDATE SET enabled = excluded.enabled, integrated = COALESCE(?, integrated), updated_at = excluded.updated_at`,
  ).run(
    projectId,
    enabled ? 1 : 0,
    integrated === false ? 0 : 1,
    now,
    now,
    integrated === undefined ? null : integrated ? 1 : 0,
  )
  return findErrorTrackingSetting(db, projectId) as ErrorTrackingSettingRow
}

type StoredClientKey = Omit<ClientKeyRow, 'public_key'> & { readonly encrypted_public_key: string }

function openedKey(secrets: SecretBox, { encrypted_public_key: sealed, ...row }: StoredClientKey): ClientKeyRow {
  return { ...row, public_key: secrets.open(sealed) }
}

export function listClientKeys(
  db: Db,
  secrets: SecretBox,
  projectId: number,
  page: { readonly limit: number; readonly offset: number },
): { rows: ClientKeyRow[]; total: number } {
  const total = (
    db.prepare('SELECT COUNT(*) AS n FROM error_tracking_client_keys WHERE project_id = ?').get(projectId) as {
      n: number
    }
  ).n
  const rows = db
    .prepare('SELECT * FROM error_tracking_client_keys WHERE project_id = ? ORDER BY id LIMIT ? OFFSET ?')
    .all(projectId, page.limit, page.offset) as StoredClientKey[]
  return { rows: rows.map((row) => openedKey(secrets, row)), total }
}

export function findClientKey(db: Db, secrets: SecretBox, projectId: number, id: number): ClientKeyRow | undefined {
  const row = db
    .prepare('SELECT * FROM error_tracking_client_keys WHERE project_id = ? AND id = ?')
    .get(projectId, id) as StoredClientKey | undefined
  return row && openedKey(secrets, row)
}

export function insertClientKey(db: Db, secrets: SecretBox, projectId: number, publicKey: string): ClientKeyRow {
  const now = nowIso()
  const info = db
    .prepare(
      'INSERT INTO error_tracking_client_keys (project_id, encrypted_public_key, created_at, updated_at) VALUES (?, ?, ?, ?)',
    )
    .run(projectId, secrets.seal(publicKey), now, now)
  return findClientKey(db, secrets, projectId, Number(info.lastInsertRowid)) as ClientKeyRow
}

export function deleteClientKey(db: Db, id: number): void {
  db.prepare('DELETE FROM error_tracking_client_keys WHERE id = ?').run(id)
}
