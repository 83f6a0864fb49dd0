/**
 * Security: vulnerabilities and their findings (spec "Vulnerability", ULTIMATE) and the
 * dependency list (spec "Dependency").
 */
import { Type, type Static } from 'typebox'
import { Entity, IsoDate, Nullable, OpenObject, Timestamp } from './common'
import { ProjectRef } from './project'

/** The finding a vulnerability embeds (GitLab's Vulnerabilities::Finding attributes). */
export const VulnerabilityFinding = Entity({
  confidence: Type.String(),
  created_at: Timestamp,
  id: Type.Integer(),
  location_fingerprint: Type.String(),
  metadata_version: Type.String(),
  name: Type.String(),
  primary_identifier_id: Type.Integer(),
  project_fingerprint: Type.String(),
  project_id: Type.Integer(),
  /** JSON text. */
  raw_metadata: Type.String(),
  report_type: Type.String(),
  scanner_id: Type.Integer(),
  severity: Type.String(),
  updated_at: Timestamp,
  uuid: Type.String(),
  vulnerability_id: Nullable(Type.Integer()),
})
export type VulnerabilityFinding = Static<typeof VulnerabilityFinding>

/** GitLab's Vulnerability entity (the spec's fields plus the confirmation fields). */
export const Vulnerability = Entity({
  author_id: Type.Integer(),
  confidence: Type.String(),
  confirmed_at: Nullable(Timestamp),
  confirmed_by_id: Nullable(Type.Integer()),
  created_at: Timestamp,
  description: Nullable(Type.String()),
  dismissed_at: Nullable(Timestamp),
  dismissed_by_id: Nullable(Type.Integer()),
  due_date: Nullable(IsoDate),
  finding: Nullable(VulnerabilityFinding),
  id: Type.Integer(),
  last_edited_at: Nullable(Timestamp),
  last_edited_by_id: Nullable(Type.Integer()),
  project: ProjectRef,
  project_default_branch: Nullable(Type.String()),
  report_type: Type.String(),
  resolved_at: Nullable(Timestamp),
  resolved_by_id: Nullable(Type.Integer()),
  resolved_on_default_branch: Type.Boolean(),
  severity: Type.String(),
  start_date: Nullable(IsoDate),
  state: Type.Enum(['opened', 'confirmed', 'resolved', 'dismissed']),
  title: Type.String(),
  updated_at: Timestamp,
  updated_by_id: Nullable(Type.Integer()),
})
export type Vulnerability = Static<typeof Vulnerability>

/** An identifier of a finding (CVE, CWE, the scanner's own…). */
export const FindingIdentifier = Entity({
  external_type: Type.String(),
  external_id: Type.String(),
  name: Type.String(),
  url: Nullable(Type.String()),
})

/** GitLab's Vulnerabilities::FindingEntity (`GET /projects/:id/vulnerability_findings`). */
export const Finding = Entity({
  id: Type.Integer(),
  uuid: Type.String(),
  report_type: Type.String(),
  name: Type.String(),
  severity: Type.String(),
  confidence: Type.String(),
  scanner: Nullable(Entity({ external_id: Type.String(), name: Type.String(), vendor: Type.String() })),
  identifiers: Type.Array(FindingIdentifier),
  project_fingerprint: Type.String(),
  location_fingerprint: Type.String(),
  project: Entity({ id: Type.Integer(), name: Type.String(), full_path: Type.String(), full_name: Type.String() }),
  description: Nullable(Type.String()),
  solution: Nullable(Type.String()),
  /** The report's links, as the scanner gave them. */
  links: Type.Array(Type.Unknown()),
  /** The report's location (file, lines, dependency…), as the scanner gave it. */
  location: OpenObject,
  details: OpenObject,
  false_positive: Type.Boolean(),
  /** The vulnerability's state, `detected` while the finding has none. */
  state: Type.String(),
  vulnerability_id: Nullable(Type.Integer()),
  pipeline_id: Nullable(Type.Integer()),
  blob_path: Nullable(Type.String()),
  web_url: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type Finding = Static<typeof Finding>

/** A vulnerability of a dependency; `id` and `url` once a vulnerability records the finding. */
export const DependencyVulnerability = Entity({
  name: Type.String(),
  severity: Type.String(),
  id: Type.Optional(Type.Integer()),
  url: Type.Optional(Type.String()),
})

/** `GET /projects/:id/dependencies`; `vulnerabilities` for those who may read the security dashboard. */
export const Dependency = Entity({
  name: Type.String(),
  version: Type.String(),
  /** `bundler`, `composer`, `conan`, `maven`, `npm`, `pip`, `yarn`… */
  package_manager: Type.String(),
  dependency_file_path: Type.String(),
  vulnerabilities: Type.Optional(Type.Array(DependencyVulnerability)),
})
export type Dependency = Static<typeof Dependency>
