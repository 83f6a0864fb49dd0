import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseJunit } from '../../src/server/modules/pipelines/test-reports'
import { commitFiles, createProject, pipelinesOf, projectRunnersToken } from '../helpers/ci'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { injectTransport, TestRunner } from '../helpers/runner'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>

const RSPEC = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="rspec" tests="3">
    <testcase classname="spec.login" name="signs in" file="spec/login_spec.rb" time="0.25"/>
    <testcase classname="spec.login" name="refuses a bad password" time="1.5">
      <failure message="expected 401">Expected 401, got 200 &amp; a session</failure>
    </testcase>
    <testcase classname="spec.login" name="remembers the user" time="0.1"><skipped/></testcase>
  </testsuite>
</testsuites>`
const UNIT = `<testsuite name="unit"><testsuite name="nested">
  <testcase classname="unit.math" name="adds" time="0.5"/>
  <testcase classname="unit.math" name="divides" time="0.2"><error message="ZeroDivisionError"/></testcase>
</testsuite></testsuite>`

const CI = `rspec:
  script: [rspec]
  artifacts:
    reports:
      junit: rspec.xml
unit:
  script: [unit]
  artifacts:
    reports:
      junit: unit.xml
broken:
  script: [broken]
  artifacts:
    reports:
      junit: broken.xml
`

describe('pipeline test reports and GET /job', () => {
  let s: ListeningServer
  let maintainer: SeededUser
  let stranger: SeededUser
  let pid: number
  let pipelineId: number

  const get = (token: string | null, url: string, headers: Record<string, string> = {}) =>
    s.request(token, { method: 'GET', url: `/api/v4${url}`, headers })

  beforeAll(async () => {
    s = await startServer()
    maintainer = seedUser(s)
    stranger = seedUser(s)
    pid = await createProject(s, maintainer.token, { visibility: 'private' })
    const runner = await TestRunner.register(
      injectTransport(s.app),
      await projectRunnersToken(s, maintainer.token, pid),
      {
        workspace: { 'rspec.xml': RSPEC, 'unit.xml': UNIT, 'broken.xml': '<testsuite><testcase' },
      },
    )
    await commitFiles(s, maintainer.token, pid, 'main', { '.gitlab-ci.yml': CI })
    pipelineId = (await pipelinesOf(s, maintainer.token, pid))[0].id
    await runner.runAll()
  })
  afterAll(async () => {
    await s.close()
  })

  it("reads each job's JUnit report as a suite, failures first, with GitLab's counts", async () => {
    const res = await get(maintainer.token, `/projects/${pid}/pipelines/${pipelineId}/test_report`)
    expect(res.statusCode, res.body).toBe(200)
    const report = res.json() as Json
    expect(report).toMatchObject({
      total_count: 5,
      success_count: 2,
      failed_count: 1,
      skipped_count: 1,
      error_count: 1,
      total_time: 2.55,
    })
    const suites = report.test_suites as Json[]
    expect(suites.map((suite) => suite.name)).toEqual(['rspec', 'unit', 'broken'])
    expect(suites[0]).toMatchObject({ total_count: 3, failed_count: 1, suite_error: null, total_time: 1.85 })
    expect(suites[0].test_cases).toEqual([
      {
        status: 'failed',
        name: 'refuses a bad password',
        classname: 'spec.login',
        file: null,
        execution_time: 1.5,
        system_output: 'Expected 401, got 200 & a session',
        stack_trace: null,
      },
      {
        status: 'success',
        name: 'signs in',
        classname: 'spec.login',
        file: 'spec/login_spec.rb',
        execution_time: 0.25,
        system_output: null,
        stack_trace: null,
      },
      expect.objectContaining({ status: 'skipped', name: 'remembers the user' }),
    ])
    expect((suites[1].test_cases as Json[]).map((c) => [c.status, c.system_output])).toEqual([
      ['error', 'ZeroDivisionError'],
      ['success', null],
    ])
    expect(suites[2]).toMatchObject({
      total_count: 0,
      suite_error: expect.stringContaining('JUnit XML parsing failed'),
    })
  })

  it('sums the report up per suite with the jobs it came from', async () => {
    const res = await get(maintainer.token, `/projects/${pid}/pipelines/${pipelineId}/test_report_summary`)
    expect(res.statusCode, res.body).toBe(200)
    const summary = res.json() as { total: Json; test_suites: Json[] }
    expect(summary.total).toEqual({
      time: 2.55,
      count: 5,
      success: 2,
      failed: 1,
      skipped: 1,
      error: 1,
      suite_error: expect.stringContaining('JUnit XML parsing failed'),
    })
    const jobs = (await get(maintainer.token, `/projects/${pid}/pipelines/${pipelineId}/jobs`)).json() as Json[]
    const rspecJob = jobs.find((j) => j.name === 'rspec') as Json
    expect(summary.test_suites[0]).toMatchObject({ name: 'rspec', total_count: 3, build_ids: [rspecJob.id] })
    expect('test_cases' in summary.test_suites[0]).toBe(false)
  })

  it('hides the report of a private project from non-members and answers 404 for an unknown pipeline', async () => {
    expect((await get(stranger.token, `/projects/${pid}/pipelines/${pipelineId}/test_report`)).statusCode).toBe(404)
    expect((await get(null, `/projects/${pid}/pipelines/${pipelineId}/test_report_summary`)).statusCode).toBe(404)
    expect((await get(maintainer.token, `/projects/${pid}/pipelines/999999/test_report`)).statusCode).toBe(404)
  })

  it('python-gitlab: pipeline.test_report.get() and test_report_summary.get()', async () => {
    const result = await withPythonGitlab<{ total: number; suites: string[]; summary: number }>(
      s.url,
      { private_token: maintainer.token },
      `
pipeline = gl.projects.get(${pid}, lazy=True).pipelines.get(${pipelineId})
report = pipeline.test_report.get()
summary = pipeline.test_report_summary.get()
out({'total': report.total_count, 'suites': [x['name'] for x in report.test_suites], 'summary': summary.total['count']})
`,
    )
    expect(result).toEqual({ total: 5, suites: ['rspec', 'unit', 'broken'], summary: 5 })
  })

  it("GET /job answers a running job's CI_JOB_TOKEN with its job, and nothing else", async () => {
    const runner = await TestRunner.register(
      injectTransport(s.app),
      await projectRunnersToken(s, maintainer.token, pid),
    )
    await commitFiles(s, maintainer.token, pid, 'main', { '.gitlab-ci.yml': 'deploy:\n  script: [deploy]\n' })
    const job = await runner.requestJob()
    if (!job) throw new Error('no job for the runner')
    const byHeader = await get(null, '/job', { 'job-token': job.token })
    expect(byHeader.statusCode, byHeader.body).toBe(200)
    expect(byHeader.json()).toMatchObject({ id: job.id, name: 'deploy', status: 'running' })
    expect((await get(null, `/job?job_token=${job.token}`)).json()).toMatchObject({ id: job.id })

    expect((await get(null, '/job')).statusCode).toBe(401)
    expect((await get(null, '/job', { 'job-token': 'glcbt-not-a-token' })).statusCode).toBe(401)
    const withoutJob = await get(maintainer.token, '/job')
    expect(withoutJob.statusCode).toBe(404)
    expect(withoutJob.json()).toEqual({ message: '404 Job Not Found' })

    expect((await runner.updateJob(job, 'success')).status).toBe(200)
    expect((await get(null, '/job', { 'job-token': job.token })).statusCode).toBe(401)
  })
})

describe('parseJunit', () => {
  it('refuses what is not JUnit XML', () => {
    expect(() => parseJunit('{"not": "xml"}')).toThrow()
    expect(() => parseJunit('<testsuite><testcase')).toThrow()
    expect(parseJunit('<testsuites/>')).toEqual([])
  })
})
