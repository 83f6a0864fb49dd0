// @vitest-environment jsdom
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import WorkDiscussions from '../../../src/renderer/components/work/WorkDiscussions.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import type { CachedDiscussion } from '../../../src/shared/ipc/cache'
import { fakeTransport } from '../support/fake-bridge'
import { wire } from '../../helpers/wire'

beforeEach(() => setActivePinia(createPinia()))

const author = {
  id: 7,
  name: 'Rita Reporter',
  username: 'rita',
  avatar_url: null,
  state: 'active',
  web_url: 'http://x/rita',
}
const note = (id: number, body: string, system: boolean) =>
  wire('note', {
    id,
    body,
    system,
    author,
    created_at: '2024-05-01T10:00:00Z',
    updated_at: '2024-05-01T10:00:00Z',
    type: null,
    noteable_type: 'Issue',
  })
const discussion = (id: string, notes: ReturnType<typeof note>[], individual = true): CachedDiscussion => ({
  id,
  individual_note: individual,
  notes: notes.map((data) => ({ data, pending: false })),
})

function mountWith(discussions: CachedDiscussion[]) {
  const transport = fakeTransport({})
  return mount(WorkDiscussions, {
    props: { kind: 'issue', accountId: 'acc', projectId: 5, iid: 12, discussions, resolveReference: () => null },
    global: { provide: { [bridgeKey as symbol]: transport.bridge } },
  })
}

describe('WorkDiscussions system notes', () => {
  it('shows a system note as a one-line activity entry: icon, author, inline Markdown with GitLab’s diff markers, time; no actions', async () => {
    const wrapper = mountWith([
      discussion('a'.repeat(40), [
        note(1, 'changed title from **Crash on start** to **Crash on {+first +}start**', true),
      ]),
      discussion('b'.repeat(40), [note(2, 'assigned to @bob', true)]),
    ])
    await flushPromises()
    const entries = wrapper.findAll('[data-testid="system-note"]')
    expect(entries).toHaveLength(2)
    const title = entries[0]
    expect(title.find('svg.common-icon').exists()).toBe(true)
    expect(title.find('strong').text()).toBe('Rita Reporter')
    // Read as one sentence: spaces between the author, the change and the time.
    expect(entries[1].find('.work-system-note__text').text()).toMatch(/^Rita Reporter assigned to @bob · \S/)
    expect(title.find('.work-system-note__body').html()).toContain('<strong>Crash on <ins>first </ins>start</strong>')
    // Inline: no paragraph around one line.
    expect(title.find('.work-system-note__body p').exists()).toBe(false)
    expect(title.find('time.common-relative-time').attributes('datetime')).toBe('2024-05-01T10:00:00Z')
    // Not a comment: no note test id, no reply, and “No comments yet.” still holds.
    expect(wrapper.findAll('[data-testid="note"]')).toHaveLength(0)
    expect(wrapper.findAll('button').map((b) => b.text())).not.toContain('Reply')
    expect(wrapper.text()).toContain('No comments yet.')
  })

  it('sanitises a system note’s Markdown', async () => {
    const wrapper = mountWith([
      discussion('c'.repeat(40), [
        note(3, 'mentioned in <img src=x onerror="alert(1)"><script>alert(2)</script>[x](javascript:alert(3))', true),
      ]),
    ])
    await flushPromises()
    const html = wrapper.find('[data-testid="system-note"]').html()
    expect(html).not.toContain('onerror')
    expect(html).not.toContain('<script')
    expect(html).not.toContain('javascript:')
  })

  it('keeps comments as notes with their replies among the activity entries, in order', async () => {
    const wrapper = mountWith([
      discussion('d'.repeat(40), [note(4, 'changed the description', true)]),
      discussion('e'.repeat(40), [note(5, 'First **comment**', false), note(6, 'A reply', false)], false),
    ])
    await flushPromises()
    expect(wrapper.findAll('[data-testid="note"]').map((n) => n.text())).toEqual([
      expect.stringContaining('First comment'),
      expect.stringContaining('A reply'),
    ])
    expect(wrapper.findAll('[data-discussion]').map((d) => d.attributes('data-discussion')?.[0])).toEqual(['d', 'e'])
    expect(wrapper.text()).not.toContain('No comments yet.')
    expect(wrapper.findAll('button').filter((b) => b.text() === 'Reply')).toHaveLength(1)
  })
})

describe('WorkDiscussions comment box', () => {
  it('sends the comment on Ctrl+Enter or Cmd+Enter, not on Enter alone, through one keydown listener', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const transport = fakeTransport({})
    const pinia = createPinia()
    setActivePinia(pinia)
    const wrapper = mount(WorkDiscussions, {
      props: { kind: 'issue', accountId: 'acc', projectId: 5, iid: 12, discussions: [], resolveReference: () => null },
      // The item store reads the bridge from the app it is installed in.
      global: { plugins: [pinia], provide: { [bridgeKey as symbol]: transport.bridge } },
    })
    await flushPromises()
    const text = wrapper.find('[data-testid="comment-body"] textarea')
    // NInput listens for keys on its wrapper, which a real key press in the textarea reaches by bubbling.
    const box = wrapper.find('[data-testid="comment-body"]')
    await text.setValue('Looks good')
    const sends = () => transport.calls.filter((c) => JSON.stringify(c.args).includes('Looks good'))
    await box.trigger('keydown', { key: 'Enter' })
    await flushPromises()
    expect(sends()).toHaveLength(0)
    await box.trigger('keydown', { key: 'Enter', ctrlKey: true })
    await flushPromises()
    expect(sends()).toHaveLength(1)
    await text.setValue('Looks good')
    await box.trigger('keydown', { key: 'Enter', metaKey: true })
    await flushPromises()
    expect(sends()).toHaveLength(2)
    // Two @keydown modifiers on NInput reach it as an array, which its onKeydown prop refuses.
    expect(warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('onKeydown'))).toEqual([])
    warn.mockRestore()
  })
})

describe('WorkDiscussions review suggestions', () => {
  it('shows a note’s suggestion as its diff with its state, applied from Changes only', async () => {
    const suggestion = {
      id: 4,
      from_line: 2,
      to_line: 2,
      appliable: false,
      applied: true,
      from_content: 'beta\n',
      to_content: 'BETA\n',
      commit_id: 'abcdef0123456789abcdef0123456789abcdef01',
    }
    const applied = wire('note', { ...note(5, 'Louder:\n```suggestion\nBETA\n```', false), suggestions: [suggestion] })
    const open = wire('note', {
      ...note(6, '```suggestion\nGAMMA\n```', false),
      suggestions: [{ ...suggestion, id: 5, applied: false, appliable: true, to_content: 'GAMMA\n', commit_id: null }],
    })
    const wrapper = mountWith([discussion('d'.repeat(40), [applied]), discussion('e'.repeat(40), [open])])
    await flushPromises()
    const [first, second] = wrapper.findAll('[data-testid="review-suggestion"]')
    expect(first.find('[data-testid="review-suggestion-applied"]').text()).toBe('Applied')
    expect(first.text()).toContain('abcdef01')
    expect(first.find('[data-testid="suggestion-new-line"]').text()).toBe('2+BETA')
    expect(wrapper.find('[data-testid="note"]').text()).toContain('Louder:')
    expect(second.find('[data-testid="review-suggestion-apply"]').exists()).toBe(false)
    expect(second.text()).toContain('Apply it from Changes')
  })
})
