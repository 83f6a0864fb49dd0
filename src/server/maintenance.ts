import type { ServerContext } from './platform/context'
import { runEnvironmentMaintenance } from './modules/environments/service'
import { pruneOldEvents } from './modules/events'

/** How often periodic maintenance runs: hourly, so environments stop close to their auto_stop_at. */
export const MAINTENANCE_INTERVAL_MS = 60 * 60 * 1000

/** Runs every periodic job once. Exposed so tests can trigger it without waiting. */
export function runMaintenance(
  ctx: ServerContext,
  now = new Date(),
): { readonly prunedEvents: number; readonly deletedEnvironments: number; readonly stoppedEnvironments: number } {
  return { prunedEvents: pruneOldEvents(ctx.db, now), ...runEnvironmentMaintenance(ctx.db, now) }
}

/**
 * Starts periodic maintenance (activity events older than three years are removed, as GitLab
 * does; review apps scheduled for deletion are deleted; environments past auto_stop_at stop):
 * once now, then every MAINTENANCE_INTERVAL_MS. The timer is unref'd so it never keeps the process
 * alive. Returns the function that stops it, meant for the app's onClose hook.
 */
export function startMaintenance(ctx: ServerContext): () => Promise<void> {
  const run = (): void => {
    try {
      runMaintenance(ctx)
    } catch {
      // A closed or busy database must not crash the server; the next run tries again.
    }
  }
  run()
  const timer = setInterval(run, MAINTENANCE_INTERVAL_MS)
  timer.unref()
  return async () => clearInterval(timer)
}
