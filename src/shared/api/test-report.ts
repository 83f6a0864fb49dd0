/**
 * A pipeline's unit test reports (GitLab's TestReportEntity and TestReportSummaryEntity), read
 * from the JUnit XML its jobs upload as `artifacts:reports:junit`: one suite per job name.
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable } from './common'

/** How one test case ended. */
export const TestCaseStatus = Type.Union([
  Type.Literal('success'),
  Type.Literal('failed'),
  Type.Literal('skipped'),
  Type.Literal('error'),
])
export type TestCaseStatus = Static<typeof TestCaseStatus>

/** GitLab's TestCaseEntity. */
export const TestCase = Entity({
  status: TestCaseStatus,
  name: Type.String(),
  classname: Type.String(),
  file: Nullable(Type.String()),
  execution_time: Type.Number(),
  system_output: Nullable(Type.String()),
  stack_trace: Nullable(Type.String()),
})
export type TestCase = Static<typeof TestCase>

const suiteCounts = {
  name: Type.String(),
  total_time: Type.Number(),
  total_count: Type.Integer(),
  success_count: Type.Integer(),
  failed_count: Type.Integer(),
  skipped_count: Type.Integer(),
  error_count: Type.Integer(),
  /** Why the suite's report could not be read, or null. */
  suite_error: Nullable(Type.String()),
}

/** GitLab's TestSuiteEntity with its cases (`GET …/pipelines/:id/test_report`). */
export const TestSuite = Entity({ ...suiteCounts, test_cases: Type.Array(TestCase) })
export type TestSuite = Static<typeof TestSuite>

/** GitLab's TestReportEntity. */
export const TestReport = Entity({
  total_time: Type.Number(),
  total_count: Type.Integer(),
  success_count: Type.Integer(),
  failed_count: Type.Integer(),
  skipped_count: Type.Integer(),
  error_count: Type.Integer(),
  test_suites: Type.Array(TestSuite),
})
export type TestReport = Static<typeof TestReport>

/** GitLab's TestReportSummaryEntity (`GET …/pipelines/:id/test_report_summary`). */
export const TestReportSummary = Entity({
  total: Entity({
    time: Type.Number(),
    count: Type.Integer(),
    success: Type.Integer(),
    failed: Type.Integer(),
    skipped: Type.Integer(),
    error: Type.Integer(),
    suite_error: Nullable(Type.String()),
  }),
  test_suites: Type.Array(Entity({ ...suiteCounts, build_ids: Type.Array(Type.Integer()) })),
})
export type TestReportSummary = Static<typeof TestReportSummary>
