/**
 * The argument check of every request channel, applied by core's dispatcher (Electron IPC and the
 * web host alike) before a handler runs. Only core imports this module: the checks are compiled
 * from TypeBox schemas, which the sandboxed preload must not bundle (it needs channel names only,
 * from contract.ts).
 */
import { apiValidators } from './api'
import { avatarsValidators } from './avatars'
import { cacheValidators } from './cache'
import type { ArgsValidator, RequestChannel } from './contract'
import { notifyValidators } from './notify'
import { outboxValidators } from './outbox'
import { preferencesValidators } from './preferences'
import { reposValidators } from './repos'
import { reviewValidators } from './review'
import { secretsValidators } from './secrets'
import { isAccountId } from './account-id'

const noArgs: ArgsValidator = (args) => (args.length === 0 ? null : `expected no arguments, got ${args.length}`)

function isNonEmptyString(value: unknown, max = 4096): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= max
}

function isHttpUrl(value: unknown): boolean {
  if (!isNonEmptyString(value, 2048)) return false
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === ''
  } catch {
    return false
  }
}

const oneAccountId: ArgsValidator = (args) =>
  args.length === 1 && isAccountId(args[0]) ? null : 'expected one account id (a non-empty string)'

const addAccountArgs: ArgsValidator = (args) => {
  if (args.length !== 1) return `expected one argument, got ${args.length}`
  const r = args[0]
  if (r === null || typeof r !== 'object' || Array.isArray(r))
    return 'expected an object {baseUrl, token} or {baseUrl, username, password}'
  const o = r as Record<string, unknown>
  const unknownKeys = Object.keys(o).filter((k) => !['baseUrl', 'token', 'username', 'password', 'caFile'].includes(k))
  if (unknownKeys.length > 0) return `unknown field(s): ${unknownKeys.join(', ')}`
  if (!isHttpUrl(o.baseUrl)) return 'baseUrl must be an http(s) URL without credentials'
  if (o.caFile !== undefined && !isNonEmptyString(o.caFile)) return 'caFile must be a non-empty path'
  if (o.token !== undefined) {
    if (o.username !== undefined || o.password !== undefined)
      return 'give either token, or username and password, not both'
    return isNonEmptyString(o.token) ? null : 'token must be a non-empty string'
  }
  if (!isNonEmptyString(o.username, 255) || !isNonEmptyString(o.password))
    return 'expected token, or username and password (non-empty strings)'
  return null
}

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
