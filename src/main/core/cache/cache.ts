import type { Statement } from 'better-sqlite3'
import type { CacheDb } from './database'
import { bool, isRecord, mergePatch, num, str, type JsonObject } from './json'
import {
  embeddedUsers,
  itemUsers,
  KINDS,
  labelTitles,
  NOTEABLE_KINDS,
  noteParentKind,
  type ColumnValue,
  type ItemKind,
  type NoteableKind,
} from './kinds'
import { jsonWithoutSecrets } from './secrets'

/** What one `cache:did-change` announces: the kinds touched, and where. */
export interface CacheChange {
  readonly accountId: string
  readonly kinds: readonly ChangeKind[]
  readonly projectIds: readonly number[]
  readonly groupIds: readonly number[]
  /** True when the change is (or undoes) an optimistic outbox change rather than server data. */
  readonly optimistic: boolean
}

export type ChangeKind = ItemKind | 'label' | 'discussion'

/** Which item an optimistic change touches: its global id, or its iid in a project (issues, merge requests) or group (epics). */
export type ItemKey =
  | { readonly id: number }
  | { readonly projectId: number; readonly iid: number }
  | { readonly groupId: number; readonly iid: number }

/** The item kinds the outbox may patch. */
export type PatchableKind = 'issue' | 'merge_request' | 'epic' | 'milestone' | 'todo' | 'note'

export interface UpsertResult {
  /** Items new to the cache or whose server JSON changed, with the `updated_at` they had before (null when new). */
  readonly changed: readonly {
    readonly id: number
    readonly previousUpdatedAt: string | null
    readonly json: JsonObject
  }[]
  readonly unchanged: number
}

interface ChangeAccumulator {
  kinds: Set<ChangeKind>
  projectIds: Set<number>
  groupIds: Set<number>
  optimistic: boolean
}

/** What `search:query` filters search documents by: their item's project (issues, merge requests), group (epics) and state. */
interface SearchFacets {
  readonly projectId: number | null
  readonly groupId: number | null
  readonly state: string | null
}

/** WAL pages (4 KiB each: 32 MiB) after which a checkpoint runs during `bulkWrites`. */
const BULK_CHECKPOINT_PAGES = 8192

const isNoteable = (kind: ItemKind): kind is NoteableKind => (NOTEABLE_KINDS as readonly string[]).includes(kind)

/** SQLite refused a row for a unique index (its statement alone was undone; the transaction goes on). */
const isUniqueViolation = (error: unknown): boolean =>
  error instanceof Error && (error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE'

/**
 * The desktop cache of every account: one SQLite file, rows keyed by account. Sync writes
 * server data through `upsert`/`remove`/`replace…`; the outbox layers optimistic changes on
 * top with `applyOptimistic`/`clearPending` (optimistic contract in docs/architecture.md,
 * "Desktop core"). Reads live in lists.ts, search.ts and http-cache.ts.
 *
 * Every write inside `transaction()` is announced once, after the commit, to `onDidChange`
 * listeners (handlers.ts turns them into `cache:did-change` events).
 */
export class Cache {
  private readonly accts = new Map<string, number>()
  private readonly listeners = new Set<(change: CacheChange) => void>()
  private readonly changes = new Map<number, ChangeAccumulator>()
  private depth = 0
  private readonly stmts = new Map<string, Statement>()
  /** `rowUpsert`'s statements, by kind and variant. */
  private readonly rowUpserts = new Map<string, Statement>()
  /** Search documents were inserted in the open transaction: index them before it commits. */
  private searchPending = false
  /** Bursts of writes running (`bulkWrites`), and the WAL checkpoint interval to restore after them. */
  private bulkWriters = 0
  private checkpointPages = 1000

  constructor(readonly db: CacheDb) {
    // Documents a deferred transaction left unindexed (a sync stopped in the middle of a list) are indexed now.
    this.searchPending = this.hasPendingSearchDocs()
    if (this.searchPending) db.transaction(() => this.indexPendingSearchDocs())()
  }

  /**
   * Indexes the search documents that deferred transactions left pending (see `transaction`),
   * and announces their items' kinds and places again: searches made meanwhile did not find them.
   */
  indexSearchDocs(): void {
    if (!this.searchPending) return
    this.transaction(() => {
      const indexed = this.stmt(
        'SELECT DISTINCT d.acct, d.kind, d.project_id, d.group_id FROM search_pending p JOIN search_docs d ON d.rowid = p.rowid',
      ).all() as { acct: number; kind: ChangeKind; project_id: number | null; group_id: number | null }[]
      for (const d of indexed)
        this.noteChange(d.acct, d.kind, { project_id: d.project_id, group_id: d.group_id }, false)
    })
  }

  /** The small integer standing for an account in every row; created on first use. */
  acct(accountId: string): number {
    const known = this.accts.get(accountId)
    if (known !== undefined) return known
    this.db.prepare('INSERT OR IGNORE INTO cache_accounts (account_id) VALUES (?)').run(accountId)
    const acct = this.db
      .prepare('SELECT acct FROM cache_accounts WHERE account_id = ?')
      .pluck()
      .get(accountId) as number
    this.accts.set(accountId, acct)
    return acct
  }

  /** The account's acct when it has rows, without creating one (reads of an unknown account find nothing). */
  existingAcct(accountId: string): number | null {
    const known = this.accts.get(accountId)
    if (known !== undefined) return known
    const acct = this.db.prepare('SELECT acct FROM cache_accounts WHERE account_id = ?').pluck().get(accountId) as
      number | undefined
    if (acct === undefined) return null
    this.accts.set(accountId, acct)
    return acct
  }

  accountIdOf(acct: number): string {
    for (const [id, a] of this.accts) if (a === acct) return id
    return this.db.prepare('SELECT account_id FROM cache_accounts WHERE acct = ?').pluck().get(acct) as string
  }

  /** Returns the unsubscribe function. */
  onDidChange(listener: (change: CacheChange) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /**
   * Runs `fn` in one transaction (nested calls join the outer one); change events go out after
   * the outermost commit. The search documents it wrote are indexed before it commits, unless
   * `deferSearchIndex`: then they wait (in `search_pending`) for `indexSearchDocs`, or for the
   * next transaction that indexes, so a list written page by page is indexed once at its end.
   */
  transaction<T>(fn: () => T, options: { readonly deferSearchIndex?: boolean } = {}): T {
    if (this.depth > 0) {
      this.depth++
      try {
        return fn()
      } finally {
        this.depth--
      }
    }
    this.depth = 1
    let result: T
    try {
      result = this.db.transaction(() => {
        const value = fn()
        if (options.deferSearchIndex !== true) this.indexPendingSearchDocs()
        return value
      })()
    } catch (error) {
      this.changes.clear()
      // What an earlier deferred transaction left unindexed is still pending.
      this.searchPending = this.hasPendingSearchDocs()
      // An account first seen in the rolled-back transaction has no row any more.
      this.accts.clear()
      throw error
    } finally {
      this.depth = 0
    }
    this.flush()
    return result
  }

  close(): void {
    this.listeners.clear()
    this.db.close()
  }

  /**
   * Runs `work`, a burst of writes such as a sync run, with the WAL checkpointed only when it
   * holds BULK_CHECKPOINT_PAGES, then once when the last such burst ends. SQLite's default
   * (every 1,000 pages) checkpointed the sync bench's first sync sixteen times, each waiting on
   * two fsyncs on the main thread, and copied a page once per transaction that rewrote it (the
   * WAL held twice the pages the database ends with: index leaves are rewritten by most pages
   * of a list); one checkpoint at the end copies each page once. The WAL stays bounded, and a
   * crash meanwhile loses nothing committed (the next open reads the WAL).
   */
  async bulkWrites<T>(work: () => Promise<T>): Promise<T> {
    if (this.bulkWriters++ === 0) {
      this.checkpointPages = this.db.pragma('wal_autocheckpoint', { simple: true }) as number
      this.db.pragma(`wal_autocheckpoint = ${BULK_CHECKPOINT_PAGES}`)
    }
    try {
      return await work()
    } finally {
      if (--this.bulkWriters === 0 && this.db.open) {
        this.db.pragma(`wal_autocheckpoint = ${this.checkpointPages}`)
        this.db.pragma('wal_checkpoint(PASSIVE)')
      }
    }
  }

  // --- server data -------------------------------------------------------------------------

  /**
   * Writes server JSON of one kind. An item with pending optimistic changes keeps them: its
   * server JSON goes to `base_json` and the patches are applied again on top. Items whose
   * server JSON did not change are not rewritten.
   */
  upsert(
    accountId: string,
    kind: ItemKind,
    items: readonly JsonObject[],
    context: { readonly discussionId?: string | null; readonly position?: number } = {},
  ): UpsertResult {
    return this.transaction(() => {
      const acct = this.acct(accountId)
      const spec = KINDS[kind]
      const existing = this.stmt(
        `SELECT json, ${spec.patchable ? 'base_json' : 'NULL AS base_json'}, ${kind === 'project' ? 'NULL' : "json_extract(json, '$.updated_at')"} AS updated_at FROM ${spec.table} WHERE acct = ? AND id = ?`,
      )
      const changed: { id: number; previousUpdatedAt: string | null; json: JsonObject }[] = []
      let unchanged = 0
      const users = new Map<number, JsonObject>()
      for (const received of items) {
        // A project's or group's `runners_token` (and any other secret field) is never saved.
        const { value: json, text } = jsonWithoutSecrets(received)
        const id = num(json, 'id')
        if (id === null) continue
        const row = existing.get(acct, id) as
          { json: string; base_json: string | null; updated_at: string | null } | undefined
        if (row !== undefined && (row.base_json ?? row.json) === text) {
          unchanged++
          // A note answered alone (a comment the outbox sent) learns its thread and place when its discussions are read.
          if (kind === 'note' && context.position !== undefined) this.placeNote(acct, id, context)
          continue
        }
        const patches = spec.patchable && row !== undefined ? this.patchesOf(acct, kind, id) : []
        const effective = patches.reduce<JsonObject>((j, p) => mergePatch(j, p), json)
        this.writeRow(
          acct,
          kind,
          id,
          effective,
          patches.length > 0 ? text : null,
          context,
          row === undefined,
          patches.length === 0 ? text : undefined,
        )
        changed.push({ id, previousUpdatedAt: row?.updated_at ?? null, json })
        this.noteChange(acct, kind, effective, false)
        for (const u of embeddedUsers(json)) users.set(num(u, 'id') as number, u)
      }
      if (users.size > 0 && kind !== 'user') this.upsertUsers(acct, [...users.values()])
      return { changed, unchanged }
    })
  }

  /** Moves a note to its thread and place, when they differ from what the row has. */
  private placeNote(
    acct: number,
    id: number,
    context: { readonly discussionId?: string | null; readonly position?: number },
  ): void {
    this.stmt(
      'UPDATE notes SET discussion_id = ?, position = ? WHERE acct = ? AND id = ? AND (discussion_id IS NOT ? OR position IS NOT ?)',
    ).run(
      context.discussionId ?? null,
      context.position ?? 0,
      acct,
      id,
      context.discussionId ?? null,
      context.position ?? 0,
    )
  }

  /** Removes items (and, for issues, merge requests and epics, their notes, labels, people and search documents). */
  remove(accountId: string, kind: ItemKind, ids: readonly number[]): void {
    if (ids.length === 0) return
    this.transaction(() => {
      const acct = this.acct(accountId)
      const spec = KINDS[kind]
      const where = `acct = ? AND id IN (SELECT value FROM json_each(?))`
      const list = JSON.stringify(ids)
      if (isNoteable(kind)) {
        this.db
          .prepare(
            `DELETE FROM item_labels WHERE acct = ? AND kind = ? AND item_id IN (SELECT value FROM json_each(?))`,
          )
          .run(acct, kind, list)
        this.db
          .prepare(`DELETE FROM item_users WHERE acct = ? AND kind = ? AND item_id IN (SELECT value FROM json_each(?))`)
          .run(acct, kind, list)
        this.db
          .prepare(
            `DELETE FROM search_docs WHERE acct = ? AND parent_kind = ? AND parent_id IN (SELECT value FROM json_each(?))`,
          )
          .run(acct, kind, list)
        this.db
          .prepare(
            `DELETE FROM notes WHERE acct = ? AND noteable_kind = ? AND noteable_id IN (SELECT value FROM json_each(?))`,
          )
          .run(acct, kind, list)
        this.db
          .prepare(
            `DELETE FROM discussions WHERE acct = ? AND noteable_kind = ? AND noteable_id IN (SELECT value FROM json_each(?))`,
          )
          .run(acct, kind, list)
      } else if (kind === 'note') {
        this.db
          .prepare(
            `DELETE FROM search_docs WHERE acct = ? AND kind = 'note' AND item_id IN (SELECT value FROM json_each(?))`,
          )
          .run(acct, list)
      }
      const rows = this.db.prepare(`SELECT json FROM ${spec.table} WHERE ${where}`).pluck().all(acct, list) as string[]
      this.db.prepare(`DELETE FROM ${spec.table} WHERE ${where}`).run(acct, list)
      for (const json of rows) this.noteChange(acct, kind, JSON.parse(json) as JsonObject, false)
      if (rows.length === 0) this.accumulator(acct, false).kinds.add(kind)
    })
  }

  /**
   * Replaces the discussions and notes of one issue, merge request or epic with the server's
   * (`GET …/discussions`, every page). Notes the outbox created optimistically stay until it
   * clears them; notes with pending edits keep their patches.
   */
  replaceDiscussions(
    accountId: string,
    noteableKind: NoteableKind,
    noteableId: number,
    discussions: readonly JsonObject[],
  ): void {
    this.transaction(() => {
      const acct = this.acct(accountId)
      const keepIds = new Set<number>()
      let position = 0
      this.db
        .prepare('DELETE FROM discussions WHERE acct = ? AND noteable_kind = ? AND noteable_id = ?')
        .run(acct, noteableKind, noteableId)
      const insertDiscussion = this.stmt(
        'INSERT OR REPLACE INTO discussions (acct, id, noteable_kind, noteable_id, individual_note, position) VALUES (?, ?, ?, ?, ?, ?)',
      )
      const notes: { json: JsonObject; discussionId: string | null; position: number }[] = []
      for (const d of discussions) {
        const discussionId = str(d, 'id')
        if (discussionId === null) continue
        insertDiscussion.run(acct, discussionId, noteableKind, noteableId, d.individual_note === true ? 1 : 0, position)
        for (const n of Array.isArray(d.notes) ? d.notes : []) {
          if (!isRecord(n) || num(n, 'id') === null) continue
          keepIds.add(num(n, 'id') as number)
          notes.push({ json: { ...n, noteable_id: n.noteable_id ?? noteableId }, discussionId, position: position++ })
        }
      }
      const current = this.db
        .prepare('SELECT id FROM notes WHERE acct = ? AND noteable_kind = ? AND noteable_id = ?')
        .pluck()
        .all(acct, noteableKind, noteableId) as number[]
      const provisional = new Set(
        this.db
          .prepare("SELECT item_id FROM pending_changes WHERE acct = ? AND kind = 'note' AND created_row = 1")
          .pluck()
          .all(acct) as number[],
      )
      const gone = current.filter((id) => !keepIds.has(id) && !provisional.has(id))
      this.remove(accountId, 'note', gone)
      for (const n of notes)
        this.upsert(accountId, 'note', [n.json], { discussionId: n.discussionId, position: n.position })
      this.db
        .prepare(`UPDATE ${KINDS[noteableKind].table} SET notes_stale = 0 WHERE acct = ? AND id = ?`)
        .run(acct, noteableId)
      const acc = this.accumulator(acct, false)
      acc.kinds.add('discussion')
      acc.kinds.add('note')
    })
  }

  /**
   * Makes the cached set of milestones of one project or group, or of the account's to-dos,
   * exactly `items`: upserts them and removes the rows of that scope the server no longer lists.
   */
  replaceSet(
    accountId: string,
    kind: 'milestone' | 'todo',
    scope: { readonly projectId: number } | { readonly groupId: number } | 'account',
    items: readonly JsonObject[],
  ): void {
    this.transaction(() => {
      const acct = this.acct(accountId)
      this.upsert(accountId, kind, items)
      const keep = JSON.stringify(items.map((i) => num(i, 'id')).filter((id) => id !== null))
      const provisional = `id NOT IN (SELECT item_id FROM pending_changes WHERE acct = ${acct} AND kind = '${kind}' AND created_row = 1)`
      let where = `acct = ? AND id NOT IN (SELECT value FROM json_each(?)) AND ${provisional}`
      const args: unknown[] = [acct, keep]
      if (scope !== 'account') {
        where += 'projectId' in scope ? ' AND project_id = ?' : ' AND group_id = ?'
        args.push('projectId' in scope ? scope.projectId : scope.groupId)
      }
      const gone = this.db
        .prepare(`SELECT id FROM ${KINDS[kind].table} WHERE ${where}`)
        .pluck()
        .all(...args) as number[]
      this.remove(accountId, kind, gone)
    })
  }

  /** Makes the labels listed in one project or group exactly `labels`. */
  replaceLabels(
    accountId: string,
    scopeKind: 'project' | 'group',
    scopeId: number,
    labels: readonly JsonObject[],
  ): void {
    this.transaction(() => {
      const acct = this.acct(accountId)
      this.db
        .prepare('DELETE FROM labels WHERE acct = ? AND scope_kind = ? AND scope_id = ?')
        .run(acct, scopeKind, scopeId)
      this.upsertLabels(acct, scopeKind, scopeId, labels)
      const acc = this.accumulator(acct, false)
      acc.kinds.add('label')
      if (scopeKind === 'project') acc.projectIds.add(scopeId)
      else acc.groupIds.add(scopeId)
    })
  }

  /** Adds or refreshes labels seen embedded in items (`with_labels_details`), without removing any. */
  mergeLabels(accountId: string, scopeKind: 'project' | 'group', scopeId: number, labels: readonly JsonObject[]): void {
    if (labels.length === 0) return
    this.transaction(() => this.upsertLabels(this.acct(accountId), scopeKind, scopeId, labels))
  }

  /** Marks items whose notes must be fetched again (sync's notes phase clears the mark). */
  markNotesStale(accountId: string, kind: NoteableKind, ids: readonly number[]): void {
    if (ids.length === 0) return
    this.stmt(
      `UPDATE ${KINDS[kind].table} SET notes_stale = 1 WHERE acct = ? AND id IN (SELECT value FROM json_each(?))`,
    ).run(this.acct(accountId), JSON.stringify(ids))
  }

  /** Sets which projects (or groups) the account syncs; their rows stay until `purgeProject`/`purgeGroup`. */
  setSynced(accountId: string, kind: 'project' | 'group', ids: readonly number[]): void {
    this.transaction(() => {
      const acct = this.acct(accountId)
      const table = KINDS[kind].table
      this.db.prepare(`UPDATE ${table} SET synced = 0 WHERE acct = ? AND synced = 1`).run(acct)
      this.db
        .prepare(`UPDATE ${table} SET synced = 1 WHERE acct = ? AND id IN (SELECT value FROM json_each(?))`)
        .run(acct, JSON.stringify(ids))
      this.accumulator(acct, false).kinds.add(kind)
    })
  }

  /** Forgets everything cached under one project (it was deleted, or left the sync scope). */
  purgeProject(accountId: string, projectId: number): void {
    this.transaction(() => {
      const acct = this.acct(accountId)
      for (const kind of ['issue', 'merge_request'] as const) {
        const ids = this.db
          .prepare(`SELECT id FROM ${KINDS[kind].table} WHERE acct = ? AND project_id = ?`)
          .pluck()
          .all(acct, projectId) as number[]
        this.remove(accountId, kind, ids)
      }
      const milestones = this.db
        .prepare('SELECT id FROM milestones WHERE acct = ? AND project_id = ?')
        .pluck()
        .all(acct, projectId) as number[]
      this.remove(accountId, 'milestone', milestones)
      this.db
        .prepare("DELETE FROM labels WHERE acct = ? AND scope_kind = 'project' AND scope_id = ?")
        .run(acct, projectId)
      this.db
        .prepare("DELETE FROM sync_cursors WHERE acct = ? AND scope_kind = 'project' AND scope_id = ?")
        .run(acct, projectId)
      this.accumulator(acct, false).projectIds.add(projectId)
    })
  }

  /** Forgets everything cached under one group (epics, milestones, labels). */
  purgeGroup(accountId: string, groupId: number): void {
    this.transaction(() => {
      const acct = this.acct(accountId)
      this.remove(
        accountId,
        'epic',
        this.db.prepare('SELECT id FROM epics WHERE acct = ? AND group_id = ?').pluck().all(acct, groupId) as number[],
      )
      this.remove(
        accountId,
        'milestone',
        this.db
          .prepare('SELECT id FROM milestones WHERE acct = ? AND group_id = ?')
          .pluck()
          .all(acct, groupId) as number[],
      )
      this.db.prepare("DELETE FROM labels WHERE acct = ? AND scope_kind = 'group' AND scope_id = ?").run(acct, groupId)
      this.db
        .prepare("DELETE FROM sync_cursors WHERE acct = ? AND scope_kind = 'group' AND scope_id = ?")
        .run(acct, groupId)
      this.accumulator(acct, false).groupIds.add(groupId)
    })
  }

  /** Deletes every row of an account (it was removed): nothing of it stays on disk. */
  purgeAccount(accountId: string): void {
    const acct = this.existingAcct(accountId)
    if (acct === null) return
    this.transaction(() => {
      for (const table of ['item_labels', 'item_users', 'search_docs'])
        this.db.prepare(`DELETE FROM ${table} WHERE acct = ?`).run(acct)
      // Every other table cascades from cache_accounts.
      this.db.prepare('DELETE FROM cache_accounts WHERE acct = ?').run(acct)
    })
    this.accts.delete(accountId)
    this.changes.delete(acct)
  }

  // --- optimistic changes (the outbox) ------------------------------------------------------

  /**
   * Shows a change the outbox has queued before the server confirms it. `patch` is a JSON
   * merge patch on the item's API JSON (`{state: 'closed'}`, `{labels: ['bug']}`, `{assignees: [...]}`);
   * label titles are expanded to the label objects the cache knows. When no row exists
   * (`{id}` of something created offline, e.g. a negative temporary id for a new note), the
   * patch is the whole provisional object. The row is marked pending until `clearPending`.
   * Returns the item's id.
   */
  applyOptimistic(accountId: string, kind: PatchableKind, key: ItemKey, patch: JsonObject, outboxId: number): number {
    return this.transaction(() => {
      const acct = this.acct(accountId)
      const spec = KINDS[kind]
      const id = this.resolveKey(acct, kind, key)
      const row =
        id === null
          ? undefined
          : (this.db.prepare(`SELECT json, base_json FROM ${spec.table} WHERE acct = ? AND id = ?`).get(acct, id) as
              { json: string; base_json: string | null } | undefined)
      const normalized = this.normalizePatch(acct, kind, patch)
      let itemId: number
      let effective: JsonObject
      let base: string | null
      if (row === undefined) {
        if (!('id' in key) || Object.keys(key).length !== 1)
          throw Object.assign(new Error(`No cached ${kind} for ${JSON.stringify(key)}`), { code: 'not-cached' })
        itemId = key.id
        effective = { ...normalized, id: itemId }
        base = null
      } else {
        itemId = id as number
        effective = mergePatch(JSON.parse(row.json) as JsonObject, normalized)
        base = row.base_json ?? row.json
      }
      this.db
        .prepare(
          'INSERT INTO pending_changes (acct, outbox_id, kind, item_id, patch, created_row, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          acct,
          outboxId,
          kind,
          itemId,
          JSON.stringify(normalized),
          row === undefined ? 1 : 0,
          new Date().toISOString(),
        )
      this.writeRow(
        acct,
        kind,
        itemId,
        effective,
        base,
        kind === 'note' && row === undefined
          ? { discussionId: str(normalized, 'discussion_id'), position: Number.MAX_SAFE_INTEGER }
          : {},
      )
      this.noteChange(acct, kind, effective, true)
      return itemId
    })
  }

  /**
   * Drops every optimistic change of one outbox entry: after a successful replay (call
   * `upsert` with the server's answer first, so the confirmed state shows at once), or a
   * refusal (the row goes back to the server's state). Rows the entry created are removed.
   */
  clearPending(outboxId: number): void {
    this.transaction(() => {
      const changes = this.db
        .prepare('SELECT acct, kind, item_id, created_row FROM pending_changes WHERE outbox_id = ? ORDER BY seq')
        .all(outboxId) as { acct: number; kind: PatchableKind; item_id: number; created_row: number }[]
      this.db.prepare('DELETE FROM pending_changes WHERE outbox_id = ?').run(outboxId)
      const seen = new Set<string>()
      for (const c of changes) {
        const k = `${c.acct}:${c.kind}:${c.item_id}`
        if (seen.has(k)) continue
        seen.add(k)
        const accountId = this.accountIdOf(c.acct)
        if (c.created_row === 1) {
          this.remove(accountId, c.kind, [c.item_id])
          this.accumulator(c.acct, true)
          continue
        }
        this.recompute(c.acct, c.kind, c.item_id)
      }
    })
  }

  /** The outbox entries with optimistic changes on one item, oldest first. */
  pendingOutboxIds(accountId: string, kind: PatchableKind, id: number): number[] {
    const acct = this.existingAcct(accountId)
    if (acct === null) return []
    return this.db
      .prepare(
        'SELECT DISTINCT outbox_id FROM pending_changes WHERE acct = ? AND kind = ? AND item_id = ? ORDER BY seq',
      )
      .pluck()
      .all(acct, kind, id) as number[]
  }

  // --- internals ----------------------------------------------------------------------------

  /**
   * `sql` prepared once for this connection and kept: for statements run again and again (a
   * sync's every page). Shared by every caller of the same text, so none may change its mode
   * (`pluck`, `raw`) unless all of them want it.
   */
  stmt(sql: string): Statement {
    let s = this.stmts.get(sql)
    if (s === undefined) {
      s = this.db.prepare(sql)
      this.stmts.set(sql, s)
    }
    return s
  }

  private patchesOf(acct: number, kind: ItemKind, id: number): JsonObject[] {
    return (
      this.stmt(
        'SELECT patch FROM pending_changes WHERE acct = ? AND kind = ? AND item_id = ? AND created_row = 0 ORDER BY seq',
      )
        .pluck()
        .all(acct, kind, id) as string[]
    ).map((p) => JSON.parse(p) as JsonObject)
  }

  private recompute(acct: number, kind: PatchableKind, id: number): void {
    const spec = KINDS[kind]
    const row = this.db.prepare(`SELECT json, base_json FROM ${spec.table} WHERE acct = ? AND id = ?`).get(acct, id) as
      { json: string; base_json: string | null } | undefined
    if (row === undefined || row.base_json === null) return
    const base = JSON.parse(row.base_json) as JsonObject
    const patches = this.patchesOf(acct, kind, id)
    const effective = patches.reduce<JsonObject>((j, p) => mergePatch(j, p), base)
    this.writeRow(acct, kind, id, effective, patches.length > 0 ? row.base_json : null, {})
    this.noteChange(acct, kind, effective, true)
  }

  private resolveKey(acct: number, kind: PatchableKind, key: ItemKey): number | null {
    if ('id' in key) return key.id
    if ('projectId' in key && (kind === 'issue' || kind === 'merge_request')) {
      return (
        (this.db
          .prepare(`SELECT id FROM ${KINDS[kind].table} WHERE acct = ? AND project_id = ? AND iid = ?`)
          .pluck()
          .get(acct, key.projectId, key.iid) as number | undefined) ?? null
      )
    }
    if ('groupId' in key && kind === 'epic') {
      return (
        (this.db
          .prepare('SELECT id FROM epics WHERE acct = ? AND group_id = ? AND iid = ?')
          .pluck()
          .get(acct, key.groupId, key.iid) as number | undefined) ?? null
      )
    }
    throw Object.assign(new Error(`A ${kind} is not keyed by ${JSON.stringify(key)}`), { code: 'invalid-arguments' })
  }

  /**
   * An item from an endpoint without `with_labels_details` (a single issue GET): its label
   * titles become the cached label objects, so every cached row has one shape.
   */
  withLabelDetails(accountId: string, kind: NoteableKind, json: JsonObject): JsonObject {
    return this.normalizePatch(this.acct(accountId), kind, json)
  }

  /** Label titles in a patch become the label objects the lists carry (with_labels_details). */
  private normalizePatch(acct: number, kind: PatchableKind, patch: JsonObject): JsonObject {
    if (!isNoteable(kind) || !Array.isArray(patch.labels)) return patch
    const byName = this.stmt('SELECT json FROM labels WHERE acct = ? AND name = ? COLLATE NOCASE LIMIT 1')
    const labels = patch.labels.map((l: unknown) => {
      if (typeof l !== 'string') return l
      const known = byName.pluck().get(acct, l) as string | undefined
      return known === undefined
        ? { name: l, color: null, text_color: null, description: null }
        : (JSON.parse(known) as JsonObject)
    })
    return { ...patch, labels }
  }

  /**
   * A new item whose iid an older cached (since deleted) item still holds: the old row goes.
   * Returns whether there was one. Asked only when the row's insert met the iid's unique index.
   */
  private dropIidClash(acct: number, kind: ItemKind, id: number, json: JsonObject): boolean {
    if (kind !== 'issue' && kind !== 'merge_request' && kind !== 'epic') return false
    const parentColumn = kind === 'epic' ? 'group_id' : 'project_id'
    const parent = num(json, parentColumn)
    const iid = num(json, 'iid')
    if (parent === null || iid === null) return false
    const other = this.stmt(
      `SELECT id FROM ${KINDS[kind].table} WHERE acct = ? AND ${parentColumn} = ? AND iid = ? AND id <> ?`,
    )
      .pluck()
      .get(acct, parent, iid, id) as number | undefined
    if (other === undefined) return false
    this.remove(this.accountIdOf(acct), kind, [other])
    return true
  }

  /**
   * The statement writing a row of `kind`: acct, id, the kind's columns (a note's thread and
   * place after them), json and, when patchable, base_json. `keepsPlace` leaves a note's thread
   * and place as they are on conflict. Built once per variant: a sync writes thousands of rows.
   */
  private rowUpsert(kind: ItemKind, keepsPlace: boolean): Statement {
    const key = `${kind}:${keepsPlace}`
    let statement = this.rowUpserts.get(key)
    if (statement === undefined) {
      const spec = KINDS[kind]
      const columns = [
        'acct',
        'id',
        ...spec.columns,
        ...(kind === 'note' ? ['discussion_id', 'position'] : []),
        'json',
        ...(spec.patchable ? ['base_json'] : []),
      ]
      const updatable = columns.filter(
        (c) => c !== 'acct' && c !== 'id' && !(keepsPlace && (c === 'discussion_id' || c === 'position')),
      )
      statement = this.db.prepare(
        `INSERT INTO ${spec.table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT (acct, id) DO UPDATE SET ${updatable.map((c) => `${c} = excluded.${c}`).join(', ')}`,
      )
      this.rowUpserts.set(key, statement)
    }
    return statement
  }

  private writeRow(
    acct: number,
    kind: ItemKind,
    id: number,
    effective: JsonObject,
    baseJson: string | null,
    context: { readonly discussionId?: string | null; readonly position?: number },
    isNew = false,
    effectiveText?: string,
  ): void {
    const spec = KINDS[kind]
    const vals: ColumnValue[] = [acct, id, ...spec.values(effective)]
    if (kind === 'note') vals.push(context.discussionId ?? null, context.position ?? 0)
    vals.push(effectiveText ?? JSON.stringify(effective))
    if (spec.patchable) vals.push(baseJson)
    // A note's thread and place stay as they were when an outbox patch rewrites it.
    const upsertRow = this.rowUpsert(kind, kind === 'note' && context.position === undefined)
    try {
      upsertRow.run(...vals)
    } catch (error) {
      // The insert finds the clash itself: a lookup before each new row cost a first sync 12k queries.
      if (!isNew || !isUniqueViolation(error) || !this.dropIidClash(acct, kind, id, effective)) throw error
      upsertRow.run(...vals)
    }

    if (isNoteable(kind)) {
      if (!isNew) this.stmt('DELETE FROM item_labels WHERE acct = ? AND kind = ? AND item_id = ?').run(acct, kind, id)
      const addLabel = this.stmt('INSERT OR IGNORE INTO item_labels (acct, kind, item_id, title) VALUES (?, ?, ?, ?)')
      for (const title of labelTitles(effective)) addLabel.run(acct, kind, id, title)
      if (!isNew) this.stmt('DELETE FROM item_users WHERE acct = ? AND kind = ? AND item_id = ?').run(acct, kind, id)
      const addUser = this.stmt(
        'INSERT OR IGNORE INTO item_users (acct, kind, item_id, role, user_id) VALUES (?, ?, ?, ?, ?)',
      )
      for (const u of itemUsers(kind, effective)) addUser.run(acct, kind, id, u.role, u.userId)
      const facets: SearchFacets = {
        projectId: kind === 'epic' ? null : num(effective, 'project_id'),
        groupId: kind === 'epic' ? num(effective, 'group_id') : null,
        state: str(effective, 'state'),
      }
      this.writeSearchDoc(acct, kind, id, kind, id, str(effective, 'title'), str(effective, 'description'), facets)
      if (!isNew) this.updateNoteFacets(acct, kind, id, facets)
    } else if (kind === 'note') {
      const parentKind = noteParentKind(effective)
      const parentId = num(effective, 'noteable_id')
      if (parentKind !== null && parentId !== null && !bool(effective, 'system'))
        this.writeSearchDoc(
          acct,
          'note',
          id,
          parentKind,
          parentId,
          null,
          str(effective, 'body') ?? '',
          this.facetsOf(acct, parentKind, parentId),
        )
    }
  }

  /**
   * One search document; `facets` are its item's project, group and state, which `search:query`
   * filters on while it walks the matches (migration 140). New documents enter the FTS index
   * once per transaction (`indexPendingSearchDocs`).
   */
  private writeSearchDoc(
    acct: number,
    kind: string,
    id: number,
    parentKind: string,
    parentId: number,
    title: string | null,
    body: string | null,
    facets: SearchFacets,
  ): void {
    this.stmt(
      `INSERT INTO search_docs (acct, kind, item_id, parent_kind, parent_id, title, body, project_id, group_id, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (acct, kind, item_id) DO UPDATE SET title = excluded.title, body = excluded.body, project_id = excluded.project_id, group_id = excluded.group_id, state = excluded.state
       WHERE search_docs.title IS NOT excluded.title OR search_docs.body IS NOT excluded.body OR search_docs.project_id IS NOT excluded.project_id
         OR search_docs.group_id IS NOT excluded.group_id OR search_docs.state IS NOT excluded.state`,
    ).run(acct, kind, id, parentKind, parentId, title, body, facets.projectId, facets.groupId, facets.state)
    this.searchPending = true
  }

  /** A changed item's facets also hold for the documents of its notes. */
  private updateNoteFacets(acct: number, kind: NoteableKind, id: number, facets: SearchFacets): void {
    this.stmt(
      `UPDATE search_docs SET project_id = ?, group_id = ?, state = ? WHERE acct = ? AND parent_kind = ? AND parent_id = ? AND kind = 'note'
       AND (project_id IS NOT ? OR group_id IS NOT ? OR state IS NOT ?)`,
    ).run(
      facets.projectId,
      facets.groupId,
      facets.state,
      acct,
      kind,
      id,
      facets.projectId,
      facets.groupId,
      facets.state,
    )
  }

  /** The facets of a note's item, read from its row (null facets when the item is not cached). */
  private facetsOf(acct: number, kind: NoteableKind, id: number): SearchFacets {
    const column = kind === 'epic' ? 'NULL AS project_id, group_id' : 'project_id, NULL AS group_id'
    const row = this.stmt(`SELECT ${column}, state FROM ${KINDS[kind].table} WHERE acct = ? AND id = ?`).get(
      acct,
      id,
    ) as { project_id: number | null; group_id: number | null; state: string } | undefined
    return { projectId: row?.project_id ?? null, groupId: row?.group_id ?? null, state: row?.state ?? null }
  }

  private hasPendingSearchDocs(): boolean {
    return this.stmt('SELECT 1 FROM search_pending LIMIT 1').get() !== undefined
  }

  /** Indexes the documents inserted since the last call, in one statement (see migration 140). */
  private indexPendingSearchDocs(): void {
    if (!this.searchPending) return
    this.stmt(
      'INSERT INTO search_fts (rowid, title, body) SELECT d.rowid, d.title, d.body FROM search_pending p JOIN search_docs d ON d.rowid = p.rowid',
    ).run()
    this.stmt('DELETE FROM search_pending').run()
    this.searchPending = false
  }

  private upsertUsers(acct: number, users: readonly JsonObject[]): void {
    // Embedded users are partial (no state, email…): never overwrite a fuller row with one.
    const s = this.stmt(
      `INSERT INTO users (acct, id, username, name, state, json) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (acct, id) DO UPDATE SET username = excluded.username, name = excluded.name, state = COALESCE(excluded.state, users.state),
         json = json_patch(users.json, excluded.json)
       WHERE users.username IS NOT excluded.username OR users.name IS NOT excluded.name OR users.json IS NOT json_patch(users.json, excluded.json)`,
    )
    for (const u of users)
      s.run(acct, num(u, 'id'), str(u, 'username') ?? '', str(u, 'name') ?? '', str(u, 'state'), JSON.stringify(u))
  }

  private upsertLabels(
    acct: number,
    scopeKind: 'project' | 'group',
    scopeId: number,
    labels: readonly JsonObject[],
  ): void {
    const s = this.stmt(
      `INSERT INTO labels (acct, scope_kind, scope_id, id, name, color, json) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (acct, scope_kind, scope_id, id) DO UPDATE SET name = excluded.name, color = excluded.color, json = excluded.json WHERE labels.json IS NOT excluded.json`,
    )
    for (const l of labels) {
      const id = num(l, 'id')
      if (id === null) continue
      s.run(acct, scopeKind, scopeId, id, str(l, 'name') ?? '', str(l, 'color'), JSON.stringify(l))
    }
  }

  /**
   * Announces a change of `kind` in a project that is kept outside the item tables (an issue's
   * links, saved in the URL cache), so that the views showing it read it again.
   */
  announceChange(accountId: string, kind: ChangeKind, projectId: number): void {
    this.transaction(() => this.noteChange(this.acct(accountId), kind, { project_id: projectId }, false))
  }

  private accumulator(acct: number, optimistic: boolean): ChangeAccumulator {
    let acc = this.changes.get(acct)
    if (acc === undefined) {
      acc = { kinds: new Set(), projectIds: new Set(), groupIds: new Set(), optimistic }
      this.changes.set(acct, acc)
    }
    if (optimistic) acc.optimistic = true
    return acc
  }

  private noteChange(acct: number, kind: ChangeKind, json: JsonObject, optimistic: boolean): void {
    const acc = this.accumulator(acct, optimistic)
    acc.kinds.add(kind)
    const projectId = kind === 'project' ? num(json, 'id') : num(json, 'project_id')
    if (projectId !== null) acc.projectIds.add(projectId)
    const groupId = kind === 'group' ? num(json, 'id') : num(json, 'group_id')
    if (groupId !== null) acc.groupIds.add(groupId)
  }

  private flush(): void {
    if (this.changes.size === 0) return
    const changes = [...this.changes.entries()]
    this.changes.clear()
    for (const [acct, acc] of changes) {
      if (acc.kinds.size === 0 && acc.projectIds.size === 0 && acc.groupIds.size === 0) continue
      const change: CacheChange = {
        accountId: this.accountIdOf(acct),
        kinds: [...acc.kinds].sort(),
        projectIds: [...acc.projectIds].sort((a, b) => a - b),
        groupIds: [...acc.groupIds].sort((a, b) => a - b),
        optimistic: acc.optimistic,
      }
      for (const listener of this.listeners) {
        try {
          listener(change)
        } catch {
          /* a broken listener must not stop the others */
        }
      }
    }
  }
}
