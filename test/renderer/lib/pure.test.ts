import { describe, expect, it } from 'vitest'
import { computeBurndown, niceTicks } from '../../../src/renderer/lib/burndown'
import { fuzzyFilter, fuzzyScore } from '../../../src/renderer/lib/fuzzy'
import {
  DEFAULT_ISSUE_FILTER,
  describeIssueFilter,
  isDefaultIssueFilter,
  parseIssueFilter,
  serializeIssueFilter,
  toIssueListParams,
  type IssueFilter,
} from '../../../src/renderer/lib/issue-filter'
import { toReadableError } from '../../../src/renderer/lib/ipc-errors'
import { chordOf, formatKeys, onModEnter, parseKeys, ShortcutMatcher } from '../../../src/renderer/lib/keys'
import { contrastRatio, labelColors, normalizeHex, splitScopedLabel } from '../../../src/renderer/lib/label-color'
import { formatAbsoluteTime, formatRelativeTime } from '../../../src/renderer/lib/relative-time'
import { tagCount } from '../../../src/renderer/lib/select-tags'
import { IpcFailure } from '../../../src/shared/ipc/contract'

describe('computeBurndown', () => {
  const issues = [
    { created_at: '2024-02-20T10:00:00Z', closed_at: '2024-03-02T09:00:00Z' },
    { created_at: '2024-02-25T10:00:00Z', closed_at: null },
    { created_at: '2024-03-02T12:00:00Z', closed_at: '2024-03-03T12:00:00Z' },
    { created_at: '2024-02-01T00:00:00Z', closed_at: '2024-02-10T00:00:00Z' },
  ]

  it('counts issues open at the end of each day, up to today', () => {
    const chart = computeBurndown(issues, '2024-03-01', '2024-03-05', '2024-03-03')
    expect(chart.actual).toEqual([
      { date: '2024-03-01', value: 2 },
      { date: '2024-03-02', value: 2 },
      { date: '2024-03-03', value: 1 },
    ])
    expect(chart.days).toEqual(['2024-03-01', '2024-03-02', '2024-03-03', '2024-03-04', '2024-03-05'])
    expect(chart.ideal).toEqual([
      { date: '2024-03-01', value: 2 },
      { date: '2024-03-05', value: 0 },
    ])
  })

  it('sums weights when asked to', () => {
    const weighted = issues.map((i, n) => ({ ...i, weight: n + 1 }))
    expect(computeBurndown(weighted, '2024-03-01', '2024-03-01', '2024-03-10', true).actual).toEqual([
      { date: '2024-03-01', value: 3 },
    ])
  })

  it('stops at the due date when today is later', () => {
    expect(computeBurndown(issues, '2024-03-01', '2024-03-02', '2024-04-01').actual).toHaveLength(2)
  })

  it('refuses a due date before the start', () => {
    expect(() => computeBurndown(issues, '2024-03-05', '2024-03-01', '2024-03-03')).toThrow(RangeError)
  })

  it('picks round ticks', () => {
    expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8])
    expect(niceTicks(0)).toEqual([0])
    expect(niceTicks(100)).toEqual([0, 50, 100])
  })
})

describe('labelColors', () => {
  it('chooses dark text on light backgrounds and white text on dark ones', () => {
    expect(labelColors('#F0F0F0').text).toBe('#1f1e24')
    expect(labelColors('#1f3a93').text).toBe('#ffffff')
  })

  it('keeps a text colour given by the API and falls back on invalid backgrounds', () => {
    expect(labelColors('#ff0000', '#FFFFFF')).toEqual({ background: '#ff0000', text: '#ffffff' })
    expect(labelColors('url(javascript:x)').background).toBe('#6699cc')
  })

  it('normalises short hex and a few names, and measures contrast', () => {
    expect(normalizeHex('#AbC')).toBe('#aabbcc')
    expect(normalizeHex('red')).toBe('#ff0000')
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21)
  })

  it('splits scoped labels at the last ::', () => {
    expect(splitScopedLabel('priority::high')).toEqual({ scope: 'priority', value: 'high' })
    expect(splitScopedLabel('a::b::c')).toEqual({ scope: 'a::b', value: 'c' })
    expect(splitScopedLabel('bug')).toBeNull()
  })
})

describe('formatRelativeTime', () => {
  const now = new Date('2024-03-10T12:00:00Z')
  it('says just now, minutes, hours, days, and the future', () => {
    expect(formatRelativeTime('2024-03-10T11:59:40Z', now, 'en')).toBe('just now')
    expect(formatRelativeTime('2024-03-10T11:55:00Z', now, 'en')).toBe('5 minutes ago')
    expect(formatRelativeTime('2024-03-10T09:00:00Z', now, 'en')).toBe('3 hours ago')
    expect(formatRelativeTime('2024-03-09T12:00:00Z', now, 'en')).toBe('yesterday')
    expect(formatRelativeTime('2024-03-13T12:00:00Z', now, 'en')).toBe('in 3 days')
    expect(formatRelativeTime('2023-03-10T12:00:00Z', now, 'en')).toBe('last year')
  })
  it('returns null for a date it cannot read', () => {
    expect(formatRelativeTime('soon', now)).toBeNull()
  })
  it('keeps one formatter per locale: each locale reads in its own words', () => {
    expect(formatRelativeTime('2024-03-10T11:55:00Z', now, 'en')).toBe('5 minutes ago')
    expect(formatRelativeTime('2024-03-10T11:55:00Z', now, 'de')).toBe('vor 5 Minuten')
    expect(formatRelativeTime('2024-03-10T09:00:00Z', now, 'en')).toBe('3 hours ago')
    expect(formatAbsoluteTime('2024-03-10T12:00:00Z', 'en')).toMatch(/^Mar 10, 2024/)
    expect(formatAbsoluteTime('2024-03-10T12:00:00Z', 'de')).toMatch(/^10\.03\.2024/)
    expect(formatAbsoluteTime('later', 'en')).toBeNull()
  })
})

describe('tagCount', () => {
  it('folds label tags into +N only once two or more are chosen', () => {
    expect(tagCount([])).toBeUndefined()
    expect(tagCount(['bug'])).toBeUndefined()
    expect(tagCount(['bug', 'ux'])).toBe('responsive')
  })
})

describe('fuzzy', () => {
  it('matches subsequences and ranks word starts first', () => {
    expect(fuzzyScore('xyz', 'Go to Issues')).toBeNull()
    expect(fuzzyFilter(['Sign in', 'Go to Issues', 'Toggle theme'], 'gi', (s) => s)).toEqual([
      'Go to Issues',
      'Sign in',
    ])
  })

  it('ranks a title match above the same words among the keywords of another item', () => {
    const items = [
      { title: 'Search issues, merge requests and epics', keywords: 'find' },
      {
        title: 'Go to Merge requests',
        keywords: 'Merge request lists Overview and changes Discussions and approvals Merge and rebase',
      },
    ]
    expect(fuzzyFilter(items, 'merge req', (c) => [c.title, c.keywords]).map((c) => c.title)).toEqual([
      'Go to Merge requests',
      'Search issues, merge requests and epics',
    ])
  })

  it('rejects letters scattered over a long text', () => {
    expect(
      fuzzyScore(
        'scheduler',
        'Navigation Go to Merge requests Merge request lists Overview and changes Discussions and approvals',
      ),
    ).toBeNull()
    expect(fuzzyScore('merge req', 'Navigation Go to Merge requests')).not.toBeNull()
  })
})

describe('issue filter', () => {
  const busy: IssueFilter = {
    ...DEFAULT_ISSUE_FILTER,
    state: 'closed',
    search: ' crash ',
    labels: ['bug', 'priority::high'],
    notLabels: ['wontfix'],
    milestone: 'v1.0',
    assignee: 'alice',
    author: 'bob',
    confidential: true,
    orderBy: 'updated_at',
    sort: 'asc',
  }

  it('maps to the API list parameters', () => {
    expect(toIssueListParams(busy)).toEqual({
      state: 'closed',
      scope: 'all',
      search: 'crash',
      labels: 'bug,priority::high',
      'not[labels]': 'wontfix',
      milestone: 'v1.0',
      assignee_username: 'alice',
      author_username: 'bob',
      confidential: 'true',
      order_by: 'updated_at',
      sort: 'asc',
    })
  })

  it('sends wildcards as ids', () => {
    const params = toIssueListParams({ ...DEFAULT_ISSUE_FILTER, milestone: 'Upcoming', assignee: 'None' })
    expect([params.milestone_id, params.assignee_id, params.milestone, params.assignee_username]).toEqual([
      'Upcoming',
      'None',
      undefined,
      undefined,
    ])
  })

  it('round-trips through its serialised form', () => {
    for (const filter of [
      DEFAULT_ISSUE_FILTER,
      { ...busy, search: 'crash' },
      { ...DEFAULT_ISSUE_FILTER, milestone: 'Started', assignee: 'Any', confidential: false },
    ]) {
      expect(parseIssueFilter(serializeIssueFilter(filter))).toEqual(filter)
    }
  })

  it('serialises equal filters to the same string', () => {
    expect(serializeIssueFilter({ ...busy })).toBe(serializeIssueFilter(busy))
  })

  it('falls back to defaults for unknown or invalid values', () => {
    expect(parseIssueFilter('state=weird&order_by=DROP&sort=sideways&confidential=maybe&colour=red')).toEqual(
      DEFAULT_ISSUE_FILTER,
    )
    expect(isDefaultIssueFilter(parseIssueFilter(''))).toBe(true)
  })

  it('reads a route query object', () => {
    expect(parseIssueFilter({ labels: 'a,b', state: 'all', author_username: ['carol'] })).toMatchObject({
      labels: ['a', 'b'],
      state: 'all',
      author: 'carol',
    })
  })

  it('describes itself for people', () => {
    expect(describeIssueFilter(busy)).toBe(
      'Closed · “crash” · ~bug ~priority::high · not ~wontfix · %v1.0 · assigned to @alice · by @bob · confidential · updated at ↑',
    )
  })
})

describe('keys', () => {
  const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {}) => ({
    key: k,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    ...mods,
  })

  it('maps Ctrl on Linux and ⌘ on macOS to mod', () => {
    expect(chordOf(key('K', { ctrlKey: true, shiftKey: true }), 'other')).toBe('mod+shift+k')
    expect(chordOf(key('k', { metaKey: true }), 'mac')).toBe('mod+k')
    expect(chordOf(key('k', { ctrlKey: true }), 'mac')).toBe('ctrl+k')
    expect(chordOf(key('?', { shiftKey: true }), 'other')).toBe('?')
    expect(chordOf(key('Shift', { shiftKey: true }), 'other')).toBeNull()
  })

  it('runs a Ctrl/⌘+Enter action from one keydown handler, leaving plain Enter to the field', () => {
    let sent = 0
    const handler = onModEnter(() => sent++)
    const press = (mods: Parameters<typeof key>[1]) => {
      let prevented = false
      handler({ ...key('Enter', mods), preventDefault: () => (prevented = true) })
      return prevented
    }
    expect(press({})).toBe(false)
    expect(press({ shiftKey: true })).toBe(false)
    expect(sent).toBe(0)
    expect(press({ ctrlKey: true })).toBe(true)
    expect(press({ metaKey: true })).toBe(true)
    expect(sent).toBe(2)
  })

  it('parses and formats bindings', () => {
    expect(parseKeys('Mod+Shift+P')).toEqual(['mod+shift+p'])
    expect(parseKeys(' g  i ')).toEqual(['g', 'i'])
    expect(formatKeys('mod+k', 'mac')).toBe('⌘K')
    expect(formatKeys('mod+k', 'other')).toBe('Ctrl+K')
    expect(formatKeys('g i', 'other')).toBe('G then I')
  })

  it('matches chords and sequences, holding a sequence as pending', () => {
    const matcher = new ShortcutMatcher(() => [
      { keys: 'mod+k', value: 'palette' },
      { keys: 'g i', value: 'issues' },
      { keys: 'g m', value: 'mrs' },
      { keys: 'i', value: 'plain-i' },
    ])
    expect(matcher.feed('mod+k', 0)).toBe('palette')
    expect(matcher.feed('g', 0)).toBe('pending')
    expect(matcher.feed('m', 100)).toBe('mrs')
    expect(matcher.feed('x', 200)).toBeNull()
  })

  it('gives a key bound twice to the later binding (a view over the shell)', () => {
    const matcher = new ShortcutMatcher(() => [
      { keys: 'c', value: 'shell: new issue' },
      { keys: 'c', value: 'view: comment' },
    ])
    expect(matcher.feed('c', 0)).toBe('view: comment')
  })

  it('drops a sequence after its timeout and a broken sequence still lets the key stand alone', () => {
    const matcher = new ShortcutMatcher(() => [
      { keys: 'g i', value: 'issues' },
      { keys: 'i', value: 'plain-i' },
    ])
    matcher.feed('g', 0)
    expect(matcher.feed('i', 5_000)).toBe('plain-i')
    matcher.feed('g', 6_000)
    expect(matcher.feed('x', 6_100)).toBeNull()
    expect(matcher.feed('i', 6_200)).toBe('plain-i')
  })
})

describe('toReadableError', () => {
  it('explains an IpcFailure by its code and keeps the message', () => {
    const readable = toReadableError(
      new IpcFailure({ code: 'invalid-credentials', message: 'gitlab.example.com refused the token (401).' }),
    )
    expect(readable).toMatchObject({
      code: 'invalid-credentials',
      title: 'Sign-in refused',
      message: 'gitlab.example.com refused the token (401).',
    })
    expect(readable.hint).toContain('api scope')
    expect(readable.hint).not.toBe(readable.message)
  })

  it('gives a hint matching the kind of network failure', () => {
    const tls = toReadableError(
      new IpcFailure({
        code: 'network-error',
        message: 'Could not reach',
        details: { failure: 'tls', outcomeUnknown: false },
      }),
    )
    expect(tls.title).toBe('Cannot reach the server')
    expect(tls.hint).toContain('CA file')
  })

  it('treats unknown codes and plain errors as something that went wrong', () => {
    expect(toReadableError(new Error('boom'))).toMatchObject({
      code: 'handler-failed',
      title: 'Something went wrong',
      message: 'boom',
    })
    expect(toReadableError({ code: 'brand-new', message: 'm' }).title).toBe('Something went wrong')
  })
})
