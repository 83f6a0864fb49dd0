import { afterAll, beforeAll } from 'vitest'
import type { Visibility } from '../../../src/server/platform/db/rows'
import { authenticatedRows, permissionMatrix, type MatrixRow, type Role, type Vars } from './matrix'
import { buildWorld, type Container, type Json, type World } from './world'

// Forks: whoever sees a project lists its forks; forking copies the code, so it needs read_code;
// linking and unlinking a fork are for the project's Owners and administrators.

let world: World
let seq = 0

beforeAll(async () => {
  world = await buildWorld()
})
afterAll(async () => world.close())

/** GitLab's read_code: a Guest of a private project is refused. */
const READ_CODE: Readonly<Record<Visibility, Role>> = { private: 'reporter', internal: 'signedIn', public: 'signedIn' }

/** The container's project as no fork, and a fresh public project it may be linked to. */
async function unlinkedWithSource(w: World, c: Container): Promise<Vars> {
  seq += 1
  await w.call('admin', 'DELETE', `/projects/${c.project.id}/fork`)
  const source = await w.admin<Json>('POST', '/projects', { name: `Upstream ${seq}`, visibility: 'public' })
  return { source: Number(source.id) }
}

/** The container's project as a fork of a fresh project. */
async function linkedFork(w: World, c: Container): Promise<Vars> {
  const vars = await unlinkedWithSource(w, c)
  await w.admin('POST', `/projects/${c.project.id}/fork/${vars.source}`)
  return vars
}

const FORK_ROWS: readonly MatrixRow[] = [
  { method: 'GET', path: '/projects/{project}/forks', min: 'anyone' },
  ...authenticatedRows([
    {
      method: 'POST',
      path: '/projects/{project}/fork',
      min: READ_CODE,
      body: (_v, unique) => ({ name: `Fork ${unique}`, path: `fork-${unique}` }),
      readBack: '/projects/{project}/forks',
      why: 'a fork copies the repository: GitLab needs read_code as well as seeing the project',
    },
    {
      method: 'POST',
      path: '/projects/{project}/fork/{source}',
      min: 'owner',
      fixture: unlinkedWithSource,
      readBack: '/projects/{project}',
    },
    {
      method: 'DELETE',
      path: '/projects/{project}/fork',
      min: 'owner',
      fixture: linkedFork,
      readBack: '/projects/{project}',
    },
  ]),
]

permissionMatrix('forks', () => world, FORK_ROWS)
