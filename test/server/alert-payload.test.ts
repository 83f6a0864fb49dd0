import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  alertFingerprint,
  inlineKeys,
  jsonDepth,
  normaliseSeverity,
  parseAlertPayload,
  parseMappings,
  payloadAlertFields,
  truncate,
} from '../../src/server/modules/alerts/payload'

const NOW = new Date('2024-05-01T10:00:00.000Z')
const sha1 = (s: string): string => createHash('sha1').update(s).digest('hex')

describe('alert payload rules', () => {
  it('defaults the title to "New: Alert" when absent or blank', () => {
    expect(parseAlertPayload({}, [], NOW).title).toBe('New: Alert')
    expect(parseAlertPayload({ title: '   ' }, [], NOW).title).toBe('New: Alert')
  })

  it('defaults the start time to now when absent or not a time', () => {
    expect(parseAlertPayload({}, [], NOW).startedAt).toBe(NOW.toISOString())
    expect(parseAlertPayload({ start_time: 'yesterday-ish' }, [], NOW).startedAt).toBe(NOW.toISOString())
    expect(parseAlertPayload({ start_time: '2019-09-12T06:00:55Z' }, [], NOW).startedAt).toBe(
      '2019-09-12T06:00:55.000Z',
    )
  })

  it('normalises severity case-insensitively, critical when missing or unknown to the list', () => {
    expect(normaliseSeverity('HIGH')).toBe('high')
    expect(normaliseSeverity(' Info ')).toBe('info')
    expect(normaliseSeverity('unknown')).toBe('unknown')
    expect(normaliseSeverity('sev1')).toBe('critical')
    expect(normaliseSeverity(undefined)).toBe('critical')
    expect(normaliseSeverity(3)).toBe('critical')
  })

  it('takes no property of an object for a severity (constructor, toString are unknown words: critical)', () => {
    expect(normaliseSeverity('constructor')).toBe('critical')
    expect(normaliseSeverity('toString')).toBe('critical')
    expect(normaliseSeverity('__proto__')).toBe('critical')
  })

  it('reads end_time as the resolution time', () => {
    expect(parseAlertPayload({ end_time: '2024-05-01T11:00:00Z' }, [], NOW).endedAt).toBe('2024-05-01T11:00:00.000Z')
    expect(parseAlertPayload({ end_time: 'not a time' }, [], NOW).endedAt).toBeNull()
  })

  it('fingerprints a string with SHA1 of the value, an array with SHA1 of its flattened parts joined', () => {
    expect(alertFingerprint({}, 'd19381d4e8ebca87b55cda6e8eee7385')).toBe(sha1('d19381d4e8ebca87b55cda6e8eee7385'))
    expect(alertFingerprint({}, ['a', ['b', 1]])).toBe(sha1('ab1'))
    expect(alertFingerprint({}, 42)).toBe(sha1('42'))
  })

  it('fingerprints a payload without fingerprint from its content, ignoring start_time, end_time, hosts and key order', () => {
    const a = alertFingerprint(
      { title: 'Disk full', service: 'db', start_time: '2024-01-01T00:00:00Z', hosts: ['h1'] },
      undefined,
    )
    const b = alertFingerprint(
      {
        service: 'db',
        title: 'Disk full',
        start_time: '2024-02-02T00:00:00Z',
        hosts: 'h2',
        end_time: '2024-02-02T01:00:00Z',
      },
      undefined,
    )
    expect(a).toBe(b)
    expect(alertFingerprint({ title: 'Disk full', service: 'web' }, undefined)).not.toBe(a)
  })

  it('has no fingerprint when only start_time, end_time and hosts are given', () => {
    expect(alertFingerprint({ start_time: '2024-01-01T00:00:00Z', hosts: ['h'] }, undefined)).toBeNull()
  })

  it('keeps hosts as a flat list of strings cut at 255 characters in total', () => {
    expect(parseAlertPayload({ hosts: 'one' }, [], NOW).hosts).toEqual(['one'])
    expect(parseAlertPayload({ hosts: ['a', ['b', 7]] }, [], NOW).hosts).toEqual(['a', 'b', '7'])
    const hosts = parseAlertPayload({ hosts: ['x'.repeat(200), 'y'.repeat(100), 'z'] }, [], NOW).hosts
    expect(hosts).toEqual(['x'.repeat(200), 'y'.repeat(55)])
  })

  it('truncates title, description, service and monitoring tool at GitLab column limits', () => {
    const parsed = parseAlertPayload(
      {
        title: 't'.repeat(300),
        description: 'd'.repeat(2000),
        service: 's'.repeat(150),
        monitoring_tool: 'm'.repeat(150),
      },
      [],
      NOW,
    )
    expect(parsed.title).toHaveLength(200)
    expect(parsed.title.endsWith('...')).toBe(true)
    expect(parsed.description).toHaveLength(1000)
    expect(parsed.service).toHaveLength(100)
    expect(parsed.monitoringTool).toHaveLength(100)
    expect(truncate('short', 10)).toBe('short')
  })

  it('reads the environment from gitlab_environment_name or service_environment_name', () => {
    expect(parseAlertPayload({ gitlab_environment_name: 'production' }, [], NOW).environmentName).toBe('production')
    expect(parseAlertPayload({ service_environment_name: 'staging' }, [], NOW).environmentName).toBe('staging')
  })

  it('flattens nested custom fields into dotted keys for details', () => {
    expect(inlineKeys({ title: 'x', foo: { bar: { baz: 42 } }, list: [1, { a: 1 }], empty: {} })).toEqual({
      title: 'x',
      'foo.bar.baz': 42,
      list: [1, { a: 1 }],
      empty: {},
    })
  })

  it('lets a custom mapping read a field from a nested path', () => {
    const mappings = parseMappings(
      JSON.stringify([
        { fieldName: 'TITLE', path: ['alert', 'name'], type: 'STRING', label: 'Name' },
        { fieldName: 'SEVERITY', path: ['alert', 'levels', 1], type: 'STRING', label: null },
        { fieldName: 'NOPE', path: ['x'], type: 'STRING' },
      ]),
    )
    expect(mappings.map((m) => m.fieldName)).toEqual(['TITLE', 'SEVERITY'])
    const parsed = parseAlertPayload(
      { title: 'ignored', alert: { name: 'Mapped title', levels: ['low', 'Medium'] } },
      mappings,
      NOW,
    )
    expect(parsed.title).toBe('Mapped title')
    expect(parsed.severity).toBe('medium')
  })

  it('measures payload depth for the size limit', () => {
    expect(jsonDepth({ a: 1 }, 100)).toBe(1)
    expect(jsonDepth({ a: { b: [1] } }, 100)).toBe(3)
    let deep: unknown = 1
    for (let i = 0; i < 150; i += 1) deep = { d: deep }
    expect(jsonDepth(deep, 100)).toBeGreaterThan(100)
  })

  it('lists the mappable fields of a sample payload with guessed types', () => {
    expect(
      payloadAlertFields({ title: 'x', when: '2024-01-01T00:00:00Z', count: 3, tags: ['a'], nested: { name: 'n' } }),
    ).toEqual([
      { path: ['title'], label: 'Title', type: 'STRING' },
      { path: ['when'], label: 'When', type: 'DATETIME' },
      { path: ['count'], label: 'Count', type: 'NUMBER' },
      { path: ['tags'], label: 'Tags', type: 'ARRAY' },
      { path: ['nested', 'name'], label: 'Nested/Name', type: 'STRING' },
    ])
  })
})
