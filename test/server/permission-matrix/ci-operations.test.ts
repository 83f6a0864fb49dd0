import { afterAll, beforeAll } from 'vitest'
import type { Visibility } from '../../../src/server/platform/db/rows'
import { seedSecurityFindings } from '../../../src/server/modules/vulnerabilities/service'
import { seedMember } from '../../helpers/fixtures'
import { authenticatedRows, permissionMatrix, type MatrixRow, type Role, type Vars } from './matrix'
import { buildWorld, freshProject, freshUser, VISIBILITIES, type Container, type Json, type World } from './world'

let world: World
/** Per container: a pipeline with its job, an environment with a deployment, and the records operations read. */
const standing = {} as Record<Visibility, Vars>
let seq = 0

/** A token expiry GitLab accepts (within 400 days). */
const EXPIRES_AT = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)
const CI_CONFIG = 'test:\n  script: echo test\n'

async function pipelineFixture(w: World, c: Container): Promise<Vars> {
  const pipeline = await w.admin<Json>('POST', `/projects/${c.project.id}/pipeline`, { ref: 'main' })
  const jobs = await w.admin<Json[]>('GET', `/projects/${c.project.id}/pipelines/${pipeline.id}/jobs`)
  return { pipeline: Number(pipeline.id), job: Number(jobs[0].id) }
}

async function environmentFixture(w: World, c: Container): Promise<Vars> {
  seq += 1
  const env = await w.admin<Json>('POST', `/projects/${c.project.id}/environments`, { name: `env-${seq}` })
  return { environment: Number(env.id), environmentName: String(env.name) }
}

async function stoppedEnvironmentFixture(w: World, c: Container): Promise<Vars> {
  const vars = await environmentFixture(w, c)
  await w.admin('POST', `/projects/${c.project.id}/environments/${vars.environment}/stop`)
  return vars
}

async function deploymentFixture(w: World, c: Container): Promise<Vars> {
  const { environmentName } = await environmentFixture(w, c)
  const deployment = await w.admin<Json>('POST', `/projects/${c.project.id}/deployments`, {
    environment: environmentName,
    sha: standing[c.visibility].sha,
    ref: 'main',
    tag: false,
    status: 'running',
  })
  return { deployment: Number(deployment.id), environmentName }
}

async function variableFixture(w: World, c: Container): Promise<Vars> {
  seq += 1
  await w.admin('POST', `/projects/${c.project.id}/variables`, { key: `VAR_${seq}`, value: 'secret' })
  return { variable: `VAR_${seq}` }
}

async function protectedEnvironmentFixture(w: World, c: Container): Promise<Vars> {
  const { environmentName } = await environmentFixture(w, c)
  await w.admin('POST', `/projects/${c.project.id}/protected_environments`, {
    name: environmentName,
    deploy_access_levels: [{ access_level: 40 }],
  })
  return { environmentName }
}

async function clusterFixture(w: World, c: Container): Promise<Vars> {
  seq += 1
  const cluster = await w.admin<Json>('POST', `/projects/${c.project.id}/clusters/user`, {
    name: `cluster-${seq}`,
    environment_scope: `scope-${seq}`,
    platform_cluster_attributes: { api_url: 'https://k8s.example.com:6443', token: 'kube-token' },
  })
  return { cluster: Number(cluster.id) }
}

async function pagesDomainFixture(w: World, c: Container): Promise<Vars> {
  seq += 1
  await w.admin('POST', `/projects/${c.project.id}/pages/domains`, { domain: `d${seq}.${c.visibility}.example` })
  return { domain: `d${seq}.${c.visibility}.example` }
}

async function clientKeyFixture(w: World, c: Container): Promise<Vars> {
  const key = await w.admin<Json>('POST', `/projects/${c.project.id}/error_tracking/client_keys`)
  return { clientKey: Number(key.id) }
}

async function accessTokenFixture(w: World, c: Container): Promise<Vars> {
  const token = await w.admin<Json>('POST', `/projects/${c.project.id}/access_tokens`, {
    name: 'matrix',
    scopes: ['api'],
    access_level: 30,
    expires_at: EXPIRES_AT,
  })
  return { accessToken: Number(token.id) }
}

/** Two finished deployments to one environment: the older one is deletable (not running, not the latest). */
async function oldDeploymentFixture(w: World, c: Container): Promise<Vars> {
  const { environmentName } = await environmentFixture(w, c)
  const deploy = (): Promise<Json> =>
    w.admin<Json>('POST', `/projects/${c.project.id}/deployments`, {
      environment: environmentName,
      sha: standing[c.visibility].sha,
      ref: 'main',
      tag: false,
      status: 'success',
    })
  const older = await deploy()
  await deploy()
  return { deployment: Number(older.id) }
}

/** A vulnerability of a new project of the container (its findings ingested from the sample reports). */
async function vulnerabilityFixture(w: World, c: Container): Promise<Vars> {
  const project = freshProject(w, c).id
  seedSecurityFindings(w.server.app.burrow.db, project)
  const findings = await w.admin<Json[]>('GET', `/projects/${project}/vulnerability_findings`)
  const vulnerability = await w.admin<Json>('POST', `/projects/${project}/vulnerabilities?finding_id=${findings[0].id}`)
  return { project, vulnerability: Number(vulnerability.id) }
}

/** A project runner of the container's project, registered with the project's registration token. */
async function runnerFixture(w: World, c: Container): Promise<Vars> {
  const { token } = await w.admin<Json>('POST', `/projects/${c.project.id}/runners/reset_registration_token`)
  const res = await w.server.request(null, {
    method: 'POST',
    url: '/api/v4/runners',
    payload: { token, description: 'matrix runner' },
  })
  if (res.statusCode !== 201) throw new Error(`runner registration answered ${res.statusCode}: ${res.body}`)
  return { runner: Number(res.json().id) }
}

beforeAll(async () => {
  world = await buildWorld()
  for (const visibility of VISIBILITIES) {
    const c = world.containers[visibility]
    const commit = await world.admin<Json>('POST', `/projects/${c.project.id}/repository/commits`, {
      branch: 'main',
      commit_message: 'CI',
      actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: CI_CONFIG }],
    })
    standing[visibility] = { sha: String(commit.id) }
    const variable = await variableFixture(world, c)
    await world.admin('POST', `/groups/${c.group.id}/members`, { user_id: freshUser(world), access_level: 10 })
    const auditEvents = await world.admin<Json[]>('GET', `/projects/${c.project.id}/audit_events`)
    await world.admin('PATCH', `/projects/${c.project.id}/error_tracking/settings`, { active: true, integrated: true })
    standing[visibility] = {
      ...standing[visibility],
      ...(await pipelineFixture(world, c)),
      ...(await deploymentFixture(world, c)),
      ...(await environmentFixture(world, c)),
      ...variable,
      ...(await clusterFixture(world, c)),
      ...(await pagesDomainFixture(world, c)),
      ...(await accessTokenFixture(world, c)),
      ...(await runnerFixture(world, c)),
      auditEvent: Number(auditEvents[0]?.id ?? 0),
      groupAuditEvent: Number((await world.admin<Json[]>('GET', `/groups/${c.group.id}/audit_events`))[0]?.id ?? 0),
    }
  }
})
afterAll(async () => world.close())

/** A schedule on main owned by the administrator, with one variable. */
async function scheduleFixture(w: World, c: Container): Promise<Vars> {
  const schedules = `/projects/${c.project.id}/pipeline_schedules`
  const schedule = await w.admin<Json>('POST', schedules, { description: 'Nightly', ref: 'main', cron: '0 2 * * *' })
  await w.admin('POST', `${schedules}/${schedule.id}/variables`, { key: 'NIGHTLY', value: '1' })
  return { schedule: Number(schedule.id) }
}

const standingFixture = async (_w: World, c: Container): Promise<Vars> => standing[c.visibility]

/** Pipelines and jobs are read like code: by all who see a public or internal project (public jobs), Reporters on a private one. */
const READ_BUILDS: Readonly<Record<Visibility, Role>> = { private: 'reporter', internal: 'signedIn', public: 'anyone' }
const P = '/projects/{project}'

const PIPELINES: readonly MatrixRow[] = [
  { method: 'GET', path: `${P}/pipelines`, min: READ_BUILDS },
  { method: 'GET', path: `${P}/pipelines/{pipeline}`, min: READ_BUILDS, fixture: standingFixture },
  { method: 'GET', path: `${P}/pipelines/{pipeline}/jobs`, min: READ_BUILDS, fixture: standingFixture },
  { method: 'GET', path: `${P}/pipelines/{pipeline}/test_report`, min: READ_BUILDS, fixture: standingFixture },
  {
    method: 'GET',
    path: `${P}/pipelines/{pipeline}/test_report_summary`,
    min: READ_BUILDS,
    fixture: standingFixture,
  },
  { method: 'GET', path: `${P}/pipelines/latest`, min: READ_BUILDS },
  // Linting the project's own configuration shows its .gitlab-ci.yml: whoever reads the code.
  { method: 'GET', path: `${P}/ci/lint`, min: READ_BUILDS },
  // GitLab's jobs API authenticates every call, on public projects too.
  { method: 'GET', path: `${P}/jobs`, min: READ_BUILDS, authenticated: true },
  { method: 'GET', path: `${P}/jobs/{job}`, min: READ_BUILDS, fixture: standingFixture, authenticated: true },
  { method: 'GET', path: `${P}/jobs/{job}/trace`, min: READ_BUILDS, fixture: standingFixture, authenticated: true },
  { method: 'POST', path: `${P}/pipeline`, min: 'developer', body: { ref: 'main' }, readBack: `${P}/pipelines` },
  {
    method: 'POST',
    path: `${P}/pipelines/{pipeline}/cancel`,
    min: 'developer',
    ok: 200,
    fixture: pipelineFixture,
    readBack: `${P}/pipelines/{pipeline}`,
  },
  {
    method: 'DELETE',
    path: `${P}/pipelines/{pipeline}`,
    min: 'owner',
    fixture: pipelineFixture,
    why: 'GitLab: deleting a pipeline is for Owners',
  },
  {
    method: 'POST',
    path: `${P}/jobs/{job}/cancel`,
    min: 'developer',
    fixture: pipelineFixture,
    readBack: `${P}/jobs/{job}`,
  },
  {
    method: 'POST',
    path: `${P}/jobs/{job}/retry`,
    min: 'developer',
    readBack: `${P}/jobs`,
    authenticated: true,
    fixture: async (w, c) => {
      const vars = await pipelineFixture(w, c)
      await w.admin('POST', `/projects/${c.project.id}/jobs/${vars.job}/cancel`)
      return vars
    },
  },
  {
    method: 'POST',
    path: `${P}/pipelines/{pipeline}/retry`,
    min: 'developer',
    readBack: `${P}/pipelines/{pipeline}/jobs`,
    fixture: async (w, c) => {
      const vars = await pipelineFixture(w, c)
      await w.admin('POST', `${P.replace('{project}', String(c.project.id))}/pipelines/${vars.pipeline}/cancel`)
      return vars
    },
  },
  {
    method: 'GET',
    path: `${P}/pipelines/{pipeline}/variables`,
    min: 'developer',
    fixture: standingFixture,
    authenticated: true,
  },
  {
    method: 'DELETE',
    path: `${P}/jobs/{job}/artifacts`,
    min: 'maintainer',
    fixture: pipelineFixture,
    readBack: `${P}/jobs/{job}`,
    authenticated: true,
  },
]

/**
 * Runners of a project: Maintainers read and manage them (the spec). `/runners/:id` names the runner,
 * not the project, and GitLab answers 403 "No access granted" to anyone who may not, seen or not.
 */
const RUNNERS: readonly MatrixRow[] = authenticatedRows([
  { method: 'GET', path: '/runners/{runner}', min: 'maintainer', hidden: 403, fixture: standingFixture },
  { method: 'GET', path: '/runners/{runner}/jobs', min: 'maintainer', hidden: 403, fixture: standingFixture },
  {
    method: 'PUT',
    path: '/runners/{runner}',
    min: 'maintainer',
    hidden: 403,
    fixture: runnerFixture,
    body: { description: 'changed' },
  },
  {
    method: 'POST',
    path: '/runners/{runner}/reset_authentication_token',
    min: 'maintainer',
    hidden: 403,
    fixture: runnerFixture,
    readBack: '/runners/{runner}',
  },
  { method: 'DELETE', path: '/runners/{runner}', min: 'maintainer', hidden: 403, fixture: runnerFixture },
  { method: 'POST', path: `${P}/runners/reset_registration_token`, min: 'maintainer', readBack: P },
  { method: 'GET', path: '/groups/{group}/runners', min: 'maintainer' },
  {
    method: 'POST',
    path: '/groups/{group}/runners/reset_registration_token',
    min: 'owner',
    readBack: '/groups/{group}',
  },
])

/** CI/CD settings are Maintainer business (GitLab's admin_build / admin_project); every call is authenticated. */
const CI_SETTINGS: readonly MatrixRow[] = authenticatedRows([
  { method: 'GET', path: `${P}/variables`, min: 'maintainer' },
  { method: 'GET', path: `${P}/variables/{variable}`, min: 'maintainer', fixture: standingFixture },
  { method: 'POST', path: `${P}/variables`, min: 'maintainer', body: (_v, u) => ({ key: `NEW_${u}`, value: 'v' }) },
  {
    method: 'PUT',
    path: `${P}/variables/{variable}`,
    min: 'maintainer',
    fixture: variableFixture,
    body: { value: 'changed' },
  },
  { method: 'DELETE', path: `${P}/variables/{variable}`, min: 'maintainer', fixture: variableFixture },
  { method: 'GET', path: `${P}/runners`, min: 'maintainer' },
])

/** Environments and deployments: Reporters read, Developers change; every call is authenticated. */
const ENVIRONMENTS: readonly MatrixRow[] = authenticatedRows([
  { method: 'GET', path: `${P}/environments`, min: 'reporter' },
  { method: 'GET', path: `${P}/environments/{environment}`, min: 'reporter', fixture: standingFixture },
  { method: 'POST', path: `${P}/environments`, min: 'developer', body: (_v, u) => ({ name: `new-${u}` }) },
  {
    method: 'PUT',
    path: `${P}/environments/{environment}`,
    min: 'developer',
    fixture: environmentFixture,
    body: { external_url: 'https://example.com' },
  },
  {
    method: 'POST',
    path: `${P}/environments/{environment}/stop`,
    min: 'developer',
    ok: 200,
    fixture: environmentFixture,
    readBack: `${P}/environments/{environment}`,
  },
  { method: 'DELETE', path: `${P}/environments/{environment}`, min: 'developer', fixture: stoppedEnvironmentFixture },
  { method: 'GET', path: `${P}/deployments`, min: 'reporter' },
  { method: 'GET', path: `${P}/deployments/{deployment}`, min: 'reporter', fixture: standingFixture },
  { method: 'GET', path: `${P}/deployments/{deployment}/merge_requests`, min: 'reporter', fixture: standingFixture },
  {
    method: 'POST',
    path: `${P}/deployments`,
    min: 'developer',
    fixture: async (w, c) => ({ ...(await environmentFixture(w, c)), sha: standing[c.visibility].sha }),
    body: (v) => ({ environment: v.environmentName, sha: v.sha, ref: 'main', tag: false, status: 'running' }),
  },
  {
    method: 'PUT',
    path: `${P}/deployments/{deployment}`,
    min: 'developer',
    fixture: deploymentFixture,
    body: { status: 'success' },
  },
  {
    method: 'DELETE',
    path: `${P}/environments/review_apps`,
    min: 'developer',
    readable: 'reporter',
    refusal: 401,
    ok: 200,
    readBack: `${P}/environments`,
    why: 'GitLab reads environments for Reporters, then its review app service answers 401 to callers who may not destroy them',
  },
  { method: 'DELETE', path: `${P}/deployments/{deployment}`, min: 'maintainer', fixture: oldDeploymentFixture },
  { method: 'GET', path: `${P}/protected_environments`, min: 'maintainer' },
  {
    method: 'GET',
    path: `${P}/protected_environments/{environmentName}`,
    min: 'maintainer',
    fixture: protectedEnvironmentFixture,
  },
  {
    method: 'POST',
    path: `${P}/protected_environments`,
    min: 'maintainer',
    fixture: environmentFixture,
    body: (v) => ({ name: v.environmentName, deploy_access_levels: [{ access_level: 40 }] }),
  },
  {
    method: 'DELETE',
    path: `${P}/protected_environments/{environmentName}`,
    min: 'maintainer',
    fixture: protectedEnvironmentFixture,
  },
])

/** Clusters, Pages domains, error tracking and access tokens: Maintainers (the spec); every call is authenticated. */
const OPERATIONS: readonly MatrixRow[] = authenticatedRows([
  { method: 'GET', path: `${P}/clusters`, min: 'maintainer' },
  { method: 'GET', path: `${P}/clusters/{cluster}`, min: 'maintainer', fixture: standingFixture },
  {
    method: 'POST',
    path: `${P}/clusters/user`,
    min: 'maintainer',
    readBack: `${P}/clusters`,
    body: (_v, u) => ({
      name: `c-${u}`,
      environment_scope: `scope-${u}`,
      platform_cluster_attributes: { api_url: 'https://k8s.example.com:6443', token: 't' },
    }),
  },
  {
    method: 'PUT',
    path: `${P}/clusters/{cluster}`,
    min: 'maintainer',
    fixture: clusterFixture,
    body: { domain: 'changed.example' },
  },
  { method: 'DELETE', path: `${P}/clusters/{cluster}`, min: 'maintainer', fixture: clusterFixture },
  { method: 'GET', path: `${P}/pages/domains`, min: 'maintainer' },
  { method: 'GET', path: `${P}/pages/domains/{domain}`, min: 'maintainer', fixture: standingFixture },
  { method: 'POST', path: `${P}/pages/domains`, min: 'maintainer', body: (_v, u) => ({ domain: `${u}.new.example` }) },
  {
    method: 'PUT',
    path: `${P}/pages/domains/{domain}`,
    min: 'maintainer',
    fixture: pagesDomainFixture,
    body: { auto_ssl_enabled: false },
  },
  { method: 'DELETE', path: `${P}/pages/domains/{domain}`, min: 'maintainer', fixture: pagesDomainFixture },
  { method: 'GET', path: `${P}/error_tracking/settings`, min: 'maintainer' },
  {
    method: 'PATCH',
    path: `${P}/error_tracking/settings`,
    min: 'maintainer',
    body: { active: true, integrated: true },
  },
  { method: 'PUT', path: `${P}/error_tracking/settings`, min: 'maintainer', body: { active: true, integrated: true } },
  { method: 'GET', path: `${P}/error_tracking/client_keys`, min: 'maintainer' },
  {
    method: 'POST',
    path: `${P}/error_tracking/client_keys`,
    min: 'maintainer',
    readBack: `${P}/error_tracking/client_keys`,
  },
  {
    method: 'DELETE',
    path: `${P}/error_tracking/client_keys/{clientKey}`,
    min: 'maintainer',
    ok: 200,
    fixture: clientKeyFixture,
    readBack: `${P}/error_tracking/client_keys`,
    why: 'GitLab answers the deleted key (200), not 204',
  },
  { method: 'GET', path: `${P}/access_tokens`, min: 'maintainer' },
  { method: 'GET', path: `${P}/access_tokens/{accessToken}`, min: 'maintainer', fixture: standingFixture },
  {
    method: 'POST',
    path: `${P}/access_tokens`,
    min: 'maintainer',
    readBack: `${P}/access_tokens`,
    body: { name: 'new', scopes: ['api'], access_level: 30, expires_at: EXPIRES_AT },
  },
  {
    method: 'POST',
    path: `${P}/access_tokens/{accessToken}/rotate`,
    min: 'maintainer',
    ok: 200,
    fixture: accessTokenFixture,
    readBack: `${P}/access_tokens/{accessToken}`,
  },
  {
    method: 'DELETE',
    path: `${P}/access_tokens/{accessToken}`,
    min: 'maintainer',
    fixture: accessTokenFixture,
    readBack: `${P}/access_tokens/{accessToken}`,
  },
])

/**
 * Security: the vulnerability list and findings need the Security Dashboard (Developer, the spec's
 * 403 without it); dependencies need read access to the code. Audit events: Developers see their
 * own, single events need Maintainer (project) or Owner (group). Every call is authenticated.
 */
const SECURITY_AND_AUDIT: readonly MatrixRow[] = authenticatedRows([
  { method: 'GET', path: `${P}/vulnerabilities`, min: 'developer' },
  { method: 'GET', path: `${P}/vulnerability_findings`, min: 'developer' },
  { method: 'GET', path: '/vulnerabilities/{vulnerability}', min: 'developer', fixture: vulnerabilityFixture },
  {
    method: 'POST',
    path: '/vulnerabilities/{vulnerability}/confirm',
    min: 'maintainer',
    fixture: vulnerabilityFixture,
    readBack: '/vulnerabilities/{vulnerability}',
    why: "changing a vulnerability's state is for Maintainers (GitLab 17: admin_vulnerability)",
  },
  {
    method: 'POST',
    path: `${P}/vulnerabilities?finding_id={finding}`,
    min: 'developer',
    readBack: `${P}/vulnerabilities`,
    fixture: async (w, c) => {
      const project = freshProject(w, c).id
      seedSecurityFindings(w.server.app.burrow.db, project)
      const findings = await w.admin<Json[]>('GET', `/projects/${project}/vulnerability_findings`)
      return { project, finding: Number(findings[0].id) }
    },
  },
  {
    method: 'POST',
    path: `${P}/ci/lint`,
    min: 'developer',
    ok: 200,
    body: { content: 'test:\n  script: echo\n' },
    readBack: P,
  },
  { method: 'GET', path: `${P}/dependencies`, min: READ_BUILDS },
  { method: 'GET', path: `${P}/audit_events`, min: 'developer' },
  { method: 'GET', path: `${P}/audit_events/{auditEvent}`, min: 'maintainer', fixture: standingFixture },
  { method: 'GET', path: '/groups/{group}/audit_events', min: 'developer' },
  { method: 'GET', path: '/groups/{group}/audit_events/{groupAuditEvent}', min: 'owner', fixture: standingFixture },
  {
    method: 'DELETE',
    path: '/groups/{group}/billable_members/{user}',
    min: 'owner',
    refusal: 400,
    readBack: '/groups/{group}/members/{user}',
    fixture: async (w, c) => {
      const user = freshUser(w)
      seedMember(w.server, 'Namespace', c.group.id, user, 30)
      return { user }
    },
    why: 'GitLab answers 400 "User unauthorized to remove member" to non-owners',
  },
  {
    method: 'GET',
    path: '/groups/{group}/billable_members',
    min: 'owner',
    refusal: 400,
    why: 'GitLab answers 400 "Bad request" to callers who may not manage the group\'s members (admin_group_member)',
  },
])

const S = `${P}/pipeline_schedules`
/** Every call authenticates; schedules are read by Reporters, made by Developers, edited by their owner only. */
const PIPELINE_SCHEDULES: readonly MatrixRow[] = [
  { method: 'GET', path: S, min: 'reporter', authenticated: true },
  { method: 'GET', path: `${S}/{schedule}`, min: 'reporter', authenticated: true, fixture: scheduleFixture },
  { method: 'GET', path: `${S}/{schedule}/pipelines`, min: 'reporter', authenticated: true, fixture: scheduleFixture },
  {
    method: 'POST',
    path: S,
    min: 'developer',
    authenticated: true,
    body: { description: 'Nightly', ref: 'main', cron: '0 2 * * *' },
  },
  {
    method: 'PUT',
    path: `${S}/{schedule}`,
    min: 'admin',
    authenticated: true,
    body: { description: 'Weekly' },
    fixture: scheduleFixture,
    why: "only a schedule's owner edits it (here the administrator who made it)",
  },
  {
    method: 'POST',
    path: `${S}/{schedule}/take_ownership`,
    min: 'maintainer',
    authenticated: true,
    fixture: scheduleFixture,
    readBack: `${S}/{schedule}`,
  },
  {
    method: 'POST',
    path: `${S}/{schedule}/play`,
    min: 'developer',
    authenticated: true,
    fixture: scheduleFixture,
    readBack: `${S}/{schedule}/pipelines`,
    why: 'whoever may run pipelines on its ref (main is not protected here) plays a schedule',
  },
  {
    method: 'DELETE',
    path: `${S}/{schedule}`,
    min: 'maintainer',
    authenticated: true,
    fixture: scheduleFixture,
    why: 'its owner or a Maintainer deletes a schedule',
  },
  {
    method: 'POST',
    path: `${S}/{schedule}/variables`,
    min: 'admin',
    authenticated: true,
    body: { key: 'EXTRA', value: 'x' },
    fixture: scheduleFixture,
    readBack: `${S}/{schedule}`,
    why: "only a schedule's owner changes its variables",
  },
  {
    method: 'PUT',
    path: `${S}/{schedule}/variables/NIGHTLY`,
    min: 'admin',
    authenticated: true,
    body: { value: '2' },
    fixture: scheduleFixture,
    readBack: `${S}/{schedule}`,
  },
  {
    method: 'DELETE',
    path: `${S}/{schedule}/variables/NIGHTLY`,
    min: 'admin',
    ok: 202,
    authenticated: true,
    fixture: scheduleFixture,
    readBack: `${S}/{schedule}`,
  },
]

permissionMatrix('pipelines and jobs', () => world, PIPELINES)
permissionMatrix('pipeline schedules', () => world, PIPELINE_SCHEDULES)
permissionMatrix('CI settings', () => world, CI_SETTINGS)
permissionMatrix('runners', () => world, RUNNERS)
permissionMatrix('environments and deployments', () => world, ENVIRONMENTS)
permissionMatrix('clusters, Pages domains, error tracking, access tokens', () => world, OPERATIONS)
permissionMatrix('security and audit events', () => world, SECURITY_AND_AUDIT)
