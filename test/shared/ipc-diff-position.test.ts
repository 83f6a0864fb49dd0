import { describe, expect, it } from 'vitest'
import { outboxValidators } from '../../src/shared/ipc/outbox-schema'
import { reviewValidators } from '../../src/shared/ipc/review'

/**
 * A line comment's `position` (src/shared/ipc/diff-position-schema.ts) is a TypeBox schema checked
 * inside the outbox's and the review's requests: every refusal names the field of the position it
 * is about, as the hand-written check did.
 */
const sha = 'a'.repeat(40)
const position = {
  position_type: 'text',
  base_sha: sha,
  start_sha: sha,
  head_sha: sha,
  old_path: 'a.txt',
  new_path: 'a.txt',
  old_line: null,
  new_line: 3,
}
const end = { type: 'new', old_line: null, new_line: 3 }
const ranged = (start: unknown, finish: unknown = end) => ({ ...position, line_range: { start, end: finish } })

const comment = (p: unknown) =>
  outboxValidators['merge-requests:comment'](['acct', { projectId: 1, iid: 2, body: 'x', position: p }])
const draft = (p: unknown) =>
  reviewValidators['reviews:add-draft'](['acct', { projectId: 1, iid: 2, note: 'x', position: p }])

describe('diff position schema', () => {
  it.each([
    [3, 'position must be an object'],
    [null, 'position must be an object'],
    [{ ...position, line: 3, zz: 1 }, 'position: unknown field(s): line, zz'],
    [{ ...position, position_type: 'image' }, "position.position_type must be 'text'"],
    [{ ...position, head_sha: 'HEAD' }, 'position.head_sha must be a commit id'],
    [{ ...position, base_sha: undefined }, 'position.base_sha must be a commit id'],
    [{ ...position, start_sha: 'ABCDEF0' }, 'position.start_sha must be a commit id'],
    [{ ...position, old_path: '' }, 'position.old_path must be a file path'],
    [{ ...position, new_path: 'a\nb' }, 'position.new_path must be a file path'],
    [{ ...position, new_path: 'a'.repeat(4097) }, 'position.new_path must be a file path'],
    [{ ...position, new_line: 0 }, 'position.old_line and new_line must be line numbers or null'],
    [{ ...position, old_line: 1.5 }, 'position.old_line and new_line must be line numbers or null'],
    [{ ...position, old_line: undefined }, 'position.old_line and new_line must be line numbers or null'],
    [{ ...position, new_line: null }, 'position must name a line (old_line or new_line)'],
    [{ ...position, line_range: null }, 'position.line_range must be {start, end}'],
    [{ ...position, line_range: { start: end, end, middle: end } }, 'unknown field(s): middle'],
    [{ ...position, line_range: { end } }, 'line_range.start must be an object'],
    [ranged(end, 'x'), 'line_range.end must be an object'],
    [ranged({ ...end, x: 1 }), 'line_range.start: unknown field(s): x'],
    [ranged({ ...end, line_code: 'abc_1_2' }), 'line_range.start.line_code must be <sha1>_<old>_<new>'],
    [ranged(end, { ...end, type: 'both' }), "line_range.end.type must be 'old', 'new' or null"],
    [ranged({ ...end, new_line: -1 }), 'line_range.start: old_line and new_line must be line numbers or null'],
    [ranged({ ...end, new_line: null }), 'line_range.start must name a line'],
  ])('refuses %j: %s', (p, problem) => {
    expect(comment(p)).toBe(problem)
    expect(draft(p)).toBe(problem)
  })

  it('accepts a line, a range with or without line codes, and an unchanged line', () => {
    const lineCode = `${'b'.repeat(40)}_4_5`
    expect(comment(position)).toBeNull()
    expect(comment({ ...position, old_line: 4, new_line: 5 })).toBeNull()
    expect(draft(ranged({ type: null, old_line: 4, new_line: 5, line_code: lineCode }))).toBeNull()
    expect(draft(ranged({ type: 'old', old_line: 4, new_line: null }))).toBeNull()
  })
})
