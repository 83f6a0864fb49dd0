import type { ServerContext } from '../../platform/context'
import {
  mergedMergeRequestsShipped,
  recordDeploymentLinks,
  unlinkedDeployments,
} from './deployment-merge-requests-queries'
import { findProjectById } from '../namespaces'
import { commitsBetween } from '../../platform/git/commits'
import { projectGitDir, repoExists } from '../../platform/git/project-repo'

/**
 * Links successful deployments to the merge requests they shipped, as GitLab's
 * LinkMergeRequestsService does when a deployment succeeds: the merge requests merged into the
 * deployed branch whose commits lie between the environment's previous successful deployment and
 * this one, or, for its first, every one merged before it. Done lazily, the first time a merge
 * request list filters by deployments or a merge request shows `first_deployed_to_production_at`,
 * so the CI and deployment code needs no hook; each deployment is examined once.
 */
export async function linkDeployedMergeRequests(ctx: ServerContext, projectIds?: readonly number[]): Promise<void> {
  for (const d of unlinkedDeployments(ctx.db, projectIds)) {
    let ids: number[] = []
    const project = findProjectById(ctx.db, d.project_id)
    if (project && d.tag === 0) {
      const until = d.finished_at ?? d.updated_at
      if (d.previous_sha === null) {
        ids = mergedMergeRequestsShipped(ctx.db, d.project_id, d.ref, null, until)
      } else {
        const gitDir = projectGitDir(ctx, project)
        // Commits the repository no longer has (rewritten history) ship nothing rather than fail the list.
        const shas = repoExists(gitDir) ? await commitsBetween(gitDir, d.previous_sha, d.sha).catch(() => []) : []
        ids = mergedMergeRequestsShipped(ctx.db, d.project_id, d.ref, shas, until)
      }
    }
    recordDeploymentLinks(ctx.db, d, ids)
  }
}
