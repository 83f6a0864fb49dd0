import type { Caller } from '../../platform/caller'
import { AccessLevel } from '../../platform/auth/access'
import type { Permissions } from '../../platform/auth/permissions'
import type { UserRow } from '../../platform/db/rows'
import { forbidden, unauthorized } from '../../platform/http/errors'
import type { NoteRow } from './queries'
import type { Noteable, NoteContainer } from './service'

/** True when `perms` holds at least `level` where the noteable lives (administrators always do). */
export function hasLevelIn(perms: Permissions, container: NoteContainer, level: number): boolean {
  return container.kind === 'project'
    ? perms.canInProject(container.project, level)
    : perms.canInGroup(container.group.id, level)
}

/** Internal notes are shown to Reporters and above only. */
export function canSeeInternalNotes(perms: Permissions, container: NoteContainer): boolean {
  return hasLevelIn(perms, container, AccessLevel.REPORTER)
}

/** Commenting: any signed-in reader, but only members on a locked discussion (GitLab's create_note). */
export function assertCanComment(caller: Caller, noteable: Noteable): UserRow {
  const user = caller.user
  if (!user) throw unauthorized()
  if (noteable.discussionLocked && !hasLevelIn(caller.perms, noteable.container, AccessLevel.GUEST)) throw forbidden()
  return user
}

/** Editing a note is for its author (and administrators) only; system notes are nobody's to edit. */
export function assertCanEditNote(caller: Caller, note: NoteRow): void {
  const user = caller.user
  if (!user || note.system === 1 || (user.id !== note.author_id && !caller.perms.isAdmin)) throw forbidden()
}

/** Deleting a note: its author, a Maintainer where the noteable lives, or an administrator. */
export function assertCanDeleteNote(caller: Caller, noteable: Noteable, note: NoteRow): void {
  const user = caller.user
  if (!user || note.system === 1) throw forbidden()
  if (user.id === note.author_id || hasLevelIn(caller.perms, noteable.container, AccessLevel.MAINTAINER)) return
  throw forbidden()
}
