import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ServerContext } from '../../platform/context'
import type { MultipartPart } from '../../platform/http/multipart'
import { validationFailed } from '../../platform/http/errors'

/** Image types GitLab accepts for avatars, by file extension. */
export const AVATAR_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
  ico: 'image/x-icon',
  webp: 'image/webp',
}

/** GitLab's avatar size limit (200 KiB). */
export const AVATAR_MAX_BYTES = 200 * 1024

/** Where avatars of one owner live under the data dir, as the URL path names them. */
export function avatarDir(ctx: ServerContext, kind: 'user', id: number): string {
  return join(ctx.options.dataDir, 'uploads', '-', 'system', kind, 'avatar', String(id))
}

/** A file name safe on disk and in a URL, keeping the extension GitLab checks. */
function safeName(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? ''
  const cleaned = base.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '')
  return cleaned === '' ? 'avatar' : cleaned.slice(-100)
}

/** 400 with GitLab's validation body unless the upload is an image of an accepted type and size. */
export function checkAvatar(part: MultipartPart): void {
  const name = safeName(part.filename ?? 'avatar')
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : ''
  if (!(ext in AVATAR_TYPES)) {
    throw validationFailed({
      avatar: [
        `file format is not supported. Please try one of the following supported formats: ${Object.keys(AVATAR_TYPES).join(', ')}`,
      ],
    })
  }
  if (part.content.length > AVATAR_MAX_BYTES)
    throw validationFailed({ avatar: ['is too big (should be at most 200 KiB)'] })
}

/**
 * Stores a checked avatar for a user, replacing the previous one, and returns the path (under the
 * server's base URL) that `avatar_url` shows; the base is added when rendering, so a changed
 * external URL never leaves stale avatar links.
 */
export function saveUserAvatar(ctx: ServerContext, userId: number, part: MultipartPart): string {
  checkAvatar(part)
  const name = safeName(part.filename ?? 'avatar')
  const dir = avatarDir(ctx, 'user', userId)
  mkdirSync(dir, { recursive: true })
  for (const old of readdirSync(dir)) rmSync(join(dir, old), { force: true })
  writeFileSync(join(dir, name), part.content)
  return `/uploads/-/system/user/avatar/${userId}/${name}`
}

/** Removes a deleted user's avatar files. */
export function removeUserAvatar(ctx: ServerContext, userId: number): void {
  rmSync(avatarDir(ctx, 'user', userId), { recursive: true, force: true })
}
