import { describe, expect, it } from 'vitest'
import { parseTextPosition, positionInput, PositionError } from '../../src/server/modules/notes/diff-position'

const shas = { base_sha: 'a'.repeat(40), start_sha: 'b'.repeat(40), head_sha: 'c'.repeat(40) }

describe('diff note positions', () => {
  it('folds form-encoded position[...] keys into one object', () => {
    const input = positionInput({
      body: 'x',
      'position[position_type]': 'text',
      'position[new_path]': 'a.txt',
      'position[new_line]': '3',
      'position[line_range][start][new_line]': '1',
    })
    expect(input).toEqual({
      position_type: 'text',
      new_path: 'a.txt',
      new_line: '3',
      line_range: { start: { new_line: '1' } },
    })
  })

  it('takes a JSON position as it is, and no position as undefined', () => {
    expect(positionInput({ position: { new_line: 1 } })).toEqual({ new_line: 1 })
    expect(positionInput({ body: 'x' })).toBeUndefined()
  })

  it('reads an added line with new_line only and fills the missing path from the other', () => {
    const position = parseTextPosition({ ...shas, position_type: 'text', new_path: 'a.txt', new_line: '3' })
    expect(position).toMatchObject({
      old_path: 'a.txt',
      new_path: 'a.txt',
      old_line: null,
      new_line: 3,
      line_range: null,
    })
  })

  it('reads a line range', () => {
    const position = parseTextPosition({
      ...shas,
      new_path: 'a.txt',
      old_path: 'a.txt',
      new_line: 4,
      line_range: { start: { line_code: 'x_1_2', type: 'new', new_line: 2 }, end: { type: 'new', new_line: 4 } },
    })
    expect(position.line_range).toEqual({
      start: { line_code: 'x_1_2', type: 'new', old_line: null, new_line: 2 },
      end: { line_code: null, type: 'new', old_line: null, new_line: 4 },
    })
  })

  it('refuses a missing sha, no line, a bad line and another position type', () => {
    expect(() => parseTextPosition({ new_path: 'a', new_line: 1 })).toThrow(PositionError)
    expect(() => parseTextPosition({ ...shas, new_path: 'a' })).toThrow('new_line is missing')
    expect(() => parseTextPosition({ ...shas, new_path: 'a', new_line: 'x' })).toThrow('new_line is invalid')
    expect(() => parseTextPosition({ ...shas, position_type: 'image', new_path: 'a', new_line: 1 })).toThrow(
      'position_type is not supported',
    )
  })
})
