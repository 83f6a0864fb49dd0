import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openCache, type Cache } from '../../src/main/core/cache/index'
import { createCore, type Core } from '../../src/main/core/index'
import { EVENT_CHANNELS, REQUEST_CHANNELS, type IpcEvents } from '../../src/shared/ipc/contract'

type Preferences = IpcEvents['preferences:did-change']

/*
 * The notify and preferences channels at the boundary: argument validation (before any handler
 * runs, so no server is needed), the allowlists the preload and the web host build from the
 * contract, and preferences kept in the cache database across launches.
 */

let dir: string
let cache: Cache
let core: Core
const preferenceEvents: Preferences[] = []

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'burrow-notify-channels-'))
  cache = openCache({ userDataDir: dir })
  core = createCore({ version: '0.1.0', mode: 'browser', serverUrl: null, cache })
  preferenceEvents.length = 0
  core.events.subscribe((event, payload) => {
    if (event === 'preferences:did-change') preferenceEvents.push(payload)
  })
})

afterEach(async () => {
  await core.dispose()
  cache.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('notify channels', () => {
  it('are in the allowlists the preload and the web host use', () => {
    expect(REQUEST_CHANNELS).toEqual(
      expect.arrayContaining([
        'notify:summary',
        'notify:check',
        'notify:list-alerts',
        'alerts:update-status',
        'alerts:assign',
        'preferences:get',
        'preferences:set',
      ]),
    )
    expect(EVENT_CHANNELS).toEqual(
      expect.arrayContaining([
        'notify:did-change',
        'notify:did-announce',
        'preferences:did-change',
        'app:did-request-route',
      ]),
    )
  })

  it('refuse malformed arguments with the reason', async () => {
    const statuses = 'triggered, acknowledged, resolved, ignored'
    const cases: [string, unknown[], string][] = [
      ['notify:summary', [1], 'expected no arguments, got 1'],
      ['notify:check', [''], 'accountId must be a non-empty string'],
      ['notify:check', ['a', 'b'], 'expected [accountId?], got 2 argument(s)'],
      ['alerts:assign', ['', { projectId: 1, iid: 2, assigneeUsernames: [] }], 'accountId must be a non-empty string'],
      ['alerts:update-status', ['a', 'resolved'], 'request must be an object'],
      ['notify:list-alerts', ['account'], 'expected one request {accountId, status?}'],
      ['notify:list-alerts', [{ status: 'open' }], 'accountId must be a non-empty string'],
      ['notify:list-alerts', [{ accountId: 'a', status: 'closed' }], `status must be one of ${statuses}, open, all`],
      ['notify:list-alerts', [{ accountId: 'a', project: 1 }], 'unknown field(s): project'],
      [
        'alerts:update-status',
        [{ projectId: 1, iid: 2, status: 'resolved' }],
        'expected [accountId, request], got 1 argument(s)',
      ],
      ['alerts:update-status', ['a', { projectId: 1, iid: 0, status: 'resolved' }], 'iid must be a positive integer'],
      [
        'alerts:update-status',
        ['a', { projectId: '1', iid: 2, status: 'resolved' }],
        'projectId must be a positive integer',
      ],
      [
        'alerts:update-status',
        ['a', { projectId: 1, iid: 2, status: 'RESOLVED' }],
        `status must be one of ${statuses}`,
      ],
      [
        'alerts:update-status',
        ['a', { projectId: 1, iid: 2, status: 'resolved', note: 'x' }],
        'unknown field(s): note',
      ],
      [
        'alerts:assign',
        ['a', { projectId: 1, iid: 2, assigneeUsernames: 'mara' }],
        'assigneeUsernames must be a list of usernames',
      ],
      [
        'alerts:assign',
        ['a', { projectId: 1, iid: 2, assigneeUsernames: ['mara', 'two words'] }],
        'assigneeUsernames must be a list of usernames',
      ],
      ['preferences:get', [{}], 'expected no arguments, got 1'],
      ['preferences:set', [{}], 'give at least one preference'],
      ['preferences:set', [{ notifications: 'off' }], 'notifications must be a boolean'],
      ['preferences:set', [{ notifyIntervalSeconds: 5 }], 'notifyIntervalSeconds must be an integer from 30 to 3600'],
      [
        'preferences:set',
        [{ notifyIntervalSeconds: 90.5 }],
        'notifyIntervalSeconds must be an integer from 30 to 3600',
      ],
      ['preferences:set', [{ volume: 11 }], 'unknown field(s): volume'],
    ]
    for (const [channel, args, message] of cases) {
      expect(await core.dispatch(channel, args), `${channel} ${JSON.stringify(args)}`).toEqual({
        ok: false,
        error: { code: 'invalid-arguments', message: `${channel}: ${message}`, details: { channel } },
      })
    }
  })

  it('answer unavailable in a launch without accounts (no watcher to ask)', async () => {
    expect(await core.dispatch('notify:summary', [])).toMatchObject({ ok: false, error: { code: 'unavailable' } })
    expect(await core.dispatch('alerts:assign', ['a', { projectId: 1, iid: 1, assigneeUsernames: [] }])).toMatchObject({
      ok: false,
      error: { code: 'unavailable' },
    })
  })
})

describe('preferences', () => {
  it('start with notifications on and a one-minute check interval', async () => {
    expect(await core.dispatch('preferences:get', [])).toMatchObject({
      ok: true,
      result: { notifications: true, notifyIntervalSeconds: 60 },
    })
  })

  it('announce a change once, and keep it for the next launch', async () => {
    expect(
      await core.dispatch('preferences:set', [{ notifications: false, notifyIntervalSeconds: 300 }]),
    ).toMatchObject({ ok: true, result: { notifications: false, notifyIntervalSeconds: 300 } })
    await core.dispatch('preferences:set', [{ notifications: false }])
    expect(preferenceEvents).toEqual([expect.objectContaining({ notifications: false, notifyIntervalSeconds: 300 })])

    await core.dispose()
    cache.close()
    cache = openCache({ userDataDir: dir })
    core = createCore({ version: '0.1.0', mode: 'browser', serverUrl: null, cache })
    expect(await core.dispatch('preferences:get', [])).toMatchObject({
      ok: true,
      result: { notifications: false, notifyIntervalSeconds: 300 },
    })
  })

  it('fall back to the default for a stored value of the wrong type', async () => {
    cache.db.prepare("INSERT INTO app_preferences (key, value) VALUES ('notifyIntervalSeconds', '\"soon\"')").run()
    await core.dispose()
    core = createCore({ version: '0.1.0', mode: 'browser', serverUrl: null, cache })
    expect(await core.dispatch('preferences:get', [])).toMatchObject({
      ok: true,
      result: { notifications: true, notifyIntervalSeconds: 60 },
    })
  })
})
