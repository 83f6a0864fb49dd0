import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { NamespaceRow } from '../../src/server/platform/db/rows'
import { ingestSecurityReport } from '../../src/server/modules/vulnerabilities/service'
import { seedGroup, seedMember } from '../helpers/fixtures'
import { makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

const FIXTURES = join(__dirname, '..', 'fixtures', 'dependency-files')
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8')

interface Dependency {
  readonly name: string
  readonly version: string
  readonly package_manager: string
  readonly dependency_file_path: string
  readonly vulnerabilities?: { name: string; severity: string; id?: number; url?: string }[]
}

describe('GET /projects/:id/dependencies', () => {
  let s: TestServer
  let group: NamespaceRow
  let maintainer: SeededUser
  let developer: SeededUser
  let reporter: SeededUser
  let guest: SeededUser
  let outsider: SeededUser
  let projectId: number

  const list = async (
    token: string | null,
    query = '',
  ): Promise<{ status: number; body: Dependency[]; headers: Record<string, unknown> }> => {
    const res = await s.request(token, { method: 'GET', url: `/api/v4/projects/${projectId}/dependencies${query}` })
    return { status: res.statusCode, body: res.json() as Dependency[], headers: res.headers }
  }
  const all = async (token: string, query = ''): Promise<Dependency[]> =>
    (await list(token, `${query}${query ? '&' : '?'}per_page=100`)).body

  beforeAll(async () => {
    s = await makeServer()
    group = seedGroup(s, { path: 'deps' })
    maintainer = seedUser(s)
    developer = seedUser(s)
    reporter = seedUser(s)
    guest = seedUser(s)
    outsider = seedUser(s)
    seedMember(s, 'Namespace', group.id, maintainer.user.id, AccessLevel.MAINTAINER)
    const created = await s.request(maintainer.token, {
      method: 'POST',
      url: '/api/v4/projects',
      payload: { name: 'monorepo', namespace_id: group.id, initialize_with_readme: true },
    })
    projectId = created.json().id
    seedMember(s, 'Project', projectId, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', projectId, reporter.user.id, AccessLevel.REPORTER)
    seedMember(s, 'Project', projectId, guest.user.id, AccessLevel.GUEST)
    const files: Record<string, string> = {
      'package-lock.json': fixture('package-lock.v3.json'),
      'web/yarn.lock': fixture('yarn.v1.lock'),
      'ruby/app/Gemfile.lock': fixture('Gemfile.lock'),
      'php/composer.lock': fixture('composer.lock'),
      'py/requirements.txt': fixture('requirements.txt'),
      'py/Pipfile.lock': fixture('Pipfile.lock'),
      'pom.xml': fixture('pom.xml'),
      'service/pom.xml': fixture('service/pom.xml'),
      'native/conanfile.txt': fixture('conanfile.txt'),
      'native/conanfile.py': fixture('conanfile.py'),
      // Too deep, and in excluded directories: not scanned.
      'a/b/c/yarn.lock': fixture('yarn.berry.lock'),
      'spec/fixtures/package-lock.json': fixture('package-lock.v1.json'),
      'node_modules/x/package-lock.json': fixture('package-lock.v1.json'),
    }
    const res = await s.request(maintainer.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/repository/commits`,
      payload: {
        branch: 'main',
        commit_message: 'Add dependency files',
        actions: Object.entries(files).map(([file_path, content]) => ({ action: 'create', file_path, content })),
      },
    })
    expect(res.statusCode).toBe(201)
  })
  afterAll(async () => {
    await s.close()
  })

  it('lists the dependencies of every supported file at the root and up to two directories down', async () => {
    const deps = await all(developer.token)
    const byFile = new Map<string, string>()
    for (const d of deps) byFile.set(d.dependency_file_path, d.package_manager)
    expect(Object.fromEntries([...byFile].sort())).toEqual({
      'native/conanfile.py': 'conan',
      'native/conanfile.txt': 'conan',
      'package-lock.json': 'npm',
      'php/composer.lock': 'composer',
      'pom.xml': 'maven',
      'py/Pipfile.lock': 'pip',
      'py/requirements.txt': 'pip',
      'ruby/app/Gemfile.lock': 'bundler',
      'service/pom.xml': 'maven',
      'web/yarn.lock': 'yarn',
    })
    expect(deps).toContainEqual(
      expect.objectContaining({
        name: 'lodash',
        version: '4.17.20',
        package_manager: 'npm',
        dependency_file_path: 'package-lock.json',
      }),
    )
    expect(deps).toContainEqual(
      expect.objectContaining({
        name: 'com.fasterxml.jackson.core/jackson-databind',
        version: '2.13.4',
        dependency_file_path: 'service/pom.xml',
      }),
    )
    expect(deps).toContainEqual(
      expect.objectContaining({ name: 'nokogiri', version: '1.13.10', package_manager: 'bundler' }),
    )
  })

  it('sorts by name and paginates with GitLab headers', async () => {
    const deps = await all(developer.token)
    const names = deps.map((d) => d.name)
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)))
    const page = await list(developer.token, '?per_page=5&page=2')
    expect(page.body).toHaveLength(5)
    expect(page.headers['x-total']).toBe(String(deps.length))
    expect(page.body.map((d) => d.name)).toEqual(names.slice(5, 10))
  })

  it('filters by package_manager, as an array or comma-separated', async () => {
    expect(new Set((await all(developer.token, '?package_manager[]=yarn')).map((d) => d.package_manager))).toEqual(
      new Set(['yarn']),
    )
    const two = await all(developer.token, '?package_manager=bundler,composer')
    expect(new Set(two.map((d) => d.package_manager))).toEqual(new Set(['bundler', 'composer']))
    expect(two).toHaveLength(9)
  })

  it('answers 400 for a package manager outside the list', async () => {
    const res = await list(developer.token, '?package_manager=cargo')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: 'package_manager does not have a valid value' })
  })

  it('joins open dependency-scanning findings by package name and version for Developers', async () => {
    ingestSecurityReport(s.app.burrow.db, projectId, 'dependency_scanning', {
      version: '15.0.7',
      vulnerabilities: [
        {
          name: 'Prototype Pollution in lodash',
          severity: 'High',
          location: { file: 'package-lock.json', dependency: { package: { name: 'lodash' }, version: '4.17.20' } },
          identifiers: [{ type: 'cve', name: 'CVE-2021-23337', value: 'CVE-2021-23337' }],
        },
        {
          name: 'Remote code execution in log4j',
          severity: 'Critical',
          location: {
            file: 'pom.xml',
            dependency: { package: { name: 'org.apache.logging.log4j/log4j-core' }, version: '2.14.1' },
          },
          identifiers: [{ type: 'cve', name: 'CVE-2021-44228', value: 'CVE-2021-44228' }],
        },
        {
          name: 'Old debug',
          severity: 'Low',
          location: { file: 'web/yarn.lock', dependency: { package: { name: 'debug' }, version: '0.0.1' } },
          identifiers: [{ type: 'cve', name: 'CVE-2000-0001', value: 'CVE-2000-0001' }],
        },
      ],
    })
    const deps = await all(developer.token)
    expect(deps.find((d) => d.name === 'lodash')?.vulnerabilities).toEqual([
      { name: 'Prototype Pollution in lodash', severity: 'high' },
    ])
    expect(deps.find((d) => d.name === 'org.apache.logging.log4j/log4j-core')?.vulnerabilities).toEqual([
      { name: 'Remote code execution in log4j', severity: 'critical' },
    ])
    // debug 0.0.1 is in no file: its finding matches none of the debug versions listed.
    expect(deps.filter((d) => d.name === 'debug').map((d) => `${d.version}:${d.vulnerabilities?.length}`)).toEqual([
      '2.6.9:0',
      '4.3.1:0',
      '4.3.4:0',
    ])
  })

  it('names the vulnerability created from a finding, and drops dismissed ones', async () => {
    const finding = (
      await s.request(developer.token, {
        method: 'GET',
        url: `/api/v4/projects/${projectId}/vulnerability_findings?report_type=dependency_scanning`,
      })
    )
      .json()
      .find((f: { name: string }) => f.name === 'Prototype Pollution in lodash') as { id: number }
    const v = (
      await s.request(developer.token, {
        method: 'POST',
        url: `/api/v4/projects/${projectId}/vulnerabilities?finding_id=${finding.id}`,
      })
    ).json() as { id: number }
    const lodash = (await all(developer.token)).find((d) => d.name === 'lodash')
    expect(lodash?.vulnerabilities).toEqual([
      {
        name: 'Prototype Pollution in lodash',
        severity: 'high',
        id: v.id,
        url: `http://burrow.test/deps/monorepo/-/security/vulnerabilities/${v.id}`,
      },
    ])
    await s.request(maintainer.token, { method: 'POST', url: `/api/v4/vulnerabilities/${v.id}/dismiss` })
    expect((await all(developer.token)).find((d) => d.name === 'lodash')?.vulnerabilities).toEqual([])
  })

  it('leaves vulnerabilities out for callers without the Security Dashboard (Reporter)', async () => {
    const deps = await all(reporter.token)
    expect(deps.length).toBeGreaterThan(0)
    expect(deps.every((d) => !('vulnerabilities' in d))).toBe(true)
  })

  it('answers 401 anonymous, 403 to a Guest of a private project (no code access), 404 to outsiders', async () => {
    expect((await list(null)).status).toBe(401)
    expect((await list(guest.token)).status).toBe(403)
    expect((await list(outsider.token)).status).toBe(404)
  })

  it('follows the default branch: a new commit changes the list', async () => {
    await s.request(maintainer.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/repository/commits`,
      payload: {
        branch: 'main',
        commit_message: 'Drop PHP',
        actions: [{ action: 'delete', file_path: 'php/composer.lock' }],
      },
    })
    expect(await all(developer.token, '?package_manager=composer')).toEqual([])
  })

  it('answers an empty list for a project without commits', async () => {
    const empty = await s.request(maintainer.token, {
      method: 'POST',
      url: '/api/v4/projects',
      payload: { name: 'empty', namespace_id: group.id },
    })
    const res = await s.request(maintainer.token, {
      method: 'GET',
      url: `/api/v4/projects/${empty.json().id as number}/dependencies`,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual([])
  })
})
