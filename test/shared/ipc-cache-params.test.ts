import { describe, expect, it } from 'vitest'
import { createCore } from '../../src/main/core/index'
import type { RequestChannel } from '../../src/shared/ipc/contract'

/**
 * The cache channels' parameters are TypeBox schemas (src/shared/ipc/cache.ts) whose compiled
 * checks guard the dispatcher; these are the answers the renderer gets for bad arguments.
 */
describe('cache channel parameters checked from their schemas', () => {
  const core = createCore({ version: '0.1.0', mode: 'browser', serverUrl: null })
  const refusal = async (channel: string, args: unknown[]): Promise<string> => {
    const answer = await core.dispatch(channel as RequestChannel, args)
    if (answer.ok) throw new Error(`${channel} accepted ${JSON.stringify(args)}`)
    expect(answer.error.code).toBe('invalid-arguments')
    return answer.error.message
  }

  it.each([
    [{ zz: 1 }, 'unknown field zz'],
    [{ not: { zz: 1 } }, 'not: unknown field zz'],
    [{ not: { iids: [1, 'x'] } }, 'not: invalid iids'],
    [{ not: 3 }, 'not: expected an object'],
    [{ labels: [1] }, 'invalid labels'],
    [{ labels: Array.from({ length: 51 }, (_, i) => `l${i}`) }, 'invalid labels'],
    [{ created_after: 'not a date' }, 'invalid created_after'],
    [{ assignee_id: 'Some' }, 'invalid assignee_id'],
    [{ in: 'notes' }, 'invalid in'],
    [{ limit: 501 }, 'invalid limit'],
    [{ offset: -1 }, 'invalid offset'],
    [3, 'expected an object'],
    [[], 'expected an object'],
  ])('issues:list refuses %j: %s', async (params, problem) => {
    expect(await refusal('issues:list', ['acct', params])).toBe(`issues:list: params: ${problem}`)
  })

  it('refuses a blank search query and an unknown kind', async () => {
    expect(await refusal('search:query', ['acct', { query: '  ' }])).toBe('search:query: params: invalid query')
    expect(await refusal('search:query', ['acct', { query: 'x', kinds: ['wiki'] }])).toBe(
      'search:query: params: invalid kinds',
    )
  })

  it('refuses an item reference that mixes its two forms, and a custom scope without its lists', async () => {
    expect(await refusal('issues:get', ['acct', { id: 1, iid: 2 }])).toBe(
      'issues:get: ref: expected {id} or {project_id, iid} (integers)',
    )
    expect(await refusal('epics:get', ['acct', { project_id: 1, iid: 2 }])).toBe(
      'epics:get: ref: expected {id} or {group_id, iid} (integers)',
    )
    expect(await refusal('sync:set-scope', ['acct', { mode: 'custom', project_ids: [1] }])).toMatch(
      /^sync:set-scope: scope: expected \{mode: 'memberships'\} or \{mode: 'custom'/,
    )
    expect(await refusal('sync:set-scope', ['acct', { mode: 'memberships', project_ids: [] }])).toMatch(/expected/)
  })

  it("passes GitLab's quirks to the handler: None/Any, labels as a list or a comma string, dates, undefined fields", async () => {
    const params = {
      labels: ['bug', 'ui'],
      not: { labels: 'wontfix,dup', iids: [1, 2] },
      assignee_id: 'None',
      weight: 'Any',
      epic_id: 4,
      created_after: '2024-01-01',
      updated_before: '2024-01-01T10:00:00Z',
      in: 'title,description',
      limit: undefined,
    }
    // No such account: the handler runs (the arguments passed) and fails on the account, not the check.
    const answer = await core.dispatch('issues:list', ['acct', params])
    expect(answer.ok ? null : answer.error.code).not.toBe('invalid-arguments')
    const ref = await core.dispatch('issues:get', ['acct', { project_id: 1, iid: 2 }, { refresh: false }])
    expect(ref.ok ? null : ref.error.code).not.toBe('invalid-arguments')
  })
})
