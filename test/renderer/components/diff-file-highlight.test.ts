// @vitest-environment jsdom
import { flushPromises, mount } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import DiffViewer from '../../../src/renderer/components/diff/DiffViewer.vue'
import type { DiffFileSource } from '../../../src/renderer/lib/diff'
import type { HighlightedLines } from '../../../src/renderer/lib/diff-highlighter'

// The highlighting worker's client, answered by hand: what a file asks for, and when its colours arrive.
const asked = vi.hoisted(() => [] as { language: string | null; lines: number; answer(html: HighlightedLines): void }[])
vi.mock('../../../src/renderer/lib/diff-highlighter', () => ({
  highlightDiff: (lines: readonly unknown[], language: string | null) =>
    new Promise<HighlightedLines>((answer) => asked.push({ language, lines: lines.length, answer })),
}))

const file = (path: string, diff: string): DiffFileSource => ({
  old_path: path,
  new_path: path,
  new_file: false,
  renamed_file: false,
  deleted_file: false,
  diff,
})

describe('DiffFile highlighting', () => {
  it('colours a shown file from the highlighting worker, plain text until it answers; a collapsed file asks nothing', async () => {
    const small = file('src/app.ts', '@@ -1,2 +1,2 @@\n keep\n-old line\n+const x = 1\n')
    const big = file(
      'notes.md',
      `@@ -1,0 +1,1500 @@\n${Array.from({ length: 1_500 }, (_, i) => `+line ${i}`).join('\n')}`,
    )
    const wrapper = mount(DiffViewer, { props: { files: [small, big] } })
    await flushPromises()
    expect(asked.map((a) => [a.language, a.lines])).toEqual([['ts', 4]])
    const added = () => wrapper.findAll('.diff-file')[0].find('.diff-line--addition .diff-line__code')
    expect(added().classes()).not.toContain('burrow-hl')
    expect(added().text()).toBe('const x = 1')

    asked[0].answer([null, 'keep', 'old line', '<span class="hljs-keyword">const</span> x = 1'])
    await flushPromises()
    expect(added().classes()).toContain('burrow-hl')
    expect(added().find('.hljs-keyword').text()).toBe('const')

    // Folded and shown again: the colours it has are kept, not asked for again.
    await wrapper.find('.diff-file__toggle').trigger('click')
    await wrapper.find('.diff-file__toggle').trigger('click')
    await flushPromises()
    expect(added().find('.hljs-keyword').exists()).toBe(true)
    // The large file, collapsed, asks once shown.
    await wrapper.find('.diff-file__expand').trigger('click')
    await flushPromises()
    expect(asked.map((a) => [a.language, a.lines])).toEqual([
      ['ts', 4],
      ['md', 1_501],
    ])
  })
})
