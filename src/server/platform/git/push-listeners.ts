import type { ServerContext } from '../context'
import type { ProjectRow, UserRow } from '../db/rows'

/** One ref update of a push, as git's receive-pack reports it. */
export interface RefUpdate {
  readonly oldSha: string
  readonly newSha: string
  /** Full ref name, e.g. `refs/heads/main`. */
  readonly ref: string
}

export interface PushContext {
  readonly ctx: ServerContext
  readonly project: ProjectRow
  readonly user: UserRow
  readonly updates: readonly RefUpdate[]
}

/** Runs after a push has landed (events, merge request refresh, pipelines subscribe here). */
export type PushListener = (push: PushContext) => Promise<void> | void

/** Subscribes to landed pushes on one server, whichever way they arrived (smart HTTP or an API commit). */
export function onPush(ctx: ServerContext, listener: PushListener): void {
  if (!ctx.pushListeners.includes(listener)) ctx.pushListeners.push(listener)
}

/** Tells every listener about a landed push; one failing listener does not stop the others. */
export async function pushLanded(push: PushContext): Promise<void> {
  for (const listener of push.ctx.pushListeners) {
    try {
      await listener(push)
    } catch (error) {
      process.emitWarning(`push listener failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}
