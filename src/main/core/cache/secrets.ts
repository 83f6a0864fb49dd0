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

const SECRET_NAME =
  /(?:^|_)(?:token|password|secret|private_key|api_key|secret_key|secret_access_key|signing_key|key_pass|connection_string)$/

function isCiVariable(o: Readonly<Record<string, unknown>>): boolean {
  return typeof o.key === 'string' && 'value' in o && typeof o.variable_type === 'string'
}

/** Whether a field of `owner` named `name` holds a secret. */
function isSecretField(owner: Readonly<Record<string, unknown>>, name: string): boolean {
  return SECRET_NAME.test(name) || (name === 'value' && isCiVariable(owner))
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
  if (Array.isArray(value)) {
    let stripped = false
    const items = value.map((item: unknown) => {
      const inner = withoutSecrets(item)
      stripped ||= inner.stripped
      return inner.value
    })
    return stripped ? { value: items as T, stripped } : { value, stripped }
  }
  if (!isRecord(value)) return { value, stripped: false }
  let stripped = false
  const out: Record<string, unknown> = {}
  for (const [name, field] of Object.entries(value)) {
    if (isSecretField(value, name)) {
      stripped = true
      continue
    }
    const inner = withoutSecrets(field)
    stripped ||= inner.stripped
    out[name] = inner.value
  }
  return stripped ? { value: out as T, stripped } : { value, stripped }
}
