import type { ServerContext } from '../../platform/context'
import type { ReleaseRow } from './queries'

/** A release that was created, changed or deleted (GitLab's release hook actions). */
export interface ReleaseChange {
  readonly ctx: ServerContext
  readonly release: ReleaseRow
  readonly action: 'create' | 'update' | 'delete'
}

/** Told of each release change (webhooks follow releases this way). */
export type ReleaseListener = (change: ReleaseChange) => void

const listeners = new WeakMap<ServerContext, ReleaseListener[]>()

/** Subscribes to one server's release changes. */
export function onReleaseChange(ctx: ServerContext, listener: ReleaseListener): void {
  const list = listeners.get(ctx) ?? []
  if (!list.includes(listener)) listeners.set(ctx, [...list, listener])
}

/** Tells the listeners of a release change; a failing one stops neither the others nor the operation. */
export function releaseChanged(change: ReleaseChange): void {
  for (const listener of listeners.get(change.ctx) ?? []) {
    try {
      listener(change)
    } catch (error) {
      process.emitWarning(`release listener failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}
