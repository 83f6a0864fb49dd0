import type { TestCase, TestCaseStatus, TestReport, TestSuite } from '../../shared/api/test-report'

/** The order cases are read in: what broke first, what passed last. */
const STATUS_ORDER: Readonly<Record<TestCaseStatus, number>> = { failed: 0, error: 1, skipped: 2, success: 3 }

/** A suite's cases with failed and errored ones first, otherwise in the order the report lists them. */
export function casesFailedFirst(suite: Pick<TestSuite, 'test_cases'>): readonly TestCase[] {
  return suite.test_cases
    .map((testCase, index) => ({ testCase, index }))
    .sort((a, b) => STATUS_ORDER[a.testCase.status] - STATUS_ORDER[b.testCase.status] || a.index - b.index)
    .map(({ testCase }) => testCase)
}

/** Suites with failures or errors first, so a broken job's suite is the one seen without scrolling. */
export function suitesFailedFirst(report: Pick<TestReport, 'test_suites'>): readonly TestSuite[] {
  const broken = (s: TestSuite): boolean => s.failed_count + s.error_count > 0 || s.suite_error !== null
  return [...report.test_suites.filter(broken), ...report.test_suites.filter((s) => !broken(s))]
}

/** Whether an answer holds a report with anything in it (GitLab answers zeros and no suites when none was uploaded). */
export function hasTestReport(body: unknown): body is TestReport {
  if (body === null || typeof body !== 'object') return false
  const suites = (body as { test_suites?: unknown }).test_suites
  return Array.isArray(suites) && suites.length > 0
}

/** A test's time as GitLab's test report shows it: milliseconds under a second, seconds with two decimals above. */
export function formatTestTime(seconds: number): string {
  return seconds < 1 ? `${Math.round(seconds * 1000)} ms` : `${seconds.toFixed(2)} s`
}

/** Identifies a case within its suite (a class may hold tests of the same name as another class). */
export function caseKey(testCase: Pick<TestCase, 'classname' | 'name'>): string {
  return `${testCase.classname}.${testCase.name}`
}
