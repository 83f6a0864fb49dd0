import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { format } from 'node:util'

/*
 * Crash and error reporting stays on the machine: one log file a day in the app's log folder
 * (`burrow-YYYY-MM-DD.log`, UTC days), files older than `keepDays` removed, and every line
 * passed through redactSecrets first, so no token reaches the disk.
 */

const REDACTED = '[REDACTED]'

/** Names whose values are secrets, in a query string, a form, a header, an environment or JSON. */
const SECRET_NAMES = [
  'private[-_]token',
  'access[-_]token',
  'refresh[-_]token',
  'job[-_]token',
  'deploy[-_]token',
  'runner[-_]token',
  'id[-_]token',
  'client[-_]secret',
  'secret',
  'password',
  'passphrase',
  'token',
  'burrow_root_token',
  'burrow_local_server_token',
].join('|')

/**
 * The shapes a secret takes in a log line, each with what replaces it:
 * GitLab's prefixed tokens (`glpat-…`, `gloas-…`, `glrt-…`, …, and runner registration tokens),
 * `Authorization: Bearer|Basic|token …`, `PRIVATE-TOKEN: …` and the like, `name=value`
 * (a query, a form, an environment), `"name": "value"` (JSON) and a URL's password
 * (`https://oauth2:TOKEN@host`).
 */
const REDACTIONS: readonly (readonly [RegExp, string])[] = [
  [/\bgl[a-z]{2,8}-[A-Za-z0-9_.-]{8,}/g, REDACTED],
  [/\bGR1348941[A-Za-z0-9_-]{8,}/g, REDACTED],
  [/\b(authorization\s*[:=]\s*(?:(?:bearer|basic|token)\s+)?)[^\s,;"']+/gi, `$1${REDACTED}`],
  [new RegExp(`(["']?\\b(?:${SECRET_NAMES})["']?\\s*:\\s*["'])[^"']*(["'])`, 'gi'), `$1${REDACTED}$2`],
  [new RegExp(`(\\b(?:${SECRET_NAMES})\\s*[:=]\\s*)(?!\\[REDACTED\\])[^\\s&,;"'#]+`, 'gi'), `$1${REDACTED}`],
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:)[^\s/@]+@/gi, `$1${REDACTED}@`],
]

/** `text` with every token, password and secret it holds replaced by [REDACTED]. */
export function redactSecrets(text: string): string {
  let result = text
  for (const [pattern, replacement] of REDACTIONS) result = result.replace(pattern, replacement)
  return result
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

export interface DailyLogOptions {
  readonly dir: string
  /** How many days of files to keep, today's included (default 14). */
  readonly keepDays?: number
  readonly now?: () => Date
}

const FILE_PATTERN = /^burrow-(\d{4}-\d{2}-\d{2})\.log$/
const DAY_MS = 24 * 60 * 60 * 1000

function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10)
}

/** The app's log: today's file, appended to line by line; older days' files rotated away. */
export class DailyLog {
  readonly dir: string
  private readonly keepDays: number
  private readonly now: () => Date
  private day = ''

  constructor(options: DailyLogOptions) {
    this.dir = options.dir
    this.keepDays = Math.max(1, options.keepDays ?? 14)
    this.now = options.now ?? (() => new Date())
  }

  /** Today's file. */
  get file(): string {
    return join(this.dir, `burrow-${dayOf(this.now())}.log`)
  }

  /** Appends one line (redacted); a log that cannot be written never breaks the app. */
  write(level: LogLevel, message: string): void {
    const now = this.now()
    if (dayOf(now) !== this.day) this.rotate(now)
    const text = redactSecrets(message).replace(/\r?\n/g, '\n    ')
    try {
      appendFileSync(this.file, `${now.toISOString()} ${level.toUpperCase()} ${text}\n`, { mode: 0o600 })
    } catch {
      // a full or read-only disk costs the log, not the app
    }
  }

  /** Writes `args` as console.log would format them. */
  writeFormatted(level: LogLevel, args: readonly unknown[]): void {
    this.write(level, format(...args))
  }

  /** The last `count` lines, over today's and earlier files (newest last), redacted again in case a file predates a pattern. */
  recentLines(count: number): string[] {
    const lines: string[] = []
    for (const file of this.files().reverse()) {
      const text = readText(join(this.dir, file))
      const fileLines = text.split('\n').filter((line) => line !== '')
      lines.unshift(...fileLines.slice(-(count - lines.length)))
      if (lines.length >= count) break
    }
    return lines.map(redactSecrets)
  }

  /** The log files, oldest first. */
  files(): string[] {
    try {
      return readdirSync(this.dir)
        .filter((name) => FILE_PATTERN.test(name))
        .sort()
    } catch {
      return []
    }
  }

  /** Makes the folder and removes the files of days older than keepDays. */
  private rotate(now: Date): void {
    this.day = dayOf(now)
    const oldestKept = dayOf(new Date(now.getTime() - (this.keepDays - 1) * DAY_MS))
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 })
      for (const name of this.files()) {
        const day = FILE_PATTERN.exec(name)?.[1]
        if (day !== undefined && day < oldestKept) rmSync(join(this.dir, name), { force: true })
      }
    } catch {
      // as in write
    }
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}

type ConsoleMethod = 'log' | 'info' | 'warn' | 'error'
const CONSOLE_LEVELS: Readonly<Record<ConsoleMethod, LogLevel>> = {
  log: 'info',
  info: 'info',
  warn: 'warn',
  error: 'error',
}

/**
 * Copies what the main process writes to its console into `log` (the console keeps its own
 * output); returns the function that undoes it.
 */
export function teeConsole(log: DailyLog, target: Pick<Console, ConsoleMethod> = console): () => void {
  const originals = new Map<ConsoleMethod, (...args: unknown[]) => void>()
  for (const method of Object.keys(CONSOLE_LEVELS) as ConsoleMethod[]) {
    const original = target[method].bind(target)
    originals.set(method, target[method])
    target[method] = (...args: unknown[]) => {
      original(...args)
      log.writeFormatted(CONSOLE_LEVELS[method], args)
    }
  }
  return () => {
    for (const [method, original] of originals) target[method] = original
  }
}
