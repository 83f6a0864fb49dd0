/**
 * What happens elsewhere when a project leaves its fork network (GitLab's UnlinkForkService closes
 * the merge requests between it and the network). The merge requests module builds on forks, so
 * it fills this at startup (modules/index.ts) and the forks service calls it knowing no module.
 */
import type { Caller } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'

/** Told the project that left and the projects of the network it left. */
export type ForkUnlinkListener = (
  caller: Caller,
  project: ProjectRow,
  networkProjectIds: readonly number[],
) => Promise<void>

const listeners: ForkUnlinkListener[] = []

/** Subscribes to fork unlinks (once per listener). */
export function onForkUnlinked(listener: ForkUnlinkListener): void {
  if (!listeners.includes(listener)) listeners.push(listener)
}

/** Tells every listener that `project` left the network of `networkProjectIds`. */
export async function forkUnlinked(
  caller: Caller,
  project: ProjectRow,
  networkProjectIds: readonly number[],
): Promise<void> {
  for (const listener of listeners) await listener(caller, project, networkProjectIds)
}
