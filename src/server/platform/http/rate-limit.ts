/**
 * Fixed-window request counters per key (a user id or a client IP). In memory: a restart
 * resets the windows, which is what GitLab's Rack::Attack-backed throttles also tolerate.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>()

  /**
   * Counts one request for `key`; returns 0 when allowed, otherwise the seconds until the
   * window resets (the `Retry-After` value).
   */
  hit(key: string, limit: number, periodSeconds: number, now = Date.now()): number {
    if (limit <= 0) return 0
    const w = this.count(key, periodSeconds, now)
    if (w.count <= limit) return 0
    return Math.max(1, Math.ceil((w.start + periodSeconds * 1000 - now) / 1000))
  }

  /** Counts one event for `key` and answers its window: when it started and how many it holds. */
  count(key: string, periodSeconds: number, now = Date.now()): { readonly start: number; readonly count: number } {
    const periodMs = periodSeconds * 1000
    let w = this.windows.get(key)
    if (!w || now - w.start >= periodMs) {
      w = { start: now, count: 0 }
      this.windows.set(key, w)
      if (this.windows.size > 10_000) this.prune(now, periodMs)
    }
    w.count += 1
    return w
  }

  /** Forgets `key`'s window: its next event starts a new one. */
  reset(key: string): void {
    this.windows.delete(key)
  }

  private prune(now: number, periodMs: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= periodMs) this.windows.delete(k)
  }
}
