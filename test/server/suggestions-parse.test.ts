import { describe, expect, it } from 'vitest'
import { fileLines, parseSuggestions } from '../../src/shared/suggestions'

describe('parseSuggestions', () => {
  it('reads a plain block as the note line only, its lines each ending in a newline', () => {
    expect(parseSuggestions('Try:\n```suggestion\nfoo\nbar\n```')).toEqual([
      { linesAbove: 0, linesBelow: 0, content: 'foo\nbar\n', startLine: 1, endLine: 5 },
    ])
  })

  it('reads -N+M, -N and +M ranges', () => {
    const body = [
      '```suggestion:-2+3',
      'a',
      '```',
      '~~~suggestion:-4',
      'b',
      '~~~',
      '```suggestion:+1',
      'c',
      '```',
    ].join('\n')
    expect(parseSuggestions(body).map((s) => [s.linesAbove, s.linesBelow, s.content])).toEqual([
      [2, 3, 'a\n'],
      [4, 0, 'b\n'],
      [0, 1, 'c\n'],
    ])
  })

  it('reads an empty block as deleting the lines', () => {
    expect(parseSuggestions('```suggestion\n```')).toEqual([
      { linesAbove: 0, linesBelow: 0, content: '', startLine: 0, endLine: 2 },
    ])
  })

  it('leaves other code blocks, and a suggestion fence inside one, alone', () => {
    expect(parseSuggestions('````md\n```suggestion\nx\n```\n````\n```js\ny\n```')).toEqual([])
  })

  it('ignores a malformed range or one reaching past 100 lines', () => {
    expect(parseSuggestions('```suggestion:+1-2\nx\n```\n```suggestion:-101+0\ny\n```')).toEqual([])
  })

  it('closes only on a fence as long as the opening one, so a block may hold a shorter fence', () => {
    expect(parseSuggestions('````suggestion\n```\ncode\n```\n````')).toEqual([
      { linesAbove: 0, linesBelow: 0, content: '```\ncode\n```\n', startLine: 0, endLine: 5 },
    ])
  })
})

describe('fileLines', () => {
  it('keeps each newline and a last line without one', () => {
    expect(fileLines('a\nb\nc')).toEqual(['a\n', 'b\n', 'c'])
    expect(fileLines('')).toEqual([])
  })
})
