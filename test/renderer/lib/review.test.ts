import { describe, expect, it } from 'vitest'
import { parseDiffFile, type DiffFileSource } from '../../../src/renderer/lib/diff'
import {
  anchorKey,
  lineAnchor,
  nameBreaks,
  REVIEW_LARGE_FILE_LINES,
  reviewRows,
  reviewTree,
  type ReviewRowsCache,
  treeOrder,
} from '../../../src/renderer/lib/review'

const source = (path: string, diff: string, extra: Partial<DiffFileSource> = {}): DiffFileSource => ({
  old_path: path,
  new_path: path,
  new_file: false,
  renamed_file: false,
  deleted_file: false,
  diff,
  ...extra,
})

const files = [
  source('src/lib/a.ts', '@@ -1,3 +1,3 @@\n keep\n-old one\n-old two\n+new one\n same\n'),
  source('README.md', '@@ -0,0 +1,2 @@\n+# Title\n+text\n', { new_file: true }),
  source('src/lib/deep/b.ts', '@@ -1 +1 @@\n-x\n+y\n'),
  source('logo.png', 'Binary files a/logo.png and b/logo.png differ\n'),
].map(parseDiffFile)

const none = (): boolean => false

describe('the review’s file tree', () => {
  it('puts folders first, folds a chain of lone folders into one, and sums the counts', () => {
    const tree = reviewTree(files)
    expect(tree.map((n) => [n.name, n.additions, n.deletions])).toEqual([
      ['src/lib', 2, 3],
      ['logo.png', 0, 0],
      ['README.md', 2, 0],
    ])
    expect(tree[0].children.map((n) => n.name)).toEqual(['deep', 'a.ts'])
    expect(treeOrder(tree)).toEqual([2, 0, 3, 1])
  })

  it('cuts a long name where it may wrap: after each slash, dot, dash and underscore, losing nothing', () => {
    expect(nameBreaks('src/renderer/components')).toEqual(['src/', 'renderer/', 'components'])
    expect(nameBreaks('merge-request_filter.test.ts')).toEqual(['merge-', 'request_', 'filter.', 'test.', 'ts'])
    expect(nameBreaks('README')).toEqual(['README'])
  })
})

describe('the review’s rows', () => {
  it('unified: a header per file, then its lines; a binary file says why it has none; a collapsed file is its header', () => {
    const { rows, firstRows } = reviewRows(files, [0, 3, 1], {
      mode: 'unified',
      collapsed: (f) => f === 1,
      expandedLarge: none,
    })
    expect(rows.map((r) => r.kind)).toEqual([
      'file',
      'meta',
      'line',
      'line',
      'line',
      'line',
      'line',
      'file',
      'notice',
      'file',
    ])
    expect(firstRows.get(3)).toBe(7)
    expect(firstRows.get(1)).toBe(9)
  })

  it('side by side: removed lines face added ones in order, the longer side alone, context facing itself', () => {
    const { rows } = reviewRows(files, [0], { mode: 'split', collapsed: none, expandedLarge: none })
    const pairs = rows
      .filter((r) => r.kind === 'pair')
      .map((r) => (r.kind === 'pair' ? [r.left?.text ?? null, r.right?.text ?? null] : null))
    expect(pairs).toEqual([
      ['keep', 'keep'],
      ['old one', 'new one'],
      ['old two', null],
      ['same', 'same'],
    ])
  })

  it('a file past the large-diff size is a notice until expanded', () => {
    const big = parseDiffFile(
      source('big.txt', `@@ -0,0 +1,${REVIEW_LARGE_FILE_LINES + 1} @@\n${'+x\n'.repeat(REVIEW_LARGE_FILE_LINES + 1)}`),
    )
    const folded = reviewRows([big], [0], { mode: 'unified', collapsed: none, expandedLarge: none })
    expect(folded.rows.map((r) => r.kind)).toEqual(['file', 'notice'])
    const open = reviewRows([big], [0], { mode: 'unified', collapsed: none, expandedLarge: () => true })
    expect(open.rows).toHaveLength(REVIEW_LARGE_FILE_LINES + 3)
  })

  it('with a cache, rows laid out again are the same objects: a comment adds its slot row and changes no other row', () => {
    const cache: ReviewRowsCache = new WeakMap()
    const layout = (slots: ReadonlySet<string>, mode: 'unified' | 'split' = 'unified') =>
      reviewRows(files, [0, 1], { mode, collapsed: none, expandedLarge: none, slots, cache }).rows
    const before = layout(new Set())
    const added = files[0].lines.find((l) => l.kind === 'addition')
    if (added === undefined) throw new Error('fixture has an addition')
    const at = anchorKey(lineAnchor(files[0], added))
    const after = layout(new Set([at]))
    const slot = after.findIndex((r) => r.kind === 'slot')
    expect(after[slot]).toEqual({ kind: 'slot', file: 0, anchors: [at] })
    expect(after.filter((_, i) => i !== slot)).toEqual(before)
    after.filter((_, i) => i !== slot).forEach((row, i) => expect(row).toBe(before[i]))
    // The same slot again is the same row; another mode lays the file out anew.
    expect(layout(new Set([at]))[slot]).toBe(after[slot])
    expect(layout(new Set(), 'split')[1]).not.toBe(before[1])
  })

  it('anchors a line by path and its old and new numbers', () => {
    const [a] = files
    const removed = a.lines.find((l) => l.kind === 'deletion')
    const added = a.lines.find((l) => l.kind === 'addition')
    if (removed === undefined || added === undefined) throw new Error('fixture has both')
    expect(anchorKey(lineAnchor(a, removed))).toBe('src/lib/a.ts:2:')
    expect(anchorKey(lineAnchor(a, added))).toBe('src/lib/a.ts::2')
  })
})
