import { describe, expect, it } from 'vitest'
import {
  parseDueDate,
  parseEmojiArg,
  parseLabelArg,
  parseMilestoneArg,
  parseQuickActions,
  parseSpendArg,
  parseUsersArg,
} from '../../src/server/modules/quick-actions/service'
import { parseMentions } from '../../src/server/platform/text/mentions'

describe('quick action parser', () => {
  it('extracts command lines and strips them from the body', () => {
    const parsed = parseQuickActions('Looks good\n/label ~bug ~"needs review"\n/close\nthanks')
    expect(parsed.actions).toEqual([
      { name: 'label', arg: '~bug ~"needs review"' },
      { name: 'close', arg: '' },
    ])
    expect(parsed.body).toBe('Looks good\nthanks')
  })

  it('leaves a body empty when it held only commands', () => {
    expect(parseQuickActions('/reopen\n/due tomorrow').body).toBe('')
  })

  it('maps aliases to their command', () => {
    expect(parseQuickActions('/spent 1h\n/estimate_time 2h\n/labels a').actions.map((a) => a.name)).toEqual([
      'spend',
      'estimate',
      'label',
    ])
  })

  it('ignores commands inside fenced code blocks', () => {
    const text = '```\n/close\n```'
    expect(parseQuickActions(text)).toEqual({ body: text, actions: [] })
  })

  it('ignores commands that do not start the line and unknown commands', () => {
    const text = 'please /close\n/frobnicate now'
    expect(parseQuickActions(text)).toEqual({ body: text, actions: [] })
  })

  it('leaves commands the caller may not use in the body', () => {
    const parsed = parseQuickActions('/label ~a\n/close', (name) => name === 'close')
    expect(parsed.actions.map((a) => a.name)).toEqual(['close'])
    expect(parsed.body).toBe('/label ~a')
  })

  it('knows the repository, to-do, reaction and issue commands, /react as /award', () => {
    const text =
      '/merge\n/rebase\n/target_branch stable\n/todo\n/done\n/react :tada:\n/weight 2\n/health_status at_risk\n/duplicate #4\n/clone a/b --with_notes'
    expect(parseQuickActions(text).actions.map((a) => a.name)).toEqual([
      'merge',
      'rebase',
      'target_branch',
      'todo',
      'done',
      'award',
      'weight',
      'health_status',
      'duplicate',
      'clone',
    ])
  })

  it('takes an /award emoji only between colons', () => {
    expect([
      parseEmojiArg(':thumbsup:'),
      parseEmojiArg(' :+1: '),
      parseEmojiArg('thumbsup'),
      parseEmojiArg(':two words:'),
    ]).toEqual(['thumbsup', '+1', null, null])
  })

  it('recognises /promote only at the start of a line', () => {
    expect(parseQuickActions('text\n/promote').actions).toEqual([{ name: 'promote', arg: '' }])
    expect(parseQuickActions('text /promote').actions).toEqual([])
  })
})

describe('quick action arguments', () => {
  it('parses labels with tildes, quotes and bare words', () => {
    expect(parseLabelArg('~a ~"b c" d ~scope::x ~a')).toEqual(['a', 'b c', 'd', 'scope::x'])
  })

  it('parses users with @, commas and me', () => {
    expect(parseUsersArg('@Alice, @bob me')).toEqual(['alice', 'bob', 'me'])
  })

  it('parses quoted and bare milestone references', () => {
    expect(parseMilestoneArg('%"m 1"')).toBe('m 1')
    expect(parseMilestoneArg('%v2')).toBe('v2')
  })

  it('parses due dates: ISO, tomorrow, relative and weekdays', () => {
    const monday = new Date('2026-11-23T10:00:00Z')
    expect(parseDueDate('2026-12-01', monday)).toBe('2026-12-01')
    expect(parseDueDate('tomorrow', monday)).toBe('2026-11-24')
    expect(parseDueDate('in 2 weeks', monday)).toBe('2026-12-07')
    expect(parseDueDate('friday', monday)).toBe('2026-11-27')
    expect(parseDueDate('monday', monday)).toBe('2026-11-30')
    expect(parseDueDate('2026-02-30', monday)).toBeNull()
    expect(parseDueDate('someday', monday)).toBeNull()
  })

  it('splits /spend into duration and optional date, negatives included', () => {
    expect(parseSpendArg('1h 30m 2026-01-05')).toEqual({ duration: '1h 30m', date: '2026-01-05' })
    expect(parseSpendArg('-30m')).toEqual({ duration: '-30m', date: null })
  })
})

describe('mentions', () => {
  it('finds mentions outside code and marks leading ones as directly addressed', () => {
    const m = parseMentions('@Alice @bob please look, cc @carol.\n`@dave` and\n```\n@erin\n```\nmail x@frank.org')
    expect(m.all).toEqual(['alice', 'bob', 'carol'])
    expect(m.direct).toEqual(['alice', 'bob'])
  })
})
