import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { findProjectById } from '../../src/server/modules/namespaces'
import { gitText } from '../../src/server/platform/git/git'
import { projectGitDir } from '../../src/server/platform/git/project-repo'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedMember } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

type Json = Record<string, unknown>

const LINES = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`)
// The feature branch rewrites every line, so each is an added line of the diff.
const FEATURE = LINES.map((l) => l.toUpperCase())
const text = (lines: readonly string[]): string => `${lines.join('\n')}\n`
const suggestion = (content: string, range = ''): string =>
  `How about this?\n\n\`\`\`suggestion${range}\n${content}\n\`\`\`\n`

describe('suggestions of merge request diff notes', () => {
  let s: TestServer
  let dev: SeededUser
  let reviewer: SeededUser
  let outsider: SeededUser
  let critic: SeededUser
  let gitDir: string
  let base: string
  let mrUrl: string

  async function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: Json, token: string | null = dev.token) {
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

  async function fileOnFeature(path = 'app.txt'): Promise<string> {
    const res = await call('GET', `${base}/repository/files/${path}/raw?ref=feature`)
    expect(res.statusCode).toBe(200)
    return res.body
  }

  async function featureHead(): Promise<Json> {
    return (await call('GET', `${base}/repository/commits/feature`)).json()
  }

  /** A reviewer's thread at `where` on the latest version of app.txt; its first note. */
  async function thread(where: Json, body: string, token = reviewer.token): Promise<Json> {
    const refs = (await call('GET', mrUrl)).json().diff_refs
    const res = await call(
      'POST',
      `${mrUrl}/discussions`,
      { body, position: { ...refs, position_type: 'text', old_path: 'app.txt', new_path: 'app.txt', ...where } },
      token,
    )
    expect(res.statusCode).toBe(201)
    return res.json().notes[0]
  }

  /** The feature branch's last commit object as git stores it: its message byte for byte, author and committer. */
  async function lastCommit(): Promise<{ message: string; author: string; committer: string }> {
    const raw = await gitText(['cat-file', 'commit', 'refs/heads/feature'], { gitDir })
    const end = raw.indexOf('\n\n')
    const who = (role: string) => (new RegExp(`^${role} (.+ <[^>]*>) `, 'm').exec(raw.slice(0, end)) ?? [])[1]
    return { author: who('author'), committer: who('committer'), message: raw.slice(end + 2) }
  }

  function suggestionsOf(note: Json): Json[] {
    return note.suggestions as Json[]
  }

  beforeAll(async () => {
    s = await makeServer()
    dev = seedUser(s, { username: 'dev', name: 'Dee Developer' })
    reviewer = seedUser(s, { username: 'reviewer', name: 'Rae Reviewer' })
    outsider = seedUser(s, { username: 'outsider' })
    critic = seedUser(s, { username: 'critic', name: 'Cy Critic' })
    s.app.burrow.db
      .prepare('UPDATE users SET commit_email = ? WHERE id = ?')
      .run('cy@commits.example.com', critic.user.id)
    const project = (
      await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: '/api/v4/projects',
        payload: { name: 'suggest', initialize_with_readme: true, visibility: 'private' },
      })
    ).json()
    seedMember(s, 'Project', project.id, dev.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, reviewer.user.id, AccessLevel.REPORTER)
    seedMember(s, 'Project', project.id, critic.user.id, AccessLevel.REPORTER)
    gitDir = projectGitDir(s.app.burrow, findProjectById(s.app.burrow.db, project.id) as ProjectRow)
    base = `/api/v4/projects/${project.id}`
    await commit('main', [{ action: 'create', file_path: 'app.txt', content: text(LINES) }], undefined, ROOT_TOKEN)
    await commit('feature', [{ action: 'update', file_path: 'app.txt', content: text(FEATURE) }], 'main')
    const mr = await call('POST', `${base}/merge_requests`, {
      source_branch: 'feature',
      target_branch: 'main',
      title: 'F',
    })
    expect(mr.statusCode).toBe(201)
    mrUrl = `${base}/merge_requests/${mr.json().iid as number}`
  })
  afterAll(async () => {
    await s.close()
  })

  it('stores a suggestion block of a diff note and shows it with the note wherever the note is read', async () => {
    const note = await thread({ new_line: 2 }, suggestion('Line two'))
    expect(suggestionsOf(note)).toEqual([
      {
        id: expect.any(Number),
        from_line: 2,
        to_line: 2,
        appliable: true,
        applied: false,
        from_content: 'LINE 2\n',
        to_content: 'Line two\n',
        commit_id: null,
      },
    ])
    const listed = (await call('GET', `${mrUrl}/notes?per_page=100`)).json().find((n: Json) => n.id === note.id)
    expect(listed.suggestions).toEqual(note.suggestions)
    const discussions = (await call('GET', `${mrUrl}/discussions?per_page=100`)).json()
    expect(discussions.flatMap((d: Json) => d.notes).find((n: Json) => n.id === note.id).suggestions).toEqual(
      note.suggestions,
    )
  })

  it('reads a range above and below the line, and several blocks of one note in order', async () => {
    // The second block is empty: it deletes the line.
    const note = await thread({ new_line: 5 }, `${suggestion('a\nb', ':-1+1')}\n\`\`\`suggestion:-0+0\n\`\`\`\n`)
    expect(suggestionsOf(note).map((x) => [x.from_line, x.to_line, x.from_content, x.to_content])).toEqual([
      [4, 6, 'LINE 4\nLINE 5\nLINE 6\n', 'a\nb\n'],
      [5, 5, 'LINE 5\n', ''],
    ])
  })

  it('gives plain comments, other code blocks and notes on removed lines no suggestions', async () => {
    expect((await thread({ new_line: 7 }, 'Just a comment')).suggestions).toBeUndefined()
    expect((await thread({ new_line: 7 }, '```ruby\nputs 1\n```')).suggestions).toBeUndefined()
    expect((await thread({ old_line: 7 }, suggestion('x'))).suggestions).toBeUndefined()
  })

  it('replaces the suggestions of a note when its text is edited', async () => {
    const note = await thread({ new_line: 8 }, suggestion('first'))
    const [before] = suggestionsOf(note)
    const edited = await call(
      'PUT',
      `${mrUrl}/notes/${note.id as number}`,
      { body: suggestion('second') },
      reviewer.token,
    )
    expect(edited.statusCode).toBe(200)
    const [after] = suggestionsOf(edited.json())
    expect(after).toMatchObject({ from_line: 8, to_content: 'second\n' })
    expect(after.id).not.toBe(before.id)
    const gone = await call('PUT', `/api/v4/suggestions/${before.id as number}/apply`)
    expect(gone.statusCode).toBe(404)
  })

  it('applies one suggestion as a commit on the source branch authored by its author, and resolves its thread', async () => {
    const note = await thread({ new_line: 1 }, suggestion('First line'))
    const id = suggestionsOf(note)[0].id as number
    const before = await featureHead()
    const res = await call('PUT', `/api/v4/suggestions/${id}/apply`)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ id, applied: true, appliable: false, from_line: 1, to_content: 'First line\n' })
    expect((await fileOnFeature()).split('\n').slice(0, 2)).toEqual(['First line', 'LINE 2'])
    const head = await featureHead()
    expect(head.parent_ids).toEqual([before.id])
    expect(res.json().commit_id).toBe(head.id)
    expect(head).toMatchObject({
      title: 'Apply 1 suggestion(s) to 1 file(s)',
      author_name: 'Rae Reviewer',
      committer_name: 'Dee Developer',
    })
    // GitLab's co-authors are every author but the one applying, so the sole author is named too.
    expect((await lastCommit()).message).toBe(
      'Apply 1 suggestion(s) to 1 file(s)\n\nCo-authored-by: Rae Reviewer <reviewer@example.com>\n',
    )
    // The merge request follows its branch, and the thread is resolved.
    expect((await call('GET', mrUrl)).json().sha).toBe(head.id)
    const discussions = (await call('GET', `${mrUrl}/discussions?per_page=100`)).json()
    const shown = discussions.flatMap((d: Json) => d.notes).find((n: Json) => n.id === note.id)
    expect(shown).toMatchObject({ resolved: true, suggestions: [expect.objectContaining({ id, applied: true })] })
  })

  it('refuses to apply a suggestion twice, leaving the branch as it is', async () => {
    const note = await thread({ new_line: 3 }, suggestion('Third'))
    const id = suggestionsOf(note)[0].id as number
    expect((await call('PUT', `/api/v4/suggestions/${id}/apply`)).statusCode).toBe(200)
    const head = await featureHead()
    const again = await call('PUT', `/api/v4/suggestions/${id}/apply`)
    expect(again.statusCode).toBe(400)
    expect(again.json()).toEqual({ message: 'This suggestion has already been applied.' })
    expect((await featureHead()).id).toBe(head.id)
  })

  it('applies several suggestions in one commit with a custom message, placeholders filled, ids as GitLab’s "b,a" text', async () => {
    const a = suggestionsOf(await thread({ new_line: 10 }, suggestion('ten')))[0].id as number
    const b = suggestionsOf(await thread({ new_line: 12 }, suggestion('twelve\nthirteen')))[0].id as number
    const before = await featureHead()
    // The list form is the 404 case's below (and the conformance fixture's).
    const res = await call('PUT', '/api/v4/suggestions/batch_apply', {
      ids: `${b}, ${a}`,
      commit_message: 'Take %{suggestions_count} from review on %{branch_name}',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().map((x: Json) => [x.id, x.applied])).toEqual([
      [a, true],
      [b, true],
    ])
    expect((await fileOnFeature()).split('\n').slice(9)).toEqual(['ten', 'LINE 11', 'twelve', 'thirteen', ''])
    const head = await featureHead()
    expect(head).toMatchObject({ title: 'Take 2 from review on feature', parent_ids: [before.id] })
  })

  it('names the other authors of a batch as Co-authored-by trailers, the one applying authoring the commit', async () => {
    const ids = [
      suggestionsOf(await thread({ new_line: 2 }, suggestion('two')))[0].id,
      suggestionsOf(await thread({ new_line: 8 }, suggestion('eight'), critic.token))[0].id,
      suggestionsOf(await thread({ new_line: 9 }, suggestion('nine'), dev.token))[0].id,
      suggestionsOf(await thread({ new_line: 11 }, suggestion('eleven')))[0].id,
    ]
    const res = await call('PUT', '/api/v4/suggestions/batch_apply', { ids })
    expect(res.statusCode, res.body).toBe(200)
    const applied = await lastCommit()
    // Each other author once, in the order of their suggestions, with their commit email.
    expect(applied.message).toBe(
      'Apply 4 suggestion(s) to 1 file(s)\n\n' +
        'Co-authored-by: Rae Reviewer <reviewer@example.com>\n' +
        'Co-authored-by: Cy Critic <cy@commits.example.com>\n',
    )
    const trailers = await gitText(['interpret-trailers', '--parse'], { gitDir, input: applied.message })
    expect(trailers.trim().split('\n')).toEqual([
      'Co-authored-by: Rae Reviewer <reviewer@example.com>',
      'Co-authored-by: Cy Critic <cy@commits.example.com>',
    ])
    // Several authors: the commit is the applier's.
    expect([applied.author, applied.committer]).toEqual([
      'Dee Developer <dev@example.com>',
      'Dee Developer <dev@example.com>',
    ])

    // Applying one's own suggestion names nobody, and leaves no blank lines behind.
    const own = suggestionsOf(await thread({ new_line: 13 }, suggestion('Thirteen'), dev.token))[0].id as number
    expect((await call('PUT', `/api/v4/suggestions/${own}/apply`)).statusCode).toBe(200)
    expect((await lastCommit()).message).toBe('Apply 1 suggestion(s) to 1 file(s)\n')
  })

  it('refuses overlapping suggestions in a batch and writes nothing', async () => {
    const a = suggestionsOf(await thread({ new_line: 4 }, suggestion('x', ':-0+1')))[0].id as number
    const b = suggestionsOf(await thread({ new_line: 5 }, suggestion('y')))[0].id as number
    const head = await featureHead()
    const res = await call('PUT', '/api/v4/suggestions/batch_apply', { ids: [a, b] })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ message: 'Suggestions are not applicable as their lines cannot overlap.' })
    expect((await featureHead()).id).toBe(head.id)
  })

  it('refuses a suggestion whose content is what the lines already hold', async () => {
    const id = suggestionsOf(await thread({ new_line: 6 }, suggestion('LINE 6')))[0].id as number
    const res = await call('PUT', `/api/v4/suggestions/${id}/apply`)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ message: 'This suggestion already matches its content.' })
  })

  it('answers unknown suggestions 404 and a batch without ids 400', async () => {
    const one = await call('PUT', '/api/v4/suggestions/999999/apply')
    expect(one.statusCode).toBe(404)
    expect(one.json()).toEqual({ message: 'Suggestion is not applicable as the suggestion was not found.' })
    const id = suggestionsOf(await thread({ new_line: 9 }, suggestion('nine')))[0].id as number
    const batch = await call('PUT', '/api/v4/suggestions/batch_apply', { ids: [id, 999999] })
    expect(batch.statusCode).toBe(404)
    expect(batch.json()).toEqual({
      message: 'Suggestions are not applicable as one or more suggestions were not found.',
    })
    expect((await call('PUT', '/api/v4/suggestions/batch_apply', {})).json()).toEqual({ error: 'ids is missing' })
    expect((await call('PUT', '/api/v4/suggestions/batch_apply', { ids: [] })).statusCode).toBe(400)
    for (const ids of ['1,x', '0', ', ']) {
      const bad = await call('PUT', '/api/v4/suggestions/batch_apply', { ids })
      expect(bad.statusCode).toBe(400)
    }
    expect((await call('PUT', '/api/v4/suggestions/abc/apply')).statusCode).toBe(400)
  })

  it('answers 404 to whoever may not read the private project, 403 to a reader who may not push, 401 anonymously', async () => {
    const id = suggestionsOf(await thread({ new_line: 11 }, suggestion('eleven')))[0].id as number
    const head = await featureHead()
    const hidden = await call('PUT', `/api/v4/suggestions/${id}/apply`, undefined, outsider.token)
    expect(hidden.statusCode).toBe(404)
    expect(hidden.json()).toEqual({ message: 'Suggestion is not applicable as the suggestion was not found.' })
    expect((await call('PUT', `/api/v4/suggestions/${id}/apply`, undefined, reviewer.token)).statusCode).toBe(403)
    expect((await call('PUT', `/api/v4/suggestions/${id}/apply`, undefined, null)).statusCode).toBe(401)
    expect((await featureHead()).id).toBe(head.id)
  })

  it('refuses a suggestion whose line a later push changed, and says it is not appliable', async () => {
    const note = await thread({ new_line: 7 }, suggestion('seven'))
    const id = suggestionsOf(note)[0].id as number
    const lines = (await fileOnFeature()).split('\n')
    lines[6] = 'LINE SEVEN'
    await commit('feature', [{ action: 'update', file_path: 'app.txt', content: lines.join('\n') }])
    const shown = (await call('GET', `${mrUrl}/notes/${note.id as number}`)).json()
    expect(shown.suggestions[0]).toMatchObject({ id, appliable: false, applied: false })
    const res = await call('PUT', `/api/v4/suggestions/${id}/apply`)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ message: "Can't apply as this line was changed in a more recent version." })
  })

  it('refuses suggestions of a closed merge request', async () => {
    const id = suggestionsOf(await thread({ new_line: 8 }, suggestion('eight')))[0].id as number
    expect((await call('PUT', mrUrl, { state_event: 'close' })).statusCode).toBe(200)
    const res = await call('PUT', `/api/v4/suggestions/${id}/apply`)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({
      message: 'This merge request is closed. To apply this suggestion, edit this file directly.',
    })
    expect((await call('PUT', mrUrl, { state_event: 'reopen' })).statusCode).toBe(200)
  })
})
