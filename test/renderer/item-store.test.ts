// @vitest-environment jsdom
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createApp, defineComponent, h, nextTick } from 'vue'
import { createMemoryHistory, createRouter } from 'vue-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import WorkItemRow from '../../src/renderer/components/work/WorkItemRow.vue'
import { bridgeKey } from '../../src/renderer/bridge'
import type { Issue } from '../../src/renderer/lib/items'
import { useCacheChangesStore } from '../../src/renderer/stores/cache-changes'
import { useItemStore } from '../../src/renderer/stores/items'
import { useTodosStore } from '../../src/renderer/stores/todos'
import type { IpcResponse } from '../../src/shared/ipc/contract'
import type { OutboxEntry, OutboxState } from '../../src/shared/ipc/outbox'
import { fakeTransport, type FakeTransport } from './support/fake-bridge'

/*
 * The per-account item store: every issue and merge request write is built there, shows on
 * screen in the same frame, and comes off when core refuses it or its outbox entry settles.
 * Core is faked (the Electron preload cannot run here); the end-to-end specs run the real one.
 */

enableAutoUnmount(afterEach)

const ACCOUNT = 'acc'
const ada = { id: 1, username: 'ada', name: 'Ada', avatar_url: null }
const issue: Issue = {
  id: 501,
  iid: 12,
  project_id: 5,
  title: 'Parser stalls',
  description: null,
  state: 'opened',
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-02T00:00:00Z',
  closed_at: null,
  author: ada,
  assignees: [],
  labels: ['bug', 'workflow::blocked'],
  milestone: null,
  user_notes_count: 0,
  web_url: '',
  confidential: false,
  due_date: null,
}

function entry(id: number, state: OutboxState, changes: object = {}): OutboxEntry {
  return {
    id,
    accountId: ACCOUNT,
    target: { type: 'issue', projectId: 5, iid: 12 },
    mutation: { kind: 'update', changes },
    base: null,
    state,
    reason: null,
    status: null,
    conflict: null,
    attempts: 0,
    blockedBy: null,
    createdAt: '',
    updatedAt: '',
    sentAt: null,
    settledAt: null,
  }
}

/** Core's `issues:update`, held until `release` so a test can look at the screen before core answers. */
function heldUpdates() {
  const waiting: ((r: IpcResponse) => void)[] = []
  let next = 40
  return {
    answer: () => new Promise<IpcResponse>((resolve) => waiting.push(resolve)),
    release: (state: OutboxState = 'queued') => waiting.shift()?.({ ok: true, result: entry(++next, state) }),
    refuse: () =>
      waiting.shift()?.({ ok: false, error: { code: 'not-cached', message: 'This issue is not on this computer.' } }),
  }
}

function appWith(answers: Parameters<typeof fakeTransport>[0]): {
  transport: FakeTransport
  store: ReturnType<typeof useItemStore>
  app: ReturnType<typeof createApp>
} {
  const transport = fakeTransport({ 'todos:list': { ok: true, result: [] }, ...answers })
  const pinia = createPinia()
  const app = createApp(defineComponent({ render: () => h('div') }))
  app.provide(bridgeKey, transport.bridge).use(pinia)
  setActivePinia(pinia)
  return { transport, store: app.runWithContext(() => useItemStore(ACCOUNT)), app }
}
const updatesOf = (transport: FakeTransport) =>
  transport.calls.filter((c) => c.channel === 'issues:update').map((c) => (c.args[1] as { changes: unknown }).changes)

describe('the item store', () => {
  it('shows a label in the same frame it is added, before core answers, and keeps it while the entry is queued', async () => {
    const held = heldUpdates()
    const { store } = appWith({ 'issues:update': held.answer })
    const write = store.addLabels('issue', issue, ['ui'])
    // No await: what the views read already has it.
    expect(store.show('issue', issue).labels).toEqual(['bug', 'workflow::blocked', 'ui'])
    expect(store.hasWrites('issue', issue)).toBe(true)
    held.release('queued')
    expect((await write)?.changes).toEqual({ add_labels: ['ui'] })
    expect(store.show('issue', issue).labels).toEqual(['bug', 'workflow::blocked', 'ui'])
  })

  it('a scoped label takes the place of the one of its scope on screen, as the server will', () => {
    const { store } = appWith({ 'issues:update': heldUpdates().answer })
    void store.addLabels('issue', issue, ['workflow::ready'])
    expect(store.show('issue', issue).labels).toEqual(['bug', 'workflow::ready'])
  })

  it('a write core refuses comes off the screen, and the refusal reaches the caller', async () => {
    const held = heldUpdates()
    const { store } = appWith({ 'issues:update': held.answer })
    const write = store.setState('issue', issue, 'close')
    expect(store.show('issue', issue).state).toBe('closed')
    held.refuse()
    await expect(write).rejects.toMatchObject({ code: 'not-cached' })
    expect(store.show('issue', issue).state).toBe('opened')
    expect(store.hasWrites('issue', issue)).toBe(false)
  })

  it("comes off the screen when its outbox entry fails, even when the event overtakes core's answer", async () => {
    const held = heldUpdates()
    const { store, transport } = appWith({ 'issues:update': held.answer })
    const write = store.addLabels('issue', issue, ['ui'])
    transport.emit('outbox:did-change', { entry: entry(41, 'failed') })
    held.release('queued')
    await write
    expect(store.show('issue', issue).labels).toEqual(['bug', 'workflow::blocked'])
  })

  it("leaves the screen after its entry is done, once views had time to read the server's version", async () => {
    vi.useFakeTimers()
    try {
      const held = heldUpdates()
      const { store, transport } = appWith({ 'issues:update': held.answer })
      const write = store.addLabels('issue', issue, ['ui'])
      held.release('queued')
      await write
      transport.emit('outbox:did-change', { entry: entry(41, 'done') })
      expect(store.hasWrites('issue', issue)).toBe(true)
      await vi.advanceTimersByTimeAsync(1000)
      expect(store.hasWrites('issue', issue)).toBe(false)
    } finally {
      vi.useRealTimers()
    }
  })

  it('sends only what changes anything, and nothing when nothing would change', async () => {
    const { store, transport } = appWith({ 'issues:update': { ok: true, result: entry(1, 'queued') } })
    expect(await store.addLabels('issue', issue, ['bug'])).toBeNull()
    await store.update('issue', issue, { add_labels: ['bug', 'ui'], remove_labels: ['docs'] })
    expect(updatesOf(transport)).toEqual([{ add_labels: ['ui'] }])
  })

  it('undo discards a write still waiting in the outbox: the server never sees it', async () => {
    const { store, transport } = appWith({
      'issues:update': { ok: true, result: entry(7, 'queued') },
      'outbox:discard': { ok: true, result: entry(7, 'discarded') },
    })
    const write = await store.setState('issue', issue, 'close')
    await store.undo(write!)
    expect(transport.calls.filter((c) => c.channel === 'outbox:discard').map((c) => c.args)).toEqual([[7]])
    expect(updatesOf(transport)).toEqual([{ state_event: 'close' }])
  })

  it('undo of a write already sent sends the write that restores the old values (a replaced scoped label comes back)', async () => {
    let n = 0
    const { store, transport } = appWith({ 'issues:update': () => ({ ok: true, result: entry(++n, 'sending') }) })
    const write = await store.addLabels('issue', issue, ['workflow::ready'])
    await store.undo(write!)
    expect(updatesOf(transport)).toEqual([
      { add_labels: ['workflow::ready'] },
      { remove_labels: ['workflow::ready'], add_labels: ['workflow::blocked'] },
    ])
    expect(store.show('issue', issue).labels).toEqual(['bug', 'workflow::blocked'])
  })

  it('a row shows the write at the next render, before core answers', async () => {
    const held = heldUpdates()
    const transport = fakeTransport({ 'issues:update': held.answer, 'todos:list': { ok: true, result: [] } })
    const pinia = createPinia()
    setActivePinia(pinia)
    const router = createRouter({
      history: createMemoryHistory(),
      routes: [{ path: '/:any(.*)*', component: { render: () => null } }],
    })
    const wrapper = mount(WorkItemRow, {
      props: { kind: 'issue', item: issue, labels: new Map(), accountId: ACCOUNT, href: '/x' },
      global: { plugins: [pinia, router], provide: { [bridgeKey as symbol]: transport.bridge } },
    })
    void useItemStore(ACCOUNT).addLabels('issue', issue, ['ui'])
    await nextTick()
    expect(wrapper.findAll('.label-chip').map((c) => c.text())).toContain('ui')
    expect(wrapper.find('[data-testid="pending-marker"]').exists()).toBe(true)
  })
})

describe('one cache:did-change subscription for every view', () => {
  it("reads again at the next frame after the user's own change and after sync has settled otherwise, only for the accounts and kinds watched", async () => {
    vi.useFakeTimers()
    try {
      const { transport, app } = appWith({})
      const changes = app.runWithContext(() => useCacheChangesStore())
      const runs: string[][] = []
      changes.watchCache(
        () => [ACCOUNT],
        ['issue'],
        (ids) => runs.push([...ids]),
      )
      const change = (optimistic: boolean, accountId = ACCOUNT, kinds = ['issue']) =>
        transport.emit('cache:did-change', { accountId, kinds, projectIds: [], groupIds: [], optimistic })
      change(false, 'other')
      change(false, ACCOUNT, ['todo'])
      await vi.advanceTimersByTimeAsync(1000)
      expect(runs).toEqual([])
      change(false)
      await vi.advanceTimersByTimeAsync(100)
      expect(runs).toEqual([])
      change(true)
      await vi.advanceTimersByTimeAsync(20)
      expect(runs).toEqual([[ACCOUNT]])
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('the to-dos store', () => {
  const todo = (id: number, iid: number) => ({
    data: {
      id,
      action_name: 'mentioned',
      target_type: 'Issue',
      target: { id: 900 + iid, iid, title: `Issue ${iid}`, state: 'opened', project_id: 5 },
      project: { id: 5 },
      created_at: `2024-01-0${id}T00:00:00Z`,
      author: ada,
      state: 'pending',
    },
    pending: false,
  })

  it('is the one count: a to-do marked done leaves it at once, and one added shows on its item at once', async () => {
    const { app } = appWith({
      'todos:list': { ok: true, result: [todo(1, 12), todo(2, 13)] },
      'todos:mark-done': { ok: true, result: entry(3, 'queued') },
      'issues:todo': { ok: true, result: entry(4, 'queued') },
    })
    const todos = app.runWithContext(() => useTodosStore())
    await todos.ensure(ACCOUNT)
    expect(todos.pending([ACCOUNT])).toHaveLength(2)
    expect(todos.hasTodo(ACCOUNT, { kind: 'issue', projectId: 5, iid: 12 })).toBe(true)
    const done = todos.markDone(ACCOUNT, 1)
    expect(todos.pending([ACCOUNT]).map((r) => r.item.id)).toEqual([2])
    await done
    expect(todos.hasTodo(ACCOUNT, { kind: 'issue', projectId: 5, iid: 14 })).toBe(false)
    void todos.add(ACCOUNT, { kind: 'issue', projectId: 5, iid: 14 })
    expect(todos.hasTodo(ACCOUNT, { kind: 'issue', projectId: 5, iid: 14 })).toBe(true)
    await flushPromises()
  })
})
