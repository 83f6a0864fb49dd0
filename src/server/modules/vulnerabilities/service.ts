import { createHash } from 'node:crypto'
import type { Finding, Vulnerability } from '../../../shared/api/security'
import type { Caller } from '../../platform/caller'
import type { Db } from '../../platform/db/connection'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import {
  findFinding,
  findingsByVulnerability,
  findVulnerability,
  identifiersOfFindings,
  insertVulnerability,
  listFindings,
  listVulnerabilities,
  markUndetected,
  replaceFindingIdentifiers,
  scannersByIds,
  setVulnerabilityState,
  upsertFinding,
  upsertIdentifier,
  upsertScanner,
  type FindingFilter,
  type FindingRow,
  type VulnerabilityRow,
  type VulnerabilityState,
} from './queries'
import { findPipelineById, readJobArtifact } from '../pipelines'
import { ApiError, forbidden, notFound } from '../../platform/http/errors'
import type { Page } from '../../platform/http/pagination'
import {
  findProjectById,
  findProjectWithNamespace,
  type ProjectWithNamespaceRow,
} from '../../platform/db/platform-queries'
import { findingEntity, vulnerabilityEntity } from './entity'
import { findingUuid, parseSecurityReport, REPORT_TYPES, SecurityReportError, type ReportType } from './report'
import type { ArtifactStoredEvent } from '../pipelines'
import { recordProjectChange } from '../projects'

/** What ingesting one report did. */
export interface IngestResult {
  readonly findings: readonly FindingRow[]
  readonly created: number
  readonly updated: number
  /** Findings of this report type the report no longer contains. */
  readonly undetected: number
  /** Entries left out of the report, and why. */
  readonly skipped: readonly string[]
}

export interface IngestOptions {
  /** The pipeline whose artifact the report is. */
  readonly pipelineId?: number | null
  /**
   * True (the default) for a report of the default branch: findings of the same type it no longer
   * contains stop being detected and their vulnerabilities count as resolved on the default branch.
   */
  readonly defaultBranch?: boolean
}

/**
 * Stores the findings of a GitLab security report (`gl-sast-report.json` and friends) for a
 * project: scanners and identifiers per project, one finding per GitLab UUID (report type,
 * primary identifier, location, project), refreshed when a later report has it again. Findings
 * are not vulnerabilities: those are created from them (POST /projects/:id/vulnerabilities).
 * Throws SecurityReportError when the document is not a report.
 */
export function ingestSecurityReport(
  db: Db,
  projectId: number,
  reportType: ReportType,
  document: unknown,
  options: IngestOptions = {},
): IngestResult {
  const report = parseSecurityReport(reportType, document)
  return db.transaction((): IngestResult => {
    const findings: FindingRow[] = []
    let created = 0
    for (const f of report.findings) {
      const scanner = upsertScanner(db, projectId, f.scanner.externalId, f.scanner.name, f.scanner.vendor)
      const identifiers = f.identifiers.map((i) =>
        upsertIdentifier(db, projectId, {
          fingerprint: i.fingerprint,
          externalType: i.externalType,
          externalId: i.externalId,
          name: i.name,
          url: i.url,
        }),
      )
      const result = upsertFinding(db, {
        projectId,
        uuid: findingUuid(reportType, f, projectId),
        reportType,
        name: f.name,
        description: f.description,
        solution: f.solution,
        severity: f.severity,
        confidence: f.confidence,
        scannerId: scanner.id,
        primaryIdentifierId: identifiers[0].id,
        locationFingerprint: f.locationFingerprint,
        projectFingerprint: createHash('sha1').update(f.identifiers[0].fingerprint).digest('hex'),
        metadataVersion: report.version,
        rawMetadata: f.rawMetadata,
        location: JSON.stringify(f.location),
        filePath: f.filePath,
        packageName: f.packageName,
        packageVersion: f.packageVersion,
        pipelineId: options.pipelineId ?? null,
      })
      replaceFindingIdentifiers(
        db,
        result.finding.id,
        identifiers.map((i) => i.id),
      )
      if (result.created) created += 1
      findings.push(result.finding)
    }
    const undetected =
      options.defaultBranch === false
        ? 0
        : markUndetected(
            db,
            projectId,
            reportType,
            findings.map((f) => f.id),
          )
    return { findings, created, updated: findings.length - created, undetected, skipped: report.skipped }
  })()
}

/**
 * Artifact listener (services/ci-events.ts): a security report (`artifacts:reports:sast`,
 * `dependency_scanning`…) uploaded by a job of a pipeline on the project's default branch is
 * ingested with that pipeline. Reports of other branches and tags, and files that are not
 * reports, are left alone.
 */
export function ingestReportArtifact(event: ArtifactStoredEvent): void {
  const { ctx, job, artifact } = event
  if (!(REPORT_TYPES as readonly string[]).includes(artifact.file_type)) return
  const pipeline = findPipelineById(ctx.db, job.pipeline_id)
  const project = findProjectById(ctx.db, job.project_id)
  if (!pipeline || !project || pipeline.tag === 1 || pipeline.ref !== project.default_branch) return
  try {
    const document: unknown = JSON.parse(readJobArtifact(ctx, artifact).toString('utf8'))
    ingestSecurityReport(ctx.db, project.id, artifact.file_type as ReportType, document, { pipelineId: pipeline.id })
  } catch (error) {
    // A malformed report is the job's problem, not the upload's: it is kept and not read.
    if (error instanceof SyntaxError || error instanceof SecurityReportError) return
    throw error
  }
}

/** GitLab's 400 for a finding that cannot become a vulnerability. */
function findingUnavailable(): ApiError {
  return new ApiError(400, { message: { base: ['finding is not found or is already attached to a vulnerability'] } })
}

/** The project with its namespace path (for URLs in answers), or 404. */
export function projectWithNamespace(caller: Caller, projectId: number): ProjectWithNamespaceRow {
  const project = findProjectWithNamespace(caller.db, projectId)
  if (!project) throw notFound('Project')
  return project
}

/**
 * A vulnerability by id: 404 when missing or its project is hidden from the caller, 403 when
 * the caller's role is below `minLevel` (policy.ts: Developer reads, Maintainer changes state).
 */
export function vulnerabilityFor(
  caller: Caller,
  id: number,
  minLevel: number,
): { readonly vulnerability: VulnerabilityRow; readonly project: ProjectWithNamespaceRow } {
  const vulnerability = findVulnerability(caller.db, id)
  const project = vulnerability ? findProjectWithNamespace(caller.db, vulnerability.project_id) : undefined
  if (!vulnerability || !project || !caller.perms.canReadProject(project)) throw notFound('Vulnerability')
  if (!caller.perms.canInProject(project, minLevel)) throw forbidden()
  return { vulnerability, project }
}

/** One page of the project's vulnerabilities, with the total count. */
export function vulnerabilitiesPage(
  caller: Caller,
  project: ProjectRow,
  page: Page,
): { readonly rows: VulnerabilityRow[]; readonly total: number } {
  return listVulnerabilities(caller.db, project.id, page.perPage, page.offset)
}

/** Vulnerabilities of one project as GitLab's entity, their findings loaded in one query. */
export function presentVulnerabilities(
  caller: Caller,
  rows: readonly VulnerabilityRow[],
  project: ProjectWithNamespaceRow,
): Vulnerability[] {
  const findings = findingsByVulnerability(
    caller.db,
    rows.map((r) => r.id),
  )
  return rows.map((v) => vulnerabilityEntity(v, findings.get(v.id), project))
}

/** One page of the project's findings matching `filter`, newest report first, with the total count. */
export function findingsPage(
  caller: Caller,
  filter: FindingFilter,
  page: Page,
): { readonly rows: FindingRow[]; readonly total: number } {
  return listFindings(caller.db, filter, page.perPage, page.offset)
}

/** Findings of one project as GitLab's entity, scanners, identifiers and states loaded once for the page. */
export function presentFindings(
  caller: Caller,
  rows: readonly FindingRow[],
  project: ProjectWithNamespaceRow,
): Finding[] {
  const db = caller.db
  const scanners = scannersByIds(db, [...new Set(rows.map((r) => r.scanner_id))])
  const identifiers = identifiersOfFindings(
    db,
    rows.map((r) => r.id),
  )
  const attached = rows.filter((r) => r.vulnerability_id !== null).map((r) => r.vulnerability_id as number)
  const states = new Map(attached.map((id) => [id, findVulnerability(db, id)?.state ?? 'detected']))
  const base = `${caller.baseUrl}/${project.ns_full_path}/${project.path}/-/security/vulnerabilities`
  return rows.map((f) =>
    findingEntity(f, {
      scanner: scanners.get(f.scanner_id),
      identifiers: identifiers.get(f.id) ?? [],
      project,
      state: f.vulnerability_id !== null ? (states.get(f.vulnerability_id) ?? 'detected') : 'detected',
      webUrl: f.vulnerability_id !== null ? `${base}/${f.vulnerability_id}` : `${base}`,
    }),
  )
}

/**
 * Creates a vulnerability from a finding of the project (callers check the role): author the
 * caller, title the finding's name, severity and confidence the finding's, state `opened` (the spec's
 * name; GitLab renamed it `detected` later, and `revert` returns to it).
 * 400 `{message: {base: [...]}}` when the finding is missing, another project's, or attached.
 */
export function createVulnerabilityFromFinding(
  caller: Caller,
  project: ProjectRow,
  findingId: number,
): VulnerabilityRow {
  const db = caller.db
  const author = caller.user as UserRow
  return db.transaction(() => {
    const finding = findFinding(db, findingId)
    if (!finding || finding.project_id !== project.id || finding.vulnerability_id !== null) throw findingUnavailable()
    const vulnerability = insertVulnerability(
      db,
      {
        projectId: project.id,
        authorId: author.id,
        title: finding.name,
        description: finding.description,
        severity: finding.severity,
        confidence: finding.confidence,
        reportType: finding.report_type,
      },
      finding.id,
    )
    recordProjectChange(caller, project, {
      targetType: 'Vulnerability',
      targetId: vulnerability.id,
      targetTitle: vulnerability.title,
      audit: {
        add: 'vulnerability',
        custom_message: `Created vulnerability ${vulnerability.id} from finding ${finding.id}`,
      },
    })
    return vulnerability
  })()
}

export type VulnerabilityAction = 'confirm' | 'resolve' | 'dismiss' | 'revert'

const TARGET_STATE: Readonly<Record<VulnerabilityAction, VulnerabilityState>> = {
  confirm: 'confirmed',
  resolve: 'resolved',
  dismiss: 'dismissed',
  revert: 'opened',
}

/**
 * Applies a state action (callers check the role). Returns null when the vulnerability is already
 * in the target state (the API's 304). Resolving and dismissing read as closing in the activity
 * feed, reverting as reopening; every change is audited with the reason when given.
 */
export function transitionVulnerability(
  caller: Caller,
  project: ProjectRow,
  vulnerability: VulnerabilityRow,
  action: VulnerabilityAction,
  comment?: string,
): VulnerabilityRow | null {
  const db = caller.db
  const user = caller.user as UserRow
  const state = TARGET_STATE[action]
  if (vulnerability.state === state) return null
  return db.transaction(() => {
    const updated = setVulnerabilityState(db, vulnerability.id, state, user.id)
    recordProjectChange(caller, project, {
      targetType: 'Vulnerability',
      targetId: updated.id,
      targetTitle: updated.title,
      audit: {
        change: 'vulnerability_state',
        from: vulnerability.state,
        to: state,
        custom_message: `Changed vulnerability ${updated.id} from ${vulnerability.state} to ${state}${comment ? ` with the comment: ${comment}` : ''}`,
      },
    })
    return updated
  })()
}

/** A SAST report in GitLab's schema, for demo content and tests (see seedSecurityFindings). */
export const SAMPLE_SAST_REPORT = {
  version: '15.0.7',
  vulnerabilities: [
    {
      id: 'a1',
      name: 'Use of a broken or risky cryptographic algorithm',
      description: 'MD5 is a weak hash function.',
      severity: 'Medium',
      location: { file: 'src/auth/hash.js', start_line: 12, end_line: 12 },
      identifiers: [
        { type: 'cwe', name: 'CWE-327', value: '327', url: 'https://cwe.mitre.org/data/definitions/327.html' },
        { type: 'semgrep_id', name: 'eslint.detect-weak-crypto', value: 'eslint.detect-weak-crypto' },
      ],
    },
    {
      id: 'a2',
      name: 'Improper neutralization of special elements used in an SQL command',
      description: 'SQL built from user input.',
      severity: 'High',
      location: { file: 'src/db/query.js', start_line: 40, end_line: 42 },
      identifiers: [
        { type: 'cwe', name: 'CWE-89', value: '89', url: 'https://cwe.mitre.org/data/definitions/89.html' },
      ],
    },
  ],
  scan: { scanner: { id: 'semgrep', name: 'Semgrep', vendor: { name: 'GitLab' } }, type: 'sast', status: 'success' },
} as const

/** A dependency scanning report in GitLab's schema, for demo content and tests. */
export const SAMPLE_DEPENDENCY_SCANNING_REPORT = {
  version: '15.0.7',
  vulnerabilities: [
    {
      id: 'd1',
      name: 'Prototype Pollution in lodash',
      description: 'lodash before 4.17.21 is vulnerable to prototype pollution.',
      severity: 'High',
      solution: 'Upgrade to version 4.17.21 or above.',
      location: { file: 'package-lock.json', dependency: { package: { name: 'lodash' }, version: '4.17.20' } },
      identifiers: [
        {
          type: 'cve',
          name: 'CVE-2021-23337',
          value: 'CVE-2021-23337',
          url: 'https://nvd.nist.gov/vuln/detail/CVE-2021-23337',
        },
      ],
    },
  ],
  scan: {
    scanner: { id: 'gemnasium', name: 'Gemnasium', vendor: { name: 'GitLab' } },
    type: 'dependency_scanning',
    status: 'success',
  },
} as const

/** Seeds a project's findings from the sample reports (demo content); returns how many. */
export function seedSecurityFindings(db: Db, projectId: number): number {
  return (
    ingestSecurityReport(db, projectId, 'sast', SAMPLE_SAST_REPORT).findings.length +
    ingestSecurityReport(db, projectId, 'dependency_scanning', SAMPLE_DEPENDENCY_SCANNING_REPORT).findings.length
  )
}
