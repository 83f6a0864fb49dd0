import { Type, type Static } from 'typebox'
import { Entity } from '../api/common'
import { checkInstanceUrl } from './api-path'
import { AccountId, Explained, schemaCheck } from './schema-check'

/**
 * The avatars part of the IPC contract (contract.ts imports it). The page's CSP allows only
 * `data:` images, so core fetches an avatar from the account's own instance, keeps it in the
 * desktop cache (offline too) and hands the page a data URL.
 */

const NOT_ONE_REQUEST = 'expected one request {accountId, url}'

export const AvatarRequest = Explained(
  Entity({
    accountId: AccountId,
    /** The `avatar_url` the instance gave; refused (code `foreign-url`) unless it is on that account's instance. */
    url: Type.String(),
  }),
  { type: NOT_ONE_REQUEST },
)
export type AvatarRequest = Static<typeof AvatarRequest>

const avatarRequest = schemaCheck(AvatarRequest, { style: 'sentence' })

/** The request's shape, then its URL (an http(s) URL whose path is safe to ask for, see api-path.ts). */
function avatarArgs(args: readonly unknown[]): string | null {
  if (args.length !== 1) return NOT_ONE_REQUEST
  return avatarRequest(args[0]) ?? checkInstanceUrl((args[0] as AvatarRequest).url)
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
