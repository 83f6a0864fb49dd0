import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'

/** What carries time tracking; the estimate is a column of the trackable's own table. */
export type TrackableType = 'Issue' | 'MergeRequest'

const TABLES: Readonly<Record<TrackableType, string>> = { Issue: 'issues', MergeRequest: 'merge_requests' }

/** The estimate (seconds) of a trackable, 0 when it is gone. */
export function trackableEstimate(db: Db, type: TrackableType, id: number): number {
  return (
    (
      db.prepare(`SELECT time_estimate FROM ${TABLES[type]} WHERE id = ?`).get(id) as
        { time_estimate: number } | undefined
    )?.time_estimate ?? 0
  )
}

/** The iid of a trackable, or undefined when it is gone. */
export function trackableIid(db: Db, type: TrackableType, id: number): number | undefined {
  return (db.prepare(`SELECT iid FROM ${TABLES[type]} WHERE id = ?`).get(id) as { iid: number } | undefined)?.iid
}

/** Sum of the time logs of a trackable (seconds). */
export function totalTimeSpent(db: Db, type: TrackableType, id: number): number {
  return (
    db
      .prepare('SELECT COALESCE(SUM(time_spent), 0) AS s FROM timelogs WHERE trackable_type = ? AND trackable_id = ?')
      .get(type, id) as { s: number }
  ).s
}

/** Sets the estimate and bumps updated_at. */
export function setTrackableEstimate(db: Db, type: TrackableType, id: number, seconds: number): void {
  db.prepare(`UPDATE ${TABLES[type]} SET time_estimate = ?, updated_at = ? WHERE id = ?`).run(seconds, nowIso(), id)
}

/** Logs time spent (may be negative) and bumps the trackable's updated_at. */
export function insertTimelog(
  db: Db,
  t: {
    readonly type: TrackableType
    readonly id: number
    readonly projectId: number
    readonly userId: number
    readonly seconds: number
    readonly summary: string | null
  },
): void {
  const now = nowIso()
  db.prepare(
    'INSERT INTO timelogs (trackable_type, trackable_id, project_id, user_id, time_spent, spent_at, summary, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(t.type, t.id, t.projectId, t.userId, t.seconds, now, t.summary, now)
  db.prepare(`UPDATE ${TABLES[t.type]} SET updated_at = ? WHERE id = ?`).run(now, t.id)
}

/** Removes every time log of a trackable and bumps its updated_at. */
export function deleteTimelogs(db: Db, type: TrackableType, id: number): void {
  db.prepare('DELETE FROM timelogs WHERE trackable_type = ? AND trackable_id = ?').run(type, id)
  db.prepare(`UPDATE ${TABLES[type]} SET updated_at = ? WHERE id = ?`).run(nowIso(), id)
}
