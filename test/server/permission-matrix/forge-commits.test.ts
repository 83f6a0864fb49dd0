import { afterAll, beforeAll } from 'vitest'
import type { Visibility } from '../../../src/server/platform/db/rows'
import { authenticatedRows, permissionMatrix, type MatrixRow, type Role, type Vars } from './matrix'
import { buildWorld, VISIBILITIES, type Container, type Json, type World } from './world'

// Issue 11's commit families for external CI and review tooling: commit statuses, blame, cherry-pick and revert.

let world: World
let seq = 0
/** Per container: the head commit of main, which the rows post statuses to and read them from. */
const head = {} as Record<Visibility, Vars>

beforeAll(async () => {
  world = await buildWorld()
  for (const visibility of VISIBILITIES) {
    const c = world.containers[visibility]
    const commit = await world.admin<Json>('POST', `/projects/${c.project.id}/repository/commits`, {
      branch: 'main',
      commit_message: 'Initial commit',
      actions: [{ action: 'create', file_path: 'README.md', content: '# Matrix\n' }],
    })
    head[visibility] = { sha: String(commit.id) }
    await world.admin('POST', `/projects/${c.project.id}/statuses/${String(commit.id)}`, { state: 'success' })
  }
})
afterAll(async () => world.close())

/** GitLab's read_commit_status beside read_code: Reporters of private projects, whoever sees the others. */
const READ_STATUSES: Readonly<Record<Visibility, Role>> = {
  private: 'reporter',
  internal: 'signedIn',
  public: 'anyone',
}
const STATUSES = '/projects/{project}/repository/commits/{sha}/statuses'

/**
 * Commit statuses (GitLab's read_commit_status, create_commit_status): readers of the project's
 * pipelines read a commit's statuses; posting one signs in first and takes a Developer.
 */
const STATUS_ROWS: readonly MatrixRow[] = [
  { method: 'GET', path: STATUSES, min: READ_STATUSES, fixture: async (_w, c) => head[c.visibility] },
  ...authenticatedRows([
    {
      method: 'POST',
      path: '/projects/{project}/statuses/{sha}',
      min: 'developer',
      fixture: async (_w, c) => head[c.visibility],
      body: (_v, u) => ({ state: 'running', name: `ext-${u}` }),
      readBack: `${STATUSES}?all=true`,
    },
  ]),
]

permissionMatrix('commit statuses', () => world, STATUS_ROWS)

/** GitLab's read_code: Reporters of private projects, whoever sees the others. */
const READ_CODE: Readonly<Record<Visibility, Role>> = READ_STATUSES
const COMMITS = '/projects/{project}/repository/commits'

/** A fresh branch from main and a commit on main it lacks: what a cherry-pick brings over. */
async function pickFixture(w: World, c: Container): Promise<Vars> {
  seq += 1
  const branch = `pick-${seq}`
  await w.admin('POST', `/projects/${c.project.id}/repository/branches`, { branch, ref: 'main' })
  const commit = await w.admin<Json>('POST', `/projects/${c.project.id}/repository/commits`, {
    branch: 'main',
    commit_message: `Pick ${seq}`,
    actions: [{ action: 'create', file_path: `pick-${seq}.txt`, content: 'x\n' }],
  })
  return { branch, sha: String(commit.id) }
}

/** A fresh branch with a commit of its own to revert. */
async function revertFixture(w: World, c: Container): Promise<Vars> {
  seq += 1
  const branch = `revert-${seq}`
  await w.admin('POST', `/projects/${c.project.id}/repository/branches`, { branch, ref: 'main' })
  const commit = await w.admin<Json>('POST', `/projects/${c.project.id}/repository/commits`, {
    branch,
    commit_message: `Revert me ${seq}`,
    actions: [{ action: 'create', file_path: `revert-${seq}.txt`, content: 'x\n' }],
  })
  return { branch, sha: String(commit.id) }
}

/**
 * Blame (read_code) and the commit changes (push_code to the branch): blame follows the
 * repository's readers; cherry-pick and revert sign in first and take a Developer.
 */
const CODE_ROWS: readonly MatrixRow[] = [
  { method: 'GET', path: '/projects/{project}/repository/files/README.md/blame?ref=main', min: READ_CODE },
  ...authenticatedRows([
    {
      method: 'POST',
      path: `${COMMITS}/{sha}/cherry_pick`,
      min: 'developer',
      fixture: pickFixture,
      body: (v) => ({ branch: v.branch }),
      readBack: '/projects/{project}/repository/branches/{branch}',
    },
    {
      method: 'POST',
      path: `${COMMITS}/{sha}/revert`,
      min: 'developer',
      fixture: revertFixture,
      body: (v) => ({ branch: v.branch }),
      readBack: '/projects/{project}/repository/branches/{branch}',
    },
  ]),
]

permissionMatrix('blame, cherry-pick and revert', () => world, CODE_ROWS)

/** Commenting on a commit: any signed-in reader of its code (GitLab's create_note on a readable commit). */
const COMMENT_ON_CODE: Readonly<Record<Visibility, Role>> = {
  private: 'reporter',
  internal: 'signedIn',
  public: 'signedIn',
}
const COMMIT = `${COMMITS}/{sha}`

/**
 * Comments and threads on commits: read with the code; written by signed-in readers of the code
 * (the routes sign in first, so anonymous callers get 401 even where they could read).
 */
const COMMIT_NOTE_ROWS: readonly MatrixRow[] = [
  { method: 'GET', path: `${COMMIT}/comments`, min: READ_CODE, fixture: async (_w, c) => head[c.visibility] },
  { method: 'GET', path: `${COMMIT}/discussions`, min: READ_CODE, fixture: async (_w, c) => head[c.visibility] },
  {
    method: 'POST',
    path: `${COMMIT}/comments`,
    min: COMMENT_ON_CODE,
    fixture: async (_w, c) => head[c.visibility],
    body: (_v, u) => ({ note: `Comment ${u}` }),
    readBack: `${COMMIT}/comments?per_page=100`,
  },
  {
    method: 'POST',
    path: `${COMMIT}/discussions`,
    min: COMMENT_ON_CODE,
    fixture: async (_w, c) => head[c.visibility],
    body: (_v, u) => ({ body: `Thread ${u}` }),
    readBack: `${COMMIT}/discussions?per_page=100`,
  },
]

permissionMatrix('comments on commits', () => world, COMMIT_NOTE_ROWS)
