import type { ApiBodyValue, ApiQueryValue } from '../../shared/ipc/api'
import { valueAt, type Item } from './paths'
import type { FormField, FormSpec, FormValue, FormValues } from './types'

/** The fields shown for these values (`when` hides the others). */
export function visibleFields(spec: Pick<FormSpec, 'fields'>, values: FormValues): FormField[] {
  return spec.fields.filter((f) => f.when === undefined || f.when(values))
}

function fromItem(field: FormField, item: Item): FormValue | undefined {
  if (field.writeOnly === true) return undefined
  const value = valueAt(item, field.from ?? field.name)
  if (value === undefined) return undefined
  if (value === null) return null
  if (field.type === 'tags') return Array.isArray(value) ? value.map(String) : String(value).split(',').filter(Boolean)
  if (field.type === 'boolean') return value === true
  if (field.type === 'number') return typeof value === 'number' ? value : Number(value)
  if (typeof value === 'object') return JSON.stringify(value)
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : String(value)
}

/** Starting values: the item's (editing) or the defaults (creating); booleans start false, tags empty. */
export function initialValues(spec: Pick<FormSpec, 'fields'>, item: Item | null = null): Record<string, FormValue> {
  const values: Record<string, FormValue> = {}
  for (const field of spec.fields) {
    const current = item === null ? undefined : fromItem(field, item)
    values[field.name] =
      current !== undefined
        ? current
        : (field.default ?? (field.type === 'boolean' ? false : field.type === 'tags' ? [] : null))
  }
  return values
}

function blank(value: FormValue | undefined): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
}

/**
 * What is wrong with the values, by field name (`''` for the form as a whole): required fields,
 * lengths, ranges, patterns, then the description's own rules between fields. Empty when valid.
 */
export function validateForm(spec: Pick<FormSpec, 'fields' | 'validate'>, values: FormValues): Record<string, string> {
  const problems: Record<string, string> = {}
  for (const field of visibleFields(spec, values)) {
    const value = values[field.name]
    if (blank(value)) {
      if (field.required === true && field.type !== 'boolean') problems[field.name] = `${field.label} is required.`
      continue
    }
    if (typeof value === 'string') {
      if (field.minLength !== undefined && value.length < field.minLength)
        problems[field.name] = `${field.label} needs at least ${field.minLength} characters.`
      else if (field.maxLength !== undefined && value.length > field.maxLength)
        problems[field.name] = `${field.label} takes at most ${field.maxLength} characters.`
      else if (field.pattern !== undefined && !new RegExp(`^(?:${field.pattern.source})$`).test(value))
        problems[field.name] = field.pattern.message
      else if (field.type === 'email' && !/^[^\s@]+@[^\s@]+$/.test(value))
        problems[field.name] = `${field.label} must be an email address.`
      else if (field.type === 'url' && !/^https?:\/\/\S+$/.test(value))
        problems[field.name] = `${field.label} must be an http(s) URL.`
      else if (field.type === 'pem' && !/-----BEGIN [A-Z ]+-----[\s\S]+-----END [A-Z ]+-----/.test(value))
        problems[field.name] = `${field.label} must be PEM text (-----BEGIN …----- … -----END …-----).`
    }
    if (field.type === 'number') {
      const n = Number(value)
      if (!Number.isFinite(n)) problems[field.name] = `${field.label} must be a number.`
      else if (field.min !== undefined && n < field.min)
        problems[field.name] = `${field.label} must be at least ${field.min}.`
      else if (field.max !== undefined && n > field.max)
        problems[field.name] = `${field.label} must be at most ${field.max}.`
    }
  }
  for (const [name, message] of Object.entries(spec.validate?.(values) ?? {})) problems[name] ??= message
  return problems
}

function toJson(field: FormField, value: FormValue): ApiBodyValue {
  if (field.type === 'number') return Number(value)
  if (field.type === 'tags') return Array.isArray(value) ? [...value] : []
  if (field.type === 'datetime' && typeof value === 'number') return new Date(value).toISOString()
  if (Array.isArray(value)) return [...value]
  return value as ApiBodyValue
}

function setNested(target: Record<string, ApiBodyValue>, path: string, value: ApiBodyValue): void {
  const parts = path.split('.')
  let node = target
  for (const part of parts.slice(0, -1)) {
    const next = node[part]
    if (next === undefined || next === null || typeof next !== 'object' || Array.isArray(next)) node[part] = {}
    node = node[part] as Record<string, ApiBodyValue>
  }
  node[parts[parts.length - 1]] = value
}

/**
 * The request a form sends: the visible, non-empty fields by their API names (dots nest), or
 * the description's own `toBody`; `queryFields` go to the query instead. Booleans are always
 * sent, so switching one off is a change; on an edit only what differs from `item` is sent.
 */
export function formRequest(
  spec: Pick<FormSpec, 'fields' | 'toBody' | 'queryFields' | 'pathFields'>,
  values: FormValues,
  item: Item | null = null,
): { body: Record<string, ApiBodyValue>; query: Record<string, ApiQueryValue>; path: Record<string, string> } {
  const body: Record<string, ApiBodyValue> = {}
  const query: Record<string, ApiQueryValue> = {}
  const path: Record<string, string> = {}
  const initial = item === null ? null : initialValues(spec, item)
  for (const field of visibleFields(spec, values)) {
    const value = values[field.name]
    if (spec.pathFields?.includes(field.name)) {
      if (!blank(value)) path[field.name] = String(value).trim()
      continue
    }
    if (blank(value) && field.type !== 'boolean' && (initial === null || blank(initial[field.name]))) continue
    if (initial !== null && JSON.stringify(initial[field.name]) === JSON.stringify(value ?? null)) continue
    const json = blank(value) ? (field.type === 'tags' ? [] : '') : toJson(field, value)
    if (spec.queryFields?.includes(field.name)) {
      if (typeof json === 'string' || typeof json === 'number' || typeof json === 'boolean') query[field.name] = json
    } else setNested(body, field.name, json)
  }
  return { body: spec.toBody === undefined ? body : { ...spec.toBody(values) }, query, path }
}

/** The form field an API parameter name refers to (`platform_cluster_attributes[api_url]`, `api_url`, `access_level`). */
function fieldOf(spec: Pick<FormSpec, 'fields'>, key: string): FormField | undefined {
  const dotted = key.replace(/\[([^\]]+)\]/g, '.$1')
  const last = dotted.split('.').pop()
  return spec.fields.find(
    (f) =>
      f.name === dotted ||
      f.name === key ||
      f.name.split('.').pop() === key ||
      f.name.startsWith(`${key}.`) ||
      f.name === last,
  )
}

/**
 * A parameter error as Grape words it (`destination_storage_name does not have a valid value`,
 * `name is missing`, `user_id, username are missing, at least one…`): the first field it names,
 * and the sentence with the parameter names read as the fields' labels.
 */
function grapeFieldError(spec: Pick<FormSpec, 'fields'>, text: string): { field: FormField; sentence: string } | null {
  const match = /^([a-z_][\w[\]]*(?:, [a-z_][\w[\]]*)*) (?=(?:is|are|does|must|has|have|should|cannot|can't) )/.exec(
    text,
  )
  if (match === null) return null
  const names = match[1].split(', ')
  const field = names.map((n) => fieldOf(spec, n)).find((f) => f !== undefined)
  if (field === undefined) return null
  const labels = names.map((n) => fieldOf(spec, n)?.label ?? n.replace(/_/g, ' '))
  return { field, sentence: `${labels.join(', ')} ${text.slice(match[0].length)}` }
}

/**
 * GitLab's validation answer (`{message: {email: ['has already been taken']}}` or
 * `{error: 'name is missing'}`) as messages per form field; what matches no field goes under `''`.
 */
export function apiFieldErrors(spec: Pick<FormSpec, 'fields'>, details: unknown): Record<string, string> {
  const body = (details as { body?: unknown } | null | undefined)?.body
  const message = (body as { message?: unknown } | null | undefined)?.message
  const out: Record<string, string> = {}
  const sentence =
    typeof (body as { error?: unknown } | null | undefined)?.error === 'string'
      ? (body as { error: string }).error
      : typeof message === 'string'
        ? message
        : null
  if (sentence !== null) {
    const found = grapeFieldError(spec, sentence.replace(/^\d{3} (\([^)]*\) |[A-Za-z ]+ - )?/, ''))
    if (found !== null) out[found.field.name] = found.sentence
    return out
  }
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return out
  for (const [key, value] of Object.entries(message as Record<string, unknown>)) {
    const text = Array.isArray(value) ? value.map(String).join(', ') : typeof value === 'string' ? value : ''
    if (text === '') continue
    const field = fieldOf(spec, key)
    if (field !== undefined) out[field.name] = `${field.label} ${text}`
    else out[''] = [out[''], `${key.replace(/_/g, ' ')} ${text}`].filter(Boolean).join('; ')
  }
  return out
}
