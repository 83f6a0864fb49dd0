import { Type, type Static } from 'typebox'
import { Entity } from '../api/common'
import type { ArgsValidator } from './contract'
import { Explained, schemaCheck } from './schema-check'

/**
 * The request of `accounts:add` (contract.ts re-exports its type): a TypeBox schema, apart from
 * contract.ts so that the preload, which bundles the contract's channel names, does not bundle typebox.
 */

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
