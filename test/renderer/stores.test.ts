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
import { useSavedFiltersStore } from '../../src/renderer/stores/saved-filters'
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
    const transport = fakeTransport({ 'accounts:list': { ok: false, error: { code: 'unavailable', message: 'no core' } } })
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
    const off = store.register({ id: 'a', title: 'A', group: 'G', run: () => void ran.push('a') }, { id: 'b', title: 'B', group: 'G', enabled: () => false, run: () => void ran.push('b') })
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

describe('useSavedFiltersStore', () => {
  it('saves filters as query strings, replaces by name, and lists per account', async () => {
    setActivePinia(createPinia())
    const store = useSavedFiltersStore()
    store.save('Mine', { ...DEFAULT_ISSUE_FILTER, scope: 'assigned_to_me' }, 'acc-root')
    store.save('Bugs', { ...DEFAULT_ISSUE_FILTER, labels: ['bug'] }, 'all')
    const replaced = store.save('Mine', { ...DEFAULT_ISSUE_FILTER, scope: 'created_by_me' }, 'acc-root')
    expect(store.forAccount('acc-root').map((f) => f.name)).toEqual(['Mine', 'Bugs'])
    expect(store.forAccount('acc-ada').map((f) => f.name)).toEqual(['Bugs'])
    expect(store.filterOf(replaced).scope).toBe('created_by_me')
    // A new store (a restart) reads them back.
    setActivePinia(createPinia())
    expect(useSavedFiltersStore().filters.map((f) => f.query)).toContain('labels=bug&order_by=created_at&scope=all&sort=desc&state=opened')
    await flushPromises()
  })
})
