// @vitest-environment jsdom
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createMemoryHistory, createRouter } from 'vue-router'
import { afterEach, describe, expect, it } from 'vitest'
import EpicDetailView from '../../../src/renderer/views/epic/EpicDetailView.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import type { IpcResponse } from '../../../src/shared/ipc/contract'
import type { CachedDiscussion } from '../../../src/shared/ipc/cache'
import { fakeTransport, ROOT_ACCOUNT } from '../support/fake-bridge'
import { wire } from '../../helpers/wire'

/*
 * An epic's activity, as an issue's: its comments, its system notes as one-line entries, and its
 * label and state events (GitLab's epic event routes, asked by the epic's global id), in time order.
 */

enableAutoUnmount(afterEach)

const rita = {
  id: 7,
  name: 'Rita Reporter',
  username: 'rita',
  avatar_url: null,
  state: 'active',
  web_url: 'http://x/rita',
}
// The global id (31) differs from the iid (1): the events are asked by the former.
const EPIC = {
  id: 31,
  iid: 1,
  group_id: 3,
  parent_id: null,
  title: 'Roadmap',
  description: null,
  state: 'closed',
  confidential: false,
  web_url: '',
  labels: ['bug'],
  references: { short: '&1', full: 'kestrel&1' },
  author: rita,
  start_date: null,
  due_date: null,
  created_at: '2024-05-01T08:00:00Z',
  updated_at: '2024-05-01T13:00:00Z',
}
const BASE = '/groups/3/epics/31'

const note = (id: number, body: string, system: boolean, at: string) =>
  wire('note', {
    id,
    body,
    system,
    author: rita,
    created_at: at,
    updated_at: at,
    type: null,
    noteable_type: 'Epic',
  })
const discussion = (id: string, n: ReturnType<typeof note>): CachedDiscussion => ({
  id,
  individual_note: true,
  notes: [{ data: n, pending: false }],
})
const labelEvent = (id: number, at: string, action: 'add' | 'remove', name: string) => ({
  id,
  user: rita,
  created_at: at,
  resource_type: 'Epic',
  resource_id: 31,
  label: { id, name, color: '#d9534f', text_color: '#FFFFFF', description: null },
  action,
})
const stateEvent = (id: number, at: string, state: string) => ({
  id,
  user: rita,
  created_at: at,
  resource_type: 'Epic',
  resource_id: 31,
  state,
  source_commit: null,
  source_merge_request_id: null,
})

const ok = (body: unknown, stale = false): IpcResponse => ({
  ok: true,
  result: {
    body,
    status: 200,
    stale,
    fetchedAt: '2024-05-01T14:00:00Z',
    page: { total: null, totalPages: null, nextPage: null, page: null, perPage: 100 },
  },
})
const notFound: IpcResponse = { ok: false, error: { code: 'not-found', message: '404 Not Found' } }

/** Opens the epic page with `discussions`, and `lists` as the server's answers by path (anything else: 404). */
async function openEpic(discussions: CachedDiscussion[], lists: Record<string, IpcResponse>) {
  const pinia = createPinia()
  setActivePinia(pinia)
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/a/:account/groups/:groupId/epics/:iid', component: EpicDetailView },
      { path: '/:any(.*)*', component: { render: () => null } },
    ],
  })
  const transport = fakeTransport({
    'accounts:list': { ok: true, result: [ROOT_ACCOUNT] },
    'labels:list': { ok: true, result: [] },
    'projects:list': { ok: true, result: [] },
    'users:list': { ok: true, result: [] },
    'epics:list': { ok: true, result: { total: 1, offset: 0, limit: 500, items: [{ pending: false, data: EPIC }] } },
    'issues:list': { ok: true, result: { total: 0, offset: 0, limit: 500, items: [] } },
    'epics:get': { ok: true, result: { item: { pending: false, data: EPIC }, discussions, stale: false } },
    'api:get': (_account, path) => lists[String(path)] ?? notFound,
  })
  await router.push(`/a/${ROOT_ACCOUNT.id}/groups/3/epics/1`)
  const wrapper = mount(EpicDetailView, {
    global: { plugins: [pinia, router], provide: { [bridgeKey as symbol]: transport.bridge } },
  })
  await flushPromises()
  await flushPromises()
  const reads = () => transport.calls.filter((c) => c.channel === 'api:get').map((c) => c.args[1])
  return { wrapper, reads }
}

/** Every activity line in page order, as text (time left out). */
const lines = (wrapper: Awaited<ReturnType<typeof openEpic>>['wrapper']) =>
  wrapper.findAll('[data-testid="system-note"], [data-testid="note"], [data-testid="resource-event"]').map((e) =>
    e.attributes('data-testid') === 'note'
      ? e.text().replace(/\s+/g, ' ').trim()
      : e
          .text()
          .replace(/ · .*$/s, '')
          .replace(/\s+/g, ' ')
          .trim(),
  )

describe('EpicDetailView activity', () => {
  it('shows the system notes and the label and state events among the comments in time order, asked by the epic’s global id', async () => {
    const { wrapper, reads } = await openEpic(
      [
        discussion('a'.repeat(40), note(1, 'added issue kestrel/app#4', true, '2024-05-01T09:00:00Z')),
        discussion('b'.repeat(40), note(2, 'Looks good', false, '2024-05-01T11:00:00Z')),
        discussion('c'.repeat(40), note(3, 'changed the description', true, '2024-05-01T12:00:00Z')),
      ],
      {
        [`${BASE}/resource_label_events`]: ok([labelEvent(1, '2024-05-01T10:00:00Z', 'add', 'bug')]),
        [`${BASE}/resource_state_events`]: ok([stateEvent(2, '2024-05-01T13:00:00Z', 'closed')]),
      },
    )
    expect(lines(wrapper)).toEqual([
      expect.stringMatching(/^Rita Reporter added issue .*#4$/),
      'Rita Reporter added bug label',
      expect.stringContaining('Looks good'),
      'Rita Reporter changed the description',
      'Rita Reporter closed',
    ])
    // No milestone events for epics: GitLab has none, so they are not asked.
    expect(reads()).toEqual([`${BASE}/resource_label_events`, `${BASE}/resource_state_events`])
    expect(wrapper.findAll('[data-testid="note"]')).toHaveLength(1)
    expect(wrapper.find('[data-testid="resource-event"] .label-chip').attributes('data-label')).toBe('bug')
  })

  it('leaves the events out, without an error, when the server has no such endpoints (404)', async () => {
    const { wrapper, reads } = await openEpic(
      [discussion('d'.repeat(40), note(4, 'A comment', false, '2024-05-01T10:00:00Z'))],
      {},
    )
    expect(reads()).toHaveLength(2)
    expect(lines(wrapper)).toEqual([expect.stringContaining('A comment')])
    expect(wrapper.find('.n-alert').exists()).toBe(false)
    expect(wrapper.text()).not.toContain('404')
  })

  it('shows the events saved on this computer when the server cannot be reached', async () => {
    const offline: IpcResponse = {
      ok: false,
      error: {
        code: 'offline',
        message: 'Offline, and no copy is saved on this device.',
        details: { read: 'not-saved' },
      },
    }
    const { wrapper } = await openEpic([], {
      [`${BASE}/resource_label_events`]: ok([labelEvent(1, '2024-05-01T10:00:00Z', 'remove', 'bug')], true),
      [`${BASE}/resource_state_events`]: offline,
    })
    expect(lines(wrapper)).toEqual(['Rita Reporter removed bug label'])
    expect(wrapper.find('.n-alert').exists()).toBe(false)
  })
})
