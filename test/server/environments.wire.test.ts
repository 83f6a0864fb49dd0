import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { insertProjectShare } from '../../src/server/modules/projects/queries'
import type { NamespaceRow } from '../../src/server/platform/db/rows'
import { selfSignedCertificate, type TestCertificate } from '../helpers/certificates'
import { seedGroup, seedMember } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

const DAY = 24 * 60 * 60 * 1000
const py = (value: unknown): string => JSON.stringify(value)

describe('environments, deployments and operations resources over the wire', () => {
  let s: ListeningServer
  let group: NamespaceRow
  let maintainer: SeededUser
  let deployer: SeededUser
  let projectId: number
  let sha: string
  let cert: TestCertificate
  let caPem: string

  beforeAll(async () => {
    s = await startServer()
    group = seedGroup(s, { path: 'wire-ops' })
    maintainer = seedUser(s, { username: 'wire_ops_maintainer' })
    deployer = seedUser(s, { username: 'wire_ops_deployer', name: 'Wire Deployer' })
    seedMember(s, 'Namespace', group.id, maintainer.user.id, AccessLevel.MAINTAINER)
    const created = await s.request(maintainer.token, {
      method: 'POST',
      url: '/api/v4/projects',
      payload: { name: 'app', namespace_id: group.id, initialize_with_readme: true },
    })
    projectId = created.json().id
    seedMember(s, 'Project', projectId, deployer.user.id, AccessLevel.DEVELOPER)
    const team = seedGroup(s, { path: 'wire-release', name: 'Wire release' })
    insertProjectShare(s.app.burrow.db, projectId, team.id, AccessLevel.DEVELOPER, null)
    sha = (
      await s.request(maintainer.token, {
        method: 'GET',
        url: `/api/v4/projects/${projectId}/repository/branches/main`,
      })
    ).json().commit.id
    cert = selfSignedCertificate('py.wire.example')
    caPem = selfSignedCertificate('kubernetes').certificate
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab creates, lists, updates, stops and deletes environments', async () => {
    const result = await withPythonGitlab<{
      created: { name: string; slug: string; state: string; tier: string }
      listed: string[]
      searched: string[]
      updated: string
      stopped: string[]
      remaining: string[]
    }>(
      s.url,
      { private_token: maintainer.token },
      `
project = gl.projects.get(${projectId}, lazy=True)
env = project.environments.create({'name': 'review/py-branch', 'external_url': 'https://py.example.com'})
project.environments.create({'name': 'py-staging'})
listed = [e.name for e in project.environments.list(get_all=True)]
searched = [e.name for e in project.environments.list(search='py-', get_all=True)]
env.external_url = 'https://py2.example.com'
env.save()
updated = project.environments.get(env.id).external_url
env.stop()
stopped = [e.name for e in project.environments.list(states='stopped', get_all=True)]
project.environments.delete(env.id)
remaining = [e.name for e in project.environments.list(get_all=True)]
out({'created': {'name': env.name, 'slug': env.slug, 'state': env.state, 'tier': env.tier}, 'listed': listed, 'searched': searched,
     'updated': updated, 'stopped': stopped, 'remaining': remaining})
`,
    )
    expect(result.created).toEqual({
      name: 'review/py-branch',
      slug: expect.stringMatching(/^review-py-branch-[a-z0-9]{6}$/),
      state: 'available',
      tier: 'development',
    })
    expect(result.listed).toEqual(['review/py-branch', 'py-staging'])
    expect(result.searched).toEqual(['review/py-branch', 'py-staging'])
    expect(result.updated).toBe('https://py2.example.com')
    expect(result.stopped).toEqual(['review/py-branch'])
    expect(result.remaining).toEqual(['py-staging'])
  })

  it('python-gitlab sees a 400 with the error for an invalid environment name', async () => {
    const result = await withPythonGitlab<{ code: number; message: string }>(
      s.url,
      { private_token: maintainer.token },
      `
try:
    gl.projects.get(${projectId}, lazy=True).environments.create({'name': '/bad'})
    out({'code': 0, 'message': ''})
except gitlab.exceptions.GitlabCreateError as e:
    out({'code': e.response_code, 'message': str(e.error_message)})
`,
    )
    expect(result.code).toBe(400)
    expect(result.message).toContain('cannot start or end with')
  })

  it('python-gitlab records deployments and reads last_deployment', async () => {
    const result = await withPythonGitlab<{
      iid: number
      status: string
      env: string
      last: { id: number; status: string; deployable: unknown }
      listed: string[]
    }>(
      s.url,
      { private_token: deployer.token },
      `
project = gl.projects.get(${projectId}, lazy=True)
d = project.deployments.create({'environment': 'py-production', 'sha': ${py(sha)}, 'ref': 'main', 'tag': False, 'status': 'running'})
d.status = 'success'
d.save()
env_id = d.environment['id']
last = project.environments.get(env_id).last_deployment
listed = [x.status for x in project.deployments.list(environment='py-production', get_all=True)]
out({'iid': d.iid, 'status': d.status, 'env': d.environment['name'], 'last': {'id': last['id'], 'status': last['status'], 'deployable': last['deployable']}, 'listed': listed})
`,
    )
    expect(result).toMatchObject({
      status: 'success',
      env: 'py-production',
      last: { status: 'success', deployable: null },
      listed: ['success'],
    })
  })

  it('python-gitlab protects environments for a role, a user and a shared group', async () => {
    const team = s.app.burrow.db.prepare("SELECT id FROM namespaces WHERE path = 'wire-release'").get() as {
      id: number
    }
    const result = await withPythonGitlab<{
      levels: { access_level_description: string; user_id: number | null; group_id: number | null }[]
      names: string[]
      remaining: string[]
      refused: number
    }>(
      s.url,
      { private_token: maintainer.token },
      `
project = gl.projects.get(${projectId}, lazy=True)
pe = project.protected_environments.create({'name': 'py-production', 'deploy_access_levels': [{'access_level': 40}, {'user_id': ${deployer.user.id}}, {'group_id': ${team.id}}]})
levels = [{k: l[k] for k in ('access_level_description', 'user_id', 'group_id')} for l in pe.deploy_access_levels]
project.protected_environments.create({'name': 'py-other', 'deploy_access_levels': [{'access_level': 30}]})
names = [p.name for p in project.protected_environments.list(get_all=True)]
project.protected_environments.delete('py-other')
remaining = [p.name for p in project.protected_environments.list(get_all=True)]
try:
    project.protected_environments.create({'name': 'py-bad', 'deploy_access_levels': [{'user_id': 999999}]})
    refused = 0
except gitlab.exceptions.GitlabCreateError as e:
    refused = e.response_code
out({'levels': levels, 'names': names, 'remaining': remaining, 'refused': refused})
`,
    )
    expect(result.levels).toEqual([
      { access_level_description: 'Maintainers', user_id: null, group_id: null },
      { access_level_description: 'Wire Deployer', user_id: deployer.user.id, group_id: null },
      { access_level_description: 'Wire release', user_id: null, group_id: team.id },
    ])
    expect(result.names).toEqual(['py-other', 'py-production'])
    expect(result.remaining).toEqual(['py-production'])
    expect(result.refused).toBe(422)
  })

  it('python-gitlab adds, reads, updates and deletes a project cluster without ever seeing the token', async () => {
    const result = await withPythonGitlab<{
      created: Record<string, unknown>
      got: Record<string, unknown>
      updated: string
      after: number
      raw: string
    }>(
      s.url,
      { private_token: maintainer.token },
      `
project = gl.projects.get(${projectId}, lazy=True)
c = project.clusters.create({'name': 'py-cluster', 'platform_kubernetes_attributes': {'api_url': 'https://k8s.wire.example', 'token': 'py-secret-token', 'ca_cert': ${py(caPem)}}, 'environment_scope': 'production'})
got = project.clusters.get(c.id)
got.name = 'py-cluster-renamed'
got.save()
updated = project.clusters.get(c.id).name
raw = json.dumps(project.clusters.get(c.id).attributes)
project.clusters.delete(c.id)
after = len(project.clusters.list(get_all=True))
out({'created': {'provider_type': c.provider_type, 'cluster_type': c.cluster_type, 'environment_scope': c.environment_scope, 'api_url': c.platform_kubernetes['api_url']},
     'got': {'project': got.project['id'], 'ca': got.platform_kubernetes['ca_cert'] is not None}, 'updated': updated, 'after': after, 'raw': raw})
`,
    )
    expect(result.created).toEqual({
      provider_type: 'user',
      cluster_type: 'project_type',
      environment_scope: 'production',
      api_url: 'https://k8s.wire.example',
    })
    expect(result.got).toEqual({ project: projectId, ca: true })
    expect(result.updated).toBe('py-cluster-renamed')
    expect(result.after).toBe(0)
    expect(result.raw).not.toContain('py-secret-token')
  })

  it('python-gitlab manages Pages domains with a real certificate and lists them all as administrator', async () => {
    const result = await withPythonGitlab<{
      url: string
      subject: string
      plain: string
      renamed: string
      all: { domain: string; project_id: number }[]
    }>(
      s.url,
      { private_token: maintainer.token },
      `
project = gl.projects.get(${projectId}, lazy=True)
d = project.pagesdomains.create({'domain': 'py.wire.example', 'certificate': ${py(cert.certificate)}, 'key': ${py(cert.key)}})
plain = project.pagesdomains.create({'domain': 'plain.wire.example'})
got = project.pagesdomains.get('py.wire.example')
admin = gitlab.Gitlab(os.environ['GL_URL'], private_token=${py(ROOT_TOKEN)})
everything = [{'domain': x.domain, 'project_id': x.project_id} for x in admin.pagesdomains.list(get_all=True)]
project.pagesdomains.delete('plain.wire.example')
out({'url': d.url, 'subject': got.certificate['subject'], 'plain': plain.url, 'renamed': project.pagesdomains.get('py.wire.example').domain, 'all': everything})
`,
    )
    expect(result).toMatchObject({
      url: 'https://py.wire.example',
      subject: '/O=Burrow Test/CN=py.wire.example',
      plain: 'http://plain.wire.example',
      renamed: 'py.wire.example',
    })
    expect(result.all).toEqual([
      { domain: 'plain.wire.example', project_id: projectId },
      { domain: 'py.wire.example', project_id: projectId },
    ])
  })

  it('python-gitlab reaches error tracking through its raw HTTP helpers (it has no error tracking managers)', async () => {
    const result = await withPythonGitlab<{
      setting: Record<string, unknown>
      key: Record<string, unknown>
      keys: number
      removed: number
    }>(
      s.url,
      { private_token: maintainer.token },
      `
base = '/projects/${projectId}/error_tracking'
setting = gl.http_request('patch', base + '/settings', post_data={'active': True, 'integrated': True}).json()
key = gl.http_post(base + '/client_keys')
keys = len(gl.http_list(base + '/client_keys', get_all=True))
gl.http_delete(base + '/client_keys/' + str(key['id']))
removed = keys - len(gl.http_list(base + '/client_keys', get_all=True))
out({'setting': setting, 'key': key, 'keys': keys, 'removed': removed})
`,
    )
    expect(result.setting).toMatchObject({ active: true, integrated: true })
    expect(result.key.sentry_dsn).toBe(
      `${s.url.replace('://', `://${String(result.key.public_key)}@`)}/api/v4/error_tracking/collector/${projectId}`,
    )
    expect(result.keys).toBe(1)
    expect(result.removed).toBe(1)
  })

  it('@gitbeaker/rest drives environments, review-app deletion and deployments', async () => {
    const api = new Gitlab({ host: s.url, token: maintainer.token })
    const env = await api.Environments.create(projectId, 'review/gb-feature', { externalUrl: 'https://gb.example.com' })
    expect(env).toMatchObject({ name: 'review/gb-feature', state: 'available', external_url: 'https://gb.example.com' })
    const edited = await api.Environments.edit(projectId, env.id, { externalUrl: 'https://gb2.example.com' })
    expect(edited.external_url).toBe('https://gb2.example.com')
    expect((await api.Environments.all(projectId, { name: 'review/gb-feature' })).map((e) => e.id)).toEqual([env.id])
    const stopped = await api.Environments.stop(projectId, env.id)
    expect(stopped.state).toBe('stopped')
    s.app.burrow.db
      .prepare('UPDATE environments SET created_at = ? WHERE id = ?')
      .run(new Date(Date.now() - 40 * DAY).toISOString(), env.id)
    const dry = await api.Environments.removeReviewApps(projectId)
    expect(dry).toMatchObject({
      scheduled_entries: [expect.objectContaining({ id: env.id, name: 'review/gb-feature' })],
      unprocessable_entries: [],
    })
    const real = await api.Environments.removeReviewApps(projectId, { dryRun: false })
    expect(real.scheduled_entries.map((e: { id: number }) => e.id)).toEqual([env.id])
    expect(
      (
        s.app.burrow.db.prepare('SELECT auto_delete_at FROM environments WHERE id = ?').get(env.id) as {
          auto_delete_at: string | null
        }
      ).auto_delete_at,
    ).not.toBeNull()

    const deployment = await api.Deployments.create(projectId, 'gb-staging', sha, 'main', false, { status: 'running' })
    expect(deployment).toMatchObject({ status: 'running', ref: 'main', sha })
    const done = await api.Deployments.edit(projectId, deployment.id, 'success')
    expect(done.status).toBe('success')
    expect((await api.Deployments.show(projectId, deployment.id)).status).toBe('success')
    const shown = await api.Environments.show(projectId, (deployment.environment as { id: number }).id)
    expect(shown.last_deployment).toMatchObject({ id: deployment.id, status: 'success' })
    const envs = await api.Environments.all(projectId)
    const toDelete = envs.find((e) => e.name === 'gb-staging') as { id: number }
    await api.Environments.remove(projectId, toDelete.id)
    expect((await api.Environments.all(projectId)).map((e) => e.name)).not.toContain('gb-staging')
  })

  it('@gitbeaker/rest protects and unprotects an environment', async () => {
    const api = new Gitlab({ host: s.url, token: maintainer.token })
    const created = await api.ProjectProtectedEnvironments.create(projectId, 'gb-production', [{ accessLevel: 40 }])
    expect(created).toMatchObject({
      name: 'gb-production',
      deploy_access_levels: [expect.objectContaining({ access_level: 40, access_level_description: 'Maintainers' })],
    })
    expect((await api.ProjectProtectedEnvironments.show(projectId, 'gb-production')).name).toBe('gb-production')
    expect((await api.ProjectProtectedEnvironments.all(projectId)).map((p) => p.name)).toContain('gb-production')
    await api.ProjectProtectedEnvironments.remove(projectId, 'gb-production')
    expect((await api.ProjectProtectedEnvironments.all(projectId)).map((p) => p.name)).not.toContain('gb-production')
  })

  it('@gitbeaker/rest manages Pages domains, the instance list included', async () => {
    const api = new Gitlab({ host: s.url, token: maintainer.token })
    const gb = selfSignedCertificate('gb.wire.example')
    const created = await api.PagesDomains.create(projectId, 'gb.wire.example', {
      certificate: gb.certificate,
      key: gb.key,
    })
    expect(created).toMatchObject({
      domain: 'gb.wire.example',
      url: 'https://gb.wire.example',
      certificate: { subject: '/O=Burrow Test/CN=gb.wire.example', expired: false },
    })
    const removed = await api.PagesDomains.edit(projectId, 'gb.wire.example', { certificate: '', key: '' })
    expect(removed).toEqual({ domain: 'gb.wire.example', url: 'http://gb.wire.example' })
    expect((await api.PagesDomains.all({ projectId })).map((d) => d.domain)).toContain('gb.wire.example')
    const admin = new Gitlab({ host: s.url, token: ROOT_TOKEN })
    expect((await admin.PagesDomains.all()).map((d) => d.domain)).toContain('gb.wire.example')
    await api.PagesDomains.remove(projectId, 'gb.wire.example')
    expect((await api.PagesDomains.all({ projectId })).map((d) => d.domain)).not.toContain('gb.wire.example')
  })

  it('@gitbeaker/rest sets error tracking and creates client keys', async () => {
    const api = new Gitlab({ host: s.url, token: maintainer.token })
    const created = await api.ErrorTrackingSettings.create(projectId, true, true)
    expect(created).toMatchObject({ active: true, integrated: true })
    const edited = await api.ErrorTrackingSettings.edit(projectId, false)
    expect(edited).toMatchObject({ active: false, integrated: true })
    expect(await api.ErrorTrackingSettings.show(projectId)).toMatchObject({ active: false })
    const key = await api.ErrorTrackingClientKeys.create(projectId)
    expect(key.public_key).toMatch(/^glet_/)
    expect((await api.ErrorTrackingClientKeys.all(projectId)).map((k) => k.id)).toContain(key.id)
    // ErrorTrackingClientKeys.remove in this gitbeaker version omits the key id from its path.
  })
})
