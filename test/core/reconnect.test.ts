import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SyncService } from '../../src/main/core/sync/service'
import { cacheHandlers } from '../../src/main/core/sync/channels'
import { makeOutboxWorld, type OutboxWorld } from '../helpers/outbox-world'

// The world's accounts probe an unreachable instance first after 60 s (then 120 s, 240 s…): what
// comes back sooner below comes from the urgent probing of queued writes and stale reads.
let w: OutboxWorld
beforeAll(async () => {
  w = await makeOutboxWorld()
})
afterAll(async () => w.close())
afterEach(async () => {
  await w.proxy.goOnline()
  await w.accounts.connectivityFor(w.account.id).probeNow()
})

/** Resolves when the account's instance is found online again (OnlineState flips back). */
function backOnline(): Promise<void> {
  const online = w.accounts.connectivityFor(w.account.id)
  if (online.online) return Promise.resolve()
  return new Promise((resolve) => {
    const off = online.onDidChange((state) => {
      if (state !== 'online') return
      off()
      resolve()
    })
  })
}

describe('reconnecting while something waits on the instance', () => {
  it('replays a write queued offline within seconds of the instance answering, without a manual retry', async () => {
    const issue = await w.cachedIssue({ title: 'Queued while away' })
    await w.goOffline()
    const entry = await w.outbox.enqueue(
      w.account.id,
      { type: 'issue', projectId: w.project.id, iid: issue.iid as number },
      { kind: 'comment', body: 'written offline' },
    )
    await w.outbox.idle()
    expect(w.outbox.get(entry.id).state).toBe('queued')
    expect(w.accounts.connectivityFor(w.account.id).isUrgent).toBe(true)

    await w.proxy.goOnline()
    // Well under the 60 s the back-off would wait with nothing queued.
    const done = await Promise.race([
      w.until(entry.id),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000).unref()),
    ])
    expect(done?.state).toBe('done')
    // Nothing waits any more: an unreachable instance is probed on the slow back-off again.
    expect(w.accounts.connectivityFor(w.account.id).isUrgent).toBe(false)
  })

  it('probes quickly after a read was answered from the cache while offline, so stale data is replaced soon', async () => {
    const sync = new SyncService({ cache: w.cache, accounts: w.accounts })
    const handlers = cacheHandlers(() => ({ cache: w.cache, sync, accounts: w.accounts }))
    await w.goOffline()
    const online = w.accounts.connectivityFor(w.account.id)
    expect(online.isUrgent).toBe(false)
    await handlers['issues:list'](w.account.id, {})
    expect(online.isUrgent).toBe(true)

    await w.proxy.goOnline()
    const back = await Promise.race([
      backOnline().then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 10_000).unref()),
    ])
    expect(back).toBe(true)
    await sync.dispose()
  })
})
