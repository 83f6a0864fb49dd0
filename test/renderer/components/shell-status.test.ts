// @vitest-environment jsdom
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createTestingPinia } from '@pinia/testing'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import ShellStatus from '../../../src/renderer/components/shell/ShellStatus.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import type { SyncFinished, SyncProgress, SyncStatus } from '../../../src/shared/ipc/cache'
import type { OutboxEntry } from '../../../src/shared/ipc/outbox'
import { fakeTransport, LOCAL_INFO, LOCAL_STATUS, ROOT_ACCOUNT } from '../support/fake-bridge'

/*
 * The status bar's sync indicator as core's events drive it: the run in progress with its scope,
 * phase and a progress bar, then Synced; an instance that cannot be reached; and the outbox count.
 */

enableAutoUnmount(afterEach)

const idle = (extra: Partial<SyncStatus> = {}): SyncStatus => ({
  accountId: ROOT_ACCOUNT.id,
  state: 'idle',
  scope: { mode: 'memberships' },
  progress: null,
  lastStartedAt: null,
  lastCompletedAt: null,
  lastReconciledAt: null,
  lastError: null,
  ...extra,
})
const progress = (scopesDone: number, phase: SyncProgress['phase']): SyncProgress => ({
  accountId: ROOT_ACCOUNT.id,
  phase,
  scope: { kind: 'project', id: 5, name: 'Kestrel / App' },
  scopesDone,
  scopesTotal: 5,
  itemsSynced: 40 * scopesDone,
  requests: 3 * scopesDone,
})

function mountStatus(status: SyncStatus, outbox: readonly OutboxEntry[] = []) {
  let current = status
  const transport = fakeTransport({
    'app:info': LOCAL_INFO,
    'server:status': LOCAL_STATUS,
    'accounts:secret-storage': {
      ok: true,
      result: { kind: 'keychain', available: true, reason: null, encryptedFile: { exists: false, unlocked: false } },
    },
    'sync:status': () => ({ ok: true, result: current }),
    'outbox:list': { ok: true, result: outbox },
  })
  const pinia = createTestingPinia({
    createSpy: vi.fn,
    stubActions: false,
    initialState: {
      accounts: { accounts: [ROOT_ACCOUNT], loaded: true },
      sync: { statuses: { [ROOT_ACCOUNT.id]: status } },
      outbox: { entries: outbox, loaded: true },
    },
  })
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [{ path: '/:rest(.*)*', component: { template: '<div />' } }],
  })
  const wrapper = mount(ShellStatus, {
    global: { plugins: [pinia, router], provide: { [bridgeKey as symbol]: transport.bridge } },
    attachTo: document.body,
  })
  return { wrapper, transport, setStatus: (next: SyncStatus) => void (current = next) }
}

describe('ShellStatus sync indicator', () => {
  it('follows a sync run: scope and phase, a progress bar that fills, then Synced', async () => {
    const { wrapper, transport, setStatus } = mountStatus(idle({ lastCompletedAt: '2024-05-01T09:00:00Z' }))
    await flushPromises()
    expect(wrapper.get('[data-testid="status-sync"]').text()).toMatch(/^Synced/)
    expect(wrapper.find('[role="progressbar"]').exists()).toBe(false)

    transport.emit('sync:did-progress', progress(2, 'issues'))
    await flushPromises()
    const sync = wrapper.get('[data-testid="status-sync"]')
    expect(sync.attributes('data-tone')).toBe('busy')
    expect(sync.text()).toBe('Syncing Kestrel / App · issues')
    expect(sync.get('[role="progressbar"]').attributes('aria-valuenow')).toBe('40')

    transport.emit('sync:did-progress', progress(4, 'merge_requests'))
    await flushPromises()
    expect(wrapper.get('[data-testid="status-sync"]').text()).toBe('Syncing Kestrel / App · merge requests')
    expect(wrapper.get('[role="progressbar"]').attributes('aria-valuenow')).toBe('80')

    setStatus(idle({ lastCompletedAt: new Date().toISOString() }))
    const done: SyncFinished = {
      accountId: ROOT_ACCOUNT.id,
      outcome: 'completed',
      reconciled: false,
      itemsSynced: 200,
      itemsRemoved: 0,
      requests: 15,
      durationMs: 900,
      error: null,
    }
    transport.emit('sync:did-finish', done)
    await flushPromises()
    expect(wrapper.get('[data-testid="status-sync"]').attributes('data-tone')).toBe('ok')
    expect(wrapper.get('[data-testid="status-sync"]').text()).toMatch(/^Synced/)
    expect(wrapper.find('[role="progressbar"]').exists()).toBe(false)
  })

  it('names the instance that cannot be reached', async () => {
    const { wrapper } = mountStatus(idle({ state: 'offline', lastCompletedAt: '2024-05-01T09:00:00Z' }))
    await flushPromises()
    expect(wrapper.get('[data-testid="status-sync"]').attributes('data-tone')).toBe('warn')
    expect(wrapper.get('[data-testid="status-sync"]').text()).toBe('Offline: 127.0.0.1:4567')
  })

  it('turns to Offline the moment core says the instance became unreachable between runs', async () => {
    const { wrapper, transport } = mountStatus(idle({ lastCompletedAt: new Date().toISOString() }))
    await flushPromises()
    expect(wrapper.get('[data-testid="status-sync"]').text()).toMatch(/^Synced/)
    transport.emit('sync:did-change-status', idle({ state: 'offline', lastCompletedAt: new Date().toISOString() }))
    await flushPromises()
    expect(wrapper.get('[data-testid="status-sync"]').attributes('data-tone')).toBe('warn')
    expect(wrapper.get('[data-testid="status-sync"]').text()).toBe('Offline: 127.0.0.1:4567')
  })

  it('counts the writes waiting in the outbox, and says when some need attention', async () => {
    const entry = (id: number, state: OutboxEntry['state']): OutboxEntry =>
      ({
        id,
        accountId: ROOT_ACCOUNT.id,
        target: { type: 'issue', projectId: 5, iid: 12 },
        mutation: { kind: 'comment', body: 'x' },
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
      }) as unknown as OutboxEntry
    const waiting = mountStatus(idle(), [entry(1, 'queued'), entry(2, 'queued')])
    await flushPromises()
    expect(waiting.wrapper.get('[data-testid="status-outbox"]').text()).toBe('2 changes waiting to be sent')
    waiting.wrapper.unmount()
    const stuck = mountStatus(idle(), [entry(1, 'queued'), entry(3, 'conflict')])
    await flushPromises()
    expect(stuck.wrapper.get('[data-testid="status-outbox"]').text()).toBe('1 change needs attention')
  })
})
