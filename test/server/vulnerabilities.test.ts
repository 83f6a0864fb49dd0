import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { SecurityReportError } from '../../src/server/modules/vulnerabilities/report'
import {
  ingestSecurityReport,
  SAMPLE_DEPENDENCY_SCANNING_REPORT,
  SAMPLE_SAST_REPORT,
  seedSecurityFindings,
} from '../../src/server/modules/vulnerabilities/service'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

interface Finding {
  readonly id: number
  readonly name: string
  readonly report_type: string
  readonly severity: string
  readonly state: string
  readonly vulnerability_id: number | null
  readonly scanner: { external_id: string; name: string }
  readonly identifiers: { external_type: string; external_id: string; name: string }[]
}

interface Vulnerability {
  readonly id: number
  readonly title: string
  readonly state: string
  readonly author_id: number
  readonly severity: string
  readonly confidence: string
  readonly report_type: string
  readonly resolved_on_default_branch: boolean
  readonly finding: { id: number; name: string; vulnerability_id: number; uuid: string; raw_metadata: string }
  readonly project: { id: number; path_with_namespace: string }
  readonly project_default_branch: string
  readonly dismissed_by_id: number | null
  readonly resolved_by_id: number | null
}

describe('vulnerabilities and findings', () => {
  let s: TestServer
  let project: ProjectRow
  let maintainer: SeededUser
  let developer: SeededUser
  let reporter: SeededUser
  let outsider: SeededUser

  const req = (token: string | null, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
    s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
  const findings = async (query = ''): Promise<Finding[]> =>
    (await req(developer.token, 'GET', `/projects/${project.id}/vulnerability_findings${query}`)).json() as Finding[]
  const findingNamed = async (name: string): Promise<Finding> =>
    (await findings('?scope=all&per_page=100')).find((f) => f.name === name) as Finding

  beforeAll(async () => {
    s = await makeServer()
    project = seedProject(s, { namespaceId: seedGroup(s, { path: 'sec' }).id, path: 'shop' })
    maintainer = seedUser(s)
    developer = seedUser(s)
    reporter = seedUser(s)
    outsider = seedUser(s)
    seedMember(s, 'Project', project.id, maintainer.user.id, AccessLevel.MAINTAINER)
    seedMember(s, 'Project', project.id, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, reporter.user.id, AccessLevel.REPORTER)
    expect(seedSecurityFindings(s.app.burrow.db, project.id)).toBe(3)
  })
  afterAll(async () => {
    await s.close()
  })

  describe('ingestion', () => {
    it('stores one finding per report entry, with scanner and identifiers', async () => {
      const list = await findings()
      expect(list.map((f) => f.name).sort()).toEqual([
        'Improper neutralization of special elements used in an SQL command',
        'Prototype Pollution in lodash',
        'Use of a broken or risky cryptographic algorithm',
      ])
      const weak = list.find((f) => f.name.startsWith('Use of a broken')) as Finding
      expect(weak).toMatchObject({
        report_type: 'sast',
        severity: 'medium',
        state: 'detected',
        vulnerability_id: null,
        scanner: { external_id: 'semgrep', name: 'Semgrep' },
      })
      expect(weak.identifiers.map((i) => i.name)).toEqual(['CWE-327', 'eslint.detect-weak-crypto'])
    })

    it('updates findings in place when the same report is read again', () => {
      const again = ingestSecurityReport(s.app.burrow.db, project.id, 'sast', SAMPLE_SAST_REPORT)
      expect({ created: again.created, updated: again.updated, undetected: again.undetected }).toEqual({
        created: 0,
        updated: 2,
        undetected: 0,
      })
    })

    it('refuses a document that is not a security report', () => {
      expect(() => ingestSecurityReport(s.app.burrow.db, project.id, 'sast', { nope: true })).toThrow(
        SecurityReportError,
      )
    })
  })

  describe('POST /projects/:id/vulnerabilities', () => {
    let created: Vulnerability

    it("creates a vulnerability from a finding (201): author the caller, title the finding name, state opened (the spec's name), severity and confidence from the finding", async () => {
      const finding = await findingNamed('Improper neutralization of special elements used in an SQL command')
      const res = await req(developer.token, 'POST', `/projects/${project.id}/vulnerabilities?finding_id=${finding.id}`)
      expect(res.statusCode).toBe(201)
      created = res.json() as Vulnerability
      expect(created).toMatchObject({
        author_id: developer.user.id,
        title: finding.name,
        state: 'opened',
        severity: 'high',
        confidence: 'unknown',
        report_type: 'sast',
        resolved_on_default_branch: false,
        project_default_branch: 'main',
        project: { id: project.id, path_with_namespace: 'sec/shop' },
        finding: { id: finding.id, name: finding.name, vulnerability_id: created.id },
      })
      expect(JSON.parse(created.finding.raw_metadata)).toMatchObject({ name: finding.name })
    })

    it('answers every field the spec lists for a vulnerability and its finding', () => {
      const fields = [
        'author_id',
        'confidence',
        'created_at',
        'description',
        'dismissed_at',
        'dismissed_by_id',
        'due_date',
        'finding',
        'id',
        'last_edited_at',
        'last_edited_by_id',
        'project',
        'project_default_branch',
        'report_type',
        'resolved_at',
        'resolved_by_id',
        'resolved_on_default_branch',
        'severity',
        'start_date',
        'state',
        'title',
        'updated_at',
        'updated_by_id',
      ]
      const findingFields = [
        'confidence',
        'created_at',
        'id',
        'location_fingerprint',
        'metadata_version',
        'name',
        'primary_identifier_id',
        'project_fingerprint',
        'project_id',
        'raw_metadata',
        'report_type',
        'scanner_id',
        'severity',
        'updated_at',
        'uuid',
        'vulnerability_id',
      ]
      const body = created as unknown as Record<string, Record<string, unknown>>
      expect(Object.keys(body)).toEqual(expect.arrayContaining(fields))
      expect(Object.keys(body.finding).sort()).toEqual([...findingFields].sort())
      expect(Object.keys(body.project).sort()).toEqual([
        'created_at',
        'description',
        'id',
        'name',
        'name_with_namespace',
        'path',
        'path_with_namespace',
      ])
      expect(typeof body.finding.raw_metadata).toBe('string')
    })

    it('answers 400 {message: {base: [...]}} for a finding already attached', async () => {
      const res = await req(
        developer.token,
        'POST',
        `/projects/${project.id}/vulnerabilities?finding_id=${created.finding.id}`,
      )
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({
        message: { base: ['finding is not found or is already attached to a vulnerability'] },
      })
    })

    it("answers the same 400 for a missing finding and for another project's finding", async () => {
      expect(
        (await req(developer.token, 'POST', `/projects/${project.id}/vulnerabilities?finding_id=999999`)).json(),
      ).toEqual({
        message: { base: ['finding is not found or is already attached to a vulnerability'] },
      })
      const other = seedProject(s, { namespaceId: project.namespace_id, path: 'other' })
      seedMember(s, 'Project', other.id, developer.user.id, AccessLevel.DEVELOPER)
      const foreign = await findingNamed('Prototype Pollution in lodash')
      expect(
        (await req(developer.token, 'POST', `/projects/${other.id}/vulnerabilities?finding_id=${foreign.id}`))
          .statusCode,
      ).toBe(400)
    })

    it('answers 400 finding_id is missing without one', async () => {
      const res = await req(developer.token, 'POST', `/projects/${project.id}/vulnerabilities`)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'finding_id is missing' })
    })

    it('answers 403 to Reporters, 404 to outsiders, 401 to anonymous callers', async () => {
      const finding = await findingNamed('Prototype Pollution in lodash')
      expect(
        (await req(reporter.token, 'POST', `/projects/${project.id}/vulnerabilities?finding_id=${finding.id}`))
          .statusCode,
      ).toBe(403)
      expect(
        (await req(outsider.token, 'POST', `/projects/${project.id}/vulnerabilities?finding_id=${finding.id}`))
          .statusCode,
      ).toBe(404)
      expect(
        (await req(null, 'POST', `/projects/${project.id}/vulnerabilities?finding_id=${finding.id}`)).statusCode,
      ).toBe(401)
    })

    it('records the creation as an audit event and no activity event (GitLab keeps none for vulnerabilities)', () => {
      const audit = s.app.burrow.db
        .prepare("SELECT details FROM audit_events WHERE entity_type = 'Project' AND entity_id = ?")
        .all(project.id) as { details: string }[]
      expect(audit.map((a) => JSON.parse(a.details).custom_message)).toContain(
        `Created vulnerability ${created.id} from finding ${created.finding.id}`,
      )
      expect(
        s.app.burrow.db
          .prepare("SELECT action FROM events WHERE target_type = 'Vulnerability' AND target_id = ?")
          .all(created.id),
      ).toEqual([])
    })
  })

  describe('GET /projects/:id/vulnerabilities', () => {
    it("lists the project's vulnerabilities with pagination headers", async () => {
      const finding = await findingNamed('Use of a broken or risky cryptographic algorithm')
      await req(developer.token, 'POST', `/projects/${project.id}/vulnerabilities?finding_id=${finding.id}`)
      const res = await req(developer.token, 'GET', `/projects/${project.id}/vulnerabilities?per_page=1`)
      expect(res.statusCode).toBe(200)
      expect(res.headers['x-total']).toBe('2')
      expect(res.headers['x-total-pages']).toBe('2')
      expect(res.headers.link).toContain('rel="next"')
      expect((res.json() as Vulnerability[]).map((v) => v.title)).toEqual([
        'Use of a broken or risky cryptographic algorithm',
      ])
    })

    it('answers 403 without Security Dashboard permission (Reporter), 404 to outsiders, 401 anonymous', async () => {
      expect((await req(reporter.token, 'GET', `/projects/${project.id}/vulnerabilities`)).statusCode).toBe(403)
      expect((await req(outsider.token, 'GET', `/projects/${project.id}/vulnerabilities`)).statusCode).toBe(404)
      const anonymous = await req(null, 'GET', `/projects/${project.id}/vulnerabilities`)
      expect(anonymous.statusCode).toBe(401)
      expect(anonymous.json()).toEqual({ message: '401 Unauthorized' })
    })

    it('accepts the URL-encoded full path as :id', async () => {
      expect((await req(developer.token, 'GET', '/projects/sec%2Fshop/vulnerabilities')).statusCode).toBe(200)
    })
  })

  describe('single vulnerability and state transitions', () => {
    let v: Vulnerability

    beforeAll(async () => {
      v = ((await req(developer.token, 'GET', `/projects/${project.id}/vulnerabilities`)).json() as Vulnerability[])[0]
    })

    it('GET /vulnerabilities/:id for Developers; 403 Reporters, 404 outsiders and unknown ids', async () => {
      expect((await req(developer.token, 'GET', `/vulnerabilities/${v.id}`)).json()).toMatchObject({
        id: v.id,
        state: 'opened',
      })
      expect((await req(reporter.token, 'GET', `/vulnerabilities/${v.id}`)).statusCode).toBe(403)
      expect((await req(outsider.token, 'GET', `/vulnerabilities/${v.id}`)).statusCode).toBe(404)
      expect((await req(developer.token, 'GET', '/vulnerabilities/999999')).json()).toEqual({
        message: '404 Vulnerability Not Found',
      })
    })

    it('confirm, resolve, dismiss and revert move the state (201) and stamp who did it', async () => {
      const act = async (action: string) => req(maintainer.token, 'POST', `/vulnerabilities/${v.id}/${action}`)
      const confirmed = await act('confirm')
      expect(confirmed.statusCode).toBe(201)
      expect(confirmed.json()).toMatchObject({ state: 'confirmed' })
      expect((await act('resolve')).json()).toMatchObject({ state: 'resolved', resolved_by_id: maintainer.user.id })
      expect((await act('dismiss')).json()).toMatchObject({
        state: 'dismissed',
        dismissed_by_id: maintainer.user.id,
        resolved_by_id: null,
      })
      expect((await act('revert')).json()).toMatchObject({ state: 'opened', dismissed_by_id: null })
    })

    it('answers 304 when the vulnerability is already in that state', async () => {
      const res = await req(maintainer.token, 'POST', `/vulnerabilities/${v.id}/revert`)
      expect(res.statusCode).toBe(304)
      expect(res.body).toBe('')
    })

    it('refuses state changes to Developers (403, GitLab 17.0 rule) and to outsiders (404)', async () => {
      expect((await req(developer.token, 'POST', `/vulnerabilities/${v.id}/confirm`)).statusCode).toBe(403)
      expect((await req(outsider.token, 'POST', `/vulnerabilities/${v.id}/confirm`)).statusCode).toBe(404)
    })

    it('audits every transition with its from and to states', () => {
      const rows = s.app.burrow.db
        .prepare("SELECT details FROM audit_events WHERE entity_type = 'Project' AND entity_id = ?")
        .all(project.id) as { details: string }[]
      const changes = rows
        .map((r) => JSON.parse(r.details))
        .filter((d) => d.change === 'vulnerability_state')
        .map((d) => `${d.from}->${d.to}`)
      expect(changes).toEqual(['opened->confirmed', 'confirmed->resolved', 'resolved->dismissed', 'dismissed->opened'])
    })
  })

  describe('GET /projects/:id/vulnerability_findings', () => {
    it('filters by report type (array or comma-separated), severity and confidence', async () => {
      expect((await findings('?report_type[]=dependency_scanning')).map((f) => f.name)).toEqual([
        'Prototype Pollution in lodash',
      ])
      expect((await findings('?report_type=sast,dependency_scanning')).length).toBe(3)
      expect((await findings('?severity[]=high')).map((f) => f.severity)).toEqual(['high', 'high'])
      expect((await findings('?confidence[]=high')).length).toBe(0)
    })

    it('hides findings of dismissed vulnerabilities unless scope=all', async () => {
      const v = (
        (await req(developer.token, 'GET', `/projects/${project.id}/vulnerabilities`)).json() as Vulnerability[]
      )[0]
      await req(maintainer.token, 'POST', `/vulnerabilities/${v.id}/dismiss`)
      expect((await findings()).map((f) => f.vulnerability_id)).not.toContain(v.id)
      const all = await findings('?scope=all')
      expect(all.find((f) => f.vulnerability_id === v.id)?.state).toBe('dismissed')
    })

    it('answers 400 for an unknown report type and 403 to Reporters', async () => {
      const bad = await req(
        developer.token,
        'GET',
        `/projects/${project.id}/vulnerability_findings?report_type=fuzzing`,
      )
      expect(bad.statusCode).toBe(400)
      expect(bad.json()).toEqual({ error: 'report_type does not have a valid value' })
      expect((await req(reporter.token, 'GET', `/projects/${project.id}/vulnerability_findings`)).statusCode).toBe(403)
    })
  })

  describe('findings no longer reported', () => {
    it('stop being detected, and their vulnerabilities count as resolved on the default branch; reported again, they are back', async () => {
      const lodash = await findingNamed('Prototype Pollution in lodash')
      const v = (
        await req(developer.token, 'POST', `/projects/${project.id}/vulnerabilities?finding_id=${lodash.id}`)
      ).json() as Vulnerability
      const result = ingestSecurityReport(s.app.burrow.db, project.id, 'dependency_scanning', {
        version: '15.0.7',
        vulnerabilities: [],
      })
      expect(result.undetected).toBe(1)
      expect(
        ((await req(developer.token, 'GET', `/vulnerabilities/${v.id}`)).json() as Vulnerability)
          .resolved_on_default_branch,
      ).toBe(true)
      ingestSecurityReport(s.app.burrow.db, project.id, 'dependency_scanning', SAMPLE_DEPENDENCY_SCANNING_REPORT)
      expect(
        ((await req(developer.token, 'GET', `/vulnerabilities/${v.id}`)).json() as Vulnerability)
          .resolved_on_default_branch,
      ).toBe(false)
    })

    it('are left alone by a report of another branch', () => {
      const result = ingestSecurityReport(
        s.app.burrow.db,
        project.id,
        'dependency_scanning',
        { vulnerabilities: [] },
        { defaultBranch: false },
      )
      expect(result.undetected).toBe(0)
    })
  })
})
