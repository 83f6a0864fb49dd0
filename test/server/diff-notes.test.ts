import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedMember } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

type Json = Record<string, unknown>

const OLD_LINES = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`)
// Line 3 rewritten and a line 21 added: hunks `@@ -1,6 +1,6 @@` and `@@ -18,3 +18,4 @@`.
const NEW_LINES = [...OLD_LINES.slice(0, 2), 'LINE 3', ...OLD_LINES.slice(3), 'line 21']
// Line 21 rewritten by a later push.
const EDITED_LINES = [...NEW_LINES.slice(0, 20), 'line twenty-one']
const text = (lines: readonly string[]): string => `${lines.join('\n')}\n`
const codeOf = (path: string, oldPos: number, newPos: number): string =>
  `${createHash('sha1').update(path).digest('hex')}_${oldPos}_${newPos}`

describe('merge request diff notes and diff versions', () => {
  let s: TestServer
  let dev: SeededUser
  let base: string
  let mrUrl: string

  async function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: Json, token = dev.token) {
    return s.request(token, { method, url, payload })
  }

  async function commit(branch: string, actions: Json[], startBranch?: string, token = dev.token): Promise<void> {
    const res = await call(
      'POST',
      `${base}/repository/commits`,
      { branch, ...(startBranch ? { start_branch: startBranch } : {}), commit_message: `Change ${branch}`, actions },
      token,
    )
    expect(res.statusCode).toBe(201)
  }

  async function diffRefs(): Promise<{ base_sha: string; start_sha: string; head_sha: string }> {
    return (await call('GET', mrUrl)).json().diff_refs
  }

  async function discussionCount(): Promise<number> {
    return ((await call('GET', `${mrUrl}/discussions?per_page=100`)).json() as unknown[]).length
  }

  /** Starts a thread at `where` on the latest version of app.txt. */
  async function thread(where: Json, body = 'Look here') {
    const refs = await diffRefs()
    return call('POST', `${mrUrl}/discussions`, {
      body,
      position: { ...refs, position_type: 'text', old_path: 'app.txt', new_path: 'app.txt', ...where },
    })
  }

  beforeAll(async () => {
    s = await makeServer()
    dev = seedUser(s)
    const project = (
      await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: '/api/v4/projects',
        payload: { name: 'diffnotes', initialize_with_readme: true },
      })
    ).json()
    seedMember(s, 'Project', project.id, dev.user.id, AccessLevel.DEVELOPER)
    base = `/api/v4/projects/${project.id}`
    await commit('main', [{ action: 'create', file_path: 'app.txt', content: text(OLD_LINES) }], undefined, ROOT_TOKEN)
    await commit(
      'feature',
      [
        { action: 'update', file_path: 'app.txt', content: text(NEW_LINES) },
        { action: 'create', file_path: 'new.txt', content: 'a\nb\n' },
      ],
      'main',
    )
    const mr = await call('POST', `${base}/merge_requests`, {
      source_branch: 'feature',
      target_branch: 'main',
      title: 'Feature',
    })
    expect(mr.statusCode).toBe(201)
    mrUrl = `${base}/merge_requests/${mr.json().iid as number}`
  })
  afterAll(async () => {
    await s.close()
  })

  it('records the first version when the merge request is created, matching its diff_refs', async () => {
    const versions = (await call('GET', `${mrUrl}/versions`)).json()
    const refs = await diffRefs()
    expect(versions).toEqual([
      expect.objectContaining({
        head_commit_sha: refs.head_sha,
        base_commit_sha: refs.base_sha,
        start_commit_sha: refs.start_sha,
        state: 'collected',
        real_size: '2',
      }),
    ])
    const one = (await call('GET', `${mrUrl}/versions/${versions[0].id as number}`)).json()
    expect(one.commits).toEqual([expect.objectContaining({ id: refs.head_sha, title: 'Change feature' })])
    expect(one.diffs.map((d: Json) => d.new_path)).toEqual(['app.txt', 'new.txt'])
    expect(one.diffs[0].diff).toContain('+LINE 3')
    expect((await call('GET', `${mrUrl}/versions/999999`)).json()).toEqual({ message: '404 Not found' })
  })

  it('creates a DiffNote on an added line, returned with its position and resolvable', async () => {
    const res = await thread({ new_line: 3 })
    expect(res.statusCode).toBe(201)
    const refs = await diffRefs()
    const note = res.json().notes[0]
    expect(res.json().individual_note).toBe(false)
    expect(note).toMatchObject({
      type: 'DiffNote',
      commit_id: null,
      resolvable: true,
      resolved: false,
      position: {
        ...refs,
        old_path: 'app.txt',
        new_path: 'app.txt',
        position_type: 'text',
        old_line: null,
        new_line: 3,
        line_range: null,
      },
    })
    // The same position wherever the note appears: discussions, notes list, single note, events.
    const listed = (await call('GET', `${mrUrl}/notes`)).json().find((n: Json) => n.id === note.id)
    expect(listed.position).toEqual(note.position)
    expect((await call('GET', `${mrUrl}/notes/${note.id as number}`)).json().position).toEqual(note.position)
    const discussion = (await call('GET', `${mrUrl}/discussions/${res.json().id as string}`)).json()
    expect(discussion.notes[0].position).toEqual(note.position)
    const events = (await call('GET', `${base}/events?action=commented`)).json()
    expect(events.find((e: Json) => e.target_id === note.id)).toMatchObject({
      target_type: 'DiffNote',
      note: { type: 'DiffNote', position: note.position },
    })
  })

  it('takes a removed line by its old_line and an unchanged line by both numbers, in or outside the hunks', async () => {
    for (const where of [
      { old_line: 3, new_line: null },
      { old_line: 2, new_line: 2 },
      { old_line: 10, new_line: 10 },
      { old_line: 20, new_line: 20 },
    ]) {
      const res = await thread(where)
      expect(res.statusCode, JSON.stringify(where)).toBe(201)
      expect(res.json().notes[0].position).toMatchObject(where)
    }
  })

  it('refuses lines that are not in the diff with GitLab message, storing nothing', async () => {
    const before = await discussionCount()
    for (const where of [
      { new_line: 2 }, // unchanged: needs both numbers
      { old_line: 2 },
      { old_line: 10, new_line: 11 }, // numbers of two different lines
      { old_line: 3, new_line: 3 }, // a removed and an added line
      { new_line: 22 }, // past the end
      { old_line: 21, new_line: 22 },
      { new_line: 1, old_path: 'README.md', new_path: 'README.md' }, // not in the diff
    ]) {
      const res = await thread(where)
      expect(res.statusCode, JSON.stringify(where)).toBe(400)
      expect(res.json()).toEqual({
        message: `400 Bad request - Note {:line_code=>["can't be blank", "must be a valid line code"], :position=>["is incomplete"]}`,
      })
    }
    expect(await discussionCount()).toBe(before)
  })

  it('refuses SHAs that are not a version of the merge request', async () => {
    const before = await discussionCount()
    const refs = await diffRefs()
    const res = await call('POST', `${mrUrl}/discussions`, {
      body: 'x',
      position: { ...refs, head_sha: 'f'.repeat(40), position_type: 'text', new_path: 'app.txt', new_line: 3 },
    })
    expect(res.statusCode).toBe(400)
    expect(await discussionCount()).toBe(before)
  })

  it('names a missing or malformed position field as Grape does', async () => {
    const before = await discussionCount()
    const refs = await diffRefs()
    const missing = await call('POST', `${mrUrl}/discussions`, {
      body: 'x',
      position: { start_sha: refs.start_sha, head_sha: refs.head_sha, new_path: 'app.txt', new_line: 3 },
    })
    expect(missing.statusCode).toBe(400)
    expect(missing.json()).toEqual({ error: 'position[base_sha] is missing' })
    const invalid = await call('POST', `${mrUrl}/discussions`, {
      body: 'x',
      position: { ...refs, new_path: 'app.txt', new_line: -1 },
    })
    expect(invalid.json()).toEqual({ error: 'position[new_line] is invalid' })
    const scalar = await call('POST', `${mrUrl}/discussions`, { body: 'x', position: 'somewhere' })
    expect(scalar.json()).toEqual({ error: 'position is invalid' })
    expect(await discussionCount()).toBe(before)
  })

  it('stores a multi-line range with the line codes of its ends', async () => {
    const res = await thread({
      new_line: 3,
      line_range: { start: { type: null, old_line: 2, new_line: 2 }, end: { type: 'new', new_line: 3 } },
    })
    expect(res.statusCode).toBe(201)
    expect(res.json().notes[0].position.line_range).toEqual({
      start: { line_code: codeOf('app.txt', 2, 2), type: null, old_line: 2, new_line: 2 },
      end: { line_code: codeOf('app.txt', 4, 3), type: 'new', old_line: null, new_line: 3 },
    })
    const bad = await thread({
      new_line: 3,
      line_range: { start: { old_line: 2, new_line: 9 }, end: { new_line: 3 } },
    })
    expect(bad.statusCode).toBe(400)
  })

  it('takes a new file by both paths set to its path', async () => {
    const refs = await diffRefs()
    const res = await call('POST', `${mrUrl}/discussions`, {
      body: 'New file',
      position: { ...refs, position_type: 'text', old_path: 'new.txt', new_path: 'new.txt', new_line: 2 },
    })
    expect(res.statusCode).toBe(201)
  })

  it('makes replies to a diff thread DiffNotes at its position', async () => {
    const started = (await thread({ new_line: 21 })).json()
    const reply = await call('POST', `${mrUrl}/discussions/${started.id as string}/notes`, { body: 'Agreed' })
    expect(reply.statusCode).toBe(201)
    expect(reply.json()).toMatchObject({ type: 'DiffNote', resolvable: true, position: started.notes[0].position })
  })

  it('records a version per push; notes on a line it changed stay at their position, outdated, and resolve', async () => {
    const first = await diffRefs()
    const old = (await thread({ new_line: 21 }, 'Before the push')).json()
    await commit('feature', [
      { action: 'update', file_path: 'new.txt', content: 'a\nb\nc\n' },
      { action: 'update', file_path: 'app.txt', content: text(EDITED_LINES) },
    ])
    const versions = (await call('GET', `${mrUrl}/versions`)).json()
    expect(versions).toHaveLength(2)
    const latest = await diffRefs()
    expect(latest.head_sha).not.toBe(first.head_sha)
    expect(versions[0]).toMatchObject({ head_commit_sha: latest.head_sha, base_commit_sha: latest.base_sha })
    expect(versions[1]).toMatchObject({ head_commit_sha: first.head_sha })
    const detail = (await call('GET', `${mrUrl}/versions/${versions[0].id as number}`)).json()
    expect(detail.commits).toHaveLength(2)

    // Its line was rewritten: the thread keeps its original position, its head not the latest version's (outdated).
    const kept = (await call('GET', `${mrUrl}/discussions/${old.id as string}`)).json()
    expect(kept.notes[0].position.head_sha).toBe(first.head_sha)
    expect(kept.notes[0].original_position).toEqual(kept.notes[0].position)
    // A thread may still be started on the older version.
    const onOlder = await call('POST', `${mrUrl}/discussions`, {
      body: 'On version 1',
      position: { ...first, position_type: 'text', new_path: 'app.txt', new_line: 3 },
    })
    expect(onOlder.statusCode).toBe(201)
    // Outdated threads resolve and unresolve, whole or by note.
    const resolved = await call('PUT', `${mrUrl}/discussions/${old.id as string}`, { resolved: true })
    expect(resolved.statusCode).toBe(200)
    expect(resolved.json().notes[0]).toMatchObject({ resolved: true, resolved_by: { id: dev.user.id } })
    const noteUrl = `${mrUrl}/discussions/${old.id as string}/notes/${old.notes[0].id as number}`
    expect((await call('PUT', noteUrl, { resolved: false })).json()).toMatchObject({ resolved: false })
  })

  it('carries notes whose lines a push left unchanged to the new version, at the lines they moved to', async () => {
    const written = await diffRefs()
    const start = async (where: Json, body: string, path = 'app.txt') => {
      const res = await call('POST', `${mrUrl}/discussions`, {
        body,
        position: { ...written, position_type: 'text', old_path: path, new_path: path, ...where },
      })
      expect(res.statusCode, body).toBe(201)
      return res.json() as { id: string; notes: Json[] }
    }
    const added = await start({ new_line: 3 }, 'On the added line 3')
    const removed = await start({ old_line: 3 }, 'On the removed line 3')
    const outside = await start({ old_line: 12, new_line: 12 }, 'Outside the hunks')
    const range = await start(
      { new_line: 3, line_range: { start: { old_line: 2, new_line: 2 }, end: { type: 'new', new_line: 3 } } },
      'Lines 2 to 3',
    )
    const edited = await start({ old_line: 10, new_line: 10 }, 'On line 10')
    const acrossEdit = await start(
      {
        old_line: 11,
        new_line: 11,
        line_range: { start: { old_line: 9, new_line: 9 }, end: { old_line: 11, new_line: 11 } },
      },
      'Lines 9 to 11',
    )
    const vanished = await start({ new_line: 2 }, 'On a file the push deletes', 'new.txt')
    // A thread on the last commit's own diff (commit_id), on the line 21 it rewrote.
    const [last] = (await call('GET', `${mrUrl}/commits`)).json() as { id: string; parent_ids: string[] }[]
    const parent = (await call('GET', `${base}/repository/commits/${last.id}`)).json().parent_ids[0] as string
    const onCommit = await call('POST', `${mrUrl}/discussions`, {
      body: 'On the commit',
      commit_id: last.id,
      position: {
        base_sha: parent,
        start_sha: parent,
        head_sha: last.id,
        position_type: 'text',
        old_path: 'app.txt',
        new_path: 'app.txt',
        new_line: 21,
      },
    })
    expect(onCommit.statusCode, onCommit.body).toBe(201)

    // A line inserted above everything, line 10 rewritten, new.txt deleted.
    const lines = ['line 0', ...EDITED_LINES.map((l) => (l === 'line 10' ? 'line ten' : l))]
    await commit('feature', [
      { action: 'update', file_path: 'app.txt', content: text(lines) },
      { action: 'delete', file_path: 'new.txt' },
    ])
    const latest = await diffRefs()
    const positionOf = async (d: { id: string }) =>
      (await call('GET', `${mrUrl}/discussions/${d.id}`)).json().notes[0] as { position: Json; original_position: Json }

    const moved = { base_sha: latest.base_sha, start_sha: latest.start_sha, head_sha: latest.head_sha }
    expect(await positionOf(added)).toMatchObject({
      position: { ...moved, old_line: null, new_line: 4 },
      original_position: { ...written, old_line: null, new_line: 3 },
    })
    expect((await positionOf(removed)).position).toMatchObject({ ...moved, old_line: 3, new_line: null })
    expect((await positionOf(outside)).position).toMatchObject({ ...moved, old_line: 12, new_line: 13 })
    expect((await positionOf(range)).position).toMatchObject({
      ...moved,
      new_line: 4,
      line_range: {
        start: { line_code: codeOf('app.txt', 2, 3), old_line: 2, new_line: 3 },
        end: { line_code: codeOf('app.txt', 4, 4), type: 'new', old_line: null, new_line: 4 },
      },
    })
    // The same in the notes list, and the line code follows the line.
    const listed = (await call('GET', `${mrUrl}/notes?per_page=100`)).json() as Json[]
    expect(listed.find((n) => n.body === 'On the added line 3')).toMatchObject({ position: { new_line: 4 } })
    // A rewritten line (alone or inside a range) and a deleted file: outdated, where they were written.
    for (const stays of [edited, acrossEdit, vanished]) {
      const note = await positionOf(stays)
      expect(note.position).toMatchObject(written)
      expect(note.original_position).toEqual(note.position)
    }
    // A commit's thread stays on that commit's diff.
    expect((await positionOf(onCommit.json())).position).toMatchObject({ head_sha: last.id, new_line: 21 })
  })

  it('takes a position on a range of the merge request’s commits, which a later push leaves on that range', async () => {
    // The feature branch's commits, newest first: the last two are the range, from the second's parent.
    const [newest, second, oldest] = (await call('GET', `${mrUrl}/commits`)).json() as { id: string }[]
    const before = await discussionCount()
    const on = (refs: { base_sha: string; start_sha: string; head_sha: string }, where: Json, extra: Json = {}) =>
      call('POST', `${mrUrl}/discussions`, {
        body: 'On the range',
        ...extra,
        position: { ...refs, position_type: 'text', old_path: 'app.txt', new_path: 'app.txt', ...where },
      })
    const range = { base_sha: oldest.id, start_sha: oldest.id, head_sha: newest.id }
    // `line 0`, added by the newest commit, is line 1 of the range's diff.
    const res = await on(range, { new_line: 1 })
    expect(res.statusCode, res.body).toBe(201)
    const thread = res.json() as { id: string; notes: Json[] }
    expect(thread.notes[0]).toMatchObject({ type: 'DiffNote', commit_id: null, position: { ...range, new_line: 1 } })
    // Not a range: the head's own SHA as its start, one commit's own refs (its thread names it with commit_id),
    // a head older than the start, a start that is not the base.
    for (const refused of [
      { ...range, base_sha: newest.id, start_sha: newest.id },
      { ...range, base_sha: second.id, start_sha: second.id },
      { base_sha: second.id, start_sha: second.id, head_sha: oldest.id },
      { ...range, start_sha: second.id },
    ]) {
      const answer = await on(refused, { new_line: 1 })
      expect(answer.statusCode).toBe(400)
      expect(answer.json()).toEqual({ message: expect.stringContaining(':position=>["is incomplete"]') })
    }
    // A line the range did not change and the diff does not show is refused as on any diff.
    expect((await on(range, { old_line: 99, new_line: 100 })).statusCode).toBe(400)
    // A commit's thread must be on that commit's own refs, as before.
    const onCommit = await on(range, { new_line: 1 }, { commit_id: newest.id })
    expect(onCommit.json()).toEqual({
      message: '400 Bad request - Note {:commit_id=>["does not match the diff refs"]}',
    })
    expect(await discussionCount()).toBe(before + 1)

    // A push moves the threads of the version it replaces, not this one: it stays on the range's diff.
    const now = (await call('GET', `${base}/repository/files/app.txt/raw?ref=feature`)).body
    await commit('feature', [{ action: 'update', file_path: 'app.txt', content: `top\n${now}` }])
    const kept = (await call('GET', `${mrUrl}/discussions/${thread.id}`)).json().notes[0] as Json
    expect(kept.position).toMatchObject({ ...range, new_line: 1 })
  })

  it('ignores a position on an issue thread, as GitLab has none there', async () => {
    await call('POST', `${base}/issues`, { title: 'Plain' })
    const res = await call('POST', `${base}/issues/1/discussions`, {
      body: 'x',
      position: { new_line: 1 },
    })
    expect(res.statusCode).toBe(201)
    expect(res.json().notes[0]).toMatchObject({ type: 'DiscussionNote' })
    expect(res.json().notes[0]).not.toHaveProperty('position')
  })
})
