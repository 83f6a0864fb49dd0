import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Visibility } from '../../../src/server/platform/db/rows'
import { authenticatedRows, permissionMatrix, type MatrixRow, type Role, type Vars } from './matrix'
import { buildWorld, freshProject, VISIBILITIES, type Container, type Json, type World } from './world'

let world: World

/** The project features a project can limit to its members (`private`) or turn off (`disabled`). */
const FEATURES = ['issues', 'merge_requests', 'repository', 'builds', 'snippets'] as const
type Feature = (typeof FEATURES)[number]
type Level = 'private' | 'disabled'

/** Per container, feature and level: a project of the container's visibility with that one feature limited, and its content. */
const limited = {} as Record<Visibility, Record<`${Feature}:${Level}`, Vars>>

/** A project with a commit, an issue, a merge request, a pipeline and a snippet, then one feature limited. */
async function limitedProject(w: World, c: Container, feature: Feature, level: Level): Promise<Vars> {
  const row = freshProject(w, c)
  const project = row.id
  const p = `/projects/${project}`
  await w.admin('POST', `${p}/repository/commits`, {
    branch: 'main',
    commit_message: 'init',
    actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: 'test:\n  script: echo\n' }],
  })
  await w.admin('POST', `${p}/repository/commits`, {
    branch: 'topic',
    start_branch: 'main',
    commit_message: 'topic',
    actions: [{ action: 'create', file_path: 'topic.txt', content: 't' }],
  })
  const issue = await w.admin<Json>('POST', `${p}/issues`, { title: 'Limited issue' })
  const mr = await w.admin<Json>('POST', `${p}/merge_requests`, {
    source_branch: 'topic',
    target_branch: 'main',
    title: 'Limited MR',
  })
  const pipeline = await w.admin<Json>('POST', `${p}/pipeline`, { ref: 'main' })
  const snippet = await w.admin<Json>('POST', `${p}/snippets`, {
    title: 'S',
    file_name: 's.txt',
    content: 's',
    visibility: c.visibility,
  })
  // As GitLab's settings page does, limiting the repository limits what shows it (merge requests, CI/CD).
  const alongside = feature === 'repository' ? { merge_requests_access_level: level, builds_access_level: level } : {}
  await w.admin('PUT', p, { [`${feature}_access_level`]: level, ...alongside })
  return {
    project,
    ns: c.group.full_path,
    repo: row.path,
    issue: Number(issue.iid),
    mr: Number(mr.iid),
    pipeline: Number(pipeline.id),
    snippet: Number(snippet.id),
  }
}

beforeAll(async () => {
  world = await buildWorld()
  for (const visibility of VISIBILITIES) {
    limited[visibility] = {} as (typeof limited)[Visibility]
    for (const feature of FEATURES) {
      for (const level of ['private', 'disabled'] as const) {
        limited[visibility][`${feature}:${level}`] = await limitedProject(
          world,
          world.containers[visibility],
          feature,
          level,
        )
      }
    }
  }
})
afterAll(async () => world.close())

const onLimited =
  (feature: Feature, level: Level) =>
  async (_w: World, c: Container): Promise<Vars> =>
    limited[c.visibility][`${feature}:${level}`]

/**
 * Rows for one feature: a feature limited to members is read by the role that reads it in a
 * private project; a disabled feature is read by nobody, administrators included (GitLab's
 * feature_available? is false for everyone).
 */
function featureRows(feature: Feature, paths: readonly string[], memberRole: Role, refusal: 403 | 404): MatrixRow[] {
  return paths.flatMap((path) => [
    {
      method: 'GET' as const,
      path,
      label: `${feature} private`,
      min: memberRole,
      refusal,
      anonymous: refusal,
      fixture: onLimited(feature, 'private'),
    },
    {
      method: 'GET' as const,
      path,
      label: `${feature} disabled`,
      min: 'nobody' as const,
      refusal,
      anonymous: refusal,
      fixture: onLimited(feature, 'disabled'),
    },
  ])
}

const P = '/projects/{project}'
const CLONE = '/{ns}/{repo}.git/info/refs?service=git-upload-pack'
const PUSH = '/{ns}/{repo}.git/info/refs?service=git-receive-pack'
const ROWS: readonly MatrixRow[] = [
  ...featureRows('issues', [`${P}/issues/{issue}`, `${P}/issues`], 'guest', 403),
  // Merge request calls are authenticated (the spec): anonymous callers get 401 first.
  ...authenticatedRows(
    featureRows('merge_requests', [`${P}/merge_requests/{mr}`, `${P}/merge_requests`], 'reporter', 403),
  ),
  ...featureRows(
    'repository',
    [`${P}/repository/tree`, `${P}/repository/files/.gitlab-ci.yml?ref=main`, `${P}/repository/commits`],
    'reporter',
    403,
  ),
  // Over git: whoever may not fetch gets git's credentials challenge (401) when anonymous, 403 otherwise.
  ...featureRows('repository', [CLONE], 'reporter', 403).map((row) => ({
    ...row,
    transport: 'git' as const,
    anonymous: 401 as const,
    anonymousHidden: 401 as const,
  })),
  ...featureRows('repository', [PUSH], 'developer', 403).map((row) => ({
    ...row,
    transport: 'git' as const,
    authenticated: true,
  })),
  ...featureRows('builds', [`${P}/pipelines/{pipeline}`, `${P}/pipelines`], 'reporter', 403),
  ...featureRows('snippets', [`${P}/snippets/{snippet}`, `${P}/snippets`], 'guest', 404),
]

/** Git over smart HTTP on the containers' own projects: fetch like the code API, push for Developers. */
const containerRepo = async (_w: World, c: Container): Promise<Vars> => ({
  ns: c.group.full_path,
  repo: c.project.path,
})
const GIT: readonly MatrixRow[] = [
  {
    method: 'GET',
    path: CLONE,
    transport: 'git',
    min: { private: 'reporter', internal: 'signedIn', public: 'anyone' },
    fixture: containerRepo,
    anonymousHidden: 401,
    why: 'git asks an anonymous caller for credentials (401) where it may not fetch',
  },
  { method: 'GET', path: PUSH, transport: 'git', min: 'developer', fixture: containerRepo, authenticated: true },
]

permissionMatrix('project features limited to members or disabled', () => world, ROWS)

describe('repository_children_level', () => {
  it('refuses (400, nothing stored) merge requests or CI/CD more open than the repository, on update and on creation', async () => {
    const project = world.containers.public.project.id
    const before = await world.admin<Json>('GET', `/projects/${project}`)
    const update = await world.call('admin', 'PUT', `/projects/${project}`, {
      repository_access_level: 'private',
      description: 'not stored',
    })
    expect(update.statusCode).toBe(400)
    expect(update.json()).toEqual({
      message: {
        merge_requests_access_level: ['cannot have higher visibility level than repository access level'],
        builds_access_level: ['cannot have higher visibility level than repository access level'],
      },
    })
    expect(await world.admin<Json>('GET', `/projects/${project}`)).toEqual(before)
    const create = await world.call('admin', 'POST', '/projects', {
      name: 'children',
      repository_access_level: 'disabled',
      builds_access_level: 'disabled',
    })
    expect(create.statusCode).toBe(400)
    expect(create.json()).toEqual({
      message: { merge_requests_access_level: ['cannot have higher visibility level than repository access level'] },
    })
    const lowered = await world.call('admin', 'PUT', `/projects/${project}`, {
      repository_access_level: 'private',
      merge_requests_access_level: 'private',
      builds_access_level: 'disabled',
    })
    expect(lowered.statusCode).toBe(200)
    await world.admin('PUT', `/projects/${project}`, {
      repository_access_level: 'enabled',
      merge_requests_access_level: 'enabled',
      builds_access_level: 'enabled',
    })
  })
})
permissionMatrix('git over smart HTTP', () => world, GIT)
