// @vitest-environment jsdom
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { defineComponent, h } from 'vue'
import { createMemoryHistory, createRouter } from 'vue-router'
import { NMessageProvider } from 'naive-ui'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import WorkTriagePicker from '../../../src/renderer/components/work/WorkTriagePicker.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import { useShortcuts } from '../../../src/renderer/composables/use-shortcuts'
import { useTriage } from '../../../src/renderer/composables/use-triage'
import type { Issue } from '../../../src/renderer/lib/items'
import { useOutboxStore } from '../../../src/renderer/stores/outbox'
import { useSyncStore } from '../../../src/renderer/stores/sync'
import { fakeTransport, ROOT_ACCOUNT } from '../support/fake-bridge'

const ada = { id: 1, username: 'root', name: 'Administrator', avatar_url: null }
const jonas = { id: 7, username: 'jonas', name: 'Jonas Berg', avatar_url: null }
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
  assignees: [jonas],
  labels: ['bug'],
  milestone: null,
  user_notes_count: 0,
  web_url: '',
  confidential: false,
  due_date: null,
}

enableAutoUnmount(afterEach)
beforeEach(() => {
  document.body.innerHTML = ''
})

/** A detail-like view of one issue with the triage commands and the shell's picker and shortcut listener. */
async function mountTriage(extra: Record<string, unknown> = {}) {
  const pinia = createPinia()
  setActivePinia(pinia)
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [{ path: '/:any(.*)*', component: { render: () => null } }],
  })
  const transport = fakeTransport({
    'accounts:list': { ok: true, result: [ROOT_ACCOUNT] },
    'labels:list': {
      ok: true,
      result: [
        { id: 1, name: 'bug', color: '#d9534f', description: null },
        { id: 2, name: 'ui', color: '#5bc0de', description: 'Interface' },
      ],
    },
    'projects:list': {
      ok: true,
      result: [
        { id: 5, name: 'App', path_with_namespace: 'kestrel/app', name_with_namespace: 'Kestrel / App' },
        { id: 6, name: 'Docs', path_with_namespace: 'kestrel/docs', name_with_namespace: 'Kestrel / Docs' },
      ],
    },
    'users:list': { ok: true, result: [ada, jonas] },
    'issues:update': (_account: unknown, request: unknown) => ({ ok: true, result: { id: 1, request } }),
    'issues:comment': { ok: true, result: { id: 2 } },
    'issues:get': { ok: true, result: {} },
    'api:send': { ok: true, result: { status: 201, body: { id: 900, project_id: 6, iid: 3 } } },
    ...extra,
  })
  const Shell = defineComponent({
    setup() {
      useShortcuts()
      useTriage({ kind: 'issue', targets: () => [{ accountId: ROOT_ACCOUNT.id, item: issue }] })
      return () => h(NMessageProvider, null, { default: () => [h('p', 'issue'), h(WorkTriagePicker)] })
    },
  })
  mount(Shell, {
    global: { plugins: [pinia, router], provide: { [bridgeKey as symbol]: transport.bridge } },
    attachTo: document.body,
  })
  transport.emit('accounts:did-change', [ROOT_ACCOUNT] as never)
  await router.isReady()
  await flushPromises()
  return { transport, router }
}

const press = (key: string, init: KeyboardEventInit = {}) =>
  window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }))
const options = () =>
  [...document.querySelectorAll('[data-testid="triage-picker"] [role="option"]')].map((o) => [
    o.getAttribute('data-value'),
    o.getAttribute('aria-checked'),
  ])
async function typeAndEnter(text: string) {
  const input = document.querySelector<HTMLInputElement>('[data-testid="triage-filter"] input')
  if (input === null) throw new Error('no picker input')
  input.value = text
  input.dispatchEvent(new Event('input'))
  await flushPromises()
  input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))
  await flushPromises()
}
const updates = (transport: ReturnType<typeof fakeTransport>) =>
  transport.calls.filter((c) => c.channel === 'issues:update').map((c) => (c.args[1] as { changes: unknown }).changes)

describe('triage shortcuts', () => {
  it('l opens the labels with the set ones checked; Enter adds the chosen label through the outbox', async () => {
    const { transport } = await mountTriage()
    press('l')
    await flushPromises()
    expect(options()).toEqual([
      ['bug', 'true'],
      ['ui', 'false'],
    ])
    await typeAndEnter('ui')
    expect(updates(transport)).toEqual([{ add_labels: ['ui'] }])
    // The choice is applied first; the dialog, inert at once, starts to leave after the next frame.
    const picker = () => document.querySelector<HTMLElement>('[data-testid="triage-picker"]')
    expect(picker()?.hasAttribute('inert')).toBe(true)
    expect(picker()?.style.display).not.toBe('none')
    // Closed: the dialog keeps what it showed while it fades out (no transition ends here, so it
    // stays hidden rather than going; the e2e tests see it go in Chromium).
    await vi.waitFor(() => expect(picker() === null || picker()?.style.display === 'none').toBe(true))
  })

  it('keys on the field of an answered picker, still focused while it leaves, are the page’s', async () => {
    const { transport } = await mountTriage()
    press('l')
    await flushPromises()
    await typeAndEnter('ui')
    const field = document.querySelector<HTMLInputElement>('[data-testid="triage-filter"] input')
    if (field === null) throw new Error('no picker input')
    const key = (k: string) =>
      field.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }))
    // Enter again picks nothing: the dialog is answered.
    key('Enter')
    await flushPromises()
    expect(updates(transport)).toEqual([{ add_labels: ['ui'] }])
    // A shortcut reaches the page: l opens the picker anew, no longer inert, with ui set now.
    key('l')
    await flushPromises()
    expect(document.querySelector('[data-testid="triage-picker"]')?.hasAttribute('inert')).toBe(false)
    expect(options()).toEqual([
      ['bug', 'true'],
      ['ui', 'true'],
    ])
  })

  it('l leaves a burrow:label-picker-open measure once the labels are listed (the ui bench reads it)', async () => {
    performance.clearMeasures()
    await mountTriage()
    press('l')
    await flushPromises()
    expect(options()).toHaveLength(2)
    await vi.waitFor(() => expect(performance.getEntriesByName('burrow:label-picker-open', 'measure')).toHaveLength(1))
    // Another picker (assignees) does not end a measure of its own.
    press('Escape')
    await flushPromises()
    press('a')
    await flushPromises()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(performance.getEntriesByName('burrow:label-picker-open', 'measure')).toHaveLength(1)
  })

  it('picking a label every target already has takes it off', async () => {
    const { transport } = await mountTriage()
    press('l')
    await flushPromises()
    await typeAndEnter('bug')
    expect(updates(transport)).toEqual([{ remove_labels: ['bug'] }])
  })

  it('a offers you first and toggles an assignee, keeping the others', async () => {
    const { transport } = await mountTriage()
    press('a')
    await flushPromises()
    expect(options().map(([v]) => v)).toEqual(['none', '1', '7'])
    await typeAndEnter('Administrator')
    expect(updates(transport)).toEqual([{ assignee_ids: [7, 1] }])
  })

  it('shift+c closes an open issue', async () => {
    const { transport } = await mountTriage()
    press('C', { shiftKey: true })
    await flushPromises()
    expect(updates(transport)).toEqual([{ state_event: 'close' }])
  })

  it('c writes a comment from the keyboard and queues it', async () => {
    const { transport } = await mountTriage()
    press('c')
    await flushPromises()
    const box = document.querySelector<HTMLTextAreaElement>('[data-testid="triage-text"] textarea')
    if (box === null) throw new Error('no comment box')
    box.value = 'Seen on the train too.'
    box.dispatchEvent(new Event('input'))
    await flushPromises()
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true }))
    await flushPromises()
    expect(transport.calls.filter((c) => c.channel === 'issues:comment').map((c) => c.args[1])).toEqual([
      { projectId: 5, iid: 12, body: 'Seen on the train too.' },
    ])
  })

  it('shift+m moves the issue through the server’s move endpoint and reads both issues again', async () => {
    const { transport, router } = await mountTriage()
    press('M', { shiftKey: true })
    await flushPromises()
    expect(options().map(([v]) => v)).toEqual(['6'])
    await typeAndEnter('docs')
    expect(transport.calls.filter((c) => c.channel === 'api:send').map((c) => c.args[1])).toEqual([
      { method: 'POST', path: '/projects/5/issues/12/move', body: { to_project_id: 6 } },
    ])
    expect(transport.calls.filter((c) => c.channel === 'issues:get').map((c) => c.args[1])).toEqual([
      { project_id: 6, iid: 3 },
      { project_id: 5, iid: 12 },
    ])
    expect(router.currentRoute.value.fullPath).toBe(`/a/${ROOT_ACCOUNT.id}/projects/6/issues/3`)
  })

  it('a move waits for the issue’s writes still in the outbox, which would land on the old issue', async () => {
    const queued = {
      id: 41,
      accountId: ROOT_ACCOUNT.id,
      target: { type: 'issue', projectId: 5, iid: 12 },
      mutation: { kind: 'comment', body: 'x' },
      base: null,
      state: 'failed',
      reason: 'refused',
      status: 422,
      conflict: null,
      attempts: 1,
      blockedBy: null,
      createdAt: '',
      updatedAt: '',
      sentAt: null,
      settledAt: null,
    }
    const { transport } = await mountTriage({ 'outbox:list': { ok: true, result: [queued] } })
    await useOutboxStore().load()
    press('M', { shiftKey: true })
    await flushPromises()
    expect(document.querySelector('[data-testid="triage-blocked"]')?.textContent).toContain(
      '1 change to this issue is still in the outbox',
    )
    expect(options()).toEqual([])
    expect(transport.calls.some((c) => c.channel === 'api:send')).toBe(false)
  })

  it('offline, a move is refused with the reason and nothing is sent', async () => {
    const { transport } = await mountTriage({
      'sync:status': {
        ok: true,
        result: {
          accountId: ROOT_ACCOUNT.id,
          state: 'offline',
          scope: { mode: 'memberships' },
          progress: null,
          lastStartedAt: null,
          lastCompletedAt: null,
          lastReconciledAt: null,
          lastError: null,
        },
      },
    })
    await useSyncStore().refresh(ROOT_ACCOUNT.id)
    press('M', { shiftKey: true })
    await flushPromises()
    expect(document.querySelector('[data-testid="triage-blocked"]')?.textContent).toContain('cannot be reached now')
    expect(options()).toEqual([])
    expect(transport.calls.some((c) => c.channel === 'api:send')).toBe(false)
  })
})
