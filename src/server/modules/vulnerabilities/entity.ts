import type { ProjectWithNamespaceRow } from '../../platform/db/platform-queries'
import { projectRef } from '../projects'
import type { Finding, Vulnerability, VulnerabilityFinding } from '../../../shared/api/security'
import type { FindingRow, IdentifierRow, ScannerRow, VulnerabilityRow } from './queries'

/** The finding as a vulnerability embeds it (GitLab's Vulnerabilities::Finding attributes). */
function embeddedFinding(f: FindingRow): VulnerabilityFinding {
  return {
    confidence: f.confidence,
    created_at: f.created_at,
    id: f.id,
    location_fingerprint: f.location_fingerprint,
    metadata_version: f.metadata_version,
    name: f.name,
    primary_identifier_id: f.primary_identifier_id,
    project_fingerprint: f.project_fingerprint,
    project_id: f.project_id,
    raw_metadata: f.raw_metadata,
    report_type: f.report_type,
    scanner_id: f.scanner_id,
    severity: f.severity,
    updated_at: f.updated_at,
    uuid: f.uuid,
    vulnerability_id: f.vulnerability_id,
  }
}

/** GitLab's Vulnerability entity (the spec's field list, plus GitLab's confirmation fields). */
export function vulnerabilityEntity(
  v: VulnerabilityRow,
  finding: FindingRow | undefined,
  project: ProjectWithNamespaceRow,
): Vulnerability {
  return {
    author_id: v.author_id,
    confidence: v.confidence,
    confirmed_at: v.confirmed_at,
    confirmed_by_id: v.confirmed_by_id,
    created_at: v.created_at,
    description: v.description,
    dismissed_at: v.dismissed_at,
    dismissed_by_id: v.dismissed_by_id,
    due_date: v.due_date,
    finding: finding ? embeddedFinding(finding) : null,
    id: v.id,
    last_edited_at: v.last_edited_at,
    last_edited_by_id: v.last_edited_by_id,
    project: projectRef(project),
    project_default_branch: project.default_branch,
    report_type: v.report_type,
    resolved_at: v.resolved_at,
    resolved_by_id: v.resolved_by_id,
    resolved_on_default_branch: v.resolved_on_default_branch === 1,
    severity: v.severity,
    start_date: v.start_date,
    state: v.state,
    title: v.title,
    updated_at: v.updated_at,
    updated_by_id: v.updated_by_id,
  }
}

export interface FindingExtras {
  readonly scanner: ScannerRow | undefined
  readonly identifiers: readonly IdentifierRow[]
  readonly project: ProjectWithNamespaceRow
  /** State of the finding's vulnerability (`detected` when it has none). */
  readonly state: string
  readonly webUrl: string
}

/** GitLab's Vulnerabilities::FindingEntity, as the vulnerability findings API lists findings. */
export function findingEntity(f: FindingRow, x: FindingExtras): Finding {
  const raw = JSON.parse(f.raw_metadata) as Readonly<Record<string, unknown>>
  const location = JSON.parse(f.location) as Readonly<Record<string, unknown>>
  const blobPath =
    typeof location.file === 'string' && x.project.default_branch
      ? `/${x.project.ns_full_path}/${x.project.path}/-/blob/${x.project.default_branch}/${location.file}${typeof location.start_line === 'number' ? `#L${location.start_line}` : ''}`
      : null
  return {
    id: f.id,
    uuid: f.uuid,
    report_type: f.report_type,
    name: f.name,
    severity: f.severity,
    confidence: f.confidence,
    scanner: x.scanner ? { external_id: x.scanner.external_id, name: x.scanner.name, vendor: x.scanner.vendor } : null,
    identifiers: x.identifiers.map((i) => ({
      external_type: i.external_type,
      external_id: i.external_id,
      name: i.name,
      url: i.url,
    })),
    project_fingerprint: f.project_fingerprint,
    location_fingerprint: f.location_fingerprint,
    project: {
      id: x.project.id,
      name: x.project.name,
      full_path: `/${x.project.ns_full_path}/${x.project.path}`,
      full_name: `${x.project.ns_full_name} / ${x.project.name}`,
    },
    description: f.description,
    solution: f.solution,
    links: Array.isArray(raw.links) ? raw.links : [],
    location,
    details:
      raw.details !== null && typeof raw.details === 'object' ? (raw.details as Readonly<Record<string, unknown>>) : {},
    false_positive: false,
    state: x.state,
    vulnerability_id: f.vulnerability_id,
    pipeline_id: f.pipeline_id,
    blob_path: blobPath,
    web_url: x.webUrl,
    created_at: f.created_at,
    updated_at: f.updated_at,
  }
}
