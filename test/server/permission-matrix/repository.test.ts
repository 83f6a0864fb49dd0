import { afterAll, beforeAll } from 'vitest'
import { mergeabilityIdle } from '../../../src/server/modules/merge-requests/mergeability'
import type { Visibility } from '../../../src/server/platform/db/rows'
import { projectGitDir } from '../../../src/server/platform/git/project-repo'
import { importBranches, type BranchPlan } from '../../helpers/git'
import { authenticatedRows, permissionMatrix, type MatrixRow, type Role, type Vars } from './matrix'
import { buildWorld, VISIBILITIES, type Container, type Json, type World } from './world'

let world: World
/** Per container: the commits, branch, tag and merge request the reads look at. */
const standing = {} as Record<Visibility, Vars>
let seq = 0
/** Who the branches made ahead are by: the administrator, as the commit API would record them. */
let administrator: { name: string; email: string }

async function commit(w: World, c: Container, branch: string, path: string, extra: Json = {}): Promise<string> {
  const result = await w.admin<Json>('POST', `/projects/${c.project.id}/repository/commits`, {
    branch,
    commit_message: `Add ${path}`,
    actions: [{ action: 'create', file_path: path, content: `${path}\n` }],
    ...extra,
  })
  return String(result.id)
}

/** Per container and kind: branches made ahead for the fixtures that consume one. */
const spare = { plain: {}, withFile: {} } as Record<'plain' | 'withFile', Partial<Record<Visibility, Vars[]>>>
const SPARE_BATCH = 12

/**
 * A branch made ahead off main (as main stood when its batch was made): one commit adding
 * `<branch>.txt` and, `withFile`, a second one adding `fresh-file-<n>.txt`. They are written in batches by one `git fast-import` into the project's
 * repository (see importBranches), where a commit API call each cost some twenty git processes:
 * the rows test what is done to the branch, not how it was pushed.
 */
async function spareBranch(w: World, c: Container, kind: 'plain' | 'withFile'): Promise<Vars> {
  const pool = (spare[kind][c.visibility] ??= [])
  if (pool.length === 0) {
    const plans: BranchPlan[] = []
    for (let i = 0; i < SPARE_BATCH; i += 1) {
      seq += 1
      const branch = `fresh-${seq}`
      const file = `fresh-file-${seq}.txt`
      const commits = [{ message: `Add ${branch}.txt`, files: { [`${branch}.txt`]: `${branch}.txt\n` } }]
      if (kind === 'withFile') commits.push({ message: `Add ${file}`, files: { [file]: `${file}\n` } })
      plans.push({ name: branch, commits })
      pool.push(kind === 'withFile' ? { branch, file } : { branch })
    }
    const gitDir = projectGitDir(w.server.app.burrow, c.project)
    await importBranches(gitDir, 'refs/heads/main', plans, administrator)
  }
  return pool.shift() as Vars
}

/** A new branch off main with one commit of its own. */
const branchFixture = (w: World, c: Container): Promise<Vars> => spareBranch(w, c, 'plain')

/**
 * Waits (bounded) for the merge request's asynchronous mergeability check: settling it moves
 * updated_at, which would otherwise look like a change made by a refused write. The server says
 * when its checks are done (reading the merge request may queue one more, hence the loop), rather
 * than being polled every few milliseconds.
 */
async function mergeabilitySettled(w: World, c: Container, iid: number): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    await mergeabilityIdle(w.server.app.burrow)
    const mr = await w.admin<Json>('GET', `/projects/${c.project.id}/merge_requests/${iid}`)
    if (mr.merge_status === 'can_be_merged' || mr.merge_status === 'cannot_be_merged') return
  }
  throw new Error(`merge request !${iid} never settled its mergeability`)
}

/** A new merge request by the administrator from a new branch. */
/** A new branch at main's head: a ref is all that deleting or protecting a branch needs. */
async function refFixture(w: World, c: Container): Promise<Vars> {
  seq += 1
  await w.admin('POST', `/projects/${c.project.id}/repository/branches`, { branch: `ref-${seq}`, ref: 'main' })
  return { branch: `ref-${seq}` }
}

async function mergeRequestFixture(w: World, c: Container): Promise<Vars> {
  const { branch } = await branchFixture(w, c)
  const mr = await w.admin<Json>('POST', `/projects/${c.project.id}/merge_requests`, {
    source_branch: branch,
    target_branch: 'main',
    title: `Merge ${branch}`,
  })
  const note = await w.admin<Json>('POST', `/projects/${c.project.id}/merge_requests/${mr.iid}/notes`, {
    body: 'Matrix review note',
  })
  await mergeabilitySettled(w, c, Number(mr.iid))
  const [version] = await w.admin<Json[]>('GET', `/projects/${c.project.id}/merge_requests/${mr.iid}/versions`)
  return { mr: Number(mr.iid), note: Number(note.id), branch, version: Number(version.id) }
}

/** A diff note position on the one line the merge request's branch adds (`<branch>.txt`). */
async function positionFixture(w: World, c: Container): Promise<Vars> {
  const vars = standing[c.visibility]
  const mr = await w.admin<Json>('GET', `/projects/${c.project.id}/merge_requests/${vars.mr}`)
  const refs = mr.diff_refs as Json
  return { ...vars, base: String(refs.base_sha), start: String(refs.start_sha), head: String(refs.head_sha) }
}

async function tagFixture(w: World, c: Container): Promise<Vars> {
  seq += 1
  await w.admin('POST', `/projects/${c.project.id}/repository/tags`, { tag_name: `fresh-${seq}`, ref: 'main' })
  return { tag: `fresh-${seq}` }
}

/** A file on a new branch (main is protected: only Maintainers push there). */
const fileFixture = (w: World, c: Container): Promise<Vars> => spareBranch(w, c, 'withFile')

async function protectedBranchFixture(w: World, c: Container): Promise<Vars> {
  const { branch } = await refFixture(w, c)
  await w.admin('POST', `/projects/${c.project.id}/protected_branches`, { name: branch })
  return { branch }
}

/** A merge request set to merge when its pipeline succeeds (what cancelling needs), written to its row. */
async function autoMergeFixture(w: World, c: Container): Promise<Vars> {
  const vars = await mergeRequestFixture(w, c)
  w.server.app.burrow.db
    .prepare('UPDATE merge_requests SET merge_when_pipeline_succeeds = 1 WHERE project_id = ? AND iid = ?')
    .run(c.project.id, vars.mr)
  return vars
}

/** A merge request with a thread opened by the administrator. */
async function threadFixture(w: World, c: Container): Promise<Vars> {
  const vars = await mergeRequestFixture(w, c)
  const thread = await w.admin<Json>('POST', `/projects/${c.project.id}/merge_requests/${vars.mr}/discussions`, {
    body: 'Please look',
  })
  return { ...vars, discussion: String(thread.id) }
}

beforeAll(async () => {
  world = await buildWorld()
  const root = await world.admin<Json>('GET', '/user')
  administrator = { name: String(root.name), email: String(root.email) }
  for (const visibility of VISIBILITIES) {
    const c = world.containers[visibility]
    const sha = await commit(world, c, 'main', 'README.md')
    await commit(world, c, 'feature', 'feature.txt', { start_branch: 'main' })
    await world.admin('POST', `/projects/${c.project.id}/repository/tags`, { tag_name: 'v1.0.0', ref: 'main' })
    await world.admin('POST', `/projects/${c.project.id}/protected_branches`, { name: 'main' })
    const tree = await world.admin<Json[]>('GET', `/projects/${c.project.id}/repository/tree`)
    const blob = String(tree.find((e) => e.name === 'README.md')?.id)
    standing[visibility] = { sha, blob, ...(await mergeRequestFixture(world, c)) }
  }
})
afterAll(async () => world.close())

const standingFixture = async (_w: World, c: Container): Promise<Vars> => standing[c.visibility]

/**
 * Reading code (GitLab's read_code / download_code): whoever sees a public or internal project,
 * Reporters and up on a private one; a Guest of a private project is refused with 403.
 */
const READ_CODE: Readonly<Record<Visibility, Role>> = { private: 'reporter', internal: 'signedIn', public: 'anyone' }
const REPO = '/projects/{project}/repository'

const REPOSITORY_READS: readonly MatrixRow[] = [
  { method: 'GET', path: `${REPO}/tree`, min: READ_CODE },
  { method: 'GET', path: `${REPO}/blobs/{blob}`, min: READ_CODE, fixture: standingFixture },
  { method: 'GET', path: `${REPO}/blobs/{blob}/raw`, min: READ_CODE, fixture: standingFixture },
  { method: 'GET', path: `${REPO}/archive`, min: READ_CODE },
  { method: 'GET', path: `${REPO}/archive.zip`, min: READ_CODE },
  { method: 'GET', path: `${REPO}/compare?from=main&to=feature`, min: READ_CODE },
  { method: 'GET', path: `${REPO}/contributors`, min: READ_CODE },
  { method: 'GET', path: `${REPO}/merge_base?refs[]=main&refs[]=feature`, min: READ_CODE },
  { method: 'GET', path: `${REPO}/commits`, min: READ_CODE },
  { method: 'GET', path: `${REPO}/commits/{sha}`, min: READ_CODE, fixture: standingFixture },
  { method: 'GET', path: `${REPO}/commits/{sha}/diff`, min: READ_CODE, fixture: standingFixture },
  { method: 'GET', path: `${REPO}/commits/{sha}/refs`, min: READ_CODE, fixture: standingFixture },
  { method: 'GET', path: `${REPO}/commits/{sha}/sequence`, min: READ_CODE, fixture: standingFixture },
  {
    method: 'GET',
    path: `${REPO}/commits/{sha}/merge_requests`,
    min: READ_CODE,
    authenticated: true,
    fixture: standingFixture,
  },
  { method: 'GET', path: `${REPO}/files/README.md?ref=main`, min: READ_CODE },
  { method: 'GET', path: `${REPO}/files/README.md/raw?ref=main`, min: READ_CODE },
  { method: 'GET', path: `${REPO}/branches`, min: READ_CODE },
  { method: 'GET', path: `${REPO}/branches/main`, min: READ_CODE },
  { method: 'GET', path: `${REPO}/tags`, min: READ_CODE },
  { method: 'GET', path: `${REPO}/tags/v1.0.0`, min: READ_CODE },
  // Protected branch rules are shown to members only (GitLab's read_protected_branch is a member ability).
  { method: 'GET', path: '/projects/{project}/protected_branches', min: 'guest' },
  { method: 'GET', path: '/projects/{project}/protected_branches/main', min: 'guest' },
]

/** Pushing code (branches, tags, commits, files) is a Developer right; protecting branches a Maintainer one. */
const REPOSITORY_WRITES: readonly MatrixRow[] = [
  {
    method: 'POST',
    path: `${REPO}/branches`,
    min: 'developer',
    body: (_v, u) => ({ branch: `new-${u}`, ref: 'main' }),
  },
  { method: 'DELETE', path: `${REPO}/branches/{branch}`, min: 'developer', fixture: refFixture },
  { method: 'DELETE', path: `${REPO}/merged_branches`, min: 'developer', ok: 202, readBack: `${REPO}/branches` },
  { method: 'POST', path: `${REPO}/tags`, min: 'developer', body: (_v, u) => ({ tag_name: `tag-${u}`, ref: 'main' }) },
  { method: 'DELETE', path: `${REPO}/tags/{tag}`, min: 'developer', fixture: tagFixture },
  {
    method: 'POST',
    path: `${REPO}/commits`,
    min: 'developer',
    readBack: `${REPO}/commits`,
    fixture: branchFixture,
    body: (v, u) => ({
      branch: v.branch,
      commit_message: 'matrix',
      actions: [{ action: 'create', file_path: `${u}.txt`, content: 'x' }],
    }),
  },
  {
    method: 'POST',
    path: `${REPO}/files/{file}`,
    min: 'developer',
    readBack: `${REPO}/tree?ref={branch}`,
    fixture: async (w, c) => {
      const vars = await branchFixture(w, c)
      return { ...vars, file: `new-${vars.branch}.txt` }
    },
    body: (v) => ({ branch: v.branch, content: 'new', commit_message: 'matrix' }),
  },
  {
    method: 'PUT',
    path: `${REPO}/files/{file}`,
    min: 'developer',
    fixture: fileFixture,
    readBack: `${REPO}/files/{file}?ref={branch}`,
    body: (v) => ({ branch: v.branch, content: 'changed', commit_message: 'matrix' }),
  },
  {
    method: 'DELETE',
    path: `${REPO}/files/{file}`,
    min: 'developer',
    fixture: fileFixture,
    readBack: `${REPO}/files/{file}?ref={branch}`,
    body: (v) => ({ branch: v.branch, commit_message: 'matrix' }),
  },
  {
    method: 'POST',
    path: '/projects/{project}/protected_branches',
    min: 'maintainer',
    fixture: refFixture,
    body: (v) => ({ name: v.branch }),
  },
  {
    method: 'PATCH',
    path: '/projects/{project}/protected_branches/{branch}',
    min: 'maintainer',
    fixture: protectedBranchFixture,
    body: { allow_force_push: true },
  },
  {
    method: 'DELETE',
    path: '/projects/{project}/protected_branches/{branch}',
    min: 'maintainer',
    fixture: protectedBranchFixture,
  },
]

/**
 * Commenting, reacting and subscribing: signed-in readers; on a private project, those who read code.
 * Writes that leave a merge request usable (comments, reactions, to-dos, time, approval) act
 * on the container's standing one; the others on a fresh one each.
 */
const PARTICIPATE: Readonly<Record<Visibility, Role>> = {
  private: 'reporter',
  internal: 'signedIn',
  public: 'signedIn',
}

/**
 * Merge requests: read like code (Reporters on private projects), opened and edited by Developers,
 * merged by whoever may push to the target (main is protected: Maintainers), deleted by Owners.
 * Every call is authenticated (the spec), and the notes and resource event APIs look the merge
 * request up through a finder that hides it from a private project's Guest (404 Merge Request Not Found).
 */
const MR = '/projects/{project}/merge_requests/{mr}'
const MERGE_REQUESTS: readonly MatrixRow[] = authenticatedRows([
  { method: 'GET', path: '/projects/{project}/merge_requests', min: READ_CODE },
  { method: 'GET', path: MR, min: READ_CODE, fixture: standingFixture },
  { method: 'GET', path: `${MR}/changes`, min: READ_CODE, fixture: standingFixture },
  { method: 'GET', path: `${MR}/diffs`, min: READ_CODE, fixture: standingFixture },
  { method: 'GET', path: `${MR}/commits`, min: READ_CODE, fixture: standingFixture },
  { method: 'GET', path: `${MR}/participants`, min: READ_CODE, fixture: standingFixture },
  { method: 'GET', path: `${MR}/reviewers`, min: READ_CODE, fixture: standingFixture },
  { method: 'GET', path: `${MR}/versions`, min: READ_CODE, fixture: standingFixture },
  { method: 'GET', path: `${MR}/versions/{version}`, min: READ_CODE, fixture: standingFixture },
  { method: 'GET', path: `${MR}/approvals`, min: READ_CODE, fixture: standingFixture },
  { method: 'GET', path: `${MR}/approval_state`, min: READ_CODE, fixture: standingFixture },
  { method: 'GET', path: `${MR}/closes_issues`, min: READ_CODE, fixture: standingFixture },
  { method: 'GET', path: `${MR}/pipelines`, min: READ_CODE, fixture: standingFixture },
  { method: 'GET', path: `${MR}/time_stats`, min: READ_CODE, fixture: standingFixture },
  { method: 'GET', path: `${MR}/notes`, min: READ_CODE, fixture: standingFixture, refusal: 404 },
  { method: 'GET', path: `${MR}/discussions`, min: READ_CODE, fixture: standingFixture, refusal: 404 },
  { method: 'GET', path: `${MR}/award_emoji`, min: READ_CODE, fixture: standingFixture },
  { method: 'GET', path: `${MR}/resource_label_events`, min: READ_CODE, fixture: standingFixture, refusal: 404 },
  { method: 'GET', path: `${MR}/resource_state_events`, min: READ_CODE, fixture: standingFixture, refusal: 404 },
  { method: 'GET', path: `${MR}/merge_ref`, min: 'developer', readable: READ_CODE, fixture: standingFixture },
  {
    method: 'POST',
    path: '/projects/{project}/merge_requests',
    min: 'developer',
    fixture: branchFixture,
    body: (v) => ({ source_branch: v.branch, target_branch: 'main', title: 'From the matrix' }),
  },
  { method: 'PUT', path: MR, min: 'developer', fixture: mergeRequestFixture, body: { title: 'Renamed by the matrix' } },
  { method: 'DELETE', path: MR, min: 'owner', fixture: mergeRequestFixture },
  {
    method: 'PUT',
    path: `${MR}/merge`,
    min: 'maintainer',
    readable: READ_CODE,
    refusal: 401,
    fixture: mergeRequestFixture,
    readBack: MR,
    why: "GitLab answers 401 to a caller who cannot merge (can_be_merged_by?), as the spec's 401 for merge actions",
  },
  {
    method: 'POST',
    path: `${MR}/approve`,
    min: 'developer',
    readable: READ_CODE,
    refusal: 401,
    fixture: standingFixture,
    readBack: `${MR}/approvals`,
    why: 'GitLab answers 401 when the approval service refuses the caller',
  },
  {
    method: 'PUT',
    path: `${MR}/rebase`,
    min: 'developer',
    readable: READ_CODE,
    ok: 202,
    fixture: mergeRequestFixture,
    readBack: MR,
  },
  {
    method: 'POST',
    path: `${MR}/cancel_merge_when_pipeline_succeeds`,
    min: 'developer',
    readable: READ_CODE,
    refusal: 401,
    fixture: autoMergeFixture,
    readBack: MR,
    why: 'the spec: 401 when cancelling merge-on-pipeline without permission',
  },
  {
    method: 'PUT',
    path: `${MR}/discussions/{discussion}`,
    min: 'developer',
    readable: READ_CODE,
    unreadable: 404,
    refusal: 403,
    fixture: threadFixture,
    body: { resolved: true },
    why: 'resolving a thread is for Developers (and the merge request author)',
  },
  {
    method: 'POST',
    path: `${MR}/notes`,
    min: PARTICIPATE,
    refusal: 404,
    fixture: standingFixture,
    body: { body: 'Looks good' },
  },
  {
    method: 'POST',
    path: `${MR}/discussions`,
    min: PARTICIPATE,
    refusal: 404,
    fixture: standingFixture,
    body: { body: 'A thread' },
  },
  {
    method: 'POST',
    path: `${MR}/discussions`,
    min: PARTICIPATE,
    refusal: 404,
    fixture: positionFixture,
    body: (v) => ({
      body: 'On a line',
      position: {
        base_sha: v.base,
        start_sha: v.start,
        head_sha: v.head,
        position_type: 'text',
        old_path: `${v.branch}.txt`,
        new_path: `${v.branch}.txt`,
        new_line: 1,
      },
    }),
  },
  {
    method: 'DELETE',
    path: `${MR}/notes/{note}`,
    min: 'maintainer',
    readable: READ_CODE,
    unreadable: 404,
    fixture: mergeRequestFixture,
  },
  { method: 'POST', path: `${MR}/award_emoji`, min: PARTICIPATE, fixture: standingFixture, body: { name: 'tada' } },
  // Fresh: commenting on the standing one has already subscribed its commenters.
  { method: 'POST', path: `${MR}/subscribe`, min: PARTICIPATE, fixture: mergeRequestFixture, readBack: MR },
  { method: 'POST', path: `${MR}/todo`, min: PARTICIPATE, fixture: standingFixture, readBack: MR },
  {
    method: 'POST',
    path: `${MR}/time_estimate`,
    min: 'developer',
    ok: 200,
    fixture: standingFixture,
    body: { duration: '1h' },
    readBack: `${MR}/time_stats`,
  },
  {
    method: 'POST',
    path: `${MR}/add_spent_time`,
    min: 'developer',
    fixture: standingFixture,
    body: { duration: '1h' },
    readBack: `${MR}/time_stats`,
  },
  {
    method: 'POST',
    path: `${MR}/reset_spent_time`,
    min: 'developer',
    ok: 200,
    fixture: standingFixture,
    readBack: `${MR}/time_stats`,
  },
  {
    method: 'POST',
    path: `${MR}/reset_time_estimate`,
    min: 'developer',
    ok: 200,
    fixture: standingFixture,
    readBack: `${MR}/time_stats`,
  },
])

/** The standing merge request with a draft the administrator wrote. */
async function draftFixture(w: World, c: Container): Promise<Vars> {
  const vars = standing[c.visibility]
  const draft = await w.admin<Json>('POST', `/projects/${c.project.id}/merge_requests/${vars.mr}/draft_notes`, {
    note: 'Pending matrix review',
  })
  return { ...vars, draft: Number(draft.id) }
}

/**
 * Draft notes: written by whoever may comment (GitLab's create_note), and each draft its author's
 * alone. The administrator wrote the fixture's draft, so every other caller, a Maintainer or the
 * Owner included, meets 404 Draft Note Not Found, as GitLab's finder scoped to the author answers.
 */
const DRAFT = `${MR}/draft_notes/{draft}`
const AUTHOR_ONLY = "a draft is its author's alone (the administrator wrote it): 404 to everybody else"
const DRAFT_NOTES: readonly MatrixRow[] = authenticatedRows([
  { method: 'GET', path: `${MR}/draft_notes`, min: READ_CODE, refusal: 404, fixture: standingFixture },
  {
    method: 'POST',
    path: `${MR}/draft_notes`,
    min: PARTICIPATE,
    refusal: 404,
    fixture: standingFixture,
    body: { note: 'A pending comment' },
  },
  {
    method: 'POST',
    path: `${MR}/draft_notes/bulk_publish`,
    min: PARTICIPATE,
    refusal: 404,
    ok: 204,
    fixture: standingFixture,
    readBack: `${MR}/discussions`,
  },
  { method: 'GET', path: DRAFT, min: 'admin', refusal: 404, fixture: draftFixture, why: AUTHOR_ONLY },
  {
    method: 'PUT',
    path: DRAFT,
    min: 'admin',
    refusal: 404,
    fixture: draftFixture,
    body: { note: 'Reworded by the matrix' },
    why: AUTHOR_ONLY,
  },
  { method: 'DELETE', path: DRAFT, min: 'admin', refusal: 404, fixture: draftFixture, why: AUTHOR_ONLY },
  {
    method: 'PUT',
    path: `${DRAFT}/publish`,
    min: 'admin',
    refusal: 404,
    ok: 204,
    fixture: draftFixture,
    readBack: DRAFT,
    why: AUTHOR_ONLY,
  },
])

permissionMatrix('repository reads', () => world, REPOSITORY_READS)
permissionMatrix('repository writes', () => world, REPOSITORY_WRITES)
permissionMatrix('merge requests', () => world, MERGE_REQUESTS)
permissionMatrix('draft notes', () => world, DRAFT_NOTES)
