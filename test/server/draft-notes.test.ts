import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedMember } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>

describe('draft notes (a merge request review)', () => {
  let s: ListeningServer
  let projectId: number
  let reviewer: SeededUser
  let maintainer: SeededUser
  let colleague: SeededUser
  let outsider: SeededUser
  let mrIid = 0

  const call = (token: string | null, method: string, url: string, payload?: Json) =>
    s.request(token, {
      method: method as 'GET',
      url: `/api/v4/projects/${projectId}${url}`,
      ...(payload ? { payload } : {}),
    })
  const drafts = (iid: number) => `/merge_requests/${iid}/draft_notes`
  const json = async <T = Json>(token: string, method: string, url: string, payload?: Json, status = 200) => {
    const res = await call(token, method, url, payload)
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status)
    return res.json() as T
  }
  /** A GET below /api/v4 (not below the project). */
  const read = async <T = Json>(token: string, url: string): Promise<T> => {
    const res = await s.request(token, { method: 'GET', url: `/api/v4${url}` })
    expect(res.statusCode, `GET ${url}: ${res.body}`).toBe(200)
    return res.json() as T
  }
  const createDraft = (token: string, iid: number, payload: Json) => json(token, 'POST', drafts(iid), payload, 201)
  const discussions = (iid: number) => json<Json[]>(ROOT_TOKEN, 'GET', `/merge_requests/${iid}/discussions`)
  const bodies = async (iid: number) =>
    (await discussions(iid))
      .map((d) => (d.notes as Json[]).filter((n) => !n.system).map((n) => n.body))
      .filter((thread) => thread.length > 0)

  /** A fresh merge request from a new branch, so each test reads its own notes. */
  const newMergeRequest = async (): Promise<number> => {
    mrIid += 1
    const branch = `topic-${mrIid}`
    await json(
      ROOT_TOKEN,
      'POST',
      '/repository/commits',
      {
        branch,
        start_branch: 'main',
        commit_message: `Change ${mrIid}`,
        actions: [{ action: 'create', file_path: `${branch}.txt`, content: 'one\ntwo\n' }],
      },
      201,
    )
    const mr = await json(
      maintainer.token,
      'POST',
      '/merge_requests',
      { source_branch: branch, target_branch: 'main', title: `Change ${mrIid}` },
      201,
    )
    return mr.iid as number
  }

  beforeAll(async () => {
    s = await startServer()
    reviewer = seedUser(s)
    maintainer = seedUser(s)
    colleague = seedUser(s)
    outsider = seedUser(s)
    const project = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: '/api/v4/projects',
      payload: { name: 'reviewed', visibility: 'public', initialize_with_readme: true },
    })
    expect(project.statusCode, project.body).toBe(201)
    projectId = (project.json() as Json).id as number
    seedMember(s, 'Project', projectId, reviewer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', projectId, maintainer.user.id, AccessLevel.MAINTAINER)
    seedMember(s, 'Project', projectId, colleague.user.id, AccessLevel.REPORTER)
  })
  afterAll(async () => {
    await s.close()
  })

  it('writes, reads, edits and discards a draft, answering GitLab’s DraftNote', async () => {
    const iid = await newMergeRequest()
    const draft = await createDraft(reviewer.token, iid, { note: 'Rename this' })
    const mr = await json(ROOT_TOKEN, 'GET', `/merge_requests/${iid}`)
    expect(draft).toEqual({
      id: expect.any(Number),
      author_id: reviewer.user.id,
      merge_request_id: mr.id,
      resolve_discussion: false,
      discussion_id: null,
      note: 'Rename this',
      commit_id: null,
      line_code: null,
      position: {
        base_sha: null,
        start_sha: null,
        head_sha: null,
        old_path: null,
        new_path: null,
        position_type: 'text',
        old_line: null,
        new_line: null,
        line_range: null,
      },
    })
    expect(await json(reviewer.token, 'GET', drafts(iid))).toEqual([draft])
    expect(await json(reviewer.token, 'GET', `${drafts(iid)}/${draft.id}`)).toEqual(draft)

    const edited = await json(reviewer.token, 'PUT', `${drafts(iid)}/${draft.id}`, { note: 'Rename it to count' })
    expect(edited).toMatchObject({ id: draft.id, note: 'Rename it to count' })
    const blank = await call(reviewer.token, 'PUT', `${drafts(iid)}/${draft.id}`, { note: ' ' })
    expect([blank.statusCode, blank.json()]).toEqual([400, { error: 'Missing params to modify' }])

    expect((await call(reviewer.token, 'DELETE', `${drafts(iid)}/${draft.id}`)).statusCode).toBe(204)
    const gone = await call(reviewer.token, 'GET', `${drafts(iid)}/${draft.id}`)
    expect([gone.statusCode, gone.json()]).toEqual([404, { message: '404 Draft Note Not Found' }])
    expect(await json(reviewer.token, 'GET', drafts(iid))).toEqual([])
  })

  it('keeps a draft private to its author: not a maintainer’s, nor an administrator’s, nor in notes, events or to-dos', async () => {
    const iid = await newMergeRequest()
    const draft = await createDraft(reviewer.token, iid, { note: `Secret review for @${colleague.user.username}` })
    for (const other of [maintainer.token, ROOT_TOKEN]) {
      expect(await json(other, 'GET', drafts(iid))).toEqual([])
      for (const [method, url] of [
        ['GET', `${drafts(iid)}/${draft.id}`],
        ['PUT', `${drafts(iid)}/${draft.id}`],
        ['DELETE', `${drafts(iid)}/${draft.id}`],
        ['PUT', `${drafts(iid)}/${draft.id}/publish`],
      ]) {
        const res = await call(other, method, url, method === 'PUT' ? { note: 'hijacked' } : undefined)
        expect([method, url, res.statusCode, res.json()]).toEqual([
          method,
          url,
          404,
          { message: '404 Draft Note Not Found' },
        ])
      }
    }
    // Another user's bulk publish publishes only their own drafts (none).
    expect((await call(maintainer.token, 'POST', `${drafts(iid)}/bulk_publish`)).statusCode).toBe(204)
    expect(await json(reviewer.token, 'GET', `${drafts(iid)}/${draft.id}`)).toEqual(draft)

    expect(await bodies(iid)).toEqual([])
    const notes = await json<Json[]>(ROOT_TOKEN, 'GET', `/merge_requests/${iid}/notes`)
    expect(notes.filter((n) => !n.system)).toEqual([])
    const events = await read<Json[]>(reviewer.token, '/events?action=commented')
    expect(events.filter((e) => JSON.stringify(e).includes('Secret review'))).toEqual([])
    expect(await read<Json[]>(colleague.token, '/todos')).toEqual([])
    for (const searcher of [reviewer.token, ROOT_TOKEN])
      expect(await read<Json[]>(searcher, `/projects/${projectId}/search?scope=notes&search=Secret`)).toEqual([])

    // Published, the same comment is everywhere those lists look.
    expect((await call(reviewer.token, 'PUT', `${drafts(iid)}/${draft.id}/publish`)).statusCode).toBe(204)
    const found = await read<Json[]>(ROOT_TOKEN, `/projects/${projectId}/search?scope=notes&search=Secret`)
    expect(found.map((n) => n.body)).toEqual([draft.note])
    expect(
      (await read<Json[]>(reviewer.token, '/events?action=commented')).map((e) => (e.note as Json)?.body),
    ).toContain(draft.note)
    expect((await read<Json[]>(colleague.token, '/todos')).map((t) => t.action_name)).toEqual(['mentioned'])
  })

  it('publishes a review in order, as threads, with one to-do per mentioned user, and deletes the drafts', async () => {
    const iid = await newMergeRequest()
    const mention = `@${colleague.user.username}`
    await createDraft(reviewer.token, iid, { note: `First, ${mention}` })
    await createDraft(reviewer.token, iid, { note: 'Second' })
    await createDraft(reviewer.token, iid, { note: `${mention} third` })
    // Somebody else's draft stays a draft.
    const other = await createDraft(maintainer.token, iid, { note: 'Not mine to publish' })

    expect((await call(reviewer.token, 'POST', `${drafts(iid)}/bulk_publish`)).statusCode).toBe(204)

    expect(await bodies(iid)).toEqual([[`First, ${mention}`], ['Second'], [`${mention} third`]])
    const threads = await discussions(iid)
    expect(
      threads.map((d) => [d.individual_note, (d.notes as Json[])[0].type, (d.notes as Json[])[0].resolvable]),
    ).toEqual([
      [false, 'DiscussionNote', true],
      [false, 'DiscussionNote', true],
      [false, 'DiscussionNote', true],
    ])
    expect(await json(reviewer.token, 'GET', drafts(iid))).toEqual([])
    expect(await json<Json[]>(maintainer.token, 'GET', drafts(iid))).toEqual([other])

    const todos = await read<Json[]>(colleague.token, '/todos')
    const onThis = todos.filter((t) => (t.target as Json).iid === iid)
    expect(onThis.map((t) => t.action_name)).toEqual(['directly_addressed'])
  })

  it('submits a review with a summary comment after the drafts and the reviewer’s verdict (GitLab 19.2)', async () => {
    const iid = await newMergeRequest()
    await json(maintainer.token, 'PUT', `/merge_requests/${iid}`, { reviewer_ids: [reviewer.user.id] })
    const verdict = async () =>
      ((await json<Json[]>(ROOT_TOKEN, 'GET', `/merge_requests/${iid}/reviewers`))[0] as Json).state
    await createDraft(reviewer.token, iid, { note: 'Inline remark' })
    const wrong = await call(reviewer.token, 'POST', `${drafts(iid)}/bulk_publish`, { reviewer_state: 'approved' })
    expect(wrong.statusCode).toBe(400)
    expect(await verdict()).toBe('review_started')

    const submitted = await call(reviewer.token, 'POST', `${drafts(iid)}/bulk_publish`, {
      note: 'Summary: two things to fix',
      reviewer_state: 'requested_changes',
    })
    expect(submitted.statusCode, submitted.body).toBe(204)
    expect(await bodies(iid)).toEqual([['Inline remark'], ['Summary: two things to fix']])
    const summary = (await discussions(iid)).at(-1) as Json
    expect(summary.individual_note).toBe(true)
    expect(await verdict()).toBe('requested_changes')

    // A verdict alone, without drafts, still counts; an internal summary stays internal.
    await call(reviewer.token, 'POST', `${drafts(iid)}/bulk_publish`, { note: 'Looks fine now', internal: true })
    expect(await verdict()).toBe('reviewed')
    const internal = (await discussions(iid)).at(-1) as Json
    expect((internal.notes as Json[])[0]).toMatchObject({ body: 'Looks fine now', internal: true })
    expect(
      (await json<Json[]>(outsider.token, 'GET', `/merge_requests/${iid}/notes`)).map((n) => n.body),
    ).not.toContain('Looks fine now')
  })

  it('publishes one draft alone, leaving the others', async () => {
    const iid = await newMergeRequest()
    const first = await createDraft(reviewer.token, iid, { note: 'One' })
    const second = await createDraft(reviewer.token, iid, { note: 'Two' })
    expect((await call(reviewer.token, 'PUT', `${drafts(iid)}/${second.id}/publish`)).statusCode).toBe(204)
    expect(await bodies(iid)).toEqual([['Two']])
    expect(await json(reviewer.token, 'GET', drafts(iid))).toEqual([first])
  })

  it('replies to a thread, resolving it when asked and reopening it otherwise', async () => {
    const iid = await newMergeRequest()
    const thread = await json(maintainer.token, 'POST', `/merge_requests/${iid}/discussions`, { body: 'Why?' }, 201)
    const threadId = thread.id as string
    const reply = await createDraft(reviewer.token, iid, {
      note: 'Because.',
      in_reply_to_discussion_id: threadId,
      resolve_discussion: true,
    })
    expect(reply).toMatchObject({ discussion_id: threadId, resolve_discussion: true })
    expect((await call(reviewer.token, 'PUT', `${drafts(iid)}/${reply.id}/publish`)).statusCode).toBe(204)
    let published = await json(ROOT_TOKEN, 'GET', `/merge_requests/${iid}/discussions/${threadId}`)
    expect((published.notes as Json[]).map((n) => [n.body, n.resolved, (n.resolved_by as Json | null)?.id])).toEqual([
      ['Why?', true, reviewer.user.id],
      ['Because.', true, reviewer.user.id],
    ])

    // A reply that does not ask to resolve reopens the thread, as GitLab's review does.
    const reopen = await createDraft(reviewer.token, iid, {
      note: 'On second thought',
      in_reply_to_discussion_id: threadId,
    })
    expect((await call(reviewer.token, 'POST', `${drafts(iid)}/bulk_publish`)).statusCode).toBe(204)
    published = await json(ROOT_TOKEN, 'GET', `/merge_requests/${iid}/discussions/${threadId}`)
    expect((published.notes as Json[]).map((n) => [n.body, n.resolved])).toEqual([
      ['Why?', false],
      ['Because.', false],
      ['On second thought', false],
    ])
    expect(reopen.resolve_discussion).toBe(false)
  })

  it('refuses a reply to a thread that is not there, and publishes nothing of a review whose thread went away', async () => {
    const iid = await newMergeRequest()
    const missing = await call(reviewer.token, 'POST', drafts(iid), {
      note: 'Reply',
      in_reply_to_discussion_id: 'a'.repeat(40),
    })
    expect([missing.statusCode, missing.json()]).toEqual([
      400,
      { message: { base: ['Thread to reply to cannot be found'] } },
    ])

    const thread = await json(maintainer.token, 'POST', `/merge_requests/${iid}/discussions`, { body: 'Doomed' }, 201)
    await createDraft(reviewer.token, iid, { note: 'A new thread first' })
    await createDraft(reviewer.token, iid, { note: 'Reply', in_reply_to_discussion_id: thread.id })
    const noteId = (thread.notes as Json[])[0].id
    expect((await call(maintainer.token, 'DELETE', `/merge_requests/${iid}/notes/${noteId}`)).statusCode).toBe(204)

    const refused = await call(reviewer.token, 'POST', `${drafts(iid)}/bulk_publish`)
    expect([refused.statusCode, refused.json()]).toEqual([
      400,
      { message: { base: ['Thread to reply to cannot be found'] } },
    ])
    expect(await bodies(iid)).toEqual([])
    expect((await json<Json[]>(reviewer.token, 'GET', drafts(iid))).map((d) => d.note)).toEqual([
      'A new thread first',
      'Reply',
    ])
  })

  it('refuses blank drafts, anonymous callers, readers who may not comment and unreadable merge requests', async () => {
    const iid = await newMergeRequest()
    const blank = await call(reviewer.token, 'POST', drafts(iid), { note: '  ' })
    expect([blank.statusCode, blank.json()]).toEqual([400, { message: { note: ["can't be blank"] } }])
    expect((await call(null, 'GET', drafts(iid))).statusCode).toBe(401)
    expect((await call(null, 'POST', drafts(iid), { note: 'x' })).statusCode).toBe(401)
    expect((await call(reviewer.token, 'GET', drafts(9999))).statusCode).toBe(404)

    // A signed-in non-member comments on a public project's merge request, until it is locked.
    const outsiders = await createDraft(outsider.token, iid, { note: 'Drive-by review' })
    await json(maintainer.token, 'PUT', `/merge_requests/${iid}`, { discussion_locked: true })
    const locked = await call(outsider.token, 'POST', drafts(iid), { note: 'More' })
    expect(locked.statusCode).toBe(403)
    const publish = await call(outsider.token, 'PUT', `${drafts(iid)}/${outsiders.id}/publish`)
    expect(publish.statusCode).toBe(403)
    expect(await bodies(iid)).toEqual([])
    expect(await json(outsider.token, 'GET', drafts(iid))).toEqual([outsiders])
  })

  it('writes a draft on a line of the diff, checked like a diff thread, and publishes it as a DiffNote there', async () => {
    const iid = await newMergeRequest()
    const file = `topic-${iid}.txt`
    const refs = (await json(ROOT_TOKEN, 'GET', `/merge_requests/${iid}`)).diff_refs as Json
    const at = (where: Json) => ({ ...refs, position_type: 'text', old_path: file, new_path: file, ...where })

    const malformed = await call(reviewer.token, 'POST', drafts(iid), {
      note: 'On a line',
      position: { position_type: 'text', new_path: file, new_line: 1, start_sha: 'a', head_sha: 'b' },
    })
    expect([malformed.statusCode, malformed.json()]).toEqual([400, { error: 'position[base_sha] is missing' }])
    const madeUp = await call(reviewer.token, 'POST', drafts(iid), {
      note: 'On a line',
      position: at({ base_sha: 'a'.repeat(40), new_line: 1 }),
    })
    const offTheDiff = await call(reviewer.token, 'POST', drafts(iid), {
      note: 'Far away',
      position: at({ new_line: 40 }),
    })
    expect([madeUp.statusCode, offTheDiff.statusCode]).toEqual([400, 400])
    expect(await json(reviewer.token, 'GET', drafts(iid))).toEqual([])

    const line = await createDraft(reviewer.token, iid, { note: 'This line', position: at({ new_line: 2 }) })
    expect(line).toMatchObject({
      line_code: expect.stringMatching(/^[0-9a-f]{40}_0_2$/),
      position: { ...at({ new_line: 2 }), old_line: null, line_range: null },
    })
    // Editing the text keeps the line (GitLab would drop the position when none is sent).
    const edited = await json(reviewer.token, 'PUT', `${drafts(iid)}/${line.id}`, { note: 'This line, really' })
    expect(edited).toMatchObject({ note: 'This line, really', position: line.position, line_code: line.line_code })
    await createDraft(reviewer.token, iid, { note: 'And in general' })

    expect((await call(reviewer.token, 'POST', `${drafts(iid)}/bulk_publish`)).statusCode).toBe(204)
    const [onLine, general] = await discussions(iid).then((all) => all.map((d) => (d.notes as Json[])[0]))
    expect(onLine).toMatchObject({ type: 'DiffNote', body: 'This line, really', position: line.position })
    expect(general).toMatchObject({ type: 'DiscussionNote', body: 'And in general' })
    expect(await json(reviewer.token, 'GET', drafts(iid))).toEqual([])
  })

  it('python-gitlab writes and publishes drafts through its client', async () => {
    const iid = await newMergeRequest()
    // python-gitlab 3.12 (Debian's) predates mr.draft_notes and reads a PUT's answer as JSON, so the
    // publish (204, no body, as GitLab) goes through http_request; the rest through its http_* calls.
    const result = await withPythonGitlab<{ listed: string[]; published: number; after: number }>(
      s.url,
      { private_token: reviewer.token },
      `
path = '/projects/${projectId}/merge_requests/${iid}/draft_notes'
one = gl.http_post(path, post_data={'note': 'From python'})
gl.http_post(path, post_data={'note': 'And more'})
listed = [d['note'] for d in gl.http_list(path, get_all=True)]
published = gl.http_request('put', path + '/%d/publish' % one['id']).status_code
gl.http_post(path + '/bulk_publish')
out({'listed': listed, 'published': published, 'after': len(gl.http_list(path, get_all=True))})
`,
    )
    expect(result).toEqual({ listed: ['From python', 'And more'], published: 204, after: 0 })
    expect(await bodies(iid)).toEqual([['From python'], ['And more']])
  })

  it('@gitbeaker/rest MergeRequestDraftNotes writes, lists, shows, discards and publishes a review', async () => {
    const iid = await newMergeRequest()
    const api = new Gitlab({ host: s.url, token: reviewer.token })
    // (gitbeaker 43's edit sends POST to the draft, which GitLab does not route either: not used.)
    const first = await api.MergeRequestDraftNotes.create(projectId, iid, 'From gitbeaker')
    const doomed = await api.MergeRequestDraftNotes.create(projectId, iid, 'Never mind')
    await api.MergeRequestDraftNotes.create(projectId, iid, 'Last')
    const listed = await api.MergeRequestDraftNotes.all(projectId, iid)
    expect(listed.map((d) => d.note)).toEqual(['From gitbeaker', 'Never mind', 'Last'])
    expect((await api.MergeRequestDraftNotes.show(projectId, iid, first.id)).note).toBe('From gitbeaker')
    await api.MergeRequestDraftNotes.remove(projectId, iid, doomed.id)
    await api.MergeRequestDraftNotes.publish(projectId, iid, first.id)
    await api.MergeRequestDraftNotes.publishBulk(projectId, iid)
    expect(await api.MergeRequestDraftNotes.all(projectId, iid)).toEqual([])
    expect(await bodies(iid)).toEqual([['From gitbeaker'], ['Last']])
  })
})
