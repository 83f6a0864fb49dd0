// @vitest-environment jsdom
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createTestingPinia } from '@pinia/testing'
import { createMemoryHistory, createRouter } from 'vue-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import OutboxView from '../../../src/renderer/views/outbox/OutboxView.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import type { OutboxEntry } from '../../../src/shared/ipc/outbox'
import { fakeTransport, ROOT_ACCOUNT } from '../support/fake-bridge'

enableAutoUnmount(afterEach)

const base = {
  accountId: ROOT_ACCOUNT.id,
  base: null,
  reason: null,
  status: null,
  conflict: null,
  attempts: 1,
  blockedBy: null,
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
  sentAt: null,
  settledAt: null,
}
const ENTRIES: OutboxEntry[] = [
  {
    ...base,
    id: 1,
    target: { type: 'issue', projectId: 5, iid: 12 },
    mutation: { kind: 'update', changes: { title: 'Mine' } },
    state: 'conflict',
    conflict: { local: { title: 'Mine' }, remote: { title: 'Theirs' }, remoteUpdatedAt: null },
  },
  {
    ...base,
    id: 2,
    target: { type: 'issue', projectId: 5, iid: 13 },
    mutation: { kind: 'comment', body: 'Hi' },
    state: 'failed',
    reason: 'Note is too long',
    status: 422,
  },
  {
    ...base,
    id: 3,
    target: { type: 'merge_request', projectId: 5, iid: 4 },
    mutation: { kind: 'update', changes: { state_event: 'close' } },
    state: 'unknown-outcome',
    reason: 'The connection dropped while sending',
  },
  {
    ...base,
    id: 4,
    target: { type: 'issue', projectId: 5, iid: 14 },
    mutation: { kind: 'update', changes: { add_labels: ['bug'] } },
    state: 'queued',
    attempts: 0,
  },
]

async function mountOutbox(entries: readonly OutboxEntry[] = ENTRIES) {
  const transport = fakeTransport({
    'outbox:list': { ok: true, result: entries },
    'outbox:retry': (id) => ({ ok: true, result: { ...ENTRIES[0], id: id as number, state: 'queued' } }),
    'outbox:discard': (id) => ({ ok: true, result: { ...ENTRIES[0], id: id as number, state: 'discarded' } }),
    'outbox:resolve': (id) => ({ ok: true, result: { ...ENTRIES[0], id: id as number, state: 'queued' } }),
    'accounts:list': { ok: true, result: [ROOT_ACCOUNT] },
    'projects:list': {
      ok: true,
      result: [{ id: 5, name: 'App', path_with_namespace: 'kestrel/app', name_with_namespace: 'Kestrel / App' }],
    },
    'users:list': { ok: true, result: [] },
    'labels:list': { ok: true, result: [] },
  })
  const pinia = createTestingPinia({ createSpy: vi.fn, stubActions: false })
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [{ path: '/:any(.*)*', component: { template: '<div />' } }],
  })
  const wrapper = mount(OutboxView, {
    global: { plugins: [pinia, router], provide: { [bridgeKey as symbol]: transport.bridge } },
    attachTo: document.body,
  })
  await flushPromises()
  return { wrapper, transport }
}

const calls = (transport: ReturnType<typeof fakeTransport>, channel: string) =>
  transport.calls.filter((c) => c.channel === channel).map((c) => c.args)

describe('OutboxView', () => {
  it('lists conflicts, failed, unknown-outcome and waiting writes in their own sections, with the reasons', async () => {
    const { wrapper } = await mountOutbox()
    const sections = wrapper.findAll('section.outbox-view__section')
    expect(sections.map((s) => s.attributes('data-section'))).toEqual([
      'conflict',
      'failed',
      'unknown-outcome',
      'queued',
    ])
    expect(sections.map((s) => s.find('h3').text())).toEqual([
      'Conflicts 1',
      'Failed 1',
      'Outcome unknown 1',
      'Waiting to be sent 1',
    ])
    expect(sections[1].text()).toContain('Note is too long (HTTP 422)')
    expect(sections[2].text()).toContain('The connection dropped while sending')
    expect(sections[1].text()).toContain('kestrel/app#13')
  })

  it('shows a conflict side by side, and Keep mine resolves it with my version', async () => {
    const { wrapper, transport } = await mountOutbox()
    const conflict = wrapper.get('[data-testid="conflict"]')
    expect(conflict.text()).toContain('Mine')
    expect(conflict.text()).toContain('Theirs')
    await conflict.get('[data-testid="keep-mine"]').trigger('click')
    await flushPromises()
    expect(calls(transport, 'outbox:resolve')).toEqual([[1, { choice: 'mine' }]])
  })

  it('Retry sends a failed write again, Send now a waiting one, and Discard gives one up', async () => {
    const { wrapper, transport } = await mountOutbox()
    const button = (section: string, text: string) =>
      wrapper
        .get(`section[data-section="${section}"]`)
        .findAll('button')
        .find((b) => b.text() === text)
    // One at a time: the buttons are off while a request is under way.
    for (const [section, text] of [
      ['failed', 'Retry'],
      ['queued', 'Send now'],
      ['unknown-outcome', 'Discard'],
    ]) {
      await button(section, text)?.trigger('click')
      await flushPromises()
    }
    expect(calls(transport, 'outbox:retry')).toEqual([[2], [4]])
    expect(calls(transport, 'outbox:discard')).toEqual([[3]])
    // An unknown outcome is checked against the server, never sent again blindly: no Retry there.
    expect(button('unknown-outcome', 'Retry')).toBeUndefined()
  })

  it('a refused write once discarded reads as discarded, without the refusal’s HTTP status', async () => {
    const discarded: OutboxEntry = {
      ...base,
      id: 5,
      target: { type: 'issue', projectId: 5, iid: 15 },
      mutation: { kind: 'update', changes: { add_labels: ['bug'] } },
      state: 'discarded',
      reason: 'Discarded.',
      status: 403,
    }
    const { wrapper } = await mountOutbox([discarded])
    const entry = wrapper.get('[data-testid="outbox-entry"]')
    expect(entry.attributes('data-state')).toBe('discarded')
    expect(entry.get('.outbox-view__reason').text()).toBe('Discarded.')
  })
})
