import { rmSync } from 'node:fs'
import type { UserAdmin, UserBasic } from '../../../shared/api/user'
import type { Caller } from '../../platform/caller'
import type { Db } from '../../platform/db/connection'
import type { MultipartPart } from '../../platform/http/multipart'
import { hashPassword, randomPassword, digestToken, generateToken } from '../../platform/auth/secrets'
import type { UserRow } from '../../platform/db/rows'
import {
  deleteUser,
  emailTaken,
  findUserById,
  identityTaken,
  insertUser,
  namespacePathTaken,
  customAttributesByUser,
  followCounts,
  followCountsByUser,
  identitiesByUser,
  isFollowing,
  personalProjectStorages,
  userNamespaceIds,
  soleOwnedGroupIds,
  unlockUser,
  updateUser,
  upsertIdentity,
  usernameTaken,
} from './queries'
import { checkAvatar, removeUserAvatar, saveUserAvatar } from './avatars'
import { userAdmin, userBasic, type UserExtras } from './entity'
import { canReadProfile } from './policy'
import { conflict, forbidden, validationFailed } from '../../platform/http/errors'
import { recordAudit, type AuditChange } from '../audit-events'
import { exceeds, TEXT_LIMITS, tooLong } from '../../platform/text/limits'

/** Attributes accepted by `POST /users` and `PUT /users/:id`, after schema coercion. */
export interface UserAttributes {
  readonly email?: string
  readonly name?: string
  readonly username?: string
  readonly password?: string
  readonly reset_password?: boolean
  readonly force_random_password?: boolean
  readonly skip_confirmation?: boolean
  readonly skip_reconfirmation?: boolean
  readonly admin?: boolean
  readonly auditor?: boolean
  readonly external?: boolean
  readonly can_create_group?: boolean
  readonly private_profile?: boolean | null
  readonly view_diffs_file_by_file?: boolean
  readonly projects_limit?: number
  readonly theme_id?: number
  readonly color_scheme_id?: number
  readonly shared_runners_minutes_limit?: number | null
  readonly extra_shared_runners_minutes_limit?: number | null
  readonly extern_uid?: string
  readonly provider?: string
  readonly bio?: string
  readonly location?: string
  readonly linkedin?: string
  readonly skype?: string
  readonly twitter?: string
  readonly discord?: string
  readonly website_url?: string
  readonly organization?: string
  readonly job_title?: string
  readonly pronouns?: string
  readonly note?: string
  readonly public_email?: string
  readonly commit_email?: string
}

/** Profile columns copied as they are from the attributes. */
const PLAIN_COLUMNS = [
  'bio',
  'location',
  'linkedin',
  'skype',
  'twitter',
  'discord',
  'website_url',
  'organization',
  'job_title',
  'pronouns',
  'note',
  'public_email',
  'commit_email',
  'external',
  'can_create_group',
  'view_diffs_file_by_file',
  'projects_limit',
  'theme_id',
  'color_scheme_id',
  'shared_runners_minutes_limit',
  'extra_shared_runners_minutes_limit',
] as const

const USERNAME_RE = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*[a-zA-Z0-9_-]$|^[a-zA-Z0-9_]$/
const USERNAME_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."
const EMAIL_RE = /^[^@\s]+@[^@\s]+$/
export const MIN_PASSWORD_LENGTH = 8

/** Model validations of the user record, as `{"message": {attribute: [errors]}}` (400). */
function validate(attrs: UserAttributes, creating: boolean): void {
  const errors: Record<string, string[]> = {}
  const add = (k: string, m: string): void => {
    errors[k] = [...(errors[k] ?? []), m]
  }
  if (attrs.name !== undefined) {
    if (attrs.name.trim() === '') add('name', "can't be blank")
    else if (exceeds(attrs.name, TEXT_LIMITS.user.name)) add('name', tooLong(TEXT_LIMITS.user.name))
  }
  if (attrs.username !== undefined) {
    if (attrs.username === '') add('username', "can't be blank")
    else if (!USERNAME_RE.test(attrs.username) || /\.(git|atom)$/i.test(attrs.username))
      add('username', USERNAME_MESSAGE)
    else if (exceeds(attrs.username, TEXT_LIMITS.user.username)) add('username', tooLong(TEXT_LIMITS.user.username))
  }
  if (attrs.email !== undefined && !EMAIL_RE.test(attrs.email)) add('email', 'is invalid')
  if (attrs.public_email !== undefined && attrs.public_email !== '' && !EMAIL_RE.test(attrs.public_email))
    add('public_email', 'is invalid')
  if (attrs.commit_email !== undefined && attrs.commit_email !== '' && !EMAIL_RE.test(attrs.commit_email))
    add('commit_email', 'is invalid')
  const randomised = attrs.reset_password === true || attrs.force_random_password === true
  if (!randomised && attrs.password !== undefined) {
    if (attrs.password === '') {
      if (creating) add('password', "can't be blank")
    } else if (attrs.password.length < MIN_PASSWORD_LENGTH)
      add('password', `is too short (minimum is ${MIN_PASSWORD_LENGTH} characters)`)
    else if (attrs.password.length > 128) add('password', tooLong(128))
  }
  if (creating && !randomised && attrs.password === undefined) add('password', "can't be blank")
  if (attrs.projects_limit !== undefined && attrs.projects_limit < 0)
    add('projects_limit', 'must be greater than or equal to 0')
  for (const k of ['shared_runners_minutes_limit', 'extra_shared_runners_minutes_limit'] as const) {
    const v = attrs[k]
    if (v !== undefined && v !== null && v < 0) add(k, 'must be greater than or equal to 0')
  }
  if ((attrs.extern_uid === undefined) !== (attrs.provider === undefined)) {
    add(attrs.extern_uid === undefined ? 'extern_uid' : 'provider', "can't be blank")
  }
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
}

/** 409 for an email or username another account holds, with GitLab's messages. */
function checkUnique(db: Db, attrs: UserAttributes, userId: number | null): void {
  if (attrs.email !== undefined && emailTaken(db, attrs.email, userId)) throw conflict('Email has already been taken')
  if (attrs.username !== undefined) {
    if (usernameTaken(db, attrs.username, userId)) throw conflict('Username has already been taken')
    // The username is also the personal namespace path: a group may already hold it.
    if (namespacePathTaken(db, attrs.username, userId))
      throw validationFailed({ 'namespace.path': ['has already been taken'] })
  }
  if (
    attrs.extern_uid !== undefined &&
    attrs.provider !== undefined &&
    identityTaken(db, attrs.provider, attrs.extern_uid, userId)
  ) {
    throw validationFailed({ 'identities.extern_uid': ['has already been taken'] })
  }
}

function columnsOf(attrs: UserAttributes): Record<string, unknown> {
  const columns: Record<string, unknown> = {}
  for (const k of PLAIN_COLUMNS) if (attrs[k] !== undefined) columns[k] = attrs[k]
  if (attrs.commit_email === '') columns.commit_email = null
  if (attrs.private_profile !== undefined) columns.private_profile = attrs.private_profile === true
  if (attrs.admin !== undefined) columns.is_admin = attrs.admin
  if (attrs.auditor !== undefined) columns.is_auditor = attrs.auditor
  if (attrs.name !== undefined) columns.name = attrs.name
  if (attrs.username !== undefined) columns.username = attrs.username
  if (attrs.email !== undefined) columns.email = attrs.email
  return columns
}

/** Password columns: a random password (and a reset digest) when asked, else the given one. */
function passwordColumns(attrs: UserAttributes): Record<string, unknown> {
  if (attrs.reset_password === true || attrs.force_random_password === true) {
    const columns: Record<string, unknown> = { password_hash: hashPassword(randomPassword()) }
    if (attrs.reset_password === true) columns.password_reset_digest = digestToken(generateToken(''))
    return columns
  }
  if (attrs.password !== undefined && attrs.password !== '') return { password_hash: hashPassword(attrs.password) }
  return {}
}

/**
 * Creates a user as an administrator asked (`POST /users`): validates, refuses duplicates with
 * 409, stores the identity when extern_uid and provider are given, and records an audit event.
 * An `avatar` is checked before anything is stored.
 */
export function createUser(caller: Caller, attrs: UserAttributes, avatar?: MultipartPart): UserRow {
  const { ctx, db } = caller
  if (avatar) checkAvatar(avatar)
  validate(attrs, true)
  checkUnique(db, attrs, null)
  const password = passwordColumns(attrs)
  const user = db.transaction(() => {
    const created = insertUser(db, {
      ...columnsOf(attrs),
      ...password,
      username: attrs.username as string,
      name: attrs.name as string,
      email: attrs.email as string,
      password_hash: (password.password_hash as string | undefined) ?? null,
      private_profile: attrs.private_profile === true,
      projects_limit: attrs.projects_limit ?? ctx.settings.get('default_projects_limit'),
      confirmed: attrs.skip_confirmation === true,
    })
    if (attrs.extern_uid !== undefined && attrs.provider !== undefined)
      upsertIdentity(db, created.id, attrs.provider, attrs.extern_uid)
    return created
  })()
  recordUserAudit(caller, user, { add: 'user', custom_message: `User ${user.username} created` })
  if (avatar) return setUserAvatar(caller, user.id, avatar)
  return findUserById(db, user.id) as UserRow
}

/** Stores a user's new avatar (checked first: 400 for a file GitLab would refuse) and answers the updated row. */
export function setUserAvatar(caller: Caller, userId: number, avatar: MultipartPart): UserRow {
  return updateUser(caller.db, userId, { avatar_url: saveUserAvatar(caller.ctx, userId, avatar) })
}

const AUDITED_CHANGES = [
  'username',
  'name',
  'email',
  'is_admin',
  'external',
  'can_create_group',
  'projects_limit',
  'private_profile',
  'note',
] as const

/** Updates a user as an administrator asked (`PUT /users/:id`), with the same rules as creation. */
export function modifyUser(caller: Caller, user: UserRow, attrs: UserAttributes, avatar?: MultipartPart): UserRow {
  const { db } = caller
  if (avatar) checkAvatar(avatar)
  validate(attrs, false)
  checkUnique(db, attrs, user.id)
  // A changed email is taken at once: there is no mailer to run GitLab's reconfirmation through.
  const columns: Record<string, unknown> = { ...columnsOf(attrs), ...passwordColumns(attrs) }
  const updated = db.transaction(() => {
    const row = updateUser(db, user.id, columns)
    if (attrs.extern_uid !== undefined && attrs.provider !== undefined)
      upsertIdentity(db, user.id, attrs.provider, attrs.extern_uid)
    return row
  })()
  for (const column of AUDITED_CHANGES) {
    const from = user[column]
    const to = updated[column]
    if (from === to) continue
    recordUserAudit(caller, updated, { change: column, from, to })
  }
  if (columns.password_hash !== undefined) {
    recordAudit(caller, {
      entityType: 'User',
      entityId: user.id,
      entityPath: updated.username,
      change: { custom_message: 'Changed password' },
    })
  }
  return avatar ? setUserAvatar(caller, user.id, avatar) : updated
}

/** Records an audit event about a user's account: the user is both its entity and its target. */
function recordUserAudit(caller: Caller, user: Pick<UserRow, 'id' | 'username'>, change: AuditChange): void {
  recordAudit(caller, {
    entityType: 'User',
    entityId: user.id,
    entityPath: user.username,
    targetType: 'User',
    targetDetails: user.username,
    change,
  })
}

/** Sets a user's state (block, unblock, deactivate, activate) and records why in the audit log. */
export function setUserState(caller: Caller, user: UserRow, state: string, message: string): UserRow {
  const updated = updateUser(caller.db, user.id, { state })
  recordUserAudit(caller, user, { custom_message: message })
  return updated
}

/**
 * Removes a user (`DELETE /users/:id`): the personal namespace and its projects (repositories on
 * disk included) go with the account; other contributions go to the ghost user unless `hardDelete`.
 */
export function removeUser(caller: Caller, user: UserRow, hardDelete: boolean): void {
  const { ctx } = caller
  // A soft delete keeps the user's groups, which must not be left without an Owner.
  if (!hardDelete && soleOwnedGroupIds(ctx.db, user.id).length > 0)
    throw conflict('User cannot be removed while is the sole-owner of a group')
  if (user.user_type === 'ghost') throw forbidden('An internal user cannot be removed')
  const projects = personalProjectStorages(ctx.db, user.id)
  deleteUser(ctx.db, user.id, hardDelete)
  for (const p of projects) {
    for (const kind of ['project', 'wiki'] as const) {
      try {
        rmSync(ctx.repos.repoPath(p.repository_storage, kind, p.id), { recursive: true, force: true })
      } catch {
        // An unknown storage name has nothing on disk to remove.
      }
    }
  }
  recordUserAudit(caller, user, { remove: 'user', custom_message: `User ${user.username} scheduled for deletion` })
  removeUserAvatar(ctx, user.id)
}

/** Lifts a sign-in lock (failed attempts) from a user's account. */
export function unlockAccount(caller: Caller, user: UserRow): void {
  unlockUser(caller.db, user.id)
}

/** Users as the caller may see them in a list: the admin entity for administrators, the basic one for others. */
export function userListEntities(
  caller: Caller,
  rows: readonly UserRow[],
  withCustomAttributes: boolean,
): (UserAdmin | UserBasic)[] {
  const { db, baseUrl } = caller
  if (!caller.perms.isAdmin) return rows.map((u) => userBasic(u, baseUrl))
  const ids = rows.map((u) => u.id)
  const attrs = withCustomAttributes ? customAttributesByUser(db, ids) : null
  const identities = identitiesByUser(db, ids)
  const namespaces = userNamespaceIds(db, ids)
  const follows = followCountsByUser(db, ids)
  return rows.map((u) =>
    userAdmin(u, baseUrl, {
      identities: identities.get(u.id) ?? [],
      namespaceId: namespaces.get(u.id) ?? null,
      customAttributes: attrs ? (attrs.get(u.id) ?? []) : undefined,
      followers: follows.get(u.id)?.followers ?? 0,
      following: follows.get(u.id)?.following ?? 0,
    }),
  )
}

/** Everything the single views of a user need, in a few queries. */
export function userExtrasFor(caller: Caller, user: UserRow, withCustomAttributes: boolean): UserExtras {
  const { db } = caller
  const viewer = caller.user
  const counts = followCounts(db, user.id)
  return {
    identities: identitiesByUser(db, [user.id]).get(user.id) ?? [],
    customAttributes: withCustomAttributes ? (customAttributesByUser(db, [user.id]).get(user.id) ?? []) : undefined,
    followers: counts.followers,
    following: counts.following,
    isFollowed: viewer ? isFollowing(db, viewer.id, user.id) : undefined,
    canReadProfile: canReadProfile(caller.perms, viewer, user),
    namespaceId: userNamespaceIds(db, [user.id]).get(user.id) ?? null,
  }
}
