// @vitest-environment jsdom
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { defineComponent, h, shallowRef } from 'vue'
import { createMemoryHistory, createRouter } from 'vue-router'
import { NMessageProvider } from 'naive-ui'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import IssueTriageList from '../../../src/renderer/components/issue/IssueTriageList.vue'
import WorkTriagePicker from '../../../src/renderer/components/work/WorkTriagePicker.vue'
import EpicDetailView from '../../../src/renderer/views/epic/EpicDetailView.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import { useShortcuts } from '../../../src/renderer/composables/use-shortcuts'
import type { AccountItem, Issue } from '../../../src/renderer/lib/items'
import { fakeTransport, ROOT_ACCOUNT } from '../support/fake-bridge'

/*
 * An epic's and a milestone's issues can be triaged where they are listed: opened, selected,
 * and moved to another epic or milestone (an outbox write), with the list's keys too.
 */

const ada = { id: 1, username: 'root', name: 'Administrator', avatar_url: null }
const roadmap = { id: 31, iid: 1, group_id: 3, title: 'Roadmap', references: { short: '&1', full: 'kestrel&1' } }
function issue(id: number, iid: number, extra: Partial<Issue> = {}): Issue {
  return {
    id,
    iid,
    project_id: 5,
    title: `Issue ${iid}`,
    description: null,
    state: 'opened',
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-01-02T00:00:00Z',
    closed_at: null,
    author: ada,
    assignees: [],
    labels: [],
    milestone: null,
    user_notes_count: 0,
    web_url: '',
    confidential: false,
    due_date: null,
    epic: { id: roadmap.id, iid: roadmap.iid, title: roadmap.title, group_id: 3 },
    ...extra,
  }
}
const row = (item: Issue): AccountItem<Issue> => ({ accountId: ROOT_ACCOUNT.id, item, pending: false })

const epicsList = {
  ok: true as const,
  result: {
    total: 4,
    offset: 0,
    limit: 500,
    items: [
      { pending: false, data: { ...roadmap, parent_id: null, state: 'opened', labels: [] } },
      {
        pending: false,
        data: {
          id: 32,
          iid: 2,
          group_id: 3,
          parent_id: null,
          title: 'Someday',
          state: 'opened',
          labels: [],
          references: { short: '&2', full: 'kestrel&2' },
        },
      },
      {
        pending: false,
        data: {
          id: 33,
          iid: 3,
          group_id: 4,
          parent_id: null,
          title: 'Tools plan',
          state: 'opened',
          labels: [],
          references: { short: '&3', full: 'kestrel/tools&3' },
        },
      },
      {
        pending: false,
        data: {
          id: 40,
          iid: 1,
          group_id: 9,
          parent_id: null,
          title: 'Elsewhere',
          state: 'opened',
          labels: [],
          references: { short: '&1', full: 'heron&1' },
        },
      },
    ],
  },
}
const milestone = (id: number, title: string, owner: { project_id: number } | { group_id: number }, path: string) => ({
  pending: false,
  progress: { total: 0, closed: 0, percent: 0 },
  merge_requests: 0,
  data: {
    id,
    iid: id,
    title,
    state: 'active',
    due_date: null,
    start_date: null,
    description: null,
    web_url: `http://127.0.0.1:4567/${path}/-/milestones/${id}`,
    ...owner,
  },
})

enableAutoUnmount(afterEach)
beforeEach(() => {
  document.body.innerHTML = ''
})

function transportFor(extra: Record<string, unknown> = {}) {
  return fakeTransport({
    'accounts:list': { ok: true, result: [ROOT_ACCOUNT] },
    'labels:list': { ok: true, result: [] },
    'projects:list': {
      ok: true,
      result: [
        { id: 5, name: 'App', path_with_namespace: 'kestrel/app', name_with_namespace: 'Kestrel / App' },
        { id: 6, name: 'Docs', path_with_namespace: 'heron/docs', name_with_namespace: 'Heron / Docs' },
      ],
    },
    'users:list': { ok: true, result: [ada] },
    'epics:list': epicsList,
    'milestones:list': {
      ok: true,
      result: [
        milestone(50, 'v1.0', { project_id: 5 }, 'kestrel/app'),
        milestone(51, 'Release 3.6', { group_id: 3 }, 'groups/kestrel'),
        milestone(52, 'Docs 2', { project_id: 6 }, 'heron/docs'),
        milestone(53, 'Heron Q3', { group_id: 9 }, 'groups/heron'),
      ],
    },
    'issues:update': (_account: unknown, request: unknown) => ({ ok: true, result: { id: 1, request } }),
    ...extra,
  } as never)
}

async function mountList(moveTo: 'epic' | 'milestone', rows: AccountItem<Issue>[]) {
  const pinia = createPinia()
  setActivePinia(pinia)
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [{ path: '/:any(.*)*', component: { render: () => null } }],
  })
  const transport = transportFor()
  const sections = shallowRef([{ key: 'opened', title: 'Open issues', rows }])
  const Host = defineComponent({
    setup() {
      useShortcuts()
      return () =>
        h(NMessageProvider, null, {
          default: () => [h(IssueTriageList, { sections: sections.value, moveTo, resetKey: 'x' }), h(WorkTriagePicker)],
        })
    },
  })
  mount(Host, {
    global: { plugins: [pinia, router], provide: { [bridgeKey as symbol]: transport.bridge } },
    attachTo: document.body,
  })
  await router.isReady()
  await flushPromises()
  return { transport, router, sections }
}

const press = (key: string, init: KeyboardEventInit = {}) =>
  window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }))
const options = () =>
  [...document.querySelectorAll('[data-testid="triage-picker"] [role="option"]')].map((o) => [
    o.getAttribute('data-value'),
    o.getAttribute('aria-checked'),
  ])
const updates = (transport: ReturnType<typeof fakeTransport>) =>
  transport.calls.filter((c) => c.channel === 'issues:update').map((c) => c.args[1])
async function typeAndEnter(text: string) {
  const input = document.querySelector<HTMLInputElement>('[data-testid="triage-filter"] input')
  if (input === null) throw new Error('no picker input')
  input.value = text
  input.dispatchEvent(new Event('input'))
  await flushPromises()
  input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))
  await flushPromises()
}
const rowsShown = () => [...document.querySelectorAll('.work-item-row')]
async function check(n: number) {
  rowsShown()[n].querySelector<HTMLInputElement>('.work-item-row__check input, .work-item-row__check')?.click()
  await flushPromises()
}

describe('IssueTriageList (an epic’s or a milestone’s issues)', () => {
  it('links every issue to its page, in sections with counts', async () => {
    await mountList('epic', [row(issue(501, 12)), row(issue(502, 13))])
    expect(rowsShown().map((r) => r.querySelector('a')?.getAttribute('href'))).toEqual([
      `/a/${ROOT_ACCOUNT.id}/projects/5/issues/12`,
      `/a/${ROOT_ACCOUNT.id}/projects/5/issues/13`,
    ])
    expect(document.querySelector('[data-section="opened"] h3')?.textContent).toBe('Open issues (2)')
    expect(document.querySelector('[data-testid="issue-triage-bar"]')).toBeNull()
  })

  it('moves the selected issue to another epic of its group or a group above it, through the outbox', async () => {
    const { transport } = await mountList('epic', [row(issue(501, 12)), row(issue(502, 13))])
    await check(1)
    expect(document.querySelector('[data-testid="issue-triage-bar"]')?.textContent).toContain('1 selected')
    document.querySelector<HTMLButtonElement>('[data-testid="triage-move-to"]')?.click()
    await flushPromises()
    // kestrel/app may join kestrel's epics, not kestrel/tools' (a subgroup) nor heron's.
    expect(options()).toEqual([
      ['0', 'false'],
      ['31', 'true'],
      ['32', 'false'],
    ])
    await typeAndEnter('Someday')
    expect(updates(transport)).toEqual([{ projectId: 5, iid: 13, changes: { epic_id: 32 } }])
  })

  it('shift+E acts on the highlighted issue without a selection; No epic takes it out', async () => {
    const { transport } = await mountList('epic', [row(issue(501, 12)), row(issue(502, 13))])
    press('j')
    press('E', { shiftKey: true })
    await flushPromises()
    await typeAndEnter('No epic')
    expect(updates(transport)).toEqual([{ projectId: 5, iid: 13, changes: { epic_id: null } }])
  })

  it('moves to another milestone of the project or of its groups, never another project’s or group’s', async () => {
    const { transport } = await mountList('milestone', [
      row(
        issue(501, 12, {
          milestone: {
            id: 51,
            iid: 51,
            title: 'Release 3.6',
            state: 'active',
            due_date: null,
            start_date: null,
            group_id: 3,
          },
        }),
      ),
    ])
    await check(0)
    document.querySelector<HTMLButtonElement>('[data-testid="triage-move-to"]')?.click()
    await flushPromises()
    expect(options()).toEqual([
      ['0', 'false'],
      ['50', 'false'],
      ['51', 'true'],
    ])
    await typeAndEnter('v1.0')
    expect(updates(transport)).toEqual([{ projectId: 5, iid: 12, changes: { milestone_id: 50 } }])
  })

  it('a row that left the list (moved elsewhere) leaves the selection too', async () => {
    const { sections } = await mountList('milestone', [row(issue(501, 12)), row(issue(502, 13))])
    await check(0)
    expect(document.querySelector('[data-testid="issue-triage-bar"]')?.textContent).toContain('1 selected')
    sections.value = [{ key: 'opened', title: 'Open issues', rows: [row(issue(502, 13))] }]
    await flushPromises()
    expect(document.querySelector('[data-testid="issue-triage-bar"]')).toBeNull()
  })

  it('o opens the highlighted issue', async () => {
    const { router } = await mountList('epic', [row(issue(501, 12)), row(issue(502, 13))])
    press('j')
    press('o')
    await flushPromises()
    expect(router.currentRoute.value.fullPath).toBe(`/a/${ROOT_ACCOUNT.id}/projects/5/issues/13`)
  })
})

describe('EpicDetailView issues', () => {
  it('lists the epic’s issues from the cache by epic_id, pending ones marked, each one a triage row', async () => {
    const pinia = createPinia()
    setActivePinia(pinia)
    const router = createRouter({
      history: createMemoryHistory(),
      routes: [
        { path: '/a/:account/groups/:groupId/epics/:iid', component: EpicDetailView },
        { path: '/:any(.*)*', component: { render: () => null } },
      ],
    })
    const transport = transportFor({
      'accounts:secret-storage': {
        ok: true,
        result: { kind: 'keychain', available: true, reason: null, encryptedFile: { exists: false, unlocked: false } },
      },
      'epics:get': {
        ok: true,
        result: {
          item: {
            pending: false,
            data: {
              ...roadmap,
              parent_id: null,
              state: 'opened',
              labels: [],
              description: null,
              start_date: null,
              due_date: null,
              author: ada,
              created_at: '2024-01-01T00:00:00Z',
            },
          },
          discussions: [],
          stale: false,
        },
      },
      'issues:list': {
        ok: true,
        result: {
          total: 2,
          offset: 0,
          limit: 500,
          items: [
            { pending: true, data: issue(501, 12) },
            { pending: false, data: issue(502, 13, { state: 'closed' }) },
          ],
        },
      },
    })
    await router.push(`/a/${ROOT_ACCOUNT.id}/groups/3/epics/1`)
    mount(EpicDetailView, {
      global: { plugins: [pinia, router], provide: { [bridgeKey as symbol]: transport.bridge } },
      attachTo: document.body,
    })
    await flushPromises()
    await flushPromises()
    expect(transport.calls.filter((c) => c.channel === 'issues:list').map((c) => c.args[1])).toContainEqual(
      expect.objectContaining({ epic_id: 31, state: 'all' }),
    )
    expect(document.querySelector('[data-section="opened"]')?.textContent).toContain('Issue 12')
    expect(document.querySelector('[data-section="opened"] [data-testid="pending-marker"]')).not.toBeNull()
    expect(document.querySelector('[data-section="closed"]')?.textContent).toContain('Issue 13')
  })
})
