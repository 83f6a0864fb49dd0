import type { ServerContext } from '../context'
import type { ProjectRow, UserRow } from '../db/rows'
import { projectGitDir } from './project-repo'
import type { PushOptions } from './push-options'
import { PushReads } from './push-reads'

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
  /** The push options of a git push (`git push -o …`); absent for pushes through the API. */
  readonly options?: PushOptions
}

/** A git push (smart HTTP), which can answer its pusher with `remote:` lines. */
export interface GitPushContext extends PushContext {
  readonly options: PushOptions
  /** `http://host:port` of this instance as the pusher reached it, for the URLs of the answer. */
  readonly baseUrl: string
}

/** A landed push as its listeners see it: with the git reads they share. */
export interface LandedPush extends PushContext {
  readonly reads: PushReads
}

/** Runs after a push has landed (events, merge request refresh, pipelines subscribe here). */
export type PushListener = (push: LandedPush) => Promise<void> | void

/** Subscribes to landed pushes on one server, whichever way they arrived (smart HTTP or an API commit). */
export function onPush(ctx: ServerContext, listener: PushListener): void {
  if (!ctx.pushListeners.includes(listener)) ctx.pushListeners.push(listener)
}

/**
 * Answers a landed git push, after every push listener has run: acts on the push options it owns
 * and returns lines for the pusher (git shows them as `remote:` lines), or none.
 */
export type PushReplier = (push: GitPushContext) => Promise<readonly string[]> | readonly string[]

/** Subscribes a replier to this server's landed git pushes (merge request hints and push options). */
export function onGitPushReply(ctx: ServerContext, replier: PushReplier): void {
  if (!ctx.pushRepliers.includes(replier)) ctx.pushRepliers.push(replier)
}

/**
 * Runs the push listeners for a landed git push, then its repliers; returns the lines for the
 * pusher. A failing replier costs its own lines only.
 */
export async function gitPushLanded(push: GitPushContext): Promise<string[]> {
  await pushLanded(push)
  const lines: string[] = []
  for (const replier of push.ctx.pushRepliers) {
    try {
      lines.push(...(await replier(push)))
    } catch (error) {
      process.emitWarning(`push replier failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  return lines
}

/** Tells every listener about a landed push; one failing listener does not stop the others. */
export async function pushLanded(push: PushContext): Promise<void> {
  const landed: LandedPush = { ...push, reads: new PushReads(projectGitDir(push.ctx, push.project), push.updates) }
  for (const listener of push.ctx.pushListeners) {
    try {
      await listener(landed)
    } catch (error) {
      process.emitWarning(`push listener failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}
