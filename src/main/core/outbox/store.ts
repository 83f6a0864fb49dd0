import type Database from 'better-sqlite3'
import type {
  Mutation,
  OutboxBase,
  OutboxConflict,
  OutboxEntry,
  OutboxState,
  OutboxTarget,
} from '../../../shared/ipc/outbox'

/** The desktop cache database (cache/database.ts `openCacheDatabase`), which holds the outbox's table. */
export type Db = Database.Database

/** States an entry leaves only through a send, a check, or the user. */
export const UNSETTLED: readonly OutboxState[] = ['queued', 'sending', 'failed', 'conflict', 'unknown-outcome']
/** Final states: the entry is kept a while for the record, then pruned. */
export const SETTLED: readonly OutboxState[] = ['done', 'reconciled', 'discarded']

/**
 * Facts written together with `sending`, so that after a crash the check of an unknown outcome
 * knows what the server looked like just before the request.
 */
export interface Progress {
  /** Total spent time on the item before an add-spent-time request. */
  readonly spentBefore?: number
}

/** Ids the server gave back. */
export interface EntryResult {
  readonly noteId?: number
  readonly todoId?: number
  /** A creation's new item. */
  readonly iid?: number
  readonly itemId?: number
}

/** An entry with the columns only core reads. */
export interface StoredEntry extends OutboxEntry {
  readonly itemKey: string
  readonly progress: Progress | null
  readonly result: EntryResult | null
  readonly nextAttemptAt: string | null
}

interface Row {
  id: number
  account_id: string
  item_key: string
  target: string
  kind: string
  mutation: string
  base: string | null
  state: OutboxState
  reason: string | null
  status: number | null
  conflict: string | null
  progress: string | null
  result: string | null
  attempts: number
  next_attempt_at: string | null
  created_at: string
  updated_at: string
  sent_at: string | null
  settled_at: string | null
  blocked_by: number | null
}

const parse = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T))

function toEntry(row: Row): StoredEntry {
  return {
    id: row.id,
    accountId: row.account_id,
    target: JSON.parse(row.target) as OutboxTarget,
    mutation: JSON.parse(row.mutation) as Mutation,
    base: parse<OutboxBase>(row.base),
    state: row.state,
    reason: row.reason,
    status: row.status,
    conflict: parse<OutboxConflict>(row.conflict),
    attempts: row.attempts,
    blockedBy: row.blocked_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    sentAt: row.sent_at,
    settledAt: row.settled_at,
    itemKey: row.item_key,
    progress: parse<Progress>(row.progress),
    result: parse<EntryResult>(row.result),
    nextAttemptAt: row.next_attempt_at,
  }
}

/** What groups the writes of one item (they are sent in order, and wait behind an unsettled one). */
export function itemKeyOf(target: OutboxTarget): string {
  switch (target.type) {
    case 'todo':
      return `todo:${target.todoId}`
    case 'commit':
      return `commit:${target.projectId}:${target.sha}`
    default:
      return `${target.type}:${target.projectId}:${target.iid}`
  }
}

/** The fields of a transition; absent ones are left as they are, `null` clears. */
export interface Transition {
  readonly state: OutboxState
  readonly reason?: string | null
  readonly status?: number | null
  readonly conflict?: OutboxConflict | null
  readonly progress?: Progress | null
  readonly result?: EntryResult | null
  readonly base?: OutboxBase | null
  readonly mutation?: Mutation
  readonly nextAttemptAt?: string | null
  readonly countAttempt?: boolean
  readonly sent?: boolean
}

// An entry waits behind the earliest earlier entry of its item that is stuck (failed, in
// conflict, or of unknown outcome); a queued earlier entry is simply sent first.
const BLOCKED_BY = `(SELECT p.id FROM outbox_entries p WHERE p.account_id = e.account_id AND p.item_key = e.item_key AND p.id < e.id
  AND p.settled_at IS NULL AND p.state IN ('failed', 'conflict', 'unknown-outcome') ORDER BY p.id LIMIT 1) AS blocked_by`

/** SQL of the outbox table (migration 50 of the cache database). Synchronous, like better-sqlite3. */
export class OutboxStore {
  constructor(readonly db: Db) {}

  insert(
    entry: { accountId: string; target: OutboxTarget; mutation: Mutation; base: OutboxBase | null },
    now: string,
  ): StoredEntry {
    const info = this.db
      .prepare(
        `INSERT INTO outbox_entries (account_id, item_key, target, kind, mutation, base, state, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'queued', ?, ?)`,
      )
      .run(
        entry.accountId,
        itemKeyOf(entry.target),
        JSON.stringify(entry.target),
        entry.mutation.kind,
        JSON.stringify(entry.mutation),
        entry.base === null ? null : JSON.stringify(entry.base),
        now,
        now,
      )
    return this.require(Number(info.lastInsertRowid))
  }

  get(id: number): StoredEntry | undefined {
    const row = this.db.prepare(`SELECT e.*, ${BLOCKED_BY} FROM outbox_entries e WHERE e.id = ?`).get(id) as
      Row | undefined
    return row === undefined ? undefined : toEntry(row)
  }

  require(id: number): StoredEntry {
    const entry = this.get(id)
    if (entry === undefined) throw new Error(`outbox entry ${id} vanished`)
    return entry
  }

  /** Unsettled entries (and with `includeSettled`, the last 200 settled ones), oldest first. */
  list(filter: { accountId?: string; includeSettled?: boolean } = {}): StoredEntry[] {
    const where = filter.accountId === undefined ? '' : 'AND e.account_id = @accountId'
    const unsettled = this.db
      .prepare(`SELECT e.*, ${BLOCKED_BY} FROM outbox_entries e WHERE e.settled_at IS NULL ${where} ORDER BY e.id`)
      .all({ accountId: filter.accountId }) as Row[]
    if (filter.includeSettled !== true) return unsettled.map(toEntry)
    const settled = this.db
      .prepare(
        `SELECT * FROM (SELECT e.*, NULL AS blocked_by FROM outbox_entries e WHERE e.settled_at IS NOT NULL ${where} ORDER BY e.settled_at DESC, e.id DESC LIMIT 200)`,
      )
      .all({ accountId: filter.accountId }) as Row[]
    return [...unsettled, ...settled].sort((a, b) => a.id - b.id).map(toEntry)
  }

  /** Accounts with entries still to send or check. */
  accountsWithWork(): string[] {
    return this.db
      .prepare(`SELECT DISTINCT account_id FROM outbox_entries WHERE state IN ('queued', 'unknown-outcome', 'sending')`)
      .pluck()
      .all() as string[]
  }

  /** Whether the account has entries still to send or check. */
  hasWork(accountId: string): boolean {
    return (
      this.db
        .prepare(
          `SELECT 1 FROM outbox_entries WHERE account_id = ? AND state IN ('queued', 'unknown-outcome', 'sending') LIMIT 1`,
        )
        .get(accountId) !== undefined
    )
  }

  /**
   * The next entry of the account to send or check, FIFO: the oldest queued or unknown-outcome
   * entry that is the first unsettled entry of its item (so nothing overtakes an earlier write
   * of the same item, and a stuck one holds back only its own item), and not waiting for a
   * back-off after a transient error.
   */
  nextRunnable(accountId: string, now: string): StoredEntry | undefined {
    const row = this.db
      .prepare(
        `SELECT e.*, NULL AS blocked_by FROM outbox_entries e
         WHERE e.account_id = ? AND e.state IN ('queued', 'unknown-outcome') AND (e.next_attempt_at IS NULL OR e.next_attempt_at <= ?)
           AND NOT EXISTS (SELECT 1 FROM outbox_entries p WHERE p.account_id = e.account_id AND p.item_key = e.item_key AND p.id < e.id AND p.settled_at IS NULL)
         ORDER BY e.id LIMIT 1`,
      )
      .get(accountId, now) as Row | undefined
    return row === undefined ? undefined : toEntry(row)
  }

  /** The earliest back-off deadline still ahead among the account's entries waiting for one, if any. */
  nextWakeUp(accountId: string, now: string): string | null {
    return (
      (this.db
        .prepare(
          `SELECT MIN(next_attempt_at) FROM outbox_entries WHERE account_id = ? AND state IN ('queued', 'unknown-outcome') AND next_attempt_at > ?`,
        )
        .pluck()
        .get(accountId, now) as string | null) ?? null
    )
  }

  /** Unsettled entries after this one for the same item. */
  laterOfItem(entry: StoredEntry): StoredEntry[] {
    const rows = this.db
      .prepare(
        `SELECT e.*, ${BLOCKED_BY} FROM outbox_entries e WHERE e.account_id = ? AND e.item_key = ? AND e.id > ? AND e.settled_at IS NULL ORDER BY e.id`,
      )
      .all(entry.accountId, entry.itemKey, entry.id) as Row[]
    return rows.map(toEntry)
  }

  /**
   * Moves an entry to a new state if it is in one of `from`; returns the updated entry, or
   * undefined when it was not (another path moved it first, e.g. the user discarded it).
   */
  transition(id: number, from: readonly OutboxState[], t: Transition, now: string): StoredEntry | undefined {
    const sets = ['state = @state', 'updated_at = @now']
    const params: Record<string, unknown> = { id, state: t.state, now }
    const json = (key: keyof Transition, column: string): void => {
      if (t[key] === undefined) return
      sets.push(`${column} = @${column}`)
      params[column] = t[key] === null ? null : JSON.stringify(t[key])
    }
    if (t.reason !== undefined) {
      sets.push('reason = @reason')
      params.reason = t.reason
    }
    if (t.status !== undefined) {
      sets.push('status = @status')
      params.status = t.status
    }
    json('conflict', 'conflict')
    json('progress', 'progress')
    json('result', 'result')
    json('base', 'base')
    json('mutation', 'mutation')
    if (t.nextAttemptAt !== undefined) {
      sets.push('next_attempt_at = @next_attempt_at')
      params.next_attempt_at = t.nextAttemptAt
    }
    if (t.countAttempt === true) sets.push('attempts = attempts + 1')
    if (t.sent === true) sets.push('sent_at = @now')
    sets.push(SETTLED.includes(t.state) ? 'settled_at = @now' : 'settled_at = NULL')
    const placeholders = from.map((_, i) => `@from${i}`).join(', ')
    from.forEach((s, i) => (params[`from${i}`] = s))
    const info = this.db
      .prepare(`UPDATE outbox_entries SET ${sets.join(', ')} WHERE id = @id AND state IN (${placeholders})`)
      .run(params)
    return info.changes === 1 ? this.require(id) : undefined
  }

  /**
   * At start: an entry still `sending` was cut off by a crash or a kill while its request was
   * out; whether the server got it is unknown, so it is checked by reading, never resent blindly.
   */
  markInterrupted(now: string): StoredEntry[] {
    const ids = this.db.prepare(`SELECT id FROM outbox_entries WHERE state = 'sending'`).pluck().all() as number[]
    const reason = 'Burrow stopped while this was being sent; checking the server before doing anything else.'
    return ids
      .map((id) => this.transition(id, ['sending'], { state: 'unknown-outcome', reason }, now))
      .filter((e): e is StoredEntry => e !== undefined)
  }

  /** Note ids that settled comments of this item already account for (so one note is never claimed twice). */
  claimedNoteIds(accountId: string, itemKey: string, exceptId: number): Set<number> {
    const rows = this.db
      .prepare(
        `SELECT result FROM outbox_entries WHERE account_id = ? AND item_key = ? AND id <> ? AND kind IN ('comment', 'reply') AND result IS NOT NULL`,
      )
      .pluck()
      .all(accountId, itemKey, exceptId) as string[]
    const ids = new Set<number>()
    for (const r of rows) {
      const noteId = (JSON.parse(r) as EntryResult).noteId
      if (noteId !== undefined) ids.add(noteId)
    }
    return ids
  }

  /**
   * Points an entry at another item (a creation's temporary iid when it is stored, the real iid
   * once the creation lands), its item key with it.
   */
  retarget(id: number, target: OutboxTarget): StoredEntry {
    this.db
      .prepare('UPDATE outbox_entries SET target = ?, item_key = ? WHERE id = ?')
      .run(JSON.stringify(target), itemKeyOf(target), id)
    return this.require(id)
  }

  /** Iids that other creations of this kind in this project already account for (so one item is never claimed twice). */
  claimedCreatedIids(accountId: string, kind: string, projectId: number, exceptId: number): Set<number> {
    const rows = this.db
      .prepare(
        `SELECT result FROM outbox_entries WHERE account_id = ? AND kind = ? AND id <> ? AND result IS NOT NULL
           AND json_extract(target, '$.projectId') = ?`,
      )
      .pluck()
      .all(accountId, kind, exceptId, projectId) as string[]
    const iids = new Set<number>()
    for (const r of rows) {
      const iid = (JSON.parse(r) as EntryResult).iid
      if (iid !== undefined) iids.add(iid)
    }
    return iids
  }

  /** Forgets settled entries older than the cutoff. */
  prune(before: string): number {
    return this.db.prepare('DELETE FROM outbox_entries WHERE settled_at IS NOT NULL AND settled_at < ?').run(before)
      .changes
  }
}
