import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../../src/server/platform/auth/access'
import type { NamespaceRow, ProjectRow } from '../../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../../helpers/fixtures'
import { makeServer, seedUser, type SeededUser, type TestServer } from '../../helpers/server'

/**
 * How access reaches a caller other than by direct membership: down the group tree, up to the
 * ancestors of what one belongs to (to see, not to act), through group shares at the lower of the
 * two levels, never through an expired membership; an external user only through membership.
 * A table of (who, what, request, status).
 */
let s: TestServer
let parent: NamespaceRow
let child: NamespaceRow
let sibling: ProjectRow
let childProject: ProjectRow
let shared: ProjectRow
let sharedGroup: NamespaceRow
let internalMine: ProjectRow
let internalOther: ProjectRow
const users = {} as Record<
  'parentDeveloper' | 'childMaintainer' | 'shareMaintainer' | 'expiredMaintainer' | 'externalGuest',
  SeededUser
>

beforeAll(async () => {
  s = await makeServer()
  parent = seedGroup(s, { path: 'tree-parent', visibility: 'private' })
  child = seedGroup(s, { path: 'tree-child', parentId: parent.id, visibility: 'private' })
  sibling = seedProject(s, { namespaceId: parent.id, path: 'sibling', visibility: 'private' })
  childProject = seedProject(s, { namespaceId: child.id, path: 'inner', visibility: 'private' })
  shared = seedProject(s, { namespaceId: parent.id, path: 'shared', visibility: 'private' })
  sharedGroup = seedGroup(s, { path: 'tree-share', visibility: 'private' })
  for (const name of ['parentDeveloper', 'childMaintainer', 'shareMaintainer', 'expiredMaintainer'] as const) {
    users[name] = seedUser(s, { username: `tree-${name.toLowerCase()}` })
  }
  users.externalGuest = seedUser(s, { username: 'tree-external', external: true })
  const internal = seedGroup(s, { path: 'tree-internal', visibility: 'internal' })
  internalMine = seedProject(s, { namespaceId: internal.id, path: 'mine', visibility: 'internal' })
  internalOther = seedProject(s, {
    namespaceId: seedGroup(s, { path: 'tree-internal-2', visibility: 'internal' }).id,
    path: 'other',
    visibility: 'internal',
  })
  seedMember(s, 'Project', internalMine.id, users.externalGuest.user.id, AccessLevel.GUEST)
  seedMember(s, 'Namespace', parent.id, users.parentDeveloper.user.id, AccessLevel.DEVELOPER)
  seedMember(s, 'Namespace', child.id, users.childMaintainer.user.id, AccessLevel.MAINTAINER)
  seedMember(s, 'Namespace', sharedGroup.id, users.shareMaintainer.user.id, AccessLevel.MAINTAINER)
  // The share grants Reporter: a Maintainer of the shared group acts as a Reporter in the project.
  s.app.burrow.db
    .prepare('INSERT INTO project_group_links (project_id, group_id, group_access) VALUES (?, ?, ?)')
    .run(shared.id, sharedGroup.id, AccessLevel.REPORTER)
  seedMember(s, 'Project', sibling.id, users.expiredMaintainer.user.id, AccessLevel.MAINTAINER)
  s.app.burrow.db
    .prepare("UPDATE members SET expires_at = '2000-01-01' WHERE user_id = ?")
    .run(users.expiredMaintainer.user.id)
})
afterAll(async () => s.close())

type Who = keyof typeof users
/** (who, what, method, path, status): `what` names the case in the test's title. */
const CASES: readonly (readonly [Who, string, 'GET' | 'PUT', () => string, number])[] = [
  // Down the tree: a parent group's Developer develops in the subgroup's projects, but does not maintain them.
  [
    'parentDeveloper',
    "reads a subgroup project's code",
    'GET',
    () => `/projects/${childProject.id}/repository/branches`,
    200,
  ],
  ['parentDeveloper', "edits a subgroup project's settings", 'PUT', () => `/projects/${childProject.id}`, 403],
  // Up the tree: a subgroup's Maintainer sees the parent group, but none of its other projects, and cannot change it.
  ['childMaintainer', 'reads the parent group', 'GET', () => `/groups/${parent.id}`, 200],
  ['childMaintainer', "reads the parent group's other project", 'GET', () => `/projects/${sibling.id}`, 404],
  ['childMaintainer', 'edits the parent group', 'PUT', () => `/groups/${parent.id}`, 403],
  ['childMaintainer', 'edits its own project', 'PUT', () => `/projects/${childProject.id}`, 200],
  // Shares: the lower of the share's level and the member's own.
  [
    'shareMaintainer',
    "reads the shared project's code",
    'GET',
    () => `/projects/${shared.id}/repository/branches`,
    200,
  ],
  ['shareMaintainer', 'edits the shared project (a Reporter there)', 'PUT', () => `/projects/${shared.id}`, 403],
  ['shareMaintainer', 'reads a project not shared', 'GET', () => `/projects/${sibling.id}`, 404],
  // An expired membership grants nothing.
  ['expiredMaintainer', 'reads the project of its expired membership', 'GET', () => `/projects/${sibling.id}`, 404],
  // An external user reads the internal projects it belongs to, and no other.
  ['externalGuest', 'reads an internal project it belongs to', 'GET', () => `/projects/${internalMine.id}`, 200],
  ['externalGuest', 'reads another internal project', 'GET', () => `/projects/${internalOther.id}`, 404],
]

describe('access through the group tree, shares and expiry', () => {
  it.each(CASES.map(([who, what, method, path, status]) => ({ who, what, method, path, status })))(
    '$who $what → $status',
    async ({ who, method, path, status }) => {
      const res = await s.request(users[who].token, {
        method,
        url: `/api/v4${path()}`,
        ...(method === 'PUT' ? { payload: { description: 'changed' } } : {}),
      })
      expect(res.statusCode, res.body).toBe(status)
    },
  )
})
