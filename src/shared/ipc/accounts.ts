import { Type, type Static } from 'typebox'
import { Entity } from '../api/common'
import type { ArgsValidator } from './contract'
import { Explained, schemaCheck } from './schema-check'

/**
 * The accounts' shapes as TypeBox schemas (contract.ts re-exports their types): an account as main
 * keeps it (the check of accounts.json's entries) and the request of `accounts:add`. Apart from
 * contract.ts so that the preload, which bundles the contract's channel names, does not bundle typebox.
 */

/** Why an account must be signed in again, and since when (ISO 8601). */
export const SignInRequired = Type.Object({ reason: Type.String(), since: Type.String() })
export type SignInRequired = Static<typeof SignInRequired>

/**
 * An account on a forge instance, as main keeps it and the renderer sees it. Never a secret:
 * tokens stay in the keychain (core/accounts), and no IPC result carries one. Other fields are
 * allowed (and left out when stored, see core/accounts/account-store.ts metadataOnly).
 */
export const Account = Type.Object({
  /** Local id (a UUID, also the keychain entry name), or `local` (LOCAL_ACCOUNT_ID). */
  id: Type.String(),
  /**
   * `local`: root on the Burrow Server that `npm start` runs. The launcher gives its base URL
   * (the port may change) and token (new each launch, held in memory only) every launch, and
   * the stable id keeps its cache, sync cursors and outbox across launches. Absent for accounts
   * the user signed in to.
   */
  kind: Type.Optional(Type.Literal('local')),
  /** The instance, without a trailing slash (`https://gitlab.example.com`). */
  baseUrl: Type.String(),
  username: Type.String(),
  /** The user's id on that instance. */
  userId: Type.Number(),
  name: Type.String(),
  avatarUrl: Type.Union([Type.String(), Type.Null()]),
  /** `pat`: personal access token; `oauth`: signed in with username and password (OAuth password grant). */
  authKind: Type.Enum(['pat', 'oauth']),
  /** ISO 8601. */
  addedAt: Type.String(),
  /** A PEM file with the CA of a self-managed instance, trusted for this account only. */
  caFile: Type.Optional(Type.String()),
  /**
   * The server refused the saved credential (a 401 the OAuth refresh did not fix): the account
   * sends nothing until `accounts:verify` finds it working again or `accounts:add` replaces it.
   */
  signInRequired: Type.Optional(SignInRequired),
})
export type Account = Static<typeof Account>

/** An http(s) URL without a username or password in it. */
function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === ''
  } catch {
    return false
  }
}

/** A string of 1 to `max` characters, refused with `why`. */
const NonEmpty = (max: number, why = 'must be a non-empty string') =>
  Explained(Type.String({ minLength: 1, maxLength: max }), why)

/** What either way of signing in names: the instance, and the CA a self-managed one may need. */
const signInTo = {
  /** The instance's base URL. */
  baseUrl: Explained(Type.String({ maxLength: 2048 }), (v) =>
    isHttpUrl(v) ? null : 'must be an http(s) URL without credentials',
  ),
  /** A PEM file with the CA of a self-managed instance. */
  caFile: Type.Optional(NonEmpty(4096, 'must be a non-empty path')),
}

/** `accounts:add` with a personal access token, or with a username and password (OAuth). */
export const AddAccountRequest = Type.Union([
  Entity({ ...signInTo, token: NonEmpty(4096) }),
  Entity({ ...signInTo, username: NonEmpty(255), password: NonEmpty(4096) }),
])
export type AddAccountRequest = Static<typeof AddAccountRequest>

/** The sign-in is checked against the branch it comes closest to: `{baseUrl, token: ''}` hears about its token. */
const addAccountRequest = schemaCheck(AddAccountRequest, { style: 'sentence' })

/** The validator of `accounts:add`'s arguments: one request. */
export const addAccountArgs: ArgsValidator = (args) =>
  args.length === 1 ? addAccountRequest(args[0]) : `expected one argument, got ${args.length}`
