// @vitest-environment jsdom
import { flushPromises, mount } from '@vue/test-utils'
import { nextTick } from 'vue'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import ReviewChanges from '../../../src/renderer/components/review/ReviewChanges.vue'
import ReviewDiff from '../../../src/renderer/components/review/ReviewDiff.vue'
import WorkDiscussions from '../../../src/renderer/components/work/WorkDiscussions.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import { parseDiffFile } from '../../../src/renderer/lib/diff'
import { reviewRows } from '../../../src/renderer/lib/review'
import type { CachedDiscussion } from '../../../src/shared/ipc/cache'
import type { OutboxEntry } from '../../../src/shared/ipc/outbox'
import type { IpcResponse } from '../../../src/shared/ipc/contract'
import type { ReviewDraft } from '../../../src/shared/ipc/review'
import { fakeTransport } from '../support/fake-bridge'
import { wire } from '../../helpers/wire'

beforeEach(() => setActivePinia(createPinia()))

const REFS = { base_sha: 'a'.repeat(40), start_sha: 'a'.repeat(40), head_sha: 'c'.repeat(40) }
const DIFF = {
  old_path: 'src/app.ts',
  new_path: 'src/app.ts',
  new_file: false,
  renamed_file: false,
  deleted_file: false,
  diff: '@@ -1,3 +1,3 @@\n one\n-two\n+deux\n three\n',
}
const author = { id: 7, name: 'Rita Reviewer', username: 'rita', avatar_url: null }

/** A line thread as the server gives it: its first note a DiffNote positioned on `new_line` of the diff at `head`. */
function thread(id: string, newLine: number, head: string, resolved = false, base = REFS.base_sha): CachedDiscussion {
  const position = {
    ...REFS,
    base_sha: base,
    start_sha: base,
    head_sha: head,
    position_type: 'text' as const,
    old_path: 'src/app.ts',
    new_path: 'src/app.ts',
    old_line: null,
    new_line: newLine,
  }
  const note = wire('note', {
    id: 90,
    type: 'DiffNote',
    body: `About line ${newLine}`,
    author,
    created_at: '2024-05-01T10:00:00Z',
    updated_at: '2024-05-01T10:00:00Z',
    system: false,
    resolvable: true,
    resolved,
    position,
  })
  return { id, individual_note: false, notes: [{ data: note, pending: false }] }
}

function mountChanges(
  discussions: CachedDiscussion[],
  drafts: ReviewDraft[] = [],
  answers: Parameters<typeof fakeTransport>[0] = {},
) {
  let stored = [...drafts]
  const transport = fakeTransport({
    'repos:merge-request-changes': {
      ok: true,
      result: {
        source: 'server',
        stale: false,
        fetchedAt: null,
        diffs: [DIFF],
        overflow: false,
        headSha: REFS.head_sha,
      },
    },
    'reviews:drafts': () => ({ ok: true, result: { drafts: stored, serverRead: true } }),
    'reviews:add-draft': (_account, request) => {
      const r = request as { note: string; position?: ReviewDraft['position']; discussionId?: string }
      const draft: ReviewDraft = {
        id: `server-${stored.length + 1}`,
        source: 'server',
        note: r.note,
        position: r.position ?? null,
        discussionId: r.discussionId ?? null,
      }
      stored = [...stored, draft]
      return { ok: true, result: draft }
    },
    'reviews:submit': { ok: true, result: { id: 5 } },
    'merge-requests:comment': { ok: true, result: { id: 4 } },
    'api:send': { ok: true, result: { status: 200, body: {} } },
    ...answers,
  })
  const wrapper = mount(ReviewChanges, {
    props: { accountId: 'acc', projectId: 5, iid: 12, sha: REFS.head_sha, discussions, diffRefs: REFS },
    global: { provide: { [bridgeKey as symbol]: transport.bridge } },
    attachTo: document.body,
  })
  return { wrapper, transport }
}

const request = (t: ReturnType<typeof fakeTransport>, channel: string) =>
  t.calls.filter((c) => c.channel === channel).map((c) => c.args[1])

/** Presses the `+` of the line with `anchor` and lets go over the line with `to`. */
async function drag(wrapper: ReturnType<typeof mount>, anchor: string, to = anchor): Promise<void> {
  const button = wrapper.find(`[data-anchor="${anchor}"] [data-testid="review-add-comment"]`)
  await button.trigger('mousedown', { button: 0 })
  const end = wrapper.find(`[data-anchor="${to}"] .review-row__code`).element
  end.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }))
  await flushPromises()
}

describe('line comments in the review', () => {
  it('shows a thread of this version under its line with resolve, and an outdated one not in place', async () => {
    const { wrapper, transport } = mountChanges([
      thread('d'.repeat(40), 2, REFS.head_sha),
      thread('e'.repeat(40), 3, 'f'.repeat(40)),
    ])
    await flushPromises()
    const threads = wrapper.findAll('[data-testid="review-thread"]')
    expect(threads).toHaveLength(1)
    expect(threads[0].text()).toContain('About line 2')
    // The slot row sits right under the line it is about.
    const rows = wrapper.findAll('.common-virtual-list__row')
    const at = rows.findIndex((r) => r.find('[data-anchor="src/app.ts::2"]').exists())
    expect(rows[at + 1].find('[data-testid="review-thread"]').exists()).toBe(true)

    await threads[0].find('[data-testid="review-resolve"]').trigger('click')
    await flushPromises()
    expect(request(transport, 'api:send')).toEqual([
      {
        method: 'PUT',
        path: `/projects/5/merge_requests/12/discussions/${'d'.repeat(40)}`,
        body: { resolved: true },
      },
    ])
    wrapper.unmount()
  })

  it('opening the comment form under a line redraws no other row: the rows below it keep their elements', async () => {
    const { wrapper } = mountChanges([])
    await flushPromises()
    const below = wrapper.find('[data-anchor="src/app.ts:3:3"]').element
    const header = wrapper.find('[data-testid="review-file-header"]').element
    await drag(wrapper, 'src/app.ts::2')
    expect(wrapper.find('[data-testid="review-composer"]').exists()).toBe(true)
    expect(wrapper.find('[data-anchor="src/app.ts:3:3"]').element).toBe(below)
    expect(wrapper.find('[data-testid="review-file-header"]').element).toBe(header)
    wrapper.unmount()
  })

  it('a thread the server carried to this version from an older one shows at the line it moved to', async () => {
    const carried = thread('d'.repeat(40), 2, REFS.head_sha)
    const note = carried.notes[0].data
    const moved = wire('note', {
      ...note,
      original_position: { ...note.position, head_sha: 'f'.repeat(40), new_line: 5 },
    })
    const { wrapper } = mountChanges([{ ...carried, notes: [{ data: moved, pending: false }] }])
    await flushPromises()
    const rows = wrapper.findAll('.common-virtual-list__row')
    const at = rows.findIndex((r) => r.find('[data-anchor="src/app.ts::2"]').exists())
    expect(rows[at + 1].find('[data-testid="review-thread"]').text()).toContain('About line 2')
    wrapper.unmount()
  })

  it('a reply added to the review is a draft in that thread, shown there as part of the pending review', async () => {
    const id = 'd'.repeat(40)
    const { wrapper, transport } = mountChanges([thread(id, 2, REFS.head_sha)])
    await flushPromises()
    const threadEl = () => wrapper.find('[data-testid="review-thread"]')
    await threadEl().find('[data-testid="review-reply"]').trigger('click')
    await threadEl().find('[data-testid="review-reply-body"] textarea').setValue('Same below')
    expect(threadEl().find('[data-testid="review-reply-review"]').text()).toBe('Start a review')
    await threadEl().find('[data-testid="review-reply-review"]').trigger('click')
    await flushPromises()
    expect(request(transport, 'reviews:add-draft')).toEqual([
      { projectId: 5, iid: 12, note: 'Same below', discussionId: id },
    ])
    expect(request(transport, 'merge-requests:comment')).toEqual([])
    const draft = threadEl().find('[data-testid="review-draft"]')
    expect(draft.text()).toContain('Same below')
    expect(draft.text()).toContain('Pending review')
    // Once only: not also as a comment on a line.
    expect(wrapper.findAll('[data-testid="review-draft"]')).toHaveLength(1)
    wrapper.unmount()
  })

  it('the + of a line opens the form under it; "Add comment now" sends the line’s position on this version', async () => {
    const { wrapper, transport } = mountChanges([])
    await flushPromises()
    await drag(wrapper, 'src/app.ts:2:')
    const form = wrapper.find('[data-testid="review-composer"]')
    expect(form.text()).toContain('Comment on line −2')
    await form.find('textarea').setValue('Why remove it?')
    await form.find('[data-testid="review-composer-now"]').trigger('click')
    await flushPromises()
    expect(request(transport, 'merge-requests:comment')).toEqual([
      {
        projectId: 5,
        iid: 12,
        body: 'Why remove it?',
        position: {
          position_type: 'text',
          ...REFS,
          old_path: 'src/app.ts',
          new_path: 'src/app.ts',
          old_line: 2,
          new_line: null,
        },
      },
    ])
    expect(wrapper.find('[data-testid="review-composer"]').exists()).toBe(false)
    wrapper.unmount()
  })

  it('a line comment shows under its line at once, pending, before core has it; the server’s thread then takes its place', async () => {
    let answer: (value: IpcResponse) => void = () => undefined
    const queued = new Promise<IpcResponse>((resolve) => (answer = resolve))
    const { wrapper } = mountChanges([], [], { 'merge-requests:comment': () => queued })
    await flushPromises()
    await drag(wrapper, 'src/app.ts::2')
    await wrapper.find('[data-testid="review-composer"] textarea').setValue('Deux?')
    await wrapper.find('[data-testid="review-composer-now"]').trigger('click')
    await nextTick()
    // Core has not answered: the comment is under its line already, pending, and the form is closed.
    const rows = wrapper.findAll('.common-virtual-list__row')
    const at = rows.findIndex((r) => r.find('[data-anchor="src/app.ts::2"]').exists())
    const sent = rows[at + 1].find('[data-testid="review-thread"]')
    expect(sent.text()).toContain('Deux?')
    expect(sent.find('[data-testid="pending-marker"]').exists()).toBe(true)
    expect(wrapper.find('[data-testid="review-composer"]').exists()).toBe(false)

    answer({ ok: true, result: { id: 4 } })
    const landed = thread('d'.repeat(40), 2, REFS.head_sha)
    const note = { ...landed.notes[0].data, body: 'Deux?' }
    await wrapper.setProps({ discussions: [{ ...landed, notes: [{ data: note, pending: false }] }] })
    await flushPromises()
    const threads = wrapper.findAll('[data-testid="review-thread"]')
    expect(threads.map((t) => t.attributes('data-discussion'))).toEqual(['d'.repeat(40)])
    expect(threads[0].find('[data-testid="pending-marker"]').exists()).toBe(false)
    wrapper.unmount()
  })

  it('a line comment refused leaves the line, and the form opens again with its text and the reason', async () => {
    const { wrapper } = mountChanges([], [], {
      'merge-requests:comment': { ok: false, error: { code: 'invalid-request', message: 'The comment is too long' } },
    })
    await flushPromises()
    await drag(wrapper, 'src/app.ts::2')
    await wrapper.find('[data-testid="review-composer"] textarea').setValue('Deux?')
    await wrapper.find('[data-testid="review-composer-now"]').trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="review-thread"]').exists()).toBe(false)
    const form = wrapper.find('[data-testid="review-composer"]')
    expect((form.find('textarea').element as HTMLTextAreaElement).value).toBe('Deux?')
    expect(wrapper.text()).toContain('The comment is too long')
    wrapper.unmount()
  })

  it('a drag over lines starts a review with a line range; the draft shows in place and the bar submits it with approval', async () => {
    const { wrapper, transport } = mountChanges([])
    await flushPromises()
    await drag(wrapper, 'src/app.ts:1:1', 'src/app.ts::2')
    const form = wrapper.find('[data-testid="review-composer"]')
    expect(form.text()).toContain('Comment on lines 1 to 2')
    await form.find('textarea').setValue('These two')
    expect(form.find('[data-testid="review-composer-review"]').text()).toBe('Start a review')
    await form.find('[data-testid="review-composer-review"]').trigger('click')
    await flushPromises()
    const [added] = request(transport, 'reviews:add-draft') as { position: unknown }[]
    expect(added.position).toEqual({
      position_type: 'text',
      ...REFS,
      old_path: 'src/app.ts',
      new_path: 'src/app.ts',
      old_line: null,
      new_line: 2,
      line_range: {
        start: { type: null, old_line: 1, new_line: 1 },
        end: { type: 'new', old_line: null, new_line: 2 },
      },
    })
    expect(wrapper.find('[data-testid="review-draft"]').text()).toContain('These two')
    expect(wrapper.find('[data-testid="review-composer"]').exists()).toBe(false)
    expect(wrapper.get('[data-testid="review-count"]').text()).toContain('Pending review: 1 comment')

    await wrapper.get('[data-testid="review-approve"]').trigger('click')
    await wrapper.get('[data-testid="review-submit"]').trigger('click')
    await flushPromises()
    expect(request(transport, 'reviews:submit')).toEqual([{ projectId: 5, iid: 12, approveSha: REFS.head_sha }])
    wrapper.unmount()
  })

  it('once a line comment lands, the page reads the discussions again (the thread gets its real id)', async () => {
    const { wrapper, transport } = mountChanges([])
    await flushPromises()
    const entry = {
      id: 9,
      accountId: 'acc',
      target: { type: 'merge_request', projectId: 5, iid: 12 },
      mutation: { kind: 'comment', body: 'x', position: { ...REFS, new_line: 2 } },
      state: 'queued',
    } as unknown as OutboxEntry
    transport.emit('outbox:did-change', { entry })
    await flushPromises()
    expect(wrapper.emitted('changed')).toBeUndefined()
    transport.emit('outbox:did-change', { entry: { ...entry, state: 'done' } })
    await flushPromises()
    expect(wrapper.emitted('changed')).toHaveLength(1)
    wrapper.unmount()
  })

  it('without the diff version no line can be commented on', async () => {
    const { wrapper } = mountChanges([])
    await wrapper.setProps({ diffRefs: null })
    await flushPromises()
    expect(wrapper.find('[data-testid="review-add-comment"]').exists()).toBe(false)
    wrapper.unmount()
  })
})

describe('the review diff', () => {
  it('a keyboard press of + comments on that line alone; a press let go on another file’s line stays on its own', async () => {
    const files = [parseDiffFile(DIFF), parseDiffFile({ ...DIFF, old_path: 'b.ts', new_path: 'b.ts' })]
    const { rows } = reviewRows(files, [0, 1], { mode: 'split', collapsed: () => false, expandedLarge: () => false })
    const wrapper = mount(ReviewDiff, {
      props: { files, rows, mode: 'split', viewed: new Set<string>(), collapsed: new Set<number>(), commentable: true },
      attachTo: document.body,
    })
    const plus = wrapper.findAll('[data-anchor="src/app.ts:3:3"] [data-testid="review-add-comment"]')
    expect(plus).toHaveLength(2)
    plus[0].element.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 0 }))
    await plus[1].trigger('mousedown', { button: 0 })
    wrapper
      .find('[data-anchor="b.ts:1:1"] .review-row__code')
      .element.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }))
    expect(wrapper.emitted('comment')).toEqual([
      [0, 'src/app.ts:3:3', 'src/app.ts:3:3'],
      [0, 'src/app.ts:3:3', 'src/app.ts:3:3'],
    ])
    wrapper.unmount()
  })
})

describe('line threads in the discussion list', () => {
  it('name their file and line; an outdated one is marked and shows the lines it was written on, from its version', async () => {
    const old = 'f'.repeat(40)
    const transport = fakeTransport({
      'repos:compare': {
        ok: true,
        result: { diffs: [{ ...DIFF, diff: '@@ -1,3 +1,4 @@\n one\n-two\n+deux\n+trois\n three\n' }] },
      },
      'resource-events:list': { ok: true, result: [] },
    })
    const wrapper = mount(WorkDiscussions, {
      props: {
        kind: 'merge_request',
        accountId: 'acc',
        projectId: 5,
        iid: 12,
        discussions: [thread('d'.repeat(40), 2, REFS.head_sha), thread('e'.repeat(40), 3, old)],
        resolveReference: () => null,
        headSha: REFS.head_sha,
      },
      global: { provide: { [bridgeKey as symbol]: transport.bridge } },
    })
    await flushPromises()
    const contexts = wrapper.findAll('[data-testid="thread-context"]')
    expect(contexts.map((c) => c.find('.review-context__where').text())).toEqual([
      'src/app.ts · line 2',
      'src/app.ts · line 3 Outdated',
    ])
    expect(request(transport, 'repos:compare')).toEqual([
      { projectId: 5, from: REFS.base_sha, to: old, straight: true },
    ])
    expect(contexts[1].get('[data-testid="thread-snippet"]').text()).toBe('one\n− two\n+ deux\n+ trois')
    expect(contexts[0].find('[data-testid="thread-snippet"]').exists()).toBe(false)
  })

  it("read from the server's compare when the clone has not fetched that version", async () => {
    const old = 'f'.repeat(40)
    const transport = fakeTransport({
      'repos:compare': { ok: false, error: { code: 'not-found', message: 'unknown revision' } },
      'api:get': { ok: true, result: { body: { diffs: [DIFF] }, stale: false } },
      'resource-events:list': { ok: true, result: [] },
    })
    const wrapper = mount(WorkDiscussions, {
      props: {
        kind: 'merge_request',
        accountId: 'acc',
        projectId: 5,
        iid: 12,
        discussions: [thread('e'.repeat(40), 2, old)],
        resolveReference: () => null,
        headSha: REFS.head_sha,
      },
      global: { provide: { [bridgeKey as symbol]: transport.bridge } },
    })
    await flushPromises()
    const compares = transport.calls.filter((c) => c.channel === 'api:get' && String(c.args[1]).endsWith('/compare'))
    expect(compares.map((c) => c.args.slice(1))).toEqual([
      ['/projects/5/repository/compare', { from: REFS.base_sha, to: old, straight: true }],
    ])
    expect(wrapper.get('[data-testid="thread-snippet"]').text()).toBe('one\n− two\n+ deux')
  })
})

describe('one commit of the merge request in the review', () => {
  const COMMIT_SHA = 'b'.repeat(40)
  const PARENT_SHA = '9'.repeat(40)
  const COMMIT_DIFF = { ...DIFF, diff: '@@ -1,2 +1,2 @@\n one\n-two\n+zwei\n' }

  function mountWithCommits(discussions: CachedDiscussion[]) {
    const answer = (body: unknown) => ({
      ok: true as const,
      result: { status: 200, body, stale: false, fetchedAt: '2024-05-02T10:00:00Z', page: null },
    })
    return mountChanges(discussions, [], {
      // Read through the API, not the clone: a merge request's commits need not be in it.
      'api:get': (_account, path) =>
        path === '/projects/5/merge_requests/12/commits'
          ? answer([{ id: COMMIT_SHA, short_id: 'bbbbbbbb', title: 'Say zwei', author_name: 'Rita', created_at: '' }])
          : path === `/projects/5/repository/commits/${COMMIT_SHA}`
            ? answer({ id: COMMIT_SHA, parent_ids: [PARENT_SHA] })
            : answer([COMMIT_DIFF]),
    })
  }

  it('the picker shows one commit’s diff with its threads; a line comment there is the merge request’s, with commit_id', async () => {
    const onCommit = thread('f'.repeat(40), 2, COMMIT_SHA, false, PARENT_SHA)
    const { wrapper, transport } = mountWithCommits([thread('d'.repeat(40), 2, REFS.head_sha), onCommit])
    await flushPromises()
    expect(request(transport, 'api:get')).toEqual(['/projects/5/merge_requests/12/commits'])
    expect(wrapper.findAll('[data-testid="review-thread"]').map((t) => t.attributes('data-discussion'))).toEqual([
      'd'.repeat(40),
    ])

    wrapper.findComponent({ name: 'Select' }).vm.$emit('update:value', COMMIT_SHA)
    await flushPromises()
    expect(request(transport, 'api:get').slice(1)).toEqual([
      `/projects/5/repository/commits/${COMMIT_SHA}`,
      `/projects/5/repository/commits/${COMMIT_SHA}/diff`,
    ])
    expect(wrapper.find('[data-anchor="src/app.ts::2"]').text()).toContain('zwei')
    // Threads written on this commit show in place; the merge request's latest version's do not.
    expect(wrapper.findAll('[data-testid="review-thread"]').map((t) => t.attributes('data-discussion'))).toEqual([
      'f'.repeat(40),
    ])

    await drag(wrapper, 'src/app.ts::2')
    const form = wrapper.find('[data-testid="review-composer"]')
    // No pending review on one commit: the comment goes out at once.
    expect(form.find('[data-testid="review-composer-review"]').exists()).toBe(false)
    await form.find('textarea').setValue('Zwei?')
    await form.find('[data-testid="review-composer-now"]').trigger('click')
    await flushPromises()
    expect(request(transport, 'merge-requests:comment')).toEqual([
      {
        projectId: 5,
        iid: 12,
        body: 'Zwei?',
        position: {
          position_type: 'text',
          base_sha: PARENT_SHA,
          start_sha: PARENT_SHA,
          head_sha: COMMIT_SHA,
          old_path: 'src/app.ts',
          new_path: 'src/app.ts',
          old_line: null,
          new_line: 2,
        },
        commitId: COMMIT_SHA,
      },
    ])

    wrapper.findComponent({ name: 'Select' }).vm.$emit('update:value', '')
    await flushPromises()
    expect(wrapper.find('[data-anchor="src/app.ts::2"]').text()).toContain('deux')
    wrapper.unmount()
  })
})

describe('a range of the merge request’s commits in the review', () => {
  // Commits newest first: the head, a middle one, the first (on the merge request's base).
  const [HEAD, MIDDLE, FIRST] = [REFS.head_sha, '2'.repeat(40), '1'.repeat(40)]
  const COMMITS = [
    { id: HEAD, short_id: 'cccccccc', title: 'Say drei', parent_ids: [MIDDLE] },
    { id: MIDDLE, short_id: '22222222', title: 'Say zwei', parent_ids: [FIRST] },
    { id: FIRST, short_id: '11111111', title: 'Say eins', parent_ids: [REFS.base_sha] },
  ].map((c) => ({ ...c, author_name: 'Rita', created_at: '' }))
  const RANGE_DIFF = { ...DIFF, diff: '@@ -1,3 +1,3 @@\n one\n-two\n+drei\n three\n' }
  const answer = (body: unknown) => ({
    ok: true as const,
    result: { status: 200, body, stale: false, fetchedAt: '2024-05-02T10:00:00Z', page: null },
  })

  function mountWithRange(discussions: CachedDiscussion[], compare: Parameters<typeof fakeTransport>[0] = {}) {
    const mounted = mountChanges(discussions, [], {
      'api:get': (_account, path) =>
        path === '/projects/5/merge_requests/12/commits'
          ? answer(COMMITS)
          : path === '/projects/5/repository/compare'
            ? answer({ diffs: [RANGE_DIFF], compare_timeout: false })
            : answer(null),
      ...compare,
    })
    // The start picker, once the changes are drawn.
    const start = () => mounted.wrapper.findAllComponents({ name: 'Select' })[0]
    return { ...mounted, start }
  }
  const end = (wrapper: ReturnType<typeof mount>) =>
    wrapper.findAllComponents({ name: 'Select' }).find((s) => s.attributes('data-testid') === 'review-range-end-select')

  it('picked from a commit through a newer one: its straight compare, its threads, a comment at its refs', async () => {
    const onRange = thread('f'.repeat(40), 2, HEAD, false, FIRST)
    const onHeadCommit = thread('e'.repeat(40), 2, HEAD, false, MIDDLE)
    const { wrapper, transport, start } = mountWithRange([thread('d'.repeat(40), 2, HEAD), onRange, onHeadCommit])
    await flushPromises()
    expect(end(wrapper)).toBeUndefined()

    start().vm.$emit('update:value', MIDDLE)
    await flushPromises()
    // The end picker offers the start alone and each newer commit.
    const picker = end(wrapper)
    expect(picker?.props('value')).toBe(MIDDLE)
    expect((picker?.props('options') as { label: string }[]).map((o) => o.label)).toEqual([
      'Through cccccccc Say drei',
      'This commit only',
    ])
    picker?.vm.$emit('update:value', HEAD)
    await flushPromises()
    const gets = transport.calls.filter((c) => c.channel === 'api:get')
    expect(gets.at(-1)?.args.slice(1)).toEqual([
      '/projects/5/repository/compare',
      { from: FIRST, to: HEAD, straight: true },
    ])
    expect(wrapper.find('[data-anchor="src/app.ts::2"]').text()).toContain('drei')
    // Only the thread written on this range shows in place: not the merge request's, not the head commit's.
    expect(wrapper.findAll('[data-testid="review-thread"]').map((t) => t.attributes('data-discussion'))).toEqual([
      'f'.repeat(40),
    ])

    await drag(wrapper, 'src/app.ts:1:1', 'src/app.ts::2')
    const form = wrapper.find('[data-testid="review-composer"]')
    expect(form.find('[data-testid="review-composer-review"]').exists()).toBe(false)
    await form.find('textarea').setValue('Drei?')
    await form.find('[data-testid="review-composer-now"]').trigger('click')
    await flushPromises()
    // Positioned on the range's refs, with no commit_id: it is not one commit's thread.
    expect(request(transport, 'merge-requests:comment')).toEqual([
      {
        projectId: 5,
        iid: 12,
        body: 'Drei?',
        position: {
          position_type: 'text',
          base_sha: FIRST,
          start_sha: FIRST,
          head_sha: HEAD,
          old_path: 'src/app.ts',
          new_path: 'src/app.ts',
          old_line: null,
          new_line: 2,
          line_range: {
            start: { type: null, old_line: 1, new_line: 1 },
            end: { type: 'new', old_line: null, new_line: 2 },
          },
        },
      },
    ])
    wrapper.unmount()
  })

  it('picked from the first commit through the head: all the changes, at the merge request’s refs', async () => {
    const { wrapper, start } = mountWithRange([])
    await flushPromises()
    start().vm.$emit('update:value', FIRST)
    await flushPromises()
    end(wrapper)?.vm.$emit('update:value', HEAD)
    await flushPromises()
    expect(start().props('value')).toBe('')
    expect(end(wrapper)).toBeUndefined()
    expect(wrapper.find('[data-anchor="src/app.ts::2"]').text()).toContain('deux')
    wrapper.unmount()
  })

  it('offline with nothing saved, a commit and a range are computed from the clone', async () => {
    const { wrapper, transport, start } = mountWithRange([], {
      'api:get': (_account, path) =>
        path === '/projects/5/merge_requests/12/commits'
          ? answer(COMMITS)
          : { ok: false, error: { code: 'offline', message: 'Offline', details: { read: 'not-saved' } } },
      'repos:commit': {
        ok: true,
        result: {
          source: 'clone',
          stale: false,
          fetchedAt: '2024-05-02T09:00:00Z',
          commit: { id: MIDDLE, parent_ids: [FIRST] },
          diffs: [{ ...DIFF, a_mode: null, b_mode: null }],
          overflow: false,
        },
      },
      'repos:compare': {
        ok: true,
        result: {
          source: 'clone',
          stale: false,
          fetchedAt: '2024-05-02T09:00:00Z',
          from: FIRST,
          to: HEAD,
          mergeBase: null,
          commits: [],
          commitsTruncated: false,
          diffs: [{ ...RANGE_DIFF, a_mode: null, b_mode: null }],
          overflow: false,
        },
      },
    })
    await flushPromises()
    // One commit, then the range: each from the clone.
    start().vm.$emit('update:value', MIDDLE)
    await flushPromises()
    expect(request(transport, 'repos:commit')).toEqual([{ projectId: 5, sha: MIDDLE }])
    end(wrapper)?.vm.$emit('update:value', HEAD)
    await flushPromises()
    expect(request(transport, 'repos:compare')).toEqual([{ projectId: 5, from: FIRST, to: HEAD, straight: true }])
    expect(wrapper.find('[data-testid="review-source"]').attributes('data-source')).toBe('clone')
    expect(wrapper.find('[data-anchor="src/app.ts::2"]').text()).toContain('drei')
    wrapper.unmount()
  })
})
