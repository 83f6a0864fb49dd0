import { execFile } from 'node:child_process'
import { TodoLists } from '@gitbeaker/rest'
import { buildClientSchema, parse, validate, type IntrospectionQuery, getIntrospectionQuery } from 'graphql'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedGroup, seedMember } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

/** The query the desktop notifier polls (docs/architecture.md): newest triggered alerts of several projects at once. */
const FEED_QUERY = `
query AlertFeed($a: ID!, $b: ID!) {
  a: project(fullPath: $a) { ...feed }
  b: project(fullPath: $b) { ...feed }
}
fragment feed on Project {
  fullPath
  alertManagementAlerts(statuses: [TRIGGERED], sort: CREATED_TIME_DESC, first: 20) {
    nodes { iid title severity status startedAt createdAt eventCount detailsUrl }
  }
}`

/** Runs curl as a monitoring tool would; resolves with the HTTP status and body. */
function curl(args: readonly string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      'curl',
      ['--silent', '--show-error', '--write-out', '\n%{http_code}', ...args],
      { timeout: 30_000 },
      (error, stdout) => {
        if (error) return reject(error)
        const at = stdout.lastIndexOf('\n')
        resolve({ status: Number(stdout.slice(at + 1)), body: stdout.slice(0, at) })
      },
    )
  })
}

describe('alerts over the wire', () => {
  let s: ListeningServer
  let maintainer: SeededUser
  let developer: SeededUser
  let integration: { url: string; token: string }

  const graphql = async (
    token: string,
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<{ data?: Record<string, unknown>; errors?: unknown[] }> => {
    const res = await fetch(`${s.url}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    })
    return (await res.json()) as { data?: Record<string, unknown>; errors?: unknown[] }
  }

  beforeAll(async () => {
    s = await startServer()
    const group = seedGroup(s, { path: 'wire-alerts' })
    maintainer = seedUser(s, { username: 'wire_alert_maintainer' })
    developer = seedUser(s, { username: 'wire_alert_dev' })
    seedMember(s, 'Namespace', group.id, maintainer.user.id, AccessLevel.MAINTAINER)
    seedMember(s, 'Namespace', group.id, developer.user.id, AccessLevel.DEVELOPER)
    for (const name of ['api', 'web']) {
      const res = await s.request(maintainer.token, {
        method: 'POST',
        url: '/api/v4/projects',
        payload: { name, namespace_id: group.id },
      })
      expect(res.statusCode).toBe(201)
    }
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab creates an HTTP integration through /api/graphql', async () => {
    const result = await withPythonGitlab<{
      errors: string[]
      integration: { url: string; token: string; name: string }
    }>(
      s.url,
      { private_token: maintainer.token },
      `
q = 'mutation($p: ID!) { httpIntegrationCreate(input: {projectPath: $p, name: "Wire endpoint", active: true}) { errors integration { name url token } } }'
res = gl.http_post(os.environ["GL_URL"] + '/api/graphql', post_data={'query': q, 'variables': {'p': 'wire-alerts/api'}})
out(res['data']['httpIntegrationCreate'])
`,
    )
    expect(result.errors).toEqual([])
    expect(result.integration.url).toBe(
      `${s.url}/wire-alerts/api/alerts/notify/wire-endpoint/${result.integration.url.split('/').pop()}`,
    )
    integration = result.integration
  })

  it('a monitoring tool (curl) posts alerts with the Bearer key and with Basic authentication', async () => {
    const bearer = await curl([
      '-X',
      'POST',
      '-H',
      `Authorization: Bearer ${integration.token}`,
      '-H',
      'Content-Type: application/json',
      '--data',
      '{"title": "Incident title", "severity": "high", "fingerprint": "wire-1"}',
      integration.url,
    ])
    expect(bearer.status).toBe(200)
    expect(JSON.parse(bearer.body)).toEqual([{ iid: 1, title: 'Incident title' }])
    const basic = await curl([
      '-X',
      'POST',
      '-u',
      `:${integration.token}`,
      '-H',
      'Content-Type: application/json',
      '--data',
      '{"title": "Incident title", "fingerprint": "wire-1"}',
      integration.url,
    ])
    expect(JSON.parse(basic.body)).toEqual([{ iid: 1, title: 'Incident title' }])
    const wrong = await curl([
      '-X',
      'POST',
      '-H',
      'Authorization: Bearer wrong',
      '-H',
      'Content-Type: application/json',
      '--data',
      '{}',
      integration.url,
    ])
    expect(wrong.status).toBe(401)
  })

  it('graphql-js validates the desktop feed query against the served schema, and the feed lists the alert', async () => {
    const introspection = await graphql(developer.token, getIntrospectionQuery())
    const schema = buildClientSchema(introspection.data as unknown as IntrospectionQuery)
    expect(validate(schema, parse(FEED_QUERY))).toEqual([])
    expect(
      validate(schema, parse('{ project(fullPath: "x") { alertManagementAlerts { nodes { shoeSize } } } }')),
    ).toHaveLength(1)
    const feed = await graphql(developer.token, FEED_QUERY, { a: 'wire-alerts/api', b: 'wire-alerts/web' })
    expect(feed.errors).toBeUndefined()
    expect(feed.data).toEqual({
      a: {
        fullPath: 'wire-alerts/api',
        alertManagementAlerts: {
          nodes: [
            expect.objectContaining({
              iid: '1',
              title: 'Incident title',
              severity: 'HIGH',
              status: 'TRIGGERED',
              eventCount: 2,
              detailsUrl: `${s.url}/wire-alerts/api/-/alert_management/1/details`,
            }),
          ],
        },
      },
      b: { fullPath: 'wire-alerts/web', alertManagementAlerts: { nodes: [] } },
    })
  })

  it('python-gitlab assigns the alert; the assignee sees the to-do in python-gitlab and @gitbeaker/rest', async () => {
    const assigned = await withPythonGitlab<{ errors: string[] }>(
      s.url,
      { private_token: maintainer.token },
      `
q = 'mutation { alertSetAssignees(input: {projectPath: "wire-alerts/api", iid: "1", assigneeUsernames: ["wire_alert_dev"]}) { errors } }'
out(gl.http_post(os.environ["GL_URL"] + '/api/graphql', post_data={'query': q})['data']['alertSetAssignees'])
`,
    )
    expect(assigned.errors).toEqual([])
    const todos = await withPythonGitlab<{ action: string; type: string; title: string; url: string }[]>(
      s.url,
      { private_token: developer.token },
      `out([{'action': t.action_name, 'type': t.target_type, 'title': t.target['title'], 'url': t.target_url} for t in gl.todos.list(get_all=True)])`,
    )
    expect(todos).toEqual([
      {
        action: 'assigned',
        type: 'AlertManagement::Alert',
        title: 'Incident title',
        url: `${s.url}/wire-alerts/api/-/alert_management/1/details`,
      },
    ])
    const api = new TodoLists({ host: s.url, token: developer.token })
    const listed = await api.all()
    expect(listed.map((t) => [t.action_name, t.target_type])).toEqual([['assigned', 'AlertManagement::Alert']])
  })

  it('python-gitlab resolves the alert with updateAlertStatus; the same payload then opens a new alert', async () => {
    const status = await withPythonGitlab<{ errors: string[]; alert: { status: string } }>(
      s.url,
      { private_token: developer.token },
      `
q = 'mutation { updateAlertStatus(input: {projectPath: "wire-alerts/api", iid: "1", status: RESOLVED}) { errors alert { status } } }'
out(gl.http_post(os.environ["GL_URL"] + '/api/graphql', post_data={'query': q})['data']['updateAlertStatus'])
`,
    )
    expect(status).toEqual({ errors: [], alert: { status: 'RESOLVED' } })
    const again = await curl([
      '-X',
      'POST',
      '-H',
      `Authorization: Bearer ${integration.token}`,
      '-H',
      'Content-Type: application/json',
      '--data',
      '{"title": "Incident title", "fingerprint": "wire-1"}',
      integration.url,
    ])
    expect(JSON.parse(again.body)).toEqual([{ iid: 2, title: 'Incident title' }])
  })
})
