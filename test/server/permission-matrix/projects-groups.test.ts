import { afterAll, beforeAll } from 'vitest'
import { insertAccessRequest } from '../../../src/server/modules/members/queries'
import { seedGroup, seedMember } from '../../helpers/fixtures'
import { authenticatedRows, permissionMatrix, type MatrixRow, type Vars } from './matrix'
import { buildWorld, freshGroup, freshProject, freshUser, type Container, type World } from './world'

let world: World
/** A public group nobody of the world belongs to: what projects and groups are shared with. */
let shareGroupId: number

beforeAll(async () => {
  world = await buildWorld()
  shareGroupId = seedGroup(world.server, { path: 'matrix-share-target', visibility: 'public' }).id
})
afterAll(async () => world.close())

const projectFixture = async (w: World, c: Container): Promise<Vars> => ({ project: freshProject(w, c).id })
const groupFixture = async (w: World, c: Container): Promise<Vars> => ({ group: freshGroup(w, c).id })

/** A fresh user who is a direct Developer of the container's project (or group). */
function memberFixture(source: 'Project' | 'Namespace') {
  return async (w: World, c: Container): Promise<Vars> => {
    const user = freshUser(w)
    seedMember(w.server, source, source === 'Project' ? c.project.id : c.group.id, user, 30)
    return { user }
  }
}

/** A fresh user with a pending access request to the container's project (or group). */
function accessRequestFixture(source: 'Project' | 'Namespace') {
  return async (w: World, c: Container): Promise<Vars> => {
    const user = freshUser(w)
    const id = source === 'Project' ? c.project.id : c.group.id
    insertAccessRequest(w.server.app.burrow.db, { type: source, id, namespaceId: c.group.id }, user)
    return { user }
  }
}

async function sharedProjectFixture(w: World, c: Container): Promise<Vars> {
  const project = freshProject(w, c).id
  await w.admin('POST', `/projects/${project}/share`, { group_id: shareGroupId, group_access: 30 })
  return { project, share: shareGroupId }
}

async function sharedGroupFixture(w: World, c: Container): Promise<Vars> {
  const group = freshGroup(w, c).id
  await w.admin('POST', `/groups/${group}/share`, { group_id: shareGroupId, group_access: 30 })
  return { group, share: shareGroupId }
}

/** Requesting access is for signed-in users who can see the source and are not members of it yet. */
const REQUEST_ACCESS = {
  min: 'signedIn',
  except: { guest: 403, reporter: 403, developer: 403, maintainer: 403, owner: 403, admin: 403 },
  why: 'GitLab refuses access requests from members and administrators, who have access already (request_access ability)',
} as const

const PROJECTS: readonly MatrixRow[] = [
  { method: 'GET', path: '/projects/{project}', min: 'anyone' },
  { method: 'GET', path: '/projects/{project}/starrers', min: 'anyone' },
  { method: 'PUT', path: '/projects/{project}', min: 'maintainer', body: { description: 'changed by the matrix' } },
  {
    method: 'PUT',
    path: '/projects/{project}',
    label: 'name',
    min: 'owner',
    fixture: projectFixture,
    body: (_v, u) => ({ name: `renamed ${u}` }),
    why: "renaming is GitLab's rename_project, an Owner ability",
  },
  {
    method: 'PUT',
    path: '/projects/{project}',
    label: 'visibility',
    min: 'owner',
    fixture: async (w, c) => ({ project: freshProject(w, c).id, visibility: c.visibility }),
    body: (v) => ({ visibility: v.visibility }),
    why: "changing visibility is GitLab's change_visibility_level, an Owner ability (even to the same level)",
  },
  { method: 'DELETE', path: '/projects/{project}', min: 'owner', ok: 202, fixture: projectFixture },
  {
    method: 'POST',
    path: '/projects/{project}/archive',
    min: 'owner',
    fixture: projectFixture,
    readBack: '/projects/{project}',
    why: 'GitLab archives a project for its owners and administrators only',
  },
  {
    method: 'POST',
    path: '/projects/{project}/star',
    min: 'signedIn',
    fixture: projectFixture,
    readBack: '/projects/{project}/starrers',
  },
  {
    method: 'POST',
    path: '/projects/{project}/share',
    min: 'maintainer',
    fixture: projectFixture,
    readBack: '/projects/{project}',
    body: () => ({ group_id: shareGroupId, group_access: 30 }),
  },
  {
    method: 'POST',
    path: '/projects/{project}/share',
    label: 'as Owner',
    min: 'owner',
    fixture: projectFixture,
    readBack: '/projects/{project}',
    body: () => ({ group_id: shareGroupId, group_access: 50 }),
    why: 'sharing grants a role like adding members: only Owners grant Owner, else a Maintainer could make a group of theirs Owner',
  },
  {
    method: 'DELETE',
    path: '/projects/{project}/share/{share}',
    min: 'maintainer',
    fixture: sharedProjectFixture,
    readBack: '/projects/{project}',
  },
  {
    method: 'PUT',
    path: '/projects/{project}/transfer',
    min: 'owner',
    readBack: '/projects/{project}',
    body: (v) => ({ namespace: v.to }),
    fixture: async (w, c) => ({ project: freshProject(w, c).id, to: freshGroup(w, w.containers.public).id }),
    why: 'transferring is for Owners of the project (who must also be able to create projects in the target group)',
  },
  { method: 'GET', path: '/projects/{project}/events', min: 'anyone' },
  { method: 'GET', path: '/projects/{project}/import', min: 'anyone' },
  // Storage moves are administration: GitLab answers 403 to everyone else before looking at the project.
  {
    method: 'GET',
    path: '/projects/{project}/repository_storage_moves',
    min: 'admin',
    hidden: 403,
    authenticated: true,
  },
]

const GROUPS: readonly MatrixRow[] = [
  { method: 'GET', path: '/groups/{group}', min: 'anyone' },
  { method: 'GET', path: '/groups/{group}/subgroups', min: 'anyone' },
  { method: 'GET', path: '/groups/{group}/descendant_groups', min: 'anyone' },
  { method: 'GET', path: '/groups/{group}/projects', min: 'anyone' },
  { method: 'GET', path: '/groups/{group}/issues', min: 'anyone' },
  { method: 'GET', path: '/groups/{group}/merge_requests', min: 'anyone', authenticated: true },
  { method: 'GET', path: '/groups/{group}/repository_storage_moves', min: 'admin', hidden: 403, authenticated: true },
  {
    method: 'GET',
    path: '/namespaces/{group}',
    min: 'guest',
    refusal: 404,
    authenticated: true,
    why: "GitLab shows a group's namespace to its members only (read_namespace_via_membership), public groups included",
  },
  { method: 'PUT', path: '/groups/{group}', min: 'owner', body: { description: 'changed by the matrix' } },
  {
    method: 'POST',
    path: '/projects',
    min: 'developer',
    refusal: 400,
    hidden: 400,
    readBack: '/groups/{group}/projects',
    body: (v, u) => ({ name: `created ${u}`, namespace_id: String(v.group) }),
    why: 'GitLab lets Developers create projects in a group (project_creation_level) and answers others, seen or not, 400 namespace "is not valid"',
  },
  {
    method: 'POST',
    path: '/groups',
    min: 'maintainer',
    readBack: '/groups/{group}/subgroups',
    body: (v, u) => ({ name: `sub ${u}`, path: `sub-${u}`, parent_id: v.group }),
    why: "subgroups are created by the parent's Maintainers (subgroup_creation_level)",
  },
  { method: 'DELETE', path: '/groups/{group}', min: 'owner', ok: 202, fixture: groupFixture },
  {
    method: 'POST',
    path: '/groups/{group}/share',
    min: 'owner',
    fixture: groupFixture,
    readBack: '/groups/{group}',
    body: () => ({ group_id: shareGroupId, group_access: 30 }),
  },
  {
    method: 'DELETE',
    path: '/groups/{group}/share/{share}',
    min: 'owner',
    fixture: sharedGroupFixture,
    readBack: '/groups/{group}',
  },
]

/**
 * Members and access requests, the same rules on both sources but for who manages them. GitLab's
 * members and access request APIs authenticate every call, reads on public sources included.
 */
function memberRows(source: 'Project' | 'Namespace'): MatrixRow[] {
  const base = source === 'Project' ? '/projects/{project}' : '/groups/{group}'
  const manager = source === 'Project' ? 'maintainer' : 'owner'
  return authenticatedRows([
    { method: 'GET', path: `${base}/members`, min: 'anyone' },
    { method: 'GET', path: `${base}/members/all`, min: 'anyone' },
    { method: 'GET', path: `${base}/members/{user}`, min: 'anyone', fixture: memberFixture(source) },
    { method: 'GET', path: `${base}/members/all/{user}`, min: 'anyone', fixture: memberFixture(source) },
    {
      method: 'POST',
      path: `${base}/members`,
      min: manager,
      readBack: `${base}/members`,
      fixture: async (w) => ({ user: freshUser(w) }),
      body: (v) => ({ user_id: v.user, access_level: 30 }),
    },
    {
      method: 'PUT',
      path: `${base}/members/{user}`,
      min: manager,
      fixture: memberFixture(source),
      body: { access_level: 20 },
    },
    {
      method: 'DELETE',
      path: `${base}/members/{user}`,
      min: manager,
      fixture: memberFixture(source),
      readBack: `${base}/members/{user}`,
    },
    { method: 'GET', path: `${base}/access_requests`, min: manager },
    {
      method: 'POST',
      path: `${base}/access_requests`,
      ...REQUEST_ACCESS,
      fixture: source === 'Project' ? projectFixture : groupFixture,
      readBack: `${base}/access_requests`,
    },
    {
      method: 'PUT',
      path: `${base}/access_requests/{user}/approve`,
      min: manager,
      fixture: accessRequestFixture(source),
      readBack: `${base}/access_requests`,
      ok: 201,
    },
    {
      method: 'DELETE',
      path: `${base}/access_requests/{user}`,
      min: manager,
      fixture: accessRequestFixture(source),
      readBack: `${base}/access_requests`,
    },
  ])
}

permissionMatrix('projects', () => world, PROJECTS)
permissionMatrix('groups', () => world, GROUPS)
permissionMatrix('project members', () => world, memberRows('Project'))
permissionMatrix('group members', () => world, memberRows('Namespace'))
