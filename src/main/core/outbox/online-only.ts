import type {
  ApplySuggestionRequest,
  ApplySuggestionsRequest,
  ItemRef,
  MergeRequestMergeRequest,
  MergeRequestRebaseRequest,
} from '../../../shared/ipc/outbox'
import { NetworkError } from '../api/errors'
import type { JsonObject } from '../cache/json'
import { OutboxError, type OutboxAccounts } from './outbox'

/**
 * Actions that are never queued: their result depends on the server's state at that moment
 * (a merge needs the branch as it is now, an approval belongs to the head being reviewed), so
 * replaying them later could do something the user did not see. Offline, they are refused
 * with a reason instead.
 */

const ACTIONS = {
  merge: 'Merging',
  rebase: 'Rebasing',
  approve: 'Approving',
  unapprove: 'Revoking an approval',
  applySuggestion: 'Applying a suggestion',
  applySuggestions: 'Applying suggestions',
} as const

export type OnlineOnlyAction = keyof typeof ACTIONS

function offline(action: OnlineOnlyAction, host: string, detail?: string): OutboxError {
  return new OutboxError(
    'offline',
    `${ACTIONS[action]} needs a connection to ${host}, which cannot be reached${detail === undefined ? '' : ` (${detail})`}. It is not queued for later: it depends on the merge request as it is on the server when you do it.`,
  )
}

async function online<T>(
  accounts: OutboxAccounts,
  accountId: string,
  action: OnlineOnlyAction,
  run: (client: Awaited<ReturnType<OutboxAccounts['clientFor']>>) => Promise<T>,
): Promise<T> {
  const client = await accounts.clientFor(accountId)
  const host = new URL(client.baseUrl).host
  if (!accounts.connectivityFor(accountId).online) throw offline(action, host)
  try {
    return await run(client)
  } catch (error) {
    if (error instanceof NetworkError) throw offline(action, host, error.message)
    throw error
  }
}

const mrPath = (r: ItemRef): string => `/projects/${r.projectId}/merge_requests/${r.iid}`

/** `PUT …/merge`: the merged merge request. */
export function mergeMergeRequest(
  accounts: OutboxAccounts,
  accountId: string,
  r: MergeRequestMergeRequest,
): Promise<JsonObject> {
  const body: Record<string, unknown> = {}
  if (r.mergeCommitMessage !== undefined) body.merge_commit_message = r.mergeCommitMessage
  if (r.squashCommitMessage !== undefined) body.squash_commit_message = r.squashCommitMessage
  if (r.squash !== undefined) body.squash = r.squash
  if (r.shouldRemoveSourceBranch !== undefined) body.should_remove_source_branch = r.shouldRemoveSourceBranch
  if (r.sha !== undefined) body.sha = r.sha
  return online(accounts, accountId, 'merge', (client) => client.put<JsonObject>(`${mrPath(r)}/merge`, body))
}

/** `PUT …/rebase`: starts a rebase on the server (`rebase_in_progress`; poll the merge request). */
export function rebaseMergeRequest(
  accounts: OutboxAccounts,
  accountId: string,
  r: MergeRequestRebaseRequest,
): Promise<JsonObject> {
  return online(accounts, accountId, 'rebase', (client) =>
    client.put<JsonObject>(`${mrPath(r)}/rebase`, r.skipCi === undefined ? {} : { skip_ci: r.skipCi }),
  )
}

/** `POST …/approve` or `…/unapprove`: the approval state. */
export function approveMergeRequest(
  accounts: OutboxAccounts,
  accountId: string,
  r: ItemRef,
  approve: boolean,
): Promise<JsonObject> {
  return online(accounts, accountId, approve ? 'approve' : 'unapprove', (client) =>
    client.post<JsonObject>(`${mrPath(r)}/${approve ? 'approve' : 'unapprove'}`),
  )
}

/**
 * `PUT /suggestions/:id/apply`: the applied suggestion. A connection lost mid-request leaves the
 * commit's outcome unknown; the user sees why and may try again, which the server refuses as
 * already applied if the first one landed.
 */
export function applySuggestion(
  accounts: OutboxAccounts,
  accountId: string,
  r: ApplySuggestionRequest,
): Promise<JsonObject> {
  const body = r.commitMessage === undefined ? {} : { commit_message: r.commitMessage }
  return online(accounts, accountId, 'applySuggestion', (client) =>
    client.put<JsonObject>(`/suggestions/${r.suggestionId}/apply`, body),
  )
}

/**
 * `PUT /suggestions/batch_apply`: the applied suggestions, all in one commit. The server applies
 * all or none: its refusal (one already applied, outdated, of another merge request) names no id.
 */
export function applySuggestions(
  accounts: OutboxAccounts,
  accountId: string,
  r: ApplySuggestionsRequest,
): Promise<JsonObject[]> {
  const body = { ids: r.suggestionIds, ...(r.commitMessage === undefined ? {} : { commit_message: r.commitMessage }) }
  return online(accounts, accountId, 'applySuggestions', (client) =>
    client.put<JsonObject[]>('/suggestions/batch_apply', body),
  )
}
