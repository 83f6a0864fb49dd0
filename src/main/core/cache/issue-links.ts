import type { ApiClient } from '../api/client'
import type { CachedGet } from './http-cache'
import { isRecord } from './json'

/*
 * An issue's linked items (GitLab's issue links) are kept for offline reading as the saved
 * answer of their list in the URL cache: the sync saves them for issues that changed
 * (sync/run.ts), the issue page reads them through `api:get`, and the outbox saves them again
 * after a link it added or removed landed.
 */

/** The list of an issue's links: `GET /projects/:id/issues/:iid/links`. */
export function issueLinksPath(projectId: number, iid: number): string {
  return `/projects/${projectId}/issues/${iid}/links`
}

/** Whether a saved links answer names an open issue that blocks the issue it lists the links of. */
function namesOpenBlocker(body: unknown): boolean {
  return Array.isArray(body) && body.some((l) => isRecord(l) && l.link_type === 'is_blocked_by' && l.state === 'opened')
}

/**
 * The ids of the issues among `issues` that an open issue blocks, by their saved links (GitLab's
 * "blocked" marker); an issue whose links were never saved counts as not blocked.
 */
export function blockedIssueIds(
  saved: CachedGet,
  accountId: string,
  client: ApiClient,
  issues: readonly { readonly id: number; readonly project_id: number; readonly iid: number }[],
): Set<number> {
  const blocked = new Set<number>()
  for (const issue of issues) {
    if (issue.iid <= 0) continue
    const links = saved.saved(accountId, client, issueLinksPath(issue.project_id, issue.iid))
    if (links !== null && namesOpenBlocker(links.body)) blocked.add(issue.id)
  }
  return blocked
}
