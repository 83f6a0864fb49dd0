// @vitest-environment jsdom
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import WorkDiscussions from '../../../src/renderer/components/work/WorkDiscussions.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import type { IpcResponse } from '../../../src/shared/ipc/contract'
import type { CachedDiscussion } from '../../../src/shared/ipc/cache'
import { fakeTransport } from '../support/fake-bridge'
import { wire } from '../../helpers/wire'

beforeEach(() => setActivePinia(createPinia()))

const rita = {
  id: 7,
  name: 'Rita Reporter',
  username: 'rita',
  avatar_url: null,
  state: 'active',
  web_url: 'http://x/rita',
}
const bob = { id: 8, name: 'Bob Builder', username: 'bob', avatar_url: null, state: 'active', web_url: 'http://x/bob' }
const BASE = '/projects/5/issues/12'

const note = (id: number, body: string, system: boolean, at: string) =>
  wire('note', {
    id,
    body,
    system,
    author: rita,
    created_at: at,
    updated_at: at,
    type: null,
    noteable_type: 'Issue',
  })
const discussion = (id: string, n: ReturnType<typeof note>): CachedDiscussion => ({
  id,
  individual_note: true,
  notes: [{ data: n, pending: false }],
})
const label = (id: number, name: string, color = '#d9534f') => ({
  id,
  name,
  color,
  text_color: '#FFFFFF',
  description: null,
})
const labelEvent = (
  id: number,
  at: string,
  action: 'add' | 'remove',
  l: ReturnType<typeof label> | null,
  user = rita,
) => ({ id, user, created_at: at, resource_type: 'Issue', resource_id: 1, label: l, action })
const stateEvent = (id: number, at: string, state: string, source: { commit?: string; mr?: number } = {}) => ({
  id,
  user: rita,
  created_at: at,
  resource_type: 'Issue',
  resource_id: 1,
  state,
  source_commit: source.commit ?? null,
  source_merge_request_id: source.mr ?? null,
})
const milestoneEvent = (id: number, at: string, action: 'add' | 'remove', title: string) => ({
  id,
  user: bob,
  created_at: at,
  resource_type: 'Issue',
  resource_id: 1,
  milestone: { id: 3, iid: 1, title },
  action,
  state: 'opened',
})

const ok = (body: unknown, options: { stale?: boolean; nextPage?: number } = {}): IpcResponse => ({
  ok: true,
  result: {
    body,
    status: 200,
    stale: options.stale ?? false,
    fetchedAt: '2024-05-01T10:00:00Z',
    page: { total: null, totalPages: null, nextPage: options.nextPage ?? null, page: null, perPage: 100 },
  },
})
const notFound: IpcResponse = { ok: false, error: { code: 'not-found', message: '404 Not Found' } }

/** Mounts the activity with `lists` as the server's answers by path (anything else: 404). */
function mountWith(
  discussions: CachedDiscussion[],
  lists: Record<string, IpcResponse | ((query: Record<string, unknown>) => IpcResponse)>,
) {
  const transport = fakeTransport({
    'api:get': (_account, path, query) => {
      const answer = lists[String(path)]
      if (answer === undefined) return notFound
      return typeof answer === 'function' ? answer(query as Record<string, unknown>) : answer
    },
  })
  const wrapper = mount(WorkDiscussions, {
    props: {
      kind: 'issue',
      accountId: 'acc',
      projectId: 5,
      iid: 12,
      discussions,
      resolveReference: (r) => (r.kind === 'merge_request' ? `#/mr/${r.namespace ?? 'here'}/${r.id}` : null),
      revision: '2024-05-01T13:00:00Z',
    },
    global: { provide: { [bridgeKey as symbol]: transport.bridge } },
  })
  const reads = () => transport.calls.filter((c) => c.channel === 'api:get').map((c) => c.args[1])
  return { wrapper, reads }
}

/** Every activity line in page order, as text (time left out). */
const lines = (wrapper: ReturnType<typeof mountWith>['wrapper']) =>
  wrapper.findAll('[data-testid="system-note"], [data-testid="note"], [data-testid="resource-event"]').map((e) =>
    e.attributes('data-testid') === 'note'
      ? e.text()
      : e
          .text()
          .replace(/ · .*$/s, '')
          .replace(/\s+/g, ' ')
          .trim(),
  )

describe('WorkDiscussions resource events', () => {
  it('places label, milestone and state events among the notes by time, each as one line', async () => {
    const { wrapper, reads } = mountWith(
      [
        discussion('a'.repeat(40), note(1, 'changed the description', true, '2024-05-01T10:00:00Z')),
        discussion('b'.repeat(40), note(2, 'Looks good', false, '2024-05-01T12:00:00Z')),
      ],
      {
        [`${BASE}/resource_label_events`]: ok([labelEvent(1, '2024-05-01T11:00:00.000Z', 'add', label(1, 'bug'))]),
        [`${BASE}/resource_milestone_events`]: ok([
          milestoneEvent(4, '2024-05-01T09:00:00Z', 'add', '3.6'),
          milestoneEvent(5, '2024-05-01T12:30:00Z', 'remove', 'Next release'),
        ]),
        [`${BASE}/resource_state_events`]: ok([stateEvent(2, '2024-05-01T13:00:00Z', 'closed')]),
      },
    )
    await flushPromises()
    expect(lines(wrapper)).toEqual([
      'Bob Builder changed milestone to 3.6',
      'Rita Reporter changed the description',
      'Rita Reporter added bug label',
      expect.stringContaining('Looks good'),
      // The milestone's title as it reads, not the reference syntax (%"Next release").
      'Bob Builder removed milestone Next release',
      'Rita Reporter closed',
    ])
    expect(reads()).toEqual([
      `${BASE}/resource_label_events`,
      `${BASE}/resource_milestone_events`,
      `${BASE}/resource_state_events`,
    ])
    expect(wrapper.findAll('[data-testid="resource-event"]').map((e) => e.attributes('data-event'))).toEqual([
      'milestone',
      'label',
      'milestone',
      'state',
    ])
    // Not comments: the comment count and the note test id stay the notes'.
    expect(wrapper.findAll('[data-testid="note"]')).toHaveLength(1)
    expect(wrapper.find('[data-testid="resource-event"] time').attributes('datetime')).toBe('2024-05-01T09:00:00Z')
  })

  it('groups label events of one user in the same second into one line, with the labels as chips', async () => {
    const { wrapper } = mountWith([], {
      [`${BASE}/resource_label_events`]: ok([
        labelEvent(1, '2024-05-01T11:00:00.100Z', 'add', label(1, 'bug')),
        labelEvent(2, '2024-05-01T11:00:00.300Z', 'add', label(2, 'priority::high', '#428bca')),
        labelEvent(3, '2024-05-01T11:00:00.900Z', 'remove', label(3, 'needs info')),
        labelEvent(4, '2024-05-01T11:00:00.900Z', 'add', label(4, 'ux'), bob),
        labelEvent(5, '2024-05-01T11:00:01Z', 'remove', label(1, 'bug'), bob),
        labelEvent(6, '2024-05-01T11:05:00Z', 'remove', null),
      ]),
    })
    await flushPromises()
    expect(lines(wrapper)).toEqual([
      'Rita Reporter added bug priorityhigh labels and removed needs info label',
      'Bob Builder added ux label',
      'Bob Builder removed bug label',
      'Rita Reporter removed deleted label label',
    ])
    const first = wrapper.find('[data-testid="resource-event"]')
    expect(first.findAll('.label-chip').map((c) => c.attributes('data-label'))).toEqual([
      'bug',
      'priority::high',
      'needs info',
    ])
    expect(first.find('[data-label="bug"]').attributes('style')).toContain('--label-bg: #d9534f')
    // Scoped labels are drawn as GitLab draws them: the scope filled, the value outlined.
    expect(first.find('[data-label="priority::high"]').classes()).toContain('label-chip--scoped')
  })

  it('names the merge request or commit that closed the issue', async () => {
    const { wrapper, reads } = mountWith([], {
      [`${BASE}/resource_state_events`]: ok([
        stateEvent(1, '2024-05-01T10:00:00Z', 'closed', { mr: 99 }),
        stateEvent(2, '2024-05-01T11:00:00Z', 'reopened'),
        stateEvent(3, '2024-05-01T12:00:00Z', 'closed', { commit: '1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d' }),
        stateEvent(4, '2024-05-01T13:00:00Z', 'reopened'),
        stateEvent(5, '2024-05-01T14:00:00Z', 'closed', { mr: 100 }),
        stateEvent(6, '2024-05-01T15:00:00Z', 'reopened'),
        stateEvent(7, '2024-05-01T16:00:00Z', 'closed', { mr: 404 }),
      ]),
      [`${BASE}/closed_by`]: ok([
        { id: 99, iid: 12, project_id: 5, references: { full: 'kestrel/app!12' } },
        { id: 100, iid: 3, project_id: 6, references: { full: 'kestrel/docs!3' } },
      ]),
    })
    await flushPromises()
    expect(lines(wrapper)).toEqual([
      'Rita Reporter closed via merge request !12',
      'Rita Reporter reopened',
      'Rita Reporter closed via commit 1a2b3c4d',
      'Rita Reporter reopened',
      'Rita Reporter closed via merge request kestrel/docs!3',
      'Rita Reporter reopened',
      'Rita Reporter closed via merge request',
    ])
    expect(reads()).toContain(`${BASE}/closed_by`)
    const events = wrapper.findAll('[data-testid="resource-event"]')
    expect(events[0].find('a').attributes('href')).toBe('#/mr/here/12')
    expect(events[2].find('code').attributes('title')).toBe('1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d')
    expect(events[4].find('a').attributes('href')).toBe('#/mr/kestrel/docs/3')
  })

  it('leaves the events out, without an error, when the server has no such endpoints (404)', async () => {
    const { wrapper, reads } = mountWith(
      [discussion('c'.repeat(40), note(3, 'A comment', false, '2024-05-01T10:00:00Z'))],
      {},
    )
    await flushPromises()
    expect(reads()).toHaveLength(3)
    expect(wrapper.findAll('[data-testid="resource-event"]')).toHaveLength(0)
    expect(lines(wrapper)).toEqual([expect.stringContaining('A comment')])
    expect(wrapper.find('.n-alert').exists()).toBe(false)
    expect(wrapper.text()).not.toContain('404')
  })

  it('shows the copy saved on this computer offline, and nothing for a list never saved', async () => {
    const offline: IpcResponse = {
      ok: false,
      error: {
        code: 'offline',
        message: 'Offline, and no copy is saved on this device.',
        details: { read: 'not-saved' },
      },
    }
    const { wrapper } = mountWith([], {
      [`${BASE}/resource_label_events`]: ok([labelEvent(1, '2024-05-01T11:00:00Z', 'add', label(1, 'bug'))], {
        stale: true,
      }),
      [`${BASE}/resource_milestone_events`]: offline,
      [`${BASE}/resource_state_events`]: offline,
    })
    await flushPromises()
    expect(lines(wrapper)).toEqual(['Rita Reporter added bug label'])
    expect(wrapper.find('.n-alert').exists()).toBe(false)
  })

  it('follows the pages of a list, 100 at a time, and reads the lists again when the item changes', async () => {
    let closed = false
    const { wrapper, reads } = mountWith([], {
      [`${BASE}/resource_label_events`]: (query) =>
        query.page === 1
          ? ok([labelEvent(1, '2024-05-01T10:00:00Z', 'add', label(1, 'bug'))], { nextPage: 2 })
          : ok([labelEvent(2, '2024-05-01T11:00:00Z', 'add', label(2, 'ux'))]),
      [`${BASE}/resource_state_events`]: () => ok(closed ? [stateEvent(1, '2024-05-01T12:00:00Z', 'closed')] : []),
    })
    await flushPromises()
    expect(lines(wrapper)).toEqual(['Rita Reporter added bug label', 'Rita Reporter added ux label'])
    expect(reads().filter((p) => p === `${BASE}/resource_label_events`)).toHaveLength(2)
    closed = true
    await wrapper.setProps({ revision: '2024-05-01T12:00:00Z' })
    await flushPromises()
    expect(lines(wrapper).at(-1)).toBe('Rita Reporter closed')
  })
})
