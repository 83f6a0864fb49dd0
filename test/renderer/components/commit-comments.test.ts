// @vitest-environment jsdom
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import RepositoryCommitReview from '../../../src/renderer/components/repository/RepositoryCommitReview.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import type { IpcResponse } from '../../../src/shared/ipc/contract'
import type { OutboxEntry, OutboxState } from '../../../src/shared/ipc/outbox'
import { fakeTransport } from '../support/fake-bridge'

/*
 * A commit's diff with its comments (the commit view): line threads under their lines, the line
 * comment form from a line's `+` (no pending review on a commit), comments queued through
 * `commits:comment`, and the user's comments the outbox holds shown in place with their state.
 */

beforeEach(() => setActivePinia(createPinia()))

const PARENT = 'a'.repeat(40)
const SHA = 'c'.repeat(40)
const COMMIT = {
  id: SHA,
  short_id: SHA.slice(0, 8),
  title: 'Say deux',
  message: 'Say deux\n',
  author_name: 'Rita',
  author_email: 'rita@example.com',
  authored_date: '2024-05-01T10:00:00Z',
  committer_name: 'Rita',
  committer_email: 'rita@example.com',
  committed_date: '2024-05-01T10:00:00Z',
  parent_ids: [PARENT],
  web_url: null,
}
const DIFF = {
  old_path: 'src/app.ts',
  new_path: 'src/app.ts',
  new_file: false,
  renamed_file: false,
  deleted_file: false,
  a_mode: '100644',
  b_mode: '100644',
  diff: '@@ -1,3 +1,3 @@\n one\n-two\n+deux\n three\n',
}
const author = { id: 7, name: 'Rita Reviewer', username: 'rita', avatar_url: null }
const position = (newLine: number) => ({
  position_type: 'text',
  base_sha: PARENT,
  start_sha: PARENT,
  head_sha: SHA,
  old_path: 'src/app.ts',
  new_path: 'src/app.ts',
  old_line: null,
  new_line: newLine,
})
const note = (id: number, body: string, extra: Record<string, unknown> = {}) => ({
  id,
  body,
  author,
  created_at: '2024-05-01T10:00:00Z',
  updated_at: '2024-05-01T10:00:00Z',
  system: false,
  type: null,
  ...extra,
})
const LINE_THREAD = {
  id: 'd'.repeat(40),
  individual_note: false,
  notes: [note(90, 'About line 2', { type: 'DiffNote', position: position(2) })],
}
const GENERAL_THREAD = { id: 'e'.repeat(40), individual_note: true, notes: [note(91, 'Nice commit')] }

function entry(id: number, state: OutboxState, mutation: OutboxEntry['mutation']): OutboxEntry {
  return {
    id,
    accountId: 'acc',
    target: { type: 'commit', projectId: 5, sha: SHA },
    mutation,
    base: null,
    state,
    reason: state === 'failed' ? 'The server refused this change as invalid: “line_code is invalid”.' : null,
    status: state === 'failed' ? 400 : null,
    conflict: null,
    attempts: 1,
    blockedBy: null,
    createdAt: '2024-05-02T10:00:00Z',
    updatedAt: '2024-05-02T10:00:00Z',
    sentAt: null,
    settledAt: null,
  }
}

type ReviewProps = InstanceType<typeof RepositoryCommitReview>['$props']

function mountReview(threads: unknown[] = [LINE_THREAD, GENERAL_THREAD], props: Partial<ReviewProps> = {}) {
  const transport = fakeTransport({
    'api:get': { ok: true, result: { status: 200, body: threads, source: 'server', stale: false, fetchedAt: null } },
    'commits:comment': (_account, request) => ({ ok: true, result: entry(40, 'queued', request as never) }),
    'outbox:retry': { ok: true, result: entry(41, 'queued', { kind: 'comment', body: 'x' }) },
  })
  const wrapper = mount(RepositoryCommitReview, {
    props: { accountId: 'acc', projectId: 5, commit: COMMIT, files: [DIFF], overflow: false, ...props },
    global: { provide: { [bridgeKey as symbol]: transport.bridge } },
    attachTo: document.body,
  })
  return { wrapper, transport }
}

const requests = (t: ReturnType<typeof fakeTransport>, channel: string) =>
  t.calls.filter((c) => c.channel === channel).map((c) => c.args[1])

/** The row right under the line with `anchor` (where its threads and the form show). */
function under(wrapper: ReturnType<typeof mount>, anchor: string) {
  const rows = wrapper.findAll('.common-virtual-list__row')
  const at = rows.findIndex((r) => r.find(`[data-anchor="${anchor}"]`).exists())
  return rows[at + 1]
}

/** Presses the `+` of the line with `anchor`, writes `body` in the form that opens and comments at once. */
async function commentOn(wrapper: ReturnType<typeof mount>, anchor: string, body: string): Promise<void> {
  const plus = wrapper.find(`[data-anchor="${anchor}"] [data-testid="review-add-comment"]`)
  await plus.trigger('mousedown', { button: 0 })
  plus.element.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }))
  await flushPromises()
  const form = wrapper.find('[data-testid="review-composer"]')
  await form.find('textarea').setValue(body)
  await form.find('[data-testid="review-composer-now"]').trigger('click')
  await flushPromises()
}

describe('comments in the commit view', () => {
  it('shows a line thread under its line, and every thread in the list below', async () => {
    const { wrapper, transport } = mountReview()
    await flushPromises()
    expect(requests(transport, 'api:get')).toEqual([`/projects/5/repository/commits/${SHA}/discussions`])
    expect(under(wrapper, 'src/app.ts::2').find('[data-testid="review-thread"]').text()).toContain('About line 2')
    const list = wrapper.findAll('[data-testid="commit-thread"]')
    expect(list.map((t) => t.text())).toEqual([
      expect.stringContaining('About line 2'),
      expect.stringContaining('Nice commit'),
    ])
    expect(list[0].find('[data-testid="commit-note-line"]').text()).toBe('src/app.ts:2')
    wrapper.unmount()
  })

  it('a line’s + opens the form under it, without a review; Comment queues it with the position on the commit’s diff', async () => {
    const { wrapper, transport } = mountReview([])
    await flushPromises()
    const plus = wrapper.find('[data-anchor="src/app.ts::2"] [data-testid="review-add-comment"]')
    await plus.trigger('mousedown', { button: 0 })
    plus.element.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }))
    await flushPromises()
    const form = wrapper.find('[data-testid="review-composer"]')
    expect(form.text()).toContain('Comment on line 2')
    expect(form.find('[data-testid="review-composer-review"]').exists()).toBe(false)
    await form.find('textarea').setValue('Why deux?')
    await form.find('[data-testid="review-composer-now"]').trigger('click')
    await flushPromises()
    expect(requests(transport, 'commits:comment')).toEqual([
      { projectId: 5, sha: SHA, body: 'Why deux?', position: position(2) },
    ])
    expect(wrapper.find('[data-testid="review-composer"]').exists()).toBe(false)
    wrapper.unmount()
  })

  it('a root commit takes line comments too, positioned as GitLab does: base and start the blank ref', async () => {
    const ROOT_DIFF = { ...DIFF, old_path: 'src/app.ts', new_file: true, diff: '@@ -0,0 +1,2 @@\n+one\n+two\n' }
    const { wrapper, transport } = mountReview([], { commit: { ...COMMIT, parent_ids: [] }, files: [ROOT_DIFF] })
    await flushPromises()
    expect(wrapper.find('[data-testid="commit-diff-summary"]').text()).toContain("press a line's +")
    await commentOn(wrapper, 'src/app.ts::2', 'Why two?')
    const blank = '0'.repeat(40)
    expect(requests(transport, 'commits:comment')).toEqual([
      { projectId: 5, sha: SHA, body: 'Why two?', position: { ...position(2), base_sha: blank, start_sha: blank } },
    ])
    wrapper.unmount()
  })

  it('shows the diff side by side with the merge request’s toggle (the same kept choice), threads and comments in place', async () => {
    const { wrapper, transport } = mountReview()
    await flushPromises()
    expect(wrapper.find('[data-testid="review-diff"]').attributes('data-mode')).toBe('unified')
    await wrapper.find('[data-testid="review-mode-split"]').trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="review-diff"]').attributes('data-mode')).toBe('split')
    // The removed line and the added one side by side in one row.
    const pair = wrapper.findAll('.review-row--pair').find((r) => r.text().includes('deux'))
    expect(pair?.text()).toContain('two')
    expect(localStorage.getItem('burrow.review-mode')).toContain('split')
    expect(under(wrapper, 'src/app.ts::2').find('[data-testid="review-thread"]').text()).toContain('About line 2')
    await commentOn(wrapper, 'src/app.ts::2', 'Side by side')
    expect(requests(transport, 'commits:comment')).toEqual([
      { projectId: 5, sha: SHA, body: 'Side by side', position: position(2) },
    ])
    wrapper.unmount()
    localStorage.removeItem('burrow.review-mode')
  })

  it('comments the outbox holds show in place with their state; a refused one keeps its reason with Retry', async () => {
    const { wrapper, transport } = mountReview()
    await flushPromises()
    transport.emit('outbox:did-change', {
      entry: entry(41, 'queued', { kind: 'comment', body: 'Offline line note', position: position(2) as never }),
    })
    transport.emit('outbox:did-change', {
      entry: entry(42, 'queued', { kind: 'reply', discussionId: GENERAL_THREAD.id, body: 'Offline reply' }),
    })
    transport.emit('outbox:did-change', { entry: entry(43, 'failed', { kind: 'comment', body: 'Refused note' }) })
    transport.emit('outbox:did-change', {
      entry: entry(44, 'queued', { kind: 'reply', discussionId: LINE_THREAD.id, body: 'Offline line reply' }),
    })
    await flushPromises()

    const inDiff = under(wrapper, 'src/app.ts::2').findAll('[data-testid="review-thread"]')
    expect(inDiff.map((t) => t.text())).toEqual([
      expect.stringContaining('About line 2'),
      expect.stringContaining('Offline line note'),
    ])
    expect(inDiff[1].find('[data-testid="pending-marker"]').text()).toBe('Pending')
    // A reply on its way shows in its line thread too, pending.
    const replyInDiff = inDiff[0].findAll('[data-testid="review-thread-note"]')
    expect(replyInDiff.map((n) => n.text())).toEqual([
      expect.stringContaining('About line 2'),
      expect.stringContaining('Offline line reply'),
    ])
    expect(replyInDiff[1].find('[data-testid="pending-marker"]').exists()).toBe(true)

    const reply = wrapper.findAll('[data-testid="commit-thread"]')[1].find('[data-testid="commit-pending-note"]')
    expect(reply.text()).toContain('Offline reply')
    expect(reply.find('[data-testid="pending-marker"]').text()).toBe('Pending')

    const started = wrapper.findAll('[data-testid="commit-pending-thread"]').map((t) => t.text())
    expect(started).toEqual([expect.stringContaining('Offline line note'), expect.stringContaining('Refused note')])
    const failed = wrapper.find('[data-state="failed"]')
    expect(failed.find('[data-testid="pending-marker"]').text()).toBe('Not sent')
    expect(failed.find('[data-testid="commit-pending-reason"]').text()).toContain('line_code is invalid')
    await failed.find('[data-testid="commit-pending-retry"]').trigger('click')
    await flushPromises()
    expect(transport.calls.filter((c) => c.channel === 'outbox:retry').map((c) => c.args[0])).toEqual([43])
    wrapper.unmount()
  })

  it('once a pending comment lands, the threads are read again and it shows as the server’s, with no gap between', async () => {
    const { wrapper, transport, server } = mountWithServer([])
    await flushPromises()
    const queued = entry(44, 'queued', { kind: 'comment', body: 'On its way' })
    transport.emit('outbox:did-change', { entry: queued })
    await flushPromises()
    expect(wrapper.find('[data-testid="commit-pending-thread"]').text()).toContain('On its way')
    expect(requests(transport, 'api:get')).toHaveLength(1)

    server.threads = [{ id: 'f'.repeat(40), individual_note: true, notes: [note(92, 'On its way')] }]
    server.hold = true
    transport.emit('outbox:did-change', { entry: { ...queued, state: 'done', settledAt: '2024-05-02T10:00:01Z' } })
    await flushPromises()
    expect(requests(transport, 'api:get')).toHaveLength(2)
    // While the threads are read again the comment keeps its place, marked sent.
    const sent = wrapper.find('[data-testid="commit-pending-thread"]')
    expect(sent.text()).toContain('On its way')
    expect(sent.find('[data-testid="pending-marker"]').text()).toBe('Sent')

    server.release()
    await flushPromises()
    expect(wrapper.find('[data-testid="commit-pending-thread"]').exists()).toBe(false)
    expect(wrapper.findAll('[data-testid="commit-thread"]').map((t) => t.text())).toEqual([
      expect.stringContaining('On its way'),
    ])
    wrapper.unmount()
  })

  it('a line comment that landed as the network dropped stays under its line until the threads are read with it', async () => {
    const { wrapper, transport, server } = mountWithServer([])
    await flushPromises()
    const queued = entry(45, 'sending', { kind: 'comment', body: 'Landed late', position: position(2) as never })
    transport.emit('outbox:did-change', { entry: queued })
    await flushPromises()

    server.offline = true
    transport.emit('outbox:did-change', { entry: { ...queued, state: 'done', settledAt: '2024-05-02T10:00:01Z' } })
    await flushPromises()
    expect(requests(transport, 'api:get')).toHaveLength(2)
    const inDiff = () => under(wrapper, 'src/app.ts::2').findAll('[data-testid="review-thread"]')
    expect(inDiff().map((t) => t.text())).toEqual([expect.stringContaining('Landed late')])
    expect(wrapper.find('[data-testid="commit-pending-thread"] [data-testid="pending-marker"]').text()).toBe('Sent')

    // Back online, the threads read again hold it: shown once, as the server's line thread.
    server.offline = false
    server.threads = [
      {
        id: 'f'.repeat(40),
        individual_note: false,
        notes: [note(93, 'Landed late', { type: 'DiffNote', position: position(2) })],
      },
    ]
    await wrapper.find('[data-testid="commit-discussions"] .n-alert button').trigger('click')
    await flushPromises()
    expect(inDiff().map((t) => t.text())).toEqual([expect.stringContaining('Landed late')])
    expect(inDiff()[0].find('[data-testid="pending-marker"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="commit-pending-thread"]').exists()).toBe(false)
    wrapper.unmount()
  })
})

/** The review on a server whose threads the test sets, whose answer it can hold back, and which it can take offline. */
function mountWithServer(threads: unknown[]) {
  let waiting: (() => void)[] = []
  const server = {
    threads,
    hold: false,
    offline: false,
    release: () => {
      for (const go of waiting) go()
      waiting = []
    },
  }
  const answer = async (): Promise<IpcResponse> => {
    if (server.hold) await new Promise<void>((resolve) => waiting.push(resolve))
    if (server.offline) return { ok: false, error: { code: 'offline', message: 'The server cannot be reached.' } }
    return { ok: true, result: { status: 200, body: server.threads, source: 'server', stale: false, fetchedAt: null } }
  }
  const transport = fakeTransport({ 'api:get': answer })
  const wrapper = mount(RepositoryCommitReview, {
    props: { accountId: 'acc', projectId: 5, commit: COMMIT, files: [DIFF], overflow: false },
    global: { provide: { [bridgeKey as symbol]: transport.bridge } },
    attachTo: document.body,
  })
  return { wrapper, transport, server }
}
