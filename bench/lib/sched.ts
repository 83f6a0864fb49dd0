import { readFileSync } from 'node:fs'

/** Where the main thread's time went over a stretch of wall time, from the kernel's scheduler statistics. */
export interface ThreadTime {
  /** On a CPU. */
  readonly runMs: number
  /** Ready to run, waiting for a CPU: what a loaded machine adds. */
  readonly runnableMs: number
  /** Neither: waiting on the network, a child process or the disk (the rest of the wall time). */
  readonly blockedMs: number
}

/** The main thread's cumulative run and run-queue nanoseconds (Linux's schedstat), or null elsewhere. */
function schedstat(): readonly [number, number] | null {
  try {
    const [run, wait] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').trim().split(' ').map(Number)
    return [run, wait]
  } catch {
    return null
  }
}

/**
 * Runs `work` and tells, beside its value, how the main thread spent its wall time: a load-independent view of
 * overlap (time blocked shrinks when the client has work while the server answers), where the
 * wall time of a shared machine mostly measures its scheduler. Null off Linux.
 */
export async function measureThread<T>(
  work: () => Promise<T>,
): Promise<{ value: T; wallMs: number; thread: ThreadTime | null }> {
  const before = schedstat()
  const started = performance.now()
  const value = await work()
  const wallMs = performance.now() - started
  const after = schedstat()
  if (before === null || after === null) return { value, wallMs, thread: null }
  const runMs = (after[0] - before[0]) / 1e6
  const runnableMs = (after[1] - before[1]) / 1e6
  return { value, wallMs, thread: { runMs, runnableMs, blockedMs: Math.max(0, wallMs - runMs - runnableMs) } }
}
