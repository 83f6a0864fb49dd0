import { isRecord } from '../json'
import { checkInstanceUrl } from './api-path'
import { isAccountId } from './account-id'

/**
 * The avatars part of the IPC contract (contract.ts imports it). The page's CSP allows only
 * `data:` images, so core fetches an avatar from the account's own instance, keeps it in the
 * desktop cache (offline too) and hands the page a data URL.
 */

export interface AvatarRequest {
  readonly accountId: string
  /** The `avatar_url` the instance gave; refused (code `foreign-url`) unless it is on that account's instance. */
  readonly url: string
}

function avatarArgs(args: readonly unknown[]): string | null {
  if (args.length !== 1 || !isRecord(args[0])) return 'expected one request {accountId, url}'
  const r = args[0]
  const extra = Object.keys(r).filter((k) => k !== 'accountId' && k !== 'url')
  if (extra.length > 0) return `unknown field(s): ${extra.join(', ')}`
  if (!isAccountId(r.accountId)) return 'accountId must be a non-empty string'
  return checkInstanceUrl(r.url)
}

/** The validators of the avatars channel, spread into request-validators.ts. */
export const avatarsValidators = {
  'avatars:get': avatarArgs,
} as const

export interface AvatarsRequests {
  /**
   * The avatar as a `data:image/…;base64,` URL (PNG, JPEG, GIF or WebP), from the cache when it
   * is recent or the instance cannot be reached; null when there is no image to show (none at
   * that URL, not an image, too large, or offline with nothing cached).
   */
  'avatars:get': { readonly args: readonly [request: AvatarRequest]; readonly result: string | null }
}
