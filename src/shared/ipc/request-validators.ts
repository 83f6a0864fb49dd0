/**
 * The argument check of every request channel, applied by core's dispatcher (Electron IPC and the
 * web host alike) before a handler runs. Only core imports this module: the checks are compiled
 * from TypeBox schemas, which the sandboxed preload must not bundle (it needs channel names only,
 * from contract.ts).
 */
import { addAccountArgs } from './accounts'
import { apiValidators } from './api'
import { avatarsValidators } from './avatars'
import { cacheValidators } from './cache'
import type { ArgsValidator, RequestChannel } from './contract'
import { notifyValidators } from './notify'
import { outboxValidators } from './outbox-schema'
import { preferencesValidators } from './preferences-schema'
import { reposValidators } from './repos'
import { reviewValidators } from './review'
import { secretsValidators } from './secrets-schema'
import { isAccountId } from './account-id'

const noArgs: ArgsValidator = (args) => (args.length === 0 ? null : `expected no arguments, got ${args.length}`)

const oneAccountId: ArgsValidator = (args) =>
  args.length === 1 && isAccountId(args[0]) ? null : 'expected one account id (a non-empty string)'

/** One validator per request channel (contract.ts lists the same channels by name). */
export const requestValidators: { readonly [C in RequestChannel]: ArgsValidator } = {
  'app:info': noArgs,
  'app:diagnostics': noArgs,
  'server:status': noArgs,
  'accounts:list': noArgs,
  'accounts:add': addAccountArgs,
  'accounts:add-local': noArgs,
  'accounts:remove': oneAccountId,
  'accounts:verify': oneAccountId,
  ...secretsValidators,
  ...outboxValidators,
  ...reviewValidators,
  ...cacheValidators,
  ...apiValidators,
  ...notifyValidators,
  ...preferencesValidators,
  ...avatarsValidators,
  ...reposValidators,
}
