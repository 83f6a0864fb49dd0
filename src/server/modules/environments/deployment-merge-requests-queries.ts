import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'

/** A successful deployment whose shipped merge requests are not linked yet. */
export interface UnlinkedDeployment {
  readonly id: number
  readonly project_id: number
  readonly environment_id: number
  readonly ref: string
  readonly tag: number
  readonly sha: string
  readonly finished_at: string | null
  readonly updated_at: string
  readonly tier: string
  /** The environment's previous successful deployment's commit, null for its first. */
  readonly previous_sha: string | null
}

/** Successful deployments not examined yet (of these projects, when given), oldest first. */
export function unlinkedDeployments(db: Db, projectIds?: readonly number[]): UnlinkedDeployment[] {
  return db
    .prepare(
      `SELECT d.id, d.project_id, d.environment_id, d.ref, d.tag, d.sha, d.finished_at, d.updated_at, e.tier,
         (SELECT p.sha FROM deployments p WHERE p.environment_id = d.environment_id AND p.status = 'success' AND p.id < d.id ORDER BY p.id DESC LIMIT 1) AS previous_sha
       FROM deployments d JOIN environments e ON e.id = d.environment_id
       WHERE d.status = 'success' AND d.id NOT IN (SELECT deployment_id FROM deployment_links_made)
         ${projectIds ? 'AND d.project_id IN (SELECT value FROM json_each(?))' : ''}
       ORDER BY d.id`,
    )
    .all(...(projectIds ? [JSON.stringify(projectIds)] : [])) as UnlinkedDeployment[]
}

/**
 * Merged merge requests into `ref` of the project whose merge, squash or (fast-forwarded) head
 * commit is one of `shas`; with `shas` null, every one merged by `until` (an environment's first
 * deployment ships everything merged before it).
 */
export function mergedMergeRequestsShipped(
  db: Db,
  projectId: number,
  ref: string,
  shas: readonly string[] | null,
  until: string,
): number[] {
  if (shas === null) {
    return db
      .prepare(
        "SELECT id FROM merge_requests WHERE project_id = ? AND target_branch = ? AND state = 'merged' AND merged_at <= ?",
      )
      .pluck()
      .all(projectId, ref, until) as number[]
  }
  if (shas.length === 0) return []
  return db
    .prepare(
      `SELECT id FROM merge_requests WHERE project_id = ?1 AND target_branch = ?2 AND state = 'merged' AND (
         merge_commit_sha IN (SELECT value FROM json_each(?3)) OR squash_commit_sha IN (SELECT value FROM json_each(?3))
         OR (merge_commit_sha IS NULL AND head_sha IN (SELECT value FROM json_each(?3))))`,
    )
    .pluck()
    .all({ 1: projectId, 2: ref, 3: JSON.stringify(shas) }) as number[]
}

/**
 * Records what a deployment shipped and that it was examined; a deployment to a production-tier
 * environment also sets `first_deployed_to_production_at` on merge requests that had none.
 */
export function recordDeploymentLinks(
  db: Db,
  deployment: UnlinkedDeployment,
  mergeRequestIds: readonly number[],
): void {
  db.transaction(() => {
    const marked = db
      .prepare('INSERT OR IGNORE INTO deployment_links_made (deployment_id, created_at) VALUES (?, ?)')
      .run(deployment.id, nowIso())
    if (marked.changes === 0) return
    const link = db.prepare(
      'INSERT OR IGNORE INTO deployment_merge_requests (deployment_id, merge_request_id) VALUES (?, ?)',
    )
    for (const id of mergeRequestIds) link.run(deployment.id, id)
    if (deployment.tier === 'production' && mergeRequestIds.length > 0) {
      db.prepare(
        'UPDATE merge_requests SET first_deployed_to_production_at = ? WHERE id IN (SELECT value FROM json_each(?)) AND first_deployed_to_production_at IS NULL',
      ).run(deployment.finished_at ?? deployment.updated_at, JSON.stringify(mergeRequestIds))
    }
  })()
}

/** Merge request ids a deployment shipped, in id order. */
export function mergeRequestIdsOfDeployment(db: Db, deploymentId: number): number[] {
  return db
    .prepare('SELECT merge_request_id FROM deployment_merge_requests WHERE deployment_id = ? ORDER BY merge_request_id')
    .pluck()
    .all(deploymentId) as number[]
}
