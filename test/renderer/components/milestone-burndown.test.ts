// @vitest-environment jsdom
import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import MilestoneBurndown from '../../../src/renderer/components/milestone/MilestoneBurndown.vue'

const issues = [
  { created_at: '2024-02-20T00:00:00Z', closed_at: '2024-03-02T10:00:00Z' },
  { created_at: '2024-02-20T00:00:00Z', closed_at: null },
  { created_at: '2024-02-20T00:00:00Z', closed_at: '2024-03-03T10:00:00Z' },
]

// Dates read in the test run's locale, en-US (as the rest of the app writes them, never ISO).
describe('MilestoneBurndown', () => {
  it('draws one point per elapsed day and the ideal line to zero on the due date', () => {
    const wrapper = mount(MilestoneBurndown, {
      props: { issues, startDate: '2024-03-01', dueDate: '2024-03-10', today: '2024-03-04' },
    })
    expect(wrapper.findAll('circle.milestone-burndown__point').map((c) => c.find('title').text())).toEqual([
      'Mar 1, 2024: 3',
      'Mar 2, 2024: 2',
      'Mar 3, 2024: 1',
      'Mar 4, 2024: 1',
    ])
    const ideal = wrapper.find('line.milestone-burndown__ideal')
    expect(Number(ideal.attributes('x2'))).toBe(624)
    expect(ideal.attributes('y2')).toBe(wrapper.find('.milestone-burndown__grid line').attributes('y1'))
  })

  it('describes the chart for screen readers', () => {
    const svg = mount(MilestoneBurndown, {
      props: { issues, startDate: '2024-03-01', dueDate: '2024-03-10', today: '2024-03-04' },
    }).find('svg')
    expect(svg.attributes('role')).toBe('img')
    expect(svg.attributes('aria-label')).toBe(
      'Burndown from 3 open issues on Mar 1, 2024 to 1 on Mar 4, 2024, due Mar 10, 2024.',
    )
  })

  it('asks for dates when the milestone has none', () => {
    const wrapper = mount(MilestoneBurndown, { props: { issues, startDate: null, dueDate: '2024-03-10' } })
    expect(wrapper.find('svg').exists()).toBe(false)
    expect(wrapper.text()).toContain('start date and a due date')
  })
})
