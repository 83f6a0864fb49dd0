// @vitest-environment jsdom
import { mount } from '@vue/test-utils'
import { h, nextTick } from 'vue'
import { describe, expect, it } from 'vitest'
import CommonVirtualList from '../../../src/renderer/components/common/CommonVirtualList.vue'

interface Row {
  readonly id: number
  readonly title: string
}

const items: Row[] = Array.from({ length: 10_000 }, (_, i) => ({ id: i + 1, title: `Issue ${i + 1}` }))

function mountList() {
  return mount(CommonVirtualList, {
    props: { items, itemHeight: 30, overscan: 5, itemKey: (item: unknown) => (item as Row).id },
    slots: { default: ({ item }: { item: unknown }) => h('span', { class: 'row' }, (item as Row).title) },
  })
}

/** After the next animation frame, and the task that follows it. */
const afterFrame = async (): Promise<void> => {
  await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
  await nextTick()
}

describe('CommonVirtualList', () => {
  it('renders only a window of rows out of ten thousand: the rows in view first, the overscan after that frame', async () => {
    const wrapper = mountList()
    // 600 px assumed viewport / 30 px rows = 20 rows.
    expect(wrapper.findAll('.row')).toHaveLength(20)
    await afterFrame()
    // Plus 5 below (none above at the top).
    const rows = wrapper.findAll('.row')
    expect(rows).toHaveLength(25)
    expect(rows[0].text()).toBe('Issue 1')
  })

  it('keeps the full scroll height so the scrollbar matches the whole list', () => {
    const spacer = mountList().find('.common-virtual-list__spacer')
    expect(spacer.attributes('style')).toContain('height: 300000px')
  })

  it('moves the window when scrolled, still rendering only a window', async () => {
    const wrapper = mountList()
    await afterFrame()
    const viewport = wrapper.find('.common-virtual-list').element as HTMLElement
    viewport.scrollTop = 30 * 5_000
    await wrapper.find('.common-virtual-list').trigger('scroll')
    const rows = wrapper.findAll('.row')
    expect(rows).toHaveLength(30)
    expect(rows[0].text()).toBe('Issue 4996')
    expect(rows.at(-1)?.text()).toBe('Issue 5025')
    expect(wrapper.emitted('range')?.at(-1)).toEqual([4995, 5025])
  })

  it('exposes the position of each row to assistive technology', () => {
    const row = mountList().find('[role="listitem"]')
    expect([row.attributes('aria-posinset'), row.attributes('aria-setsize')]).toEqual(['1', '10000'])
  })

  it('with heightOf, rows of their own heights: the total is their sum and a scroll finds the row at that height', async () => {
    // Every tenth row is 300 px tall (a thread under a line), the others 30.
    const heightOf = (item: unknown) => ((item as Row).id % 10 === 0 ? 300 : 30)
    const wrapper = mount(CommonVirtualList, {
      props: { items, itemHeight: 30, heightOf, overscan: 0, itemKey: (item: unknown) => (item as Row).id },
      slots: { default: ({ item }: { item: unknown }) => h('span', { class: 'row' }, (item as Row).title) },
    })
    expect(wrapper.find('.common-virtual-list__spacer').attributes('style')).toContain(`height: ${1000 * 570}px`)
    const viewport = wrapper.find('.common-virtual-list').element as HTMLElement
    // Ten rows (570 px) per block: 100 blocks down, then 20 px into row 1001.
    viewport.scrollTop = 100 * 570 + 20
    await wrapper.find('.common-virtual-list').trigger('scroll')
    const rows = wrapper.findAll('.row')
    expect(rows[0].text()).toBe('Issue 1001')
    expect(wrapper.find('.common-virtual-list__window').attributes('style')).toContain(`translateY(${100 * 570}px)`)
    // 600 px of view from 57020: rows 1001–1009 (270 px), the tall 1010 (300), then 1011 and 1012.
    expect(rows.at(-1)?.text()).toBe('Issue 1012')
    expect(wrapper.findAll('[role="listitem"]')[9].attributes('style')).toContain('height: 300px')
  })

  it('shows the empty slot when there are no items', () => {
    const wrapper = mount(CommonVirtualList, {
      props: { items: [], itemHeight: 30 },
      slots: { empty: () => h('p', 'Nothing here') },
    })
    expect(wrapper.text()).toBe('Nothing here')
  })
})
