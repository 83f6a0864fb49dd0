import { backgroundQueue } from '../../platform/background'
import type { ServerContext } from '../../platform/context'
import { currentTime } from '../../platform/db/connection'
import { runDueSchedules } from './service'

/** How often the scheduler looks for due schedules: every minute, cron's finest step. */
export const SCHEDULER_INTERVAL_MS = 60 * 1000

/**
 * Starts the pipeline scheduler (GitLab's PipelineScheduleWorker): every SCHEDULER_INTERVAL_MS it
 * runs the active schedules whose next run has come, one tick at a time on the server's
 * `pipeline-schedules` queue. The timer is unref'd so it never keeps the process alive. Returns
 * the function that stops it and waits for a running tick, meant for the app's onClose hook.
 */
export function startScheduler(ctx: ServerContext): () => Promise<void> {
  const queue = backgroundQueue(ctx, 'pipeline-schedules')
  const timer = setInterval(() => {
    queue.push(async () => {
      await runDueSchedules(ctx, currentTime())
    })
  }, SCHEDULER_INTERVAL_MS)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await queue.close()
  }
}
