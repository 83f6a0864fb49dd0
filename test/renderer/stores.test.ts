// @vitest-environment jsdom
import { flushPromises } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createApp, defineComponent, h } from 'vue'
import { beforeEach, describe, expect, it } from 'vitest'
import { bridgeKey } from '../../src/renderer/bridge'
import { DEFAULT_ISSUE_FILTER } from '../../src/renderer/lib/issue-filter'
import { createAppRouter } from '../../src/renderer/router'
import { ALL_ACCOUNTS, useAccountsStore } from '../../src/renderer/stores/accounts'
import { useCommandsStore } from '../../src/renderer/stores/commands'
import { usePreferencesStore } from '../../src/renderer/stores/preferences'
import { useSavedFiltersStore } from '../../src/renderer/stores/saved-filters'
import type { IpcResponse } from '../../src/shared/ipc/contract'
import { DEFAULT_PREFERENCES, type Preferences } from '../../src/shared/ipc/preferences'
import { fakeTransport, ROOT_ACCOUNT, type FakeTransport } from './support/fake-bridge'

const ADA = { ...ROOT_ACCOUNT, id: 'acc-ada', username: 'ada', userId: 2, name: 'Ada Lovelace' }

/** An app with pinia and the bridge, not mounted: stores and the router run in its context. */
function appWith(transport: FakeTransport) {
  const pinia = createPinia()
  const app = createApp(defineComponent({ render: () => h('div') }))
  app.provide(bridgeKey, transport.bridge).use(pinia)
  setActivePinia(pinia)
  return app
}

beforeEach(() => localStorage.clear())

describe('useAccountsStore', () => {
  it('selects the only account, remembers a choice, and follows accounts:did-change', async () => {
    const transport = fakeTransport({ 'accounts:list': { ok: true, result: [ROOT_ACCOUNT] } })
    const app = appWith(transport)
    const store = app.runWithContext(() => useAccountsStore())
    await store.ensureLoaded()
    expect(store.current?.username).toBe('root')
    transport.emit('accounts:did-change', [ROOT_ACCOUNT, ADA])
    expect(store.selection).toBe(ALL_ACCOUNTS)
    store.select('acc-ada')
    expect(store.current?.username).toBe('ada')
    expect(JSON.parse(localStorage.getItem('burrow.selected-account') ?? 'null')).toBe('acc-ada')
    // The remembered account is removed elsewhere: back to the only one left.
    transport.emit('accounts:did-change', [ROOT_ACCOUNT])
    expect(store.current?.username).toBe('root')
  })

  it('shares one accounts:list between concurrent loads and keeps a failure readable', async () => {
    const transport = fakeTransport({
      'accounts:list': { ok: false, error: { code: 'unavailable', message: 'no core' } },
    })
    const store = appWith(transport).runWithContext(() => useAccountsStore())
    await Promise.all([store.ensureLoaded(), store.ensureLoaded()])
    expect(transport.calls.filter((c) => c.channel === 'accounts:list')).toHaveLength(1)
    expect(store.loaded).toBe(false)
    expect(store.error).toMatchObject({ code: 'unavailable', title: 'Burrow is not connected' })
  })
})

describe('router', () => {
  it('sends every route to the first-run screen while there is no account', async () => {
    const transport = fakeTransport({ 'accounts:list': { ok: true, result: [] } })
    const app = appWith(transport)
    const router = createAppRouter()
    app.use(router)
    await router.push('/issues')
    expect(router.currentRoute.value.name).toBe('welcome')
  })

  it('sends the first-run screen home once an account exists', async () => {
    const transport = fakeTransport({ 'accounts:list': { ok: true, result: [ROOT_ACCOUNT] } })
    const app = appWith(transport)
    const router = createAppRouter()
    app.use(router)
    await router.push('/welcome')
    expect(router.currentRoute.value.name).toBe('home')
    await router.push('/merge-requests')
    expect(router.currentRoute.value.meta).toMatchObject({ title: 'Merge requests', family: 'merge-requests' })
  })
})

describe('useCommandsStore', () => {
  it('registers, hides disabled commands, runs, and unregisters only its own', async () => {
    setActivePinia(createPinia())
    const store = useCommandsStore()
    const ran: string[] = []
    const off = store.register(
      { id: 'a', title: 'A', group: 'G', run: () => void ran.push('a') },
      { id: 'b', title: 'B', group: 'G', enabled: () => false, run: () => void ran.push('b') },
    )
    expect(store.commands.map((c) => c.id)).toEqual(['a'])
    const replacement = store.register({ id: 'a', title: 'A2', group: 'G', run: () => void ran.push('a2') })
    off()
    expect(store.commands.map((c) => c.title)).toEqual(['A2'])
    await store.run('a')
    await store.run('b')
    expect(ran).toEqual(['a2'])
    replacement()
    expect(store.commands).toEqual([])
  })
})

/** Core's preferences channels over an in-memory set, as a launch would keep them. */
function preferencesCore(initial: Partial<Preferences> = {}): {
  answers: Record<string, (...args: readonly unknown[]) => IpcResponse>
  stored: () => Preferences
} {
  let stored: Preferences = { ...DEFAULT_PREFERENCES, ...initial }
  return {
    answers: {
      'preferences:get': () => ({ ok: true, result: stored }),
      'preferences:set': (changes) => {
        stored = { ...stored, ...(changes as Partial<Preferences>) }
        return { ok: true, result: stored }
      },
    },
    stored: () => stored,
  }
}

describe('usePreferencesStore', () => {
  it('shows what core keeps, sends changes to it, and follows preferences:did-change', async () => {
    const core = preferencesCore({ theme: 'dark' })
    const transport = fakeTransport(core.answers)
    const store = appWith(transport).runWithContext(() => usePreferencesStore())
    await flushPromises()
    expect(store.theme).toBe('dark')
    store.cycleTheme()
    expect(store.theme).toBe('system')
    store.sidebarCollapsed = true
    await flushPromises()
    expect(core.stored()).toMatchObject({ theme: 'system', sidebarCollapsed: true })
    transport.emit('preferences:did-change', { ...core.stored(), theme: 'light' })
    expect(store.theme).toBe('light')
  })

  it('starts from the look this page last showed until core answers, so a restart does not flash another theme', async () => {
    localStorage.setItem('burrow.preferences', JSON.stringify({ theme: 'dark', sidebarCollapsed: true }))
    const store = appWith(fakeTransport({})).runWithContext(() => usePreferencesStore())
    expect(store.theme).toBe('dark')
    expect(store.sidebarCollapsed).toBe(true)
    // No core to ask (the channel fails): the page stays usable with what it has.
    await flushPromises()
    store.theme = 'light'
    await flushPromises()
    expect(store.theme).toBe('light')
  })
})

describe('useSavedFiltersStore', () => {
  it('saves filters as query strings in core, replaces by name, and lists per account', async () => {
    const core = preferencesCore()
    const store = appWith(fakeTransport(core.answers)).runWithContext(() => useSavedFiltersStore())
    await flushPromises()
    store.save('Mine', { ...DEFAULT_ISSUE_FILTER, scope: 'assigned_to_me' }, 'acc-root')
    store.save('Bugs', { ...DEFAULT_ISSUE_FILTER, labels: ['bug'] }, 'all')
    const replaced = store.save('Mine', { ...DEFAULT_ISSUE_FILTER, scope: 'created_by_me' }, 'acc-root')
    expect(store.forAccount('acc-root').map((f) => f.name)).toEqual(['Mine', 'Bugs'])
    expect(store.forAccount('acc-ada').map((f) => f.name)).toEqual(['Bugs'])
    expect(store.filterOf(replaced).scope).toBe('created_by_me')
    await flushPromises()
    expect(core.stored().savedFilters.map((f) => f.name)).toEqual(['Mine', 'Bugs'])
    // A new page (a restart, on another origin: nothing in localStorage) reads them back from core.
    localStorage.clear()
    const again = appWith(fakeTransport(core.answers)).runWithContext(() => useSavedFiltersStore())
    await flushPromises()
    expect(again.filters.map((f) => f.query)).toContain(
      'labels=bug&order_by=created_at&scope=all&sort=desc&state=opened',
    )
    again.remove(replaced.id)
    await flushPromises()
    expect(core.stored().savedFilters.map((f) => f.name)).toEqual(['Bugs'])
  })
})
