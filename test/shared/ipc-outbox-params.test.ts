import { describe, expect, it } from 'vitest'
import { apiValidators } from '../../src/shared/ipc/api'
import { outboxValidators } from '../../src/shared/ipc/outbox-schema'
import { reviewValidators } from '../../src/shared/ipc/review'

/**
 * The outbox's, the review's and `api:send`'s requests are TypeBox schemas (src/shared/ipc/outbox.ts,
 * review.ts, api.ts) checked in the `sentences` style: a refusal is the sentence the hand checks
 * gave, naming its field, and lists every unknown field at once.
 */
const sha = 'a'.repeat(40)
const position = {
  position_type: 'text',
  base_sha: sha,
  start_sha: sha,
  head_sha: sha,
  old_path: 'a.txt',
  new_path: 'a.txt',
  old_line: null,
  new_line: 3,
}

describe('outbox request schemas', () => {
  const ref = { projectId: 1, iid: 2 }

  it.each([
    ['issues:comment', { ...ref, body: 'x', zz: 1, yy: 2 }, 'unknown field(s): zz, yy'],
    ['issues:comment', { iid: 2, body: 'x' }, 'projectId must be a positive integer'],
    [
      'issues:comment',
      { ...ref, iid: 0, body: 'x' },
      "iid must be a positive integer (or a pending creation's temporary, negative one)",
    ],
    ['issues:comment', { ...ref }, 'body must be a non-empty string'],
    [
      'issues:comment',
      { ...ref, body: 'x', discussionId: 'not hex' },
      'discussionId must be a discussion id (hexadecimal)',
    ],
    ['issues:update', { ...ref, changes: { title: 'x', zz: 1 } }, 'unknown field(s): zz'],
    ['issues:update', { ...ref }, 'changes must be an object'],
    ['issues:update', { ...ref, changes: [] }, 'changes must be an object'],
    [
      'issues:update',
      { ...ref, changes: { title: ' ' } },
      'title must be a non-empty string of at most 255 characters',
    ],
    ['issues:update', { ...ref, changes: { assignee_ids: [1, 0] } }, 'assignee_ids must be a list of user ids'],
    ['issues:update', { ...ref, changes: { milestone_id: 'x' } }, 'milestone_id must be a milestone id or null'],
    ['issues:update', { ...ref, changes: { state_event: 'merge' } }, "state_event must be 'close' or 'reopen'"],
    ['issues:update', { ...ref, changes: { weight: 1.5 } }, 'weight must be a whole number from 0, or null'],
    ['issues:update', { ...ref, changes: { reviewer_ids: [3] } }, 'issues have no reviewer_ids'],
    ['merge-requests:update', { ...ref, changes: { weight: 1, epic_id: 2 } }, 'merge requests have no weight, epic_id'],
    ['issues:add-spent-time', { ...ref, seconds: 0 }, 'seconds must be a non-zero integer'],
    [
      'issues:add-spent-time',
      { ...ref, seconds: 60, summary: 'x'.repeat(256) },
      'summary must be a string of at most 255 characters',
    ],
    ['issues:subscribe', { ...ref, subscribed: 'yes' }, 'subscribed must be a boolean'],
    [
      'issues:link',
      { ...ref, targetProjectId: 1, targetIid: 3, linkType: 'duplicates' },
      'linkType must be one of blocks, is_blocked_by, relates_to',
    ],
    ['issues:unlink', { ...ref, targetProjectId: 1, targetIid: 2 }, 'an issue cannot be linked to itself'],
    [
      'issues:create',
      { projectId: 1, fields: { title: 'x', due_date: '2030-02-30' } },
      'due_date must be a date (YYYY-MM-DD)',
    ],
    ['issues:create', { projectId: 1, fields: {} }, 'title must be a non-empty string of at most 255 characters'],
    ['issues:create', { projectId: 1, fields: 'x' }, 'fields must be an object'],
    [
      'issues:create',
      { projectId: 1, fields: { title: 'x', labels: ['a', ' '] } },
      'labels must be a list of label names (no commas)',
    ],
    [
      'merge-requests:create',
      { projectId: 1, fields: { source_branch: 'a..b', target_branch: 'main', title: 'x' } },
      'source_branch: a ref must not contain .. or @{ or be @',
    ],
    [
      'merge-requests:create',
      { projectId: 1, fields: { source_branch: 'main', target_branch: 'main', title: 'x' } },
      'source_branch and target_branch must differ',
    ],
    [
      'merge-requests:comment',
      { ...ref, body: 'x', position: { ...position, line: 3 } },
      'position: unknown field(s): line',
    ],
    [
      'merge-requests:comment',
      { ...ref, body: 'x', position, commitId: 'abc' },
      "commitId must be a commit's full SHA",
    ],
    ['merge-requests:merge', { ...ref, squash: 1 }, 'squash must be a boolean'],
    ['merge-requests:merge', { ...ref, sha: 'HEAD' }, 'sha must be a commit id'],
    ['todos:mark-done', { todoId: -1 }, 'todoId must be a positive integer'],
  ] as const)('%s refuses %j: %s', (channel, request, problem) => {
    expect(outboxValidators[channel](['acct', request])).toBe(problem)
  })

  it('accepts well-formed requests, a pending creation’s negative iid and null to clear a field', () => {
    expect(outboxValidators['issues:comment'](['acct', { projectId: 1, iid: -4, body: 'x' }])).toBeNull()
    const changes = { milestone_id: null, due_date: null, weight: null, epic_id: null, add_labels: ['a b'] }
    expect(outboxValidators['issues:update'](['acct', { ...ref, changes }])).toBeNull()
    const fields = { source_branch: 'feature/x', target_branch: 'main', title: 'x', remove_source_branch: true }
    expect(outboxValidators['merge-requests:create'](['acct', { projectId: 1, fields }])).toBeNull()
    expect(
      outboxValidators['merge-requests:comment'](['acct', { ...ref, body: 'x', position, commitId: sha }]),
    ).toBeNull()
    expect(outboxValidators['outbox:resolve']([3, { choice: 'edited', changes: { title: 'y' } }])).toBeNull()
  })

  it('checks the arguments around the request, and a resolution by the branch its choice names', () => {
    expect(outboxValidators['issues:todo'](['acct'])).toBe('expected [accountId, request], got 1 argument(s)')
    expect(outboxValidators['issues:todo'](['  ', ref])).toBe('accountId must be a non-empty string')
    expect(outboxValidators['issues:todo'](['acct', [1]])).toBe('request must be an object')
    expect(outboxValidators['outbox:list']([{ accountId: 'a', zz: true }])).toBe('unknown field(s): zz')
    expect(outboxValidators['outbox:list']([{ includeSettled: 'yes' }])).toBe('includeSettled must be a boolean')
    expect(outboxValidators['outbox:resolve']([3, { choice: 'mine', changes: {} }])).toBe('unknown field(s): changes')
    expect(outboxValidators['outbox:resolve']([3, { choice: 'edited' }])).toBe('changes must be an object')
    expect(outboxValidators['outbox:resolve']([3, { choice: 'edited', changes: { zz: 1 } }])).toBe(
      'unknown field(s): zz',
    )
  })
})

describe('review request schemas', () => {
  it.each([
    ['reviews:drafts', { projectId: 1, iid: -2 }, 'iid must be a positive integer'],
    ['reviews:add-draft', { projectId: 1, iid: 2, note: 'x', position: 3 }, 'position must be an object'],
    [
      'reviews:add-draft',
      { projectId: 1, iid: 2, note: 'x', discussionId: 'abc', position },
      'a reply takes no position: it goes in its thread',
    ],
    [
      'reviews:add-draft',
      { projectId: 1, iid: 2, note: 'x', discussionId: 'zz' },
      'discussionId must be a discussion id (hexadecimal)',
    ],
    [
      'reviews:delete-draft',
      { projectId: 1, iid: 2, draftId: 'server-0' },
      'draftId must be a draft id (server-N or local-N)',
    ],
    ['reviews:submit', { projectId: 1, iid: 2, approveSha: 'main' }, 'approveSha must be a commit id'],
    ['reviews:submit', { projectId: 1, iid: 2, approve: true }, 'unknown field(s): approve'],
  ] as const)('%s refuses %j: %s', (channel, request, problem) => {
    expect(reviewValidators[channel](['acct', request])).toBe(problem)
  })
})

describe('api:send request schema', () => {
  const send = (request: unknown) => apiValidators['api:send'](['acct', request])

  it.each([
    [{ method: 'GET', path: '/users' }, 'method must be POST, PUT, PATCH or DELETE (reads go through api:get)'],
    [{ method: 'POST', path: 'users' }, 'path must be relative to /api/v4 and start with a single /'],
    [{ method: 'POST', path: '/users', headers: {}, cookie: 'x' }, 'unknown field(s): headers, cookie'],
    [{ method: 'POST', path: '/users', body: [1] }, 'body must be a plain JSON object'],
    [{ method: 'POST', path: '/users', query: { 'a=b': 1 } }, 'invalid query parameter name "a=b"'],
    [
      { method: 'POST', path: '/users', invalidates: ['/a', 'b'] },
      'invalidates: path must be relative to /api/v4 and start with a single /',
    ],
    [
      { method: 'POST', path: '/users', invalidates: Array.from({ length: 21 }, () => '/a') },
      'invalidates must be a list of at most 20 paths',
    ],
    [{ path: '/users' }, 'method must be POST, PUT, PATCH or DELETE (reads go through api:get)'],
    [new Date(), 'request must be a plain object {method, path, query?, body?, invalidates?}'],
    ['POST /users', 'request must be a plain object {method, path, query?, body?, invalidates?}'],
  ])('refuses %j: %s', (request, problem) => {
    expect(send(request)).toBe(problem)
  })

  it('refuses a wrong count of arguments and a missing account, naming the argument', () => {
    const request = { method: 'POST', path: '/users' }
    expect(apiValidators['api:send']([request])).toBe('expected [accountId, request], got 1 argument(s)')
    expect(apiValidators['api:send'](['acct', request, {}])).toBe('expected [accountId, request], got 3 argument(s)')
    expect(apiValidators['api:send'](['', request])).toBe('accountId must be a non-empty string')
    expect(apiValidators['api:send']([7, request])).toBe('accountId must be a non-empty string')
  })

  it('accepts a write with a query, a body and other paths to refresh', () => {
    const request = {
      method: 'PUT',
      path: '/runners/3',
      query: { a: [1, 'b'] },
      body: { paused: true },
      invalidates: ['/runners'],
    }
    expect(send(request)).toBeNull()
  })
})
