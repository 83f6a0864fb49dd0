// @vitest-environment jsdom
import { flushPromises, mount } from '@vue/test-utils'
import { createTestingPinia } from '@pinia/testing'
import { createPinia } from 'pinia'
import { describe, expect, it, vi } from 'vitest'
import { bridgeKey, wrapBridge, type Bridge } from '../../src/renderer/bridge'
import { useAppStore } from '../../src/renderer/stores/app'
import ShellHome from '../../src/renderer/views/ShellHome.vue'
import type { BurrowBridge, IpcResponse } from '../../src/shared/ipc/contract'

/** A fake transport (the Electron preload cannot run here) answering from a table. */
function fakeTransport(answers: Record<string, IpcResponse>): BurrowBridge {
  const invoke = async (channel: string): Promise<IpcResponse> =>
    answers[channel] ?? { ok: false, error: { code: 'unknown-channel', message: channel } }
  return { invoke: invoke as BurrowBridge['invoke'], on: () => () => undefined }
}

function mountWith(bridge: Bridge, pinia: ReturnType<typeof createPinia>) {
  return mount(ShellHome, {
    global: { plugins: [pinia], provide: { [bridgeKey as symbol]: bridge }, stubs: { RouterLink: true } },
  })
}

describe('ShellHome', () => {
  it('greets the selected account and shows the mode, the server URL and version from the store', () => {
    const bridge = wrapBridge(fakeTransport({}), 'websocket')
    const pinia = createTestingPinia({
      createSpy: vi.fn,
      initialState: {
        app: {
          info: { version: '0.1.0', mode: 'browser', serverUrl: 'http://127.0.0.1:4567' },
          server: { url: 'http://127.0.0.1:4567', state: 'reachable', version: '17.6.0', revision: 'burrow' },
        },
        accounts: {
          accounts: [
            {
              id: 'a1',
              baseUrl: 'http://127.0.0.1:4567',
              username: 'root',
              userId: 1,
              name: 'Administrator',
              avatarUrl: null,
              authKind: 'pat',
              addedAt: '2024-01-01T00:00:00Z',
            },
          ],
          loaded: true,
        },
      },
    })
    const wrapper = mountWith(bridge, pinia)
    expect(wrapper.find('h2').text()).toBe('Hello, Administrator')
    expect(wrapper.find('.shell-home__accounts').text()).toContain('@root · http://127.0.0.1:4567')
    expect(wrapper.find('[data-testid="mode"]').text()).toBe('browser')
    expect(wrapper.find('[data-testid="server-url"]').text()).toBe('http://127.0.0.1:4567')
    expect(wrapper.find('[data-testid="server-version"]').text()).toBe('17.6.0')
    expect(useAppStore(pinia).load).toHaveBeenCalledOnce()
  })

  it('counts the work waiting in the cache, each count a link to the list it comes from', async () => {
    const list = (total: number): IpcResponse => ({ ok: true, result: { items: [], total } })
    const calls: [string, unknown][] = []
    const transport: BurrowBridge = {
      invoke: (async (channel: string, _account: string, params: unknown) => {
        calls.push([channel, params])
        const p = (params ?? {}) as Record<string, unknown>
        if (channel === 'issues:list') return list(p.scope === 'assigned_to_me' ? 3 : 119)
        if (channel === 'merge-requests:list') return list(p.reviewer_id === 1 ? 2 : 23)
        if (channel === 'todos:list')
          return {
            ok: true,
            result: [1, 2, 3, 4].map((id) => ({
              data: { id, action_name: 'mentioned', target_type: 'Issue', created_at: `2024-01-0${id}T00:00:00Z` },
              pending: false,
            })),
          }
        return { ok: false, error: { code: 'unknown-channel', message: channel } }
      }) as BurrowBridge['invoke'],
      on: () => () => undefined,
    }
    const pinia = createTestingPinia({
      createSpy: vi.fn,
      stubActions: false,
      initialState: {
        accounts: {
          accounts: [
            {
              id: 'a1',
              baseUrl: 'http://127.0.0.1:4567',
              username: 'root',
              userId: 1,
              name: 'Administrator',
              avatarUrl: null,
              authKind: 'pat',
              addedAt: '2024-01-01T00:00:00Z',
            },
          ],
          selection: 'a1',
          loaded: true,
        },
      },
    })
    const wrapper = mount(ShellHome, {
      global: {
        plugins: [pinia],
        provide: { [bridgeKey as symbol]: wrapBridge(transport, 'electron') },
        stubs: { RouterLink: { props: ['to'], template: '<a :href="to"><slot /></a>' } },
      },
    })
    await flushPromises()
    const items = wrapper
      .findAll('[data-testid="home-work"] li')
      .map((li) => [li.text(), li.find('a').attributes('href')])
    expect(items).toEqual([
      ['3 open issues assigned to you', '/issues?state=opened&scope=assigned_to_me'],
      ['2 merge requests waiting for your review', '/merge-requests?state=opened&reviewer_username=root'],
      ['4 to-dos', '/todos'],
      ['119 open issues', '/issues'],
      ['23 open merge requests', '/merge-requests'],
    ])
    expect(calls).toContainEqual(['todos:list', { state: 'pending' }])
  })

  it('loads app:info and server:status through the bridge when mounted', async () => {
    const bridge = wrapBridge(
      fakeTransport({
        'app:info': { ok: true, result: { version: '0.1.0', mode: 'electron', serverUrl: 'http://127.0.0.1:9' } },
        'server:status': {
          ok: true,
          result: { url: 'http://127.0.0.1:9', state: 'reachable', version: '17.6.0', revision: 'burrow' },
        },
      }),
      'electron',
    )
    const wrapper = mountWith(bridge, createPinia())
    await flushPromises()
    // The mode and the server's state in words, not the IPC values (`electron`, `reachable`).
    expect(wrapper.find('[data-testid="mode"]').text()).toBe('desktop app')
    expect(wrapper.find('.shell-home__state').text()).toBe('Reachable')
    expect(wrapper.find('[data-testid="server-version"]').text()).toBe('17.6.0')
  })

  it('shows the error code and message when a request fails', async () => {
    const bridge = wrapBridge(
      fakeTransport({ 'app:info': { ok: false, error: { code: 'unavailable', message: 'No launch secret' } } }),
      'websocket',
    )
    const wrapper = mountWith(bridge, createPinia())
    await flushPromises()
    expect(wrapper.find('[data-testid="error"]').text()).toContain('No launch secret')
    expect(wrapper.find('[data-testid="error"]').text()).toContain('unavailable')
    // The title says what happened; the code is only the small print.
    expect(wrapper.find('[data-testid="error"] .n-alert-body__title').text()).not.toBe('unavailable')
  })
})
