import { afterAll, beforeAll } from 'vitest'
import type { Visibility } from '../../../src/server/platform/db/rows'
import { permissionMatrix, type MatrixRow, type Role, type Vars } from './matrix'
import { buildWorld, VISIBILITIES, type Container, type Json, type World } from './world'

// Issue 11's new families: releases, boards, wikis, badges, pipeline schedules, group CI variables
// and access tokens, project users and languages.

let world: World
let seq = 0

beforeAll(async () => {
  world = await buildWorld()
  for (const visibility of VISIBILITIES) {
    const c = world.containers[visibility]
    await world.admin('POST', `/projects/${c.project.id}/repository/commits`, {
      branch: 'main',
      commit_message: 'Initial commit',
      actions: [{ action: 'create', file_path: 'README.md', content: '# Matrix\n' }],
    })
    await world.admin('POST', `/projects/${c.project.id}/releases`, {
      tag_name: 'v1.0.0',
      ref: 'main',
      assets: { links: [{ name: 'Binary', url: 'https://example.com/bin' }] },
    })
  }
})
afterAll(async () => world.close())

/** GitLab's read_code: a Guest of a private project is refused. */
const READ_CODE: Readonly<Record<Visibility, Role>> = { private: 'reporter', internal: 'signedIn', public: 'anyone' }
const RELEASES = '/projects/{project}/releases'

/** A new release (and its tag) with one link. */
async function releaseFixture(w: World, c: Container): Promise<Vars> {
  seq += 1
  const tag = `fresh-${seq}`
  const release = await w.admin<Json>('POST', `/projects/${c.project.id}/releases`, {
    tag_name: tag,
    ref: 'main',
    assets: { links: [{ name: 'Asset', url: `https://example.com/${tag}` }] },
  })
  const links = release.assets as { links: Json[] }
  return { tag, link: Number(links.links[0].id) }
}

const firstLink = async (w: World, c: Container): Promise<Vars> => {
  const links = await w.admin<Json[]>('GET', `/projects/${c.project.id}/releases/v1.0.0/assets/links`)
  return { link: Number(links[0].id) }
}

/**
 * Releases (GitLab's read_release, create_release, update_release, destroy_release): whoever sees
 * the project reads them, the single release needs the code; Developers write, Maintainers delete.
 */
const RELEASE_ROWS: readonly MatrixRow[] = [
  { method: 'GET', path: RELEASES, min: 'anyone' },
  { method: 'GET', path: `${RELEASES}/v1.0.0`, min: READ_CODE },
  { method: 'GET', path: `${RELEASES}/v1.0.0/assets/links`, min: 'anyone' },
  { method: 'GET', path: `${RELEASES}/v1.0.0/assets/links/{link}`, min: 'anyone', fixture: firstLink },
  {
    method: 'POST',
    path: RELEASES,
    min: 'developer',
    body: (_v, u) => ({ tag_name: `release-${u}`, ref: 'main', description: 'Notes' }),
  },
  {
    method: 'PUT',
    path: `${RELEASES}/{tag}`,
    min: 'developer',
    fixture: releaseFixture,
    body: { name: 'Renamed' },
  },
  { method: 'DELETE', path: `${RELEASES}/{tag}`, min: 'maintainer', ok: 200, fixture: releaseFixture },
  {
    method: 'POST',
    path: `${RELEASES}/{tag}/assets/links`,
    min: 'developer',
    fixture: releaseFixture,
    body: (_v, u) => ({ name: `Link ${u}`, url: `https://example.com/${u}` }),
  },
  {
    method: 'PUT',
    path: `${RELEASES}/{tag}/assets/links/{link}`,
    min: 'developer',
    fixture: releaseFixture,
    body: { name: 'Renamed link' },
  },
  {
    method: 'DELETE',
    path: `${RELEASES}/{tag}/assets/links/{link}`,
    min: 'developer',
    ok: 200,
    fixture: releaseFixture,
  },
]

permissionMatrix('releases', () => world, RELEASE_ROWS)
