import type { GroupHook, HookEvent, ProjectHook, SystemHook } from '../../../shared/api/hook'
import type { HookLogRow, HookRow } from './queries'

/** A hook's state under GitLab's auto-disable: runs, is disabled for a while, or until re-enabled. */
export type HookAlertStatus = 'executable' | 'temporarily_disabled' | 'disabled'

/** The alert status of `row` at `now`: a temporary disablement that has run out is executable again. */
export function alertStatusOf(row: HookRow, now: Date): HookAlertStatus {
  if (row.permanently_disabled) return 'disabled'
  if (row.disabled_until !== null && Date.parse(row.disabled_until) > now.getTime()) return 'temporarily_disabled'
  return 'executable'
}

/** The names of a hook's URL variables and custom headers: their values are never shown. */
export interface HookKeys {
  readonly urlVariables: readonly string[]
  readonly customHeaders: readonly string[]
}

const keyList = (keys: readonly string[]): { key: string }[] => keys.map((key) => ({ key }))

/** GitLab's SystemHook entity (the fields every hook shares). */
export function systemHookEntity(row: HookRow, keys: HookKeys, now: Date): SystemHook {
  const status = alertStatusOf(row, now)
  return {
    id: row.id,
    url: row.url,
    name: row.name,
    description: row.description,
    created_at: row.created_at,
    push_events: row.push_events === 1,
    tag_push_events: row.tag_push_events === 1,
    merge_requests_events: row.merge_requests_events === 1,
    repository_update_events: row.repository_update_events === 1,
    enable_ssl_verification: row.enable_ssl_verification === 1,
    alert_status: status,
    disabled_until: status === 'temporarily_disabled' ? row.disabled_until : null,
    url_variables: keyList(keys.urlVariables),
    push_events_branch_filter: row.push_events_branch_filter,
    branch_filter_strategy: row.branch_filter_strategy,
    custom_headers: keyList(keys.customHeaders),
  }
}

function projectEventFields(row: HookRow) {
  return {
    issues_events: row.issues_events === 1,
    confidential_issues_events: row.confidential_issues_events === 1,
    note_events: row.note_events === 1,
    confidential_note_events: row.confidential_note_events === 1,
    pipeline_events: row.pipeline_events === 1,
    wiki_page_events: row.wiki_page_events === 1,
    job_events: row.job_events === 1,
    releases_events: row.releases_events === 1,
  }
}

/** GitLab's ProjectHook entity. */
export function projectHookEntity(row: HookRow, keys: HookKeys, now: Date): ProjectHook {
  return {
    ...systemHookEntity(row, keys, now),
    ...projectEventFields(row),
    project_id: row.project_id ?? 0,
  }
}

/** GitLab's GroupHook entity. */
export function groupHookEntity(row: HookRow, keys: HookKeys, now: Date): GroupHook {
  return {
    ...systemHookEntity(row, keys, now),
    ...projectEventFields(row),
    group_id: row.group_id ?? 0,
  }
}

/** One delivery as the hook events API lists it. */
export function hookEventEntity(row: HookLogRow): HookEvent {
  return {
    id: row.id,
    url: row.url,
    trigger: row.trigger,
    request_headers: JSON.parse(row.request_headers) as Record<string, string>,
    request_data: JSON.parse(row.request_data) as Record<string, unknown>,
    response_headers: JSON.parse(row.response_headers) as Record<string, string>,
    response_body: row.response_body,
    execution_duration: row.execution_duration,
    response_status: row.response_status,
    internal_error_message: row.internal_error_message,
    created_at: row.created_at,
  }
}
