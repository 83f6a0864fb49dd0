// The pipeline schedules module's public face: the scheduler's tick, for tests and tools that
// drive it with their own clock.
export { runDueSchedules } from './service'
export { SCHEDULER_INTERVAL_MS } from './scheduler'
