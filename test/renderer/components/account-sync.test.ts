// @vitest-environment jsdom
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createMemoryHistory, createRouter } from 'vue-router'
import { describe, expect, it } from 'vitest'
import AccountSyncView from '../../../src/renderer/views/AccountSyncView.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import type { SyncScope } from '../../../src/shared/ipc/cache'
import { fakeTransport, ROOT_ACCOUNT } from '../support/fake-bridge'

const projects = [
  { id: 5, name: 'App', name_with_namespace: 'Kestrel / App', path_with_namespace: 'kestrel/app' },
  { id: 6, name: 'Docs', name_with_namespace: 'Kestrel / Docs', path_with_namespace: 'kestrel/docs' },
]
const groups = [{ id: 3, name: 'Kestrel', full_name: 'Kestrel', full_path: 'kestrel' }]

async function mountView(scope: SyncScope) {
  setActivePinia(createPinia())
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [{ path: '/accounts/:account/sync', component: AccountSyncView }],
  })
  await router.push(`/accounts/${ROOT_ACCOUNT.id}/sync`)
  const transport = fakeTransport({
    'accounts:list': { ok: true, result: [ROOT_ACCOUNT] },
    'sync:get-scope': { ok: true, result: scope },
    'sync:set-scope': (_account: unknown, next: unknown) => ({ ok: true, result: next }),
    'sync:start': {
      ok: true,
      result: {
        accountId: ROOT_ACCOUNT.id,
        state: 'running',
        scope,
        progress: null,
        lastStartedAt: null,
        lastCompletedAt: null,
        lastReconciledAt: null,
        lastError: null,
      },
    },
    'api:get': (_account: unknown, path: unknown) => ({
      ok: true,
      result: {
        body: path === '/projects' ? projects : groups,
        status: 200,
        stale: false,
        fetchedAt: '2024-05-01T00:00:00Z',
        page: { total: null, totalPages: null, nextPage: null, page: 1, perPage: 100 },
      },
    }),
  })
  const wrapper = mount(AccountSyncView, {
    global: { plugins: [router], provide: { [bridgeKey as symbol]: transport.bridge } },
  })
  await flushPromises()
  return { wrapper, transport }
}

describe('AccountSyncView', () => {
  it('switches from memberships to a chosen set of projects and groups, saved with sync:set-scope, then offers to sync now', async () => {
    const { wrapper, transport } = await mountView({ mode: 'memberships' })
    expect(wrapper.find('[data-testid="sync-projects"]').exists()).toBe(false)
    await wrapper.find('[data-testid="sync-mode-custom"] input').setValue(true)
    await flushPromises()
    expect(wrapper.find('[data-testid="sync-save"]').attributes('disabled')).toBeDefined()
    await wrapper.find('[data-project="kestrel/docs"]').trigger('click')
    await wrapper.find('[data-group="kestrel"]').trigger('click')
    await wrapper.find('[data-testid="sync-save"]').trigger('click')
    await flushPromises()
    expect(transport.calls.filter((c) => c.channel === 'sync:set-scope').map((c) => c.args[1])).toEqual([
      { mode: 'custom', project_ids: [6], group_ids: [3] },
    ])
    await wrapper.find('[data-testid="sync-now"]').trigger('click')
    await flushPromises()
    expect(transport.calls.some((c) => c.channel === 'sync:start')).toBe(true)
  })

  it('shows the saved choice, and keeps a chosen project the server no longer lists so it can be taken out', async () => {
    const { wrapper } = await mountView({ mode: 'custom', project_ids: [5, 99], group_ids: [] })
    expect(wrapper.find('[data-project="kestrel/app"]').attributes('aria-checked')).toBe('true')
    expect(wrapper.find('[data-project="kestrel/docs"]').attributes('aria-checked')).toBe('false')
    expect(wrapper.find('[data-testid="sync-projects"]').text()).toContain('Project 99')
  })
})
