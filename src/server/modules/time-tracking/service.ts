import type { Caller } from '../../platform/caller'
import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'
import { apiMessage, validationFailed } from '../../platform/http/errors'
import { addSystemNote, issueTarget, mergeRequestTarget, type SystemNoteTarget } from '../notes'
import {
  deleteTimelogs,
  insertTimelog,
  setTrackableEstimate,
  totalTimeSpent,
  trackableEstimate,
  trackableIid,
  type TrackableType,
} from './queries'
import { humanDuration } from './durations'
import { timeStatsOf, type TimeStats } from './entity'

// ---------------------------------------------------------------------------------------------
// Writes (the estimate lives on the trackable's own row, the logs in timelogs), with their system notes.

/** Something whose time is tracked. */
export interface Trackable {
  readonly type: TrackableType
  readonly id: number
  readonly projectId: number
}

/** The time_stats of a trackable: its estimate and the sum of its time logs. */
export function timeStats(db: Db, type: Trackable['type'], id: number): TimeStats {
  return timeStatsOf(trackableEstimate(db, type, id), totalTimeSpent(db, type, id))
}

/** The trackable as system notes name it. */
function trackableTarget(db: Db, t: Trackable): SystemNoteTarget {
  const ref = { id: t.id, iid: trackableIid(db, t.type, t.id) ?? 0, project_id: t.projectId }
  return t.type === 'Issue' ? issueTarget(ref) : mergeRequestTarget(ref)
}

/** Sets the estimate (seconds, not negative), with its system note. */
export function setTimeEstimate(caller: Caller, t: Trackable, seconds: number): TimeStats {
  if (seconds < 0)
    throw validationFailed({ time_estimate: ['must have a valid format and be greater than or equal to zero.'] })
  const db = caller.db
  const user = caller.user
  return db.transaction(() => {
    const before = trackableEstimate(db, t.type, t.id)
    setTrackableEstimate(db, t.type, t.id, seconds)
    if (user) noteTimeEstimate(db, trackableTarget(db, t), user.id, before, seconds)
    return timeStats(db, t.type, t.id)
  })()
}

/** Clears the estimate. */
export function resetTimeEstimate(caller: Caller, t: Trackable): TimeStats {
  return setTimeEstimate(caller, t, 0)
}

/** Logs time spent (negative subtracts, but never below zero in total). */
export function addSpentTime(caller: Caller, t: Trackable, seconds: number, summary?: string | null): TimeStats {
  const user = caller.user
  if (!user) throw apiMessage(401, '401 Unauthorized')
  const db = caller.db
  return db.transaction(() => {
    if (totalTimeSpent(db, t.type, t.id) + seconds < 0)
      throw validationFailed({ base: ['Time to subtract exceeds the total time spent'] })
    insertTimelog(db, {
      type: t.type,
      id: t.id,
      projectId: t.projectId,
      userId: user.id,
      seconds,
      summary: summary ?? null,
    })
    noteTimeSpent(db, trackableTarget(db, t), user.id, { seconds, spentAt: nowIso() })
    return timeStats(db, t.type, t.id)
  })()
}

/** Removes every time log of the trackable, with its system note. */
export function resetSpentTime(caller: Caller, t: Trackable): TimeStats {
  const db = caller.db
  const user = caller.user
  return db.transaction(() => {
    deleteTimelogs(db, t.type, t.id)
    if (user) noteTimeSpent(db, trackableTarget(db, t), user.id, 'reset')
    return timeStats(db, t.type, t.id)
  })()
}

/** Time estimate set, changed or removed (seconds before and after). */
function noteTimeEstimate(db: Db, target: SystemNoteTarget, actorId: number, before: number, after: number): void {
  if (before === after) return
  let body: string
  if (before === 0) body = `added time estimate of ${humanDuration(after)}`
  else if (after === 0) body = `removed time estimate of ${humanDuration(before)}`
  else body = `changed time estimate to ${humanDuration(after)} from ${humanDuration(before)}`
  addSystemNote(db, target, actorId, body, 'time_tracking')
}

/** Time logged (negative: subtracted) at `spentAt`, or every log removed (`reset`). */
function noteTimeSpent(
  db: Db,
  target: SystemNoteTarget,
  actorId: number,
  spent: { readonly seconds: number; readonly spentAt: string } | 'reset',
): void {
  if (spent === 'reset') {
    addSystemNote(db, target, actorId, 'removed time spent', 'time_tracking')
    return
  }
  const at = spent.spentAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')
  addSystemNote(
    db,
    target,
    actorId,
    `${spent.seconds > 0 ? 'added' : 'subtracted'} ${humanDuration(Math.abs(spent.seconds))} of time spent at ${at}`,
    'time_tracking',
  )
}
