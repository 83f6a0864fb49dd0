import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DailyLog, redactSecrets, teeConsole } from '../../src/main/core/shell/log-file'

/* The app's local log (src/main/core/shell/log-file.ts): redaction, one file a day, rotation. */

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'burrow-log-'))
  dirs.push(dir)
  return dir
}

describe('redactSecrets', () => {
  it.each([
    ['a personal access token', 'token glpat-AbCdEf1234567890xyz_- failed', 'token [REDACTED] failed'],
    ['an OAuth application secret', 'secret gloas-0123456789abcdef0123', 'secret [REDACTED]'],
    ['a runner token', 'registered glrt-t1_AbCdEfGhIjKlMnOp', 'registered [REDACTED]'],
    ['the PRIVATE-TOKEN header', 'PRIVATE-TOKEN: s3cr3t-value', 'PRIVATE-TOKEN: [REDACTED]'],
    ['a Bearer authorization', 'Authorization: Bearer eyJhbGciOi.payload.sig', 'Authorization: Bearer [REDACTED]'],
    ['a Basic authorization', 'authorization=Basic dXNlcjpwYXNz', 'authorization=Basic [REDACTED]'],
    [
      'private_token in a query',
      'GET /api/v4/user?private_token=abc123&page=2',
      'GET /api/v4/user?private_token=[REDACTED]&page=2',
    ],
    [
      'access_token in a query',
      'GET /api/v4/projects?access_token=abc123',
      'GET /api/v4/projects?access_token=[REDACTED]',
    ],
    [
      'a password in a form',
      'grant_type=password&username=root&password=hunter2',
      'grant_type=password&username=root&password=[REDACTED]',
    ],
    [
      'a token in JSON',
      '{"token":"abc","name":"x","access_token": "def"}',
      '{"token":"[REDACTED]","name":"x","access_token": "[REDACTED]"}',
    ],
    [
      'a URL’s password',
      'clone https://oauth2:abc123@gitlab.example.com/g/p.git',
      'clone https://oauth2:[REDACTED]@gitlab.example.com/g/p.git',
    ],
    [
      'the launch token in an environment',
      'BURROW_ROOT_TOKEN=0123abcd node cli.cjs',
      'BURROW_ROOT_TOKEN=[REDACTED] node cli.cjs',
    ],
    [
      'the web host’s page secret',
      'open http://127.0.0.1:5173/#secret=abcdef',
      'open http://127.0.0.1:5173/#secret=[REDACTED]',
    ],
  ])('redacts %s', (_what, line, expected) => {
    expect(redactSecrets(line)).toBe(expected)
  })

  it('leaves lines without secrets as they are', () => {
    const line = 'GET /api/v4/projects/7/issues?page=2 200 in 12 ms (glob-pattern not a token)'
    expect(redactSecrets(line)).toBe(line)
  })
})

describe('DailyLog', () => {
  it('writes redacted lines to the day’s file', () => {
    const dir = tempDir()
    const log = new DailyLog({ dir, now: () => new Date('2026-03-04T10:00:00Z') })
    log.write('error', 'request failed with PRIVATE-TOKEN: glpat-AAAAAAAAAAAAAAAAAAAA')
    log.writeFormatted('info', ['sync of %s done', 'work'])
    const text = readFileSync(join(dir, 'burrow-2026-03-04.log'), 'utf8')
    expect(text).toBe(
      '2026-03-04T10:00:00.000Z ERROR request failed with PRIVATE-TOKEN: [REDACTED]\n2026-03-04T10:00:00.000Z INFO sync of work done\n',
    )
    expect(text).not.toContain('glpat-')
  })

  it('starts a new file each day and removes the files older than keepDays', () => {
    const dir = tempDir()
    let now = new Date('2026-03-01T23:59:00Z')
    writeFileSync(join(dir, 'burrow-2026-02-01.log'), 'old\n')
    writeFileSync(join(dir, 'notes.txt'), 'not a log\n')
    const log = new DailyLog({ dir, keepDays: 3, now: () => now })
    log.write('info', 'day 1')
    expect(readdirSync(dir).sort()).toEqual(['burrow-2026-03-01.log', 'notes.txt'])
    for (const day of ['02', '03', '04']) {
      now = new Date(`2026-03-${day}T08:00:00Z`)
      log.write('info', `day ${day}`)
    }
    expect(readdirSync(dir).sort()).toEqual([
      'burrow-2026-03-02.log',
      'burrow-2026-03-03.log',
      'burrow-2026-03-04.log',
      'notes.txt',
    ])
  })

  it('gives the last lines over days, newest last, redacting a line written before redaction', () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'burrow-2026-03-03.log'), 'a\nb private_token=xyz\n')
    const log = new DailyLog({ dir, now: () => new Date('2026-03-04T08:00:00Z') })
    log.write('info', 'c')
    expect(log.recentLines(3)).toEqual(['a', 'b private_token=[REDACTED]', expect.stringMatching(/INFO c$/)])
    expect(log.recentLines(1)).toEqual([expect.stringMatching(/INFO c$/)])
  })

  it('copies console output into the log until undone', () => {
    const dir = tempDir()
    const log = new DailyLog({ dir, now: () => new Date('2026-03-04T08:00:00Z') })
    const printed: unknown[][] = []
    const target = {
      log: (...a: unknown[]) => printed.push(a),
      info: (...a: unknown[]) => printed.push(a),
      warn: (...a: unknown[]) => printed.push(a),
      error: (...a: unknown[]) => printed.push(a),
    }
    const undo = teeConsole(log, target)
    target.error('failed: %s', 'Authorization: Bearer abc.def')
    undo()
    target.error('after')
    expect(printed).toEqual([['failed: %s', 'Authorization: Bearer abc.def'], ['after']])
    expect(log.recentLines(10)).toEqual([expect.stringMatching(/ERROR failed: Authorization: Bearer \[REDACTED\]$/)])
  })
})
