import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  findingUuid,
  parseSecurityReport,
  SecurityReportError,
  uuidV5,
} from '../../src/server/modules/vulnerabilities/report'

const sha1 = (s: string): string => createHash('sha1').update(s).digest('hex')

const DEPENDENCY_REPORT = {
  version: '2.0',
  vulnerabilities: [
    {
      category: 'dependency_scanning',
      name: 'Regular Expression Denial of Service',
      message: 'Regular Expression Denial of Service in debug',
      description: 'The debug module is vulnerable to regular expression denial of service.',
      cve: 'yarn.lock:debug:gemnasium:37283ed4-0380-40d7-ada7-2d994afcc62a',
      severity: 'Unknown',
      confidence: 'High',
      solution: 'Upgrade to latest versions.',
      scanner: { id: 'gemnasium', name: 'Gemnasium' },
      location: { file: 'yarn.lock', dependency: { package: { name: 'debug' }, version: '1.0.5' } },
      identifiers: [
        {
          type: 'gemnasium',
          name: 'Gemnasium-37283ed4-0380-40d7-ada7-2d994afcc62a',
          value: '37283ed4-0380-40d7-ada7-2d994afcc62a',
          url: 'https://deps.sec.gitlab.com/packages/npm/debug/versions/1.0.5/advisories',
        },
      ],
      links: [{ url: 'https://nodesecurity.io/advisories/534' }],
    },
  ],
  remediations: [],
}

describe('security report parser', () => {
  it('reads a dependency scanning finding: names, severity, confidence, scanner, identifiers and the dependency', () => {
    const { version, findings, skipped } = parseSecurityReport('dependency_scanning', DEPENDENCY_REPORT)
    expect(version).toBe('2.0')
    expect(skipped).toEqual([])
    expect(findings).toHaveLength(1)
    const f = findings[0]
    expect(f).toMatchObject({
      name: 'Regular Expression Denial of Service',
      severity: 'unknown',
      confidence: 'high',
      solution: 'Upgrade to latest versions.',
      scanner: { externalId: 'gemnasium', name: 'Gemnasium', vendor: 'GitLab' },
      filePath: 'yarn.lock',
      packageName: 'debug',
      packageVersion: '1.0.5',
    })
    expect(f.identifiers[0]).toEqual({
      externalType: 'gemnasium',
      externalId: '37283ed4-0380-40d7-ada7-2d994afcc62a',
      name: 'Gemnasium-37283ed4-0380-40d7-ada7-2d994afcc62a',
      url: 'https://deps.sec.gitlab.com/packages/npm/debug/versions/1.0.5/advisories',
      fingerprint: sha1('gemnasium:37283ed4-0380-40d7-ada7-2d994afcc62a'),
    })
    expect(f.locationFingerprint).toBe(sha1('yarn.lock:debug'))
    expect(JSON.parse(f.rawMetadata)).toEqual(DEPENDENCY_REPORT.vulnerabilities[0])
  })

  it('fingerprints SAST locations by file and lines, and takes the scanner from scan.scanner in schema 15 reports', () => {
    const { findings } = parseSecurityReport('sast', {
      version: '15.0.4',
      vulnerabilities: [
        {
          id: 'x',
          name: 'Weak hash',
          severity: 'Medium',
          location: { file: 'app/hash.rb', start_line: 3, end_line: 4 },
          identifiers: [{ type: 'cwe', name: 'CWE-327', value: '327' }],
        },
      ],
      scan: { scanner: { id: 'semgrep', name: 'Semgrep', vendor: { name: 'GitLab' } }, type: 'sast' },
    })
    expect(findings[0]).toMatchObject({
      severity: 'medium',
      confidence: 'unknown',
      scanner: { externalId: 'semgrep', name: 'Semgrep' },
      locationFingerprint: sha1('app/hash.rb:3:4'),
    })
  })

  it('leaves out entries without identifiers or name, saying why', () => {
    const { findings, skipped } = parseSecurityReport('sast', {
      vulnerabilities: [{ name: 'no ids', identifiers: [] }, 'junk', { identifiers: [{ type: 'cwe', value: '1' }] }],
    })
    expect(findings.map((f) => f.name)).toEqual(['1'])
    expect(skipped).toEqual(['vulnerabilities[0] has no identifiers', 'vulnerabilities[1] is not an object'])
  })

  it('refuses a document without a vulnerabilities array', () => {
    expect(() => parseSecurityReport('sast', { findings: [] })).toThrow(SecurityReportError)
    expect(() => parseSecurityReport('sast', [])).toThrow(SecurityReportError)
  })

  it('derives finding UUIDs as RFC 4122 version 5 UUIDs', () => {
    // The DNS namespace example of RFC 4122 / Python's uuid.uuid5(NAMESPACE_DNS, 'python.org').
    expect(uuidV5('python.org', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('886313e1-3b8a-5372-9b90-0c9aee199e5d')
    const { findings } = parseSecurityReport('dependency_scanning', DEPENDENCY_REPORT)
    const a = findingUuid('dependency_scanning', findings[0], 1)
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(findingUuid('dependency_scanning', findings[0], 1)).toBe(a)
    expect(findingUuid('dependency_scanning', findings[0], 2)).not.toBe(a)
  })
})
