import { randomBytes } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import {
  deleteClientKey,
  findErrorTrackingSetting,
  insertClientKey,
  upsertErrorTrackingSetting,
  type ClientKeyRow,
  type ErrorTrackingSettingRow,
} from './queries'
import type { ProjectRow } from '../../platform/db/rows'
import { recordProjectChange } from '../projects/changes'

/** A new client public key with GitLab's `glet_` prefix (16 random bytes, hex). */
export function generatePublicKey(): string {
  return `glet_${randomBytes(16).toString('hex')}`
}

/** Turns error tracking on or off (creating the project's setting the first time) and records it. */
export function updateErrorTrackingSetting(
  request: FastifyRequest,
  project: ProjectRow,
  active: boolean,
  integrated: boolean | undefined,
): ErrorTrackingSettingRow {
  const db = request.server.burrow.db
  return db.transaction(() => {
    const before = findErrorTrackingSetting(db, project.id)
    const after = upsertErrorTrackingSetting(db, project.id, active, integrated)
    const changes: string[] = []
    if (before?.enabled !== after.enabled) changes.push(`active ${after.enabled === 1}`)
    if (before?.integrated !== after.integrated) changes.push(`integrated ${after.integrated === 1}`)
    if (changes.length > 0) {
      recordProjectChange(request, project, {
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

/** Generates a client key; the public key itself stays out of the audit log. */
export function createClientKey(request: FastifyRequest, project: ProjectRow): ClientKeyRow {
  const db = request.server.burrow.db
  return db.transaction(() => {
    const key = insertClientKey(db, request.server.burrow.secrets, project.id, generatePublicKey())
    recordProjectChange(request, project, {
      targetType: 'ErrorTracking::ClientKey',
      targetId: key.id,
      targetTitle: `client key ${key.id}`,
      audit: { add: 'error_tracking_client_key', custom_message: `Created error tracking client key ${key.id}` },
    })
    return key
  })()
}

export function destroyClientKey(request: FastifyRequest, project: ProjectRow, key: ClientKeyRow): void {
  const db = request.server.burrow.db
  db.transaction(() => {
    deleteClientKey(db, key.id)
    recordProjectChange(request, project, {
      targetType: 'ErrorTracking::ClientKey',
      targetId: key.id,
      targetTitle: `client key ${key.id}`,
      audit: { remove: 'error_tracking_client_key', custom_message: `Deleted error tracking client key ${key.id}` },
    })
  })()
}
