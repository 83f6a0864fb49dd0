import type { Caller } from '../../platform/caller'
import type { Permissions } from '../../platform/auth/permissions'
import type { ProjectRow } from '../../platform/db/rows'
import { forbidden } from '../../platform/http/errors'
import { canReadCodeWith } from '../../platform/http/repository'

/** Comments on commits are for whoever may read the project's code (GitLab's read_commit / read_code). */
export function canReadCommitNotes(perms: Permissions, project: ProjectRow): boolean {
  return canReadCodeWith(perms, project)
}

/** 403 for a reader of the project who may not read its code, as the commits endpoints answer. */
export function assertCanReadCommitNotes(caller: Caller, project: ProjectRow): void {
  if (!canReadCommitNotes(caller.perms, project)) throw forbidden()
}
