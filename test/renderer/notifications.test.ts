// @vitest-environment jsdom
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { defineComponent, h } from 'vue'
import { createMemoryHistory, createRouter } from 'vue-router'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import ShellInbox from '../../src/renderer/components/shell/ShellInbox.vue'
import ShellToasts from '../../src/renderer/components/shell/ShellToasts.vue'
import { bridgeKey, wrapBridge } from '../../src/renderer/bridge'
import { useNotificationsStore } from '../../src/renderer/stores/notifications'
import type { BurrowBridge } from '../../src/shared/ipc/contract'
import type { NotifyAnnouncement } from '../../src/shared/ipc/notify'
import { DEFAULT_PREFERENCES } from '../../src/shared/ipc/preferences'

/*
 * What a new to-do or alert looks like in the page: a toast with Open, the inbox with its
 * unread badge, and in browser mode a Web Notification. jsdom has no Notification API: a fake
 * of it records what the page asks for (the e2e spec runs Chromium's own).
 */

enableAutoUnmount(afterEach)

const mention: NotifyAnnouncement = {
  kind: 'todo',
  accountId: 'acc',
  key: 'todo:42',
  title: 'Mara Maintainer mentioned you',
  body: 'Who owns the pager? · kestrel/app#3',
  url: null,
  route: '/a/acc/projects/5/issues/3',
  count: 1,
  topic: 'mentions',
}

const shown: { title: string; options: NotificationOptions }[] = []
class FakeNotification {
  static permission: NotificationPermission = 'granted'
  static requestPermission = async (): Promise<NotificationPermission> => (FakeNotification.permission = 'granted')
  onclick: (() => void) | null = null
  constructor(title: string, options: NotificationOptions) {
    shown.push({ title, options })
  }
  close(): void {}
}

beforeEach(() => {
  shown.length = 0
  FakeNotification.permission = 'granted'
  document.body.innerHTML = ''
  Object.assign(window, { Notification: FakeNotification })
})

function mountShell(transport: 'websocket' | 'electron') {
  const listeners: ((payload: unknown) => void)[] = []
  const raw = {
    invoke: async (channel: string) =>
      channel === 'preferences:get'
        ? { ok: true, result: DEFAULT_PREFERENCES }
        : { ok: false, error: { code: 'unknown-channel', message: channel } },
    on: (event: string, listener: (payload: unknown) => void) => {
      if (event === 'notify:did-announce') listeners.push(listener)
      return () => undefined
    },
  } as unknown as BurrowBridge
  const pinia = createPinia()
  setActivePinia(pinia)
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [{ path: '/:any(.*)*', component: { render: () => null } }],
  })
  const Shell = defineComponent({
    setup() {
      useNotificationsStore().setRouter((to) => void router.push(to))
      return () => [h(ShellInbox), h(ShellToasts)]
    },
  })
  const wrapper = mount(Shell, {
    global: { plugins: [pinia, router], provide: { [bridgeKey as symbol]: wrapBridge(raw, transport) } },
    attachTo: document.body,
  })
  return { wrapper, router, announce: (a: NotifyAnnouncement) => listeners.forEach((l) => l(a)) }
}

describe('announcements in the page', () => {
  it('a mention shows a toast with Open, counts as unread on the bell, and raises a Web Notification in browser mode', async () => {
    const { wrapper, router, announce } = mountShell('websocket')
    await flushPromises()
    announce(mention)
    await flushPromises()
    expect(wrapper.find('[data-testid="toast"]').text()).toContain('Mara Maintainer mentioned you: Who owns the pager?')
    expect(wrapper.find('[data-testid="inbox-badge"]').text()).toContain('1')
    expect(shown).toEqual([
      {
        title: 'Mara Maintainer mentioned you',
        options: { body: 'Who owns the pager? · kestrel/app#3', tag: 'todo:42' },
      },
    ])
    await wrapper.find('[data-testid="toast-open"]').trigger('click')
    await flushPromises()
    expect(router.currentRoute.value.fullPath).toBe('/a/acc/projects/5/issues/3')
    expect(useNotificationsStore().unread).toBe(0)
  })

  it('announces each item once, whatever repeats it', async () => {
    const { announce } = mountShell('websocket')
    await flushPromises()
    announce(mention)
    announce(mention)
    expect(useNotificationsStore().inbox).toHaveLength(1)
    expect(shown).toHaveLength(1)
  })

  it('leaves desktop notifications to the Electron shell, which raises native ones', async () => {
    const { announce } = mountShell('electron')
    await flushPromises()
    announce(mention)
    expect(useNotificationsStore().unread).toBe(1)
    expect(shown).toEqual([])
  })

  it('the inbox closes, read, on Escape and when the page changes', async () => {
    const { wrapper, router, announce } = mountShell('websocket')
    await flushPromises()
    announce(mention)
    const inboxShown = () => document.querySelector('[data-testid="inbox"]') !== null
    await wrapper.find('[data-testid="inbox-open"]').trigger('click')
    await flushPromises()
    expect(inboxShown()).toBe(true)
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }))
    await flushPromises()
    expect(inboxShown()).toBe(false)
    expect(useNotificationsStore().unread).toBe(0)
    await wrapper.find('[data-testid="inbox-open"]').trigger('click')
    await flushPromises()
    expect(inboxShown()).toBe(true)
    await router.push('/todos')
    await flushPromises()
    expect(inboxShown()).toBe(false)
  })

  it("raises none without the browser's permission, and asks for it from the inbox's button", async () => {
    FakeNotification.permission = 'default'
    const { wrapper, announce } = mountShell('websocket')
    await flushPromises()
    announce(mention)
    expect(shown).toEqual([])
    await wrapper.find('[data-testid="inbox-open"]').trigger('click')
    await flushPromises()
    document.querySelector<HTMLButtonElement>('[data-testid="inbox-allow-desktop"]')?.click()
    await flushPromises()
    expect(useNotificationsStore().permission).toBe('granted')
  })
})
