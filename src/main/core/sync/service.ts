import type { SyncFinished, SyncProgress, SyncScope, SyncStatus } from '../../../shared/ipc/cache'
import type { AccessGate } from '../api/access-gate'
import type { ApiClient } from '../api/client'
import type { OnlineState } from '../api/connectivity'
import { isAccountHeld, NetworkError } from '../api/errors'
import type { Cache } from '../cache/cache'
import { SyncRun } from './run'
import { SyncState } from './state'

/** What the sync needs of the accounts service (core/accounts `Accounts` fits). */
export interface SyncAccounts {
  /** The accounts, for the signed-in user's id (whose review work the sync fetches ahead). */
  list(): Promise<readonly { readonly id: string; readonly userId: number }[]>
  clientFor(accountId: string): Promise<ApiClient>
  connectivityFor(accountId: string): OnlineState
  accessFor(accountId: string): AccessGate
}

export interface SyncServiceOptions {
  readonly cache: Cache
  readonly accounts: SyncAccounts
  readonly onProgress?: (progress: SyncProgress) => void
  readonly onFinish?: (finished: SyncFinished) => void
  /** A scheduled account's status changed outside a run: its instance became unreachable (any request failed on the network). */
  readonly onStatus?: (status: SyncStatus) => void
  /** Time between periodic runs of an account (`schedule`); default 5 min. A function is read each time a timer is set (the sync interval preference; see `reschedule`). */
  readonly intervalMs?: number | (() => number)
  /** A periodic run also reconciles when the last reconciliation is older than this; default 1 h. */
  readonly reconcileEveryMs?: number
  /** Page size of list requests; default 100. */
  readonly perPage?: number
  /** Pages of a list written in one transaction; default PAGES_PER_COMMIT (run.ts). */
  readonly pagesPerCommit?: number
}

interface AccountSync {
  run: Promise<SyncFinished> | null
  controller: AbortController | null
  progress: SyncProgress | null
  offline: boolean
  /** A run was due, or failed, while the account's requests were held: it runs when they are let go. */
  heldBack: boolean
  timer: NodeJS.Timeout | null
  tick: (() => void) | null
  unsubscribe: (() => void) | null
  unsubscribeGate: (() => void) | null
}

/**
 * Runs the sync of each account, one run at a time per account: on demand (`start`),
 * periodically (`schedule`), and again when the instance comes back online after a run stopped
 * on a network failure. Cancelling aborts the run's requests; what was committed stays and the
 * next run resumes from the saved cursors.
 */
export class SyncService {
  readonly state: SyncState
  private readonly accounts = new Map<string, AccountSync>()

  constructor(private readonly options: SyncServiceOptions) {
    this.state = new SyncState(options.cache)
  }

  /** Starts a run unless one is going; resolves at once with the status. */
  start(accountId: string, options: { readonly reconcile?: boolean } = {}): SyncStatus {
    this.launch(accountId, options.reconcile ?? false)
    return this.status(accountId)
  }

  /** The run in progress (or the one just started), to await its end: tests and the bench. */
  async run(accountId: string, options: { readonly reconcile?: boolean } = {}): Promise<SyncFinished> {
    return this.launch(accountId, options.reconcile ?? false)
  }

  /** Aborts the account's run; resolves when it has stopped. */
  async cancel(accountId: string): Promise<SyncStatus> {
    const a = this.accounts.get(accountId)
    if (a?.run != null) {
      a.controller?.abort(Object.assign(new Error('Sync cancelled'), { name: 'AbortError', code: 'cancelled' }))
      await a.run
    }
    return this.status(accountId)
  }

  status(accountId: string): SyncStatus {
    const a = this.accounts.get(accountId)
    const times = this.state.times(accountId)
    return {
      accountId,
      // Offline too when another request (the outbox, a detail read) found the instance unreachable since the last run.
      state:
        a?.run != null
          ? 'running'
          : a?.offline === true || !this.options.accounts.connectivityFor(accountId).online
            ? 'offline'
            : 'idle',
      scope: this.state.scope(accountId),
      progress: a?.run != null ? a.progress : null,
      ...times,
    }
  }

  getScope(accountId: string): SyncScope {
    return this.state.scope(accountId)
  }

  setScope(accountId: string, scope: SyncScope): SyncScope {
    this.state.setScope(accountId, scope)
    return this.state.scope(accountId)
  }

  /**
   * Periodic runs for one account, and a run whenever its instance comes back online. None while
   * its requests are held (a sign-in to renew, a Retry-After): the run due meanwhile goes when they are let go.
   */
  schedule(accountId: string): void {
    const a = this.entry(accountId)
    if (a.timer !== null) return
    const gate = this.options.accounts.accessFor(accountId)
    const tick = (): void => {
      if (a.offline) return
      if (!gate.open) {
        a.heldBack = true
        return
      }
      this.launch(accountId, this.reconcileDue(accountId))
    }
    a.tick = tick
    a.timer = setInterval(tick, this.interval())
    a.timer.unref()
    void this.options.accounts.clientFor(accountId).then(
      () => {
        const online = this.options.accounts.connectivityFor(accountId)
        a.unsubscribe = online.onDidChange((state) => {
          if (state === 'offline' && !a.offline) {
            // Said at once, not at the next run: "Synced just now" must not stand while the network is gone.
            a.offline = true
            this.options.onStatus?.(this.status(accountId))
          } else if (state === 'online' && a.offline) {
            a.offline = false
            tick()
          }
        })
        a.unsubscribeGate = gate.onDidChange(() => {
          if (!gate.open || !a.heldBack) return
          a.heldBack = false
          tick()
        })
        tick()
      },
      () => undefined,
    )
  }

  /** Sets the periodic timers again with the interval as it is now (it changed); the next run is one interval from now. */
  reschedule(): void {
    for (const a of this.accounts.values()) {
      if (a.timer === null || a.tick === null) continue
      clearInterval(a.timer)
      a.timer = setInterval(a.tick, this.interval())
      a.timer.unref()
    }
  }

  /** Stops an account's periodic runs and its current run (the account was removed). */
  async forget(accountId: string): Promise<void> {
    const a = this.accounts.get(accountId)
    if (a === undefined) return
    if (a.timer !== null) clearInterval(a.timer)
    a.unsubscribe?.()
    a.unsubscribeGate?.()
    await this.cancel(accountId)
    this.accounts.delete(accountId)
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.accounts.keys()].map((id) => this.forget(id)))
  }

  private interval(): number {
    const interval = this.options.intervalMs
    return typeof interval === 'function' ? interval() : (interval ?? 300_000)
  }

  private reconcileDue(accountId: string): boolean {
    const last = this.state.times(accountId).lastReconciledAt
    return last === null || Date.now() - Date.parse(last) >= (this.options.reconcileEveryMs ?? 3_600_000)
  }

  private entry(accountId: string): AccountSync {
    let a = this.accounts.get(accountId)
    if (a === undefined) {
      a = {
        run: null,
        controller: null,
        progress: null,
        offline: false,
        heldBack: false,
        timer: null,
        tick: null,
        unsubscribe: null,
        unsubscribeGate: null,
      }
      this.accounts.set(accountId, a)
    }
    return a
  }

  private launch(accountId: string, reconcile: boolean): Promise<SyncFinished> {
    const a = this.entry(accountId)
    if (a.run !== null) return a.run
    const controller = new AbortController()
    a.controller = controller
    a.progress = null
    a.run = this.execute(accountId, reconcile, controller.signal, a).finally(() => {
      a.run = null
      a.controller = null
    })
    return a.run
  }

  private async execute(
    accountId: string,
    reconcile: boolean,
    signal: AbortSignal,
    a: AccountSync,
  ): Promise<SyncFinished> {
    const started = Date.now()
    this.state.markTimes(accountId, { lastStartedAt: new Date(started).toISOString() })
    let run: SyncRun | null = null
    let finished: SyncFinished
    try {
      const client = await this.options.accounts.clientFor(accountId)
      const account = (await this.options.accounts.list()).find((a) => a.id === accountId)
      const syncRun = new SyncRun({
        accountId,
        cache: this.options.cache,
        state: this.state,
        client,
        userId: account?.userId ?? null,
        signal,
        reconcile,
        perPage: this.options.perPage,
        pagesPerCommit: this.options.pagesPerCommit,
        onProgress: (p) => {
          a.progress = p
          this.options.onProgress?.(p)
        },
      })
      run = syncRun
      // One WAL checkpoint at the end instead of one every few pages (Cache.bulkWrites).
      await this.options.cache.bulkWrites(() => syncRun.run())
      const now = new Date().toISOString()
      this.state.markTimes(accountId, {
        lastCompletedAt: now,
        lastError: null,
        ...(reconcile ? { lastReconciledAt: now } : {}),
      })
      a.offline = false
      finished = this.finished(accountId, 'completed', reconcile, run, started, null)
    } catch (error) {
      if (signal.aborted) {
        finished = this.finished(accountId, 'cancelled', reconcile, run, started, null)
      } else if (error instanceof NetworkError) {
        // The client has told OnlineState; its probe brings the account back online, and
        // `schedule`'s listener starts the next run, which resumes from the cursors.
        a.offline = true
        finished = this.finished(accountId, 'offline', reconcile, run, started, {
          code: error.code,
          message: error.message,
        })
      } else {
        // Held (its sign-in refused, or told to wait): the gate letting go starts the next run.
        if (isAccountHeld(error)) a.heldBack = true
        const e = error instanceof Error ? error : new Error(String(error))
        const raw = (e as { code?: unknown }).code
        const code = typeof raw === 'string' ? raw : 'sync-failed'
        this.state.markTimes(accountId, { lastError: e.message })
        finished = this.finished(accountId, 'failed', reconcile, run, started, { code, message: e.message })
      }
    }
    this.options.onFinish?.(finished)
    return finished
  }

  private finished(
    accountId: string,
    outcome: SyncFinished['outcome'],
    reconcile: boolean,
    run: SyncRun | null,
    started: number,
    error: SyncFinished['error'],
  ): SyncFinished {
    return {
      accountId,
      outcome,
      reconciled: reconcile && outcome === 'completed',
      itemsSynced: run?.stats.itemsSynced ?? 0,
      itemsRemoved: run?.stats.itemsRemoved ?? 0,
      requests: run?.stats.requests ?? 0,
      durationMs: Date.now() - started,
      error,
    }
  }
}
