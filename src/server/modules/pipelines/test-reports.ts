/**
 * A pipeline's unit test report, as GitLab builds it (Gitlab::Ci::Parsers::Test::Junit and
 * Ci::PipelineTestReportBuilder): every `junit` artifact of the pipeline's latest jobs is read as
 * JUnit XML, and each job name is one suite. A report that cannot be read is the suite's error.
 */

import { XMLParser } from 'fast-xml-parser'
import type {
  TestCase,
  TestCaseStatus,
  TestReport,
  TestReportSummary,
  TestSuite,
} from '../../../shared/api/test-report'
import type { ServerContext } from '../../platform/context'
import { jobArtifactsOfType, readJobArtifact } from './artifacts'
import { pipelineJobs, type PipelineRow } from './queries'

/** GitLab's order of cases in a suite: failures first, then errors, passes, skips; slowest first within each. */
const STATUS_ORDER: readonly TestCaseStatus[] = ['failed', 'error', 'success', 'skipped']

type XmlNode = Readonly<Record<string, unknown>>

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  isArray: (name) => name === 'testsuite' || name === 'testcase',
  processEntities: true,
  htmlEntities: false,
})

/** One suite of the report: a job name's cases, or the error that kept them from being read. */
interface SuiteParts {
  readonly name: string
  readonly buildIds: number[]
  readonly cases: TestCase[]
  error: string | null
}

/** The test report of a pipeline (`GET …/pipelines/:id/test_report`). */
export function pipelineTestReport(ctx: ServerContext, pipeline: PipelineRow): TestReport {
  const suites = pipelineSuites(ctx, pipeline).map(suiteOf)
  return { ...totalsOf(suites), test_suites: suites }
}

/** The report's counts without the cases (`GET …/pipelines/:id/test_report_summary`). */
export function pipelineTestReportSummary(ctx: ServerContext, pipeline: PipelineRow): TestReportSummary {
  const parts = pipelineSuites(ctx, pipeline)
  const suites = parts.map(suiteOf)
  const totals = totalsOf(suites)
  return {
    total: {
      time: totals.total_time,
      count: totals.total_count,
      success: totals.success_count,
      failed: totals.failed_count,
      skipped: totals.skipped_count,
      error: totals.error_count,
      suite_error: suites.find((s) => s.suite_error !== null)?.suite_error ?? null,
    },
    test_suites: suites.map(({ test_cases: _cases, ...counts }, i) => ({ ...counts, build_ids: parts[i].buildIds })),
  }
}

/** The junit reports of the pipeline's latest (not retried) jobs, one suite per job name, in job order. */
function pipelineSuites(ctx: ServerContext, pipeline: PipelineRow): SuiteParts[] {
  const artifacts = jobArtifactsOfType(ctx, {
    projectId: pipeline.project_id,
    fileType: 'junit',
    pipelineId: pipeline.id,
  })
  const suites = new Map<string, SuiteParts>()
  for (const job of pipelineJobs(ctx.db, pipeline.id)) {
    if (job.retried === 1) continue
    const reports = artifacts.filter((a) => a.job_id === job.id)
    if (reports.length === 0) continue
    let suite = suites.get(job.name)
    if (!suite) {
      suite = { name: job.name, buildIds: [], cases: [], error: null }
      suites.set(job.name, suite)
    }
    suite.buildIds.push(job.id)
    for (const artifact of reports) {
      try {
        suite.cases.push(...parseJunit(readJobArtifact(ctx, artifact).toString('utf8')))
      } catch (error) {
        suite.error = `JUnit XML parsing failed: ${error instanceof Error ? error.message : String(error)}`
      }
    }
  }
  return [...suites.values()]
}

/** The test cases of a JUnit XML document (`<testsuites>` or a bare `<testsuite>`, suites nested at any depth). */
export function parseJunit(xml: string): TestCase[] {
  if (!/<testsuites?\b/.test(xml)) throw new Error('no testsuite element')
  const document = parser.parse(xml, true) as XmlNode
  const cases: TestCase[] = []
  const visit = (node: unknown): void => {
    if (!isNode(node)) return
    for (const testCase of arrayOf(node.testcase)) if (isNode(testCase)) cases.push(testCaseOf(testCase))
    for (const suite of arrayOf(node.testsuite)) visit(suite)
    for (const group of arrayOf(node.testsuites)) visit(group)
  }
  visit(document)
  return cases
}

function testCaseOf(node: XmlNode): TestCase {
  const [status, outcome] = outcomeOf(node)
  return {
    status,
    name: attribute(node, 'name') ?? '',
    classname: attribute(node, 'classname') ?? '',
    file: attribute(node, 'file'),
    execution_time: Number.parseFloat(attribute(node, 'time') ?? '0') || 0,
    system_output: outcome === undefined ? null : textOf(outcome),
    stack_trace: null,
  }
}

/** GitLab's reading of a case: a `failure` child fails it, `error` errs, `skipped` skips; its text is the output. */
function outcomeOf(node: XmlNode): [TestCaseStatus, unknown] {
  if (node.failure !== undefined) return ['failed', node.failure]
  if (node.error !== undefined) return ['error', node.error]
  if (node.skipped !== undefined) return ['skipped', node.skipped]
  return ['success', undefined]
}

/** An outcome element's text, else its `message`; null when it has neither. */
function textOf(outcome: unknown): string | null {
  const first = Array.isArray(outcome) ? (outcome[0] as unknown) : outcome
  if (typeof first === 'string' || typeof first === 'number') return first === '' ? null : String(first)
  if (!isNode(first)) return null
  const text = first['#text']
  if (typeof text === 'string' || typeof text === 'number') return String(text)
  return attribute(first, 'message')
}

function attribute(node: XmlNode, name: string): string | null {
  const value = node[`@${name}`]
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null
}

function isNode(value: unknown): value is XmlNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function arrayOf(value: unknown): unknown[] {
  if (value === undefined) return []
  return Array.isArray(value) ? value : [value]
}

function suiteOf(parts: SuiteParts): TestSuite {
  const cases = [...parts.cases].sort(
    (a, b) => STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status) || b.execution_time - a.execution_time,
  )
  const count = (status: TestCaseStatus): number => cases.filter((c) => c.status === status).length
  return {
    name: parts.name,
    total_time: roundTime(cases.reduce((sum, c) => sum + c.execution_time, 0)),
    total_count: cases.length,
    success_count: count('success'),
    failed_count: count('failed'),
    skipped_count: count('skipped'),
    error_count: count('error'),
    suite_error: parts.error,
    test_cases: cases,
  }
}

function totalsOf(suites: readonly TestSuite[]): Omit<TestReport, 'test_suites'> {
  const sum = (pick: (s: TestSuite) => number): number => suites.reduce((total, s) => total + pick(s), 0)
  return {
    total_time: roundTime(sum((s) => s.total_time)),
    total_count: sum((s) => s.total_count),
    success_count: sum((s) => s.success_count),
    failed_count: sum((s) => s.failed_count),
    skipped_count: sum((s) => s.skipped_count),
    error_count: sum((s) => s.error_count),
  }
}

/** Times summed from floats, kept to GitLab's precision (two decimals). */
function roundTime(seconds: number): number {
  return Math.round(seconds * 100) / 100
}
