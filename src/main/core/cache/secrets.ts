import { isRecord } from '../../../shared/json'

/**
 * Secret fields of GitLab's API answers, which the desktop cache never stores: the renderer gets
 * them live from the server, and a copy of the cache file reveals none.
 *
 * By name: `token` and `*_token` (`runners_token`, `runners_registration_token`, trigger and
 * feed tokens…), `password` and `*_password`, `secret` and `*_secret` (`client_secret`,
 * `slack_app_secret`), private, API, secret-access and signing keys (`recaptcha_private_key`,
 * `akismet_api_key`, `eks_secret_access_key`, `mailgun_signing_key`), key passphrases
 * (`external_auth_client_key_pass`) and connection strings. A plain `key` is not one: SSH and
 * deploy keys, CI variable names and many settings are called that and are public.
 *
 * By shape: a CI/CD variable (project, group, instance, pipeline or schedule variable: `key`,
 * `value` and `variable_type`) keeps its name and settings, not its value.
 */

const SECRET_WORDS =
  'token|password|secret|private_key|api_key|secret_key|secret_access_key|signing_key|key_pass|connection_string'

const SECRET_NAME = new RegExp(`(?:^|_)(?:${SECRET_WORDS})$`)

/**
 * Where a JSON text may hold a secret field: a key SECRET_NAME matches, or a CI variable's
 * `variable_type`. JSON.stringify writes such keys as they are (`"runners_token":`), so a text
 * without a match holds none; a match elsewhere (inside a string) only costs the walk.
 */
const SECRET_IN_TEXT = new RegExp(`["_](?:${SECRET_WORDS})":|"variable_type":`)

function isCiVariable(o: Readonly<Record<string, unknown>>): boolean {
  return typeof o.key === 'string' && 'value' in o && typeof o.variable_type === 'string'
}

/** SECRET_NAME's answer by field name: answers carry the same few hundred names over and over. */
const secretNames = new Map<string, boolean>()

function isSecretName(name: string): boolean {
  let secret = secretNames.get(name)
  if (secret === undefined) {
    secret = SECRET_NAME.test(name)
    if (secretNames.size < 10_000) secretNames.set(name, secret)
  }
  return secret
}

/** Whether a field of `owner` named `name` holds a secret. */
function isSecretField(owner: Readonly<Record<string, unknown>>, name: string): boolean {
  return isSecretName(name) || (name === 'value' && isCiVariable(owner))
}

/** Whether `value` holds a secret field at any depth; allocates nothing (most answers hold none). */
function holdsSecret(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsSecret)
  if (!isRecord(value)) return false
  for (const name in value) {
    if (isSecretField(value, name) || holdsSecret(value[name])) return true
  }
  return false
}

/** A copy of `value` without its secret fields, at any depth. */
function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip)
  if (!isRecord(value)) return value
  const out: Record<string, unknown> = {}
  for (const [name, field] of Object.entries(value)) if (!isSecretField(value, name)) out[name] = strip(field)
  return out
}

/** What `withoutSecrets` answers: the value to store and whether anything was left out. */
export interface Scrubbed<T> {
  readonly value: T
  readonly stripped: boolean
}

/**
 * `value` (any JSON) with every secret field left out, at any depth; the same object when it
 * holds none, so a caller can tell (`stripped`) and an unchanged answer costs no copy.
 */
export function withoutSecrets<T>(value: T): Scrubbed<T> {
  return holdsSecret(value) ? { value: strip(value) as T, stripped: true } : { value, stripped: false }
}

/**
 * `withoutSecrets`, with the stored value's JSON text. The text is written first and searched
 * for secret names (one native scan); only a text naming one has its value walked and, when
 * something was left out, written again. Storing a sync page needs the text anyway.
 */
export function jsonWithoutSecrets<T>(value: T): Scrubbed<T> & { readonly text: string } {
  const text = JSON.stringify(value)
  if (!SECRET_IN_TEXT.test(text)) return { value, stripped: false, text }
  const scrubbed = withoutSecrets(value)
  return { ...scrubbed, text: scrubbed.stripped ? JSON.stringify(scrubbed.value) : text }
}
