import { describe, expect, it } from 'vitest'
import { humanDuration, parseHumanDuration } from '../../src/server/modules/time-tracking/durations'
import { timeStatsOf } from '../../src/server/modules/time-tracking/entity'

describe('parseHumanDuration', () => {
  it('reads hours and minutes with or without spaces', () => {
    expect(parseHumanDuration('1h30m')).toBe(5400)
    expect(parseHumanDuration('1h 30m')).toBe(5400)
    expect(parseHumanDuration('3h30m')).toBe(12600)
  })
  it('counts 1d as 8h, 1w as 5d and 1mo as 4w', () => {
    expect(parseHumanDuration('1d')).toBe(8 * 3600)
    expect(parseHumanDuration('1w')).toBe(40 * 3600)
    expect(parseHumanDuration('1mo')).toBe(160 * 3600)
  })
  it('accepts negatives, long unit names and a bare number of hours', () => {
    expect(parseHumanDuration('-2h')).toBe(-7200)
    expect(parseHumanDuration('45 minutes')).toBe(2700)
    expect(parseHumanDuration('2')).toBe(7200)
  })
  it('rejects text that is not a duration', () => {
    expect(parseHumanDuration('soon')).toBeNull()
    expect(parseHumanDuration('')).toBeNull()
    expect(parseHumanDuration('3x')).toBeNull()
    expect(parseHumanDuration('-')).toBeNull()
  })
})

describe('humanDuration', () => {
  it('prints GitLab short form', () => {
    expect(humanDuration(5400)).toBe('1h 30m')
    expect(humanDuration(8 * 3600)).toBe('1d')
    expect(humanDuration((40 + 16 + 3) * 3600)).toBe('1w 2d 3h')
    expect(humanDuration(160 * 3600)).toBe('1mo')
    expect(humanDuration(-3600)).toBe('-1h')
  })
  it('is null for zero, as time_stats shows no estimate', () => {
    expect(humanDuration(0)).toBeNull()
    expect(timeStatsOf(0, 60)).toEqual({
      time_estimate: 0,
      total_time_spent: 60,
      human_time_estimate: null,
      human_total_time_spent: '1m',
    })
  })
})
