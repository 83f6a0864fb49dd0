import { describe, expect, it } from 'vitest'
import { parseDiffFile } from '../../../src/renderer/lib/diff'
import {
  defaultSuggestionMessage,
  insertBlock,
  noteParts,
  suggestionBlock,
  suggestionLines,
} from '../../../src/renderer/lib/suggestions'
import type { Suggestion } from '../../../src/shared/api/suggestion'

const suggestion = (id: number): Suggestion => ({
  id,
  from_line: 1,
  to_line: 1,
  appliable: true,
  applied: false,
  from_content: 'a\n',
  to_content: 'b\n',
  commit_id: null,
})

describe('noteParts', () => {
  it('puts each suggestion where its block was, and keeps other code blocks as Markdown', () => {
    const body = 'One:\n```suggestion\nb\n```\n```js\nx()\n```\n~~~suggestion:-1+0\nc\n~~~'
    expect(noteParts(body, [suggestion(1), suggestion(2)])).toEqual([
      { kind: 'markdown', text: 'One:' },
      { kind: 'suggestion', suggestion: suggestion(1) },
      { kind: 'markdown', text: '```js\nx()\n```' },
      { kind: 'suggestion', suggestion: suggestion(2) },
    ])
  })

  it('shows the body as Markdown when its blocks and the suggestions do not match up', () => {
    const body = '```suggestion\nb\n```\n```suggestion\nc\n```'
    expect(noteParts(body, [suggestion(1)])).toEqual([{ kind: 'markdown', text: body }])
    expect(noteParts(body, undefined)).toEqual([{ kind: 'markdown', text: body }])
  })
})

describe('suggestionLines', () => {
  const file = parseDiffFile({
    old_path: 'a.txt',
    new_path: 'a.txt',
    new_file: false,
    renamed_file: false,
    deleted_file: false,
    diff: '@@ -1,2 +1,2 @@\n one\n-two\n+deux\n@@ -9,2 +9,2 @@\n nine\n-ten\n+dix\n',
  })
  const at = (kind: string, n: number) => file.lines.find((l) => l.kind === kind && (l.newLine ?? l.oldLine) === n)!

  it('keeps only the last hunk’s lines of a range across hunks, which the block’s -N can reach', () => {
    expect(suggestionLines(file, at('context', 1), at('addition', 10))).toEqual(['nine', 'dix'])
  })

  it('offers nothing when the last commented line was removed', () => {
    expect(suggestionLines(file, at('context', 9), at('deletion', 10))).toBeNull()
  })
})

describe('suggestionBlock and insertBlock', () => {
  it('writes -N+0 for N lines above, the cursor after the last line', () => {
    const block = suggestionBlock(['a', 'b'])
    expect(block.text).toBe('```suggestion:-1+0\na\nb\n```')
    expect(block.text.slice(0, block.cursor)).toBe('```suggestion:-1+0\na\nb')
  })

  it('puts the block on lines of its own in the middle of a text', () => {
    expect(insertBlock('before after', 6, 'X')).toEqual({ text: 'before\nX\n after', offset: 7 })
    expect(insertBlock('', 0, 'X')).toEqual({ text: 'X', offset: 0 })
  })
})

describe('defaultSuggestionMessage', () => {
  const ada = { authorId: 2, authorName: 'Ada Author' }
  it('counts suggestions and distinct files, with no trailer when all are the user’s own', () => {
    expect(
      defaultSuggestionMessage(
        [
          { path: 'a.md', authorId: 1, authorName: 'Me' },
          { path: 'a.md', authorId: 1, authorName: 'Me' },
          { path: 'b.md', authorId: 1, authorName: 'Me' },
        ],
        1,
      ),
    ).toBe('Apply 3 suggestion(s) to 2 file(s)')
  })

  it('names each other author once as Co-authored-by, in the order of their suggestions', () => {
    expect(
      defaultSuggestionMessage(
        [
          { path: 'a.md', ...ada },
          { path: 'b.md', authorId: 3, authorName: 'Bo Other' },
          { path: 'c.md', ...ada },
          { path: 'c.md', authorId: 1, authorName: 'Me' },
        ],
        1,
      ),
    ).toBe('Apply 4 suggestion(s) to 3 file(s)\n\nCo-authored-by: Ada Author\nCo-authored-by: Bo Other')
  })
})
