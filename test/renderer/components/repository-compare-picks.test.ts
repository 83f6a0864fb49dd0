// @vitest-environment jsdom
import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { defineComponent, h, nextTick, type PropType } from 'vue'
import { useComparePicks } from '../../../src/renderer/composables/use-compare-picks'

/*
 * The repository's Compare pickers (RepositoryView): opened before the branches are read, the base
 * becomes the default branch when they arrive; read again later (the clone fetched), the branches
 * do not undo what the user picked meanwhile.
 */

interface Refs {
  readonly defaultBranch: string | null
  readonly branches: readonly string[]
}

const Host = defineComponent({
  props: {
    from: { type: String as PropType<string | null>, default: null },
    to: { type: String as PropType<string | null>, default: null },
    refs: { type: Object as PropType<Refs | null>, default: null },
  },
  setup(props, { expose }) {
    const picks = useComparePicks(
      () => props.from,
      () => props.to,
      () => props.refs?.defaultBranch ?? null,
    )
    expose(picks)
    return () => h('p', `${picks.from.value ?? '-'}..${picks.to.value ?? '-'}`)
  },
})

const REFS: Refs = { defaultBranch: 'main', branches: ['main', 'lamp'] }

describe('the Compare pickers', () => {
  it('take the default branch as the base once the branches arrive after the page opened', async () => {
    const wrapper = mount(Host, { props: { refs: null } })
    expect(wrapper.text()).toBe('-..-')
    await wrapper.setProps({ refs: REFS })
    expect(wrapper.text()).toBe('main..-')
  })

  it('keep the branches the user picked when the branches are read again', async () => {
    const wrapper = mount(Host, { props: { refs: REFS } })
    const picks = wrapper.vm as unknown as { from: string | null; to: string | null }
    picks.from = 'lamp'
    picks.to = 'main'
    await nextTick()
    await wrapper.setProps({ refs: { ...REFS, branches: [...REFS.branches, 'new'] } })
    expect(wrapper.text()).toBe('lamp..main')
  })

  it('follow the address when it changes', async () => {
    const wrapper = mount(Host, { props: { refs: REFS } })
    await wrapper.setProps({ from: 'v1', to: 'lamp' })
    expect(wrapper.text()).toBe('v1..lamp')
  })
})
