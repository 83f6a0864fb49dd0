import { describe, expect, it } from 'vitest'
import { parseHunks } from '../../../src/renderer/lib/diff'
import { emojiFor, groupAwards } from '../../../src/renderer/lib/emoji'
import { highlightDiffLines, languageOf } from '../../../src/renderer/lib/highlight-diff'
import { findTasks, setTask } from '../../../src/renderer/lib/task-list'
import { wire } from '../../helpers/wire'

describe('task lists', () => {
  const source = [
    'Plan:',
    '',
    '- [ ] write the parser',
    '- [x] read the spec',
    '  1. [ ] nested, ordered',
    '',
    '```md',
    '- [ ] not a task: code',
    '```',
    '> - [X] quoted task',
    '- [] not a task either',
  ].join('\n')

  it('finds tasks in document order, outside fenced code, in lists, ordered lists and quotes', () => {
    expect(findTasks(source)).toEqual([
      { index: 0, line: 2, checked: false },
      { index: 1, line: 3, checked: true },
      { index: 2, line: 4, checked: false },
      { index: 3, line: 9, checked: true },
    ])
  })

  it('ticks and unticks one task, leaving every other byte as it was', () => {
    const ticked = setTask(source, 0, true)
    expect(ticked).toBe(source.replace('- [ ] write the parser', '- [x] write the parser'))
    expect(setTask(source, 3, false)).toBe(source.replace('> - [X] quoted', '> - [ ] quoted'))
    expect(setTask(source, 9, true)).toBeNull()
  })

  it('keeps Windows line endings', () => {
    expect(setTask('- [ ] a\r\n- [ ] b\r\n', 1, true)).toBe('- [ ] a\r\n- [x] b\r\n')
  })
})

describe('diff highlighting', () => {
  it('knows languages by extension and by the names highlight.js lacks', () => {
    expect(languageOf('src/app.ts')).toBe('ts')
    expect(languageOf('web/App.vue')).toBe('xml')
    expect(languageOf('ci/.gitlab-ci.yml')).toBe('yaml')
    expect(languageOf('Makefile')).toBe('makefile')
    expect(languageOf('notes.unknownext')).toBeNull()
  })

  it('colours a comment opened on a context line and closed on an added one, per side, and leaves hunk headers alone', () => {
    const { lines } = parseHunks(['@@ -1,2 +1,3 @@', ' /* keep', '-old */', '+new */', '+const a = "<b>"'].join('\n'))
    const html = highlightDiffLines(lines, 'javascript')
    expect(html?.[0]).toBeNull()
    expect(html?.[2]).toContain('hljs-comment')
    expect(html?.[3]).toContain('hljs-comment')
    // Text is escaped: no markup from the file reaches the page.
    expect(html?.[4]).toContain('&lt;b&gt;')
    expect(html?.[4]).not.toContain('<b>')
  })

  it('does not highlight a file in no known language', () => {
    expect(highlightDiffLines(parseHunks('@@ -1 +1 @@\n-a\n+b').lines, null)).toBeNull()
  })
})

describe('award emoji', () => {
  it('groups awards by emoji, most given first, with who gave them; unknown names stay readable', () => {
    const by = (username: string) => ({ username })
    expect(
      groupAwards([
        { name: 'tada', user: by('a') },
        { name: 'thumbsup', user: by('a') },
        { name: 'thumbsup', user: by('b') },
        { name: 'octopus', user: by('c') },
      ]),
    ).toEqual([
      { name: 'thumbsup', emoji: '👍', count: 2, users: ['a', 'b'] },
      { name: 'octopus', emoji: ':octopus:', count: 1, users: ['c'] },
      { name: 'tada', emoji: '🎉', count: 1, users: ['a'] },
    ])
    expect(emojiFor('rocket')).toBe('🚀')
  })
})

describe('label names', () => {
  it('reads cached items’ label objects (with_labels_details) as names, and titles as they are', async () => {
    const { asIssue } = await import('../../../src/renderer/lib/items')
    const { labelNames } = await import('../../../src/shared/labels')
    expect(
      asIssue(
        wire('issue', {
          id: 1,
          labels: [
            { id: 7, name: 'bug', color: '#f00' },
            { id: 8, name: 'ui' },
          ],
        }),
      ).labels,
    ).toEqual(['bug', 'ui'])
    expect(asIssue(wire('issue', { id: 1, labels: ['bug'] })).labels).toEqual(['bug'])
    expect(labelNames(null)).toEqual([])
    // An item without labels (written offline) reads as having none.
    expect(asIssue(wire('issue', { id: 1 })).labels).toEqual([])
  })
})
