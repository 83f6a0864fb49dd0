import { randomBytes } from 'node:crypto'
import type { Caller } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'
import type { Page } from '../../platform/http/pagination'
import { recordProjectChange } from '../projects'
import {
  deleteClientKey,
  findClientKey,
  findErrorTrackingSetting,
  insertClientKey,
  listClientKeys,
  upsertErrorTrackingSetting,
  type ClientKeyRow,
  type ErrorTrackingSettingRow,
} from './queries'

/** A new client public key with GitLab's `glet_` prefix (16 random bytes, hex). */
export function generatePublicKey(): string {
  return `glet_${randomBytes(16).toString('hex')}`
}

/** The project's error tracking setting, or undefined before it was first set. */
export function errorTrackingSetting(caller: Caller, project: ProjectRow): ErrorTrackingSettingRow | undefined {
  return findErrorTrackingSetting(caller.db, project.id)
}

/** Turns error tracking on or off (creating the project's setting the first time) and records it. */
export function updateErrorTrackingSetting(
  caller: Caller,
  project: ProjectRow,
  active: boolean,
  integrated: boolean | undefined,
): ErrorTrackingSettingRow {
  const db = caller.db
  return db.transaction(() => {
    const before = findErrorTrackingSetting(db, project.id)
    const after = upsertErrorTrackingSetting(db, project.id, active, integrated)
    const changes: string[] = []
    if (before?.enabled !== after.enabled) changes.push(`active ${after.enabled === 1}`)
    if (before?.integrated !== after.integrated) changes.push(`integrated ${after.integrated === 1}`)
    if (changes.length > 0) {
      recordProjectChange(caller, project, {
        targetType: 'ErrorTracking::ProjectErrorTrackingSetting',
        targetId: project.id,
        targetTitle: 'error tracking',
        audit: {
          change: 'error_tracking_setting',
          custom_message: `Changed error tracking settings: ${changes.join(', ')}`,
        },
      })
    }
    return after
  })()
}

/** One page of the project's client keys, their public keys opened, with the total count. */
export function clientKeysPage(
  caller: Caller,
  project: ProjectRow,
  page: Page,
): { readonly rows: ClientKeyRow[]; readonly total: number } {
  return listClientKeys(caller.db, caller.ctx.secrets, project.id, { limit: page.perPage, offset: page.offset })
}

/** The project's client key with this id, or undefined. */
export function clientKey(caller: Caller, project: ProjectRow, id: number): ClientKeyRow | undefined {
  return findClientKey(caller.db, caller.ctx.secrets, project.id, id)
}

/** Generates a client key; the public key itself stays out of the audit log. */
export function createClientKey(caller: Caller, project: ProjectRow): ClientKeyRow {
  const db = caller.db
  return db.transaction(() => {
    const key = insertClientKey(db, caller.ctx.secrets, project.id, generatePublicKey())
    recordProjectChange(caller, project, {
      targetType: 'ErrorTracking::ClientKey',
      targetId: key.id,
      targetTitle: `client key ${key.id}`,
      audit: { add: 'error_tracking_client_key', custom_message: `Created error tracking client key ${key.id}` },
    })
    return key
  })()
}

/** Deletes a client key and records it. */
export function destroyClientKey(caller: Caller, project: ProjectRow, key: ClientKeyRow): void {
  const db = caller.db
  db.transaction(() => {
    deleteClientKey(db, key.id)
    recordProjectChange(caller, project, {
      targetType: 'ErrorTracking::ClientKey',
      targetId: key.id,
      targetTitle: `client key ${key.id}`,
      audit: { remove: 'error_tracking_client_key', custom_message: `Deleted error tracking client key ${key.id}` },
    })
  })()
}
