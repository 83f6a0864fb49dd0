import { describe, expect, it } from 'vitest'
import { applyChanges, effectiveChanges, undoChanges } from '../../../src/renderer/lib/item-writes'
import type { Issue, MergeRequest, MilestoneRef } from '../../../src/renderer/lib/items'
import { exclusiveLabels, labelsAfter, scopedLabelKey } from '../../../src/shared/labels'

const ada = { id: 1, username: 'ada', name: 'Ada', avatar_url: null }
const jonas = { id: 7, username: 'jonas', name: 'Jonas', avatar_url: null }
const v1: MilestoneRef = { id: 3, iid: 1, title: 'v1', state: 'active', due_date: null, start_date: null }
const issue: Issue = {
  id: 501,
  iid: 12,
  project_id: 5,
  title: 'Parser stalls',
  description: 'x',
  state: 'opened',
  created_at: '',
  updated_at: '',
  closed_at: null,
  author: ada,
  assignees: [ada],
  labels: ['bug', 'workflow::blocked'],
  milestone: v1,
  user_notes_count: 0,
  web_url: '',
  confidential: false,
  due_date: null,
  weight: 2,
  epic: null,
}

describe('scoped labels (shared by core and the renderer)', () => {
  it('keys a label by the part before its last ::', () => {
    expect([scopedLabelKey('workflow::ready'), scopedLabelKey('a::b::c'), scopedLabelKey('plain')]).toEqual([
      'workflow',
      'a::b',
      undefined,
    ])
  })
  it('an added scoped label replaces the others of its scope; other scopes and plain labels stay', () => {
    expect(labelsAfter(['bug', 'workflow::blocked', 'priority::1'], ['workflow::ready'], [])).toEqual([
      'bug',
      'priority::1',
      'workflow::ready',
    ])
    expect(labelsAfter(['team::api::x', 'team::web::y'], ['team::api::z'], [])).toEqual([
      'team::web::y',
      'team::api::z',
    ])
    expect(exclusiveLabels(['stage::a', 'x', 'stage::b'])).toEqual(['x', 'stage::b'])
  })
  it('matches titles case-insensitively, as the server does', () => {
    expect(labelsAfter(['Bug'], ['bug'], [])).toEqual(['Bug'])
    expect(labelsAfter(['Bug', 'ui'], [], ['BUG'])).toEqual(['ui'])
  })
})

describe('item writes', () => {
  it('shows ids as the objects the write names', () => {
    const shown = applyChanges(issue, { assignee_ids: [7, 1], milestone_id: null }, { assignees: [jonas] })
    expect(shown.assignees).toEqual([jonas, ada])
    expect(shown.milestone).toBeNull()
  })

  it('keeps only what would change the item', () => {
    expect(
      effectiveChanges(issue, {
        state_event: 'reopen',
        add_labels: ['BUG'],
        remove_labels: ['docs'],
        assignee_ids: [1],
        milestone_id: 3,
        weight: 2,
      }),
    ).toBeNull()
    expect(effectiveChanges(issue, { state_event: 'close', add_labels: ['ui', 'bug'], weight: null })).toEqual({
      state_event: 'close',
      add_labels: ['ui'],
      weight: null,
    })
  })

  it('undoes each field to its old value, and labels by what was added and removed', () => {
    expect(undoChanges(issue, { state_event: 'close' })).toEqual({ state_event: 'reopen' })
    expect(undoChanges(issue, { assignee_ids: [7], milestone_id: null, weight: 5 })).toEqual({
      assignee_ids: [1],
      milestone_id: 3,
      weight: 2,
    })
    expect(undoChanges(issue, { add_labels: ['workflow::ready'], remove_labels: ['bug'] })).toEqual({
      remove_labels: ['workflow::ready'],
      add_labels: ['bug', 'workflow::blocked'],
    })
  })

  it('sets, compares and undoes a merge request’s reviewers', () => {
    const { confidential: _c, due_date: _d, weight: _w, epic: _e, ...issuable } = issue
    const mr: MergeRequest = {
      ...issuable,
      source_branch: 'fix',
      target_branch: 'main',
      draft: false,
      merge_status: 'can_be_merged',
      has_conflicts: false,
      sha: 'abc',
      merged_at: null,
      reviewers: [ada],
    }
    expect(applyChanges(mr, { reviewer_ids: [1, 7] }, { reviewers: [jonas] }).reviewers).toEqual([ada, jonas])
    expect(applyChanges(mr, { reviewer_ids: [9] }).reviewers).toEqual([
      { id: 9, username: '', name: 'User 9', avatar_url: null },
    ])
    expect(effectiveChanges(mr, { reviewer_ids: [1] })).toBeNull()
    expect(effectiveChanges(mr, { reviewer_ids: [] })).toEqual({ reviewer_ids: [] })
    expect(undoChanges(mr, { reviewer_ids: [7] })).toEqual({ reviewer_ids: [1] })
  })
})
