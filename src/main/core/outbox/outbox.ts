import type { Account } from '../../../shared/ipc/contract'
import {
  COMMIT_MUTATION_KINDS,
  CREATION_KINDS,
  creationEntryOf,
  isItemTarget,
  isTemporaryIid,
  temporaryIid,
  type ConflictResolution,
  type ItemFields,
  type ItemTarget,
  type Mutation,
  type OutboxBase,
  type OutboxEntry,
  type OutboxListFilter,
  type OutboxState,
  type OutboxTarget,
} from '../../../shared/ipc/outbox'
import type { AccessGate } from '../api/access-gate'
import type { ApiClient } from '../api/client'
import type { OnlineState } from '../api/connectivity'
import { ApiError, NetworkError, RateLimitedError, SignInRequiredError } from '../api/errors'
import type { Cache } from '../cache/cache'
import { baseFields, desiredFields, normalizeChanges, snapshotOf, type ItemJson } from './fields'
import type { UserSummary } from '../../../shared/api/user'
import { applyOptimistic, cachedItem, clearOptimistic, type CacheUpdate } from './optimistic'
import { check, itemPath, send, type Outcome, type SendContext } from './send'
import { CachedGet } from '../cache/http-cache'
import { LocalDraftStore } from './review-drafts'
import { OutboxStore, type StoredEntry } from './store'

/** A refusal the user can act on; `code` crosses the IPC bridge as is. */
export class OutboxError extends Error {
  override readonly name = 'OutboxError'
  constructor(
    readonly code: 'offline' | 'entry-not-found' | 'invalid-state' | 'not-cached' | 'account-not-found',
    message: string,
  ) {
    super(message)
  }
}

/** What the outbox needs of the accounts service (accounts/accounts.ts `Accounts`). */
export interface OutboxAccounts {
  list(): Promise<readonly Account[]>
  clientFor(id: string): Promise<ApiClient>
  connectivityFor(id: string): OnlineState
  accessFor(id: string): AccessGate
  /** Told after accounts are added or removed (the writes of a removed account are failed with the reason). */
  onDidChange?(listener: (accounts: readonly Account[]) => void): () => void
}

export interface OutboxOptions {
  /** The desktop cache; the outbox's table lives in its database (migration 50). */
  readonly cache: Cache
  readonly accounts: OutboxAccounts
  /** Back-off before another attempt after a transient failure (5xx, 429 without Retry-After); default 30 s doubling to 15 min. */
  readonly retryDelayMs?: (attempts: number) => number
  /** How long settled entries are kept for the record; default 7 days. */
  readonly keepSettledMs?: number
}

/** Writes that set values outright: without a base, a change made on the server meanwhile could not be told from ours. */
const WRITE_KINDS_WITH_BASE: ReadonlySet<Mutation['kind']> = new Set(['update', 'time-estimate'])

const NEVER_SENT = new Set(['refused', 'dns', 'tls'])

/** How an answer got lost, once the request had gone out ("could not reach" would say it never did). */
const LOST_ANSWER: Partial<Record<NetworkError['failure'], string>> = {
  reset: 'the connection was cut',
  timeout: 'timed out',
  aborted: 'the request was aborted',
}

/**
 * Writes sent again on their own once a check found them missing: those that set a state (sending
 * one twice leaves what sending it once does), and a review submission, whose send first reads
 * the drafts the server has and adds only the missing ones. The others add something each time.
 */
const SAFE_AFTER_CHECK: ReadonlySet<Mutation['kind']> = new Set([
  'update',
  'time-estimate',
  'todo',
  'todo-done',
  'subscription',
  'link',
  'unlink',
  'approve',
  'submit-review',
])

/** States that hold back later writes of the same item. */
const STUCK: ReadonlySet<OutboxState> = new Set(['failed', 'conflict', 'unknown-outcome'])

const defaultRetryDelay = (attempts: number): number => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 15 * 60_000)

/**
 * The durable write queue (issue #4). Every write is stored first (with its optimistic change
 * in the cache, in the same transaction), then sent FIFO per account, one at a time, whenever
 * the account's instance is online. `sending` is committed before each request goes out, so a
 * crash mid-request is found at the next start and checked by reading the server, never resent
 * blindly. Writes of one item wait behind an earlier write of that item that failed, is in
 * conflict, or has an unknown outcome; other items go on.
 */
/** The outbox's reason to probe an offline instance often (OnlineState.setUrgent). */
const OUTBOX_URGENCY = 'outbox'

export class Outbox {
  /** The drafts of pending reviews written offline, which a submission takes. */
  readonly drafts: LocalDraftStore
  private readonly store: OutboxStore
  private readonly cache: Cache
  /** The URL cache, for saved answers a landed write changed (an issue's links). */
  private readonly saved: CachedGet
  private readonly accounts: OutboxAccounts
  private readonly retryDelayMs: (attempts: number) => number
  private readonly keepSettledMs: number
  private readonly running = new Map<string, Promise<void>>()
  private readonly again = new Set<string>()
  private readonly watching = new Map<string, () => void>()
  private unwatchAccounts: (() => void) | null = null
  private readonly timers = new Map<string, NodeJS.Timeout>()
  private readonly listeners = new Set<(entry: OutboxEntry) => void>()
  private started = false
  private stopped = false

  constructor(options: OutboxOptions) {
    this.cache = options.cache
    this.saved = new CachedGet(options.cache)
    this.store = new OutboxStore(options.cache.db)
    this.drafts = new LocalDraftStore(options.cache.db)
    this.accounts = options.accounts
    this.retryDelayMs = options.retryDelayMs ?? defaultRetryDelay
    this.keepSettledMs = options.keepSettledMs ?? 7 * 24 * 3600_000
  }

  /**
   * Picks up where the last run stopped: entries cut off in `sending` become unknown outcomes
   * (checked by reading before anything else), old settled entries are pruned, and replay
   * starts for every account with work.
   */
  start(): void {
    if (this.started) return
    this.started = true
    for (const entry of this.store.markInterrupted(nowIso())) this.emitItem(entry, 'sending')
    this.store.prune(new Date(Date.now() - this.keepSettledMs).toISOString())
    for (const accountId of this.store.accountsWithWork()) this.kick(accountId)
    this.unwatchAccounts =
      this.accounts.onDidChange?.((list) => {
        const known = new Set(list.map((a) => a.id))
        // A removed account's OnlineState is gone: one added back under the same id (the local
        // server's) must be watched through its new one.
        for (const [accountId, unsubscribe] of this.watching) {
          if (known.has(accountId)) continue
          unsubscribe()
          this.watching.delete(accountId)
        }
        for (const accountId of this.store.accountsWithWork()) if (!known.has(accountId)) this.kick(accountId)
      }) ?? null
  }

  /** Returns the unsubscribe function. */
  onDidChange(listener: (entry: OutboxEntry) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  list(filter: OutboxListFilter = {}): OutboxEntry[] {
    return this.store.list(filter).map(publicEntry)
  }

  get(id: number): OutboxEntry {
    return publicEntry(this.require(id))
  }

  /**
   * Queues one write: stored durably with the version it was made against (from the cache, or
   * read from the server when the cache lacks the item), shown optimistically in the cache,
   * then sent as soon as the account's turn comes. Resolves once it is stored, not sent.
   */
  async enqueue(accountId: string, target: OutboxTarget, mutation: Mutation): Promise<OutboxEntry> {
    if (
      (target.type === 'todo') !== (mutation.kind === 'todo-done') ||
      (target.type === 'commit' && !COMMIT_MUTATION_KINDS.includes(mutation.kind))
    )
      throw new OutboxError(
        'invalid-state',
        `A ${mutation.kind} write does not apply to a ${target.type.replace('_', ' ')}.`,
      )
    if (isCreation(mutation))
      throw new OutboxError(
        'invalid-state',
        'A creation is queued with create(), which gives its item a temporary iid.',
      )
    const account = await this.account(accountId)
    target = isItemTarget(target) ? this.settledTarget(accountId, target) : target
    const normalized: Mutation =
      mutation.kind === 'update' ? { kind: 'update', changes: normalizeChanges(mutation.changes) } : mutation
    const base = isItemTarget(target) ? await this.baseFor(accountId, target, normalized) : null
    const entry = this.cache.transaction(() => {
      const stored = this.store.insert({ accountId, target, mutation: normalized, base }, nowIso())
      applyOptimistic(this.cache, stored, authorOf(account))
      return stored
    })
    this.emit(entry)
    this.kick(accountId)
    return publicEntry(entry)
  }

  /**
   * Queues the creation of an issue or merge request. The new item shows in the cache at once
   * under a temporary iid (`temporaryIid` of this entry's id, in the entry's target); writes
   * queued on that iid wait behind the creation and are moved to the real iid when it lands.
   * A creation whose answer was lost is looked for on the server, never sent again on its own.
   */
  async create(
    accountId: string,
    target: Omit<ItemTarget, 'iid'>,
    mutation: Extract<Mutation, { kind: (typeof CREATION_KINDS)[number] }>,
  ): Promise<OutboxEntry> {
    if ((target.type === 'issue') !== (mutation.kind === 'create-issue'))
      throw new OutboxError(
        'invalid-state',
        `A ${mutation.kind} write does not create a ${target.type.replace('_', ' ')}.`,
      )
    const account = await this.account(accountId)
    const entry = this.cache.transaction(() => {
      const stored = this.store.insert({ accountId, target: { ...target, iid: 0 }, mutation, base: null }, nowIso())
      const placed = this.store.retarget(stored.id, { ...target, iid: temporaryIid(stored.id) })
      applyOptimistic(this.cache, placed, authorOf(account))
      return placed
    })
    this.emit(entry)
    this.kick(accountId)
    return publicEntry(entry)
  }

  /**
   * Queues the submission of the user's pending review of a merge request: the drafts kept on this
   * computer move into it, in the transaction that stores it, and with `approveSha` an approval
   * (at that head) is queued right behind it. Resolves with the submission once stored.
   */
  async submitReview(accountId: string, target: ItemTarget, approveSha?: string): Promise<OutboxEntry> {
    if (target.type !== 'merge_request' || isTemporaryIid(target.iid))
      throw new OutboxError('invalid-state', 'Only a merge request on the server can be reviewed.')
    await this.account(accountId)
    const entries = this.cache.transaction(() => {
      const drafts = this.drafts.take(accountId, target).map((d) => d.draft)
      const now = nowIso()
      const submission = this.store.insert(
        { accountId, target, mutation: { kind: 'submit-review', drafts }, base: null },
        now,
      )
      if (approveSha === undefined) return [submission]
      return [
        submission,
        this.store.insert({ accountId, target, mutation: { kind: 'approve', sha: approveSha }, base: null }, now),
      ]
    })
    for (const entry of entries) this.emit(entry)
    this.kick(accountId)
    return publicEntry(entries[0])
  }

  /** Sends a failed entry again (or now, when it waits for a back-off); checks an unknown outcome now. */
  async retry(id: number): Promise<OutboxEntry> {
    const entry = this.require(id)
    let moved: StoredEntry | undefined
    if (entry.state === 'failed') {
      const account = await this.account(entry.accountId)
      moved = this.cache.transaction(() => {
        const m = this.store.transition(
          id,
          ['failed'],
          { state: 'queued', reason: null, status: null, nextAttemptAt: null },
          nowIso(),
        )
        if (m !== undefined) applyOptimistic(this.cache, m, authorOf(account))
        return m
      })
    } else if (entry.state === 'queued' || entry.state === 'unknown-outcome') {
      moved = this.store.transition(id, [entry.state], { state: entry.state, nextAttemptAt: null }, nowIso())
    } else {
      throw new OutboxError(
        'invalid-state',
        entry.state === 'conflict'
          ? 'This write is in conflict: resolve it (keep mine, take theirs, or edit).'
          : `This write is ${entry.state}; only failed writes can be retried.`,
      )
    }
    if (moved === undefined) throw new OutboxError('invalid-state', 'This write changed state meanwhile; look again.')
    this.emitItem(moved, entry.state)
    this.kick(moved.accountId)
    return publicEntry(moved)
  }

  /**
   * Gives a write up. Not while its request is out (`sending`): whether it lands is then up to
   * the server, and the entry settles by itself. Discarding an unknown outcome accepts that it
   * may have reached the server.
   */
  discard(id: number): OutboxEntry {
    const entry = this.require(id)
    if (entry.state === 'sending')
      throw new OutboxError('invalid-state', 'This write is being sent right now; wait for the answer.')
    if (entry.state === 'done' || entry.state === 'reconciled' || entry.state === 'discarded')
      throw new OutboxError('invalid-state', `This write is already ${entry.state}.`)
    const reason = entry.state === 'unknown-outcome' ? 'Discarded; it may still have reached the server.' : 'Discarded.'
    // The writes queued on an item whose creation is given up have nothing left to land on.
    const orphans = isCreation(entry.mutation) ? this.store.laterOfItem(entry) : []
    const moved = this.cache.transaction(() => {
      const m = this.store.transition(id, [entry.state], { state: 'discarded', reason }, nowIso())
      if (m !== undefined) clearOptimistic(this.cache, m, null)
      for (const later of orphans) {
        const o = this.store.transition(
          later.id,
          [later.state],
          { state: 'discarded', reason: 'Discarded with the creation of its item.' },
          nowIso(),
        )
        if (o !== undefined) clearOptimistic(this.cache, o, null)
      }
      return m
    })
    if (moved === undefined) throw new OutboxError('invalid-state', 'This write changed state meanwhile; look again.')
    for (const later of orphans) this.emit(this.store.require(later.id))
    this.emitItem(moved, entry.state)
    this.kick(moved.accountId)
    return publicEntry(moved)
  }

  /**
   * Settles a conflict: `mine` sends this write again over the server's version (now its base);
   * `theirs` discards it; `edited` replaces it with the given changes, based on the server's
   * version. Only item updates can be edited.
   */
  async resolve(id: number, resolution: ConflictResolution): Promise<OutboxEntry> {
    const entry = this.require(id)
    if (entry.state !== 'conflict' || entry.conflict === null)
      throw new OutboxError('invalid-state', `This write is ${entry.state}, not in conflict.`)
    if (resolution.choice === 'theirs') {
      const moved = this.cache.transaction(() => {
        const m = this.store.transition(
          id,
          ['conflict'],
          { state: 'discarded', reason: "Kept the server's version." },
          nowIso(),
        )
        if (m !== undefined) clearOptimistic(this.cache, m, null)
        return m
      })
      if (moved === undefined) throw new OutboxError('invalid-state', 'This write changed state meanwhile; look again.')
      this.emitItem(moved, entry.state)
      this.kick(moved.accountId)
      return publicEntry(moved)
    }
    let mutation = entry.mutation
    if (resolution.choice === 'edited') {
      if (entry.mutation.kind !== 'update')
        throw new OutboxError(
          'invalid-state',
          `A ${entry.mutation.kind} write cannot be edited; keep yours or take theirs.`,
        )
      mutation = { kind: 'update', changes: normalizeChanges(resolution.changes) }
    }
    const remote = entry.conflict.remote
    // The new base is the server's version: fields it names are compared with it again; fields
    // an edit adds that the conflict did not show are read from the cache (or sent as they are).
    const wanted =
      mutation.kind === 'update'
        ? desiredFields(mutation.changes)
        : mutation.kind === 'time-estimate'
          ? { time_estimate: mutation.seconds }
          : {}
    const cached = isItemTarget(entry.target) ? cachedItem(this.cache, entry.accountId, entry.target) : null
    const fromCache = cached === null ? {} : baseFields(wanted, snapshotOf(cached).fields)
    const fields: Record<string, unknown> = {}
    for (const key of Object.keys(wanted) as (keyof ItemFields)[]) {
      const value = key in remote ? remote[key] : (fromCache as ItemFields)[key]
      if (value !== undefined) fields[key] = value
    }
    const base: OutboxBase = { updatedAt: entry.conflict.remoteUpdatedAt, fields: fields as ItemFields }
    const account = await this.account(entry.accountId)
    const moved = this.cache.transaction(() => {
      const reason =
        resolution.choice === 'mine' ? 'Keeping my version over the server’s.' : 'Sending the edited version.'
      const m = this.store.transition(
        id,
        ['conflict'],
        { state: 'queued', reason, conflict: null, base, mutation, nextAttemptAt: null },
        nowIso(),
      )
      if (m !== undefined) applyOptimistic(this.cache, m, authorOf(account))
      return m
    })
    if (moved === undefined) throw new OutboxError('invalid-state', 'This write changed state meanwhile; look again.')
    this.emitItem(moved, entry.state)
    this.kick(moved.accountId)
    return publicEntry(moved)
  }

  /** Resolves when no replay runs (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()])
  }

  /** Stops replaying: no new attempt starts; the one in flight finishes and is recorded. */
  async dispose(): Promise<void> {
    this.stopped = true
    for (const timer of this.timers.values()) clearTimeout(timer)
    this.timers.clear()
    for (const [accountId, unsubscribe] of this.watching) {
      unsubscribe()
      this.accounts.connectivityFor(accountId).setUrgent(OUTBOX_URGENCY, false)
    }
    this.watching.clear()
    this.unwatchAccounts?.()
    await this.idle()
    this.listeners.clear()
  }

  // --- replay ---------------------------------------------------------------------------------

  /** Starts (or re-arms) the account's replay loop. */
  private kick(accountId: string): void {
    if (this.stopped) return
    this.watch(accountId)
    if (this.running.has(accountId)) {
      this.again.add(accountId)
      return
    }
    const run = this.drain(accountId)
      .catch(() => undefined)
      .finally(() => {
        this.running.delete(accountId)
        if (this.again.delete(accountId)) this.kick(accountId)
      })
    this.running.set(accountId, run)
  }

  /** Replays again when the account's instance comes back online, and when its requests are let go. */
  private watch(accountId: string): void {
    if (this.watching.has(accountId)) return
    const online = this.accounts.connectivityFor(accountId)
    const gate = this.accounts.accessFor(accountId)
    const unwatchOnline = online.onDidChange((state) => {
      if (state === 'online') this.kick(accountId)
    })
    const unwatchGate = gate.onDidChange(() => {
      if (gate.open && this.store.hasWork(accountId)) this.kick(accountId)
    })
    this.watching.set(accountId, () => {
      unwatchOnline()
      unwatchGate()
    })
  }

  private async drain(accountId: string): Promise<void> {
    const online = this.accounts.connectivityFor(accountId)
    const gate = this.accounts.accessFor(accountId)
    this.clearTimer(accountId)
    try {
      for (;;) {
        // Offline, or held (a sign-in to renew, a Retry-After): the flip back starts the loop again (watch).
        if (this.stopped || !online.online || !gate.open) return
        const entry = this.store.nextRunnable(accountId, nowIso())
        if (entry === undefined) break
        if ((await this.process(entry)) === 'stop') break
      }
      if (online.online) this.scheduleWakeUp(accountId)
    } finally {
      // Writes waiting to replay keep the probe quick, so they go out within seconds of the instance answering.
      online.setUrgent(OUTBOX_URGENCY, !this.stopped && this.store.hasWork(accountId))
    }
  }

  private scheduleWakeUp(accountId: string): void {
    const at = this.store.nextWakeUp(accountId, nowIso())
    if (at === null || this.stopped) return
    this.clearTimer(accountId)
    const timer = setTimeout(
      () => {
        this.timers.delete(accountId)
        this.kick(accountId)
      },
      Math.max(0, Date.parse(at) - Date.now()),
    )
    // A pending retry must not keep the process alive on its own.
    timer.unref()
    this.timers.set(accountId, timer)
  }

  private clearTimer(accountId: string): void {
    const timer = this.timers.get(accountId)
    if (timer !== undefined) clearTimeout(timer)
    this.timers.delete(accountId)
  }

  /** One attempt at one entry; `stop` when the account's loop should pause (offline, account gone). */
  private async process(entry: StoredEntry): Promise<'continue' | 'stop'> {
    let client: ApiClient
    let account: Account
    try {
      account = await this.account(entry.accountId)
      client = await this.accounts.clientFor(entry.accountId)
    } catch (error) {
      if (error instanceof OutboxError && error.code === 'account-not-found') {
        // Nothing can send it any more; it stays listed, with the reason, until discarded.
        const reason =
          entry.state === 'unknown-outcome'
            ? 'The account was removed before this write could be checked; it may have reached the server.'
            : 'The account was removed; this write cannot be sent.'
        this.record(entry, [entry.state], { state: 'failed', reason, status: null })
        return 'continue'
      }
      // The saved sign-in is missing from the keychain: the write waits for the user to sign in again.
      const reason = `${error instanceof Error ? error.message : String(error)} The write stays queued.`
      this.record(entry, [entry.state], {
        state: entry.state === 'unknown-outcome' ? 'unknown-outcome' : 'queued',
        reason,
        retryAfterMs: this.retryDelayMs(entry.attempts + 1),
      })
      return 'stop'
    }
    let current = entry
    let sending = false
    const ctx: SendContext = {
      client,
      userId: account.userId,
      claimedNoteIds: () => this.store.claimedNoteIds(entry.accountId, entry.itemKey, entry.id),
      claimedCreatedIids: () =>
        isItemTarget(entry.target)
          ? this.store.claimedCreatedIids(entry.accountId, entry.mutation.kind, entry.target.projectId, entry.id)
          : new Set(),
      resave: async (path, kind, projectId) => {
        try {
          await this.saved.get(entry.accountId, client, path, undefined, { online: true })
          this.cache.announceChange(entry.accountId, kind, projectId)
        } catch {
          // Not saved again: the next online read or sync of it will be.
        }
      },
      beginSend: (progress) => {
        const moved = this.store.transition(
          entry.id,
          [current.state],
          {
            state: 'sending',
            countAttempt: true,
            sent: true,
            nextAttemptAt: null,
            ...(progress === undefined ? {} : { progress }),
          },
          nowIso(),
        )
        if (moved === undefined) return false
        if (current.state !== 'sending') this.emit(moved)
        current = moved
        sending = true
        return true
      },
    }
    let outcome: Outcome
    try {
      outcome = await this.attempt(entry, ctx)
    } catch (error) {
      outcome = this.outcomeOfError(error, sending, current)
    }
    if (outcome.state === 'skipped') return 'continue'
    this.record(current, [current.state], outcome, authorOf(account))
    if ((outcome.state === 'queued' || outcome.state === 'unknown-outcome') && outcome.pause === true) return 'stop'
    return 'continue'
  }

  /** Checks an unknown outcome by reading; sends when the entry is (found to be) not applied. */
  private async attempt(entry: StoredEntry, ctx: SendContext): Promise<Outcome> {
    if (entry.state === 'unknown-outcome') {
      const found = await check(entry, ctx)
      if (found.applied === true)
        return { state: 'reconciled', reason: found.reason, result: found.result, update: found.update }
      if (found.applied === 'unknown') return { state: 'failed', reason: found.reason, status: null }
      // Read and found missing. A comment or spent time could still be on its way into the
      // server (a timed-out request it is still handling): sent again on its own, it could land
      // twice. The user, who can look at the item, decides (retry sends it as a new attempt).
      if (!SAFE_AFTER_CHECK.has(entry.mutation.kind))
        return {
          state: 'failed',
          reason: `${found.reason} It did not take effect: send it again, or discard it.`,
          status: null,
        }
      // It lands once however often it is sent: sending it now is a new attempt, not a blind resend.
      const outcome = await send(entry, ctx)
      return outcome.state === 'done' ? { ...outcome, reason: `${found.reason} Sent again after the check.` } : outcome
    }
    return send(entry, ctx)
  }

  /** What an exception means for the entry, given whether its request had gone out. */
  private outcomeOfError(error: unknown, sending: boolean, entry: StoredEntry): Outcome {
    const retryAfterMs = this.retryDelayMs(entry.attempts + 1)
    if (error instanceof Error && (error as { code?: unknown }).code === 'secrets-locked') {
      // The client reads the sign-in before each request, so nothing left: the write waits for
      // the encrypted file's passphrase (the renderer asks the outbox again once it is given).
      return {
        state: entry.state === 'unknown-outcome' ? 'unknown-outcome' : 'queued',
        reason: `${error.message} The write stays queued.`,
        retryAfterMs,
      }
    }
    if (error instanceof NetworkError) {
      if (sending && (error.outcomeUnknown || !NEVER_SENT.has(error.failure))) {
        return {
          state: 'unknown-outcome',
          reason: `Sent, but the answer was lost (${LOST_ANSWER[error.failure] ?? error.message}): the server will be read to see whether it took effect.`,
        }
      }
      return {
        state: entry.state === 'unknown-outcome' ? 'unknown-outcome' : 'queued',
        reason: `${error.message}. Waiting for the connection.`,
        pause: true,
      }
    }
    if (error instanceof ApiError) {
      if (error.status === 304) return { state: 'done', reason: 'The server already had it.' }
      if (error instanceof SignInRequiredError)
        return {
          state: entry.state === 'unknown-outcome' ? 'unknown-outcome' : 'queued',
          reason: `${error.message} The write stays queued until the account is signed in again.`,
          pause: true,
        }
      if (error instanceof RateLimitedError)
        return {
          state: entry.state === 'unknown-outcome' ? 'unknown-outcome' : 'queued',
          reason: 'Rate limited by the server; trying again later.',
          retryAfterMs: Math.max(retryAfterMs, (error.retryAfterSeconds ?? 0) * 1000),
        }
      if (error.status >= 500) {
        // A POST the server failed on may still have been committed: check before sending again.
        if (sending && isPost(entry.mutation))
          return {
            state: 'unknown-outcome',
            reason: `The server failed (HTTP ${error.status}) while handling it; it will be read to see whether it took effect.`,
          }
        return {
          state: entry.state === 'unknown-outcome' ? 'unknown-outcome' : 'queued',
          reason: `The server failed (HTTP ${error.status}); trying again later.`,
          retryAfterMs,
        }
      }
      return { state: 'failed', reason: refusalReason(error, entry.target), status: error.status }
    }
    const message = error instanceof Error ? error.message : String(error)
    if (sending)
      return { state: 'unknown-outcome', reason: `${message}. The server will be read to see whether it took effect.` }
    return { state: 'failed', reason: message, status: null }
  }

  /** Commits an outcome (with its cache change, in one transaction) and announces it. */
  private record(
    entry: StoredEntry,
    from: readonly OutboxState[],
    outcome: Exclude<Outcome, { state: 'skipped' }>,
    author?: UserSummary,
  ): void {
    const now = nowIso()
    let moves: StoredEntry[] = []
    const moved = this.cache.transaction(() => {
      let m: StoredEntry | undefined
      switch (outcome.state) {
        case 'done':
        case 'reconciled':
          m = this.store.transition(
            entry.id,
            from,
            {
              state: outcome.state,
              reason: outcome.reason,
              status: null,
              conflict: null,
              nextAttemptAt: null,
              ...(outcome.result === undefined ? {} : { result: outcome.result }),
            },
            now,
          )
          if (m !== undefined) clearOptimistic(this.cache, m, this.cacheable(m, outcome.update))
          if (m !== undefined && author !== undefined) moves = this.moveToCreatedItem(m, author)
          break
        case 'failed':
          m = this.store.transition(
            entry.id,
            from,
            { state: 'failed', reason: outcome.reason, status: outcome.status, nextAttemptAt: null },
            now,
          )
          if (m !== undefined) clearOptimistic(this.cache, m, null)
          break
        case 'conflict':
          m = this.store.transition(
            entry.id,
            from,
            { state: 'conflict', reason: outcome.reason, conflict: outcome.conflict, nextAttemptAt: null },
            now,
          )
          if (m !== undefined) clearOptimistic(this.cache, m, this.cacheable(m, outcome.update))
          break
        case 'unknown-outcome':
        case 'queued':
          m = this.store.transition(
            entry.id,
            from,
            {
              state: outcome.state,
              reason: outcome.reason,
              nextAttemptAt:
                outcome.retryAfterMs === undefined ? null : new Date(Date.now() + outcome.retryAfterMs).toISOString(),
            },
            now,
          )
          break
      }
      return m
    })
    if (moved !== undefined) this.emitItem(moved, entry.state)
    for (const later of moves) this.emit(later)
  }

  /**
   * A creation landed: the writes queued on its temporary iid now name the real one, and their
   * optimistic changes move from the provisional row to the new item's (inside the caller's
   * transaction). Returns the moved entries.
   */
  private moveToCreatedItem(creation: StoredEntry, author: UserSummary): StoredEntry[] {
    const iid = creation.result?.iid
    if (!isCreation(creation.mutation) || iid === undefined || !isItemTarget(creation.target)) return []
    const realTarget: ItemTarget = { ...creation.target, iid }
    return this.store.laterOfItem(creation).map((later) => {
      this.cache.clearPending(later.id)
      const moved = this.store.retarget(later.id, realTarget)
      applyOptimistic(this.cache, moved, author)
      return moved
    })
  }

  /**
   * A write on a temporary iid: kept there while the creation is pending, moved to the real iid
   * once it landed (a page opened before that may still name the temporary one), refused when
   * the creation was given up.
   */
  private settledTarget(accountId: string, target: ItemTarget): ItemTarget {
    if (!isTemporaryIid(target.iid)) return target
    const creation = this.store.get(creationEntryOf(target.iid))
    if (
      creation === undefined ||
      creation.accountId !== accountId ||
      !isCreation(creation.mutation) ||
      creation.state === 'discarded'
    )
      throw new OutboxError('invalid-state', 'This item was never created: its creation is not in the outbox any more.')
    return creation.result?.iid === undefined ? target : { ...target, iid: creation.result.iid }
  }

  /** Server JSON goes into the cache only for items the cache already holds (sync decides what it holds). */
  private cacheable(entry: StoredEntry, update: CacheUpdate | undefined): CacheUpdate | null {
    // A commit's comments are not cached items: its discussions are read again by the view that shows them.
    if (update === undefined || !isItemTarget(entry.target)) return update?.kind === 'todo' ? update : null
    // A new item is made from this app, for a project the user works in: kept, so its page shows it.
    if (isCreation(entry.mutation)) return update
    return cachedItem(this.cache, entry.accountId, entry.target) === null ? null : update
  }

  // --- helpers --------------------------------------------------------------------------------

  /** The version a write is made against: the cached item (with earlier pending writes applied), else the server's. */
  private async baseFor(accountId: string, target: ItemTarget, mutation: Mutation): Promise<OutboxBase | null> {
    const wanted: ItemFields =
      mutation.kind === 'update'
        ? desiredFields(mutation.changes)
        : mutation.kind === 'time-estimate'
          ? { time_estimate: mutation.seconds }
          : {}
    let item: ItemJson | null = cachedItem(this.cache, accountId, target)
    if (item === null && WRITE_KINDS_WITH_BASE.has(mutation.kind) && Object.keys(wanted).length > 0) {
      // Without a base a concurrent change could not be told from ours: read it now, or refuse.
      const notCached = new OutboxError(
        'not-cached',
        `This ${target.type === 'issue' ? 'issue' : 'merge request'} is not in the offline cache and the server cannot be reached, so a change to it cannot be checked for conflicts. Try again when online.`,
      )
      if (!this.accounts.connectivityFor(accountId).online) throw notCached
      try {
        const client = await this.accounts.clientFor(accountId)
        item = await client.get<ItemJson>(itemPath(target))
      } catch (error) {
        if (error instanceof NetworkError) throw notCached
        throw error
      }
    }
    if (item === null) return null
    const snapshot = snapshotOf(item)
    return { updatedAt: snapshot.updatedAt, fields: baseFields(wanted, snapshot.fields) }
  }

  private async account(accountId: string): Promise<Account> {
    const account = (await this.accounts.list()).find((a) => a.id === accountId)
    if (account === undefined) throw new OutboxError('account-not-found', 'No such account.')
    return account
  }

  private require(id: number): StoredEntry {
    const entry = this.store.get(id)
    if (entry === undefined) throw new OutboxError('entry-not-found', `No outbox entry ${id}.`)
    return entry
  }

  /**
   * Announces an entry; when it became stuck or stopped being stuck, also the later unsettled
   * entries of its item, whose `blockedBy` changed with it.
   */
  private emitItem(entry: StoredEntry, previous: OutboxState): void {
    this.emit(entry)
    if (!STUCK.has(previous) && !STUCK.has(entry.state)) return
    for (const later of this.store.laterOfItem(entry)) this.emit(later)
  }

  private emit(entry: StoredEntry): void {
    const pub = publicEntry(entry)
    for (const listener of this.listeners) {
      try {
        listener(pub)
      } catch {
        /* a broken listener must not stop the others */
      }
    }
  }
}

/**
 * Why the server refused a write (a 4xx), in the user's terms and with the server's own words:
 * GitLab's bodies are often only the status line ("403 Forbidden"), which says nothing of the cause.
 */
export function refusalReason(error: ApiError, target: OutboxTarget): string {
  const said = `“${error.message}”`
  const what = { todo: 'to-do', commit: 'commit', issue: 'issue', merge_request: 'merge request' }[target.type]
  switch (error.status) {
    // A 401 that reaches here refused the action, not the sign-in (that is a SignInRequiredError).
    case 401:
    case 403:
      return `The server does not allow this change: ${said}. The project may be archived or the discussion locked, or your role changed.`
    case 404:
      return `The server no longer has what this change is for: ${said}. The ${what} (or its thread) may have been deleted or moved, or you can no longer see it.`
    case 400:
    case 422:
      return `The server refused this change as invalid: ${said}.`
    case 409:
      return `The server refused this change as conflicting with its state: ${said}.`
    default:
      return `The server refused this change: ${said}.`
  }
}

function isCreation(mutation: Mutation): boolean {
  return (CREATION_KINDS as readonly string[]).includes(mutation.kind)
}

function isPost(mutation: Mutation): boolean {
  return mutation.kind !== 'update'
}

function authorOf(account: Account): UserSummary {
  return { id: account.userId, username: account.username, name: account.name, avatar_url: account.avatarUrl }
}

/** The entry as it crosses the bridge: the stored extras stay in core. */
function publicEntry(e: StoredEntry): OutboxEntry {
  const {
    id,
    accountId,
    target,
    mutation,
    base,
    state,
    reason,
    status,
    conflict,
    attempts,
    blockedBy,
    createdAt,
    updatedAt,
    sentAt,
    settledAt,
  } = e
  return {
    id,
    accountId,
    target,
    mutation,
    base,
    state,
    reason,
    status,
    conflict,
    attempts,
    blockedBy,
    createdAt,
    updatedAt,
    sentAt,
    settledAt,
    ...(isCreation(mutation) && e.result?.iid !== undefined ? { createdIid: e.result.iid } : {}),
  }
}

function nowIso(): string {
  return new Date().toISOString()
}
