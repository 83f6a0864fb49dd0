import { describe, expect, it } from 'vitest'
import { formatDay, formatDayRange } from '../../../src/renderer/lib/dates'
import { dateSpan, flattenEpicTree } from '../../../src/renderer/lib/epic-tree'
import { DEFAULT_ISSUE_FILTER, toCacheIssueParams } from '../../../src/renderer/lib/issue-filter'
import { formatDuration, stateTag, type AccountItem, type Epic } from '../../../src/renderer/lib/items'
import {
  DEFAULT_MR_FILTER,
  parseMergeRequestFilter,
  serializeMergeRequestFilter,
  toCacheMergeRequestParams,
} from '../../../src/renderer/lib/merge-request-filter'
import { describeEntry, formatField } from '../../../src/renderer/lib/outbox-text'
import type { OutboxEntry } from '../../../src/shared/ipc/outbox'

const epic = (
  id: number,
  parent: number | null,
  title: string,
  start: string | null = null,
  due: string | null = null,
): AccountItem<Epic> => ({
  accountId: 'a',
  pending: false,
  item: {
    id,
    iid: id,
    group_id: 1,
    parent_id: parent,
    title,
    description: null,
    state: 'opened',
    confidential: false,
    web_url: '',
    author: null,
    start_date: start,
    due_date: due,
    created_at: '',
    updated_at: '',
    labels: [],
  },
})

describe('flattenEpicTree', () => {
  it('puts children under their parent, by start date, and treats orphans as roots', () => {
    const rows = [
      epic(1, null, 'Roadmap', '2024-01-01'),
      epic(2, 1, 'Later child', '2024-03-01'),
      epic(3, 1, 'Early child', '2024-02-01'),
      epic(4, 99, 'Parent not synced'),
    ]
    expect(flattenEpicTree(rows).map((n) => [n.row.item.title, n.depth, n.childCount])).toEqual([
      ['Roadmap', 0, 2],
      ['Early child', 1, 0],
      ['Later child', 1, 0],
      ['Parent not synced', 0, 0],
    ])
  })

  it('leaves out the children of a collapsed epic', () => {
    const rows = [epic(1, null, 'Roadmap'), epic(2, 1, 'Child')]
    expect(flattenEpicTree(rows, new Set(['a:1'])).map((n) => n.row.item.title)).toEqual(['Roadmap'])
  })

  it('spans the dates of every epic that has one', () => {
    expect(dateSpan([epic(1, null, 'x', '2024-01-01', '2024-01-31').item, epic(2, null, 'y').item])).toEqual({
      start: Date.parse('2024-01-01T00:00:00Z'),
      end: Date.parse('2024-01-31T00:00:00Z'),
    })
    expect(dateSpan([epic(2, null, 'y').item])).toBeNull()
  })
})

describe('cache parameters', () => {
  it('maps the issue filter to issues:list parameters, leaving out what the cache cannot answer', () => {
    expect(
      toCacheIssueParams({
        ...DEFAULT_ISSUE_FILTER,
        labels: ['bug'],
        notLabels: ['wontfix'],
        assignee: 'None',
        milestone: 'Upcoming',
        orderBy: 'priority',
        confidential: false,
      }),
    ).toEqual({
      state: 'opened',
      scope: 'all',
      order_by: 'created_at',
      sort: 'desc',
      labels: ['bug'],
      not: { labels: ['wontfix'] },
      assignee_id: 'None',
      confidential: false,
    })
  })

  it('round-trips the merge request filter and maps it to merge-requests:list parameters', () => {
    const filter = {
      ...DEFAULT_MR_FILTER,
      state: 'merged' as const,
      labels: ['ui'],
      reviewer: 'Any',
      draft: 'no' as const,
      search: 'cache',
    }
    expect(parseMergeRequestFilter(serializeMergeRequestFilter(filter))).toEqual(filter)
    expect(toCacheMergeRequestParams(filter)).toEqual({
      state: 'merged',
      scope: 'all',
      order_by: 'updated_at',
      sort: 'desc',
      search: 'cache',
      labels: ['ui'],
      reviewer_id: 'Any',
      wip: 'no',
    })
    expect(parseMergeRequestFilter('state=bogus&wip=maybe')).toEqual(DEFAULT_MR_FILTER)
  })
})

describe('outbox wording', () => {
  const entry = (mutation: OutboxEntry['mutation'], type: 'issue' | 'merge_request' = 'issue'): OutboxEntry => ({
    id: 1,
    accountId: 'a',
    target: { type, projectId: 1, iid: 7 },
    mutation,
    base: null,
    state: 'queued',
    reason: null,
    status: null,
    conflict: null,
    attempts: 0,
    blockedBy: null,
    createdAt: '',
    updatedAt: '',
    sentAt: null,
    settledAt: null,
  })

  it('says what the user did, on which item', () => {
    expect(describeEntry(entry({ kind: 'update', changes: { state_event: 'close', add_labels: ['bug'] } }))).toBe(
      'Close, Add label bug on #7',
    )
    expect(describeEntry(entry({ kind: 'add-spent-time', seconds: 5400 }, 'merge_request'))).toBe(
      'Add 1h 30m spent on !7',
    )
    expect(describeEntry(entry({ kind: 'time-estimate', seconds: 0 }))).toBe('Reset the estimate on #7')
  })

  it('names a commit by its short SHA', () => {
    const onCommit: OutboxEntry = {
      ...entry({ kind: 'reply', discussionId: 'abc', body: 'Agreed' }),
      target: { type: 'commit', projectId: 1, sha: '0123456789abcdef0123456789abcdef01234567' },
    }
    expect(describeEntry(onCommit, 'group/app')).toBe('Reply on group/app@01234567')
  })

  it('formats field values for the conflict view', () => {
    expect(formatField('labels', [])).toBe('none')
    expect(formatField('milestone_id', null)).toBe('none')
    expect(formatField('time_estimate', 8 * 3600)).toBe('1d')
    expect(formatDuration(-1800)).toBe('-30m')
  })
})

describe('stateTag', () => {
  it('reads states as GitLab labels them, never the API value (search hits, a milestone’s merge requests)', () => {
    expect(stateTag('opened')).toEqual(['success', 'Open'])
    expect(stateTag('active')).toEqual(['success', 'Open'])
    expect(stateTag('merged')).toEqual(['info', 'Merged'])
    expect(stateTag('closed')).toEqual(['default', 'Closed'])
    expect(stateTag('locked')).toEqual(['warning', 'Locked'])
    expect(stateTag('archived')).toEqual(['default', 'archived'])
  })
})

describe('formatDayRange', () => {
  it('names both days, one of them, or says there are none, in the locale asked for', () => {
    expect(formatDayRange('2026-06-18', '2026-12-02', 'en-US')).toBe('Jun 18, 2026 → Dec 2, 2026')
    expect(formatDayRange('2026-06-18', null, 'en-US')).toBe('from Jun 18, 2026')
    expect(formatDayRange(null, '2026-12-02', 'en-GB')).toBe('until 2 Dec 2026')
    expect(formatDayRange(null, undefined)).toBe('No dates')
  })
})

describe('formatDay', () => {
  it('writes a calendar day as the locale does, the same day in every time zone', () => {
    expect(formatDay('2026-11-30', 'en-US')).toBe('Nov 30, 2026')
    expect(formatDay('2026-01-01', 'de-DE')).toBe('1. Jan. 2026')
  })

  it('returns anything that is not a calendar day as it came', () => {
    expect(formatDay('soon', 'en-US')).toBe('soon')
    expect(formatDay('2026-13-45', 'en-US')).toBe('2026-13-45')
  })
})
