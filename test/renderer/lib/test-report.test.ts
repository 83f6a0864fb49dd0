import { describe, expect, it } from 'vitest'
import type { TestCase, TestSuite } from '../../../src/shared/api/test-report'
import {
  casesFailedFirst,
  formatTestTime,
  hasTestReport,
  suitesFailedFirst,
} from '../../../src/renderer/lib/test-report'

const testCase = (name: string, status: TestCase['status']): TestCase => ({
  status,
  name,
  classname: 'spec',
  file: null,
  execution_time: 0.1,
  system_output: null,
  stack_trace: null,
})
const suite = (name: string, cases: TestCase[], suiteError: string | null = null): TestSuite => {
  const count = (status: TestCase['status']): number => cases.filter((c) => c.status === status).length
  return {
    name,
    total_time: 0,
    total_count: cases.length,
    success_count: count('success'),
    failed_count: count('failed'),
    skipped_count: count('skipped'),
    error_count: count('error'),
    suite_error: suiteError,
    test_cases: cases,
  }
}

describe('a pipeline test report', () => {
  it('lists failed, then errored, then skipped, then passed cases, keeping the report order within each', () => {
    const cases = [
      testCase('a', 'success'),
      testCase('b', 'skipped'),
      testCase('c', 'error'),
      testCase('d', 'failed'),
      testCase('e', 'success'),
      testCase('f', 'failed'),
    ]
    expect(casesFailedFirst(suite('unit', cases)).map((c) => c.name)).toEqual(['d', 'f', 'c', 'b', 'a', 'e'])
  })

  it('puts suites with failures, errors or an unreadable report before passing ones', () => {
    const suites = [
      suite('green', [testCase('a', 'success')]),
      suite('red', [testCase('b', 'failed')]),
      suite('skips', [testCase('c', 'skipped')]),
      suite('unreadable', [], 'JUnit XML parsing failed'),
      suite('errored', [testCase('d', 'error')]),
    ]
    expect(suitesFailedFirst({ test_suites: suites }).map((s) => s.name)).toEqual([
      'red',
      'unreadable',
      'errored',
      'green',
      'skips',
    ])
  })

  it('counts an answer with no suites (no JUnit artifact uploaded) as no report', () => {
    const none = {
      total_time: 0,
      total_count: 0,
      success_count: 0,
      failed_count: 0,
      skipped_count: 0,
      error_count: 0,
      test_suites: [],
    }
    expect(hasTestReport(none)).toBe(false)
    expect(hasTestReport(null)).toBe(false)
    expect(hasTestReport({ ...none, test_suites: [suite('unit', [])] })).toBe(true)
  })

  it('shows times under a second in milliseconds and longer ones in seconds', () => {
    expect(formatTestTime(0.25)).toBe('250 ms')
    expect(formatTestTime(0)).toBe('0 ms')
    expect(formatTestTime(2.554)).toBe('2.55 s')
  })
})
