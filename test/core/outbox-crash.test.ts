import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { OutboxStore } from '../../src/main/core/outbox/store'
import type { Mutation, OutboxTarget } from '../../src/shared/ipc/outbox'
import { makeOutboxWorld, PASSPHRASE, type Json, type OutboxWorld } from '../helpers/outbox-world'

/*
 * The core killed with SIGKILL in the middle of a replay, then started again on the same files:
 * nothing may be lost and nothing duplicated. The core runs as a child process
 * (fixtures/outbox-child.ts, through tsx); the proxy swallows one answer so the kill lands while
 * that request is out, with the server having handled it or not.
 */

const CHILD = join(__dirname, 'fixtures', 'outbox-child.ts')

interface Child {
  readonly process: ChildProcessWithoutNullStreams
  /** Resolves with the first output line (parsed) that matches. */
  waitFor(match: (line: Json) => boolean): Promise<Json>
}

const children = new Set<ChildProcessWithoutNullStreams>()

function startChild(w: OutboxWorld, enqueue: readonly { target: OutboxTarget; mutation: Mutation }[] = []): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: {
      ...process.env,
      OUTBOX_DIR: w.dir,
      OUTBOX_PASSPHRASE: PASSPHRASE,
      OUTBOX_ACCOUNT: w.account.id,
      OUTBOX_ENQUEUE: JSON.stringify(enqueue),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  children.add(child)
  child.once('exit', () => children.delete(child))
  const lines: Json[] = []
  const waiters: { match: (line: Json) => boolean; resolve: (line: Json) => void }[] = []
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  createInterface({ input: child.stdout }).on('line', (text) => {
    const line = JSON.parse(text) as Json
    lines.push(line)
    for (const waiter of [...waiters]) {
      if (!waiter.match(line)) continue
      waiters.splice(waiters.indexOf(waiter), 1)
      waiter.resolve(line)
    }
  })
  return {
    process: child,
    waitFor(match) {
      const seen = lines.find(match)
      if (seen !== undefined) return Promise.resolve(seen)
      return new Promise((resolve, reject) => {
        waiters.push({ match, resolve })
        child.once('exit', (code, signal) =>
          reject(new Error(`the core exited (${code ?? signal}) before the expected output: ${stderr}`)),
        )
      })
    },
  }
}

async function kill(child: Child): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.process.once('exit', () => resolve()))
  child.process.kill('SIGKILL')
  await exited
}

let w: OutboxWorld
beforeAll(async () => {
  w = await makeOutboxWorld()
  // The child process is the only replayer of these files.
  await w.outbox.dispose()
})
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL')
  await w.close()
})
afterEach(() => {
  w.proxy.mode = 'pass'
  w.proxy.only = null
})

const target = (iid: number): OutboxTarget => ({ type: 'issue', projectId: w.project.id, iid })
const posts = (suffix: string): number =>
  w.proxy.forwarded.filter((l) => l.startsWith('POST') && l.split('?')[0].endsWith(suffix)).length

async function notesOf(iid: number): Promise<string[]> {
  const res = await w.api('GET', `/projects/${w.project.id}/issues/${iid}/notes?per_page=100&sort=asc`)
  return (res.body as Json[]).filter((n) => n.system !== true).map((n) => n.body as string)
}

describe('the core killed during replay', () => {
  it('killed while the server had handled a write but its answer was still out: after a restart the write is found, the rest sent, nothing twice', async () => {
    const iid = (await w.cachedIssue({ title: 'Before the crash' })).iid as number
    const t = target(iid)
    w.proxy.mode = 'hold-responses'
    w.proxy.only = (l) => l.includes('/add_spent_time')
    const first = startChild(w, [
      { target: t, mutation: { kind: 'comment', body: 'one' } },
      { target: t, mutation: { kind: 'comment', body: 'two' } },
      { target: t, mutation: { kind: 'add-spent-time', seconds: 1200 } },
      { target: t, mutation: { kind: 'comment', body: 'three' } },
      { target: t, mutation: { kind: 'update', changes: { title: 'After the crash' } } },
    ])
    await w.proxy.waitForAnswered((l) => l.includes(`/issues/${iid}/add_spent_time`))
    await kill(first)

    // What the killed process left: `sending` was committed before the request went out.
    const store = new OutboxStore(w.cache.db)
    expect(
      store.list({ accountId: w.account.id, includeSettled: true }).map((e) => [e.mutation.kind, e.state]),
    ).toEqual([
      ['comment', 'done'],
      ['comment', 'done'],
      ['add-spent-time', 'sending'],
      ['comment', 'queued'],
      ['update', 'queued'],
    ])

    w.proxy.mode = 'pass'
    w.proxy.only = null
    const second = startChild(w)
    await second.waitFor((l) => l.idle === true)
    await kill(second)

    const entries = store.list({ accountId: w.account.id, includeSettled: true })
    expect(entries.map((e) => e.state)).toEqual(['done', 'done', 'reconciled', 'done', 'done'])
    expect(entries[2].reason).toBe('The server recorded this time.')
    expect(await notesOf(iid)).toEqual(['one', 'two', 'three'])
    expect(posts(`/issues/${iid}/add_spent_time`)).toBe(1)
    const issue = (await w.api('GET', `/projects/${w.project.id}/issues/${iid}`)).body as Json
    expect(issue.title).toBe('After the crash')
    expect((issue.time_stats as Json).total_time_spent).toBe(1200)
  })

  it('killed while a comment had not reached the server: after a restart it is looked for and not found, left for the user, and a retry sends it exactly once', async () => {
    const iid = (await w.cachedIssue()).iid as number
    w.proxy.mode = 'hold-requests'
    w.proxy.only = (l) => l.includes('/notes')
    const first = startChild(w, [{ target: target(iid), mutation: { kind: 'comment', body: 'never left' } }])
    await first.waitFor((l) => l.state === 'sending')
    await kill(first)
    expect(posts(`/issues/${iid}/notes`)).toBe(0)

    w.proxy.mode = 'pass'
    w.proxy.only = null
    const second = startChild(w)
    await second.waitFor((l) => l.idle === true)
    await kill(second)
    // Not sent again on its own: a comment still on its way into the server would land twice.
    expect(posts(`/issues/${iid}/notes`)).toBe(0)
    const entry = new OutboxStore(w.cache.db).list({ accountId: w.account.id }).at(-1)
    expect(entry).toMatchObject({
      state: 'failed',
      status: null,
      reason: 'The comment was not on the server. It did not take effect: send it again, or discard it.',
    })

    const outbox = await w.restart()
    await outbox.retry(entry!.id)
    await outbox.idle()
    expect(outbox.get(entry!.id).state).toBe('done')
    await outbox.dispose()
    expect(posts(`/issues/${iid}/notes`)).toBe(1)
    expect(await notesOf(iid)).toEqual(['never left'])
  })

  it('killed while a comment the server created was waiting for its answer: after a restart it is found, not posted again', async () => {
    const iid = (await w.cachedIssue()).iid as number
    w.proxy.mode = 'hold-responses'
    w.proxy.only = (l) => l.includes('/notes')
    const first = startChild(w, [{ target: target(iid), mutation: { kind: 'comment', body: 'arrived, unanswered' } }])
    await w.proxy.waitForAnswered((l) => l.includes(`/issues/${iid}/notes`))
    await kill(first)

    w.proxy.mode = 'pass'
    w.proxy.only = null
    const second = startChild(w)
    await second.waitFor((l) => l.idle === true)
    await kill(second)
    expect(posts(`/issues/${iid}/notes`)).toBe(1)
    expect(await notesOf(iid)).toEqual(['arrived, unanswered'])
    const entry = new OutboxStore(w.cache.db).list({ accountId: w.account.id, includeSettled: true }).at(-1)
    expect(entry).toMatchObject({ state: 'reconciled', reason: 'The comment was found on the server.' })
  })
})
