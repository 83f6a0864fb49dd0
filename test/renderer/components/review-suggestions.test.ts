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

/**
 * A thread on new line `line` (2, an added line; 3 is context, old line 3 too) whose note suggests
 * `suggestion` (its body holds one suggestion block).
 */
function suggestionThread(suggestion: Suggestion = SUGGESTION, line = 2, noteId = 90): CachedDiscussion {
  const note = wire('note', {
    id: noteId,
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
      old_line: line === 2 ? null : line,
      new_line: line,
    },
    suggestions: [suggestion],
  })
  return { id: String(noteId).padStart(40, 'd'), individual_note: false, notes: [{ data: note, pending: false }] }
}

function mountChanges(discussions: CachedDiscussion[], answers: Parameters<typeof fakeTransport>[0] = {}, iid = 12) {
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
    'merge-requests:apply-suggestions': { ok: true, result: [] },
    ...answers,
  })
  const wrapper = mount(ReviewChanges, {
    props: { accountId: 'acc', projectId: 5, iid, sha: REFS.head_sha, discussions, diffRefs: REFS },
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

/** Opens the suggestion's Apply form, writes `message` (none: the default) and applies. */
async function applyWith(wrapper: ReturnType<typeof mount>, message: string): Promise<void> {
  await wrapper.find('[data-testid="review-suggestion-apply"]').trigger('click')
  await flushPromises()
  if (message !== '') await wrapper.find('[data-testid="suggestion-commit-message"] textarea').setValue(message)
  await wrapper.find('[data-testid="suggestion-commit-form"]').trigger('submit')
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
    expect(transport.calls.some((c) => c.channel === 'merge-requests:apply-suggestion')).toBe(false)
    await wrapper.find('[data-testid="suggestion-commit-apply"]').trigger('submit')
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
    await applyWith(wrapper, '')
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
    expect(wrapper.find('[data-testid="review-suggestion-batch"]').attributes('disabled')).toBeDefined()
    expect(wrapper.find('[data-testid="review-suggestion-offline"]').text()).toContain(
      'Offline: applying a suggestion needs the server',
    )
    await apply.trigger('click')
    await flushPromises()
    expect(transport.calls.some((c) => c.channel === 'merge-requests:apply-suggestion')).toBe(false)
    wrapper.unmount()
  })
})

const OFFLINE: SyncStatus = {
  accountId: 'acc',
  state: 'offline',
  scope: { mode: 'memberships' },
  progress: null,
  lastStartedAt: null,
  lastCompletedAt: null,
  lastReconciledAt: null,
  lastError: null,
}
const SECOND: Suggestion = {
  ...SUGGESTION,
  id: 32,
  from_line: 3,
  to_line: 3,
  from_content: 'three\n',
  to_content: 'THREE\n',
}
/** Two threads, on new lines 2 and 3, each with one suggestion (31 and 32). */
const twoThreads = (): CachedDiscussion[] => [suggestionThread(), suggestionThread(SECOND, 3, 91)]
const batchButton = (wrapper: ReturnType<typeof mount>, id: number) =>
  wrapper.find(`[data-suggestion="${id}"] [data-testid="review-suggestion-batch"]`)

describe('the commit message of Apply', () => {
  it('shows GitLab’s default message, with the suggestion’s author as co-author, as the placeholder and sends none when left empty', async () => {
    const { wrapper, transport } = mountChanges([suggestionThread()])
    await flushPromises()
    await wrapper.find('[data-testid="review-suggestion-apply"]').trigger('click')
    await flushPromises()
    const area = wrapper.find('[data-testid="suggestion-commit-message"] textarea').element as HTMLTextAreaElement
    expect(area.placeholder).toBe('Apply 1 suggestion(s) to 1 file(s)\n\nCo-authored-by: Rita Reviewer')
    await wrapper.find('[data-testid="suggestion-commit-message"] textarea').setValue('   ')
    await wrapper.find('[data-testid="suggestion-commit-form"]').trigger('submit')
    await flushPromises()
    expect(transport.calls.find((c) => c.channel === 'merge-requests:apply-suggestion')?.args).toEqual([
      'acc',
      { projectId: 5, iid: 12, suggestionId: 31 },
    ])
    wrapper.unmount()
  })

  it('sends the message written', async () => {
    const { wrapper, transport } = mountChanges([suggestionThread()])
    await flushPromises()
    await applyWith(wrapper, 'Shout the second line\n\nAs Rita asked.')
    expect(transport.calls.find((c) => c.channel === 'merge-requests:apply-suggestion')?.args).toEqual([
      'acc',
      { projectId: 5, iid: 12, suggestionId: 31, commitMessage: 'Shout the second line\n\nAs Rita asked.' },
    ])
    wrapper.unmount()
  })

  it('Cancel closes the form and sends nothing', async () => {
    const { wrapper, transport } = mountChanges([suggestionThread()])
    await flushPromises()
    await wrapper.find('[data-testid="review-suggestion-apply"]').trigger('click')
    await flushPromises()
    await wrapper.find('[data-testid="suggestion-commit-cancel"]').trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="suggestion-commit-form"]').exists()).toBe(false)
    expect(transport.calls.some((c) => c.channel.startsWith('merge-requests:apply'))).toBe(false)
    wrapper.unmount()
  })
})

describe('the batch', () => {
  it('takes suggestions with Add suggestion to batch; the bar counts them and the batched ones say In batch', async () => {
    const { wrapper } = mountChanges(twoThreads())
    await flushPromises()
    expect(wrapper.find('[data-testid="suggestion-batch-bar"]').exists()).toBe(false)
    await batchButton(wrapper, 31).trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="suggestion-batch-count"]').text()).toBe('1 suggestion in batch')
    expect(wrapper.find('[data-suggestion="31"] [data-testid="review-suggestion-in-batch"]').text()).toBe('In batch')
    expect(wrapper.find('[data-suggestion="31"] [data-testid="review-suggestion-apply"]').exists()).toBe(false)
    await batchButton(wrapper, 32).trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="suggestion-batch-count"]').text()).toBe('2 suggestions in batch')
    wrapper.unmount()
  })

  it('Apply suggestions sends the batch in one call with the message written, empties it and reads the merge request again', async () => {
    const { wrapper, transport } = mountChanges(twoThreads())
    await flushPromises()
    await batchButton(wrapper, 32).trigger('click')
    await batchButton(wrapper, 31).trigger('click')
    await flushPromises()
    await wrapper.find('[data-testid="suggestion-batch-apply"]').trigger('click')
    await flushPromises()
    const area = wrapper.find('[data-testid="suggestion-commit-message"] textarea')
    expect((area.element as HTMLTextAreaElement).placeholder).toBe(
      'Apply 2 suggestion(s) to 1 file(s)\n\nCo-authored-by: Rita Reviewer',
    )
    expect(wrapper.find('[data-testid="suggestion-commit-apply"]').text()).toBe('Apply 2 suggestions')
    await area.setValue('Louder lines')
    await wrapper.find('[data-testid="suggestion-commit-form"]').trigger('submit')
    await flushPromises()
    expect(transport.calls.filter((c) => c.channel.startsWith('merge-requests:apply')).map((c) => c.args)).toEqual([
      ['acc', { projectId: 5, iid: 12, suggestionIds: [32, 31], commitMessage: 'Louder lines' }],
    ])
    expect(wrapper.find('[data-testid="suggestion-batch-bar"]').exists()).toBe(false)
    expect(wrapper.emitted('changed')).toHaveLength(1)
    wrapper.unmount()
  })

  it('refused, shows the server’s words and keeps the batch; taking the bad one out clears the refusal', async () => {
    const { wrapper } = mountChanges(twoThreads(), {
      'merge-requests:apply-suggestions': {
        ok: false,
        error: { code: 'validation', message: 'This suggestion has already been applied.' },
      },
    })
    await flushPromises()
    await batchButton(wrapper, 31).trigger('click')
    await batchButton(wrapper, 32).trigger('click')
    await flushPromises()
    await wrapper.find('[data-testid="suggestion-batch-apply"]').trigger('click')
    await flushPromises()
    await wrapper.find('[data-testid="suggestion-commit-form"]').trigger('submit')
    await flushPromises()
    expect(wrapper.find('[data-testid="suggestion-batch-error-message"]').text()).toBe(
      'This suggestion has already been applied.',
    )
    expect(wrapper.find('[data-testid="suggestion-batch-count"]').text()).toBe('2 suggestions in batch')
    expect(wrapper.emitted('changed')).toBeUndefined()
    await wrapper.find('[data-suggestion="32"] [data-testid="review-suggestion-unbatch"]').trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="suggestion-batch-count"]').text()).toBe('1 suggestion in batch')
    expect(wrapper.find('[data-testid="suggestion-batch-error"]').exists()).toBe(false)
    wrapper.unmount()
  })

  it('Discard batch empties it and sends nothing', async () => {
    const { wrapper, transport } = mountChanges(twoThreads())
    await flushPromises()
    await batchButton(wrapper, 31).trigger('click')
    await flushPromises()
    await wrapper.find('[data-testid="suggestion-batch-discard"]').trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="suggestion-batch-bar"]').exists()).toBe(false)
    expect(batchButton(wrapper, 31).exists()).toBe(true)
    expect(transport.calls.some((c) => c.channel.startsWith('merge-requests:apply'))).toBe(false)
    wrapper.unmount()
  })

  it('lasts while the page is away, per merge request', async () => {
    const first = mountChanges(twoThreads())
    await flushPromises()
    await batchButton(first.wrapper, 31).trigger('click')
    await flushPromises()
    first.wrapper.unmount()
    const again = mountChanges(twoThreads())
    await flushPromises()
    expect(again.wrapper.find('[data-testid="suggestion-batch-count"]').text()).toBe('1 suggestion in batch')
    again.wrapper.unmount()
    const other = mountChanges(twoThreads(), {}, 13)
    await flushPromises()
    expect(other.wrapper.find('[data-testid="suggestion-batch-bar"]').exists()).toBe(false)
    other.wrapper.unmount()
  })

  it('offline, Apply suggestions is disabled and says why, and nothing is sent; the batch stays', async () => {
    const { wrapper, transport } = mountChanges(twoThreads())
    await flushPromises()
    await batchButton(wrapper, 31).trigger('click')
    await flushPromises()
    useSyncStore().statuses = { acc: OFFLINE }
    await flushPromises()
    const apply = wrapper.find('[data-testid="suggestion-batch-apply"]')
    expect(apply.attributes('disabled')).toBeDefined()
    expect(wrapper.find('[data-testid="suggestion-batch-offline"]').text()).toBe(
      'Offline: applying suggestions needs the server. The batch stays here until you are back online.',
    )
    expect(batchButton(wrapper, 32).attributes('disabled')).toBeDefined()
    await apply.trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="suggestion-commit-form"]').exists()).toBe(false)
    expect(transport.calls.some((c) => c.channel.startsWith('merge-requests:apply'))).toBe(false)
    expect(wrapper.find('[data-testid="suggestion-batch-count"]').text()).toBe('1 suggestion in batch')
    wrapper.unmount()
  })
})
