import { humanDuration } from './durations'

/** The `time_stats` shape. */
export interface TimeStats {
  readonly time_estimate: number
  readonly total_time_spent: number
  readonly human_time_estimate: string | null
  readonly human_total_time_spent: string | null
}

/** Builds time_stats from an estimate and a total spent (both seconds). */
export function timeStatsOf(estimate: number, spent: number): TimeStats {
  return {
    time_estimate: estimate,
    total_time_spent: spent,
    human_time_estimate: humanDuration(estimate),
    human_total_time_spent: humanDuration(spent),
  }
}
