// @vitest-environment jsdom
import { flushPromises, mount } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import LabelChipLine from '../../../src/renderer/components/label/LabelChipLine.vue'

// jsdom lays nothing out: the chips' widths, the box's room and the observer are given here.
const WIDTHS: Record<string, number> = { bug: 40, ui: 40, docs: 40, backend: 60 }
const MORE = 26
let room = 100
let observed: (() => void) | null = null
let observations = 0

beforeEach(() => {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(callback: () => void) {
        observed = callback
      }
      observe(): void {
        observations++
      }
      unobserve(): void {}
      disconnect(): void {}
    },
  )
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const width = this.dataset.label !== undefined ? WIDTHS[this.dataset.label] : MORE
    return { width, height: 18, x: 0, y: 0, top: 0, left: 0, right: width, bottom: 18, toJSON: () => ({}) }
  })
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => room)
})

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
  observed = null
  observations = 0
})

async function line(names: string[]) {
  const wrapper = mount(LabelChipLine, { props: { names, labels: new Map() } })
  await flushPromises()
  observed?.()
  await flushPromises()
  return wrapper
}

const leftOut = (wrapper: Awaited<ReturnType<typeof line>>): (string | undefined)[] =>
  wrapper.findAll('.label-chip-line__left-out').map((chip) => chip.attributes('data-label'))

describe('LabelChipLine', () => {
  it('puts +N inside the chips’ box, right after the chips that fit with it, the rest after it', async () => {
    // 40 + 4 + +N (26) = 70 fits in 100; a second chip would need 114.
    const wrapper = await line(['bug', 'ui', 'docs'])
    const more = wrapper.find('[data-testid="labels-more"]')
    expect(more.text()).toBe('+2')
    expect(more.element.parentElement?.classList.contains('label-chip-line__chips')).toBe(true)
    expect(leftOut(wrapper)).toEqual(['ui', 'docs'])
    expect(more.attributes('aria-label')).toBe('2 more labels: ui, docs')
  })

  it('shows every chip and no +N when they all fit', async () => {
    room = 130
    const wrapper = await line(['bug', 'ui', 'docs'])
    expect(wrapper.find('[data-testid="labels-more"]').exists()).toBe(false)
    expect(leftOut(wrapper)).toEqual([])
    room = 100
  })

  it('counts again when the box grows', async () => {
    room = 140
    const wrapper = await line(['bug', 'ui', 'backend', 'docs'])
    // 40 + 4 + 40 + 4 + +N = 114; backend (60) would need 178.
    expect(wrapper.find('[data-testid="labels-more"]').text()).toBe('+2')
    // All four need 192; three and +N need 178.
    room = 180
    observed?.()
    await flushPromises()
    expect(wrapper.find('[data-testid="labels-more"]').text()).toBe('+1')
    expect(leftOut(wrapper)).toEqual(['docs'])
    room = 100
  })

  it('a label added is counted at the next resize observation (after layout), not by forcing a layout at once', async () => {
    room = 200
    const wrapper = await line(['bug'])
    const before = observations
    const reads = vi.mocked(HTMLElement.prototype.getBoundingClientRect).mock.calls.length
    await wrapper.setProps({ names: ['bug', 'ui', 'docs'] })
    await flushPromises()
    // Observed afresh, nothing read yet.
    expect(observations).toBe(before + 1)
    expect(vi.mocked(HTMLElement.prototype.getBoundingClientRect).mock.calls.length).toBe(reads)
    // The observation (after the frame's layout) counts them: all three fit in 200.
    observed?.()
    await flushPromises()
    expect(wrapper.find('[data-testid="labels-more"]').exists()).toBe(false)
    expect(leftOut(wrapper)).toEqual([])
    room = 100
  })
  it('shows the labels left out while +N is focused, and forgets it when +N goes with no leave event', async () => {
    const wrapper = mount(LabelChipLine, {
      props: { names: ['bug', 'ui', 'docs'], labels: new Map() },
      attachTo: document.body,
    })
    await flushPromises()
    observed?.()
    await flushPromises()
    const shown = () =>
      [...document.querySelectorAll('[data-testid="labels-more-list"] .label-chip')].map(
        (c) => (c as HTMLElement).dataset.label,
      )
    expect(shown()).toEqual([])
    await wrapper.find('[data-testid="labels-more"]').trigger('focus')
    await vi.waitFor(() => expect(shown()).toEqual(['ui', 'docs']))
    // The box grows: every chip fits, +N goes while focused, and no blur is dispatched for it.
    room = 200
    observed?.()
    await flushPromises()
    expect(wrapper.find('[data-testid="labels-more"]').exists()).toBe(false)
    // Narrow again: +N is back, but nothing points at it, so no tooltip opens by itself.
    room = 100
    observed?.()
    await flushPromises()
    expect(wrapper.find('[data-testid="labels-more"]').exists()).toBe(true)
    await vi.waitFor(() => expect(shown()).toEqual([]))
    wrapper.unmount()
  })
})
