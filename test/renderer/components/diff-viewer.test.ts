// @vitest-environment jsdom
import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import DiffViewer from '../../../src/renderer/components/diff/DiffViewer.vue'
import type { DiffFileSource } from '../../../src/renderer/lib/diff'

const file = (path: string, diff: string, extra: Partial<DiffFileSource> = {}): DiffFileSource => ({
  old_path: path,
  new_path: path,
  new_file: false,
  renamed_file: false,
  deleted_file: false,
  diff,
  ...extra,
})

const small = file('src/app.ts', '@@ -4,3 +4,3 @@\n keep\n-old line\n+new line\n tail\n')

describe('DiffViewer', () => {
  it('shows old and new line numbers, additions and deletions', () => {
    const wrapper = mount(DiffViewer, { props: { files: [small] } })
    const rows = wrapper
      .findAll('tr')
      .map((tr) => [tr.classes().find((c) => c.startsWith('diff-line--')), ...tr.findAll('td').map((td) => td.text())])
    expect(rows).toEqual([
      ['diff-line--hunk', '', '', '@@ -4,3 +4,3 @@'],
      ['diff-line--context', '4', '4', '', 'keep'],
      ['diff-line--deletion', '5', '', '−', 'old line'],
      ['diff-line--addition', '', '5', '+', 'new line'],
      ['diff-line--context', '6', '6', '', 'tail'],
    ])
    expect(wrapper.find('.diff-viewer__summary').text()).toContain('1 file changed')
    expect([wrapper.find('.diff-viewer__additions').text(), wrapper.find('.diff-viewer__deletions').text()]).toEqual([
      '+1',
      '−1',
    ])
  })

  it('collapses and expands a file from its header', async () => {
    const wrapper = mount(DiffViewer, { props: { files: [small] } })
    const toggle = wrapper.find('.diff-file__toggle')
    expect(toggle.attributes('aria-expanded')).toBe('true')
    await toggle.trigger('click')
    expect(wrapper.find('table').exists()).toBe(false)
    expect(toggle.attributes('aria-expanded')).toBe('false')
    await toggle.trigger('click')
    expect(wrapper.find('table').exists()).toBe(true)
  })

  it('starts a very large file collapsed with a notice and a way to show it', async () => {
    const big = file(
      'big.txt',
      '@@ -1,0 +1,1500 @@\n' + Array.from({ length: 1_500 }, (_, i) => `+line ${i}`).join('\n'),
    )
    const wrapper = mount(DiffViewer, { props: { files: [small, big] } })
    expect(wrapper.findAll('table')).toHaveLength(1)
    expect(wrapper.find('[data-testid="diff-large"]').text()).toContain('1 file is collapsed')
    await wrapper.find('.diff-file__expand').trigger('click')
    expect(wrapper.findAll('table')).toHaveLength(2)
  })

  it('warns when the server left files out (overflow)', () => {
    const wrapper = mount(DiffViewer, { props: { files: [small], overflow: true } })
    expect(wrapper.find('[data-testid="diff-overflow"]').text()).toContain('left some files out')
  })

  it('names renames with both paths and marks added files', () => {
    const wrapper = mount(DiffViewer, {
      props: {
        files: [
          file('new.ts', '', { old_path: 'old.ts', renamed_file: true }),
          file('added.md', '@@ -0,0 +1 @@\n+hi\n', { new_file: true }),
        ],
      },
    })
    const headers = wrapper.findAll('.diff-file__header').map((h) => h.text())
    expect(headers[0]).toContain('old.ts → new.ts')
    expect(headers[0]).toContain('renamed')
    expect(headers[1]).toContain('added')
  })
})
