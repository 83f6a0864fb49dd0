// @vitest-environment jsdom
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createApp, defineComponent, effectScope, ref } from 'vue'
import { createMemoryHistory, createRouter } from 'vue-router'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import OutboxConflict from '../../../src/renderer/components/outbox/OutboxConflict.vue'
import WorkItemRow from '../../../src/renderer/components/work/WorkItemRow.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import { useItemPages } from '../../../src/renderer/composables/use-item-pages'
import { asIssue, type Issue } from '../../../src/renderer/lib/items'
import type { CachedList, IssueListParams } from '../../../src/shared/ipc/cache'
import type { OutboxEntry } from '../../../src/shared/ipc/outbox'
import { fakeTransport } from '../support/fake-bridge'
import { wire } from '../../helpers/wire'

const user = { id: 1, username: 'ada', name: 'Ada Lovelace', avatar_url: null }
function issue(n: number, extra: Partial<Issue> = {}): Issue {
  return {
    id: 1000 + n,
    iid: n,
    project_id: 5,
    title: `Issue ${n}`,
    description: null,
    state: 'opened',
    created_at: `2024-01-${String((n % 28) + 1).padStart(2, '0')}T00:00:00Z`,
    updated_at: '2024-02-01T00:00:00Z',
    closed_at: null,
    author: user,
    assignees: [],
    labels: [],
    milestone: null,
    user_notes_count: 0,
    web_url: '',
    confidential: false,
    due_date: null,
    ...extra,
  }
}

const router = createRouter({
  history: createMemoryHistory(),
  routes: [{ path: '/:any(.*)*', component: { render: () => null } }],
})

beforeEach(() => setActivePinia(createPinia()))

describe('WorkItemRow', () => {
  it('shows the title as a link, the reference, label chips in their colours, and a pending marker', () => {
    const wrapper = mount(WorkItemRow, {
      props: {
        kind: 'issue',
        item: issue(7, { labels: ['bug'], references: { short: '#7', relative: '#7', full: 'g/p#7' } }),
        labels: new Map([['bug', { id: 1, name: 'bug', color: '#d9534f', description: null }]]),
        pending: true,
        href: '/a/acc/projects/5/issues/7',
      },
      global: { plugins: [router] },
    })
    expect(wrapper.find('a.work-item-row__title').attributes('href')).toBe('/a/acc/projects/5/issues/7')
    expect(wrapper.find('.work-item-row__ref').text()).toBe('g/p#7')
    expect(wrapper.find('[data-label="bug"]').attributes('style')).toContain('--label-bg: #d9534f')
    expect(wrapper.find('[data-testid="pending-marker"]').exists()).toBe(true)
  })

  it('its title is a plain link that a click follows through the router; a modified click is left to the browser', async () => {
    await router.push('/start')
    const wrapper = mount(WorkItemRow, {
      props: { kind: 'issue', item: issue(4), labels: new Map(), href: '/a/acc/projects/5/issues/4' },
      global: { plugins: [router] },
    })
    const link = wrapper.get('a.work-item-row__title')
    expect(link.attributes('href')).toBe('/a/acc/projects/5/issues/4')
    const modified = new MouseEvent('click', { bubbles: true, cancelable: true, ctrlKey: true })
    link.element.dispatchEvent(modified)
    expect(modified.defaultPrevented).toBe(false)
    await link.trigger('click')
    await router.isReady()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(router.currentRoute.value.fullPath).toBe('/a/acc/projects/5/issues/4')
  })

  it('emits toggle from its checkbox', async () => {
    const wrapper = mount(WorkItemRow, {
      props: { kind: 'issue', item: issue(1), labels: new Map(), href: '/x' },
      global: { plugins: [router] },
    })
    await wrapper.find('.work-item-row__check').trigger('click')
    expect(wrapper.emitted('toggle')).toHaveLength(1)
  })

  it('its checkbox shows what the list holds: a click only asks, the prop ticks it', async () => {
    const wrapper = mount(WorkItemRow, {
      props: { kind: 'issue', item: issue(1), labels: new Map(), href: '/x' },
      global: { plugins: [router] },
    })
    const box = wrapper.find<HTMLInputElement>('input.work-item-row__check')
    box.element.click()
    expect(wrapper.emitted('toggle')).toHaveLength(1)
    expect(box.element.checked).toBe(false)
    await wrapper.setProps({ checked: true })
    expect(box.element.checked).toBe(true)
    expect(box.attributes('aria-label')).toBe('Select #1')
  })

  it('marks blocked and pending items with a word that explains itself on hover, confidential ones too', () => {
    const wrapper = mount(WorkItemRow, {
      props: {
        kind: 'issue',
        item: issue(3, { confidential: true }),
        labels: new Map(),
        href: '/x',
        blocked: true,
        pending: true,
      },
      global: { plugins: [router] },
    })
    expect(wrapper.get('[data-testid="blocked-marker"]').attributes('title')).toBe('An open issue blocks this one.')
    expect(wrapper.get('[data-testid="pending-marker"]').attributes('title')).toBe(
      'A change made here has not reached the server yet.',
    )
    expect(wrapper.findAll('.burrow-marker').map((m) => m.text())).toEqual(['Confidential', 'Blocked', 'Pending'])
  })
})

describe('OutboxConflict', () => {
  const entry: OutboxEntry = {
    id: 9,
    accountId: 'a',
    target: { type: 'issue', projectId: 5, iid: 7 },
    mutation: { kind: 'update', changes: { title: 'Mine', assignee_ids: [1] } },
    base: null,
    state: 'conflict',
    reason: null,
    status: null,
    conflict: {
      local: { title: 'Mine', assignee_ids: [1] },
      remote: { title: 'Theirs', assignee_ids: [2] },
      remoteUpdatedAt: null,
    },
    attempts: 1,
    blockedBy: null,
    createdAt: '',
    updatedAt: '',
    sentAt: null,
    settledAt: null,
  }

  it('shows both versions side by side, people by name', () => {
    const wrapper = mount(OutboxConflict, {
      props: { entry, busy: false, userName: (id: number) => (id === 1 ? 'Ada' : null) },
    })
    const cells = wrapper.findAll('[role="cell"]').map((c) => c.text())
    expect(cells).toEqual(['Mine', 'Theirs', 'Ada', 'user 2'])
  })

  it('resolves with mine, theirs, or an edited version', async () => {
    const wrapper = mount(OutboxConflict, { props: { entry, busy: false } })
    await wrapper.find('[data-testid="keep-mine"]').trigger('click')
    await wrapper.find('[data-testid="take-theirs"]').trigger('click')
    await wrapper
      .findAll('button')
      .find((b) => b.text() === 'Edit…')
      ?.trigger('click')
    await wrapper.find('input').setValue('Merged title')
    await wrapper
      .findAll('button')
      .find((b) => b.text() === 'Send edited')
      ?.trigger('click')
    expect(wrapper.emitted('resolve')).toEqual([
      [{ choice: 'mine' }],
      [{ choice: 'theirs' }],
      [{ choice: 'edited', changes: { title: 'Merged title', assignee_ids: [1] } }],
    ])
  })
})

describe('useItemPages', () => {
  /** issues:list answered from an in-memory list of `count` issues per account. */
  function listing(counts: Record<string, number>) {
    const calls: { accountId: string; offset: number; limit: number }[] = []
    const transport = fakeTransport({
      'issues:list': (accountId: unknown, params: unknown) => {
        const { offset = 0, limit = 100 } = params as IssueListParams
        calls.push({ accountId: String(accountId), offset, limit })
        const total = counts[String(accountId)] ?? 0
        const items = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({
          data: wire('issue', {
            ...issue(offset + i + 1),
            state: 'opened',
            title: `${String(accountId)} ${offset + i + 1}`,
          }),
          pending: false,
        }))
        return { ok: true, result: { items, total, offset, limit } satisfies CachedList<'issue'> }
      },
    })
    const app = createApp(defineComponent({ render: () => null }))
    app.provide(bridgeKey, transport.bridge)
    return { transport, calls, app }
  }

  function pagesFor(accounts: string[], counts: Record<string, number>, key: () => unknown = () => accounts) {
    const { transport, calls, app } = listing(counts)
    const scope = effectScope()
    const pages = app.runWithContext(() =>
      scope.run(() =>
        useItemPages<'issue', Issue>({
          key,
          accounts: () => accounts,
          kinds: ['issue'],
          fetch: (accountId, offset, limit) => transport.bridge.request('issues:list', accountId, { offset, limit }),
          read: asIssue,
          compare: (a, b) => a.iid - b.iid,
          pageSize: 100,
        }),
      ),
    )
    if (!pages) throw new Error('no pages')
    return { pages, calls, transport, scope }
  }

  it('loads the first page for one account and fetches others only as they come into view', async () => {
    const { pages, calls } = pagesFor(['a'], { a: 10_000 })
    await flushPromises()
    expect(pages.total.value).toBe(10_000)
    expect(pages.rows.value.filter(Boolean)).toHaveLength(100)
    pages.ensureRange(5_000, 5_030)
    await flushPromises()
    expect(calls.map((c) => c.offset)).toEqual([0, 5_000])
    expect(pages.rows.value[5_010]?.item.title).toBe('a 5011')
    expect(pages.rows.value[3_000]).toBeUndefined()
  })

  it('merges several accounts in list order, counting every row, and reads further chunks as the view scrolls down', async () => {
    const { pages, calls } = pagesFor(['a', 'b'], { a: 3, b: 1_200 })
    await flushPromises()
    expect(pages.total.value).toBe(1_203)
    expect(pages.rows.value.slice(0, 7).map((r) => r?.item.title)).toEqual([
      'a 1',
      'b 1',
      'a 2',
      'b 2',
      'a 3',
      'b 3',
      'b 4',
    ])
    expect(pages.rows.value[150]).toBeUndefined()
    pages.ensureRange(1_100, 1_130)
    await flushPromises()
    expect(pages.rows.value[1_150]?.item.title).toBe('b 1148')
    expect(pages.rows.value.filter(Boolean)).toHaveLength(1_203)
    // Chunks in list order per account, never past an account's end.
    expect(calls.filter((c) => c.accountId === 'b').map((c) => c.offset)).toEqual([0, 100, 600, 1_100])
    expect(calls.filter((c) => c.accountId === 'a').map((c) => c.offset)).toEqual([0])
  })

  it('keeps its rows when its key is read again with the same value (a kept-alive list and a route change), clears them for a new one', async () => {
    const route = ref('/issues')
    const filter = ref('state=all')
    // The key is read again on every route change, as the list's filter is; its value changes only with the filter.
    const { pages, calls } = pagesFor(['a'], { a: 300 }, () => (route.value === '' ? [] : [['a'], filter.value]))
    await flushPromises()
    const shown = pages.rows.value
    route.value = '/'
    await flushPromises()
    route.value = '/issues'
    await flushPromises()
    expect(calls).toHaveLength(1)
    expect(pages.rows.value).toBe(shown)
    filter.value = 'state=opened'
    await flushPromises()
    expect(calls).toHaveLength(2)
    expect(pages.rows.value).not.toBe(shown)
  })

  it('queries again, once, when the cache says the account changed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const { pages, calls, transport } = pagesFor(['a'], { a: 5 })
    await flushPromises()
    // A burst of changes (a sync page) makes one query, once the burst has settled.
    transport.emit('cache:did-change', {
      accountId: 'a',
      kinds: ['issue'],
      projectIds: [5],
      groupIds: [],
      optimistic: true,
    })
    transport.emit('cache:did-change', {
      accountId: 'a',
      kinds: ['issue'],
      projectIds: [5],
      groupIds: [],
      optimistic: false,
    })
    transport.emit('cache:did-change', {
      accountId: 'a',
      kinds: ['label'],
      projectIds: [5],
      groupIds: [],
      optimistic: false,
    })
    vi.runAllTimers()
    vi.useRealTimers()
    await flushPromises()
    expect(calls).toHaveLength(2)
    expect(pages.total.value).toBe(5)
  })

  it('shows the user’s own (optimistic) change at the next frame, not after the pause that gathers sync writes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const { calls, transport } = pagesFor(['a'], { a: 5 })
    await flushPromises()
    transport.emit('cache:did-change', {
      accountId: 'a',
      kinds: ['issue'],
      projectIds: [5],
      groupIds: [],
      optimistic: false,
    })
    transport.emit('cache:did-change', {
      accountId: 'a',
      kinds: ['issue'],
      projectIds: [5],
      groupIds: [],
      optimistic: true,
    })
    vi.advanceTimersByTime(20)
    await flushPromises()
    expect(calls).toHaveLength(2)
    vi.advanceTimersByTime(400)
    vi.useRealTimers()
    await flushPromises()
    expect(calls).toHaveLength(2)
  })
})
