// @vitest-environment jsdom
import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import MarkdownContent from '../../../src/renderer/components/markdown/MarkdownContent.vue'

describe('MarkdownContent', () => {
  it('renders Markdown with references linked through the given resolver', () => {
    const wrapper = mount(MarkdownContent, {
      props: {
        source: '**Blocked** by #12',
        resolveReference: (r) => (r.kind === 'issue' ? `#/issues/${r.id}` : null),
      },
    })
    expect(wrapper.find('strong').text()).toBe('Blocked')
    expect(wrapper.find('a.gl-reference').attributes('href')).toBe('#/issues/12')
  })

  it('never puts raw HTML from the source into the page', () => {
    const wrapper = mount(MarkdownContent, {
      props: { source: '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>' },
    })
    expect(wrapper.html()).not.toContain('onerror')
    expect(wrapper.find('script').exists()).toBe(false)
    expect(wrapper.find('img').exists()).toBe(false)
  })

  it('re-renders when the source changes', async () => {
    const wrapper = mount(MarkdownContent, { props: { source: 'one' } })
    await wrapper.setProps({ source: '# two' })
    expect(wrapper.find('h1').text()).toBe('two')
  })
})
