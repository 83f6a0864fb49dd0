// @vitest-environment jsdom
import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import IssueFilterBar from '../../../src/renderer/components/issue/IssueFilterBar.vue'
import { NSelect } from 'naive-ui'
import { DEFAULT_ISSUE_FILTER, toIssueListParams, type IssueFilter } from '../../../src/renderer/lib/issue-filter'

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

const lastUpdate = (wrapper: ReturnType<typeof mountBar>): IssueFilter => wrapper.emitted('update:modelValue')?.at(-1)?.[0] as IssueFilter

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
    expect((scope?.props('options') as { value: string }[]).map((o) => o.value)).toEqual(['assigned_to_me', 'created_by_me'])
    scope?.vm.$emit('update:value', 'assigned_to_me')
    expect(lastUpdate(wrapper).scope).toBe('assigned_to_me')
    scope?.vm.$emit('update:value', null)
    expect(lastUpdate(wrapper).scope).toBe('all')
  })

  it('excludes labels (not[labels])', async () => {
    const wrapper = mountBar()
    const notLabels = wrapper.findAllComponents(NSelect).find((c) => c.attributes('data-testid') === 'filter-not-labels')
    notLabels?.vm.$emit('update:value', ['bug'])
    expect(lastUpdate(wrapper).notLabels).toEqual(['bug'])
    expect(toIssueListParams(lastUpdate(wrapper))['not[labels]']).toBe('bug')
  })

  it('sets the milestone, assignee and author from their own lists, each shown with its value', () => {
    const wrapper = mountBar({ ...DEFAULT_ISSUE_FILTER, milestone: 'v1.0', author: 'alice' })
    const select = (testid: string) => wrapper.findAllComponents(NSelect).find((c) => c.attributes('data-testid') === testid)
    expect(select('filter-milestone')?.props('value')).toBe('v1.0')
    expect(select('filter-assignee')?.props('value')).toBeNull()
    expect(select('filter-author')?.props('value')).toBe('alice')
    expect((select('filter-milestone')?.props('options') as { value: string }[]).map((o) => o.value)).toEqual(['None', 'Any', 'v1.0'])
    expect((select('filter-assignee')?.props('options') as { value: string }[]).map((o) => o.value)).toEqual(['None', 'Any', 'alice'])
    expect((select('filter-author')?.props('options') as { value: string }[]).map((o) => o.value)).toEqual(['alice'])
    select('filter-assignee')?.vm.$emit('update:value', 'alice')
    expect(lastUpdate(wrapper)).toEqual({ ...DEFAULT_ISSUE_FILTER, milestone: 'v1.0', author: 'alice', assignee: 'alice' })
    select('filter-milestone')?.vm.$emit('update:value', null)
    expect(lastUpdate(wrapper).milestone).toBeNull()
  })

  it('summarises the filter for assistive technology', () => {
    expect(mountBar({ ...DEFAULT_ISSUE_FILTER, labels: ['bug'] }).attributes('aria-label')).toBe('Issue filter: Open · ~bug · created at ↓')
  })
})
