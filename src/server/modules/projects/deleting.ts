/**
 * What happens elsewhere before a project is deleted (GitLab's Projects::DestroyService unlinks a
 * fork first, which closes its open merge requests into the network). Modules that build on
 * projects fill this at startup (modules/index.ts); the projects module knows none of them.
 */
import type { Caller } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'

/** Told the project about to be deleted, while it still exists. */
export type ProjectDeletingListener = (caller: Caller, project: ProjectRow) => Promise<unknown>

const listeners: ProjectDeletingListener[] = []

/** Subscribes to project deletions (once per listener). */
export function onProjectDeleting(listener: ProjectDeletingListener): void {
  if (!listeners.includes(listener)) listeners.push(listener)
}

/** Tells every listener that `project` is about to be deleted. */
export async function projectDeleting(caller: Caller, project: ProjectRow): Promise<void> {
  for (const listener of listeners) await listener(caller, project)
}
