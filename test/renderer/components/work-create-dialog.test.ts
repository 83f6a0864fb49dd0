// @vitest-environment jsdom
import { mount } from '@vue/test-utils'
import { createTestingPinia } from '@pinia/testing'
import { afterEach, describe, expect, it, vi } from 'vitest'
import WorkCreateDialog from '../../../src/renderer/components/work/WorkCreateDialog.vue'

const props = {
  show: true,
  heading: 'New issue',
  testId: 'issue-create',
  width: 760,
  submitLabel: 'Create issue',
  hint: 'created through the outbox, offline too',
  busy: false,
  error: null,
  resolveReference: () => null,
  descriptionRows: 4,
  title: '',
  description: '',
}

function open(problem: string | null, more: { titlePlaceholder?: string } = {}) {
  return mount(WorkCreateDialog, {
    props: { ...props, problem, ...more },
    global: { plugins: [createTestingPinia({ createSpy: vi.fn })] },
    attachTo: document.body,
  })
}
const byTestId = (id: string) => document.querySelector(`[data-testid="${id}"]`)

afterEach(() => {
  document.body.innerHTML = ''
})

describe('WorkCreateDialog', () => {
  it('says why Create is off beside it, in place of the keys hint', () => {
    open('Choose a project.')
    expect(byTestId('issue-create-problem')?.textContent).toBe('Choose a project.')
    expect(byTestId('issue-create-submit')?.hasAttribute('disabled')).toBe(true)
    expect(document.body.textContent).not.toContain('to create · created through the outbox')
  })

  it('shows the keys hint when nothing stands in the way', () => {
    open(null)
    expect(byTestId('issue-create-problem')).toBeNull()
    expect(document.body.textContent).toContain('to create · created through the outbox, offline too')
  })

  it('says a proposed title is on its way in the empty title, in place of "Title"', () => {
    open('A title is required.', { titlePlaceholder: 'Proposing a title from lamp’s commits…' })
    const input = byTestId('issue-create-title')?.querySelector('input')
    expect(input?.getAttribute('placeholder')).toBe('Proposing a title from lamp’s commits…')
  })

  it('keeps "Title" as the placeholder when no proposal is coming', () => {
    open('A title is required.')
    expect(byTestId('issue-create-title')?.querySelector('input')?.getAttribute('placeholder')).toBe('Title')
  })
})
