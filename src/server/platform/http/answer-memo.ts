import type { FastifyReply, FastifyRequest } from 'fastify'
import { callerOf } from '../caller'
import { nowIso, type Db } from '../db/connection'
import { lockExpiryTimes } from '../db/platform-queries'
import { dataVersion } from '../db/statements'

/** One remembered answer: its bytes, the headers its handler set, and while it holds. */
interface MemoEntry {
  readonly version: string
  /** App-clock times (ms) between which the answer holds: built at `from`, until the next lock expiry or midnight. */
  readonly from: number
  readonly until: number
  /** The system clock's next UTC midnight, when SQLite's `date('now')` (membership expiry) moves on. */
  readonly systemUntil: number
  readonly headers: Readonly<Record<string, string | number | string[]>>
  readonly body: Buffer
}

const memos = new WeakMap<Db, Map<string, MemoEntry>>()
const ENTRIES = 64
const MAX_BODY_BYTES = 2 * 1024 * 1024

function nextUtcMidnight(ms: number): number {
  const d = new Date(ms)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)
}

/**
 * Until when an answer built at app-clock time `now` stays what a new build would give, the
 * database unchanged: until a sign-in lock runs out (a user's `locked` flag) or the date changes
 * (milestones' `expired`, issues' due-date filters, memberships' `expires_at`).
 */
function horizon(db: Db, now: number): number {
  const iso = new Date(now).toISOString()
  const nextLock = lockExpiryTimes(db).find((t) => t > iso)
  const midnight = nextUtcMidnight(now)
  return nextLock === undefined ? midnight : Math.min(midnight, Date.parse(nextLock))
}

/** A serializer's output as the Buffer the memo keeps. */
function bytesOf(serialized: string | ArrayBuffer | Buffer): Buffer {
  if (typeof serialized === 'string') return Buffer.from(serialized)
  return Buffer.isBuffer(serialized) ? serialized : Buffer.from(serialized)
}

/** Who asks for what: the URL, the base URL answers are written for, and the caller with its token. */
function memoKey(request: FastifyRequest): string {
  const a = request.actor
  const who = `${a.user?.id ?? ''}\u0000${a.method}\u0000${a.tokenId ?? ''}\u0000${a.sudoBy?.id ?? ''}\u0000${a.scopes.join(',')}`
  return `${request.method} ${request.url}\u0000${callerOf(request).baseUrl}\u0000${who}`
}

/** The headers `after` has that `before` had not, or had with another value. */
function headersSet(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, string | number | string[] | undefined>>,
): Record<string, string | number | string[]> {
  const set: Record<string, string | number | string[]> = {}
  for (const [name, value] of Object.entries(after))
    if (value !== undefined && before[name] !== value) set[name] = value
  return set
}

/**
 * Answers a GET from memory when the same caller asked for the same URL since the database last
 * changed, or builds the answer with `build` (what the handler returns: entities, serialized by
 * the route's response schema when it has one, or JSON bytes) and remembers it with the headers
 * `build` set (pagination). Any write anywhere, a sign-in lock
 * running out or the date changing builds again, so a remembered answer is always the one `build`
 * would give now; answers built inside a transaction, or by a `build` that wrote, are not kept.
 * For the large lists clients poll page after page (users, projects, issues): a repeated page
 * costs its authentication and one version check instead of its queries and serialisation.
 * `build` must be synchronous and read only the database, the caller and the clock.
 */
export function answerFromMemo(request: FastifyRequest, reply: FastifyReply, build: () => unknown): FastifyReply {
  const { db } = callerOf(request)
  const version = dataVersion(db)
  const key = memoKey(request)
  let memo = memos.get(db)
  if (!memo) {
    memo = new Map()
    memos.set(db, memo)
  }
  const now = Date.parse(nowIso())
  const hit = memo.get(key)
  if (hit && hit.version === version && hit.from <= now && now < hit.until && Date.now() < hit.systemUntil) {
    // Delete and set again so the map's order is least recently used first.
    memo.delete(key)
    memo.set(key, hit)
    return reply.headers(hit.headers).send(hit.body)
  }
  const before = { ...reply.getHeaders() }
  const value = build()
  if (!reply.hasHeader('content-type')) reply.type('application/json')
  // Serialized as the route would: through its response schema when it declares one.
  const body = Buffer.isBuffer(value) ? value : bytesOf(reply.serialize(value))
  if (version !== null && dataVersion(db) === version && body.length <= MAX_BODY_BYTES) {
    memo.delete(key)
    if (memo.size >= ENTRIES) memo.delete(memo.keys().next().value as string)
    const entry: MemoEntry = {
      version,
      from: now,
      until: horizon(db, now),
      systemUntil: nextUtcMidnight(Date.now()),
      headers: headersSet(before, reply.getHeaders()),
      body,
    }
    memo.set(key, entry)
  }
  return reply.send(body)
}
