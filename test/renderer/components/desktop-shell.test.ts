// @vitest-environment jsdom
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils'
import { NMessageProvider } from 'naive-ui'
import { createPinia, setActivePinia } from 'pinia'
import { h } from 'vue'
import { createMemoryHistory, createRouter, type Router } from 'vue-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { bridgeKey } from '../../../src/renderer/bridge'
import ShellDesktop from '../../../src/renderer/components/shell/ShellDesktop'
import { useCommandsStore } from '../../../src/renderer/stores/commands'
import { fakeTransport, type FakeTransport } from '../support/fake-bridge'

/* The page's side of the desktop shell (use-desktop-shell.ts): routes the shell asks for, and "Copy diagnostics". */

enableAutoUnmount(afterEach)

const Stub = { render: () => h('div') }

async function mountShell(transport: FakeTransport): Promise<{ router: Router; wrapper: ReturnType<typeof mount> }> {
  const pinia = createPinia()
  setActivePinia(pinia)
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/:any(.*)*', component: Stub }] })
  await router.push('/')
  const wrapper = mount(
    { render: () => h(NMessageProvider, null, { default: () => h(ShellDesktop) }) },
    {
      global: { plugins: [pinia, router], provide: { [bridgeKey as symbol]: transport.bridge } },
      attachTo: document.body,
    },
  )
  return { router, wrapper }
}

function runCommand(id: string): Promise<unknown> | unknown {
  const command = useCommandsStore().commands.find((c) => c.id === id)
  if (command === undefined) throw new Error(`no command ${id}`)
  return command.run()
}

describe('the desktop shell in the page', () => {
  it('shows the route the shell asks for (a tray item, a notification, a burrow:// link)', async () => {
    const transport = fakeTransport({})
    const { router } = await mountShell(transport)
    transport.emit('app:did-request-route', { route: '/a/local/projects/7/issues/12' })
    await flushPromises()
    expect(router.currentRoute.value.fullPath).toBe('/a/local/projects/7/issues/12')
  })

  it('copies the diagnostics from the palette and says so', async () => {
    const writeText = vi.fn(async () => undefined)
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    const transport = fakeTransport({
      'app:diagnostics': {
        ok: true,
        result: { text: 'Burrow 0.1.0 (electron)\nAccounts (1):\n- https://gitlab.example.com' },
      },
    })
    await mountShell(transport)
    await runCommand('app.diagnostics')
    await flushPromises()
    expect(transport.calls.map((c) => c.channel)).toEqual(['app:diagnostics'])
    expect(writeText).toHaveBeenCalledWith('Burrow 0.1.0 (electron)\nAccounts (1):\n- https://gitlab.example.com')
    expect(document.body.textContent).toContain('Diagnostics copied')
  })

  it('says why when they cannot be copied', async () => {
    const transport = fakeTransport({
      'app:diagnostics': { ok: false, error: { code: 'unavailable', message: 'core is closing' } },
    })
    await mountShell(transport)
    await runCommand('app.diagnostics')
    await flushPromises()
    expect(document.body.textContent).toContain('Could not copy the diagnostics: core is closing')
  })
})
