import { createHash } from 'node:crypto'
import { alertSeverityOf } from '../../../shared/alerts'
import type { AlertSeverityName } from './queries'
import { isRecord } from '../../../shared/json'

/**
 * How an inbound alert payload (GitLab's generic HTTP endpoint format) becomes an alert: defaults,
 * truncation, severity normalisation, fingerprints and the flattened `details`. Pure functions;
 * services/alerts.ts stores what they compute.
 */

/** GitLab alert fields a custom mapping may point at a payload path (GraphQL enum names). */
export const ALERT_FIELD_NAMES = [
  'TITLE',
  'DESCRIPTION',
  'START_TIME',
  'END_TIME',
  'SERVICE',
  'MONITORING_TOOL',
  'HOSTS',
  'SEVERITY',
  'FINGERPRINT',
  'GITLAB_ENVIRONMENT_NAME',
] as const
export type AlertFieldName = (typeof ALERT_FIELD_NAMES)[number]
export const ALERT_FIELD_TYPES = ['ARRAY', 'DATETIME', 'STRING', 'NUMBER'] as const
export type AlertFieldType = (typeof ALERT_FIELD_TYPES)[number]

/** One custom mapping of an HTTP integration: which payload path feeds a GitLab alert field. */
export interface AlertFieldMapping {
  readonly fieldName: AlertFieldName
  readonly path: readonly (string | number)[]
  readonly type: AlertFieldType
  readonly label: string | null
}

export const DEFAULT_TITLE = 'New: Alert'
export const DEFAULT_SEVERITY: AlertSeverityName = 'critical'
/** Column limits of GitLab's AlertManagement::Alert. */
export const TITLE_MAX_LENGTH = 200
export const DESCRIPTION_MAX_LENGTH = 1000
export const SERVICE_MAX_LENGTH = 100
export const TOOL_MAX_LENGTH = 100
export const HOSTS_MAX_LENGTH = 255
/** Keys left out of a payload's own fingerprint: they change between occurrences of one alert. */
const FINGERPRINT_EXCLUDED_KEYS = new Set(['start_time', 'end_time', 'hosts'])

/** Payload keys read when no custom mapping names the field. */
const DEFAULT_PATHS: Readonly<Record<AlertFieldName, readonly (readonly string[])[]>> = {
  TITLE: [['title']],
  DESCRIPTION: [['description']],
  START_TIME: [['start_time']],
  END_TIME: [['end_time']],
  SERVICE: [['service']],
  MONITORING_TOOL: [['monitoring_tool']],
  HOSTS: [['hosts']],
  SEVERITY: [['severity']],
  FINGERPRINT: [['fingerprint']],
  // GitLab's documented key, and the name the service's spec gives it.
  GITLAB_ENVIRONMENT_NAME: [['gitlab_environment_name'], ['service_environment_name']],
}

/** What one payload says about its alert. */
export interface ParsedAlert {
  readonly title: string
  readonly description: string | null
  readonly startedAt: string
  /** Set when the payload resolves its alert (`end_time`). */
  readonly endedAt: string | null
  readonly service: string | null
  readonly monitoringTool: string | null
  readonly hosts: readonly string[]
  readonly severity: AlertSeverityName
  /** SHA1 hex identifying occurrences of the same alert, or null when nothing identifies it. */
  readonly fingerprint: string | null
  readonly environmentName: string | null
  readonly runbook: string | null
}

type Json = unknown

/** Ruby's `blank?`: nil, false, empty or whitespace-only strings, empty arrays and hashes. */
export function isBlank(value: Json): boolean {
  if (value === null || value === undefined || value === false) return true
  if (typeof value === 'string') return value.trim() === ''
  if (Array.isArray(value)) return value.length === 0
  if (isRecord(value)) return Object.keys(value).length === 0
  return false
}

function dig(payload: Json, path: readonly (string | number)[]): Json {
  let cur: Json = payload
  for (const key of path) {
    if (Array.isArray(cur) && typeof key === 'number') cur = cur[key]
    else if (isRecord(cur) && Object.prototype.hasOwnProperty.call(cur, String(key))) cur = cur[String(key)]
    else return undefined
  }
  return cur
}

/** Ruby's `to_s` for the scalar-ish values payloads carry; structures become JSON. */
function text(value: Json): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value)
}

/** Rails' `String#truncate`: at most `length` characters, the cut marked with `...`. */
export function truncate(value: string, length: number): string {
  if (value.length <= length) return value
  return `${value.slice(0, Math.max(0, length - 3))}...`
}

/** A time as the payload gives it, or null when it is not one. */
function parseTime(value: Json): string | null {
  if (typeof value !== 'string') return null
  const ms = Date.parse(value)
  if (!Number.isFinite(ms)) return null
  return new Date(ms).toISOString()
}

/** Hosts as a flat list of strings, cut so their joined length stays within GitLab's limit. */
function normaliseHosts(value: Json): string[] {
  const flat = (Array.isArray(value) ? value.flat(Infinity) : [value])
    .filter((h) => h !== null && h !== undefined)
    .map(text)
  const out: string[] = []
  let used = 0
  for (const host of flat) {
    const remaining = HOSTS_MAX_LENGTH - used
    if (remaining <= 0) break
    const kept = host.slice(0, remaining)
    out.push(kept)
    used += kept.length
  }
  return out
}

/** Case-insensitive severity; anything else (or nothing) is `critical`, as GitLab defaults it. */
export function normaliseSeverity(value: Json): AlertSeverityName {
  if (typeof value !== 'string') return DEFAULT_SEVERITY
  // A lookup among the names, not `in` the value map, which would take `constructor` for a severity.
  return alertSeverityOf(value.trim()) ?? DEFAULT_SEVERITY
}

function sha1(value: string): string {
  return createHash('sha1').update(value).digest('hex')
}

/** JSON with object keys sorted, so two payloads differing only in key order fingerprint alike. */
function canonicalJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (isRecord(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`
  }
  return JSON.stringify(value ?? null)
}

/**
 * GitLab's alert fingerprint: the SHA1 of the given fingerprint (an array is flattened and its
 * parts joined), or, when the payload has none, of the payload itself without start_time,
 * end_time and hosts, so identical alerts group together. Null when nothing is left to hash.
 */
export function alertFingerprint(payload: Readonly<Record<string, Json>>, given: Json): string | null {
  if (!isBlank(given)) {
    if (Array.isArray(given)) return sha1(given.flat(Infinity).map(text).join(''))
    return sha1(text(given))
  }
  const rest: Record<string, Json> = {}
  for (const [key, value] of Object.entries(payload)) if (!FINGERPRINT_EXCLUDED_KEYS.has(key)) rest[key] = value
  if (Object.values(rest).every(isBlank)) return null
  return sha1(canonicalJson(rest))
}

/**
 * GitLab's `Gitlab::Utils::InlineHash.merge_keys`: nested objects flattened into dotted keys
 * (`{"foo": {"bar": 1}}` → `{"foo.bar": 1}`); arrays and scalars are kept as values.
 */
export function inlineKeys(payload: Readonly<Record<string, Json>>, prefix = ''): Record<string, Json> {
  const out: Record<string, Json> = {}
  for (const [key, value] of Object.entries(payload)) {
    const name = prefix ? `${prefix}.${key}` : key
    if (isRecord(value) && Object.keys(value).length > 0) Object.assign(out, inlineKeys(value, name))
    else out[name] = value
  }
  return out
}

/** Nesting depth of a JSON value (a scalar is 0), stopping once past `limit`. */
export function jsonDepth(value: Json, limit: number, depth = 0): number {
  if (depth > limit) return depth
  let max = depth
  if (Array.isArray(value)) for (const v of value) max = Math.max(max, jsonDepth(v, limit, depth + 1))
  else if (isRecord(value)) for (const v of Object.values(value)) max = Math.max(max, jsonDepth(v, limit, depth + 1))
  return max
}

/**
 * Reads an alert out of a payload. A custom mapping of the integration wins for its field; other
 * fields come from GitLab's default keys. `now` is the start time when the payload gives none.
 */
export function parseAlertPayload(
  payload: Readonly<Record<string, Json>>,
  mappings: readonly AlertFieldMapping[],
  now: Date,
): ParsedAlert {
  const mapped = new Map(mappings.map((m) => [m.fieldName, m.path]))
  const value = (field: AlertFieldName): Json => {
    const custom = mapped.get(field)
    const paths = custom ? [custom] : DEFAULT_PATHS[field]
    for (const path of paths) {
      const v = dig(payload, path)
      if (!isBlank(v)) return v
    }
    return undefined
  }
  const optionalText = (field: AlertFieldName, max: number): string | null => {
    const v = value(field)
    return v === undefined ? null : truncate(text(v), max)
  }
  const runbook = dig(payload, ['runbook'])
  const environment = value('GITLAB_ENVIRONMENT_NAME')
  return {
    title: truncate(text(value('TITLE') ?? DEFAULT_TITLE), TITLE_MAX_LENGTH),
    description: optionalText('DESCRIPTION', DESCRIPTION_MAX_LENGTH),
    startedAt: parseTime(value('START_TIME')) ?? now.toISOString(),
    endedAt: parseTime(value('END_TIME')),
    service: optionalText('SERVICE', SERVICE_MAX_LENGTH),
    monitoringTool: optionalText('MONITORING_TOOL', TOOL_MAX_LENGTH),
    hosts: normaliseHosts(value('HOSTS') ?? []),
    severity: normaliseSeverity(value('SEVERITY')),
    fingerprint: alertFingerprint(payload, value('FINGERPRINT')),
    environmentName: environment === undefined ? null : text(environment),
    runbook: isBlank(runbook) ? null : text(runbook),
  }
}

/** Parses stored mappings (JSON text), dropping entries that are not well-formed. */
export function parseMappings(json: string): AlertFieldMapping[] {
  let raw: unknown
  try {
    raw = JSON.parse(json)
  } catch {
    return []
  }
  if (!Array.isArray(raw)) return []
  return raw.filter(
    (m): m is AlertFieldMapping =>
      isRecord(m) &&
      (ALERT_FIELD_NAMES as readonly string[]).includes(String(m.fieldName)) &&
      Array.isArray(m.path) &&
      m.path.length > 0 &&
      m.path.every((p) => typeof p === 'string' || typeof p === 'number') &&
      (ALERT_FIELD_TYPES as readonly string[]).includes(String(m.type)),
  )
}

/** The payload fields a sample payload offers for mapping: every leaf path with a guessed type. */
export function payloadAlertFields(
  example: Json,
): { path: (string | number)[]; label: string; type: AlertFieldType }[] {
  const out: { path: (string | number)[]; label: string; type: AlertFieldType }[] = []
  const walk = (value: Json, path: string[]): void => {
    if (isRecord(value) && Object.keys(value).length > 0) {
      for (const [k, v] of Object.entries(value)) walk(v, [...path, k])
      return
    }
    if (path.length === 0) return
    const type: AlertFieldType = Array.isArray(value)
      ? 'ARRAY'
      : typeof value === 'number'
        ? 'NUMBER'
        : typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) && parseTime(value)
          ? 'DATETIME'
          : 'STRING'
    out.push({
      path,
      label: path.map((p) => p.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase())).join('/'),
      type,
    })
  }
  walk(example, [])
  return out
}
