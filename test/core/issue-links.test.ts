import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueLinksPath } from '../../src/main/core/cache/issue-links'
import { SyncService } from '../../src/main/core/sync/service'
import { cacheHandlers } from '../../src/main/core/sync/channels'
import { linkIssueArgs, unlinkIssueArgs } from '../../src/shared/ipc/outbox-schema'
import { makeOutboxWorld, type Json, type OutboxWorld } from '../helpers/outbox-world'

/*
 * Linked items in the desktop core against a real Burrow Server: the sync saves the links of
 * changed issues for offline reading (and the issues list marks the blocked ones from them),
 * and link writes go through the outbox, where a link already there or already gone is the
 * write's intent holding on replay, not an error.
 */

let w: OutboxWorld
let sync: SyncService
let handlers: ReturnType<typeof cacheHandlers>
let projectId: number
beforeAll(async () => {
  w = await makeOutboxWorld()
  projectId = w.project.id
  sync = new SyncService({ cache: w.cache, accounts: w.accounts })
  handlers = cacheHandlers(() => ({ cache: w.cache, sync, accounts: w.accounts }))
})
afterAll(async () => w.close())

const links = async (iid: number): Promise<Json[]> =>
  (await w.api('GET', `/projects/${projectId}/issues/${iid}/links`)).body as Json[]
const savedLinks = async (iid: number) => handlers['api:get'](w.account.id, issueLinksPath(projectId, iid))
const blockedIids = async (): Promise<number[]> =>
  (await handlers['issues:list'](w.account.id, { project_id: projectId, state: 'all' })).items
    .filter((i) => i.blocked === true)
    .map((i) => i.data.iid as number)
const savedAt = (iid: number): unknown =>
  w.cache.db
    .prepare('SELECT fetched_at FROM http_cache WHERE url LIKE ?')
    .pluck()
    .get(`%${issueLinksPath(projectId, iid)}`)

describe('links in the sync', () => {
  it('saves the links of changed issues, readable offline; the list marks an issue an open one blocks; a quiet sync asks for none', async () => {
    // A project's first sync saves no links (every issue is new then): this one is behind us.
    expect(await sync.run(w.account.id)).toMatchObject({ outcome: 'completed' })
    const blocker = await w.cachedIssue({ title: 'Blocker' })
    const blocked = await w.cachedIssue({ title: 'Blocked' })
    const linked = await w.api('POST', `/projects/${projectId}/issues/${blocked.iid}/links`, {
      target_project_id: projectId,
      target_issue_iid: blocker.iid,
      link_type: 'is_blocked_by',
    })
    expect(linked.status).toBe(201)
    expect(await sync.run(w.account.id)).toMatchObject({ outcome: 'completed' })
    expect(await blockedIids()).toEqual([blocked.iid])

    const before = savedAt(blocked.iid as number)
    expect(await sync.run(w.account.id)).toMatchObject({ outcome: 'completed', itemsSynced: 0 })
    expect(savedAt(blocked.iid as number)).toBe(before)

    await w.goOffline()
    const offline = await savedLinks(blocked.iid as number)
    expect(offline.stale).toBe(true)
    expect(offline.body).toMatchObject([{ iid: blocker.iid, link_type: 'is_blocked_by', state: 'opened' }])
    await w.goOnline()

    // Closing the blocker changes it: its links are saved again, and the blocked one stays blocked
    // until its own links are read again (here: the issue changes too).
    await w.api('PUT', `/projects/${projectId}/issues/${blocker.iid}`, { state_event: 'close' })
    await w.api('PUT', `/projects/${projectId}/issues/${blocked.iid}`, { labels: 'waiting' })
    await sync.run(w.account.id)
    expect(await blockedIids()).toEqual([])
  })
})

describe('link writes through the outbox', () => {
  it('a link and its removal queued offline land once the server is back, and the saved links follow', async () => {
    const a = await w.cachedIssue({ title: 'Parser' })
    const b = await w.cachedIssue({ title: 'Lexer' })
    const target = { type: 'issue' as const, projectId, iid: a.iid as number }
    await w.goOffline()
    const link = await w.outbox.enqueue(w.account.id, target, {
      kind: 'link',
      targetProjectId: projectId,
      targetIid: b.iid as number,
      linkType: 'blocks',
    })
    await w.outbox.idle()
    expect(w.outbox.get(link.id).state).toBe('queued')
    expect(await links(a.iid as number)).toEqual([])
    await w.goOnline()
    expect(await w.until(link.id)).toMatchObject({ state: 'done', reason: null })
    expect(await links(a.iid as number)).toMatchObject([{ iid: b.iid, link_type: 'blocks' }])
    // Both ends' saved copies were read again: the blocked end is marked without another sync.
    expect(await blockedIids()).toContain(b.iid)

    await w.goOffline()
    const unlink = await w.outbox.enqueue(w.account.id, target, {
      kind: 'unlink',
      targetProjectId: projectId,
      targetIid: b.iid as number,
    })
    await w.goOnline()
    expect(await w.until(unlink.id)).toMatchObject({ state: 'done', reason: null })
    expect(await links(a.iid as number)).toEqual([])
    expect(await blockedIids()).not.toContain(b.iid)
  })

  it('on replay, a link already made elsewhere and a link already removed are done, not errors', async () => {
    const a = await w.cachedIssue({ title: 'Cache' })
    const b = await w.cachedIssue({ title: 'Eviction' })
    const target = { type: 'issue' as const, projectId, iid: a.iid as number }
    await w.goOffline()
    const link = await w.outbox.enqueue(w.account.id, target, {
      kind: 'link',
      targetProjectId: projectId,
      targetIid: b.iid as number,
      linkType: 'relates_to',
    })
    const unlinkOther = await w.outbox.enqueue(w.account.id, target, {
      kind: 'unlink',
      targetProjectId: projectId,
      targetIid: a.iid === 1 ? 2 : 1,
    })
    // Someone else links them meanwhile (as "blocks"): the wanted link exists, whatever its type.
    await w.api('POST', `/projects/${projectId}/issues/${b.iid}/links`, {
      target_project_id: projectId,
      target_issue_iid: a.iid,
      link_type: 'blocks',
    })
    await w.goOnline()
    expect(await w.until(link.id)).toMatchObject({ state: 'done', reason: 'These issues were already linked.' })
    expect(await w.until(unlinkOther.id)).toMatchObject({
      state: 'done',
      reason: 'These issues were not linked any more.',
    })
    expect(await links(a.iid as number)).toHaveLength(1)
  })

  it('a link write whose answer was lost is checked by reading the links, not sent blindly', async () => {
    const a = await w.cachedIssue({ title: 'Index' })
    const b = await w.cachedIssue({ title: 'Query planner' })
    const target = { type: 'issue' as const, projectId, iid: a.iid as number }
    await w.goOffline()
    const link = await w.outbox.enqueue(w.account.id, target, {
      kind: 'link',
      targetProjectId: projectId,
      targetIid: b.iid as number,
      linkType: 'relates_to',
    })
    // A crash while the request was out (the entry left in sending), and the link made by it.
    w.cache.db.prepare("UPDATE outbox_entries SET state = 'sending' WHERE id = ?").run(link.id)
    await w.api('POST', `/projects/${projectId}/issues/${a.iid}/links`, {
      target_project_id: projectId,
      target_issue_iid: b.iid,
    })
    w.outbox = await w.restart()
    await w.goOnline()
    expect(await w.until(link.id)).toMatchObject({ state: 'reconciled', reason: 'The link is on the server.' })
    expect(await links(a.iid as number)).toHaveLength(1)
  })

  it('the channels refuse a bad link request before anything is queued', () => {
    const ok = { projectId: 1, iid: 2, targetProjectId: 1, targetIid: 3 }
    expect(linkIssueArgs(['acc', { ...ok, linkType: 'blocks' }])).toBeNull()
    expect(linkIssueArgs(['acc', { ...ok, linkType: 'duplicates' }])).toMatch(/linkType/)
    expect(linkIssueArgs(['acc', { ...ok, targetIid: 2, linkType: 'blocks' }])).toMatch(/itself/)
    expect(unlinkIssueArgs(['acc', { ...ok, targetIid: -1 }])).toMatch(/targetIid/)
    expect(unlinkIssueArgs(['acc', { ...ok, linkId: 4 }])).toMatch(/unknown field/)
  })
})
