export type Connectivity = 'online' | 'offline'

export interface OnlineStateOptions {
  /** Resolves true when the instance answers (ApiClient.probe: `GET /api/v4/version`). */
  readonly probe: () => Promise<boolean>
  /** First probe delay after going offline; doubled after each failed probe. Default 5 s. */
  readonly initialIntervalMs?: number
  /** Cap of the back-off. Default 5 min. */
  readonly maxIntervalMs?: number
  /** Cap of the back-off while someone waits on the instance (`setUrgent`). Default 2 s. */
  readonly urgentMaxIntervalMs?: number
}

/** First probe delay after going offline, or after becoming urgent, while someone waits. */
const URGENT_FIRST_PROBE_MS = 250

/**
 * Whether one account's instance is reachable. Flips to offline on a NetworkError (the
 * ApiClient reports it), then probes on a back-off interval until a probe succeeds, or until a
 * request gets any HTTP answer, and flips back. Listeners hear every flip, never a repeat.
 *
 * While anything waits on the instance (`setUrgent`: queued writes, stale data on screen) the
 * back-off is capped at `urgentMaxIntervalMs`, so what waits goes on within about two seconds
 * of the instance answering again; with nothing waiting it stretches to `maxIntervalMs`.
 */
export class OnlineState {
  private state: Connectivity = 'online'
  private readonly listeners = new Set<(state: Connectivity) => void>()
  private timer: NodeJS.Timeout | null = null
  private intervalMs: number
  private readonly initialIntervalMs: number
  private readonly maxIntervalMs: number
  private readonly urgentMaxIntervalMs: number
  /** Why probing is urgent: a reason stays until released, or until its deadline when it has one. */
  private readonly urgent = new Map<string, number>()
  private disposed = false

  constructor(private readonly options: OnlineStateOptions) {
    this.initialIntervalMs = options.initialIntervalMs ?? 5_000
    this.maxIntervalMs = options.maxIntervalMs ?? 300_000
    this.urgentMaxIntervalMs = options.urgentMaxIntervalMs ?? 2_000
    this.intervalMs = this.initialIntervalMs
  }

  /** True while something waits on the instance coming back (see `setUrgent`). */
  get isUrgent(): boolean {
    const now = Date.now()
    for (const [reason, until] of this.urgent) {
      if (until > now) return true
      this.urgent.delete(reason)
    }
    return false
  }

  /**
   * Marks (or releases) a reason to probe often while offline: writes waiting to replay, data
   * shown from the copy on this computer. With `forMs` the reason lapses by itself after that
   * long. Becoming urgent while offline probes soon rather than at the end of a long back-off.
   */
  setUrgent(reason: string, urgent: boolean, forMs = Number.POSITIVE_INFINITY): void {
    if (this.disposed) return
    const wasUrgent = this.isUrgent
    if (urgent) this.urgent.set(reason, Date.now() + forMs)
    else this.urgent.delete(reason)
    if (urgent && !wasUrgent && this.state === 'offline') {
      this.intervalMs = Math.min(this.intervalMs, URGENT_FIRST_PROBE_MS)
      this.schedule()
    }
  }

  get current(): Connectivity {
    return this.state
  }

  get online(): boolean {
    return this.state === 'online'
  }

  /** Returns the unsubscribe function. */
  onDidChange(listener: (state: Connectivity) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  reportNetworkError(): void {
    if (this.disposed) return
    if (this.state === 'offline') return
    this.set('offline')
    this.intervalMs = this.isUrgent ? Math.min(this.initialIntervalMs, URGENT_FIRST_PROBE_MS) : this.initialIntervalMs
    this.schedule()
  }

  reportReachable(): void {
    this.cancel()
    this.set('online')
  }

  /** Probes now (tests, a "retry" button); resolves true when the instance answered. */
  async probeNow(): Promise<boolean> {
    const ok = await this.options.probe().catch(() => false)
    if (ok) this.reportReachable()
    else this.reportNetworkError()
    return ok
  }

  dispose(): void {
    this.disposed = true
    this.cancel()
    this.listeners.clear()
    this.urgent.clear()
  }

  private set(state: Connectivity): void {
    if (this.state === state) return
    this.state = state
    for (const listener of this.listeners) {
      try {
        listener(state)
      } catch {
        /* a broken listener must not stop the others */
      }
    }
  }

  private schedule(): void {
    this.cancel()
    if (this.disposed) return
    this.timer = setTimeout(() => {
      this.timer = null
      void this.options.probe().then(
        (ok) => this.afterProbe(ok),
        () => this.afterProbe(false),
      )
    }, this.intervalMs)
    // Probing must never keep the process alive on its own.
    this.timer.unref()
  }

  private cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
  }

  private afterProbe(ok: boolean): void {
    if (this.disposed) return
    if (ok) {
      this.reportReachable()
      return
    }
    this.intervalMs = Math.min(this.intervalMs * 2, this.isUrgent ? this.urgentMaxIntervalMs : this.maxIntervalMs)
    this.schedule()
  }
}
