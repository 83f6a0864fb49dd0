import type {
  CommentRequest,
  ItemRef,
  ItemTarget,
  Mutation,
  OutboxEntry,
  OutboxRequests,
  OutboxTarget,
  SpentTimeRequest,
  SubscribeRequest,
  TimeEstimateRequest,
  UpdateRequest,
} from '../../../shared/ipc/outbox'
import {
  applySuggestion,
  applySuggestions,
  approveMergeRequest,
  mergeMergeRequest,
  rebaseMergeRequest,
} from './online-only'
import type { Outbox, OutboxAccounts } from './outbox'

/** One async function per outbox channel (handlers.ts spreads them into the contract's handlers). */
export type OutboxHandlers = {
  readonly [C in keyof OutboxRequests]: (...args: OutboxRequests[C]['args']) => Promise<OutboxRequests[C]['result']>
}

const target = (type: ItemTarget['type'], r: ItemRef): ItemTarget => ({ type, projectId: r.projectId, iid: r.iid })

const comment = (r: Pick<CommentRequest, 'body' | 'discussionId' | 'position' | 'commitId'>): Mutation =>
  r.discussionId !== undefined
    ? { kind: 'reply', discussionId: r.discussionId, body: r.body }
    : r.position !== undefined
      ? {
          kind: 'comment',
          body: r.body,
          position: r.position,
          ...(r.commitId === undefined ? {} : { commitId: r.commitId }),
        }
      : { kind: 'comment', body: r.body }

/**
 * The outbox channels over an Outbox: item writes of issues and merge requests become queued
 * mutations; merge, rebase and approvals go to the server at once or are refused offline.
 * `services` is read on each call, so a launch without an outbox answers `unavailable` there.
 */
export function outboxHandlers(
  services: () => { readonly outbox: Outbox; readonly accounts: OutboxAccounts },
): OutboxHandlers {
  const queue = (accountId: string, t: OutboxTarget, m: Mutation): Promise<OutboxEntry> =>
    services().outbox.enqueue(accountId, t, m)
  const item = (type: ItemTarget['type']) => ({
    comment: async (accountId: string, r: CommentRequest) => queue(accountId, target(type, r), comment(r)),
    update: async (accountId: string, r: UpdateRequest) =>
      queue(accountId, target(type, r), { kind: 'update', changes: r.changes }),
    estimate: async (accountId: string, r: TimeEstimateRequest) =>
      queue(accountId, target(type, r), { kind: 'time-estimate', seconds: r.seconds }),
    spend: async (accountId: string, r: SpentTimeRequest) =>
      queue(
        accountId,
        target(type, r),
        r.summary === undefined
          ? { kind: 'add-spent-time', seconds: r.seconds }
          : { kind: 'add-spent-time', seconds: r.seconds, summary: r.summary },
      ),
    todo: async (accountId: string, r: ItemRef) => queue(accountId, target(type, r), { kind: 'todo' }),
    subscribe: async (accountId: string, r: SubscribeRequest) =>
      queue(accountId, target(type, r), { kind: 'subscription', subscribed: r.subscribed }),
  })
  const issue = item('issue')
  const mr = item('merge_request')
  return {
    'issues:create': async (accountId, r) =>
      services().outbox.create(
        accountId,
        { type: 'issue', projectId: r.projectId },
        { kind: 'create-issue', fields: r.fields },
      ),
    'merge-requests:create': async (accountId, r) =>
      services().outbox.create(
        accountId,
        { type: 'merge_request', projectId: r.projectId },
        { kind: 'create-merge-request', fields: r.fields },
      ),
    'issues:comment': issue.comment,
    'issues:update': issue.update,
    'issues:time-estimate': issue.estimate,
    'issues:add-spent-time': issue.spend,
    'issues:todo': issue.todo,
    'issues:subscribe': issue.subscribe,
    'issues:link': async (accountId, r) =>
      queue(accountId, target('issue', r), {
        kind: 'link',
        targetProjectId: r.targetProjectId,
        targetIid: r.targetIid,
        linkType: r.linkType,
      }),
    'issues:unlink': async (accountId, r) =>
      queue(accountId, target('issue', r), {
        kind: 'unlink',
        targetProjectId: r.targetProjectId,
        targetIid: r.targetIid,
      }),
    'merge-requests:comment': mr.comment,
    'merge-requests:update': mr.update,
    'merge-requests:time-estimate': mr.estimate,
    'merge-requests:add-spent-time': mr.spend,
    'merge-requests:todo': mr.todo,
    'merge-requests:subscribe': mr.subscribe,
    'todos:mark-done': async (accountId, r) =>
      queue(accountId, { type: 'todo', todoId: r.todoId }, { kind: 'todo-done' }),
    'commits:comment': async (accountId, r) =>
      queue(accountId, { type: 'commit', projectId: r.projectId, sha: r.sha }, comment(r)),
    'merge-requests:merge': async (accountId, r) => mergeMergeRequest(services().accounts, accountId, r),
    'merge-requests:rebase': async (accountId, r) => rebaseMergeRequest(services().accounts, accountId, r),
    'merge-requests:approve': async (accountId, r) => approveMergeRequest(services().accounts, accountId, r, true),
    'merge-requests:unapprove': async (accountId, r) => approveMergeRequest(services().accounts, accountId, r, false),
    'merge-requests:apply-suggestion': async (accountId, r) => applySuggestion(services().accounts, accountId, r),
    'merge-requests:apply-suggestions': async (accountId, r) => applySuggestions(services().accounts, accountId, r),
    'outbox:list': async (filter) => services().outbox.list(filter),
    'outbox:retry': async (id) => services().outbox.retry(id),
    'outbox:discard': async (id) => services().outbox.discard(id),
    'outbox:resolve': async (id, resolution) => services().outbox.resolve(id, resolution),
  }
}
