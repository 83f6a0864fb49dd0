// @vitest-environment jsdom
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createMemoryHistory, createRouter } from 'vue-router'
import { NSelect } from 'naive-ui'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import DiffViewer from '../../../src/renderer/components/diff/DiffViewer.vue'
import IssueRelatedMergeRequests from '../../../src/renderer/components/issue/IssueRelatedMergeRequests.vue'
import MarkdownContent from '../../../src/renderer/components/markdown/MarkdownContent.vue'
import MergeRequestCommits from '../../../src/renderer/components/merge-request/MergeRequestCommits.vue'
import WorkAwards from '../../../src/renderer/components/work/WorkAwards.vue'
import WorkEditForm from '../../../src/renderer/components/work/WorkEditForm.vue'
import WorkSidebar from '../../../src/renderer/components/work/WorkSidebar.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import type { Issue } from '../../../src/renderer/lib/items'
import { useAccountsStore } from '../../../src/renderer/stores/accounts'
import { useSyncStore } from '../../../src/renderer/stores/sync'
import { fakeTransport, ROOT_ACCOUNT } from '../support/fake-bridge'

const router = createRouter({
  history: createMemoryHistory(),
  routes: [{ path: '/:any(.*)*', component: { render: () => null } }],
})
beforeEach(() => setActivePinia(createPinia()))

function withBridge(answers: Parameters<typeof fakeTransport>[0]) {
  const transport = fakeTransport(answers)
  return { transport, global: { plugins: [router], provide: { [bridgeKey as symbol]: transport.bridge } } }
}
const page = (body: unknown, stale = false) => ({
  ok: true as const,
  result: { body, status: 200, stale, fetchedAt: '2024-05-01T10:00:00Z', page: null },
})

describe('MarkdownContent task lists', () => {
  const source = '- [ ] first\n- [x] second\n\n```\n- [ ] code\n```'

  it('lets tasks be ticked when asked, emitting the task and the new state, and shows the tick only when the source changes', async () => {
    const wrapper = mount(MarkdownContent, { props: { source, tasksEditable: true } })
    await flushPromises()
    const boxes = wrapper.findAll<HTMLInputElement>('input[type="checkbox"]')
    expect(boxes.map((b) => b.element.disabled)).toEqual([false, false])
    boxes[0].element.checked = true
    await boxes[0].trigger('change')
    expect(wrapper.emitted('toggleTask')).toEqual([[0, true]])
    expect(boxes[0].element.checked).toBe(false)
    await wrapper.setProps({ source: source.replace('- [ ] first', '- [x] first') })
    await flushPromises()
    expect(wrapper.findAll<HTMLInputElement>('input[type="checkbox"]')[0].element.checked).toBe(true)
  })

  it('keeps task boxes read-only by default', async () => {
    const wrapper = mount(MarkdownContent, { props: { source } })
    await flushPromises()
    expect(wrapper.findAll<HTMLInputElement>('input[type="checkbox"]').every((b) => b.element.disabled)).toBe(true)
  })
})

describe('WorkEditForm', () => {
  it('saves only the fields that changed', async () => {
    const wrapper = mount(WorkEditForm, {
      props: { title: 'Old title', description: 'Body', busy: false },
      attachTo: document.body,
    })
    await wrapper.find('[data-testid="edit-title"] input').setValue('New title')
    await wrapper.find('form').trigger('submit')
    expect(wrapper.emitted('save')).toEqual([[{ title: 'New title' }]])
    wrapper.unmount()
  })

  it('refuses an empty title, and saving nothing changed just closes', async () => {
    const wrapper = mount(WorkEditForm, { props: { title: 'Title', description: null, busy: false } })
    await wrapper.find('form').trigger('submit')
    expect(wrapper.emitted('cancel')).toHaveLength(1)
    await wrapper.find('[data-testid="edit-title"] input').setValue('  ')
    await wrapper.find('form').trigger('submit')
    expect(wrapper.text()).toContain('A title is required.')
    expect(wrapper.emitted('save')).toBeUndefined()
  })
})

describe('DiffViewer highlighting', () => {
  it('colours code by the file’s language and escapes it', async () => {
    const wrapper = mount(DiffViewer, {
      props: {
        files: [
          {
            old_path: 'a.ts',
            new_path: 'a.ts',
            new_file: false,
            renamed_file: false,
            deleted_file: false,
            diff: '@@ -1 +1 @@\n-const a = 1\n+const a = "<b>"\n',
          },
        ],
      },
    })
    // Colours arrive after the first paint (under jsdom, highlighted on the page in idle time).
    const added = () => wrapper.find('.diff-line--addition .diff-line__code')
    await vi.waitFor(() => expect(added().classes()).toContain('burrow-hl'))
    expect(added().find('.hljs-keyword').text()).toBe('const')
    expect(added().find('.hljs-string').text()).toBe('"<b>"')
    expect(added().find('b').exists()).toBe(false)
  })
})

describe('MergeRequestCommits', () => {
  it('lists the commits and opens one’s diff', async () => {
    const commit = {
      id: 'a'.repeat(40),
      short_id: 'aaaaaaaa',
      title: 'Fix the parser',
      author_name: 'Jonas Berg',
      created_at: '2024-05-01T09:00:00Z',
    }
    const { transport, global } = withBridge({
      'api:get': (_account: unknown, path: unknown) =>
        String(path).endsWith('/commits')
          ? page([commit])
          : page([
              {
                old_path: 'p.py',
                new_path: 'p.py',
                new_file: false,
                renamed_file: false,
                deleted_file: false,
                diff: '@@ -1 +1 @@\n-x = 1\n+x = 2\n',
              },
            ]),
    })
    const wrapper = mount(MergeRequestCommits, {
      props: { accountId: 'acc', projectId: 5, iid: 3, sha: commit.id },
      global,
    })
    await flushPromises()
    expect(wrapper.findAll('[data-testid="mr-commit"]').map((c) => c.text())).toEqual([
      expect.stringContaining('Fix the parser'),
    ])
    await wrapper.find('.mr-commits__row').trigger('click')
    await flushPromises()
    expect(transport.calls.map((c) => c.args[1])).toEqual([
      '/projects/5/merge_requests/3/commits',
      `/projects/5/repository/commits/${commit.id}/diff`,
    ])
    expect(wrapper.find('.diff-line--addition').exists()).toBe(true)
  })
})

describe('IssueRelatedMergeRequests', () => {
  it('links each related merge request inside the app', async () => {
    const { global } = withBridge({
      'api:get': page([
        { id: 1, iid: 4, project_id: 5, title: 'Fix stall', state: 'merged', references: { full: 'kestrel/app!4' } },
      ]),
    })
    const wrapper = mount(IssueRelatedMergeRequests, { props: { accountId: 'acc', projectId: 5, iid: 12 }, global })
    await flushPromises()
    expect(wrapper.find('a').attributes('href')).toBe('/a/acc/projects/5/merge_requests/4')
    expect(wrapper.text()).toContain('Merged')
  })
})

describe('WorkAwards', () => {
  it('shows every award grouped, or the item’s own 👍/👎 counts when the list cannot be read', async () => {
    const listed = withBridge({
      'api:get': page([
        { id: 1, name: 'rocket', user: { username: 'a' } },
        { id: 2, name: 'rocket', user: { username: 'b' } },
      ]),
    })
    const full = mount(WorkAwards, {
      props: { kind: 'issue', accountId: 'acc', projectId: 5, iid: 12, upvotes: 0, downvotes: 0 },
      global: listed.global,
    })
    await flushPromises()
    expect(full.find('[data-award="rocket"]').text()).toBe('🚀2')
    const missing = withBridge({ 'api:get': { ok: false, error: { code: 'not-found', message: '404 Not Found' } } })
    const counts = mount(WorkAwards, {
      props: { kind: 'issue', accountId: 'acc', projectId: 5, iid: 12, upvotes: 3, downvotes: 1 },
      global: missing.global,
    })
    await flushPromises()
    expect(counts.findAll('[data-award]').map((a) => a.text())).toEqual(['👍3', '👎1'])
  })
})

describe('WorkAwards reactions', () => {
  const awardsOf = (list: unknown[]) => page(list)
  async function mountAwards(extra: Parameters<typeof fakeTransport>[0] = {}) {
    let list: { id: number; name: string; user: { username: string } }[] = [
      { id: 7, name: 'rocket', user: { username: 'amara' } },
      { id: 8, name: 'tada', user: { username: 'root' } },
    ]
    const { global, transport } = withBridge({
      'api:get': () => awardsOf(list),
      'api:send': (_account, request) => {
        const r = request as { method: string; path: string; body?: { name: string } }
        if (r.method === 'POST') list = [...list, { id: 9, name: r.body?.name ?? '', user: { username: 'root' } }]
        else list = list.filter((a) => !r.path.endsWith(`/${a.id}`))
        return { ok: true, result: { status: r.method === 'POST' ? 201 : 204, body: null } }
      },
      ...extra,
    })
    const wrapper = mount(WorkAwards, {
      props: { kind: 'issue', accountId: 'acc', projectId: 5, iid: 12, upvotes: 0, downvotes: 0 },
      global,
      attachTo: document.body,
    })
    // The stores take the bridge the component provided.
    useAccountsStore().accounts = [{ ...ROOT_ACCOUNT, id: 'acc' }]
    await flushPromises()
    const sends = () => transport.calls.filter((c) => c.channel === 'api:send').map((c) => c.args[1])
    return { wrapper, sends }
  }

  it('gives a reaction from the picker, online, straight to the server', async () => {
    const { wrapper, sends } = await mountAwards()
    await wrapper.get('[data-testid="award-add"]').trigger('click')
    await flushPromises()
    ;(document.querySelector('[data-choice="heart"]') as HTMLButtonElement).click()
    await flushPromises()
    expect(sends()).toEqual([{ method: 'POST', path: '/projects/5/issues/12/award_emoji', body: { name: 'heart' } }])
    expect(wrapper.get('[data-award="heart"]').attributes('aria-pressed')).toBe('true')
    wrapper.unmount()
  })

  it('takes back the user’s own reaction by its id, and adds to someone else’s', async () => {
    const { wrapper, sends } = await mountAwards()
    expect(wrapper.get('[data-award="tada"]').attributes('aria-pressed')).toBe('true')
    await wrapper.get('[data-award="tada"]').trigger('click')
    await flushPromises()
    await wrapper.get('[data-award="rocket"]').trigger('click')
    await flushPromises()
    expect(sends()).toEqual([
      { method: 'DELETE', path: '/projects/5/issues/12/award_emoji/8' },
      { method: 'POST', path: '/projects/5/issues/12/award_emoji', body: { name: 'rocket' } },
    ])
    expect(wrapper.find('[data-award="tada"]').exists()).toBe(false)
    expect(wrapper.get('[data-award="rocket"]').text()).toBe('🚀2')
    wrapper.unmount()
  })

  it('offline, reactions are off and say why; nothing is sent', async () => {
    const { wrapper, sends } = await mountAwards({
      'sync:status': {
        ok: true,
        result: {
          accountId: 'acc',
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
    await useSyncStore().refresh('acc')
    await flushPromises()
    expect(wrapper.get('[data-testid="awards-offline"]').text()).toContain('cannot be reached now')
    expect(wrapper.get('[data-award="rocket"]').attributes('disabled')).toBeDefined()
    await wrapper.get('[data-award="rocket"]').trigger('click')
    await flushPromises()
    expect(sends()).toEqual([])
    wrapper.unmount()
  })
})

describe('WorkSidebar dates and weight', () => {
  it('shows the due date (overdue while open), the weight and the epic', async () => {
    const { global } = withBridge({
      'labels:list': { ok: true, result: [] },
      'milestones:list': { ok: true, result: [] },
      'users:list': { ok: true, result: [] },
    })
    const item = {
      id: 1,
      iid: 12,
      project_id: 5,
      title: 't',
      description: null,
      state: 'opened',
      created_at: '',
      updated_at: '',
      closed_at: null,
      author: { id: 1, username: 'a', name: 'A', avatar_url: null },
      assignees: [],
      labels: [],
      milestone: null,
      user_notes_count: 0,
      web_url: '',
      confidential: false,
      due_date: '2020-03-01',
      weight: 5,
      epic: { id: 9, iid: 2, title: 'Offline', group_id: 3 },
    } satisfies Issue
    const wrapper = mount(WorkSidebar, { props: { kind: 'issue', accountId: 'acc', item, pending: [] }, global })
    await flushPromises()
    expect(wrapper.find('[data-testid="due-date"]').text()).toMatch(/2020.*overdue/)
    expect(wrapper.find('[data-testid="weight"] p').text()).toBe('5')
    expect(wrapper.find('.work-sidebar__epic a').attributes('href')).toBe('/a/acc/groups/3/epics/2')
  })

  const epicOf = (id: number, iid: number, full: string, title: string) => ({
    data: {
      id,
      iid,
      group_id: id * 10,
      parent_id: null,
      title,
      description: null,
      state: 'opened',
      confidential: false,
      web_url: '',
      references: { short: `&${iid}`, full },
      author: null,
      start_date: null,
      due_date: null,
      created_at: '',
      updated_at: '',
      labels: [],
    },
    pending: false,
  })
  async function editable() {
    const { global, transport } = withBridge({
      'labels:list': { ok: true, result: [] },
      'milestones:list': { ok: true, result: [] },
      'users:list': { ok: true, result: [] },
      'projects:list': {
        ok: true,
        result: [
          {
            id: 5,
            name: 'App',
            path_with_namespace: 'kestrel/platform/app',
            name_with_namespace: 'Kestrel / Platform / App',
          },
        ],
      },
      // The project's group, a group above it, and a sibling group the issue cannot use.
      'epics:list': {
        ok: true,
        result: {
          items: [
            epicOf(1, 1, 'kestrel&1', 'Roadmap'),
            epicOf(2, 4, 'kestrel/platform&4', 'Platform epic'),
            epicOf(3, 1, 'kestrel/web&1', 'Web only'),
          ],
          total: 3,
        },
      },
      'issues:update': (_account, request) => ({ ok: true, result: { id: 1, request } }),
    })
    const item = {
      id: 1,
      iid: 12,
      project_id: 5,
      title: 't',
      description: null,
      state: 'opened',
      created_at: '',
      updated_at: '',
      closed_at: null,
      author: { id: 1, username: 'a', name: 'A', avatar_url: null },
      assignees: [],
      labels: [],
      milestone: null,
      user_notes_count: 0,
      web_url: '',
      confidential: false,
      due_date: null,
      weight: 2,
      epic: null,
    } satisfies Issue
    const wrapper = mount(WorkSidebar, {
      props: { kind: 'issue', accountId: 'acc', item, pending: [] },
      global,
      attachTo: document.body,
    })
    await flushPromises()
    const updates = () =>
      transport.calls
        .filter((c) => c.channel === 'issues:update')
        .map((c) => (c.args[1] as { changes: unknown }).changes)
    return { wrapper, updates }
  }

  it('edits the weight through the outbox (one update), and clearing it sends null', async () => {
    const { wrapper, updates } = await editable()
    await wrapper.get('[data-testid="edit-weight"]').trigger('click')
    await wrapper.get('[data-testid="weight-input"] input').setValue('8')
    await wrapper.get('[data-testid="weight-input"] input').trigger('blur')
    await wrapper.get('[data-testid="weight-apply"]').trigger('click')
    await flushPromises()
    await wrapper.get('[data-testid="edit-weight"]').trigger('click')
    await wrapper.get('[data-testid="weight-input"] input').setValue('')
    await wrapper.get('[data-testid="weight-input"] input').trigger('blur')
    await wrapper.get('[data-testid="weight-apply"]').trigger('click')
    await flushPromises()
    expect(updates()).toEqual([{ weight: 8 }, { weight: null }])
    wrapper.unmount()
  })

  it('offers the epics of the project’s group and the groups above it, and puts the issue in the one picked', async () => {
    const { wrapper, updates } = await editable()
    expect(wrapper.find('[data-field="epic"]').text()).toContain('None')
    await wrapper.get('[data-testid="edit-epic"]').trigger('click')
    // naive-ui's menu needs layout jsdom lacks: the select's options and its update event stand in for clicks.
    const select = wrapper.findComponent(NSelect)
    expect((select.props('options') as { label: string }[]).map((o) => o.label)).toEqual([
      'No epic',
      '&1 Roadmap',
      '&4 Platform epic',
    ])
    select.vm.$emit('update:value', 2)
    await flushPromises()
    await wrapper.get('[data-testid="epic-apply"]').trigger('click')
    await flushPromises()
    expect(updates()).toEqual([{ epic_id: 2 }])
    wrapper.unmount()
  })
})
