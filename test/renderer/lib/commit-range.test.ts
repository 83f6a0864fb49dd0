import { describe, expect, it } from 'vitest'
import { pickedRange, rangeDiffRefs, rangeEnds } from '../../../src/renderer/lib/commit-range'
import { lineThreads } from '../../../src/renderer/lib/review-threads'
import type { CachedDiscussion } from '../../../src/shared/ipc/cache'
import { wire } from '../../helpers/wire'

const sha = (c: string): string => c.repeat(40)
// A merge request's commits, newest first: 3 on 2 on 1, 1 on the target's merge base `0`.
const COMMITS = [
  { id: sha('3'), parent_ids: [sha('2')] },
  { id: sha('2'), parent_ids: [sha('1')] },
  { id: sha('1'), parent_ids: [sha('0')] },
]
const MR_REFS = { base_sha: sha('0'), start_sha: sha('e'), head_sha: sha('3') }

describe('a range of a merge request’s commits', () => {
  it('ends at its first commit or any newer one, newest first', () => {
    expect(rangeEnds(COMMITS, sha('2')).map((c) => c.id)).toEqual([sha('3'), sha('2')])
    expect(rangeEnds(COMMITS, sha('3')).map((c) => c.id)).toEqual([sha('3')])
    expect(rangeEnds(COMMITS, sha('9'))).toEqual([])
  })

  it('is positioned from its first commit’s parent (base and start) to its last commit (head)', () => {
    expect(rangeDiffRefs(COMMITS, { from: sha('2'), to: sha('3') })).toEqual({
      base_sha: sha('1'),
      start_sha: sha('1'),
      head_sha: sha('3'),
    })
    // A root commit, or a commit listed without its parents, starts no range.
    expect(rangeDiffRefs([{ id: sha('1'), parent_ids: [] }], { from: sha('1'), to: sha('1') })).toBeNull()
    expect(rangeDiffRefs([{ id: sha('1') }], { from: sha('1'), to: sha('1') })).toBeNull()
  })

  it('picked from the oldest commit through the head is all the changes, at the merge request’s own refs', () => {
    expect(pickedRange(COMMITS, { from: sha('1'), to: sha('3') }, MR_REFS)).toBeNull()
    expect(pickedRange(COMMITS, { from: sha('1'), to: sha('2') }, MR_REFS)).toEqual({ from: sha('1'), to: sha('2') })
    expect(pickedRange(COMMITS, { from: sha('2'), to: sha('3') }, MR_REFS)).toEqual({ from: sha('2'), to: sha('3') })
    // Without the merge request's refs, or when its base is not the first commit's parent (the target merged in), a range.
    expect(pickedRange(COMMITS, { from: sha('1'), to: sha('3') }, null)).toEqual({ from: sha('1'), to: sha('3') })
    expect(pickedRange(COMMITS, { from: sha('1'), to: sha('3') }, { ...MR_REFS, base_sha: sha('f') })).toEqual({
      from: sha('1'),
      to: sha('3'),
    })
  })

  it('picked with an end older than its start is its start alone', () => {
    expect(pickedRange(COMMITS, { from: sha('2'), to: sha('1') }, MR_REFS)).toEqual({ from: sha('2'), to: sha('2') })
    expect(pickedRange(COMMITS, { from: sha('2'), to: sha('2') }, MR_REFS)).toEqual({ from: sha('2'), to: sha('2') })
  })
})

describe('line threads on the diff shown', () => {
  const discussion = (id: string, base: string, head: string): CachedDiscussion => ({
    id,
    individual_note: false,
    notes: [
      {
        pending: false,
        data: wire('note', {
          id: 1,
          type: 'DiffNote',
          body: 'x',
          position: {
            position_type: 'text',
            base_sha: base,
            start_sha: base,
            head_sha: head,
            old_path: 'a.ts',
            new_path: 'a.ts',
            old_line: null,
            new_line: 1,
          },
        }),
      },
    ],
  })
  const threads = [discussion('range', sha('1'), sha('3')), discussion('commit', sha('2'), sha('3'))]
  const current = (head: string, base?: string) =>
    lineThreads(threads, head, base)
      .filter((t) => !t.outdated)
      .map((t) => t.id)

  it('are current on the diff whose head and base they name', () => {
    expect(current(sha('3'), sha('1'))).toEqual(['range'])
    expect(current(sha('3'), sha('2'))).toEqual(['commit'])
    expect(current(sha('3'), sha('0'))).toEqual([])
    // With no base known, by the head alone.
    expect(current(sha('3'))).toEqual(['range', 'commit'])
  })
})
