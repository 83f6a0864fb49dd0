import { describe, expect, it } from 'vitest'
import { createCore } from '../../src/main/core/index'
import type { RequestChannel } from '../../src/shared/ipc/contract'

/**
 * The requests of accounts:add, avatars:get, the alert channels and preferences:set are TypeBox
 * schemas checked in sentences (src/shared/ipc/schema-check.ts); these are the answers the renderer
 * gets for bad arguments that test/core/notify-channels and preferences do not already cover.
 */
describe('request schemas refused in sentences', () => {
  const core = createCore({ version: '0.1.0', mode: 'browser', serverUrl: null })
  const refusal = async (channel: RequestChannel, args: unknown[]): Promise<string> => {
    const answer = await core.dispatch(channel, args)
    if (answer.ok) throw new Error(`${channel} accepted ${JSON.stringify(args)}`)
    expect(answer.error.code).toBe('invalid-arguments')
    return answer.error.message.replace(`${channel}: `, '')
  }

  it.each([
    [{ baseUrl: 'not a url', token: 't' }, 'baseUrl must be an http(s) URL without credentials'],
    [{ baseUrl: 'https://ada:pw@x.test', token: 't' }, 'baseUrl must be an http(s) URL without credentials'],
    [{ baseUrl: 'https://x.test', token: '' }, 'token must be a non-empty string'],
    [{ baseUrl: 'https://x.test', token: 't', password: 'p' }, 'unknown field(s): password'],
    [{ baseUrl: 'https://x.test', username: 'ada', password: '' }, 'password must be a non-empty string'],
    [{ baseUrl: 'https://x.test', username: 'ada' }, 'password must be a non-empty string'],
    [{ baseUrl: 'https://x.test', token: 't', caFile: '' }, 'caFile must be a non-empty path'],
    [{ baseUrl: 'https://x.test', token: 't', extra: 1 }, 'unknown field(s): extra'],
    ['https://x.test', 'expected an object'],
  ])('accounts:add refuses %j: %s', async (request, message) => {
    expect(await refusal('accounts:add', [request])).toBe(message)
  })

  it('avatars:get refuses a malformed request, then a URL it must not fetch', async () => {
    expect(await refusal('avatars:get', ['local'])).toBe('expected one request {accountId, url}')
    expect(await refusal('avatars:get', [{ accountId: '', url: 'https://x.test/a.png' }])).toBe(
      'accountId must be a non-empty string',
    )
    expect(await refusal('avatars:get', [{ accountId: 'a', url: 'https://x.test/a.png', size: 1 }])).toBe(
      'unknown field(s): size',
    )
    expect(await refusal('avatars:get', [{ accountId: 'a', url: 'file:///etc/passwd' }])).toMatch(
      /^url must be an http\(s\) URL/,
    )
  })

  it('the alert actions refuse a request that is no object, and too many assignees', async () => {
    expect(await refusal('alerts:update-status', ['a', 'resolved'])).toBe('request must be an object')
    const many = Array.from({ length: 101 }, (_, i) => `user${i}`)
    expect(await refusal('alerts:assign', ['a', { projectId: 1, iid: 2, assigneeUsernames: many }])).toBe(
      'assigneeUsernames must be a list of usernames',
    )
    expect(await refusal('alerts:assign', ['a', { projectId: 1, iid: 2 }])).toBe(
      'assigneeUsernames must be a list of usernames',
    )
  })

  it.each([
    [{ savedFilters: [3] }, 'savedFilters[0] must be an object {id, name, query, account}'],
    [
      { savedFilters: [{ id: 'a', name: 'A\n', query: '', account: 'all' }] },
      'savedFilters[0].name must be a trimmed string of 1 to 200 characters',
    ],
    [{ mutedTopics: { '': ['alerts'] } }, 'mutedTopics keys must be account ids of 1 to 200 characters'],
    [
      { viewedFiles: [{ accountId: 'a', projectId: 0, iid: 2, headSha: 'abcdef1', paths: [] }] },
      'viewedFiles[0].projectId must be a positive integer',
    ],
    [{ viewedFiles: 'all' }, 'viewedFiles must be a list'],
    [{ theme: 'dark', notifyIntervalSeconds: 3601 }, 'notifyIntervalSeconds must be an integer from 30 to 3600'],
  ])('preferences:set refuses %j: %s', async (changes, message) => {
    expect(await refusal('preferences:set', [changes])).toBe(message)
  })
})
