import { afterAll, beforeAll } from 'vitest'
import type { Visibility } from '../../../src/server/platform/db/rows'
import { authenticatedRows, permissionMatrix, type MatrixRow, type Role, type Vars } from './matrix'
import { buildWorld, VISIBILITIES, type Container, type Json, type World } from './world'

// Issue 11's new families: releases, boards, wikis, badges, pipeline schedules, group CI variables
// and access tokens, project users and languages.

let world: World
let seq = 0
/** Per container: a board with one list that the reads look at (and that keeps a board after deletions). */
const standingBoard = {} as Record<Visibility, Vars>
/** Per container: a project badge and a group badge that the reads look at. */
const standingBadges = {} as Record<Visibility, Vars>

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
    const board = await world.admin<Json>('POST', `/projects/${c.project.id}/boards`, { name: 'Development' })
    const label = await world.admin<Json>('POST', `/projects/${c.project.id}/labels`, {
      name: 'Doing',
      color: '#00AA00',
    })
    const list = await world.admin<Json>('POST', `/projects/${c.project.id}/boards/${board.id}/lists`, {
      label_id: label.id,
    })
    standingBoard[visibility] = { board: Number(board.id), list: Number(list.id) }
    await world.admin('POST', `/projects/${c.project.id}/wikis`, { title: 'Home', content: 'Welcome' })
    standingBadges[visibility] = {
      projectBadge: Number((await badgeFixture(world, c, 'projects')).badge),
      groupBadge: Number((await badgeFixture(world, c, 'groups')).badge),
    }
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

const BOARDS = '/projects/{project}/boards'

/** A new label of the project, for a list to carry. */
async function labelFixture(w: World, c: Container): Promise<Vars> {
  seq += 1
  const label = await w.admin<Json>('POST', `/projects/${c.project.id}/labels`, {
    name: `fresh-${seq}`,
    color: '#428BCA',
  })
  return { ...standingBoard[c.visibility], label: Number(label.id) }
}

/** A new board with two label lists. */
async function boardFixture(w: World, c: Container): Promise<Vars> {
  seq += 1
  const board = await w.admin<Json>('POST', `/projects/${c.project.id}/boards`, { name: `Board ${seq}` })
  const lists: number[] = []
  for (const n of [1, 2]) {
    const label = await w.admin<Json>('POST', `/projects/${c.project.id}/labels`, {
      name: `b${seq}-${n}`,
      color: '#428BCA',
    })
    const list = await w.admin<Json>('POST', `/projects/${c.project.id}/boards/${board.id}/lists`, {
      label_id: label.id,
    })
    lists.push(Number(list.id))
  }
  return { board: Number(board.id), list: lists[0] }
}

const standingBoardFixture = async (_w: World, c: Container): Promise<Vars> => standingBoard[c.visibility]

/**
 * Issue boards (GitLab's read_issue_board, admin_issue_board, admin_issue_board_list): every call
 * signs in first; whoever reads the project's issues reads boards, Reporters manage them.
 */
const BOARD_ROWS: readonly MatrixRow[] = authenticatedRows([
  { method: 'GET', path: BOARDS, min: 'signedIn' },
  { method: 'GET', path: `${BOARDS}/{board}`, min: 'signedIn', fixture: standingBoardFixture },
  { method: 'GET', path: `${BOARDS}/{board}/lists`, min: 'signedIn', fixture: standingBoardFixture },
  { method: 'GET', path: `${BOARDS}/{board}/lists/{list}`, min: 'signedIn', fixture: standingBoardFixture },
  { method: 'POST', path: BOARDS, min: 'reporter', body: (_v, u) => ({ name: `Board ${u}` }) },
  { method: 'PUT', path: `${BOARDS}/{board}`, min: 'reporter', fixture: boardFixture, body: { name: 'Renamed' } },
  { method: 'DELETE', path: `${BOARDS}/{board}`, min: 'reporter', fixture: boardFixture },
  {
    method: 'POST',
    path: `${BOARDS}/{board}/lists`,
    min: 'reporter',
    fixture: labelFixture,
    body: (v) => ({ label_id: v.label }),
  },
  {
    method: 'PUT',
    path: `${BOARDS}/{board}/lists/{list}`,
    min: 'reporter',
    fixture: boardFixture,
    body: { position: 1 },
    readBack: `${BOARDS}/{board}/lists`,
  },
  { method: 'DELETE', path: `${BOARDS}/{board}/lists/{list}`, min: 'reporter', fixture: boardFixture },
])

permissionMatrix('issue boards', () => world, BOARD_ROWS)

const WIKIS = '/projects/{project}/wikis'

/** A new wiki page. */
async function pageFixture(w: World, c: Container): Promise<Vars> {
  seq += 1
  const page = await w.admin<Json>('POST', `/projects/${c.project.id}/wikis`, { title: `Page ${seq}`, content: 'x' })
  return { slug: String(page.slug) }
}

const wikiRepo = async (_w: World, c: Container): Promise<Vars> => ({ ns: c.group.full_path, repo: c.project.path })

/**
 * Wikis (GitLab's read_wiki, create_wiki, admin_wiki): whoever sees the project reads its wiki,
 * Developers write pages and push to the wiki repository, Maintainers delete pages.
 */
const WIKI_ROWS: readonly MatrixRow[] = [
  { method: 'GET', path: WIKIS, min: 'anyone' },
  { method: 'GET', path: `${WIKIS}/Home`, min: 'anyone' },
  { method: 'POST', path: WIKIS, min: 'developer', body: (_v, u) => ({ title: `New ${u}`, content: 'Text' }) },
  { method: 'PUT', path: `${WIKIS}/{slug}`, min: 'developer', fixture: pageFixture, body: { content: 'Changed' } },
  { method: 'DELETE', path: `${WIKIS}/{slug}`, min: 'maintainer', fixture: pageFixture },
  {
    method: 'GET',
    path: '/{ns}/{repo}.wiki.git/info/refs?service=git-upload-pack',
    transport: 'git',
    min: 'anyone',
    fixture: wikiRepo,
    anonymousHidden: 401,
    why: 'git asks an anonymous caller for credentials (401) where it may not fetch',
  },
  {
    method: 'GET',
    path: '/{ns}/{repo}.wiki.git/info/refs?service=git-receive-pack',
    transport: 'git',
    min: 'developer',
    fixture: wikiRepo,
    authenticated: true,
  },
]

permissionMatrix('wikis', () => world, WIKI_ROWS)

const BADGE = { link_url: 'https://ci.example.com/%{project_path}', image_url: 'https://ci.example.com/badge.svg' }
const RENDER = `render?${new URLSearchParams(BADGE)}`

/** A new badge of the container's project or group. */
async function badgeFixture(w: World, c: Container, owner: 'projects' | 'groups'): Promise<Vars> {
  const id = owner === 'projects' ? c.project.id : c.group.id
  const badge = await w.admin<Json>('POST', `/${owner}/${id}/badges`, BADGE)
  return { badge: Number(badge.id) }
}

const standingBadgeFixture = async (_w: World, c: Container): Promise<Vars> => standingBadges[c.visibility]

/**
 * Badges (GitLab's badges API): whoever sees the project or group reads its badges; previews sign
 * in first; Maintainers of the project (admin_project) and Owners of the group (admin_group) write.
 */
const BADGE_ROWS: readonly MatrixRow[] = [
  { method: 'GET', path: '/projects/{project}/badges', min: 'anyone' },
  { method: 'GET', path: '/projects/{project}/badges/{projectBadge}', min: 'anyone', fixture: standingBadgeFixture },
  { method: 'GET', path: `/projects/{project}/badges/${RENDER}`, min: 'maintainer', authenticated: true },
  { method: 'POST', path: '/projects/{project}/badges', min: 'maintainer', body: BADGE },
  {
    method: 'PUT',
    path: '/projects/{project}/badges/{badge}',
    min: 'maintainer',
    fixture: (w, c) => badgeFixture(w, c, 'projects'),
    body: { name: 'Renamed' },
  },
  {
    method: 'DELETE',
    path: '/projects/{project}/badges/{badge}',
    min: 'maintainer',
    fixture: (w, c) => badgeFixture(w, c, 'projects'),
  },
  { method: 'GET', path: '/groups/{group}/badges', min: 'anyone' },
  { method: 'GET', path: '/groups/{group}/badges/{groupBadge}', min: 'anyone', fixture: standingBadgeFixture },
  { method: 'GET', path: `/groups/{group}/badges/${RENDER}`, min: 'owner', authenticated: true },
  { method: 'POST', path: '/groups/{group}/badges', min: 'owner', body: BADGE },
  {
    method: 'PUT',
    path: '/groups/{group}/badges/{badge}',
    min: 'owner',
    fixture: (w, c) => badgeFixture(w, c, 'groups'),
    body: { name: 'Renamed' },
  },
  {
    method: 'DELETE',
    path: '/groups/{group}/badges/{badge}',
    min: 'owner',
    fixture: (w, c) => badgeFixture(w, c, 'groups'),
  },
]

permissionMatrix('badges', () => world, BADGE_ROWS)

/**
 * A project's team (GitLab's `GET /projects/:id/users`) for whoever sees the project; its
 * languages for readers of its code (read_code: a Guest of a private project is refused).
 */
const PROJECT_FACT_ROWS: readonly MatrixRow[] = [
  { method: 'GET', path: '/projects/{project}/users', min: 'anyone' },
  { method: 'GET', path: '/projects/{project}/languages', min: READ_CODE },
]

permissionMatrix('project users and languages', () => world, PROJECT_FACT_ROWS)

/**
 * Searching a project or a group is for whoever sees it (what each scope finds is narrowed further:
 * see lists.test.ts and search.test.ts); the repository's blobs are searched by readers of its code.
 */
const SEARCH_ROWS: readonly MatrixRow[] = [
  { method: 'GET', path: '/projects/{project}/search?scope=issues&search=matrix', min: 'anyone' },
  { method: 'GET', path: '/groups/{group}/search?scope=projects&search=matrix', min: 'anyone' },
]

permissionMatrix('search', () => world, SEARCH_ROWS)

/** Two new issues of the container's project, the first linked to the second, and a third to link. */
async function issueLinkFixture(w: World, c: Container): Promise<Vars> {
  const issues = `/projects/${c.project.id}/issues`
  const [issue, other, third] = await Promise.all(
    ['Source', 'Target', 'Spare'].map(async (title) => Number((await w.admin<Json>('POST', issues, { title })).iid)),
  )
  await w.admin('POST', `${issues}/${issue}/links`, { target_project_id: c.project.id, target_issue_iid: other })
  const [link] = await w.admin<Json[]>('GET', `${issues}/${issue}/links`)
  return { issue, third, link: Number(link.issue_link_id), projectId: c.project.id }
}

const LINKS = '/projects/{project}/issues/{issue}/links'

/**
 * Issue links: whoever reads the issue reads its links; members (Guest and up) link it and remove
 * its links (GitLab's admin_issue_link), which a non-member is refused as not found.
 */
const ISSUE_LINK_ROWS: readonly MatrixRow[] = [
  { method: 'GET', path: LINKS, min: 'anyone', fixture: issueLinkFixture },
  { method: 'GET', path: `${LINKS}/{link}`, min: 'anyone', fixture: issueLinkFixture },
  {
    method: 'POST',
    path: LINKS,
    min: 'guest',
    fixture: issueLinkFixture,
    body: (v) => ({ target_project_id: v.projectId, target_issue_iid: v.third }),
  },
  {
    method: 'DELETE',
    path: `${LINKS}/{link}`,
    min: 'guest',
    ok: 200,
    refusal: 404,
    fixture: issueLinkFixture,
    readBack: LINKS,
    why: 'GitLab answers "No Issue Link found" to a caller who may not remove the link',
  },
]

permissionMatrix('issue links', () => world, ISSUE_LINK_ROWS)

const GROUP_VARIABLES = '/groups/{group}/variables'

/** A new variable of the container's group. */
async function groupVariableFixture(w: World, c: Container): Promise<Vars> {
  seq += 1
  const variable = await w.admin<Json>('POST', `/groups/${c.group.id}/variables`, { key: `VAR_${seq}`, value: 'v' })
  return { key: String(variable.key) }
}

/** Group CI/CD variables (GitLab's admin_cicd_variables on a group): its Owners only, signed in. */
const GROUP_VARIABLE_ROWS: readonly MatrixRow[] = authenticatedRows([
  { method: 'GET', path: GROUP_VARIABLES, min: 'owner' },
  { method: 'GET', path: `${GROUP_VARIABLES}/{key}`, min: 'owner', fixture: groupVariableFixture },
  { method: 'POST', path: GROUP_VARIABLES, min: 'owner', body: (_v, u) => ({ key: `NEW_${u}`, value: 'v' }) },
  {
    method: 'PUT',
    path: `${GROUP_VARIABLES}/{key}`,
    min: 'owner',
    fixture: groupVariableFixture,
    body: { value: 'changed' },
  },
  { method: 'DELETE', path: `${GROUP_VARIABLES}/{key}`, min: 'owner', fixture: groupVariableFixture },
])

permissionMatrix('group CI/CD variables', () => world, GROUP_VARIABLE_ROWS)

const GROUP_TOKENS = '/groups/{group}/access_tokens'

/** A new access token of the container's group (a Developer bot). */
async function groupTokenFixture(w: World, c: Container): Promise<Vars> {
  const token = await w.admin<Json>('POST', `/groups/${c.group.id}/access_tokens`, {
    name: 'matrix',
    scopes: ['read_api'],
    access_level: 30,
  })
  return { groupToken: Number(token.id) }
}

/** Group access tokens (GitLab's admin_resource_access_tokens on a group): its Owners only, signed in. */
const GROUP_TOKEN_ROWS: readonly MatrixRow[] = authenticatedRows([
  { method: 'GET', path: GROUP_TOKENS, min: 'owner' },
  { method: 'GET', path: `${GROUP_TOKENS}/{groupToken}`, min: 'owner', fixture: groupTokenFixture },
  {
    method: 'POST',
    path: GROUP_TOKENS,
    min: 'owner',
    readBack: GROUP_TOKENS,
    body: { name: 'new', scopes: ['api'], access_level: 30 },
  },
  {
    method: 'POST',
    path: `${GROUP_TOKENS}/{groupToken}/rotate`,
    min: 'owner',
    ok: 200,
    fixture: groupTokenFixture,
    readBack: `${GROUP_TOKENS}/{groupToken}`,
  },
  {
    method: 'DELETE',
    path: `${GROUP_TOKENS}/{groupToken}`,
    min: 'owner',
    fixture: groupTokenFixture,
    readBack: `${GROUP_TOKENS}/{groupToken}`,
  },
])

permissionMatrix('group access tokens', () => world, GROUP_TOKEN_ROWS)

const PROTECTED_TAGS = '/projects/{project}/protected_tags'

/** A newly protected tag name. */
async function protectedTagFixture(w: World, c: Container): Promise<Vars> {
  seq += 1
  const tag = await w.admin<Json>('POST', `/projects/${c.project.id}/protected_tags`, { name: `rc-${seq}-*` })
  return { tag: encodeURIComponent(String(tag.name)) }
}

/** Protected tags (GitLab's admin_project): Maintainers only, signed in. */
const PROTECTED_TAG_ROWS: readonly MatrixRow[] = authenticatedRows([
  { method: 'GET', path: PROTECTED_TAGS, min: 'maintainer' },
  { method: 'GET', path: `${PROTECTED_TAGS}/{tag}`, min: 'maintainer', fixture: protectedTagFixture },
  { method: 'POST', path: PROTECTED_TAGS, min: 'maintainer', body: (_v, u) => ({ name: `new-${u}` }) },
  { method: 'DELETE', path: `${PROTECTED_TAGS}/{tag}`, min: 'maintainer', fixture: protectedTagFixture },
])

permissionMatrix('protected tags', () => world, PROTECTED_TAG_ROWS)
