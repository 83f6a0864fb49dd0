import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { GitbeakerRequestError, ProjectVulnerabilities } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import {
  ingestSecurityReport,
  SAMPLE_DEPENDENCY_SCANNING_REPORT,
  SAMPLE_SAST_REPORT,
} from '../../src/server/modules/vulnerabilities/service'
import { seedGroup, seedMember } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

const FIXTURES = join(__dirname, '..', 'fixtures', 'dependency-files')

describe('vulnerabilities and dependencies over the wire', () => {
  let s: ListeningServer
  let maintainer: SeededUser
  let developer: SeededUser
  let reporter: SeededUser
  let projectId: number
  let findingIds: number[]

  beforeAll(async () => {
    s = await startServer()
    const group = seedGroup(s, { path: 'wire-sec' })
    maintainer = seedUser(s, { username: 'wire_sec_maintainer' })
    developer = seedUser(s, { username: 'wire_sec_dev' })
    reporter = seedUser(s, { username: 'wire_sec_reporter' })
    seedMember(s, 'Namespace', group.id, maintainer.user.id, AccessLevel.MAINTAINER)
    const created = await s.request(maintainer.token, {
      method: 'POST',
      url: '/api/v4/projects',
      payload: { name: 'shop', namespace_id: group.id, initialize_with_readme: true },
    })
    projectId = created.json().id
    seedMember(s, 'Project', projectId, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', projectId, reporter.user.id, AccessLevel.REPORTER)
    await s.request(maintainer.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/repository/commits`,
      payload: {
        branch: 'main',
        commit_message: 'Lock files',
        actions: [
          {
            action: 'create',
            file_path: 'package-lock.json',
            content: readFileSync(join(FIXTURES, 'package-lock.v3.json'), 'utf8'),
          },
          {
            action: 'create',
            file_path: 'Gemfile.lock',
            content: readFileSync(join(FIXTURES, 'Gemfile.lock'), 'utf8'),
          },
        ],
      },
    })
    ingestSecurityReport(s.app.burrow.db, projectId, 'sast', SAMPLE_SAST_REPORT)
    findingIds = ingestSecurityReport(
      s.app.burrow.db,
      projectId,
      'dependency_scanning',
      SAMPLE_DEPENDENCY_SCANNING_REPORT,
    ).findings.map((f) => f.id)
  })
  afterAll(async () => {
    await s.close()
  })

  it('@gitbeaker/rest creates a vulnerability from a finding and lists it', async () => {
    const api = new ProjectVulnerabilities({ host: s.url, token: developer.token })
    const created = await api.create(projectId, findingIds[0])
    expect(created).toMatchObject({
      title: 'Prototype Pollution in lodash',
      state: 'opened',
      severity: 'high',
      author_id: developer.user.id,
      report_type: 'dependency_scanning',
    })
    const listed = await api.all(projectId)
    expect(listed.map((v) => v.title)).toEqual(['Prototype Pollution in lodash'])
  })

  it('@gitbeaker/rest sees the 400 base message for an attached finding and 403 for a Reporter', async () => {
    const api = new ProjectVulnerabilities({ host: s.url, token: developer.token })
    const attached = await api.create(projectId, findingIds[0]).catch((e: unknown) => e)
    expect(attached).toBeInstanceOf(GitbeakerRequestError)
    const response = (attached as GitbeakerRequestError).cause?.response as Response
    expect(response.status).toBe(400)
    expect((attached as GitbeakerRequestError).cause?.description).toBe(
      '{"base":["finding is not found or is already attached to a vulnerability"]}',
    )
    const denied = await new ProjectVulnerabilities({ host: s.url, token: reporter.token })
      .all(projectId)
      .catch((e: unknown) => e)
    expect(((denied as GitbeakerRequestError).cause?.response as Response).status).toBe(403)
  })

  it('@gitbeaker/rest lists dependencies filtered by package manager, with joined vulnerabilities', async () => {
    const api = new ProjectVulnerabilities({ host: s.url, token: developer.token })
    const res = await api.requester.get(`projects/${projectId}/dependencies`, {
      searchParams: { packageManager: ['npm'], perPage: 100 },
    })
    const deps = res.body as {
      name: string
      version: string
      package_manager: string
      vulnerabilities: { name: string }[]
    }[]
    expect(new Set(deps.map((d) => d.package_manager))).toEqual(new Set(['npm']))
    expect(deps.find((d) => d.name === 'lodash')?.vulnerabilities.map((v) => v.name)).toEqual([
      'Prototype Pollution in lodash',
    ])
  })

  it('python-gitlab creates, reads and changes the state of vulnerabilities, and lists findings and dependencies', async () => {
    const result = await withPythonGitlab<{
      created: { title: string; state: string }
      single: string
      confirmed: string
      resolved: string
      findings: string[]
      deps: string[]
      bad: number
    }>(
      s.url,
      { private_token: maintainer.token },
      `
pid = ${projectId}
findings = gl.http_list(f'/projects/{pid}/vulnerability_findings', query_data={'report_type': ['sast']}, get_all=True)
sql = [f for f in findings if f['name'].startswith('Improper neutralization')][0]
created = gl.http_post(f'/projects/{pid}/vulnerabilities', query_data={'finding_id': sql['id']})
single = gl.http_get(f'/vulnerabilities/{created["id"]}')['state']
confirmed = gl.http_post(f'/vulnerabilities/{created["id"]}/confirm')['state']
resolved = gl.http_post(f'/vulnerabilities/{created["id"]}/resolve')['state']
deps = [d['name'] for d in gl.http_list(f'/projects/{pid}/dependencies', query_data={'package_manager': 'bundler'}, get_all=True)]
try:
    gl.http_post(f'/projects/{pid}/vulnerabilities', query_data={'finding_id': sql['id']})
    bad = 0
except gitlab.exceptions.GitlabHttpError as e:
    bad = e.response_code
out({'created': {'title': created['title'], 'state': created['state']}, 'single': single, 'confirmed': confirmed, 'resolved': resolved,
     'findings': sorted(f['name'] for f in findings), 'deps': deps, 'bad': bad})
`,
    )
    expect(result.created).toEqual({
      title: 'Improper neutralization of special elements used in an SQL command',
      state: 'opened',
    })
    expect(result.single).toBe('opened')
    expect(result.confirmed).toBe('confirmed')
    expect(result.resolved).toBe('resolved')
    expect(result.findings).toEqual([
      'Improper neutralization of special elements used in an SQL command',
      'Use of a broken or risky cryptographic algorithm',
    ])
    expect(result.deps).toEqual(['actionpack', 'concurrent-ruby', 'nokogiri', 'racc', 'rack', 'sprockets'])
    expect(result.bad).toBe(400)
  })

  it('python-gitlab sees 304 for a transition to the current state and 403 for a Developer changing state', async () => {
    const result = await withPythonGitlab<{ codes: number[] }>(
      s.url,
      { private_token: developer.token },
      `
pid = ${projectId}
v = gl.http_list(f'/projects/{pid}/vulnerabilities', get_all=True)[0]
codes = []
for action in ['confirm']:
    try:
        gl.http_post(f'/vulnerabilities/{v["id"]}/{action}')
        codes.append(201)
    except gitlab.exceptions.GitlabHttpError as e:
        codes.append(e.response_code)
r = gl.session.post(os.environ["GL_URL"] + f'/api/v4/vulnerabilities/{v["id"]}/resolve', headers={'PRIVATE-TOKEN': '${maintainer.token}'})
codes.append(r.status_code)
out({'codes': codes})
`,
    )
    expect(result.codes).toEqual([403, 304])
  })
})
