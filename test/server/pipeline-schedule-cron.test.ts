import { describe, expect, it } from 'vitest'
import { isKnownTimezone, nextRunAfter, parseCron, type Cron } from '../../src/server/modules/pipeline-schedules/cron'

const cron = (expression: string): Cron => {
  const parsed = parseCron(expression)
  if (!parsed) throw new Error(`${expression} did not parse`)
  return parsed
}
const next = (expression: string, timezone: string, after: string): string | undefined =>
  nextRunAfter(cron(expression), timezone, new Date(after))?.toISOString()

describe('pipeline schedule cron', () => {
  it('parses values, ranges, steps, lists, names and shorthands', () => {
    expect(cron('*/15 9-17/4 1,15 * *')).toMatchObject({ minutes: [0, 15, 30, 45], hours: [9, 13, 17] })
    expect([...cron('0 0 * JAN-MAR MON,fri').months]).toEqual([1, 2, 3])
    expect([...cron('0 0 * * 5,7').daysOfWeek].sort()).toEqual([0, 5])
    expect(cron('5/20 * * * *').minutes).toEqual([5, 25, 45])
    expect(cron('@daily')).toMatchObject({ minutes: [0], hours: [0] })
  })

  it('refuses what is not five-field cron', () => {
    for (const bad of [
      '',
      '* * * *',
      '* * * * * *',
      '60 * * * *',
      '* 24 * * *',
      '* * 0 * *',
      '* * * 13 *',
      '* * * * 8',
      '*/0 * * * *',
      '5-1 * * * *',
      'a b c d e',
      '1-2-3 * * * *',
      '@often',
    ])
      expect(parseCron(bad), bad).toBeNull()
  })

  it('knows IANA timezones and refuses others', () => {
    expect(isKnownTimezone('Europe/Berlin')).toBe(true)
    expect(isKnownTimezone('UTC')).toBe(true)
    expect(isKnownTimezone('Mars/Olympus')).toBe(false)
    expect(isKnownTimezone('')).toBe(false)
  })

  it('finds the next run strictly after the given time, in UTC and in a zone', () => {
    expect(next('*/15 * * * *', 'UTC', '2026-03-01T10:15:00Z')).toBe('2026-03-01T10:30:00.000Z')
    expect(next('0 9 * * *', 'Asia/Tokyo', '2026-03-01T00:00:00Z')).toBe('2026-03-02T00:00:00.000Z')
    expect(next('30 8 * * 1-5', 'UTC', '2026-02-27T09:00:00Z')).toBe('2026-03-02T08:30:00.000Z')
    expect(next('0 0 29 2 *', 'UTC', '2026-03-01T00:00:00Z')).toBe('2028-02-29T00:00:00.000Z')
  })

  it('matches either day field when both are restricted (classic cron)', () => {
    // 2026-03-01 is a Sunday; the 15th or a Friday comes first on Friday the 6th.
    expect(next('0 12 15 * 5', 'UTC', '2026-03-01T00:00:00Z')).toBe('2026-03-06T12:00:00.000Z')
  })

  it('keeps the local time across a daylight-saving change', () => {
    // Berlin moves from UTC+1 to UTC+2 on 29 March 2026: 09:00 local is 08:00Z before, 07:00Z after.
    expect(next('0 9 * * *', 'Europe/Berlin', '2026-03-28T09:00:00Z')).toBe('2026-03-29T07:00:00.000Z')
    expect(next('0 9 * * *', 'Europe/Berlin', '2026-03-27T09:00:00Z')).toBe('2026-03-28T08:00:00.000Z')
    // New York goes back on 1 November 2026: 09:00 EST is 14:00Z.
    expect(next('0 9 * * *', 'America/New_York', '2026-10-31T14:00:00Z')).toBe('2026-11-01T14:00:00.000Z')
  })

  it('skips a local time that does not exist and runs a repeated one once', () => {
    // 02:30 does not exist in Berlin on 29 March 2026: the next run is the day after, 00:30Z (UTC+2).
    expect(next('30 2 * * *', 'Europe/Berlin', '2026-03-28T02:00:00Z')).toBe('2026-03-30T00:30:00.000Z')
    // 01:30 happens twice in New York on 1 November 2026 (05:30Z in EDT, 06:30Z in EST): only the first runs.
    expect(next('30 1 * * *', 'America/New_York', '2026-11-01T00:00:00Z')).toBe('2026-11-01T05:30:00.000Z')
    expect(next('30 1 * * *', 'America/New_York', '2026-11-01T05:30:00Z')).toBe('2026-11-02T06:30:00.000Z')
  })

  it('never fires for a date that does not exist', () => {
    expect(nextRunAfter(cron('0 0 30 2 *'), 'UTC', new Date('2026-01-01T00:00:00Z'))).toBeNull()
  })
})
