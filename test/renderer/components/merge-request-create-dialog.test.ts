// @vitest-environment jsdom
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createMemoryHistory, createRouter } from 'vue-router'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defineComponent, h } from 'vue'
import MergeRequestCreateDialog from '../../../src/renderer/components/merge-request/MergeRequestCreateDialog.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import { useCreateItemStore } from '../../../src/renderer/stores/create-item'
import type { IpcResponse } from '../../../src/shared/ipc/contract'
import { fakeTransport } from '../support/fake-bridge'

/*
 * The new merge request form proposes its title from the source branch's commits (repos:compare,
 * seconds on a busy server): until that answer is in, the empty title is not called a problem.
 */

let unmount: () => void = () => {}
beforeEach(() => {
  setActivePinia(createPinia())
  document.body.innerHTML = ''
})
afterEach(() => unmount())

const REFS: IpcResponse = {
  ok: true,
  result: {
    source: 'server',
    stale: false,
    fetchedAt: null,
    defaultBranch: 'main',
    branches: [
      { name: 'main', commit: 'a'.repeat(40), default: true },
      { name: 'lamp', commit: 'b'.repeat(40), default: false },
    ],
    tags: [],
  },
}

function mountForm() {
  let answerCompare: (r: IpcResponse) => void = () => {}
  const transport = fakeTransport({
    'repos:refs': REFS,
    'api:get': { ok: true, result: { status: 200, body: { id: 5, path_with_namespace: 'team/lamp' } } },
    'repos:compare': () => new Promise<IpcResponse>((resolve) => (answerCompare = resolve)),
    'labels:list': { ok: true, result: [] },
    'milestones:list': { ok: true, result: [] },
    'users:list': { ok: true, result: [] },
    'projects:list': { ok: true, result: [] },
  })
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [{ path: '/:rest(.*)', component: defineComponent({ render: () => h('div') }) }],
  })
  const wrapper = mount(MergeRequestCreateDialog, {
    global: { provide: { [bridgeKey as symbol]: transport.bridge }, plugins: [router] },
    attachTo: document.body,
  })
  unmount = () => wrapper.unmount()
  useCreateItemStore().newMergeRequest({ accountId: 'acc', projectId: 5, sourceBranch: 'lamp' })
  return { wrapper, transport, answerCompare: (r: IpcResponse) => answerCompare(r) }
}

const byTestId = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`)
const titleInput = () => byTestId('mr-create-title')?.querySelector('input') ?? null

describe('MergeRequestCreateDialog', () => {
  it('says nothing of the empty title while its proposal is on its way, and Create waits for it', async () => {
    const { transport, answerCompare } = mountForm()
    await flushPromises()
    expect(transport.calls.some((c) => c.channel === 'repos:compare')).toBe(true)
    expect(titleInput()?.getAttribute('placeholder')).toBe('Proposing a title from lamp’s commits…')
    expect(byTestId('mr-create-problem')).toBeNull()
    expect(document.body.textContent).not.toContain('A title is required.')
    expect(byTestId('mr-create-submit')?.hasAttribute('disabled')).toBe(true)

    answerCompare({ ok: true, result: { commits: [{ title: 'Dim the lamp', message: 'Dim the lamp\n' }] } })
    await flushPromises()
    expect(titleInput()?.value).toBe('Dim the lamp')
    expect(byTestId('mr-create-problem')).toBeNull()
    expect(byTestId('mr-create-submit')?.hasAttribute('disabled')).toBe(false)
  })

  it('says the title is required once the user has emptied it, proposal or not', async () => {
    mountForm()
    await flushPromises()
    const input = titleInput()!
    input.value = 'x'
    input.dispatchEvent(new Event('input'))
    await flushPromises()
    input.value = ''
    input.dispatchEvent(new Event('input'))
    await flushPromises()
    expect(byTestId('mr-create-problem')?.textContent).toBe('A title is required.')
    expect(byTestId('mr-create-submit')?.hasAttribute('disabled')).toBe(true)
  })
})
