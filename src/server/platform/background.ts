import type { ServerContext } from './context'

type Task = () => Promise<void>

/**
 * An in-process queue that runs its tasks one at a time, in order, after the request that
 * enqueued them has answered (GitLab hands such work to Sidekiq; here it stays in the server
 * process). Tasks handle their own failures; anything they let escape goes to `onError`.
 */
export class SerialQueue {
  private readonly tasks: Task[] = []
  private running: Promise<void> | null = null
  private holds = 0
  private closed = false
  private idleWaiters: (() => void)[] = []

  constructor(private readonly onError: (error: unknown) => void = () => undefined) {}

  /** Appends a task; it starts once every earlier one has finished and no hold is in place. */
  push(task: Task): void {
    if (this.closed) return
    this.tasks.push(task)
    this.kick()
  }

  /** Resolves once the queue has nothing running and nothing waiting. */
  idle(): Promise<void> {
    if (!this.running && this.tasks.length === 0) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  /**
   * Keeps queued tasks from starting until the returned release is called (the running one, if
   * any, finishes). Operators hold the queue around maintenance; tests use it to observe work
   * that is scheduled but not started.
   */
  hold(): () => void {
    this.holds += 1
    let released = false
    return () => {
      if (released) return
      released = true
      this.holds -= 1
      this.kick()
    }
  }

  /** Drops what has not started and waits for the running task: the server is closing. */
  async close(): Promise<void> {
    this.closed = true
    this.tasks.length = 0
    await this.running
    this.settleIdle()
  }

  private kick(): void {
    if (this.running || this.closed) return
    if (this.holds > 0) return
    const next = this.tasks.shift()
    if (!next) {
      this.settleIdle()
      return
    }
    this.running = next()
      .catch((error: unknown) => this.onError(error))
      .finally(() => {
        this.running = null
        this.kick()
      })
  }

  private settleIdle(): void {
    if (this.running || (this.tasks.length > 0 && !this.closed)) return
    const waiters = this.idleWaiters
    this.idleWaiters = []
    for (const resolve of waiters) resolve()
  }
}

const queues = new WeakMap<ServerContext, Map<string, SerialQueue>>()

/** The named queue of this server instance (created on first use). */
export function backgroundQueue(ctx: ServerContext, name: string): SerialQueue {
  let byName = queues.get(ctx)
  if (!byName) {
    byName = new Map()
    queues.set(ctx, byName)
  }
  let queue = byName.get(name)
  if (!queue) {
    queue = new SerialQueue((error) => {
      process.emitWarning(`burrow background ${name}: ${error instanceof Error ? error.message : String(error)}`)
    })
    byName.set(name, queue)
  }
  return queue
}
