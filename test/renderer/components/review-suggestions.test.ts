// @vitest-environment jsdom
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import ReviewChanges from '../../../src/renderer/components/review/ReviewChanges.vue'
import { bridgeKey } from '../../../src/renderer/bridge'
import { useSyncStore } from '../../../src/renderer/stores/sync'
import type { Suggestion } from '../../../src/shared/api/suggestion'
import type { CachedDiscussion, SyncStatus } from '../../../src/shared/ipc/cache'
import { fakeTransport } from '../support/fake-bridge'
import { wire } from '../../helpers/wire'

/*
 * Review suggestions in the merge request's Changes (the real ReviewChanges, a fake transport:
 * Electron cannot run here): "Insert suggestion" in the line comment form, a note's suggestion
 * shown as its diff with its state, and Apply through the online-only channel.
 */

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

const SUGGESTION: Suggestion = {
  id: 31,
  from_line: 2,
  to_line: 2,
  appliable: true,
  applied: false,
  from_content: 'deux\n',
  to_content: 'DEUX\n',
  commit_id: null,
}

/** A thread on new line 2 whose note suggests `suggestion` (its body holds one suggestion block). */
function suggestionThread(suggestion: Suggestion = SUGGESTION): CachedDiscussion {
  const note = wire('note', {
    id: 90,
    type: 'DiffNote',
    body: 'Louder:\n```suggestion:-0+0\nDEUX\n```\nThanks.',
    author,
    created_at: '2024-05-01T10:00:00Z',
    updated_at: '2024-05-01T10:00:00Z',
    system: false,
    resolvable: true,
    resolved: false,
    position: {
      ...REFS,
      position_type: 'text' as const,
      old_path: 'src/app.ts',
      new_path: 'src/app.ts',
      old_line: null,
      new_line: 2,
    },
    suggestions: [suggestion],
  })
  return { id: 'd'.repeat(40), individual_note: false, notes: [{ data: note, pending: false }] }
}

function mountChanges(discussions: CachedDiscussion[], answers: Parameters<typeof fakeTransport>[0] = {}) {
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
    'reviews:drafts': { ok: true, result: { drafts: [], serverRead: true } },
    'merge-requests:apply-suggestion': { ok: true, result: { ...SUGGESTION, applied: true, appliable: false } },
    ...answers,
  })
  const wrapper = mount(ReviewChanges, {
    props: { accountId: 'acc', projectId: 5, iid: 12, sha: REFS.head_sha, discussions, diffRefs: REFS },
    global: { provide: { [bridgeKey as symbol]: transport.bridge } },
    attachTo: document.body,
  })
  return { wrapper, transport }
}

/** Presses the `+` of the line with `anchor` and lets go over the line with `to`. */
async function drag(wrapper: ReturnType<typeof mount>, anchor: string, to = anchor): Promise<void> {
  await wrapper.find(`[data-anchor="${anchor}"] [data-testid="review-add-comment"]`).trigger('mousedown', { button: 0 })
  wrapper
    .find(`[data-anchor="${to}"] .review-row__code`)
    .element.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }))
  await flushPromises()
}

const textarea = (wrapper: ReturnType<typeof mount>) =>
  wrapper.find('[data-testid="review-composer-body"] textarea').element as HTMLTextAreaElement

describe('Insert suggestion', () => {
  it('puts the commented added line in a suggestion block, the cursor at the end of the line', async () => {
    const { wrapper } = mountChanges([])
    await flushPromises()
    await drag(wrapper, 'src/app.ts::2')
    await wrapper.find('[data-testid="review-insert-suggestion"]').trigger('click')
    await flushPromises()
    const area = textarea(wrapper)
    expect(area.value).toBe('```suggestion:-0+0\ndeux\n```')
    expect(area.selectionStart).toBe('```suggestion:-0+0\ndeux'.length)
    expect(area.selectionEnd).toBe(area.selectionStart)
    wrapper.unmount()
  })

  it('for a range, holds the new side of every commented line (removed ones left out) and reaches -N lines up', async () => {
    const { wrapper } = mountChanges([])
    await flushPromises()
    await drag(wrapper, 'src/app.ts:1:1', 'src/app.ts:3:3')
    await wrapper.find('[data-testid="review-insert-suggestion"]').trigger('click')
    await flushPromises()
    expect(textarea(wrapper).value).toBe('```suggestion:-2+0\none\ndeux\nthree\n```')
    wrapper.unmount()
  })

  it('goes on a line of its own at the cursor, keeping what was written', async () => {
    const { wrapper } = mountChanges([])
    await flushPromises()
    await drag(wrapper, 'src/app.ts:3:3')
    await wrapper.find('[data-testid="review-composer-body"] textarea').setValue('Maybe:')
    await wrapper.find('[data-testid="review-insert-suggestion"]').trigger('click')
    await flushPromises()
    expect(textarea(wrapper).value).toBe('Maybe:\n```suggestion:-0+0\nthree\n```')
    wrapper.unmount()
  })

  it('is not offered on a removed line', async () => {
    const { wrapper } = mountChanges([])
    await flushPromises()
    await drag(wrapper, 'src/app.ts:2:')
    expect(wrapper.find('[data-testid="review-composer"]').exists()).toBe(true)
    expect(wrapper.find('[data-testid="review-insert-suggestion"]').exists()).toBe(false)
    wrapper.unmount()
  })
})

describe('a suggestion in a thread', () => {
  it('shows as the lines it replaces and the suggested ones, in place of its code block, between the note’s text', async () => {
    const { wrapper } = mountChanges([suggestionThread()])
    await flushPromises()
    const note = wrapper.find('[data-testid="review-thread-note"]')
    const shown = note.find('[data-testid="review-suggestion"]')
    expect(shown.findAll('[data-testid="suggestion-old-line"]').map((r) => r.text())).toEqual(['2−deux'])
    expect(shown.findAll('[data-testid="suggestion-new-line"]').map((r) => r.text())).toEqual(['2+DEUX'])
    expect(note.find('pre').exists()).toBe(false)
    expect(note.text()).not.toContain('```')
    const text = note.text()
    expect(text.indexOf('Louder:')).toBeLessThan(text.indexOf('Suggested change'))
    expect(text.indexOf('Suggested change')).toBeLessThan(text.indexOf('Thanks.'))
    wrapper.unmount()
  })

  it('Apply sends the suggestion through the online-only channel, then asks for the merge request to be read again', async () => {
    const { wrapper, transport } = mountChanges([suggestionThread()])
    await flushPromises()
    const apply = wrapper.find('[data-testid="review-suggestion-apply"]')
    expect(apply.attributes('disabled')).toBeUndefined()
    await apply.trigger('click')
    await flushPromises()
    expect(transport.calls.filter((c) => c.channel === 'merge-requests:apply-suggestion').map((c) => c.args)).toEqual([
      ['acc', { projectId: 5, iid: 12, suggestionId: 31 }],
    ])
    expect(wrapper.emitted('changed')).toHaveLength(1)
    wrapper.unmount()
  })

  it('shows the server’s refusal under the suggestion as it said it, and asks for nothing to be read again', async () => {
    const { wrapper } = mountChanges([suggestionThread()], {
      'merge-requests:apply-suggestion': {
        ok: false,
        error: { code: 'validation', message: 'A file has been changed.' },
      },
    })
    await flushPromises()
    await wrapper.find('[data-testid="review-suggestion-apply"]').trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="review-suggestion-error"]').text()).toBe('A file has been changed.')
    expect(wrapper.emitted('changed')).toBeUndefined()
    wrapper.unmount()
  })

  it('applied, reads Applied with its commit and offers no Apply', async () => {
    const commit = '0123456789abcdef0123456789abcdef01234567'
    const { wrapper } = mountChanges([
      suggestionThread({ ...SUGGESTION, applied: true, appliable: false, commit_id: commit }),
    ])
    await flushPromises()
    const shown = wrapper.find('[data-testid="review-suggestion"]')
    expect(shown.find('[data-testid="review-suggestion-applied"]').text()).toBe('Applied')
    expect(shown.text()).toContain('01234567')
    expect(shown.find('[data-testid="review-suggestion-apply"]').exists()).toBe(false)
    wrapper.unmount()
  })

  it('not appliable (lines changed since, or merged), offers no Apply', async () => {
    const { wrapper } = mountChanges([suggestionThread({ ...SUGGESTION, appliable: false })])
    await flushPromises()
    expect(wrapper.find('[data-testid="review-suggestion-apply"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="review-suggestion-inapplicable"]').text()).toBe("Can't apply")
    wrapper.unmount()
  })

  it('offline, Apply turns disabled and says why, and nothing is sent', async () => {
    const status: SyncStatus = {
      accountId: 'acc',
      state: 'offline',
      scope: { mode: 'memberships' },
      progress: null,
      lastStartedAt: null,
      lastCompletedAt: null,
      lastReconciledAt: null,
      lastError: null,
    }
    const { wrapper, transport } = mountChanges([suggestionThread()])
    await flushPromises()
    expect(wrapper.find('[data-testid="review-suggestion-apply"]').attributes('disabled')).toBeUndefined()
    // The connection drops while the thread is on screen (the store the page made, with its bridge).
    useSyncStore().statuses = { acc: status }
    await flushPromises()
    const apply = wrapper.find('[data-testid="review-suggestion-apply"]')
    expect(apply.attributes('disabled')).toBeDefined()
    expect(wrapper.find('[data-testid="review-suggestion-offline"]').text()).toContain(
      'Offline: applying a suggestion needs the server',
    )
    await apply.trigger('click')
    await flushPromises()
    expect(transport.calls.some((c) => c.channel === 'merge-requests:apply-suggestion')).toBe(false)
    wrapper.unmount()
  })
})
