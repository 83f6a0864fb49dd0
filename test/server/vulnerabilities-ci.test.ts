import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAMPLE_DEPENDENCY_SCANNING_REPORT, SAMPLE_SAST_REPORT } from '../../src/server/modules/vulnerabilities/service'
import { commitFiles, createProject, instanceToken, pipelinesOf } from '../helpers/ci'
import { injectTransport, TestRunner } from '../helpers/runner'
import { makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

const CI = `
stages: [test]
semgrep-sast:
  stage: test
  script: echo scanning
  artifacts:
    reports:
      sast: gl-sast-report.json
gemnasium-dependency_scanning:
  stage: test
  script: echo scanning dependencies
  artifacts:
    reports:
      dependency_scanning: gl-dependency-scanning-report.json
`

describe('security reports uploaded by CI jobs', () => {
  let s: TestServer
  let owner: SeededUser
  let projectId: number

  const findings = async (): Promise<{ name: string; report_type: string; pipeline_id: number | null }[]> =>
    (
      await s.request(owner.token, {
        method: 'GET',
        url: `/api/v4/projects/${projectId}/vulnerability_findings?scope=all&per_page=100`,
      })
    ).json()

  const run = async (workspace: Record<string, string>): Promise<void> => {
    const runner = await TestRunner.register(injectTransport(s.app), await instanceToken(s), { workspace })
    await runner.runAll()
  }

  beforeAll(async () => {
    s = await makeServer()
    owner = seedUser(s)
    projectId = await createProject(s, owner.token)
  })
  afterAll(async () => {
    await s.close()
  })

  it('reads the sast and dependency_scanning reports of a default-branch pipeline into findings of that pipeline', async () => {
    await commitFiles(s, owner.token, projectId, 'main', { '.gitlab-ci.yml': CI })
    await run({
      'gl-sast-report.json': JSON.stringify(SAMPLE_SAST_REPORT),
      'gl-dependency-scanning-report.json': JSON.stringify(SAMPLE_DEPENDENCY_SCANNING_REPORT),
    })
    const [pipeline] = await pipelinesOf(s, owner.token, projectId)
    const list = await findings()
    expect(list.map((f) => `${f.report_type}:${f.name}`).sort()).toEqual([
      'dependency_scanning:Prototype Pollution in lodash',
      'sast:Improper neutralization of special elements used in an SQL command',
      'sast:Use of a broken or risky cryptographic algorithm',
    ])
    expect(new Set(list.map((f) => f.pipeline_id))).toEqual(new Set([pipeline.id]))
  })

  it('ignores reports of pipelines on other branches', async () => {
    await s.request(owner.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/repository/branches?branch=feature&ref=main`,
    })
    await commitFiles(s, owner.token, projectId, 'feature', { 'feature.txt': 'x' })
    const other = {
      version: '15.0.7',
      vulnerabilities: [
        {
          name: 'Branch only',
          severity: 'Low',
          location: { file: 'a.js', start_line: 1 },
          identifiers: [{ type: 'cwe', name: 'CWE-1', value: '1' }],
        },
      ],
    }
    await run({
      'gl-sast-report.json': JSON.stringify(other),
      'gl-dependency-scanning-report.json': JSON.stringify({ vulnerabilities: [] }),
    })
    expect((await pipelinesOf(s, owner.token, projectId, '?ref=feature')).length).toBeGreaterThan(0)
    expect((await findings()).map((f) => f.name)).not.toContain('Branch only')
    expect(await findings()).toHaveLength(3)
  })

  it('keeps an upload that is not a valid report without reading it', async () => {
    await commitFiles(s, owner.token, projectId, 'main', { 'again.txt': 'y' })
    await run({
      'gl-sast-report.json': '{ not json',
      'gl-dependency-scanning-report.json': JSON.stringify({ findings: [] }),
    })
    const pipelines = await pipelinesOf(s, owner.token, projectId, '?ref=main')
    expect(pipelines[0].status).toBe('success')
    expect(await findings()).toHaveLength(3)
  })
})
