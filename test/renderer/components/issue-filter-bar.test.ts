// @vitest-environment jsdom
import { mount, type DOMWrapper } from '@vue/test-utils'
import { defineComponent, h, shallowRef } from 'vue'
import { describe, expect, it } from 'vitest'
import IssueFilterBar from '../../../src/renderer/components/issue/IssueFilterBar.vue'
import MergeRequestFilterBar from '../../../src/renderer/components/merge-request/MergeRequestFilterBar.vue'
import { NSelect } from 'naive-ui'
import {
  DEFAULT_ISSUE_FILTER,
  parseIssueFilter,
  serializeIssueFilter,
  toIssueListParams,
  type IssueFilter,
} from '../../../src/renderer/lib/issue-filter'
import {
  DEFAULT_MR_FILTER,
  parseMergeRequestFilter,
  serializeMergeRequestFilter,
} from '../../../src/renderer/lib/merge-request-filter'

function mountBar(filter: IssueFilter = DEFAULT_ISSUE_FILTER, savable = false) {
  return mount(IssueFilterBar, {
    props: {
      modelValue: filter,
      savable,
      labels: [{ name: 'bug', color: '#d9534f' }],
      milestones: ['v1.0'],
      users: [{ username: 'alice', name: 'Alice' }],
      'onUpdate:modelValue': () => undefined,
    },
  })
}

const lastUpdate = (wrapper: ReturnType<typeof mountBar>): IssueFilter =>
  wrapper.emitted('update:modelValue')?.at(-1)?.[0] as IssueFilter

describe('IssueFilterBar', () => {
  it('updates the search text of the model', async () => {
    const wrapper = mountBar()
    await wrapper.find('[data-testid="filter-search"] input').setValue('crash')
    expect(lastUpdate(wrapper)).toEqual({ ...DEFAULT_ISSUE_FILTER, search: 'crash' })
  })

  it('switches the state', async () => {
    const wrapper = mountBar()
    await wrapper.findAll('[data-testid="filter-state"] input[type="radio"]')[1].setValue(true)
    expect(lastUpdate(wrapper).state).toBe('closed')
  })

  it('flips the sort direction', async () => {
    const wrapper = mountBar()
    await wrapper.find('[data-testid="filter-sort"]').trigger('click')
    expect(lastUpdate(wrapper).sort).toBe('asc')
  })

  it('offers Clear only for a non-default filter, and it restores the defaults', async () => {
    expect(mountBar().find('[data-testid="filter-clear"]').exists()).toBe(false)
    const wrapper = mountBar({ ...DEFAULT_ISSUE_FILTER, labels: ['bug'] })
    await wrapper.find('[data-testid="filter-clear"]').trigger('click')
    expect(lastUpdate(wrapper)).toEqual(DEFAULT_ISSUE_FILTER)
  })

  it('emits save with the current filter', async () => {
    const filter = { ...DEFAULT_ISSUE_FILTER, assignee: 'alice' }
    const wrapper = mountBar(filter, true)
    await wrapper.find('[data-testid="filter-save"]').trigger('click')
    expect(wrapper.emitted('save')).toEqual([[filter]])
  })

  it('narrows to the user’s own issues (scope) and back to everyone’s', async () => {
    const wrapper = mountBar()
    const scope = wrapper.findAllComponents(NSelect).find((c) => c.attributes('data-testid') === 'filter-scope')
    expect((scope?.props('options') as { value: string }[]).map((o) => o.value)).toEqual([
      'assigned_to_me',
      'created_by_me',
    ])
    scope?.vm.$emit('update:value', 'assigned_to_me')
    expect(lastUpdate(wrapper).scope).toBe('assigned_to_me')
    scope?.vm.$emit('update:value', null)
    expect(lastUpdate(wrapper).scope).toBe('all')
  })

  it('excludes labels (not[labels])', async () => {
    const wrapper = mountBar()
    const notLabels = wrapper
      .findAllComponents(NSelect)
      .find((c) => c.attributes('data-testid') === 'filter-not-labels')
    notLabels?.vm.$emit('update:value', ['bug'])
    expect(lastUpdate(wrapper).notLabels).toEqual(['bug'])
    expect(toIssueListParams(lastUpdate(wrapper))['not[labels]']).toBe('bug')
  })

  it('sets the milestone, assignee and author from their own lists, each shown with its value', () => {
    const wrapper = mountBar({ ...DEFAULT_ISSUE_FILTER, milestone: 'v1.0', author: 'alice' })
    const select = (testid: string) =>
      wrapper.findAllComponents(NSelect).find((c) => c.attributes('data-testid') === testid)
    expect(select('filter-milestone')?.props('value')).toBe('v1.0')
    expect(select('filter-assignee')?.props('value')).toBeNull()
    expect(select('filter-author')?.props('value')).toBe('alice')
    expect((select('filter-milestone')?.props('options') as { value: string }[]).map((o) => o.value)).toEqual([
      'None',
      'Any',
      'v1.0',
    ])
    expect((select('filter-assignee')?.props('options') as { value: string }[]).map((o) => o.value)).toEqual([
      'None',
      'Any',
      'alice',
    ])
    expect((select('filter-author')?.props('options') as { value: string }[]).map((o) => o.value)).toEqual(['alice'])
    select('filter-assignee')?.vm.$emit('update:value', 'alice')
    expect(lastUpdate(wrapper)).toEqual({
      ...DEFAULT_ISSUE_FILTER,
      milestone: 'v1.0',
      author: 'alice',
      assignee: 'alice',
    })
    select('filter-milestone')?.vm.$emit('update:value', null)
    expect(lastUpdate(wrapper).milestone).toBeNull()
  })

  it('keeps author, scope, excluded labels, confidentiality and Save behind More filters, which counts those set', async () => {
    const wrapper = mountBar({ ...DEFAULT_ISSUE_FILTER, author: 'alice', confidential: true }, true)
    const more = wrapper.find('[data-testid="filter-more"]')
    const panel = wrapper.find('[data-testid="filter-more-panel"]')
    for (const id of ['filter-author', 'filter-scope', 'filter-not-labels', 'filter-confidential', 'filter-save'])
      expect(panel.find(`[data-testid="${id}"]`).exists(), id).toBe(true)
    expect((panel.element as HTMLElement).style.display).toBe('none')
    expect(more.attributes('aria-expanded')).toBe('false')
    expect(more.attributes('aria-controls')).toBe(panel.attributes('id'))
    expect(more.text()).toBe('More filters (2)')
    // Its name stays whole where a narrow bar shortens the text to "More (2)".
    expect(more.attributes('aria-label')).toBe('More filters (2)')
    await more.trigger('click')
    expect((panel.element as HTMLElement).style.display).toBe('')
    expect(more.attributes('aria-expanded')).toBe('true')
    expect(more.text()).toBe('Fewer filters (2)')
    expect(more.attributes('aria-label')).toBe('Fewer filters (2)')
  })

  it('summarises the filter for assistive technology', () => {
    expect(mountBar({ ...DEFAULT_ISSUE_FILTER, labels: ['bug'] }).attributes('aria-label')).toBe(
      'Issue filter: Open · ~bug · created at ↓',
    )
  })
})

describe('list search boxes', () => {
  // The lists keep their filter in the route, trimmed: the box must not show that back while typing.
  function mountRouted<F extends { search: string }>(
    component: typeof IssueFilterBar | typeof MergeRequestFilterBar,
    initial: F,
    roundTrip: (f: F) => F,
  ) {
    const filter = shallowRef<F>(initial)
    const Harness = defineComponent(
      () => () =>
        h(component as never, {
          modelValue: filter.value,
          'onUpdate:modelValue': (f: F) => (filter.value = roundTrip(f)),
        }),
    )
    return { wrapper: mount(Harness), filter }
  }
  /** Types one character at a time after whatever the box shows, as a keyboard does. */
  async function typeSlowly(input: DOMWrapper<HTMLInputElement>, text: string) {
    for (const ch of text) await input.setValue(input.element.value + ch)
  }

  it('keeps the spaces typed between words in the issue search box', async () => {
    const { wrapper, filter } = mountRouted(IssueFilterBar, DEFAULT_ISSUE_FILTER, (f) =>
      parseIssueFilter(serializeIssueFilter(f)),
    )
    const input = wrapper.find<HTMLInputElement>('[data-testid="filter-search"] input')
    await typeSlowly(input, 'Route optimiser')
    expect(input.element.value).toBe('Route optimiser')
    expect(filter.value.search).toBe('Route optimiser')
  })

  it('keeps the spaces typed between words in the merge request search box', async () => {
    const { wrapper, filter } = mountRouted(MergeRequestFilterBar, DEFAULT_MR_FILTER, (f) =>
      parseMergeRequestFilter(serializeMergeRequestFilter(f)),
    )
    const input = wrapper.find<HTMLInputElement>('[data-testid="mr-filter-search"] input')
    await typeSlowly(input, 'Route optimiser')
    expect(input.element.value).toBe('Route optimiser')
    expect(filter.value.search).toBe('Route optimiser')
  })

  it('shows a search the filter gets from elsewhere (Clear, a saved filter)', async () => {
    const { wrapper } = mountRouted(IssueFilterBar, { ...DEFAULT_ISSUE_FILTER, search: 'crash' }, (f) =>
      parseIssueFilter(serializeIssueFilter(f)),
    )
    const input = wrapper.find<HTMLInputElement>('[data-testid="filter-search"] input')
    expect(input.element.value).toBe('crash')
    await wrapper.find('[data-testid="filter-clear"]').trigger('click')
    expect(input.element.value).toBe('')
  })
})
