/** Latency and throughput summary of one measured target. */
export interface LoadSummary {
  readonly requests: number
  readonly p50_ms: number
  readonly p90_ms: number
  readonly p99_ms: number
  readonly rps: number
}

/** Nearest-rank percentile (0 < p ≤ 100) of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error('percentile of no samples')
  const sorted = [...samples].sort((a, b) => a - b)
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)))
  return sorted[rank - 1]
}

/** Rounds to 3 decimals so results files stay readable. */
export function round3(n: number): number {
  return Math.round(n * 1000) / 1000
}

/** Summarises per-request latencies (ms) measured over `elapsedMs` of wall time. */
export function summarize(latenciesMs: readonly number[], elapsedMs: number): LoadSummary {
  return {
    requests: latenciesMs.length,
    p50_ms: round3(percentile(latenciesMs, 50)),
    p90_ms: round3(percentile(latenciesMs, 90)),
    p99_ms: round3(percentile(latenciesMs, 99)),
    rps: round3(latenciesMs.length / (elapsedMs / 1000)),
  }
}
