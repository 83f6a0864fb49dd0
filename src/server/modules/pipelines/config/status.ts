import type { CiStatus } from '../queries'

/** A job's status and whether it may fail, the two things composite statuses are computed from. */
export interface StatusInput {
  readonly status: CiStatus
  readonly allow_failure: number | boolean
}

type StatusKey = CiStatus | 'success_with_warnings' | 'ignored'

/**
 * The status of a set of jobs, GitLab's Gitlab::Ci::Status::Composite: a failed or canceled job
 * that may fail counts as success with warnings, a manual job that may fail is ignored. With
 * `dag`, the set is a job's needs: one that will not run skips it, an unfinished one holds it.
 * Null for an empty set.
 */
export function compositeStatus(jobs: readonly StatusInput[], dag = false): CiStatus | null {
  if (jobs.length === 0) return null
  const set = new Set<StatusKey>()
  for (const j of jobs) {
    const allowFailure = j.allow_failure === true || j.allow_failure === 1
    if (allowFailure && (j.status === 'failed' || j.status === 'canceled')) set.add('success_with_warnings')
    else if (allowFailure && j.status === 'manual') set.add('ignored')
    else set.add(j.status)
  }
  const only = (...names: StatusKey[]): boolean => {
    const matching = names.filter((n) => set.has(n)).length
    return matching > 0 && matching === set.size
  }
  const any = (...names: StatusKey[]): boolean => names.some((n) => set.has(n))
  if (dag && any('skipped', 'ignored')) return 'skipped'
  if (dag && !only('success', 'failed', 'canceled', 'skipped', 'success_with_warnings')) return 'pending'
  if (only('skipped', 'ignored')) return 'skipped'
  if (only('success', 'skipped', 'success_with_warnings', 'ignored')) return 'success'
  if (only('created', 'success_with_warnings', 'ignored')) return 'created'
  if (only('preparing', 'success_with_warnings', 'ignored')) return 'preparing'
  if (only('canceled', 'success', 'skipped', 'success_with_warnings', 'ignored')) return 'canceled'
  if (only('pending', 'created', 'skipped', 'success_with_warnings', 'ignored')) return 'pending'
  if (any('running', 'pending')) return 'running'
  if (any('waiting_for_resource')) return 'waiting_for_resource'
  if (any('manual')) return 'manual'
  if (any('scheduled')) return 'scheduled'
  if (any('preparing')) return 'preparing'
  if (any('created')) return 'running'
  return 'failed'
}

/**
 * What a `created` job becomes once the jobs before it (or its needs) reached `prior`, GitLab's
 * ProcessBuildService: it runs (`pending`), waits for a person (`manual`), or is `skipped`.
 * Delayed jobs start at once here (Burrow has no scheduler for `start_in`).
 */
export function nextJobStatus(when: string, prior: CiStatus, dag: boolean): CiStatus {
  let valid: readonly CiStatus[]
  if (when === 'on_failure') valid = ['failed']
  else if (when === 'always') valid = ['success', 'failed', 'skipped']
  else valid = dag ? ['success'] : ['success', 'skipped']
  if (!valid.includes(prior)) return 'skipped'
  return when === 'manual' ? 'manual' : 'pending'
}
