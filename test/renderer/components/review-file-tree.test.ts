// @vitest-environment jsdom
import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import ReviewFileTree from '../../../src/renderer/components/review/ReviewFileTree.vue'
import { parseDiffFile } from '../../../src/renderer/lib/diff'
import { reviewTree } from '../../../src/renderer/lib/review'

/*
 * At 900 px the tree is 140 px wide: a long folder chain or file name wraps at its separators
 * (a <wbr> after each) instead of being cut with an ellipsis, and its whole path is its tooltip.
 * jsdom lays nothing out: the wrapping itself is seen in review.spec's 900 px screenshots.
 */

const LONG_FILE = 'merge-request-filter-bar_narrow-window.test.ts'
const files = [
  parseDiffFile({
    old_path: `src/renderer/components/merge-request/${LONG_FILE}`,
    new_path: `src/renderer/components/merge-request/${LONG_FILE}`,
    new_file: false,
    renamed_file: false,
    deleted_file: false,
    diff: '@@ -1 +1 @@\n-x\n+y\n',
  }),
]

function mountTree() {
  return mount(ReviewFileTree, { props: { nodes: reviewTree(files), viewed: new Set<string>(), active: null } })
}

describe('ReviewFileTree', () => {
  it('lets a long folder chain wrap after each slash, its whole path its tooltip', () => {
    const folder = mountTree().find('.review-tree__folder')
    expect(folder.attributes('title')).toBe('src/renderer/components/merge-request')
    const name = folder.find('.review-tree__name')
    expect(name.text()).toBe('src/renderer/components/merge-request')
    // A break after src/, renderer/, components/, merge- and the last word.
    expect(name.findAll('wbr').length).toBe(5)
  })

  it('lets a long file name wrap between its words, its whole path its tooltip', () => {
    const open = mountTree().find('.review-tree__open')
    expect(open.attributes('title')).toBe(`src/renderer/components/merge-request/${LONG_FILE}`)
    expect(open.text()).toBe(LONG_FILE)
    expect(open.findAll('wbr').length).toBe(8)
  })
})
