import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { RESOURCE_UNAVAILABLE } from '../../src/server/modules/graphql/support'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

interface Integration {
  readonly id: string
  readonly name: string
  readonly active: boolean
  readonly url: string
  readonly token: string
  readonly type: string
}

interface GqlResult<T = Record<string, unknown>> {
  readonly data?: T
  readonly errors?: readonly { message: string; path?: readonly (string | number)[] }[]
}

const INTEGRATION_FIELDS = 'id name active url token type'
const ALERT_FIELDS =
  'iid title description severity status service monitoringTool hosts startedAt endedAt eventCount details createdAt detailsUrl'

describe('alert management', () => {
  let s: TestServer
  let project: ProjectRow
  let maintainer: SeededUser
  let developer: SeededUser
  let developer2: SeededUser
  let reporter: SeededUser
  let outsider: SeededUser
  const fullPath = 'monitoring/api'

  const gql = async <T = Record<string, unknown>>(
    token: string | null,
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<GqlResult<T>> => {
    const res = await s.request(token, { method: 'POST', url: '/api/graphql', payload: { query, variables } })
    expect(res.statusCode).toBe(200)
    return res.json() as GqlResult<T>
  }

  const createIntegration = async (name: string, active = true, token = maintainer.token): Promise<Integration> => {
    const res = await gql<{ httpIntegrationCreate: { errors: string[]; integration: Integration } }>(
      token,
      `mutation($path: ID!, $name: String!, $active: Boolean!) {
        httpIntegrationCreate(input: {projectPath: $path, name: $name, active: $active}) { errors integration { ${INTEGRATION_FIELDS} } }
      }`,
      { path: fullPath, name, active },
    )
    expect(res.errors).toBeUndefined()
    return res.data!.httpIntegrationCreate.integration
  }

  const notify = (integration: Pick<Integration, 'url'>, payload: unknown, headers: Record<string, string> = {}) =>
    s.app.inject({
      method: 'POST',
      url: new URL(integration.url).pathname,
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(payload),
    })
  const send = (integration: Integration, payload: unknown) =>
    notify(integration, payload, { authorization: `Bearer ${integration.token}` })

  const alerts = async (token: string, args = ''): Promise<{ count: number; nodes: Record<string, unknown>[] }> => {
    const res = await gql<{ project: { alertManagementAlerts: { count: number; nodes: Record<string, unknown>[] } } }>(
      token,
      `{ project(fullPath: "${fullPath}") { alertManagementAlerts${args ? `(${args})` : ''} { count nodes { ${ALERT_FIELDS} } } } }`,
    )
    expect(res.errors).toBeUndefined()
    return res.data!.project.alertManagementAlerts
  }
  const alert = async (iid: number, token = developer.token): Promise<Record<string, unknown>> => {
    const res = await gql<{ project: { alertManagementAlert: Record<string, unknown> } }>(
      token,
      `{ project(fullPath: "${fullPath}") { alertManagementAlert(iid: "${iid}") { ${ALERT_FIELDS} assignees { nodes { username } } todos { count nodes { action } } } } }`,
    )
    return res.data!.project.alertManagementAlert
  }

  beforeAll(async () => {
    s = await makeServer()
    const group = seedGroup(s, { path: 'monitoring' })
    project = seedProject(s, { namespaceId: group.id, path: 'api' })
    maintainer = seedUser(s, { username: 'alert_maintainer' })
    developer = seedUser(s, { username: 'alert_dev' })
    developer2 = seedUser(s, { username: 'alert_dev2' })
    reporter = seedUser(s, { username: 'alert_reporter' })
    outsider = seedUser(s, { username: 'alert_outsider' })
    seedMember(s, 'Project', project.id, maintainer.user.id, AccessLevel.MAINTAINER)
    seedMember(s, 'Project', project.id, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, developer2.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, reporter.user.id, AccessLevel.REPORTER)
  })
  afterAll(async () => {
    await s.close()
  })

  describe('HTTP integrations (GraphQL)', () => {
    let integration: Integration

    it('httpIntegrationCreate by a Maintainer issues a URL with the name slug and a 16-hex endpoint, and a 32-hex key', async () => {
      integration = await createIntegration('Datadog Prod!')
      expect(integration).toMatchObject({
        id: expect.stringMatching(/^gid:\/\/gitlab\/AlertManagement::HttpIntegration\/\d+$/),
        name: 'Datadog Prod!',
        active: true,
        type: 'HTTP',
      })
      expect(integration.url).toMatch(
        /^http:\/\/burrow\.test\/monitoring\/api\/alerts\/notify\/datadog-prod\/[0-9a-f]{16}\.json$/,
      )
      expect(integration.token).toMatch(/^[0-9a-f]{32}$/)
    })

    it('keeps the key sealed in the database, never in clear', async () => {
      const row = s.app.burrow.db
        .prepare('SELECT encrypted_token FROM alert_management_http_integrations WHERE project_id = ?')
        .get(project.id) as { encrypted_token: string }
      expect(row.encrypted_token).not.toContain(integration.token)
      expect(row.encrypted_token.startsWith('v1:')).toBe(true)
    })

    it('answers a blank name in errors, creating nothing', async () => {
      const res = await gql<{ httpIntegrationCreate: { errors: string[]; integration: null } }>(
        maintainer.token,
        `mutation { httpIntegrationCreate(input: {projectPath: "${fullPath}", name: "  ", active: true}) { errors integration { id } } }`,
      )
      expect(res.data!.httpIntegrationCreate).toEqual({ errors: ["Name can't be blank"], integration: null })
    })

    it("refuses Developers, outsiders and anonymous callers with GitLab's resource error", async () => {
      for (const token of [developer.token, outsider.token, null]) {
        const res = await gql(
          token,
          `mutation { httpIntegrationCreate(input: {projectPath: "${fullPath}", name: "x", active: true}) { errors } }`,
        )
        expect(res.data).toEqual({ httpIntegrationCreate: null })
        expect(res.errors?.map((e) => e.message)).toEqual([RESOURCE_UNAVAILABLE])
      }
    })

    it('lists integrations with their keys to Maintainers only', async () => {
      const query = `{ project(fullPath: "${fullPath}") { alertManagementHttpIntegrations { nodes { id name token } } alertManagementIntegrations { nodes { __typename id } } } }`
      const mine = await gql<{
        project: {
          alertManagementHttpIntegrations: { nodes: { token: string }[] }
          alertManagementIntegrations: { nodes: { __typename: string }[] }
        }
      }>(maintainer.token, query)
      expect(mine.data!.project.alertManagementHttpIntegrations.nodes).toEqual([
        { id: integration.id, name: 'Datadog Prod!', token: integration.token },
      ])
      expect(mine.data!.project.alertManagementIntegrations.nodes).toEqual([
        { __typename: 'AlertManagementHttpIntegration', id: integration.id },
      ])
      const dev = await gql<{ project: { alertManagementHttpIntegrations: { nodes: unknown[] } } }>(
        developer.token,
        query,
      )
      expect(dev.data!.project.alertManagementHttpIntegrations.nodes).toEqual([])
    })

    it('httpIntegrationUpdate renames and deactivates; the endpoint and key stay', async () => {
      const res = await gql<{ httpIntegrationUpdate: { errors: string[]; integration: Integration } }>(
        maintainer.token,
        `mutation($id: AlertManagementHttpIntegrationID!) { httpIntegrationUpdate(input: {id: $id, name: "Datadog", active: false}) { errors integration { ${INTEGRATION_FIELDS} } } }`,
        { id: integration.id },
      )
      const updated = res.data!.httpIntegrationUpdate.integration
      expect(updated).toMatchObject({ name: 'Datadog', active: false, token: integration.token })
      expect(updated.url.split('/').pop()).toBe(integration.url.split('/').pop())
      expect(updated.url).toContain('/alerts/notify/datadog/')
      expect((await send(updated, { title: 'x' })).statusCode).toBe(403)
      await gql(
        maintainer.token,
        `mutation($id: AlertManagementHttpIntegrationID!) { httpIntegrationUpdate(input: {id: $id, active: true}) { errors } }`,
        { id: integration.id },
      )
      integration = { ...updated, active: true }
    })

    it('httpIntegrationResetToken issues a new key; the old one is refused with 401', async () => {
      const res = await gql<{ httpIntegrationResetToken: { integration: Integration } }>(
        maintainer.token,
        `mutation($id: AlertManagementHttpIntegrationID!) { httpIntegrationResetToken(input: {id: $id}) { errors integration { ${INTEGRATION_FIELDS} } } }`,
        { id: integration.id },
      )
      const fresh = res.data!.httpIntegrationResetToken.integration
      expect(fresh.token).toMatch(/^[0-9a-f]{32}$/)
      expect(fresh.token).not.toBe(integration.token)
      expect((await send(integration, { title: 'old key' })).statusCode).toBe(401)
      expect((await send(fresh, { title: 'new key' })).statusCode).toBe(200)
      integration = fresh
    })

    it('refuses reset and destroy to Developers', async () => {
      for (const mutation of ['httpIntegrationResetToken', 'httpIntegrationDestroy']) {
        const res = await gql(
          developer.token,
          `mutation($id: AlertManagementHttpIntegrationID!) { ${mutation}(input: {id: $id}) { errors } }`,
          { id: integration.id },
        )
        expect(res.errors?.[0].message).toBe(RESOURCE_UNAVAILABLE)
      }
    })

    it('httpIntegrationDestroy removes the integration; its URL then answers 403', async () => {
      const doomed = await createIntegration('Doomed')
      const res = await gql<{ httpIntegrationDestroy: { integration: Integration } }>(
        maintainer.token,
        `mutation($id: AlertManagementHttpIntegrationID!) { httpIntegrationDestroy(input: {id: $id}) { errors integration { id name token } } }`,
        { id: doomed.id },
      )
      expect(res.data!.httpIntegrationDestroy.integration).toEqual({
        id: doomed.id,
        name: 'Doomed',
        token: doomed.token,
      })
      expect((await send(doomed, { title: 'x' })).statusCode).toBe(403)
    })

    it('records integration changes as project audit events (without keys) and activity events', () => {
      const audit = (
        s.app.burrow.db
          .prepare("SELECT details FROM audit_events WHERE entity_type = 'Project' AND entity_id = ?")
          .all(project.id) as { details: string }[]
      ).map((r) => r.details)
      const messages = audit.map((d) => JSON.parse(d).custom_message as string)
      expect(messages).toContain('Created HTTP integration Datadog Prod! (active)')
      expect(messages).toContain('Changed HTTP integration Datadog: name to Datadog, inactive')
      expect(messages).toContain('Reset the authorization key of HTTP integration Datadog')
      expect(messages).toContain('Deleted HTTP integration Doomed')
      expect(audit.some((d) => d.includes(integration.token))).toBe(false)
      // Audit events only: GitLab records no activity event for alert integrations.
      expect(
        s.app.burrow.db
          .prepare(
            "SELECT action FROM events WHERE project_id = ? AND target_type = 'AlertManagement::HttpIntegration'",
          )
          .all(project.id),
      ).toEqual([])
    })
  })

  describe('inbound alerts', () => {
    let integration: Integration

    beforeAll(async () => {
      integration = await createIntegration('Inbound')
    })

    it('creates an alert (200 with its iid and title) from a payload with the Bearer key', async () => {
      const res = await send(integration, {
        title: 'CPU above 90%',
        description: 'web-1 is hot',
        service: 'web',
        monitoring_tool: 'Prometheus',
        hosts: ['web-1'],
        severity: 'High',
        start_time: '2024-05-01T10:00:00Z',
      })
      expect(res.statusCode).toBe(200)
      const [created] = res.json() as { iid: number; title: string }[]
      expect(created.title).toBe('CPU above 90%')
      expect(await alert(created.iid)).toMatchObject({
        title: 'CPU above 90%',
        description: 'web-1 is hot',
        severity: 'HIGH',
        status: 'TRIGGERED',
        service: 'web',
        monitoringTool: 'Prometheus',
        hosts: ['web-1'],
        startedAt: '2024-05-01T10:00:00.000Z',
        endedAt: null,
        eventCount: 1,
        detailsUrl: `http://burrow.test/${fullPath}/-/alert_management/${created.iid}/details`,
      })
    })

    it('defaults the title to "New: Alert", the start time to now and the severity to critical', async () => {
      const before = Date.now()
      const [created] = (await send(integration, { fingerprint: 'defaults' })).json() as {
        iid: number
        title: string
      }[]
      expect(created.title).toBe('New: Alert')
      const a = await alert(created.iid)
      expect(a.severity).toBe('CRITICAL')
      const started = Date.parse(a.startedAt as string)
      expect(started).toBeGreaterThanOrEqual(before - 1000)
      expect(started).toBeLessThanOrEqual(Date.now())
    })

    it('normalises severity case-insensitively and maps values outside the list to critical', async () => {
      const low = (await send(integration, { title: 'sev low', severity: 'LOW' })).json()[0].iid as number
      const odd = (await send(integration, { title: 'sev odd', severity: 'disaster' })).json()[0].iid as number
      const unknown = (await send(integration, { title: 'sev unknown', severity: 'Unknown' })).json()[0].iid as number
      expect((await alert(low)).severity).toBe('LOW')
      expect((await alert(odd)).severity).toBe('CRITICAL')
      expect((await alert(unknown)).severity).toBe('UNKNOWN')
    })

    it('keeps custom fields, nested ones included, in details', async () => {
      const iid = (
        await send(integration, { title: 'custom', foo: { bar: { baz: 42 } }, runbook: 'https://runbooks.example/cpu' })
      ).json()[0].iid as number
      expect((await alert(iid)).details).toEqual({
        title: 'custom',
        'foo.bar.baz': 42,
        runbook: 'https://runbooks.example/cpu',
      })
    })

    it('groups a payload with the same fingerprint into the unresolved alert, counting events', async () => {
      const first = (await send(integration, { title: 'Disk full', fingerprint: 'disk-db-1' })).json()[0].iid as number
      const again = await send(integration, { title: 'Disk full again', fingerprint: 'disk-db-1' })
      expect(again.json()).toEqual([{ iid: first, title: 'Disk full' }])
      expect((await alert(first)).eventCount).toBe(2)
    })

    it('groups identical payloads without fingerprint whatever their start_time and hosts', async () => {
      const first = (
        await send(integration, {
          title: 'Queue stuck',
          service: 'jobs',
          start_time: '2024-05-01T10:00:00Z',
          hosts: ['a'],
        })
      ).json()[0].iid as number
      const again = (
        await send(integration, {
          title: 'Queue stuck',
          service: 'jobs',
          start_time: '2024-05-01T10:05:00Z',
          hosts: ['b'],
        })
      ).json()[0].iid as number
      expect(again).toBe(first)
      expect((await alert(first)).eventCount).toBe(2)
      const other = (await send(integration, { title: 'Queue stuck', service: 'mail' })).json()[0].iid as number
      expect(other).not.toBe(first)
    })

    it('resolves the unresolved alert of the same fingerprint when the payload has end_time', async () => {
      const iid = (await send(integration, { title: 'Latency', fingerprint: ['svc', 'latency'] })).json()[0]
        .iid as number
      const res = await send(integration, {
        title: 'Latency',
        fingerprint: ['svc', 'latency'],
        end_time: '2024-05-01T12:00:00Z',
      })
      expect(res.json()).toEqual([{ iid, title: 'Latency' }])
      expect(await alert(iid)).toMatchObject({ status: 'RESOLVED', endedAt: '2024-05-01T12:00:00.000Z' })
    })

    it('creates a new alert when the alert of that fingerprint is already resolved', async () => {
      const resolved = (await alerts(developer.token, 'search: "Latency"')).nodes
      const iid = (await send(integration, { title: 'Latency', fingerprint: ['svc', 'latency'] })).json()[0]
        .iid as number
      expect(resolved.map((a) => Number(a.iid))).not.toContain(iid)
      expect(await alert(iid)).toMatchObject({ status: 'TRIGGERED', eventCount: 1 })
    })

    it('creates nothing for a resolving payload that matches no unresolved alert', async () => {
      const before = (await alerts(developer.token)).count
      const res = await send(integration, {
        title: 'Never fired',
        fingerprint: 'never',
        end_time: '2024-05-01T12:00:00Z',
      })
      expect(res.json()).toEqual([])
      expect((await alerts(developer.token)).count).toBe(before)
    })

    it('accepts the key as the password of Basic authentication with a blank username', async () => {
      const res = await notify(
        integration,
        { title: 'via basic' },
        { authorization: `Basic ${Buffer.from(`:${integration.token}`).toString('base64')}` },
      )
      expect(res.statusCode).toBe(200)
    })

    it('answers 401 without a key or with a wrong one', async () => {
      expect((await notify(integration, { title: 'x' })).statusCode).toBe(401)
      const wrong = await notify(
        integration,
        { title: 'x' },
        { authorization: 'Bearer 00000000000000000000000000000000' },
      )
      expect(wrong.statusCode).toBe(401)
      expect(wrong.json()).toEqual({ message: '401 Unauthorized' })
    })

    it('answers 403 for an unknown endpoint and for the legacy URL when the project has no legacy endpoint', async () => {
      const unknown = integration.url.replace(/[0-9a-f]{16}\.json$/, 'ffffffffffffffff.json')
      expect(
        (await notify({ url: unknown }, { title: 'x' }, { authorization: `Bearer ${integration.token}` })).statusCode,
      ).toBe(403)
      expect(
        (
          await notify(
            { url: `http://burrow.test/${fullPath}/alerts/notify.json` },
            { title: 'x' },
            { authorization: `Bearer ${integration.token}` },
          )
        ).statusCode,
      ).toBe(403)
    })

    it('answers 404 for a project that does not exist', async () => {
      const res = await notify(
        { url: 'http://burrow.test/nobody/nothing/alerts/notify/x/0123456789abcdef.json' },
        { title: 'x' },
      )
      expect(res.statusCode).toBe(404)
    })

    it('takes JSON only: 415 for another content type, 400 for JSON that is not an object', async () => {
      const form = await s.app.inject({
        method: 'POST',
        url: new URL(integration.url).pathname,
        headers: { authorization: `Bearer ${integration.token}`, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'title=x',
      })
      expect(form.statusCode).toBe(415)
      const list = await send(integration, [{ title: 'x' }])
      expect(list.statusCode).toBe(400)
    })

    it('lets a Developer send a test alert with their own token; a Reporter gets 403', async () => {
      const test = await notify(
        integration,
        { title: 'Test alert from the settings' },
        { 'private-token': developer.token },
      )
      expect(test.statusCode).toBe(200)
      expect(test.json()[0]).toMatchObject({ iid: expect.any(Number), title: 'Test alert from the settings' })
      const bearer = await notify(
        integration,
        { title: 'Test alert with a Bearer token' },
        { authorization: `Bearer ${developer.token}` },
      )
      expect(bearer.statusCode).toBe(200)
      expect((await notify(integration, { title: 'x' }, { 'private-token': reporter.token })).statusCode).toBe(403)
    })

    it('records no activity event for new or resolved alerts (GitLab keeps none for alerts)', async () => {
      const res = await s.request(maintainer.token, {
        method: 'GET',
        url: `/api/v4/projects/${project.id}/events?per_page=100`,
      })
      const titles = (res.json() as { target_title: string | null }[]).map((e) => e.target_title)
      expect(titles).not.toContain('CPU above 90%')
      expect(titles).not.toContain('Latency')
    })

    it('serves integrations of projects in nested groups', async () => {
      const sub = seedGroup(s, { path: 'inner', parentId: project.namespace_id })
      const nested = seedProject(s, { namespaceId: sub.id, path: 'deep' })
      seedMember(s, 'Project', nested.id, maintainer.user.id, AccessLevel.MAINTAINER)
      const res = await gql<{ httpIntegrationCreate: { integration: Integration } }>(
        maintainer.token,
        `mutation { httpIntegrationCreate(input: {projectPath: "monitoring/inner/deep", name: "Deep", active: true}) { integration { ${INTEGRATION_FIELDS} } } }`,
      )
      const deep = res.data!.httpIntegrationCreate.integration
      expect(deep.url).toMatch(/\/monitoring\/inner\/deep\/alerts\/notify\/deep\/[0-9a-f]{16}\.json$/)
      expect((await send(deep, { title: 'deep alert' })).json()).toEqual([{ iid: 1, title: 'deep alert' }])
    })
  })

  describe('custom field mappings', () => {
    it("stores a sample payload and mappings, offers the sample's fields, and reads alerts through the mappings", async () => {
      const example = JSON.stringify({
        alert: { name: 'Disk', level: 'warning', at: '2024-05-01T10:00:00Z' },
        origin: 'zabbix',
      })
      const res = await gql<{
        httpIntegrationCreate: {
          errors: string[]
          integration: Integration & {
            payloadExample: string
            payloadAttributeMappings: unknown[]
            payloadAlertFields: unknown[]
          }
        }
      }>(
        maintainer.token,
        `mutation($example: JsonString, $mappings: [AlertManagementPayloadAlertFieldInput!]) {
          httpIntegrationCreate(input: {projectPath: "${fullPath}", name: "Zabbix", active: true, payloadExample: $example, payloadAttributeMappings: $mappings}) {
            errors integration { ${INTEGRATION_FIELDS} payloadExample payloadAttributeMappings { fieldName path type label } payloadAlertFields { path type label } }
          }
        }`,
        {
          example,
          mappings: [
            { fieldName: 'TITLE', path: ['alert', 'name'], type: 'STRING', label: 'Name' },
            { fieldName: 'SEVERITY', path: ['alert', 'level'], type: 'STRING' },
            { fieldName: 'START_TIME', path: ['alert', 'at'], type: 'DATETIME' },
            { fieldName: 'MONITORING_TOOL', path: ['origin'], type: 'STRING' },
          ],
        },
      )
      const created = res.data!.httpIntegrationCreate.integration
      expect(created.payloadExample).toBe(example)
      expect(created.payloadAttributeMappings).toEqual([
        { fieldName: 'TITLE', path: ['alert', 'name'], type: 'STRING', label: 'Name' },
        { fieldName: 'SEVERITY', path: ['alert', 'level'], type: 'STRING', label: null },
        { fieldName: 'START_TIME', path: ['alert', 'at'], type: 'DATETIME', label: null },
        { fieldName: 'MONITORING_TOOL', path: ['origin'], type: 'STRING', label: null },
      ])
      expect(created.payloadAlertFields).toContainEqual({ path: ['alert', 'at'], type: 'DATETIME', label: 'Alert/At' })
      const iid = (
        await send(created, {
          alert: { name: 'Disk nearly full', level: 'LOW', at: '2024-05-02T08:00:00Z' },
          origin: 'zabbix',
        })
      ).json()[0].iid as number
      expect(await alert(iid)).toMatchObject({
        title: 'Disk nearly full',
        severity: 'LOW',
        startedAt: '2024-05-02T08:00:00.000Z',
        monitoringTool: 'zabbix',
      })
    })

    it('answers a sample payload that is not a JSON object in errors', async () => {
      const res = await gql<{ httpIntegrationCreate: { errors: string[] } }>(
        maintainer.token,
        `mutation { httpIntegrationCreate(input: {projectPath: "${fullPath}", name: "Bad sample", active: true, payloadExample: "[1, 2]"}) { errors } }`,
      )
      expect(res.data!.httpIntegrationCreate.errors).toEqual(['Payload example must be a valid JSON object'])
    })
  })

  describe('payload limit', () => {
    it('answers 400 Payload size exceeded above max_alert_payload_bytes', async () => {
      const small = await makeServer({ settings: { max_alert_payload_bytes: 200 } })
      try {
        const p = seedProject(small, { namespaceId: seedGroup(small, { path: 'lim' }).id, path: 'it' })
        const admin = seedUser(small, { admin: true })
        const created = await small.request(admin.token, {
          method: 'POST',
          url: '/api/graphql',
          payload: {
            query:
              'mutation { httpIntegrationCreate(input: {projectPath: "lim/it", name: "L", active: true}) { integration { url token } } }',
          },
        })
        const { url, token } = created.json().data.httpIntegrationCreate.integration as Integration
        const post = (payload: unknown) =>
          small.app.inject({
            method: 'POST',
            url: new URL(url).pathname,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            payload: JSON.stringify(payload),
          })
        expect((await post({ title: 'fits' })).statusCode).toBe(200)
        const big = await post({ title: 'too big', blob: 'x'.repeat(300) })
        expect(big.statusCode).toBe(400)
        expect(big.json()).toEqual({ message: '400 Bad request - Payload size exceeded' })
        expect(p.id).toBeGreaterThan(0)
      } finally {
        await small.close()
      }
    })
  })

  describe('alert list and mutations (GraphQL)', () => {
    let integration: Integration
    let open: number
    let other: number

    beforeAll(async () => {
      integration = await createIntegration('Mutations')
      open = (await send(integration, { title: 'Mutable alert', fingerprint: 'mutable', severity: 'medium' })).json()[0]
        .iid as number
      other = (await send(integration, { title: 'Second mutable', fingerprint: 'second', severity: 'info' })).json()[0]
        .iid as number
    })

    it('shows alerts to Developers, an empty list to Reporters, and no project to outsiders', async () => {
      expect((await alerts(developer.token)).count).toBeGreaterThan(2)
      expect(await alerts(reporter.token)).toEqual({ count: 0, nodes: [] })
      const res = await gql(outsider.token, `{ project(fullPath: "${fullPath}") { id } }`)
      expect(res.data).toEqual({ project: null })
    })

    it('filters by status, iid and search, and sorts', async () => {
      const triggered = await alerts(developer.token, 'statuses: [TRIGGERED]')
      expect(triggered.nodes.every((a) => a.status === 'TRIGGERED')).toBe(true)
      expect((await alerts(developer.token, `iid: "${open}"`)).nodes.map((a) => a.title)).toEqual(['Mutable alert'])
      expect((await alerts(developer.token, 'search: "mutable"')).nodes.map((a) => a.title).sort()).toEqual([
        'Mutable alert',
        'Second mutable',
      ])
      const bySeverity = (await alerts(developer.token, 'sort: SEVERITY_DESC')).nodes.map((a) => a.severity)
      const rank = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO', 'UNKNOWN']
      expect(bySeverity).toEqual([...bySeverity].sort((a, b) => rank.indexOf(a as string) - rank.indexOf(b as string)))
      const newest = (await alerts(developer.token, 'sort: CREATED_TIME_DESC, first: 1')).nodes
      expect(newest.map((a) => Number(a.iid))).toEqual([other])
    })

    it('pages with first/after and pageInfo', async () => {
      interface Page {
        count: number
        nodes: { iid: string }[]
        pageInfo: { hasNextPage: boolean; endCursor: string }
      }
      const query = (after: string | null) =>
        gql<{ project: { alertManagementAlerts: Page } }>(
          developer.token,
          `query($after: String) { project(fullPath: "${fullPath}") { alertManagementAlerts(first: 2, after: $after, sort: CREATED_TIME_ASC) { count nodes { iid } pageInfo { hasNextPage endCursor } } } }`,
          { after },
        )
      const seen: string[] = []
      let after: string | null = null
      for (;;) {
        const page: Page = (await query(after)).data!.project.alertManagementAlerts
        seen.push(...page.nodes.map((n) => n.iid))
        if (!page.pageInfo.hasNextPage) {
          expect(seen).toHaveLength(page.count)
          break
        }
        after = page.pageInfo.endCursor
      }
      expect(new Set(seen).size).toBe(seen.length)
      expect(seen.map(Number)).toEqual([...seen.map(Number)].sort((a, b) => a - b))
    })

    it('counts alerts by status', async () => {
      const res = await gql<{ project: { alertManagementAlertStatusCounts: Record<string, number> } }>(
        developer.token,
        `{ project(fullPath: "${fullPath}") { alertManagementAlertStatusCounts { all open triggered acknowledged resolved ignored } } }`,
      )
      const c = res.data!.project.alertManagementAlertStatusCounts
      expect(c.all).toBe(c.triggered + c.acknowledged + c.resolved + c.ignored)
      expect(c.open).toBe(c.triggered + c.acknowledged)
      expect(c.resolved).toBeGreaterThanOrEqual(1)
    })

    const setStatus = (token: string, iid: number, status: string) =>
      gql<{ updateAlertStatus: { errors: string[]; alert: { status: string; endedAt: string | null } } }>(
        token,
        `mutation { updateAlertStatus(input: {projectPath: "${fullPath}", iid: "${iid}", status: ${status}}) { errors alert { status endedAt } } }`,
      )

    it('updateAlertStatus acknowledges, resolves (setting the end time) and triggers again', async () => {
      expect((await setStatus(developer.token, open, 'ACKNOWLEDGED')).data!.updateAlertStatus).toEqual({
        errors: [],
        alert: { status: 'ACKNOWLEDGED', endedAt: null },
      })
      const resolved = (await setStatus(developer.token, open, 'RESOLVED')).data!.updateAlertStatus
      expect(resolved.alert.status).toBe('RESOLVED')
      expect(resolved.alert.endedAt).not.toBeNull()
      expect((await setStatus(developer.token, open, 'TRIGGERED')).data!.updateAlertStatus.alert).toEqual({
        status: 'TRIGGERED',
        endedAt: null,
      })
    })

    it('refuses to trigger a resolved alert again while another unresolved one has its fingerprint', async () => {
      await setStatus(developer.token, open, 'RESOLVED')
      const newer = (await send(integration, { title: 'Mutable alert', fingerprint: 'mutable' })).json()[0]
        .iid as number
      expect(newer).not.toBe(open)
      const res = (await setStatus(developer.token, open, 'TRIGGERED')).data!.updateAlertStatus
      expect(res).toEqual({
        errors: ['An unresolved alert with the same fingerprint already exists'],
        alert: { status: 'RESOLVED', endedAt: expect.any(String) },
      })
    })

    it('refuses status changes to Reporters', async () => {
      const res = await setStatus(reporter.token, other, 'ACKNOWLEDGED')
      expect(res.errors?.[0].message).toBe(RESOURCE_UNAVAILABLE)
      expect((await alert(other)).status).toBe('TRIGGERED')
    })

    const assign = (token: string, usernames: string[], mode = 'REPLACE') =>
      gql<{ alertSetAssignees: { errors: string[]; alert: { assignees: { nodes: { username: string }[] } } } }>(
        token,
        `mutation($names: [String!]!) { alertSetAssignees(input: {projectPath: "${fullPath}", iid: "${other}", assigneeUsernames: $names, operationMode: ${mode}}) {
          errors alert { assignees { nodes { username } } } } }`,
        { names: usernames },
      )

    it('alertSetAssignees assigns one user and gives them an assigned to-do', async () => {
      const res = (await assign(developer.token, ['alert_dev2'])).data!.alertSetAssignees
      expect(res).toEqual({ errors: [], alert: { assignees: { nodes: [{ username: 'alert_dev2' }] } } })
      const todos = await s.request(developer2.token, {
        method: 'GET',
        url: '/api/v4/todos?type=AlertManagement::Alert',
      })
      expect(todos.json()).toEqual([
        expect.objectContaining({
          action_name: 'assigned',
          target_type: 'AlertManagement::Alert',
          body: 'Second mutable',
          state: 'pending',
          target: expect.objectContaining({
            iid: other,
            title: 'Second mutable',
            status: 'triggered',
            severity: 'info',
          }),
          target_url: `http://burrow.test/${fullPath}/-/alert_management/${other}/details`,
          author: expect.objectContaining({ username: 'alert_dev' }),
        }),
      ])
    })

    it('keeps a single assignee (the first), appends, removes, and gives no to-do for self-assignment', async () => {
      expect(
        (await assign(developer.token, ['alert_dev', 'alert_dev2'])).data!.alertSetAssignees.alert.assignees.nodes,
      ).toEqual([{ username: 'alert_dev' }])
      expect(
        (await s.request(developer.token, { method: 'GET', url: '/api/v4/todos?type=AlertManagement::Alert' })).json(),
      ).toEqual([])
      expect(
        (await assign(developer.token, ['alert_dev2'], 'APPEND')).data!.alertSetAssignees.alert.assignees.nodes,
      ).toEqual([{ username: 'alert_dev' }])
      expect(
        (await assign(developer.token, ['alert_dev'], 'REMOVE')).data!.alertSetAssignees.alert.assignees.nodes,
      ).toEqual([])
    })

    it('refuses assignees who may not read alerts', async () => {
      const res = (await assign(developer.token, ['alert_reporter'])).data!.alertSetAssignees
      expect(res).toEqual({ errors: ['Assignee has no permissions'], alert: { assignees: { nodes: [] } } })
    })

    it('lists the alert filtered by assignee', async () => {
      await assign(developer.token, ['alert_dev2'])
      expect((await alerts(developer.token, 'assigneeUsername: "alert_dev2"')).nodes.map((a) => Number(a.iid))).toEqual(
        [other],
      )
    })

    it('alertTodoCreate adds a marked to-do once; the alert shows it', async () => {
      const create = () =>
        gql<{
          alertTodoCreate: { errors: string[]; todo: { action: string; targetType: string; state: string } | null }
        }>(
          developer.token,
          `mutation { alertTodoCreate(input: {projectPath: "${fullPath}", iid: "${other}"}) { errors todo { action targetType state } } }`,
        )
      expect((await create()).data!.alertTodoCreate).toEqual({
        errors: [],
        todo: { action: 'marked', targetType: 'ALERT', state: 'pending' },
      })
      expect((await create()).data!.alertTodoCreate).toEqual({
        errors: ['You already have pending todo for this alert'],
        todo: null,
      })
      expect((await alert(other)).todos).toEqual({ count: 1, nodes: [{ action: 'marked' }] })
    })

    it('serves the desktop feed: newest triggered alerts first', async () => {
      const feed = await alerts(developer.token, 'statuses: [TRIGGERED], sort: CREATED_TIME_DESC, first: 5')
      const created = feed.nodes.map((a) => Date.parse(a.createdAt as string))
      expect(created).toEqual([...created].sort((a, b) => b - a))
      expect(feed.nodes.every((a) => a.status === 'TRIGGERED')).toBe(true)
    })
  })
})
