import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nowIso } from '../../src/server/platform/db/connection'
import { seedGroup } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

const API = '/api/v4'
const HERE = 'http://burrow.test/'

type Json = Record<string, unknown>

describe('replication (Geo) nodes', () => {
  let s: TestServer
  let user: SeededUser

  const asRoot = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Json) =>
    s.request(ROOT_TOKEN, { method, url: `${API}${url}`, payload })
  const setNodeName = (name: string) => asRoot('PUT', '/application/settings', { geo_node_name: name })

  beforeAll(async () => {
    s = await makeServer({ storages: ['default', 'second'] })
    user = seedUser(s)
  })
  afterAll(async () => {
    await s.close()
  })

  it('manages nodes while this instance is not a node at all: update, repair and delete succeed', async () => {
    const node = (
      await asRoot('POST', '/geo_nodes', { name: 'early-secondary', url: 'https://early.example.com' })
    ).json() as Json
    const put = await asRoot('PUT', `/geo_nodes/${node.id}`, {
      name: 'early-secondary',
      url: 'https://early.example.com',
      files_max_capacity: 3,
    })
    expect([put.statusCode, (put.json() as Json).files_max_capacity]).toEqual([200, 3])
    const repair = await asRoot('POST', `/geo_nodes/${node.id}/repair`)
    expect([repair.statusCode, (repair.json() as Json).id]).toEqual([200, node.id])
    expect((await asRoot('DELETE', `/geo_nodes/${node.id}`)).statusCode).toBe(204)
    expect((await asRoot('GET', `/geo_nodes/${node.id}`)).statusCode).toBe(404)
  })

  it('creates the primary node for this instance (name = external URL) and it is current', async () => {
    const res = await asRoot('POST', '/geo_nodes', {
      name: 'http://burrow.test',
      url: 'http://burrow.test',
      primary: true,
    })
    expect(res.statusCode).toBe(201)
    const node = res.json() as Json
    expect(node).toEqual({
      id: expect.any(Number),
      name: HERE,
      url: HERE,
      internal_url: HERE,
      primary: true,
      enabled: true,
      current: true,
      files_max_capacity: 10,
      repos_max_capacity: 25,
      verification_max_capacity: 100,
      container_repositories_max_capacity: 10,
      selective_sync_type: null,
      selective_sync_shards: [],
      selective_sync_namespace_ids: [],
      minimum_reverification_interval: 7,
      sync_object_storage: false,
      clone_protocol: 'http',
      web_edit_url: `http://burrow.test/admin/geo/sites/${node.id}/edit`,
      web_geo_projects_url: null,
      _links: {
        self: `http://burrow.test/api/v4/geo_nodes/${node.id}`,
        status: `http://burrow.test/api/v4/geo_nodes/${node.id}/status`,
        repair: `http://burrow.test/api/v4/geo_nodes/${node.id}/repair`,
      },
    })
  })

  it('creates a secondary with the spec defaults', async () => {
    const res = await asRoot('POST', '/geo_nodes', {
      name: 'eu-west',
      url: 'https://eu.example.com',
      internal_url: 'https://eu.internal:8080',
    })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({
      name: 'eu-west',
      url: 'https://eu.example.com/',
      internal_url: 'https://eu.internal:8080/',
      primary: false,
      enabled: true,
      current: false,
      files_max_capacity: 10,
      repos_max_capacity: 25,
      verification_max_capacity: 100,
      container_repositories_max_capacity: 10,
      sync_object_storage: false,
      web_geo_projects_url: 'https://eu.example.com/admin/geo/replication/projects',
    })
  })

  it('answers GitLab model validation errors', async () => {
    const cases: [Json, Json][] = [
      [{ name: 'second-primary', url: 'https://p2.example.com', primary: true }, { primary: ['node already exists'] }],
      [{ name: 'EU-WEST', url: 'https://other.example.com' }, { name: ['has already been taken'] }],
      [
        { name: 'bad-url', url: 'ftp://files.example.com' },
        { url: ['is blocked: Only allowed schemes are http, https'] },
      ],
      [{ name: 'worse-url', url: 'not a url' }, { url: ['must be a valid URL'] }],
      [
        { name: 'typed', url: 'https://t.example.com', selective_sync_type: 'everything' },
        { selective_sync_type: ['is not included in the list'] },
      ],
      [
        { name: 'negative', url: 'https://n.example.com', repos_max_capacity: -1 },
        { repos_max_capacity: ['must be greater than or equal to 0'] },
      ],
      [
        { name: 'interval', url: 'https://i.example.com', minimum_reverification_interval: 0 },
        { minimum_reverification_interval: ['must be greater than or equal to 1'] },
      ],
      [
        { name: 'http://burrow.test/', url: 'http://burrow.test/' },
        {
          name: ['has already been taken'],
          base: ['Current node must be the primary node or you will be locking yourself out'],
        },
      ],
    ]
    for (const [payload, errors] of cases) {
      const res = await asRoot('POST', '/geo_nodes', payload)
      expect([payload.name, res.statusCode, res.json()]).toEqual([payload.name, 400, { message: errors }])
    }
    const missing = await asRoot('POST', '/geo_nodes', { url: 'https://x.example.com' })
    expect([missing.statusCode, missing.json()]).toEqual([400, { error: 'name is missing' }])
  })

  it('lists nodes in id order with pagination headers and gets one; 404 for an unknown node', async () => {
    const list = await asRoot('GET', '/geo_nodes')
    expect(list.statusCode).toBe(200)
    const names = (list.json() as Json[]).map((n) => n.name)
    expect(names.slice(0, 2)).toEqual([HERE, 'eu-west'])
    expect(list.headers['x-total']).toBe(String(names.length))
    const first = (list.json() as Json[])[0]
    expect((await asRoot('GET', `/geo_nodes/${first.id}`)).json()).toEqual(first)
    const missing = await asRoot('GET', '/geo_nodes/99999')
    expect([missing.statusCode, missing.json()]).toEqual([404, { message: '404 GeoNode Not Found' }])
  })

  it('updates a node on the primary (name and url required) and records selective sync', async () => {
    const group = seedGroup(s, { path: 'geo-synced' })
    const node = (await asRoot('POST', '/geo_nodes', { name: 'us-east', url: 'https://us.example.com' })).json() as Json
    const missing = await asRoot('PUT', `/geo_nodes/${node.id}`, { files_max_capacity: 3 })
    expect([missing.statusCode, missing.json()]).toEqual([400, { error: 'name is missing, url is missing' }])
    const res = await asRoot('PUT', `/geo_nodes/${node.id}`, {
      name: 'us-east-1',
      url: 'https://us1.example.com',
      files_max_capacity: 3,
      enabled: false,
      selective_sync_type: 'namespaces',
      selective_sync_namespace_ids: `${group.id},999999`,
      selective_sync_shards: ['default'],
      minimum_reverification_interval: 14,
      sync_object_storage: true,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      id: node.id,
      name: 'us-east-1',
      url: 'https://us1.example.com/',
      files_max_capacity: 3,
      enabled: false,
      primary: false,
      selective_sync_type: 'namespaces',
      selective_sync_namespace_ids: [group.id],
      selective_sync_shards: ['default'],
      minimum_reverification_interval: 14,
      sync_object_storage: true,
    })
    const primary = ((await asRoot('GET', '/geo_nodes')).json() as Json[]).find((n) => n.primary) as Json
    const disable = await asRoot('PUT', `/geo_nodes/${primary.id}`, { name: HERE, url: HERE, enabled: false })
    expect([disable.statusCode, disable.json()]).toEqual([
      400,
      { message: { enabled: ['Geo primary node cannot be disabled'] } },
    ])
  })

  it('repairs a node on the primary and deletes one (204, then 404)', async () => {
    const node = (
      await asRoot('POST', '/geo_nodes', { name: 'to-delete', url: 'https://del.example.com' })
    ).json() as Json
    const repaired = await asRoot('POST', `/geo_nodes/${node.id}/repair`)
    expect([repaired.statusCode, repaired.json().id]).toEqual([200, node.id])
    const deleted = await asRoot('DELETE', `/geo_nodes/${node.id}`)
    expect(deleted.statusCode).toBe(204)
    expect((await asRoot('GET', `/geo_nodes/${node.id}`)).statusCode).toBe(404)
    expect((await asRoot('DELETE', `/geo_nodes/${node.id}`)).statusCode).toBe(404)
  })

  it('counts repositories, wikis, attachments and job artifacts from real data in status records', async () => {
    const group = seedGroup(s, { path: 'geo-status' })
    const sub = seedGroup(s, { path: 'inner', parentId: group.id })
    const make = async (name: string, namespaceId: number, storage = 'default'): Promise<number> =>
      (await asRoot('POST', '/projects', { name, namespace_id: namespaceId, repository_storage: storage })).json()
        .id as number
    const inGroup = await make('in-group', group.id)
    await make('in-subgroup', sub.id)
    const elsewhere = await make('on-second', (await asRoot('GET', '/namespaces/root')).json().id as number, 'second')
    const noRepo = await make('no-repo', group.id)
    rmSync(s.app.burrow.repos.repoPath('default', 'project', noRepo), { recursive: true, force: true })
    await s.app.burrow.repos.create(s.app.burrow.repos.repoPath('default', 'wiki', inGroup), 'main')
    mkdirSync(join(s.dataDir, 'uploads', '-', 'system', 'user', 'avatar', '1'), { recursive: true })
    writeFileSync(join(s.dataDir, 'uploads', '-', 'system', 'user', 'avatar', '1', 'avatar.png'), 'png')
    const db = s.app.burrow.db
    db.pragma('foreign_keys = OFF')
    for (const [i, project] of [inGroup, elsewhere].entries()) {
      db.prepare(
        `INSERT INTO ci_job_artifacts (project_id, job_id, file_type, file_format, filename, size, file_sha256, path, created_at) VALUES (?, ?, 'archive', 'zip', 'a.zip', 1, 'x', 'p', ?)`,
      ).run(project, 900000 + i, nowIso())
    }
    db.pragma('foreign_keys = ON')

    const totalProjects = (db.prepare('SELECT COUNT(*) AS n FROM projects').get() as { n: number }).n
    const primary = ((await asRoot('GET', '/geo_nodes')).json() as Json[]).find((n) => n.primary) as Json
    const primaryStatus = (await asRoot('GET', `/geo_nodes/${primary.id}/status`)).json() as Json
    expect(primaryStatus).toMatchObject({
      geo_node_id: primary.id,
      healthy: true,
      health: 'Healthy',
      health_status: 'Healthy',
      missing_oauth_application: false,
      db_replication_lag_seconds: null,
      projects_count: totalProjects,
      repositories_count: totalProjects - 1,
      repositories_synced_count: null,
      repositories_failed_count: null,
      repositories_synced_in_percentage: '0.00%',
      wikis_count: 1,
      attachments_count: 1,
      lfs_objects_count: 0,
      job_artifacts_count: 2,
      container_repositories_count: 0,
      design_repositories_count: 0,
      replication_slots_count: 0,
      version: expect.any(String),
    })

    const byGroup = (
      await asRoot('POST', '/geo_nodes', {
        name: 'by-group',
        url: 'https://g.example.com',
        selective_sync_type: 'namespaces',
        selective_sync_namespace_ids: [group.id],
      })
    ).json() as Json
    const groupStatus = (await asRoot('GET', `/geo_nodes/${byGroup.id}/status`)).json() as Json
    expect(groupStatus).toMatchObject({
      projects_count: 3,
      repositories_count: 2,
      repositories_synced_count: 2,
      repositories_failed_count: 0,
      repositories_synced_in_percentage: '100.00%',
      wikis_count: 1,
      wikis_synced_count: 1,
      job_artifacts_count: 1,
      job_artifacts_synced_count: 1,
      job_artifacts_synced_in_percentage: '100.00%',
      attachments_synced_count: 1,
      lfs_objects_synced_in_percentage: '0.00%',
      db_replication_lag_seconds: 0,
    })

    const byShard = (
      await asRoot('POST', '/geo_nodes', {
        name: 'by-shard',
        url: 'https://s.example.com',
        selective_sync_type: 'shards',
        selective_sync_shards: 'second',
        enabled: false,
      })
    ).json() as Json
    const shardStatus = (await asRoot('GET', `/geo_nodes/${byShard.id}/status`)).json() as Json
    expect(shardStatus).toMatchObject({
      projects_count: 1,
      repositories_count: 1,
      repositories_synced_count: 0,
      repositories_synced_in_percentage: '0.00%',
      job_artifacts_count: 1,
    })

    const all = (await asRoot('GET', '/geo_nodes/status')).json() as Json[]
    expect(all.map((r) => r.geo_node_id)).toEqual(
      ((await asRoot('GET', '/geo_nodes')).json() as Json[]).map((n) => n.id),
    )
    expect(all.find((r) => r.geo_node_id === byGroup.id)).toMatchObject({
      repositories_synced_in_percentage: '100.00%',
    })
  })

  it('answers current failures only on a secondary', async () => {
    const onPrimary = await asRoot('GET', '/geo_nodes/current/failures')
    expect([onPrimary.statusCode, onPrimary.json()]).toEqual([
      403,
      { message: '403 Forbidden - Failures can only be requested from a secondary node' },
    ])
  })

  it('refuses node changes when this instance is a secondary (the node name setting names one)', async () => {
    const secondary = ((await asRoot('GET', '/geo_nodes')).json() as Json[]).find((n) => n.name === 'eu-west') as Json
    expect((await setNodeName('eu-west')).statusCode).toBe(200)
    try {
      const listed = (await asRoot('GET', `/geo_nodes/${secondary.id}`)).json() as Json
      expect(listed.current).toBe(true)
      const refused = { message: 'You cannot perform write operations on a read-only instance' }
      const put = await asRoot('PUT', `/geo_nodes/${secondary.id}`, { name: 'eu-west', url: 'https://eu.example.com' })
      expect([put.statusCode, put.json()]).toEqual([403, refused])
      expect((await asRoot('DELETE', `/geo_nodes/${secondary.id}`)).statusCode).toBe(403)
      expect((await asRoot('POST', `/geo_nodes/${secondary.id}/repair`)).statusCode).toBe(403)
      const create = await asRoot('POST', '/geo_nodes', { name: 'ap-south', url: 'https://ap.example.com' })
      expect([create.statusCode, create.json()]).toEqual([403, refused])
      expect(((await asRoot('GET', `/geo_nodes/${secondary.id}`)).json() as Json).name).toBe('eu-west')
      expect((await asRoot('GET', '/geo_nodes/current/failures')).json()).toEqual([])
    } finally {
      await setNodeName('')
    }
  })

  it('records audit events for node changes', async () => {
    const events = (await asRoot('GET', '/audit_events?entity_type=User&per_page=100')).json() as { details: Json }[]
    const messages = events.filter((e) => e.details.target_type === 'GeoNode').map((e) => e.details.custom_message)
    expect(messages).toEqual(
      expect.arrayContaining([
        'Added primary Geo node http://burrow.test/',
        'Added secondary Geo node eu-west',
        'Changed Geo node us-east-1',
        'Removed Geo node to-delete',
      ]),
    )
  })

  it('is for administrators only: 403 for others, 401 without credentials', async () => {
    const calls: [string, string, Json?][] = [
      ['GET', '/geo_nodes'],
      ['POST', '/geo_nodes', { name: 'x', url: 'https://x.example.com' }],
      ['GET', '/geo_nodes/1'],
      ['GET', '/geo_nodes/status'],
      ['GET', '/geo_nodes/1/status'],
      ['PUT', '/geo_nodes/1', { name: 'x', url: 'https://x.example.com' }],
      ['DELETE', '/geo_nodes/1'],
      ['POST', '/geo_nodes/1/repair'],
    ]
    for (const [method, url, payload] of calls) {
      const res = await s.request(user.token, { method: method as 'GET', url: `${API}${url}`, payload })
      expect([url, method, res.statusCode, res.json()]).toEqual([url, method, 403, { message: '403 Forbidden' }])
      const anonymous = await s.request(null, { method: method as 'GET', url: `${API}${url}`, payload })
      expect([url, method, anonymous.statusCode]).toEqual([url, method, 401])
    }
  })
})
