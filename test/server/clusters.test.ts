import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { encryptSecret } from '../../src/server/platform/auth/encryption'
import { findCluster, insertCluster, type ClusterRow } from '../../src/server/modules/clusters/queries'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { clusterToken } from '../../src/server/modules/clusters/service'
import { selfSignedCertificate } from '../helpers/certificates'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

const TOKEN = 'k8s-service-account-token-0123456789'

describe('project clusters', () => {
  let s: TestServer
  let group: NamespaceRow
  let project: ProjectRow
  let sibling: ProjectRow
  let devOnly: ProjectRow
  let elsewhere: ProjectRow
  let maintainer: SeededUser
  let developer: SeededUser
  let outsider: SeededUser
  let caPem: string

  const req = (
    token: string | null,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
  ) => s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
  const base = (): string => `/projects/${project.id}/clusters`
  const add = (payload: Record<string, unknown>) => req(maintainer.token, 'POST', `${base()}/user`, payload)
  const platform = (extra: Record<string, unknown> = {}) => ({
    api_url: 'https://k8s.example.com:6443',
    token: TOKEN,
    ...extra,
  })
  const seedGcpCluster = (): ClusterRow =>
    insertCluster(s.app.burrow.db, {
      project_id: project.id,
      user_id: maintainer.user.id,
      name: 'gke-managed',
      domain: null,
      enabled: 1,
      managed: 1,
      provider_type: 'gcp',
      platform_type: 'kubernetes',
      environment_scope: 'gke/*',
      namespace_per_environment: 1,
      management_project_id: null,
      api_url: 'https://35.1.2.3',
      namespace: null,
      authorization_type: 'rbac',
      ca_cert: null,
      encrypted_token: encryptSecret(s.dataDir, 'gke-token'),
    })

  beforeAll(async () => {
    s = await makeServer()
    group = seedGroup(s, { path: 'k8s' })
    project = seedProject(s, { namespaceId: group.id, path: 'web' })
    sibling = seedProject(s, { namespaceId: group.id, path: 'cluster-management' })
    devOnly = seedProject(s, { namespaceId: group.id, path: 'dev-only' })
    elsewhere = seedProject(s, { namespaceId: seedGroup(s, { path: 'elsewhere' }).id, path: 'mgmt' })
    maintainer = seedUser(s)
    developer = seedUser(s)
    outsider = seedUser(s)
    for (const p of [project, sibling, elsewhere])
      seedMember(s, 'Project', p.id, maintainer.user.id, AccessLevel.MAINTAINER)
    seedMember(s, 'Project', devOnly.id, maintainer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, developer.user.id, AccessLevel.DEVELOPER)
    caPem = selfSignedCertificate('kubernetes').certificate
  })
  afterAll(async () => {
    await s.close()
  })

  describe('POST /projects/:id/clusters/user', () => {
    it('adds an existing cluster (201) with the platform attributes, never the token', async () => {
      const res = await add({
        name: 'prod',
        domain: 'apps.example.com',
        platform_cluster_attributes: platform({ namespace: 'web-prod', ca_cert: caPem }),
      })
      expect(res.statusCode).toBe(201)
      const body = res.json()
      const platformView = {
        api_url: 'https://k8s.example.com:6443',
        namespace: 'web-prod',
        authorization_type: 'rbac',
        ca_cert: caPem,
      }
      expect(body).toMatchObject({
        name: 'prod',
        domain: 'apps.example.com',
        managed: true,
        enabled: true,
        provider_type: 'user',
        platform_type: 'kubernetes',
        environment_scope: '*',
        cluster_type: 'project_type',
        user: { id: maintainer.user.id },
        platform_cluster: platformView,
        platform_kubernetes: platformView,
        management_project: null,
        project: { id: project.id, path_with_namespace: 'k8s/web', namespace: { id: group.id, full_path: 'k8s' } },
      })
      expect(res.body).not.toContain(TOKEN)
    })

    it('stores the token sealed: the database never holds it in clear', async () => {
      const rows = s.app.burrow.db.prepare('SELECT * FROM clusters').all() as ClusterRow[]
      expect(JSON.stringify(rows)).not.toContain(TOKEN)
      for (const file of ['burrow.sqlite3', 'burrow.sqlite3-wal']) {
        if (existsSync(join(s.dataDir, file)))
          expect(readFileSync(join(s.dataDir, file)).includes(Buffer.from(TOKEN))).toBe(false)
      }
      expect(clusterToken(s.app.burrow, rows[0])).toBe(TOKEN)
    })

    it('keeps the token out of audit and activity events', () => {
      const audits = s.app.burrow.db.prepare('SELECT details FROM audit_events').all() as { details: string }[]
      const events = s.app.burrow.db.prepare('SELECT * FROM events').all()
      expect(JSON.stringify(audits)).not.toContain(TOKEN)
      expect(JSON.stringify(events)).not.toContain(TOKEN)
      expect(audits.map((a) => JSON.parse(a.details).custom_message)).toContain('Added cluster prod')
    })

    it("accepts GitLab clients' platform_kubernetes_attributes", async () => {
      const res = await add({
        name: 'staging',
        environment_scope: 'staging',
        platform_kubernetes_attributes: platform({ authorization_type: 'abac' }),
      })
      expect(res.statusCode).toBe(201)
      expect(res.json()).toMatchObject({
        environment_scope: 'staging',
        platform_kubernetes: { authorization_type: 'abac', ca_cert: null },
      })
    })

    it('answers 400 for a CA certificate that is not PEM X.509', async () => {
      const res = await add({
        name: 'bad-ca',
        environment_scope: 'bad-ca',
        platform_cluster_attributes: platform({
          ca_cert: '-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----',
        }),
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: { 'platform_kubernetes.ca_cert': ['must be a valid PEM certificate'] } })
    })

    it('answers 400 for a duplicated environment scope', async () => {
      const res = await add({ name: 'again', platform_cluster_attributes: platform() })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: { environment_scope: ['cannot add duplicated environment scope'] } })
    })

    it('answers 400 name is missing without a name', async () => {
      const res = await add({ platform_cluster_attributes: platform() })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'name is missing' })
    })

    it('answers 400 without platform attributes, naming the key the client used', async () => {
      expect((await add({ name: 'x' })).json()).toEqual({ error: 'platform_cluster_attributes is missing' })
      expect(
        (await add({ name: 'x', platform_kubernetes_attributes: { api_url: 'https://k.example.com' } })).json(),
      ).toEqual({ error: 'platform_kubernetes_attributes[token] is missing' })
      expect((await add({ name: 'x', platform_cluster_attributes: { token: TOKEN } })).json()).toEqual({
        error: 'platform_cluster_attributes[api_url] is missing',
      })
    })

    it('answers 400 for an API URL that is not http(s) and for a bad namespace', async () => {
      const res = await add({
        name: 'x',
        environment_scope: 'x',
        platform_cluster_attributes: platform({ api_url: 'ftp://k8s', namespace: 'Bad_NS' }),
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({
        message: {
          'platform_kubernetes.api_url': ['is blocked: Only allowed schemes are http, https'],
          'platform_kubernetes.namespace': [
            "can contain only lowercase letters, digits, and '-'. Must start with a letter, and cannot end with '-'",
          ],
        },
      })
    })

    it('answers 400 for an unknown authorization type', async () => {
      const res = await add({
        name: 'x',
        environment_scope: 'x',
        platform_cluster_attributes: platform({ authorization_type: 'none' }),
      })
      expect(res.statusCode).toBe(400)
    })

    describe('management project', () => {
      const denied = {
        message: {
          management_project_id: ["Project does not exist or you don't have permission to perform this action"],
        },
      }

      it('takes a project of the same namespace the caller maintains', async () => {
        const res = await add({
          name: 'managed',
          environment_scope: 'review/*',
          management_project_id: sibling.id,
          platform_cluster_attributes: platform(),
        })
        expect(res.statusCode).toBe(201)
        expect(res.json().management_project).toEqual({
          id: sibling.id,
          name: 'cluster-management',
          name_with_namespace: 'k8s / cluster-management',
          path: 'cluster-management',
          path_with_namespace: 'k8s/cluster-management',
          description: null,
          created_at: sibling.created_at,
        })
      })

      it('refuses a project of another namespace (400)', async () => {
        const res = await add({
          name: 'm2',
          environment_scope: 'm2',
          management_project_id: elsewhere.id,
          platform_cluster_attributes: platform(),
        })
        expect(res.statusCode).toBe(400)
        expect(res.json()).toEqual(denied)
      })

      it('refuses a project where the caller is only a Developer (400)', async () => {
        const res = await add({
          name: 'm3',
          environment_scope: 'm3',
          management_project_id: devOnly.id,
          platform_cluster_attributes: platform(),
        })
        expect(res.json()).toEqual(denied)
      })

      it('refuses a project that does not exist (400)', async () => {
        expect(
          (
            await add({
              name: 'm4',
              environment_scope: 'm4',
              management_project_id: 999999,
              platform_cluster_attributes: platform(),
            })
          ).json(),
        ).toEqual(denied)
      })
    })
  })

  describe('GET', () => {
    it('lists the clusters without the project and without tokens', async () => {
      const res = await req(maintainer.token, 'GET', base())
      expect(res.statusCode).toBe(200)
      expect(res.json().map((c: { name: string }) => c.name)).toEqual(['prod', 'staging', 'managed'])
      expect(res.json()[0]).not.toHaveProperty('project')
      expect(res.body).not.toContain(TOKEN)
      expect(res.headers['x-total']).toBe('3')
    })

    it('gets one cluster with its project', async () => {
      const list = (await req(maintainer.token, 'GET', base())).json() as { id: number }[]
      const res = await req(maintainer.token, 'GET', `${base()}/${list[0].id}`)
      expect(res.json()).toMatchObject({ id: list[0].id, name: 'prod', project: { id: project.id } })
    })

    it('shows the project as the spec lists it on single get, create and update: project_ref plus repository URLs, counts and namespace', async () => {
      const projectKeys = [
        'id',
        'name',
        'name_with_namespace',
        'path',
        'path_with_namespace',
        'description',
        'created_at',
        'default_branch',
        'tag_list',
        'topics',
        'ssh_url_to_repo',
        'http_url_to_repo',
        'web_url',
        'readme_url',
        'avatar_url',
        'star_count',
        'forks_count',
        'last_activity_at',
        'namespace',
      ]
      const list = (await req(maintainer.token, 'GET', base())).json() as { id: number }[]
      const single = (await req(maintainer.token, 'GET', `${base()}/${list[0].id}`)).json()
      const updated = (
        await req(maintainer.token, 'PUT', `${base()}/${list[0].id}`, { domain: 'apps.example.com' })
      ).json()
      for (const cluster of [single, updated]) {
        expect(Object.keys(cluster.project).sort()).toEqual([...projectKeys].sort())
        expect(cluster.project).toMatchObject({
          id: project.id,
          path_with_namespace: 'k8s/web',
          web_url: 'http://burrow.test/k8s/web',
          http_url_to_repo: 'http://burrow.test/k8s/web.git',
          ssh_url_to_repo: 'git@burrow.test:k8s/web.git',
          topics: [],
          tag_list: [],
          star_count: 0,
          forks_count: 0,
        })
        expect(cluster.project.namespace).toMatchObject({
          id: group.id,
          name: group.name,
          path: 'k8s',
          kind: 'group',
          full_path: 'k8s',
          parent_id: null,
        })
        expect(cluster.user).toEqual(
          expect.objectContaining({ id: maintainer.user.id, username: maintainer.user.username, state: 'active' }),
        )
        expect(Object.keys(cluster.platform_cluster).sort()).toEqual([
          'api_url',
          'authorization_type',
          'ca_cert',
          'namespace',
        ])
      }
    })

    it('answers 404 for an unknown cluster', async () => {
      const res = await req(maintainer.token, 'GET', `${base()}/999999`)
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: '404 Not found' })
    })

    it('needs Maintainer: 403 for Developers, 404 for outsiders, 401 anonymous', async () => {
      expect((await req(developer.token, 'GET', base())).statusCode).toBe(403)
      expect(
        (await req(developer.token, 'POST', `${base()}/user`, { name: 'd', platform_cluster_attributes: platform() }))
          .statusCode,
      ).toBe(403)
      expect((await req(outsider.token, 'GET', base())).statusCode).toBe(404)
      expect((await req(null, 'GET', base())).statusCode).toBe(401)
    })
  })

  describe('PUT /projects/:id/clusters/:cluster_id', () => {
    it('updates every attribute of a cluster added as existing, sealing a new token', async () => {
      const created = (
        await add({ name: 'edit-me', environment_scope: 'edit', platform_cluster_attributes: platform() })
      ).json()
      const newCa = selfSignedCertificate('kubernetes-2').certificate
      const res = await req(maintainer.token, 'PUT', `${base()}/${created.id}`, {
        name: 'edited',
        domain: 'edit.example.com',
        enabled: false,
        managed: false,
        environment_scope: 'edited/*',
        platform_kubernetes_attributes: {
          api_url: 'https://new.example.com',
          token: 'new-token-value',
          ca_cert: newCa,
          namespace: 'edited-ns',
        },
      })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({
        name: 'edited',
        domain: 'edit.example.com',
        enabled: false,
        managed: false,
        environment_scope: 'edited/*',
        platform_cluster: { api_url: 'https://new.example.com', ca_cert: newCa, namespace: 'edited-ns' },
      })
      expect(res.body).not.toContain('new-token-value')
      expect(clusterToken(s.app.burrow, findCluster(s.app.burrow.db, project.id, created.id) as ClusterRow)).toBe(
        'new-token-value',
      )
      const audit = s.app.burrow.db
        .prepare("SELECT details FROM audit_events WHERE details LIKE '%Updated cluster edited%'")
        .get() as { details: string }
      expect(JSON.parse(audit.details).change).toContain('token')
      expect(audit.details).not.toContain('new-token-value')
    })

    it('refuses to rename a cluster GitLab created (provider gcp)', async () => {
      const gcp = seedGcpCluster()
      const res = await req(maintainer.token, 'PUT', `${base()}/${gcp.id}`, { name: 'renamed' })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message: { name: ["can not be changed because it's synchronized with provider"] } })
    })

    it('refuses to change API URL, token or CA certificate of a GitLab-created cluster', async () => {
      const gcp = findCluster(
        s.app.burrow.db,
        project.id,
        (s.app.burrow.db.prepare("SELECT id FROM clusters WHERE provider_type = 'gcp'").get() as { id: number }).id,
      ) as ClusterRow
      for (const attrs of [{ api_url: 'https://other' }, { token: 'x' }, { ca_cert: caPem }]) {
        const res = await req(maintainer.token, 'PUT', `${base()}/${gcp.id}`, { platform_kubernetes_attributes: attrs })
        expect(res.statusCode).toBe(400)
        expect(res.json()).toEqual({
          message: { 'platform_kubernetes.base': ['Cannot modify managed Kubernetes cluster'] },
        })
      }
      const ok = await req(maintainer.token, 'PUT', `${base()}/${gcp.id}`, {
        domain: 'gke.example.com',
        enabled: false,
      })
      expect(ok.statusCode).toBe(200)
      expect(ok.json()).toMatchObject({
        name: 'gke-managed',
        provider_type: 'gcp',
        domain: 'gke.example.com',
        enabled: false,
      })
    })

    it("answers 400 when moving onto another cluster's environment scope", async () => {
      const list = (await req(maintainer.token, 'GET', base())).json() as { id: number; name: string }[]
      const staging = list.find((c) => c.name === 'staging') as { id: number }
      const res = await req(maintainer.token, 'PUT', `${base()}/${staging.id}`, { environment_scope: '*' })
      expect(res.json()).toEqual({ message: { environment_scope: ['cannot add duplicated environment scope'] } })
    })

    it('answers 404 for an unknown cluster', async () => {
      expect((await req(maintainer.token, 'PUT', `${base()}/999999`, { name: 'x' })).statusCode).toBe(404)
    })
  })

  describe('DELETE /projects/:id/clusters/:cluster_id', () => {
    it('removes the cluster (204), then answers 404', async () => {
      const created = (
        await add({ name: 'temp', environment_scope: 'temp', platform_cluster_attributes: platform() })
      ).json()
      expect((await req(maintainer.token, 'DELETE', `${base()}/${created.id}`)).statusCode).toBe(204)
      expect((await req(maintainer.token, 'GET', `${base()}/${created.id}`)).statusCode).toBe(404)
      expect((await req(maintainer.token, 'DELETE', `${base()}/${created.id}`)).statusCode).toBe(404)
      const events = s.app.burrow.db
        .prepare("SELECT action FROM events WHERE target_type = 'Clusters::Cluster' AND target_id = ? ORDER BY id")
        .all(created.id) as { action: string }[]
      // GitLab keeps audit events for clusters, never activity events.
      expect(events).toEqual([])
    })
  })
})
