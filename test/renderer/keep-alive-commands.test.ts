// @vitest-environment jsdom
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { defineComponent, h, KeepAlive, shallowRef } from 'vue'
import { describe, expect, it } from 'vitest'
import { useCommands } from '../../src/renderer/composables/use-commands'
import { useCommandsStore } from '../../src/renderer/stores/commands'

describe('commands of a view kept alive', () => {
  it('leave the palette and the keyboard while another view is shown, and come back with it', async () => {
    const pinia = createPinia()
    setActivePinia(pinia)
    const List = defineComponent({
      name: 'IssueListView',
      setup() {
        useCommands({ id: 'list.next', title: 'Next issue', group: 'List', keys: 'j', run: () => undefined })
        return () => h('p', 'list')
      },
    })
    const Detail = defineComponent({ name: 'IssueDetailView', setup: () => () => h('p', 'detail') })
    const shown = shallowRef<typeof List | typeof Detail>(List)
    mount(
      defineComponent(() => () => h(KeepAlive, { include: ['IssueListView'] }, [h(shown.value)])),
      { global: { plugins: [pinia] } },
    )
    const ids = () => useCommandsStore().commands.map((c) => c.id)
    expect(ids()).toContain('list.next')
    shown.value = Detail
    await flushPromises()
    expect(ids()).not.toContain('list.next')
    shown.value = List
    await flushPromises()
    expect(ids()).toContain('list.next')
  })
})
