import type { DraftInput, ItemRef } from '../../../shared/ipc/outbox'
import type { Db } from './store'

/** A draft kept on this computer, with its row id. */
export interface LocalDraft {
  readonly id: number
  readonly draft: DraftInput
  readonly createdAt: string
}

interface Row {
  id: number
  draft: string
  created_at: string
}

/**
 * The drafts of pending reviews written while the server could not be reached, in the cache
 * database (migration 60), so they outlive a restart. A submission takes them (`take`) in the
 * transaction that queues it.
 */
export class LocalDraftStore {
  constructor(private readonly db: Db) {}

  add(accountId: string, item: ItemRef, draft: DraftInput, now: string): LocalDraft {
    const info = this.db
      .prepare('INSERT INTO review_drafts (account_id, project_id, iid, draft, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(accountId, item.projectId, item.iid, JSON.stringify(draft), now)
    return { id: Number(info.lastInsertRowid), draft, createdAt: now }
  }

  /** The item's drafts, in the order written. */
  list(accountId: string, item: ItemRef): LocalDraft[] {
    const rows = this.db
      .prepare(
        'SELECT id, draft, created_at FROM review_drafts WHERE account_id = ? AND project_id = ? AND iid = ? ORDER BY id',
      )
      .all(accountId, item.projectId, item.iid) as Row[]
    return rows.map((r) => ({ id: r.id, draft: JSON.parse(r.draft) as DraftInput, createdAt: r.created_at }))
  }

  /** Deletes one of the item's drafts; false when it has no such draft. */
  remove(accountId: string, item: ItemRef, id: number): boolean {
    return (
      this.db
        .prepare('DELETE FROM review_drafts WHERE id = ? AND account_id = ? AND project_id = ? AND iid = ?')
        .run(id, accountId, item.projectId, item.iid).changes > 0
    )
  }

  /** Removes and returns the item's drafts (inside the caller's transaction). */
  take(accountId: string, item: ItemRef): LocalDraft[] {
    const drafts = this.list(accountId, item)
    this.db
      .prepare('DELETE FROM review_drafts WHERE account_id = ? AND project_id = ? AND iid = ?')
      .run(accountId, item.projectId, item.iid)
    return drafts
  }
}
