import type { Runner, RunnerDetail } from '../../../shared/api/runner'
import { ONLINE_CONTACT_TIMEOUT_MS, runnerTags, type RunnerRow } from './queries'

/** A project as runner details list it. */
export interface RunnerProjectRef {
  readonly id: number
  readonly name: string
  readonly name_with_namespace: string
  readonly path: string
  readonly path_with_namespace: string
}

/** A group as runner details list it. */
export interface RunnerGroupRef {
  readonly id: number
  readonly name: string
  readonly web_url: string
}

/** True when the runner asked for jobs within the contact timeout. */
export function runnerOnline(row: Pick<RunnerRow, 'contacted_at'>, now = Date.now()): boolean {
  return row.contacted_at !== null && Date.parse(row.contacted_at) > now - ONLINE_CONTACT_TIMEOUT_MS
}

/** `paused` when not active, else `online` or `offline` by last contact (never contacted counts as offline). */
export function runnerStatus(
  row: Pick<RunnerRow, 'active' | 'contacted_at'>,
  now = Date.now(),
): 'online' | 'offline' | 'paused' {
  if (row.active !== 1) return 'paused'
  return runnerOnline(row, now) ? 'online' : 'offline'
}

/** GitLab's Runner entity: the summary fields lists return. The token never appears. */
export function runnerEntity(row: RunnerRow, now = Date.now()): Runner {
  return {
    id: row.id,
    description: row.description,
    ip_address: row.ip_address,
    active: row.active === 1,
    paused: row.active !== 1,
    is_shared: row.runner_type === 'instance_type',
    runner_type: row.runner_type,
    name: row.name,
    online: runnerOnline(row, now),
    status: runnerStatus(row, now),
    created_at: row.created_at,
  }
}

/** GitLab's RunnerDetails entity: the summary plus configuration, reported versions and owners. */
export function runnerDetailEntity(
  row: RunnerRow,
  owners: {
    readonly projects: readonly RunnerProjectRef[]
    readonly groups: readonly RunnerGroupRef[]
    readonly showMaintenanceNote: boolean
  },
  now = Date.now(),
): RunnerDetail {
  return {
    ...runnerEntity(row, now),
    tag_list: runnerTags(row),
    run_untagged: row.run_untagged === 1,
    locked: row.locked === 1,
    maximum_timeout: row.maximum_timeout,
    access_level: row.access_level,
    version: row.version,
    revision: row.revision,
    platform: row.platform,
    architecture: row.architecture,
    contacted_at: row.contacted_at,
    maintenance_note: owners.showMaintenanceNote ? row.maintenance_note : null,
    projects: [...owners.projects],
    groups: [...owners.groups],
  }
}
