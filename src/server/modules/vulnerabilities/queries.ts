import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'

export interface ScannerRow {
  readonly id: number
  readonly project_id: number
  readonly external_id: string
  readonly name: string
  readonly vendor: string
}

export interface IdentifierRow {
  readonly id: number
  readonly project_id: number
  readonly fingerprint: string
  readonly external_type: string
  readonly external_id: string
  readonly name: string
  readonly url: string | null
}

export interface FindingRow {
  readonly id: number
  readonly project_id: number
  readonly uuid: string
  readonly report_type: string
  readonly name: string
  readonly description: string | null
  readonly solution: string | null
  readonly severity: string
  readonly confidence: string
  readonly scanner_id: number
  readonly primary_identifier_id: number
  readonly location_fingerprint: string
  readonly project_fingerprint: string
  readonly metadata_version: string
  readonly raw_metadata: string
  /** JSON object. */
  readonly location: string
  readonly file_path: string | null
  readonly package_name: string | null
  readonly package_version: string | null
  readonly pipeline_id: number | null
  readonly vulnerability_id: number | null
  /** 1 while the last report of its type still contained it. */
  readonly detected: number
  readonly created_at: string
  readonly updated_at: string
}

export type VulnerabilityState = 'opened' | 'confirmed' | 'resolved' | 'dismissed'

export interface VulnerabilityRow {
  readonly id: number
  readonly project_id: number
  readonly author_id: number
  readonly title: string
  readonly description: string | null
  readonly state: VulnerabilityState
  readonly severity: string
  readonly confidence: string
  readonly report_type: string
  readonly resolved_on_default_branch: number
  readonly confirmed_at: string | null
  readonly confirmed_by_id: number | null
  readonly resolved_at: string | null
  readonly resolved_by_id: number | null
  readonly dismissed_at: string | null
  readonly dismissed_by_id: number | null
  readonly updated_by_id: number | null
  readonly last_edited_at: string | null
  readonly last_edited_by_id: number | null
  readonly start_date: string | null
  readonly due_date: string | null
  readonly created_at: string
  readonly updated_at: string
}

/** The project's scanner with this external id, created or renamed as the report names it. */
export function upsertScanner(db: Db, projectId: number, externalId: string, name: string, vendor: string): ScannerRow {
  const now = nowIso()
  return db
    .prepare(
      `INSERT INTO vulnerability_scanners (project_id, external_id, name, vendor, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (project_id, external_id) DO UPDATE SET name = excluded.name, vendor = excluded.vendor, updated_at = excluded.updated_at
       RETURNING *`,
    )
    .get(projectId, externalId, name, vendor, now, now) as ScannerRow
}

export interface NewIdentifier {
  readonly fingerprint: string
  readonly externalType: string
  readonly externalId: string
  readonly name: string
  readonly url: string | null
}

/** The project's identifier with this fingerprint, created or updated. */
export function upsertIdentifier(db: Db, projectId: number, i: NewIdentifier): IdentifierRow {
  const now = nowIso()
  return db
    .prepare(
      `INSERT INTO vulnerability_identifiers (project_id, fingerprint, external_type, external_id, name, url, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (project_id, fingerprint) DO UPDATE SET name = excluded.name, url = excluded.url, updated_at = excluded.updated_at
       RETURNING *`,
    )
    .get(projectId, i.fingerprint, i.externalType, i.externalId, i.name, i.url, now, now) as IdentifierRow
}

export interface NewFinding {
  readonly projectId: number
  readonly uuid: string
  readonly reportType: string
  readonly name: string
  readonly description: string | null
  readonly solution: string | null
  readonly severity: string
  readonly confidence: string
  readonly scannerId: number
  readonly primaryIdentifierId: number
  readonly locationFingerprint: string
  readonly projectFingerprint: string
  readonly metadataVersion: string
  readonly rawMetadata: string
  readonly location: string
  readonly filePath: string | null
  readonly packageName: string | null
  readonly packageVersion: string | null
  readonly pipelineId: number | null
}

/**
 * Inserts a finding, or refreshes the one with the same uuid (a later report of the same
 * problem): attributes follow the newest report, the vulnerability link stays. Returns the row
 * and whether it was new.
 */
export function upsertFinding(db: Db, f: NewFinding): { finding: FindingRow; created: boolean } {
  const existing = db
    .prepare('SELECT id FROM vulnerability_findings WHERE project_id = ? AND uuid = ?')
    .get(f.projectId, f.uuid) as { id: number } | undefined
  const now = nowIso()
  const values = [
    f.reportType,
    f.name,
    f.description,
    f.solution,
    f.severity,
    f.confidence,
    f.scannerId,
    f.primaryIdentifierId,
    f.locationFingerprint,
    f.projectFingerprint,
    f.metadataVersion,
    f.rawMetadata,
    f.location,
    f.filePath,
    f.packageName,
    f.packageVersion,
    f.pipelineId,
  ]
  if (existing) {
    db.prepare(
      `UPDATE vulnerability_findings SET report_type = ?, name = ?, description = ?, solution = ?, severity = ?, confidence = ?, scanner_id = ?,
         primary_identifier_id = ?, location_fingerprint = ?, project_fingerprint = ?, metadata_version = ?, raw_metadata = ?, location = ?,
         file_path = ?, package_name = ?, package_version = ?, pipeline_id = COALESCE(?, pipeline_id), detected = 1, updated_at = ? WHERE id = ?`,
    ).run(...values, now, existing.id)
    return { finding: findFinding(db, existing.id) as FindingRow, created: false }
  }
  const info = db
    .prepare(
      `INSERT INTO vulnerability_findings (report_type, name, description, solution, severity, confidence, scanner_id, primary_identifier_id,
         location_fingerprint, project_fingerprint, metadata_version, raw_metadata, location, file_path, package_name, package_version, pipeline_id,
         project_id, uuid, detected, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
    )
    .run(...values, f.projectId, f.uuid, now, now)
  return { finding: findFinding(db, Number(info.lastInsertRowid)) as FindingRow, created: true }
}

export function replaceFindingIdentifiers(db: Db, findingId: number, identifierIds: readonly number[]): void {
  db.prepare('DELETE FROM vulnerability_finding_identifiers WHERE finding_id = ?').run(findingId)
  const insert = db.prepare(
    'INSERT OR IGNORE INTO vulnerability_finding_identifiers (finding_id, identifier_id, position) VALUES (?, ?, ?)',
  )
  identifierIds.forEach((id, i) => insert.run(findingId, id, i))
}

/**
 * After a report of `reportType` was read: findings of that type it no longer contains are no
 * longer detected, and their vulnerabilities are resolved on the default branch; the others are
 * detected again.
 */
export function markUndetected(db: Db, projectId: number, reportType: string, keptIds: readonly number[]): number {
  const now = nowIso()
  const kept = keptIds.map(() => '?').join(', ')
  // With nothing kept every finding of the type is gone; `NOT IN (NULL)` would match none.
  const notKept = keptIds.length > 0 ? `AND id NOT IN (${kept})` : ''
  const gone = db
    .prepare(
      `UPDATE vulnerability_findings SET detected = 0, updated_at = ? WHERE project_id = ? AND report_type = ? AND detected = 1 ${notKept}`,
    )
    .run(now, projectId, reportType, ...keptIds).changes
  db.prepare(
    `UPDATE vulnerabilities SET resolved_on_default_branch = 1, updated_at = ?
     WHERE id IN (SELECT vulnerability_id FROM vulnerability_findings WHERE project_id = ? AND report_type = ? AND detected = 0 AND vulnerability_id IS NOT NULL)
       AND resolved_on_default_branch = 0`,
  ).run(now, projectId, reportType)
  if (keptIds.length > 0) {
    db.prepare(
      `UPDATE vulnerabilities SET resolved_on_default_branch = 0, updated_at = ?
       WHERE id IN (SELECT vulnerability_id FROM vulnerability_findings WHERE id IN (${kept}) AND vulnerability_id IS NOT NULL) AND resolved_on_default_branch = 1`,
    ).run(now, ...keptIds)
  }
  return gone
}

export function findFinding(db: Db, id: number): FindingRow | undefined {
  return db.prepare('SELECT * FROM vulnerability_findings WHERE id = ?').get(id) as FindingRow | undefined
}

export function findingsByVulnerability(db: Db, vulnerabilityIds: readonly number[]): Map<number, FindingRow> {
  if (vulnerabilityIds.length === 0) return new Map()
  const rows = db
    .prepare(
      `SELECT * FROM vulnerability_findings WHERE vulnerability_id IN (${vulnerabilityIds.map(() => '?').join(', ')})`,
    )
    .all(...vulnerabilityIds) as FindingRow[]
  return new Map(rows.map((r) => [r.vulnerability_id as number, r]))
}

export interface FindingFilter {
  readonly projectId: number
  readonly reportTypes?: readonly string[]
  readonly severities?: readonly string[]
  readonly confidences?: readonly string[]
  readonly pipelineId?: number
  /** Leave out findings whose vulnerability was dismissed (GitLab's default `scope=dismissed`). */
  readonly hideDismissed?: boolean
}

/** A page of findings, newest report first, and the total. */
export function listFindings(
  db: Db,
  f: FindingFilter,
  limit: number,
  offset: number,
): { rows: FindingRow[]; total: number } {
  const where = ['f.project_id = ?']
  const params: unknown[] = [f.projectId]
  const inList = (column: string, values: readonly unknown[] | undefined): void => {
    if (!values || values.length === 0) return
    where.push(`${column} IN (${values.map(() => '?').join(', ')})`)
    params.push(...values)
  }
  inList('f.report_type', f.reportTypes)
  inList('f.severity', f.severities)
  inList('f.confidence', f.confidences)
  if (f.pipelineId !== undefined) {
    where.push('f.pipeline_id = ?')
    params.push(f.pipelineId)
  }
  if (f.hideDismissed)
    where.push(`NOT EXISTS (SELECT 1 FROM vulnerabilities v WHERE v.id = f.vulnerability_id AND v.state = 'dismissed')`)
  const sql = where.join(' AND ')
  const total = (
    db.prepare(`SELECT COUNT(*) AS n FROM vulnerability_findings f WHERE ${sql}`).get(...params) as { n: number }
  ).n
  const rows = db
    .prepare(
      `SELECT f.* FROM vulnerability_findings f WHERE ${sql}
       ORDER BY CASE f.severity WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 WHEN 'low' THEN 3 WHEN 'info' THEN 4 ELSE 5 END, f.id
       LIMIT ? OFFSET ?`,
    )
    .all(...params, limit, offset) as FindingRow[]
  return { rows, total }
}

export function scannersByIds(db: Db, ids: readonly number[]): Map<number, ScannerRow> {
  if (ids.length === 0) return new Map()
  const rows = db
    .prepare(`SELECT * FROM vulnerability_scanners WHERE id IN (${ids.map(() => '?').join(', ')})`)
    .all(...ids) as ScannerRow[]
  return new Map(rows.map((r) => [r.id, r]))
}

/** Identifiers of each finding, primary first. */
export function identifiersOfFindings(db: Db, findingIds: readonly number[]): Map<number, IdentifierRow[]> {
  const out = new Map<number, IdentifierRow[]>(findingIds.map((id) => [id, []]))
  if (findingIds.length === 0) return out
  const rows = db
    .prepare(
      `SELECT fi.finding_id AS finding_id, i.* FROM vulnerability_finding_identifiers fi JOIN vulnerability_identifiers i ON i.id = fi.identifier_id
       WHERE fi.finding_id IN (${findingIds.map(() => '?').join(', ')}) ORDER BY fi.position`,
    )
    .all(...findingIds) as (IdentifierRow & { finding_id: number })[]
  for (const r of rows) {
    const { finding_id: findingId, ...identifier } = r
    out.get(findingId)?.push(identifier)
  }
  return out
}

/** Detected dependency-scanning findings of a project, for the dependency list. */
export function dependencyFindings(db: Db, projectId: number): FindingRow[] {
  return db
    .prepare(
      `SELECT f.* FROM vulnerability_findings f
       WHERE f.project_id = ? AND f.report_type = 'dependency_scanning' AND f.package_name IS NOT NULL AND f.detected = 1
         AND NOT EXISTS (SELECT 1 FROM vulnerabilities v WHERE v.id = f.vulnerability_id AND v.state IN ('dismissed', 'resolved'))
       ORDER BY f.id`,
    )
    .all(projectId) as FindingRow[]
}

export interface NewVulnerability {
  readonly projectId: number
  readonly authorId: number
  readonly title: string
  readonly description: string | null
  readonly severity: string
  readonly confidence: string
  readonly reportType: string
}

/** Inserts a vulnerability in state `opened` and attaches the finding to it. */
export function insertVulnerability(db: Db, v: NewVulnerability, findingId: number): VulnerabilityRow {
  const now = nowIso()
  const info = db
    .prepare(
      `INSERT INTO vulnerabilities (project_id, author_id, title, description, state, severity, confidence, report_type, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'opened', ?, ?, ?, ?, ?)`,
    )
    .run(v.projectId, v.authorId, v.title, v.description, v.severity, v.confidence, v.reportType, now, now)
  const id = Number(info.lastInsertRowid)
  db.prepare('UPDATE vulnerability_findings SET vulnerability_id = ?, updated_at = ? WHERE id = ?').run(
    id,
    now,
    findingId,
  )
  return findVulnerability(db, id) as VulnerabilityRow
}

export function findVulnerability(db: Db, id: number): VulnerabilityRow | undefined {
  return db.prepare('SELECT * FROM vulnerabilities WHERE id = ?').get(id) as VulnerabilityRow | undefined
}

export function listVulnerabilities(
  db: Db,
  projectId: number,
  limit: number,
  offset: number,
): { rows: VulnerabilityRow[]; total: number } {
  const total = (
    db.prepare('SELECT COUNT(*) AS n FROM vulnerabilities WHERE project_id = ?').get(projectId) as { n: number }
  ).n
  const rows = db
    .prepare('SELECT * FROM vulnerabilities WHERE project_id = ? ORDER BY id DESC LIMIT ? OFFSET ?')
    .all(projectId, limit, offset) as VulnerabilityRow[]
  return { rows, total }
}

/** Moves a vulnerability to `state`, stamping who and when for the states that record it. */
export function setVulnerabilityState(db: Db, id: number, state: VulnerabilityState, userId: number): VulnerabilityRow {
  const now = nowIso()
  const stamps: Record<VulnerabilityState, string> = {
    opened:
      'confirmed_at = NULL, confirmed_by_id = NULL, resolved_at = NULL, resolved_by_id = NULL, dismissed_at = NULL, dismissed_by_id = NULL',
    confirmed:
      'confirmed_at = @now, confirmed_by_id = @user, resolved_at = NULL, resolved_by_id = NULL, dismissed_at = NULL, dismissed_by_id = NULL',
    resolved: 'resolved_at = @now, resolved_by_id = @user, dismissed_at = NULL, dismissed_by_id = NULL',
    dismissed: 'dismissed_at = @now, dismissed_by_id = @user, resolved_at = NULL, resolved_by_id = NULL',
  }
  db.prepare(
    `UPDATE vulnerabilities SET state = @state, ${stamps[state]}, updated_by_id = @user, updated_at = @now WHERE id = @id`,
  ).run({ state, now, user: userId, id })
  return findVulnerability(db, id) as VulnerabilityRow
}
