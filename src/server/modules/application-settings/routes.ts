import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Value } from 'typebox/value'
import * as Api from '../../../shared/api/index'
import { isRecord } from '../../../shared/json'
import { callerOf } from '../../platform/caller'
import { DEFAULT_SETTINGS, type SettingKey, type SettingValue } from '../../platform/settings'
import { invalidParam, validationFailed } from '../../platform/http/errors'
import { booleanWord } from '../../platform/http/loose-params'
import { parseAllowlistEntry } from '../../platform/outbound/outbound'
import { requireAdmin } from '../../platform/http/resolve'
import { recordAudit } from '../audit-events'
import { applicationSettingsEntity } from './entity'

/** What each entry of a list setting must be; GitLab caps each list at 1000 entries. */
const LIST_ENTRY_CHECKS: Partial<Record<SettingKey, (entry: string) => boolean>> = {
  outbound_local_requests_whitelist: (entry) => entry.length <= 255 && parseAllowlistEntry(entry) !== null,
}
const MAX_LIST_ENTRIES = 1000

/** A list given as an array or as text separated by commas, semicolons or white space (GitLab takes both). */
function coerceList(key: SettingKey, raw: unknown): readonly string[] {
  const items: unknown[] | null = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/[\s,;]+/) : null
  if (items === null || !items.every((item): item is string => typeof item === 'string')) throw invalidParam(key)
  const entries = items.map((item) => item.trim()).filter((item) => item !== '')
  const valid = LIST_ENTRY_CHECKS[key] ?? (() => true)
  if (entries.length > MAX_LIST_ENTRIES || !entries.every(valid)) throw invalidParam(key)
  return entries
}

/** Settings GitLab validates as whole numbers greater than 0. */
const POSITIVE_INTEGERS: ReadonlySet<SettingKey> = new Set([
  'max_login_attempts',
  'failed_login_attempts_unlock_period_in_minutes',
])

/** Settings naming a visibility level (`private`, `internal` or `public`). */
const VISIBILITIES: ReadonlySet<SettingKey> = new Set(['default_project_visibility', 'default_group_visibility'])

/**
 * Coerces an input to the type of the setting's default, or 400 `<key> is invalid` (numbers are
 * whole, as GitLab declares them) or `<key> does not have a valid value` (visibilities).
 */
function coerce(key: SettingKey, raw: unknown): SettingValue {
  if (Array.isArray(DEFAULT_SETTINGS[key])) return coerceList(key, raw)
  const kind = typeof DEFAULT_SETTINGS[key]
  if (kind === 'boolean') {
    if (typeof raw === 'boolean') return raw
    const value = booleanWord(String(raw))
    if (value === undefined) throw invalidParam(key)
    return value
  }
  if (kind === 'number') {
    const n = typeof raw === 'number' ? raw : Number(String(raw))
    if (String(raw).trim() === '' || !Number.isInteger(n)) throw invalidParam(key)
    if (POSITIVE_INTEGERS.has(key) && !(Number.isInteger(n) && n > 0))
      throw validationFailed({ [key]: ['must be greater than 0'] })
    return n
  }
  if (raw === null || typeof raw === 'object') throw invalidParam(key)
  const text = String(raw)
  if (VISIBILITIES.has(key) && !Value.Check(Api.Visibility, text))
    throw invalidParam(key, 'does not have a valid value')
  return text
}

/** A setting's value as audit details hold it: a list as its entries joined by commas. */
function auditValue(value: SettingValue): string | number | boolean {
  return typeof value === 'object' ? value.join(', ') : value
}

/** `GET`/`PUT /application/settings`: the instance settings Burrow honours, administrators only. */
const applicationSettings: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow
  // python-gitlab decodes single objects only under the exact `application/json` type.

  app.get('/application/settings', { schema: { response: { 200: Api.ApplicationSettings } } }, async (request) => {
    requireAdmin(request)
    return applicationSettingsEntity(ctx.settings.all())
  })

  app.put('/application/settings', { schema: { response: { 200: Api.ApplicationSettings } } }, async (request) => {
    const admin = requireAdmin(request)
    const params = isRecord(request.body) ? request.body : {}
    const changes: Partial<Record<SettingKey, SettingValue>> = {}
    for (const [key, raw] of Object.entries(params)) {
      if (!(key in DEFAULT_SETTINGS) || raw === undefined) continue
      changes[key as SettingKey] = coerce(key as SettingKey, raw)
    }
    const before = { ...ctx.settings.all() }
    const after = ctx.settings.update(changes)
    for (const key of Object.keys(changes) as SettingKey[]) {
      const [from, to] = [auditValue(before[key]), auditValue(after[key])]
      if (from === to) continue
      recordAudit(callerOf(request), {
        entityType: 'User',
        entityId: admin.id,
        entityPath: admin.username,
        targetType: 'ApplicationSetting',
        targetDetails: key,
        change: { change: key, from, to },
      })
    }
    return applicationSettingsEntity(after)
  })
}

export default applicationSettings
