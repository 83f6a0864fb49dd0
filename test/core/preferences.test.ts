import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openAccounts } from '../../src/main/core/accounts/index'
import { openCache, type Cache } from '../../src/main/core/cache/index'
import { createCore, type Core } from '../../src/main/core/index'
import { EVENT_CHANNELS, REQUEST_CHANNELS } from '../../src/shared/ipc/contract'
import {
  DEFAULT_PREFERENCES,
  MAX_RECENT_ITEMS,
  MAX_SAVED_FILTERS,
  type Preferences,
  type RecentItem,
  type SavedFilter,
} from '../../src/shared/ipc/preferences'

/*
 * The app preferences through createCore, as both shells wire them: validated at the boundary,
 * announced once per change, and read back by the next launch on the same app data dir (browser
 * mode's page gets a new origin each launch, so this is the only place they survive).
 */

let dir: string
let cache: Cache
let core: Core
let events: Preferences[]

function launch(): void {
  cache = openCache({ userDataDir: dir })
  core = createCore({ version: '0.1.0', mode: 'browser', serverUrl: null, cache })
  events = []
  core.events.subscribe((event, payload) => {
    if (event === 'preferences:did-change') events.push(payload)
  })
}

async function relaunch(): Promise<void> {
  await core.dispose()
  cache.close()
  launch()
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'burrow-preferences-'))
  launch()
})

afterEach(async () => {
  await core.dispose()
  cache.close()
  rmSync(dir, { recursive: true, force: true })
})

const filter = (id: string, name: string, account = 'all'): SavedFilter => ({
  id,
  name,
  query: 'labels=bug&state=opened',
  account,
})
const recent: RecentItem = {
  accountId: 'local',
  kind: 'issue',
  route: '/a/local/projects/3/issues/12',
  title: 'Postcodes in Ireland',
  reference: 'geo/maps#12',
}

describe('preferences channels', () => {
  it('are in the allowlists of the preload and the web host', () => {
    expect(REQUEST_CHANNELS).toEqual(expect.arrayContaining(['preferences:get', 'preferences:set']))
    expect(EVENT_CHANNELS).toContain('preferences:did-change')
  })

  it('start from the defaults', async () => {
    expect(await core.dispatch('preferences:get', [])).toEqual({ ok: true, result: DEFAULT_PREFERENCES })
    expect(DEFAULT_PREFERENCES).toMatchObject({
      theme: 'system',
      sidebarCollapsed: false,
      savedFilters: [],
      syncIntervalMinutes: 5,
    })
  })

  it('refuse unknown keys and values of the wrong shape, naming the problem', async () => {
    const tooMany = Array.from({ length: MAX_SAVED_FILTERS + 1 }, (_, i) => filter(`f${i}`, `Filter ${i}`))
    const cases: [unknown[], string][] = [
      [[{ theme: 'sepia' }], 'theme must be one of system, light, dark'],
      [[{ sidebarCollapsed: 'yes' }], 'sidebarCollapsed must be a boolean'],
      [[{ syncIntervalMinutes: 0 }], 'syncIntervalMinutes must be an integer from 1 to 1440'],
      [[{ syncIntervalMinutes: 2.5 }], 'syncIntervalMinutes must be an integer from 1 to 1440'],
      [[{ savedFilters: {} }], 'savedFilters must be a list'],
      [[{ savedFilters: tooMany }], `savedFilters holds at most ${MAX_SAVED_FILTERS} filters`],
      [[{ savedFilters: [{ ...filter('a', 'A'), colour: 'red' }] }], 'savedFilters[0]: unknown field(s): colour'],
      [
        [{ savedFilters: [filter('a', ' padded ')] }],
        'savedFilters[0].name must be a trimmed string of 1 to 200 characters',
      ],
      [
        [{ savedFilters: [{ id: 'a', name: 'A', query: 1, account: 'all' }] }],
        'savedFilters[0].query must be a string of at most 4000 characters',
      ],
      [[{ savedFilters: [filter('a', 'A'), filter('a', 'B')] }], 'savedFilters ids must be unique'],
      [[{ lastToken: 'glpat-x' }], 'unknown field(s): lastToken'],
      [[{}], 'give at least one preference'],
      [
        [{ recentItems: [{ ...recent, kind: 'snippet' }] }],
        'recentItems[0].kind must be one of issue, merge_request, epic, milestone',
      ],
      [
        [{ recentItems: [{ ...recent, route: 'https://evil.example/' }] }],
        'recentItems[0].route must be an item route (/a/…)',
      ],
      [
        [{ recentItems: Array.from({ length: MAX_RECENT_ITEMS + 1 }, () => recent) }],
        `recentItems holds at most ${MAX_RECENT_ITEMS} items`,
      ],
      [
        [{ mutedTopics: { acc: ['birthdays'] } }],
        'mutedTopics[acc] must be a list of distinct topics among mentions, assignments, reviews, otherTodos, alerts',
      ],
      [
        [{ mutedTopics: { acc: ['alerts', 'alerts'] } }],
        'mutedTopics[acc] must be a list of distinct topics among mentions, assignments, reviews, otherTodos, alerts',
      ],
      [[{ mutedTopics: ['alerts'] }], 'mutedTopics must be an object of account ids to lists of topics'],
      [
        [{ viewedFiles: [{ accountId: 'a', projectId: 1, iid: 2, headSha: 'not a sha', paths: [] }] }],
        'viewedFiles[0].headSha must be a commit id',
      ],
      [
        [{ viewedFiles: [{ accountId: 'a', projectId: 1, iid: 2, headSha: 'abcdef1', paths: [''] }] }],
        'viewedFiles[0].paths must be a list of at most 5000 file paths',
      ],
      [
        [],
        'expected one object with some of notifications, notifyIntervalSeconds, theme, sidebarCollapsed, savedFilters, syncIntervalMinutes, recentItems, mutedTopics, viewedFiles',
      ],
    ]
    for (const [args, message] of cases) {
      expect(await core.dispatch('preferences:set', args), JSON.stringify(args)).toEqual({
        ok: false,
        error: {
          code: 'invalid-arguments',
          message: `preferences:set: ${message}`,
          details: { channel: 'preferences:set' },
        },
      })
    }
    expect(events).toEqual([])
  })

  it('keep theme, sidebar, saved filters, the sync interval, recent items and viewed files for the next launch', async () => {
    const saved = [filter('f1', 'My bugs', 'local'), filter('f2', 'Everything')]
    const viewed = [{ accountId: 'local', projectId: 3, iid: 7, headSha: 'abcdef1234567', paths: ['src/a.ts'] }]
    const answer = await core.dispatch('preferences:set', [
      {
        theme: 'dark',
        sidebarCollapsed: true,
        savedFilters: saved,
        syncIntervalMinutes: 15,
        recentItems: [recent],
        viewedFiles: viewed,
      },
    ])
    expect(answer).toEqual({
      ok: true,
      result: {
        ...DEFAULT_PREFERENCES,
        theme: 'dark',
        sidebarCollapsed: true,
        savedFilters: saved,
        syncIntervalMinutes: 15,
        recentItems: [recent],
        viewedFiles: viewed,
      },
    })
    await relaunch()
    expect(await core.dispatch('preferences:get', [])).toEqual(answer)
  })

  it('take a key given as undefined (kept by Electron IPC) as not given', async () => {
    expect(await core.dispatch('preferences:set', [{ theme: undefined, sidebarCollapsed: true }])).toEqual({
      ok: true,
      result: { ...DEFAULT_PREFERENCES, sidebarCollapsed: true },
    })
    expect(await core.dispatch('preferences:set', [{ theme: undefined }])).toEqual({
      ok: true,
      result: { ...DEFAULT_PREFERENCES, sidebarCollapsed: true },
    })
    expect(events).toEqual([{ ...DEFAULT_PREFERENCES, sidebarCollapsed: true }])
    await relaunch()
    expect(await core.dispatch('preferences:get', [])).toEqual({
      ok: true,
      result: { ...DEFAULT_PREFERENCES, sidebarCollapsed: true },
    })
  })

  it('announce a change once with the whole set, and nothing when a value is set to what it is', async () => {
    await core.dispatch('preferences:set', [{ savedFilters: [filter('f1', 'Mine')] }])
    await core.dispatch('preferences:set', [{ savedFilters: [filter('f1', 'Mine')], theme: 'system' }])
    expect(events).toEqual([{ ...DEFAULT_PREFERENCES, savedFilters: [filter('f1', 'Mine')] }])
  })

  it('fall back per key to the default when a stored value is no longer valid', async () => {
    await core.dispatch('preferences:set', [{ theme: 'light', sidebarCollapsed: true }])
    cache.db.prepare("UPDATE app_preferences SET value = '\"sepia\"' WHERE key = 'theme'").run()
    cache.db
      .prepare(
        "INSERT INTO app_preferences (key, value) VALUES ('savedFilters', '[{\"id\":1}]'), ('syncIntervalMinutes', 'not json')",
      )
      .run()
    await relaunch()
    expect(await core.dispatch('preferences:get', [])).toEqual({
      ok: true,
      result: { ...DEFAULT_PREFERENCES, sidebarCollapsed: true },
    })
  })

  it('answer unavailable in a launch without a cache', async () => {
    const bare = createCore({ version: '0.1.0', mode: 'browser', serverUrl: null })
    expect(await bare.dispatch('preferences:get', [])).toMatchObject({ ok: false, error: { code: 'unavailable' } })
    await bare.dispose()
  })
})

describe('the sync interval preference', () => {
  afterEach(() => vi.useRealTimers())

  it('sets the time between periodic syncs, and a change takes effect at once', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] })
    const accounts = await openAccounts({ userDataDir: dir, encryptedFilePassphrase: 'test passphrase' })
    const scheduled = createCore({ version: '0.1.0', mode: 'browser', serverUrl: null, cache, accounts })
    const runs: string[] = []
    scheduled.events.subscribe((event, payload) => {
      if (event === 'sync:did-finish') runs.push(payload.accountId)
    })
    // An account id nobody has: each periodic run ends at once (account-not-found), which is all this counts.
    scheduled.sync?.schedule('ghost')
    await vi.advanceTimersByTimeAsync(5 * 60_000 - 1_000)
    expect(runs).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(runs).toHaveLength(1)
    await scheduled.dispatch('preferences:set', [{ syncIntervalMinutes: 1 }])
    await vi.advanceTimersByTimeAsync(60_000)
    expect(runs).toHaveLength(2)
    await scheduled.dispose()
    accounts.dispose()
  })
})
