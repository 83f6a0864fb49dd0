import { createHash } from 'node:crypto'
import { isRecord } from '../../../shared/json'

/**
 * Reads GitLab security report artifacts (`gl-sast-report.json`, `gl-dependency-scanning-report.json`
 * and the other secure report schemas): each entry of `vulnerabilities[]` becomes a finding with
 * GitLab's fingerprints. Pure; services/vulnerabilities.ts stores the findings.
 */

export const REPORT_TYPES = [
  'sast',
  'dependency_scanning',
  'container_scanning',
  'dast',
  'secret_detection',
  'coverage_fuzzing',
  'api_fuzzing',
  'cluster_image_scanning',
] as const
export type ReportType = (typeof REPORT_TYPES)[number]

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info', 'unknown'] as const
export type Severity = (typeof SEVERITIES)[number]
export const CONFIDENCES = ['confirmed', 'high', 'medium', 'low', 'unknown', 'experimental', 'ignore'] as const
export type Confidence = (typeof CONFIDENCES)[number]

export interface ReportIdentifier {
  readonly externalType: string
  readonly externalId: string
  readonly name: string
  readonly url: string | null
  /** SHA1 of `type:value`, GitLab's identifier fingerprint. */
  readonly fingerprint: string
}

export interface ReportScanner {
  readonly externalId: string
  readonly name: string
  readonly vendor: string
}

export interface ReportFinding {
  readonly name: string
  readonly description: string | null
  readonly solution: string | null
  readonly severity: Severity
  readonly confidence: Confidence
  readonly scanner: ReportScanner
  /** The first is the primary identifier. */
  readonly identifiers: readonly ReportIdentifier[]
  readonly location: Readonly<Record<string, unknown>>
  readonly locationFingerprint: string
  readonly filePath: string | null
  /** The dependency a dependency or container scanning finding is about. */
  readonly packageName: string | null
  readonly packageVersion: string | null
  /** The report's entry as JSON text (the API's `raw_metadata`). */
  readonly rawMetadata: string
}

export interface ParsedReport {
  /** The report schema version (the findings' `metadata_version`). */
  readonly version: string
  readonly findings: readonly ReportFinding[]
  /** Entries that were left out, and why. */
  readonly skipped: readonly string[]
}

/** A report that is not a security report at all. */
export class SecurityReportError extends Error {}

type Json = Record<string, unknown>

function str(value: unknown): string | null {
  if (typeof value === 'string' && value.trim() !== '') return value
  if (typeof value === 'number') return String(value)
  return null
}

function sha1(value: string): string {
  return createHash('sha1').update(value).digest('hex')
}

/** Severity as GitLab stores it: lowercase, `unknown` when missing or unrecognised. */
export function normaliseSeverity(value: unknown): Severity {
  const lower = typeof value === 'string' ? value.trim().toLowerCase() : ''
  if (lower === 'informational') return 'info'
  return (SEVERITIES as readonly string[]).includes(lower) ? (lower as Severity) : 'unknown'
}

/** Confidence as GitLab stores it: lowercase, `unknown` when missing (schema 15 dropped it). */
export function normaliseConfidence(value: unknown): Confidence {
  const lower = typeof value === 'string' ? value.trim().toLowerCase() : ''
  return (CONFIDENCES as readonly string[]).includes(lower) ? (lower as Confidence) : 'unknown'
}

function identifiersOf(entry: Json): ReportIdentifier[] {
  const list = Array.isArray(entry.identifiers) ? entry.identifiers : []
  const out: ReportIdentifier[] = []
  for (const raw of list) {
    if (!isRecord(raw)) continue
    const type = str(raw.type)
    const value = str(raw.value)
    if (!type || !value) continue
    out.push({
      externalType: type,
      externalId: value,
      name: str(raw.name) ?? value,
      url: str(raw.url),
      fingerprint: sha1(`${type}:${value}`),
    })
  }
  return out
}

function scannerOf(entry: Json, report: Json, reportType: ReportType): ReportScanner {
  const scan = isRecord(report.scan) ? report.scan : {}
  const candidates = [entry.scanner, scan.scanner]
  for (const c of candidates) {
    if (!isRecord(c)) continue
    const id = str(c.id)
    if (!id) continue
    const vendor = isRecord(c.vendor) ? str(c.vendor.name) : null
    return { externalId: id, name: str(c.name) ?? id, vendor: vendor ?? 'GitLab' }
  }
  return { externalId: reportType, name: reportType, vendor: 'GitLab' }
}

/** What GitLab hashes into a finding's location fingerprint, per report type. */
function locationFingerprintData(reportType: ReportType, location: Json, packageName: string | null): string {
  switch (reportType) {
    case 'sast':
    case 'secret_detection':
      return `${str(location.file) ?? ''}:${str(location.start_line) ?? ''}:${str(location.end_line) ?? ''}`
    case 'dependency_scanning':
      return `${str(location.file) ?? ''}:${packageName ?? ''}`
    case 'container_scanning':
    case 'cluster_image_scanning':
      return `${(str(location.image) ?? '').replace(/:[^:/]*$/, '')}:${packageName ?? ''}`
    case 'dast':
    case 'api_fuzzing':
      return `${str(location.path) ?? ''}:${str(location.param) ?? ''}:${str(location.method) ?? ''}`
    default:
      return JSON.stringify(location)
  }
}

/**
 * Parses a security report of `reportType`. Entries without a name or an identifier are left out
 * (GitLab cannot fingerprint them) and listed in `skipped`. Throws SecurityReportError when the
 * document is not a report (no `vulnerabilities` array).
 */
export function parseSecurityReport(reportType: ReportType, document: unknown): ParsedReport {
  if (!isRecord(document) || !Array.isArray(document.vulnerabilities))
    throw new SecurityReportError('Invalid security report: vulnerabilities must be an array')
  const version = str(document.version) ?? ''
  const findings: ReportFinding[] = []
  const skipped: string[] = []
  document.vulnerabilities.forEach((entry: unknown, index: number) => {
    if (!isRecord(entry)) {
      skipped.push(`vulnerabilities[${index}] is not an object`)
      return
    }
    const identifiers = identifiersOf(entry)
    const name = str(entry.name) ?? str(entry.message) ?? identifiers[0]?.name ?? null
    if (!name || identifiers.length === 0) {
      skipped.push(`vulnerabilities[${index}] has no ${name ? 'identifiers' : 'name'}`)
      return
    }
    const location = isRecord(entry.location) ? entry.location : {}
    const dependency = isRecord(location.dependency) ? location.dependency : {}
    const pkg = isRecord(dependency.package) ? dependency.package : {}
    const packageName = str(pkg.name)
    findings.push({
      name,
      description: str(entry.description),
      solution: str(entry.solution),
      severity: normaliseSeverity(entry.severity),
      confidence: normaliseConfidence(entry.confidence),
      scanner: scannerOf(entry, document, reportType),
      identifiers,
      location,
      locationFingerprint: sha1(locationFingerprintData(reportType, location, packageName)),
      filePath: str(location.file) ?? str(location.image),
      packageName,
      packageVersion: str(dependency.version),
      rawMetadata: JSON.stringify(entry),
    })
  })
  return { version, findings, skipped }
}

// GitLab's UUIDv5 namespace for finding UUIDs on production instances.
const FINDING_UUID_NAMESPACE = '58dc0f06-936c-43b3-93bb-71693f1b6570'

/** RFC 4122 version 5 UUID of `name` in `namespace`. */
export function uuidV5(name: string, namespace = FINDING_UUID_NAMESPACE): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex')
  const hash = createHash('sha1').update(ns).update(name).digest()
  hash[6] = (hash[6] & 0x0f) | 0x50
  hash[8] = (hash[8] & 0x3f) | 0x80
  const hex = hash.subarray(0, 16).toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}

/** A finding's UUID as GitLab derives it: report type, primary identifier, location and project. */
export function findingUuid(
  reportType: ReportType,
  finding: Pick<ReportFinding, 'identifiers' | 'locationFingerprint'>,
  projectId: number,
): string {
  return uuidV5(`${reportType}-${finding.identifiers[0].fingerprint}-${finding.locationFingerprint}-${projectId}`)
}
