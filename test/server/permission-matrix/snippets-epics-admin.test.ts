import { afterAll, beforeAll } from 'vitest'
import type { Visibility } from '../../../src/server/platform/db/rows'
import { authenticatedRows, instanceRows, permissionMatrix, type MatrixRow, type Vars } from './matrix'
import { buildWorld, freshUser, VISIBILITIES, type Container, type Json, type World } from './world'

let world: World
/** Per container: a snippet of the container's visibility and an epic, both by the administrator. */
const standing = {} as Record<Visibility, Vars>
let seq = 0

async function snippetFixture(w: World, c: Container): Promise<Vars> {
  seq += 1
  const snippet = await w.admin<Json>('POST', `/projects/${c.project.id}/snippets`, {
    title: `Snippet ${seq}`,
    file_name: 'a.txt',
    content: 'hello',
    visibility: c.visibility,
  })
  const note = await w.admin<Json>('POST', `/projects/${c.project.id}/snippets/${snippet.id}/notes`, {
    body: 'A snippet note',
  })
  return { snippet: Number(snippet.id), snippetNote: Number(note.id) }
}

/** A private snippet of the container's project: for the project's members whatever the project's visibility. */
async function privateSnippetFixture(w: World, c: Container): Promise<Vars> {
  const snippet = await w.admin<Json>('POST', `/projects/${c.project.id}/snippets`, {
    title: 'Members only',
    file_name: 'p.txt',
    content: 'p',
    visibility: 'private',
  })
  return { snippet: Number(snippet.id) }
}

async function epicFixture(w: World, c: Container): Promise<Vars> {
  const epic = await w.admin<Json>('POST', `/groups/${c.group.id}/epics`, { title: 'Matrix epic' })
  const note = await w.admin<Json>('POST', `/groups/${c.group.id}/epics/${epic.id}/notes`, { body: 'An epic note' })
  return { epic: Number(epic.iid), epicId: Number(epic.id), epicNote: Number(note.id) }
}

beforeAll(async () => {
  world = await buildWorld()
  for (const visibility of VISIBILITIES) {
    const c = world.containers[visibility]
    standing[visibility] = { ...(await snippetFixture(world, c)), ...(await epicFixture(world, c)) }
  }
})
afterAll(async () => world.close())

const standingFixture = async (_w: World, c: Container): Promise<Vars> => standing[c.visibility]
const SNIPPET = '/projects/{project}/snippets/{snippet}'

/** Project snippets: read with the project, created by Reporters, changed by their author or Maintainers. */
const SNIPPETS: readonly MatrixRow[] = [
  { method: 'GET', path: '/projects/{project}/snippets', min: 'anyone' },
  { method: 'GET', path: SNIPPET, min: 'anyone', fixture: standingFixture },
  { method: 'GET', path: `${SNIPPET}/raw`, min: 'anyone', fixture: standingFixture },
  {
    method: 'GET',
    path: SNIPPET,
    label: 'private snippet',
    min: 'guest',
    refusal: 404,
    anonymous: 404,
    fixture: privateSnippetFixture,
    why: 'a private snippet is hidden (404) from non-members',
  },
  {
    method: 'GET',
    path: `${SNIPPET}/raw`,
    label: 'private snippet',
    min: 'guest',
    refusal: 404,
    anonymous: 404,
    fixture: privateSnippetFixture,
  },
  { method: 'GET', path: `${SNIPPET}/notes`, min: 'anyone', fixture: standingFixture },
  {
    method: 'POST',
    path: '/projects/{project}/snippets',
    min: 'reporter',
    readBack: '/projects/{project}/snippets',
    body: (_v, u) => ({ title: `new ${u}`, file_name: 'b.txt', content: 'x', visibility: 'private' }),
  },
  { method: 'PUT', path: SNIPPET, min: 'maintainer', fixture: snippetFixture, body: { title: 'Renamed' } },
  { method: 'DELETE', path: SNIPPET, min: 'maintainer', fixture: snippetFixture },
  { method: 'POST', path: `${SNIPPET}/notes`, min: 'signedIn', fixture: snippetFixture, body: { body: 'A comment' } },
  { method: 'DELETE', path: `${SNIPPET}/notes/{snippetNote}`, min: 'maintainer', fixture: snippetFixture },
  { method: 'POST', path: `${SNIPPET}/award_emoji`, min: 'signedIn', fixture: snippetFixture, body: { name: 'tada' } },
  { method: 'GET', path: `${SNIPPET}/discussions`, min: 'anyone', fixture: standingFixture },
  {
    method: 'POST',
    path: `${SNIPPET}/discussions`,
    min: 'signedIn',
    fixture: snippetFixture,
    body: { body: 'A thread' },
  },
]

/** Epics (the spec: every call authenticated): read with the group, created and edited by Reporters, deleted by Owners. */
const EPIC = '/groups/{group}/epics/{epic}'
const EPICS: readonly MatrixRow[] = authenticatedRows([
  { method: 'GET', path: '/groups/{group}/epics', min: 'signedIn' },
  { method: 'GET', path: EPIC, min: 'signedIn', fixture: standingFixture },
  { method: 'GET', path: `${EPIC}/issues`, min: 'signedIn', fixture: standingFixture },
  // The notes and resource event APIs name an epic by its global id, the rest by its iid (as GitLab).
  { method: 'GET', path: '/groups/{group}/epics/{epicId}/notes', min: 'signedIn', fixture: standingFixture },
  {
    method: 'GET',
    path: '/groups/{group}/epics/{epicId}/resource_label_events',
    min: 'signedIn',
    fixture: standingFixture,
  },
  { method: 'POST', path: '/groups/{group}/epics', min: 'reporter', body: { title: 'New epic' } },
  { method: 'PUT', path: EPIC, min: 'reporter', fixture: epicFixture, body: { title: 'Renamed' } },
  { method: 'DELETE', path: EPIC, min: 'owner', fixture: epicFixture },
  {
    method: 'POST',
    path: `${EPIC}/issues/{issueId}`,
    min: 'reporter',
    readBack: `${EPIC}/issues`,
    fixture: async (w, c) => {
      const issue = await w.admin<Json>('POST', `/projects/${c.project.id}/issues`, { title: 'For an epic' })
      return { ...(await epicFixture(w, c)), issueId: Number(issue.id) }
    },
    why: "linking an issue is for the group's Reporters, who read the issue's project too",
  },
  {
    method: 'POST',
    path: `${EPIC}/epics`,
    min: 'reporter',
    fixture: epicFixture,
    readBack: `${EPIC}/epics`,
    body: { title: 'A child epic' },
  },
  {
    method: 'POST',
    path: '/groups/{group}/epics/{epicId}/notes',
    min: 'signedIn',
    fixture: epicFixture,
    body: { body: 'A comment' },
  },
  { method: 'POST', path: `${EPIC}/award_emoji`, min: 'signedIn', fixture: epicFixture, body: { name: 'tada' } },
  { method: 'GET', path: '/groups/{group}/epics/{epicId}/discussions', min: 'signedIn', fixture: standingFixture },
  {
    method: 'POST',
    path: '/groups/{group}/epics/{epicId}/discussions',
    min: 'signedIn',
    fixture: epicFixture,
    body: { body: 'A thread' },
  },
  { method: 'POST', path: `${EPIC}/subscribe`, min: 'signedIn', fixture: epicFixture, readBack: EPIC },
  { method: 'POST', path: `${EPIC}/todo`, min: 'signedIn', fixture: epicFixture, readBack: EPIC },
])

const aUser = async (w: World): Promise<Vars> => ({ user: freshUser(w) })

async function anIssue(w: World): Promise<Vars> {
  const issue = await w.admin<Json>('POST', `/projects/${w.containers.public.project.id}/issues`, {
    title: 'Instance issue',
  })
  return { issueId: Number(issue.id) }
}

/** A to-do of the administrator's (on an issue of the public project). */
async function adminTodo(w: World): Promise<Vars> {
  const issue = await w.admin<Json>('POST', `/projects/${w.containers.public.project.id}/issues`, { title: 'To do' })
  const todo = await w.admin<Json>('POST', `/projects/${w.containers.public.project.id}/issues/${issue.iid}/todo`)
  return { todo: Number(todo.id) }
}

/** A personal access token of a fresh user, made by the administrator. */
async function someonesToken(w: World): Promise<Vars> {
  const user = freshUser(w)
  const token = await w.admin<Json>('POST', `/users/${user}/personal_access_tokens`, {
    name: 'theirs',
    scopes: ['api'],
  })
  return { user, pat: Number(token.id) }
}

/** An instance runner, registered with the instance's registration token. */
async function instanceRunner(w: World): Promise<Vars> {
  const settings = await w.admin<Json>('GET', '/application/settings')
  const res = await w.server.request(null, {
    method: 'POST',
    url: '/api/v4/runners',
    payload: { token: settings.runners_registration_token, description: 'shared' },
  })
  if (res.statusCode !== 201) throw new Error(`runner registration answered ${res.statusCode}: ${res.body}`)
  return { runner: Number(res.json().id) }
}

/** Instance routes: the caller's own things for anyone signed in, the rest for administrators only. */
const INSTANCE: readonly MatrixRow[] = instanceRows([
  { method: 'GET', path: '/user', min: 'signedIn' },
  { method: 'GET', path: '/todos', min: 'signedIn' },
  { method: 'POST', path: '/todos/mark_as_done', min: 'signedIn', ok: 204, readBack: '/todos' },
  { method: 'GET', path: '/runners', min: 'signedIn' },
  {
    method: 'POST',
    path: '/todos/{todo}/mark_as_done',
    min: 'admin',
    refusal: 404,
    ok: 201,
    fixture: adminTodo,
    readBack: '/todos',
    why: "a to-do is its owner's (here the administrator's): anyone else finds no such to-do",
  },
  {
    method: 'GET',
    path: '/personal_access_tokens/{pat}',
    min: 'admin',
    refusal: 401,
    fixture: someonesToken,
    why: 'a token is read by its owner and administrators; GitLab answers others 401 (only administrators learn it does not exist)',
  },
  {
    method: 'DELETE',
    path: '/personal_access_tokens/{pat}',
    min: 'admin',
    refusal: 400,
    fixture: someonesToken,
    readBack: '/personal_access_tokens/{pat}',
    why: "revoked by its owner or an administrator; GitLab's revoke service refuses others, answered 400",
  },
  { method: 'GET', path: '/personal_access_tokens', min: 'signedIn' },
  {
    method: 'GET',
    path: '/users',
    min: 'signedIn',
    anonymous: 403,
    why: 'GitLab lists users to anonymous callers only by exact username: 403 "Not authorized to access /api/v4/users"',
  },
  { method: 'GET', path: '/users/{user}', min: 'anyone', fixture: aUser },
  { method: 'GET', path: '/runners/all', min: 'admin' },
  {
    method: 'GET',
    path: '/runners/{runner}',
    min: 'signedIn',
    fixture: instanceRunner,
    why: 'the spec: instance runners are visible to any signed-in user',
  },
  { method: 'PUT', path: '/runners/{runner}', min: 'admin', fixture: instanceRunner, body: { description: 'changed' } },
  { method: 'GET', path: '/issues/{issueId}', min: 'admin', fixture: anIssue },
  { method: 'POST', path: '/users/{user}/deactivate', min: 'admin', fixture: aUser, readBack: '/users/{user}' },
  {
    method: 'POST',
    path: '/users/{user}/unblock',
    min: 'admin',
    readBack: '/users/{user}',
    fixture: async (w) => {
      const { user } = await aUser(w)
      await w.admin('POST', `/users/${user}/block`)
      return { user }
    },
  },
  {
    method: 'POST',
    path: '/personal_access_tokens/{pat}/rotate',
    min: 'admin',
    refusal: 401,
    ok: 200,
    fixture: someonesToken,
    readBack: '/personal_access_tokens/{pat}',
    why: "as reading it: GitLab answers 401 to anyone but the token's owner and administrators",
  },
  {
    method: 'DELETE',
    path: '/users/{user}/impersonation_tokens/{impersonation}',
    min: 'admin',
    readBack: '/users/{user}/impersonation_tokens/{impersonation}',
    fixture: async (w) => {
      const { user } = await aUser(w)
      const token = await w.admin<Json>('POST', `/users/${user}/impersonation_tokens`, { name: 'imp', scopes: ['api'] })
      return { user, impersonation: Number(token.id) }
    },
  },
  {
    method: 'POST',
    path: '/geo_nodes',
    min: 'admin',
    readBack: '/geo_nodes',
    body: (_v, u) => ({ name: u, url: `https://${u}.example/` }),
  },
  { method: 'GET', path: '/audit_events', min: 'admin' },
  { method: 'GET', path: '/pages/domains', min: 'admin' },
  { method: 'GET', path: '/application/settings', min: 'admin' },
  {
    method: 'PUT',
    path: '/application/settings',
    min: 'admin',
    body: { after_sign_out_path: '/bye' },
    readBack: '/application/settings',
  },
  { method: 'GET', path: '/geo_nodes', min: 'admin' },
  { method: 'GET', path: '/project_repository_storage_moves', min: 'admin' },
  {
    method: 'POST',
    path: '/users',
    min: 'admin',
    readBack: '/users',
    body: (_v, u) => ({ email: `${u}@example.com`, name: u, username: u, password: 'Secret-pass-1234' }),
  },
  { method: 'PUT', path: '/users/{user}', min: 'admin', fixture: aUser, body: { bio: 'changed' } },
  { method: 'DELETE', path: '/users/{user}', min: 'admin', fixture: aUser },
  { method: 'POST', path: '/users/{user}/block', min: 'admin', fixture: aUser, readBack: '/users/{user}' },
  { method: 'GET', path: '/users/{user}/memberships', min: 'admin', fixture: aUser },
  { method: 'GET', path: '/users/{user}/personal_access_tokens', min: 'admin', fixture: aUser },
  {
    method: 'POST',
    path: '/users/{user}/personal_access_tokens',
    min: 'admin',
    fixture: aUser,
    readBack: '/users/{user}/personal_access_tokens',
    body: { name: 'x', scopes: ['api'] },
  },
  { method: 'GET', path: '/users/{user}/impersonation_tokens', min: 'admin', fixture: aUser },
  {
    method: 'POST',
    path: '/users/{user}/impersonation_tokens',
    min: 'admin',
    fixture: aUser,
    readBack: '/users/{user}/impersonation_tokens',
    body: { name: 'x', scopes: ['api'] },
  },
])

permissionMatrix('project snippets', () => world, SNIPPETS)
permissionMatrix('epics', () => world, EPICS)
permissionMatrix('instance and administration', () => world, INSTANCE)
