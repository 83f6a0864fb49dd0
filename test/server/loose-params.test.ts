import { describe, expect, it } from 'vitest'
import { boolOf, booleanWord } from '../../src/server/platform/http/loose-params'
import { parseDuration } from '../../src/shared/duration'

describe('booleans, read one way (Grape’s Boolean)', () => {
  it('reads every word Grape takes for true or false, in any case', () => {
    for (const word of ['true', 'T', '1', 'Yes', 'y', 'ON']) expect(booleanWord(word), word).toBe(true)
    for (const word of ['false', 'F', '0', 'No', 'n', 'OFF']) expect(booleanWord(word), word).toBe(false)
    expect(booleanWord('maybe')).toBeUndefined()
  })

  it('gives the loose parameters of the issue lists the same reading as schema booleans (y and on are true)', () => {
    expect(boolOf('confidential', 'on')).toBe(true)
    expect(boolOf('confidential', 'y')).toBe(true)
    expect(boolOf('confidential', 'maybe')).toBe(false)
    expect(boolOf('confidential', undefined, true)).toBe(true)
  })
})

describe('durations, shared by the server and the app', () => {
  it('reads GitLab’s time-tracking grammar', () => {
    expect(parseDuration('1h 30m')).toBe(5400)
    expect(parseDuration('1mo')).toBe(160 * 3600)
    expect(parseDuration('-2h')).toBe(-7200)
    expect(parseDuration('soon')).toBeNull()
  })
})
