import type { Db } from '../../platform/db/connection'
import { deleteEventsBefore, insertEvent, touchProjectActivity } from './queries'
import type { EventNote } from '../../../shared/api/note'

/** Stored event actions (GitLab's Event actions). The API's `action_name` is derived from them. */
export type EventAction =
  | 'created'
  | 'updated'
  | 'closed'
  | 'reopened'
  | 'pushed'
  | 'commented'
  | 'merged'
  | 'joined'
  | 'left'
  | 'destroyed'
  | 'expired'
  | 'approved'

/**
 * Target types as returned in `target_type` (the filter accepts their lowercase forms): GitLab's
 * Event targets only. Operations resources (environments, clusters, Pages domains, error tracking,
 * alerts, vulnerabilities) and storage moves get audit events, never activity events.
 */
export type EventTargetType =
  | 'Issue'
  | 'Milestone'
  | 'MergeRequest'
  | 'Note'
  | 'DiffNote'
  | 'DiscussionNote'
  | 'Project'
  | 'Snippet'
  | 'User'
  | 'Epic'
  | 'WikiPage::Meta'
  | 'DesignManagement::Design'

export interface PushData {
  readonly commit_count: number
  readonly action: 'pushed' | 'created' | 'removed'
  readonly ref_type: 'branch' | 'tag'
  readonly commit_from: string | null
  readonly commit_to: string | null
  readonly ref: string
  readonly commit_title: string | null
  readonly ref_count?: number | null
}

export interface NewEvent {
  readonly authorId: number
  readonly action: EventAction
  readonly projectId?: number | null
  readonly groupId?: number | null
  readonly targetType?: EventTargetType | null
  readonly targetId?: number | null
  readonly targetIid?: number | null
  readonly targetTitle?: string | null
  readonly pushData?: PushData | null
  /** The note as the event shows it (notes' `eventNote`), for `commented` events: stored whole, served as stored. */
  readonly note?: EventNote | null
  readonly data?: Readonly<Record<string, unknown>> | null
}

/** Told of every recorded activity event (webhooks follow issues, merge requests and notes this way). */
export type EventListener = (event: NewEvent) => void

const listeners = new WeakMap<Db, EventListener[]>()

/** Subscribes to the activity events recorded in one server's database. */
export function onEventRecorded(db: Db, listener: EventListener): void {
  const list = listeners.get(db) ?? []
  if (!list.includes(listener)) listeners.set(db, [...list, listener])
}

/**
 * Records one activity event and moves its project's `last_activity_at`, then tells the listeners
 * (a failing one stops neither the others nor the operation). Operations call this; the Events
 * endpoints read them.
 */
export function recordEvent(db: Db, e: NewEvent): number {
  const id = insertEvent(db, e)
  if (e.projectId) touchProjectActivity(db, e.projectId)
  for (const listener of listeners.get(db) ?? []) {
    try {
      listener(e)
    } catch (error) {
      process.emitWarning(`event listener failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  return id
}

/** Deletes activity events older than three years (GitLab keeps three years). Returns how many. */
export function pruneOldEvents(db: Db, now = new Date()): number {
  const cutoff = new Date(now)
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - 3)
  return deleteEventsBefore(db, cutoff.toISOString())
}
