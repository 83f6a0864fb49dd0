import type { Caller } from '../../platform/caller'
import type { ServerContext } from '../../platform/context'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import type { RefUpdate } from '../../platform/git/push-listeners'
import { ZERO_SHA } from '../../platform/git/git'
import type { Permissions } from '../../platform/auth/permissions'
import { apiMessage, forbidden, notFound, unprocessable } from '../../platform/http/errors'
import { canAdminProtectedTags, mayCreateTag, mayDeleteTag, rulesForTag } from './policy'
import {
  deleteProtectedTag,
  findProtectedTag,
  insertProtectedTag,
  listProtectedTags,
  type ProtectedTagRow,
} from './queries'

/** GitLab's refusal texts (Gitlab::Checks::TagCheck), for the tags API and git clients alike. */
export const TAG_MESSAGES = {
  create: 'You are not allowed to create this tag as it is protected.',
  deleteApi:
    'You are not allowed to delete protected tags from this project. Only a project maintainer or owner can delete a protected tag.',
  deletePush: 'You can only delete protected tags using the web interface.',
  update: 'Protected tags cannot be updated.',
} as const

/** The roles GitLab lets create a protected tag: no one, Developers, Maintainers. */
export const CREATE_ACCESS_LEVELS = [0, 30, 40] as const
export type CreateAccessLevel = (typeof CREATE_ACCESS_LEVELS)[number]

function assertMayAdmin(caller: Caller, project: ProjectRow): void {
  if (!canAdminProtectedTags(caller.perms, project)) throw forbidden()
}

/** A project's protected tags, for its Maintainers. */
export function protectedTagsOf(caller: Caller, project: ProjectRow): ProtectedTagRow[] {
  assertMayAdmin(caller, project)
  return listProtectedTags(caller.db, project.id)
}

/** The protected tag of exactly this name or wildcard, for Maintainers; 404 when there is none. */
export function loadProtectedTag(caller: Caller, project: ProjectRow, name: string): ProtectedTagRow {
  assertMayAdmin(caller, project)
  const tag = findProtectedTag(caller.db, project.id, name)
  if (!tag) throw notFound('Protected tag')
  return tag
}

/**
 * Protects a tag name or wildcard for the roles given (Maintainers by default). A blank or already
 * protected name fails GitLab's model validation: 422 with its full messages.
 */
export function protectTag(
  caller: Caller,
  project: ProjectRow,
  name: string,
  createAccessLevels: readonly CreateAccessLevel[],
): ProtectedTagRow {
  assertMayAdmin(caller, project)
  if (name.trim() === '') throw unprocessable(["Name can't be blank"])
  const levels = createAccessLevels.length > 0 ? [...new Set(createAccessLevels)] : [40]
  if (findProtectedTag(caller.db, project.id, name)) throw unprocessable(['Name has already been taken'])
  return insertProtectedTag(caller.db, project.id, name, levels, caller.clock().toISOString())
}

/** Removes a tag's protection. */
export function unprotectTag(caller: Caller, project: ProjectRow, tag: ProtectedTagRow): void {
  assertMayAdmin(caller, project)
  deleteProtectedTag(caller.db, tag.id)
}

/** The tags API's check before creating `tag` (also a release's new tag): 400 with GitLab's text. */
export function assertMayCreateTag(caller: Caller, project: ProjectRow, tag: string): void {
  if (!mayCreateTag(caller.perms, project, listProtectedTags(caller.db, project.id), tag))
    throw apiMessage(400, TAG_MESSAGES.create)
}

/** The tags API's check before deleting `tag`: a protected tag takes a Maintainer. */
export function assertMayDeleteTag(caller: Caller, project: ProjectRow, tag: string): void {
  if (!mayDeleteTag(caller.perms, project, listProtectedTags(caller.db, project.id), tag))
    throw apiMessage(400, TAG_MESSAGES.deleteApi)
}

/**
 * The smart HTTP push rule of protected tags: a tag is created only by the roles its rules name,
 * never deleted (the web interface or the API do that) nor moved by a push.
 */
export function protectedTagPushPolicy(ctx: ServerContext) {
  return (project: ProjectRow, _user: UserRow, perms: Permissions, updates: readonly RefUpdate[]): string | null => {
    const tagUpdates = updates.filter((u) => u.ref.startsWith('refs/tags/'))
    if (tagUpdates.length === 0) return null
    const rules = listProtectedTags(ctx.db, project.id)
    for (const u of tagUpdates) {
      const tag = u.ref.slice('refs/tags/'.length)
      if (rulesForTag(rules, tag).length === 0) continue
      if (u.oldSha === ZERO_SHA) {
        if (!mayCreateTag(perms, project, rules, tag)) return `GitLab: ${TAG_MESSAGES.create}`
      } else if (u.newSha === ZERO_SHA) return `GitLab: ${TAG_MESSAGES.deletePush}`
      else return `GitLab: ${TAG_MESSAGES.update}`
    }
    return null
  }
}
