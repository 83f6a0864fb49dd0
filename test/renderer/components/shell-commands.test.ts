// @vitest-environment jsdom
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { defineComponent, h } from 'vue'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import ShellCommandPalette from '../../../src/renderer/components/shell/ShellCommandPalette.vue'
import { useCommands } from '../../../src/renderer/composables/use-commands'
import { useShortcuts } from '../../../src/renderer/composables/use-shortcuts'
import { useCommandsStore } from '../../../src/renderer/stores/commands'
import { bridgeKey } from '../../../src/renderer/bridge'
import { createMemoryHistory, createRouter } from 'vue-router'
import { fakeTransport, ROOT_ACCOUNT } from '../support/fake-bridge'

function press(key: string, init: KeyboardEventInit = {}, target: EventTarget = window): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init })
  target.dispatchEvent(event)
  return event
}

/** A view registering commands, and the shell's shortcut listener. */
function mountHarness(ran: string[]) {
  const pinia = createPinia()
  setActivePinia(pinia)
  const View = defineComponent({
    setup() {
      useShortcuts()
      useCommands(
        {
          id: 'open',
          title: 'Open palette',
          group: 'General',
          keys: 'mod+k',
          global: true,
          run: () => void ran.push('palette'),
        },
        { id: 'issues', title: 'Go to Issues', group: 'Navigation', keys: 'g i', run: () => void ran.push('issues') },
        { id: 'mrs', title: 'Go to Merge requests', group: 'Navigation', keys: 'g m', run: () => void ran.push('mrs') },
      )
      return () => h('input', { id: 'field' })
    },
  })
  return mount(View, { global: { plugins: [pinia] }, attachTo: document.body })
}

// The shortcut listener sits on window: a mounted harness left over would see the next test's keys.
enableAutoUnmount(afterEach)

beforeEach(() => {
  document.body.innerHTML = ''
})

describe('shortcuts', () => {
  it('runs a chord and a two-key sequence', () => {
    const ran: string[] = []
    mountHarness(ran)
    expect(press('k', { ctrlKey: true }).defaultPrevented).toBe(true)
    press('g')
    press('m')
    expect(ran).toEqual(['palette', 'mrs'])
  })

  it('ignores single keys typed in a field but still honours Ctrl/⌘ chords marked global', () => {
    const ran: string[] = []
    const wrapper = mountHarness(ran)
    const field = wrapper.find('#field').element
    press('g', {}, field)
    press('i', {}, field)
    press('k', { ctrlKey: true }, field)
    expect(ran).toEqual(['palette'])
  })

  it('forgets the commands of a view when it unmounts', () => {
    const ran: string[] = []
    const wrapper = mountHarness(ran)
    wrapper.unmount()
    expect(useCommandsStore().commands).toEqual([])
    press('k', { ctrlKey: true })
    expect(ran).toEqual([])
  })
})

describe('ShellCommandPalette', () => {
  async function openPalette(accounts: readonly unknown[] = []) {
    const pinia = createPinia()
    setActivePinia(pinia)
    const router = createRouter({
      history: createMemoryHistory(),
      routes: [
        { path: '/', component: { render: () => null } },
        { path: '/search', name: 'search', component: { render: () => null } },
      ],
    })
    const transport = fakeTransport({ 'accounts:list': { ok: true, result: accounts } })
    const store = useCommandsStore()
    mount(ShellCommandPalette, {
      global: { plugins: [pinia, router], provide: { [bridgeKey as symbol]: transport.bridge } },
      attachTo: document.body,
    })
    transport.emit('accounts:did-change', accounts as never)
    store.paletteOpen = true
    await flushPromises()
    const input = document.querySelector<HTMLInputElement>('[data-testid="command-palette-input"] input')
    if (input === null) throw new Error('no palette input')
    return { store, router, input }
  }
  const options = () => [...document.querySelectorAll('[role="option"]')].map((o) => o.getAttribute('data-command'))
  async function type(input: HTMLInputElement, text: string) {
    input.value = text
    input.dispatchEvent(new Event('input'))
    await flushPromises()
  }

  it('filters the registered commands as you type and runs the highlighted one on Enter', async () => {
    const { store, input } = await openPalette()
    const ran: string[] = []
    store.register(
      { id: 'issues', title: 'Go to Issues', group: 'Navigation', keys: 'g i', run: () => void ran.push('issues') },
      { id: 'theme', title: 'Theme: dark', group: 'View', run: () => void ran.push('theme') },
      {
        id: 'hidden',
        title: 'Go nowhere',
        group: 'Navigation',
        enabled: () => false,
        run: () => void ran.push('hidden'),
      },
    )
    await flushPromises()
    expect(options()).toEqual(['issues', 'theme'])
    await type(input, 'dark')
    expect(options()).toEqual(['theme'])
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))
    await flushPromises()
    expect(ran).toEqual(['theme'])
    expect(store.paletteOpen).toBe(false)
  })

  it('offers to search the synced items for free text once an account exists', async () => {
    const { router, input } = await openPalette([ROOT_ACCOUNT])
    await type(input, 'flaky test')
    expect(options()).toEqual(['palette.search'])
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))
    await flushPromises()
    expect(router.currentRoute.value.fullPath).toBe('/search?q=flaky+test')
  })
})
