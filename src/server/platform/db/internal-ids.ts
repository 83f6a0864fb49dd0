import type { Db } from './connection'

export type IidUsage =
  'issues' | 'merge_requests' | 'milestones' | 'epics' | 'deployments' | 'ci_pipelines' | 'alert_management_alerts'

/**
 * Hands out the next iid for a project (or group, for epics and group milestones). Never reuses
 * a value, even after deletes, like GitLab's InternalId. Call it inside the transaction that
 * inserts the row; better-sqlite3 runs one statement at a time, so concurrent requests never
 * get the same value. `floor` (the highest iid already used in the scope) keeps the counter
 * above rows inserted with explicit iids.
 */
export function nextIid(
  db: Db,
  scope: { readonly projectId: number } | { readonly groupId: number },
  usage: IidUsage,
  floor = 0,
): number {
  const [scopeType, scopeId] = 'projectId' in scope ? ['Project', scope.projectId] : ['Namespace', scope.groupId]
  const row = db
    .prepare(
      `INSERT INTO internal_ids (scope_type, scope_id, usage, last_value) VALUES (?, ?, ?, ? + 1)
       ON CONFLICT (scope_type, scope_id, usage) DO UPDATE SET last_value = MAX(last_value, excluded.last_value - 1) + 1
       RETURNING last_value`,
    )
    .get(scopeType, scopeId, usage, floor) as { last_value: number }
  return row.last_value
}

/**
 * Drops the counters of projects or groups being deleted: their ids are never handed out again
 * (AUTOINCREMENT), so nothing would read them, and a counter must never outlive its scope.
 */
export function deleteIidCounters(
  db: Db,
  scope: { readonly projectIds: readonly number[] } | { readonly groupIds: readonly number[] },
): void {
  const [scopeType, ids] = 'projectIds' in scope ? ['Project', scope.projectIds] : ['Namespace', scope.groupIds]
  db.prepare('DELETE FROM internal_ids WHERE scope_type = ? AND scope_id IN (SELECT value FROM json_each(?))').run(
    scopeType,
    JSON.stringify(ids),
  )
}
