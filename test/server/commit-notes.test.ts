import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedMember } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

type Json = Record<string, unknown>

const text = (lines: readonly string[]): string => `${lines.join('\n')}\n`
const OLD_LINES = ['one', 'two', 'three', 'four']
// `two` removed (old line 2), `THREE` added after `three` (new line 3).
const NEW_LINES = ['one', 'three', 'THREE', 'four']
// GitLab's refusals of a diff note: a position at no line of the diff, and one at other diff refs than the commit's.
const INCOMPLETE = `400 Bad request - Note {:line_code=>["can't be blank", "must be a valid line code"], :position=>["is incomplete"]}`
const REFS_MISMATCH = `400 Bad request - Note {:commit_id=>["does not match the diff refs"]}`

describe('comments on commits', () => {
  let s: TestServer
  let dev: SeededUser
  let stranger: SeededUser
  let projectId: number
  let base: string
  let parent: string
  let sha: string
  let commitUrl: string

  async function call(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: Json,
    token: string | null = dev.token,
  ) {
    return s.request(token, { method, url, payload })
  }

  async function commit(branch: string, content: string, startBranch?: string, token = dev.token): Promise<string> {
    const res = await call(
      'POST',
      `${base}/repository/commits`,
      {
        branch,
        ...(startBranch ? { start_branch: startBranch } : {}),
        commit_message: `Change ${branch}`,
        actions: [{ action: startBranch ? 'update' : 'create', file_path: 'app.txt', content }],
      },
      token,
    )
    expect(res.statusCode, res.body).toBe(201)
    return res.json().id as string
  }

  /** A position on the commit's own diff (base and start its parent, head the commit). */
  function commitPosition(where: Json): Json {
    return {
      base_sha: parent,
      start_sha: parent,
      head_sha: sha,
      position_type: 'text',
      old_path: 'app.txt',
      new_path: 'app.txt',
      ...where,
    }
  }

  beforeAll(async () => {
    s = await makeServer()
    dev = seedUser(s)
    stranger = seedUser(s)
    const project = (
      await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: '/api/v4/projects',
        payload: { name: 'commitnotes', visibility: 'public' },
      })
    ).json()
    projectId = project.id
    seedMember(s, 'Project', projectId, dev.user.id, AccessLevel.DEVELOPER)
    base = `/api/v4/projects/${projectId}`
    parent = await commit('main', text(OLD_LINES), undefined, ROOT_TOKEN)
    sha = await commit('feature', text(NEW_LINES), 'main')
    commitUrl = `${base}/repository/commits/${sha}`
  })

  afterAll(async () => {
    await s.close()
  })

  describe('POST and GET …/commits/:sha/comments', () => {
    it("comments on the whole commit, in GitLab's CommitNote shape", async () => {
      const res = await call('POST', `${commitUrl}/comments`, { note: 'Nice commit' })
      expect(res.statusCode, res.body).toBe(201)
      const body = res.json()
      expect(body).toEqual({
        note: 'Nice commit',
        path: null,
        line: null,
        line_type: null,
        author: expect.objectContaining({ id: dev.user.id, username: dev.user.username }),
        created_at: expect.any(String),
      })
    })

    it('comments on an added line (line_type new) and on a removed one (line_type old)', async () => {
      const added = await call('POST', `${commitUrl}/comments`, {
        note: 'On the new line',
        path: 'app.txt',
        line: 3,
        line_type: 'new',
      })
      expect(added.statusCode, added.body).toBe(201)
      expect(added.json()).toMatchObject({ note: 'On the new line', path: 'app.txt', line: 3, line_type: 'new' })
      const removed = await call('POST', `${commitUrl}/comments`, {
        note: 'On the removed line',
        path: 'app.txt',
        line: 2,
        line_type: 'old',
      })
      expect(removed.statusCode, removed.body).toBe(201)
      expect(removed.json()).toMatchObject({ path: 'app.txt', line: 2, line_type: 'old' })

      // The line comments are diff threads of the commit, at the commit's own diff refs.
      const discussions = (await call('GET', `${commitUrl}/discussions?per_page=100`)).json() as Json[]
      const onLine = discussions.find((d) => (d.notes as Json[])[0].body === 'On the new line') as Json
      const note = (onLine.notes as Json[])[0]
      expect(onLine.individual_note).toBe(false)
      expect(note).toMatchObject({
        type: 'DiffNote',
        noteable_type: 'Commit',
        resolvable: false,
        position: {
          base_sha: parent,
          start_sha: parent,
          head_sha: sha,
          new_path: 'app.txt',
          new_line: 3,
          old_line: null,
        },
      })
    })

    it('keeps a comment on a line the diff does not have on the whole commit, as GitLab does', async () => {
      for (const where of [
        { path: 'app.txt', line: 1, line_type: 'new' }, // unchanged
        { path: 'app.txt', line: 3, line_type: 'old' }, // no removed line 3
        { path: 'other.txt', line: 1 },
      ]) {
        const res = await call('POST', `${commitUrl}/comments`, { note: 'Nowhere', ...where })
        expect(res.statusCode, res.body).toBe(201)
        expect(res.json()).toMatchObject({ path: null, line: null, line_type: null })
      }
    })

    it('takes a branch or tag name for the commit', async () => {
      const res = await call('POST', `${base}/repository/commits/feature/comments`, { note: 'By branch name' })
      expect(res.statusCode, res.body).toBe(201)
      const list = (await call('GET', `${commitUrl}/comments?per_page=100`)).json() as Json[]
      expect(list.map((c) => c.note)).toContain('By branch name')
    })

    it('lists the comments oldest first, paginated', async () => {
      const all = await call('GET', `${commitUrl}/comments?per_page=100`)
      expect(all.statusCode).toBe(200)
      const notes = (all.json() as Json[]).map((c) => c.note)
      expect(notes[0]).toBe('Nice commit')
      const page = await call('GET', `${commitUrl}/comments?per_page=2&page=2`)
      expect(page.headers['x-total']).toBe(String(notes.length))
      expect((page.json() as Json[]).map((c) => c.note)).toEqual(notes.slice(2, 4))
    })

    it('refuses what GitLab refuses: unknown commits 404, a path without a line 400, anonymous 401, no note 400', async () => {
      const unknown = await call('POST', `${base}/repository/commits/${'e'.repeat(40)}/comments`, { note: 'x' })
      expect(unknown.statusCode).toBe(404)
      expect(unknown.json()).toEqual({ message: '404 Commit Not Found' })
      expect((await call('GET', `${base}/repository/commits/no-such-branch/comments`)).statusCode).toBe(404)
      expect((await call('GET', `${base}/repository/commits/--output=x/comments`)).statusCode).toBe(404)
      const noLine = await call('POST', `${commitUrl}/comments`, { note: 'x', path: 'app.txt' })
      expect(noLine.statusCode).toBe(400)
      expect(noLine.json()).toEqual({ error: 'line is missing' })
      expect((await call('POST', `${commitUrl}/comments`, { note: 'x' }, null)).statusCode).toBe(401)
      expect((await call('POST', `${commitUrl}/comments`, {})).statusCode).toBe(400)
      expect((await call('POST', `${commitUrl}/comments`, { note: '  ' })).statusCode).toBe(400)
      const badType = await call('POST', `${commitUrl}/comments`, {
        note: 'x',
        path: 'app.txt',
        line: 3,
        line_type: 'x',
      })
      expect(badType.statusCode).toBe(400)
    })
  })

  describe('commit discussions', () => {
    it('starts a thread, replies, edits and deletes notes in it', async () => {
      const created = await call('POST', `${commitUrl}/discussions`, { body: 'A thread on the commit' })
      expect(created.statusCode, created.body).toBe(201)
      const discussion = created.json()
      expect(discussion).toMatchObject({
        individual_note: false,
        notes: [{ type: 'DiscussionNote', noteable_type: 'Commit' }],
      })
      const url = `${commitUrl}/discussions/${discussion.id as string}`

      const reply = await call('POST', `${url}/notes`, { body: 'A reply' })
      expect(reply.statusCode, reply.body).toBe(201)
      const replyId = reply.json().id as number
      const edited = await call('PUT', `${url}/notes/${replyId}`, { body: 'An edited reply' })
      expect(edited.statusCode, edited.body).toBe(200)
      expect(edited.json().body).toBe('An edited reply')
      // Only merge request threads are resolvable.
      expect((await call('PUT', url, { resolved: true })).statusCode).toBe(404)

      const shown = (await call('GET', url)).json()
      expect((shown.notes as Json[]).map((n) => n.body)).toEqual(['A thread on the commit', 'An edited reply'])
      // The same thread by branch name.
      expect(
        (await call('GET', `${base}/repository/commits/feature/discussions/${discussion.id as string}`)).json().id,
      ).toBe(discussion.id)

      expect((await call('DELETE', `${url}/notes/${replyId}`)).statusCode).toBe(204)
      expect(((await call('GET', url)).json().notes as Json[]).length).toBe(1)
      // Another user may not edit it.
      const first = (shown.notes as Json[])[0].id as number
      expect((await call('PUT', `${url}/notes/${first}`, { body: 'mine now' }, stranger.token)).statusCode).toBe(403)
    })

    it("starts a diff thread at a position on the commit's diff and refuses positions off it", async () => {
      const created = await call('POST', `${commitUrl}/discussions`, {
        body: 'On line 3',
        position: commitPosition({ new_line: 3 }),
      })
      expect(created.statusCode, created.body).toBe(201)
      expect(created.json().notes[0]).toMatchObject({
        type: 'DiffNote',
        position: { head_sha: sha, base_sha: parent, new_line: 3, old_line: null },
      })
      const comments = (await call('GET', `${commitUrl}/comments?per_page=100`)).json() as Json[]
      expect(comments.find((c) => c.note === 'On line 3')).toMatchObject({ path: 'app.txt', line: 3, line_type: 'new' })

      const before = ((await call('GET', `${commitUrl}/discussions?per_page=100`)).json() as Json[]).length
      const offTheDiff = [
        [commitPosition({ new_line: 30 }), INCOMPLETE], // no such line
        [{ ...commitPosition({ new_line: 3 }), new_path: 'missing.txt', old_path: 'missing.txt' }, INCOMPLETE],
        [commitPosition({ new_line: 3, head_sha: parent }), REFS_MISMATCH], // another commit's refs
        [commitPosition({ new_line: 3, base_sha: sha }), REFS_MISMATCH],
        [commitPosition({ new_line: 3, start_sha: sha }), REFS_MISMATCH],
      ] as const
      for (const [position, message] of offTheDiff) {
        const res = await call('POST', `${commitUrl}/discussions`, { body: 'Off the diff', position })
        expect(res.statusCode, res.body).toBe(400)
        expect(res.json(), JSON.stringify(position)).toEqual({ message })
      }
      expect(((await call('GET', `${commitUrl}/discussions?per_page=100`)).json() as Json[]).length).toBe(before)
    })

    it("takes a line thread on a root commit at GitLab's diff refs for it (base and start the blank SHA), and no other base", async () => {
      // `parent` is the repository's first commit: it adds app.txt, so all its lines are new.
      const rootUrl = `${base}/repository/commits/${parent}`
      const blank = '0'.repeat(40)
      const onRoot = (where: Json): Json => ({ ...commitPosition(where), head_sha: parent })
      const created = await call('POST', `${rootUrl}/discussions`, {
        body: 'On the first line of the first commit',
        position: onRoot({ base_sha: blank, start_sha: blank, new_line: 1 }),
      })
      expect(created.statusCode, created.body).toBe(201)
      expect(created.json().notes[0]).toMatchObject({
        type: 'DiffNote',
        noteable_type: 'Commit',
        position: { base_sha: blank, start_sha: blank, head_sha: parent, new_path: 'app.txt', new_line: 1 },
      })
      const comments = (await call('GET', `${rootUrl}/comments?per_page=100`)).json() as Json[]
      expect(comments.find((c) => c.note === 'On the first line of the first commit')).toMatchObject({
        path: 'app.txt',
        line: 1,
        line_type: 'new',
      })

      // GitLab checks the position's refs against the commit's: the empty tree, the commit itself or no base are not them.
      const emptyTree = '4b825dc642cb6eb9a060e54bf8d69288fbee4904'
      const before = ((await call('GET', `${rootUrl}/discussions?per_page=100`)).json() as Json[]).length
      for (const [position, message] of [
        [onRoot({ base_sha: emptyTree, start_sha: emptyTree, new_line: 1 }), REFS_MISMATCH],
        [onRoot({ base_sha: parent, start_sha: parent, new_line: 1 }), REFS_MISMATCH],
        [onRoot({ base_sha: undefined, start_sha: undefined, new_line: 1 }), undefined],
        [onRoot({ base_sha: blank, start_sha: blank, new_line: 9 }), INCOMPLETE], // no such line
      ] as const) {
        const res = await call('POST', `${rootUrl}/discussions`, { body: 'Off the diff', position })
        expect(res.statusCode, res.body).toBe(400)
        const refusal = res.json() as Json
        expect(refusal.message ?? refusal.error, 'a GitLab-style refusal').toEqual(message ?? expect.any(String))
      }
      expect(((await call('GET', `${rootUrl}/discussions?per_page=100`)).json() as Json[]).length).toBe(before)
    })

    it('404s an unknown commit or discussion', async () => {
      expect((await call('GET', `${base}/repository/commits/${'e'.repeat(40)}/discussions`)).statusCode).toBe(404)
      expect((await call('GET', `${commitUrl}/discussions/${'a'.repeat(40)}`)).statusCode).toBe(404)
    })
  })

  describe('merge request threads on one of its commits', () => {
    let mrUrl: string

    beforeAll(async () => {
      // A second commit: the merge request's diff is no longer the first commit's.
      await commit('feature', text([...NEW_LINES, 'five']), 'feature')
      const mr = await call('POST', `${base}/merge_requests`, {
        source_branch: 'feature',
        target_branch: 'main',
        title: 'Feature',
      })
      expect(mr.statusCode, mr.body).toBe(201)
      mrUrl = `${base}/merge_requests/${mr.json().iid as number}`
    })

    it("takes a position on the commit's diff with its commit_id and shows the commit_id", async () => {
      const res = await call('POST', `${mrUrl}/discussions`, {
        body: 'On this commit',
        commit_id: sha,
        position: commitPosition({ old_line: 2 }),
      })
      expect(res.statusCode, res.body).toBe(201)
      expect(res.json().notes[0]).toMatchObject({
        type: 'DiffNote',
        commit_id: sha,
        noteable_type: 'MergeRequest',
        position: { head_sha: sha, old_line: 2, new_line: null },
      })
    })

    it('takes a draft positioned on one of its commits with commit_id, and publishes it there', async () => {
      const refused = await call('POST', `${mrUrl}/draft_notes`, {
        note: 'Draft without its commit',
        position: commitPosition({ new_line: 3 }),
      })
      expect(refused.statusCode, refused.body).toBe(400)
      const draft = await call('POST', `${mrUrl}/draft_notes`, {
        note: 'Draft on the commit',
        commit_id: sha,
        position: commitPosition({ new_line: 3 }),
      })
      expect(draft.statusCode, draft.body).toBe(201)
      expect(draft.json()).toMatchObject({ commit_id: sha, position: { head_sha: sha, new_line: 3 } })
      const published = await call('POST', `${mrUrl}/draft_notes/bulk_publish`)
      expect(published.statusCode, published.body).toBe(204)
      const notes = ((await call('GET', `${mrUrl}/discussions?per_page=100`)).json() as Json[]).flatMap(
        (d) => d.notes as Json[],
      )
      expect(notes.find((n) => n.body === 'Draft on the commit')).toMatchObject({
        type: 'DiffNote',
        commit_id: sha,
        position: { head_sha: sha, base_sha: parent, new_line: 3 },
      })
    })

    it("refuses a commit that is not the merge request's, and a commit position without commit_id", async () => {
      const before = ((await call('GET', `${mrUrl}/discussions?per_page=100`)).json() as Json[]).length
      const foreign = await call('POST', `${mrUrl}/discussions`, {
        body: 'Not its commit',
        commit_id: parent,
        position: { ...commitPosition({ new_line: 1 }), head_sha: parent },
      })
      expect(foreign.statusCode, foreign.body).toBe(400)
      const noCommit = await call('POST', `${mrUrl}/discussions`, {
        body: 'No commit_id',
        position: commitPosition({ old_line: 2 }),
      })
      expect(noCommit.statusCode, noCommit.body).toBe(400)
      const offTheCommit = await call('POST', `${mrUrl}/discussions`, {
        body: 'Line of the later commit',
        commit_id: sha,
        position: commitPosition({ new_line: 5 }),
      })
      expect(offTheCommit.statusCode, offTheCommit.body).toBe(400)
      const otherRefs = await call('POST', `${mrUrl}/discussions`, {
        body: "At refs that are not the commit's",
        commit_id: sha,
        position: commitPosition({ new_line: 3, base_sha: sha, start_sha: sha }),
      })
      expect(otherRefs.statusCode, otherRefs.body).toBe(400)
      expect(otherRefs.json()).toEqual({ message: REFS_MISMATCH })
      expect(((await call('GET', `${mrUrl}/discussions?per_page=100`)).json() as Json[]).length).toBe(before)
    })
  })

  describe("comments on a merge request's commits in its discussions", () => {
    it('lists the comments of its commits with its threads, not those of other commits, and shows them by id', async () => {
      const mrUrl = `${base}/merge_requests/1`
      const before = await call('GET', `${mrUrl}/discussions?per_page=100`)
      const onCommit = await call('POST', `${commitUrl}/comments`, { note: 'Seen from the merge request' })
      expect(onCommit.statusCode).toBe(201)
      const onMain = await call('POST', `${base}/repository/commits/${parent}/comments`, { note: 'Not in the MR' })
      expect(onMain.statusCode).toBe(201)

      const after = await call('GET', `${mrUrl}/discussions?per_page=100`)
      expect(Number(after.headers['x-total'])).toBe(Number(before.headers['x-total']) + 1)
      const threads = after.json() as Json[]
      const notes = threads.flatMap((d) => d.notes as Json[])
      expect(notes.map((n) => n.body)).not.toContain('Not in the MR')
      const thread = threads.find((d) => (d.notes as Json[])[0].body === 'Seen from the merge request') as Json
      expect((thread.notes as Json[])[0]).toMatchObject({ noteable_type: 'Commit', noteable_iid: null })
      // Its own threads are still there, with the merge request's iid.
      expect(notes.find((n) => n.body === 'On this commit')).toMatchObject({
        noteable_type: 'MergeRequest',
        noteable_iid: 1,
      })

      const shown = await call('GET', `${mrUrl}/discussions/${thread.id as string}`)
      expect(shown.statusCode, shown.body).toBe(200)
      // Answered on the commit, not through the merge request.
      expect((await call('POST', `${mrUrl}/discussions/${thread.id as string}/notes`, { body: 'x' })).statusCode).toBe(
        404,
      )
      expect((await call('GET', `${mrUrl}/notes?per_page=100`)).body).not.toContain('Seen from the merge request')
    })
  })

  describe('visibility', () => {
    /** A project where the developer is a Developer, with one commit on main: its API URL and the commit's. */
    async function projectWithCommit(name: string, visibility: 'public' | 'private') {
      const project = (await call('POST', '/api/v4/projects', { name, visibility }, ROOT_TOKEN)).json()
      seedMember(s, 'Project', project.id, dev.user.id, AccessLevel.DEVELOPER)
      const url = `/api/v4/projects/${project.id as number}`
      const made = await call(
        'POST',
        `${url}/repository/commits`,
        { branch: 'main', commit_message: 'First', actions: [{ action: 'create', file_path: 'a.txt', content: 'a' }] },
        ROOT_TOKEN,
      )
      return { url, commitUrl: `${url}/repository/commits/${made.json().id as string}` }
    }

    it('hides comments of a members-only repository from others: the endpoints, events and search', async () => {
      const { url, commitUrl: limitedUrl } = await projectWithCommit('limited-code', 'public')
      expect((await call('POST', `${limitedUrl}/comments`, { note: 'SECRET-commit-comment' })).statusCode).toBe(201)
      const thread = await call('POST', `${limitedUrl}/discussions`, { body: 'SECRET-commit-thread' })
      expect(thread.statusCode).toBe(201)

      // Readable while the repository is public.
      const search = `${url}/search?scope=notes&search=SECRET-commit`
      expect(((await call('GET', search, undefined, stranger.token)).json() as Json[]).length).toBe(2)
      expect((await call('GET', `${url}/events`, undefined, stranger.token)).body).toContain('SECRET-commit-comment')

      const limited = await call(
        'PUT',
        url,
        { repository_access_level: 'private', merge_requests_access_level: 'private', builds_access_level: 'private' },
        ROOT_TOKEN,
      )
      expect(limited.statusCode, limited.body).toBe(200)
      for (const token of [stranger.token, null]) {
        expect((await call('GET', `${limitedUrl}/comments`, undefined, token)).statusCode).toBe(403)
        expect((await call('GET', `${limitedUrl}/discussions`, undefined, token)).statusCode).toBe(403)
        expect((await call('POST', `${limitedUrl}/discussions`, { body: 'x' }, token)).statusCode).toBe(
          token ? 403 : 401,
        )
        expect((await call('GET', `${url}/events`, undefined, token)).body).not.toContain('SECRET-commit')
        expect((await call('GET', `/api/v4/users/${dev.user.id}/events`, undefined, token)).body).not.toContain(
          'SECRET-commit',
        )
        expect(await call('GET', search, undefined, token).then((r) => r.json())).toEqual([])
      }
      // Members with the code still read them everywhere.
      expect(((await call('GET', `${limitedUrl}/comments`)).json() as Json[]).map((c) => c.note)).toEqual([
        'SECRET-commit-comment',
        'SECRET-commit-thread',
      ])
      expect(((await call('GET', search)).json() as Json[]).length).toBe(2)
      expect((await call('GET', `${url}/events`)).body).toContain('SECRET-commit-comment')
    })

    it('404s the comments of a private project for non-members', async () => {
      const { commitUrl: privateUrl } = await projectWithCommit('private-code', 'private')
      expect((await call('POST', `${privateUrl}/comments`, { note: 'Private' }, ROOT_TOKEN)).statusCode).toBe(201)
      const res = await call('GET', `${privateUrl}/comments`, undefined, stranger.token)
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: '404 Project Not Found' })
      expect((await call('GET', `${privateUrl}/discussions`, undefined, stranger.token)).statusCode).toBe(404)
      expect((await call('POST', `${privateUrl}/comments`, { note: 'x' }, stranger.token)).statusCode).toBe(404)
    })
  })
})
