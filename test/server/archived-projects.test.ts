import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { STAYS_WRITABLE } from '../../src/server/platform/http/archived'
import { commitFiles, createProject } from '../helpers/ci'
import { seedMember } from '../helpers/fixtures'
import { commitFiles as commitLocal, makeWorkRepo, remoteUrl, sh, shFails } from '../helpers/git'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** One request: `[method, path below /api/v4, body?, status expected when the project is not archived]`. */
type Write = readonly [Method, string, Json | undefined, number]

describe('archived projects are read-only', () => {
  let s: ListeningServer
  let owner: SeededUser
  let dev: SeededUser
  let stranger: SeededUser
  let pid: number
  let path: string

  const call = (
    token: string | null,
    method: Method,
    url: string,
    payload?: Json,
  ): Promise<{ statusCode: number; json: () => Json; body: string }> =>
    s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
  const json = async (token: string, method: Method, url: string, payload?: Json, status = 201): Promise<Json> => {
    const res = await call(token, method, url, payload)
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status)
    return res.json()
  }
  const setArchived = async (archived: boolean): Promise<void> => {
    const res = await call(owner.token, 'POST', `/projects/${pid}/${archived ? 'archive' : 'unarchive'}`)
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json().archived).toBe(archived)
  }

  /** Each write answers 403 `{"message":"403 Forbidden"}` while archived, then its usual status once unarchived. */
  async function refusedThenAccepted(
    token: string,
    writes: readonly Write[],
    reads: readonly string[] = [],
  ): Promise<Json[]> {
    await setArchived(true)
    for (const [method, url, payload] of writes) {
      const res = await call(token, method, url, payload)
      expect({ write: `${method} ${url}`, status: res.statusCode, body: res.json() }).toEqual({
        write: `${method} ${url}`,
        status: 403,
        body: { message: '403 Forbidden' },
      })
    }
    for (const url of reads) expect((await call(token, 'GET', url)).statusCode, `GET ${url}`).toBe(200)
    await setArchived(false)
    const accepted: Json[] = []
    for (const [method, url, payload, status] of writes) {
      const res = await call(token, method, url, payload)
      expect(res.statusCode, `${method} ${url} after unarchiving: ${res.body}`).toBe(status)
      accepted.push(res.statusCode === 204 ? {} : res.json())
    }
    return accepted
  }

  beforeAll(async () => {
    s = await startServer()
    owner = seedUser(s)
    dev = seedUser(s)
    stranger = seedUser(s)
    pid = await createProject(s, owner.token, { visibility: 'public' })
    seedMember(s, 'Project', pid, dev.user.id, AccessLevel.DEVELOPER)
    path = String((await json(owner.token, 'GET', `/projects/${pid}`, undefined, 200)).path_with_namespace)
  })
  afterAll(async () => {
    await s.close()
  })

  it('refuses comments, discussions, award emoji and time tracking on issues; reads still work', async () => {
    const issue = await json(dev.token, 'POST', `/projects/${pid}/issues`, { title: 'Before archiving' })
    const base = `/projects/${pid}/issues/${issue.iid}`
    const note = await json(dev.token, 'POST', `${base}/notes`, { body: 'first' })
    await refusedThenAccepted(
      dev.token,
      [
        ['POST', `/projects/${pid}/issues`, { title: 'New' }, 201],
        ['PUT', base, { title: 'Renamed' }, 200],
        ['POST', `${base}/notes`, { body: 'a comment' }, 201],
        ['PUT', `${base}/notes/${note.id}`, { body: 'edited' }, 200],
        ['POST', `${base}/discussions`, { body: 'a thread' }, 201],
        ['POST', `${base}/award_emoji`, { name: 'thumbsup' }, 201],
        ['POST', `${base}/notes/${note.id}/award_emoji`, { name: 'tada' }, 201],
        ['POST', `${base}/add_spent_time`, { duration: '1h' }, 201],
        ['POST', `${base}/time_estimate`, { duration: '2h' }, 200],
      ],
      [base, `${base}/notes`, `${base}/discussions`, `${base}/award_emoji`, `${base}/time_stats`],
    )
  })

  it('refuses merge request creation, update, comments, approval, rebase and merge', async () => {
    await commitFiles(s, owner.token, pid, 'feature', { 'feature.txt': 'one\n' }, { startBranch: 'main' })
    await commitFiles(s, owner.token, pid, 'other', { 'other.txt': 'two\n' }, { startBranch: 'main' })
    const mr = await json(owner.token, 'POST', `/projects/${pid}/merge_requests`, {
      source_branch: 'feature',
      target_branch: 'main',
      title: 'Feature',
    })
    const base = `/projects/${pid}/merge_requests/${mr.iid}`
    await setArchived(true)
    for (const [method, url, payload] of [
      ['PUT', `${base}/rebase`, undefined],
      ['PUT', `${base}/merge`, undefined],
      ['DELETE', base, undefined],
    ] as const) {
      expect((await call(owner.token, method, url, payload)).statusCode, `${method} ${url}`).toBe(403)
    }
    await setArchived(false)
    const [created] = await refusedThenAccepted(
      dev.token,
      [
        [
          'POST',
          `/projects/${pid}/merge_requests`,
          { source_branch: 'other', target_branch: 'main', title: 'Other' },
          201,
        ],
        ['PUT', base, { title: 'Feature (renamed)' }, 200],
        ['POST', `${base}/notes`, { body: 'looks good' }, 201],
        ['POST', `${base}/discussions`, { body: 'a thread' }, 201],
        ['POST', `${base}/approve`, undefined, 201],
        ['POST', `${base}/award_emoji`, { name: 'rocket' }, 201],
      ],
      [base, `${base}/notes`, `${base}/changes`, `${base}/approvals`],
    )
    expect((await call(owner.token, 'PUT', `/projects/${pid}/merge_requests/${created.iid}/rebase`)).statusCode).toBe(
      202,
    )
    let merged = await call(owner.token, 'PUT', `${base}/merge`)
    for (let i = 0; i < 50 && merged.statusCode !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100))
      merged = await call(owner.token, 'PUT', `${base}/merge`)
    }
    expect(merged.statusCode, merged.body).toBe(200)
  })

  it('refuses the project’s labels and milestones; subscribing to a label stays possible', async () => {
    const label = await json(owner.token, 'POST', `/projects/${pid}/labels`, { name: 'bug', color: '#ff0000' })
    const milestone = await json(owner.token, 'POST', `/projects/${pid}/milestones`, { title: 'v1' })
    await setArchived(true)
    expect((await call(dev.token, 'POST', `/projects/${pid}/labels/${label.id}/subscribe`)).statusCode).toBe(201)
    await setArchived(false)
    await refusedThenAccepted(
      owner.token,
      [
        ['POST', `/projects/${pid}/labels`, { name: 'feature', color: '#00ff00' }, 201],
        ['PUT', `/projects/${pid}/labels/${label.id}`, { color: '#0000ff' }, 200],
        ['POST', `/projects/${pid}/milestones`, { title: 'v2' }, 201],
        ['PUT', `/projects/${pid}/milestones/${milestone.id}`, { description: 'First' }, 200],
        ['DELETE', `/projects/${pid}/labels/${label.id}`, undefined, 204],
      ],
      [`/projects/${pid}/labels`, `/projects/${pid}/milestones`, `/projects/${pid}/milestones/${milestone.id}`],
    )
  })

  it('refuses repository writes (files, commits, branches, tags); protected branches stay a setting', async () => {
    await commitFiles(s, owner.token, pid, 'doomed', { 'doomed.txt': 'x\n' }, { startBranch: 'main' })
    await setArchived(true)
    expect(
      (await call(owner.token, 'POST', `/projects/${pid}/protected_branches`, { name: 'release/*' })).statusCode,
    ).toBe(201)
    await setArchived(false)
    await refusedThenAccepted(
      owner.token,
      [
        [
          'POST',
          `/projects/${pid}/repository/files/new.txt`,
          { branch: 'main', content: 'new\n', commit_message: 'Add new.txt' },
          201,
        ],
        [
          'POST',
          `/projects/${pid}/repository/commits`,
          {
            branch: 'main',
            commit_message: 'More',
            actions: [{ action: 'create', file_path: 'more.txt', content: 'more\n' }],
          },
          201,
        ],
        ['POST', `/projects/${pid}/repository/branches`, { branch: 'fresh', ref: 'main' }, 201],
        ['DELETE', `/projects/${pid}/repository/branches/doomed`, undefined, 204],
        ['POST', `/projects/${pid}/repository/tags`, { tag_name: 'v1.0.0', ref: 'main' }, 201],
      ],
      [
        `/projects/${pid}/repository/tree`,
        `/projects/${pid}/repository/branches`,
        `/projects/${pid}/repository/files/README.md?ref=main`,
        `/projects/${pid}/repository/commits`,
      ],
    )
  })

  it('refuses snippets and their comments', async () => {
    const snippet = await json(owner.token, 'POST', `/projects/${pid}/snippets`, {
      title: 'One',
      file_name: 'a.txt',
      content: 'a',
      visibility: 'public',
    })
    await refusedThenAccepted(
      owner.token,
      [
        [
          'POST',
          `/projects/${pid}/snippets`,
          { title: 'Two', file_name: 'b.txt', content: 'b', visibility: 'public' },
          201,
        ],
        ['PUT', `/projects/${pid}/snippets/${snippet.id}`, { title: 'One (edited)' }, 200],
        ['POST', `/projects/${pid}/snippets/${snippet.id}/notes`, { body: 'nice' }, 201],
      ],
      [`/projects/${pid}/snippets`, `/projects/${pid}/snippets/${snippet.id}`],
    )
  })

  it('refuses pipelines, jobs and environments', async () => {
    await commitFiles(s, owner.token, pid, 'main', { '.gitlab-ci.yml': 'build:\n  script: echo build\n' })
    const pipelines = (await json(owner.token, 'GET', `/projects/${pid}/pipelines`, undefined, 200)) as unknown as {
      id: number
    }[]
    const pipeline = pipelines[0]
    const jobs = (await json(
      owner.token,
      'GET',
      `/projects/${pid}/pipelines/${pipeline.id}/jobs`,
      undefined,
      200,
    )) as unknown as { id: number }[]
    await refusedThenAccepted(
      owner.token,
      [
        ['POST', `/projects/${pid}/jobs/${jobs[0].id}/cancel`, undefined, 201],
        ['POST', `/projects/${pid}/pipelines/${pipeline.id}/retry`, undefined, 201],
        ['POST', `/projects/${pid}/pipeline`, { ref: 'main' }, 201],
        ['POST', `/projects/${pid}/environments`, { name: 'staging' }, 201],
      ],
      [`/projects/${pid}/pipelines`, `/projects/${pid}/pipelines/${pipeline.id}/jobs`, `/projects/${pid}/environments`],
    )
  })

  it('keeps settings, membership, subscriptions, to-dos and stars writable; asking for access is refused', async () => {
    const issue = await json(owner.token, 'POST', `/projects/${pid}/issues`, { title: 'Followed' })
    const newcomer = seedUser(s)
    await setArchived(true)
    try {
      await json(owner.token, 'PUT', `/projects/${pid}`, { description: 'Kept for the record' }, 200)
      await json(dev.token, 'POST', `/projects/${pid}/issues/${issue.iid}/subscribe`, undefined, 201)
      await json(dev.token, 'POST', `/projects/${pid}/issues/${issue.iid}/todo`, undefined, 201)
      await json(dev.token, 'POST', `/projects/${pid}/star`, undefined, 201)
      await json(
        owner.token,
        'POST',
        `/projects/${pid}/members`,
        { user_id: newcomer.user.id, access_level: AccessLevel.REPORTER },
        201,
      )
      await json(owner.token, 'POST', `/projects/${pid}/variables`, { key: 'KEPT', value: 'yes' }, 201)
      expect((await call(stranger.token, 'POST', `/projects/${pid}/access_requests`)).statusCode).toBe(403)
    } finally {
      await setArchived(false)
    }
  })

  it('answers 404 to non-members of a private archived project and 401 to anonymous callers first', async () => {
    const hidden = await createProject(s, owner.token, { visibility: 'private' })
    const issue = await json(owner.token, 'POST', `/projects/${hidden}/issues`, { title: 'Secret' })
    await json(owner.token, 'POST', `/projects/${hidden}/archive`)
    expect(
      (await call(stranger.token, 'POST', `/projects/${hidden}/issues/${issue.iid}/notes`, { body: 'hi' })).statusCode,
    ).toBe(404)
    expect(
      (await call(stranger.token, 'POST', `/projects/${hidden}/labels`, { name: 'x', color: '#000000' })).statusCode,
    ).toBe(404)
    await setArchived(true)
    try {
      expect((await call(null, 'POST', `/projects/${pid}/labels`, { name: 'x', color: '#000000' })).statusCode).toBe(
        401,
      )
      expect((await call(owner.token, 'POST', `/projects/${pid}/repository/branches`, {})).statusCode).toBe(400)
    } finally {
      await setArchived(false)
    }
  })

  it('moves no issue into or out of an archived project; cloning out of one is allowed', async () => {
    const other = await createProject(s, owner.token, { visibility: 'public' })
    const here = await json(owner.token, 'POST', `/projects/${other}/issues`, { title: 'Movable' })
    const there = await json(owner.token, 'POST', `/projects/${pid}/issues`, { title: 'In the archive' })
    await setArchived(true)
    try {
      expect(
        (await call(owner.token, 'POST', `/projects/${other}/issues/${here.iid}/move`, { to_project_id: pid }))
          .statusCode,
      ).toBe(403)
      expect(
        (await call(owner.token, 'POST', `/projects/${other}/issues/${here.iid}/clone`, { to_project_id: pid }))
          .statusCode,
      ).toBe(403)
      expect(
        (await call(owner.token, 'POST', `/projects/${pid}/issues/${there.iid}/move`, { to_project_id: other }))
          .statusCode,
      ).toBe(403)
      const clone = await json(owner.token, 'POST', `/projects/${pid}/issues/${there.iid}/clone`, {
        to_project_id: other,
      })
      expect(clone.project_id).toBe(other)
    } finally {
      await setArchived(false)
    }
  })

  it('leaves an issue of an archived project open when a merge request elsewhere says it closes it', async () => {
    const other = await createProject(s, owner.token, { visibility: 'public' })
    const target = await json(owner.token, 'POST', `/projects/${pid}/issues`, { title: 'Closed by a merge elsewhere?' })
    await commitFiles(s, owner.token, other, 'fix', { 'fix.txt': 'fix\n' }, { startBranch: 'main' })
    const mr = await json(owner.token, 'POST', `/projects/${other}/merge_requests`, {
      source_branch: 'fix',
      target_branch: 'main',
      title: 'Fix',
      description: `Closes ${path}#${target.iid}`,
    })
    await setArchived(true)
    try {
      let merged = await call(owner.token, 'PUT', `/projects/${other}/merge_requests/${mr.iid}/merge`)
      for (let i = 0; i < 50 && merged.statusCode !== 200; i++) {
        await new Promise((r) => setTimeout(r, 100))
        merged = await call(owner.token, 'PUT', `/projects/${other}/merge_requests/${mr.iid}/merge`)
      }
      expect(merged.statusCode, merged.body).toBe(200)
      expect((await json(owner.token, 'GET', `/projects/${pid}/issues/${target.iid}`, undefined, 200)).state).toBe(
        'opened',
      )
    } finally {
      await setArchived(false)
    }
  })

  it('refuses a git push over smart HTTP with GitLab’s message; clones still work; the push lands after unarchiving', async () => {
    const work = makeWorkRepo()
    await sh(work, 'pull', '--quiet', remoteUrl(s.url, path, owner.token), 'main')
    commitLocal(work, { 'pushed.txt': 'pushed\n' }, 'Pushed over HTTP')
    await setArchived(true)
    try {
      expect(await shFails(work, 'push', '--quiet', remoteUrl(s.url, path, owner.token), 'HEAD:main')).toContain(
        'You are not allowed to push code to an archived project.',
      )
      const dir = mkdtempSync(join(tmpdir(), 'burrow-archived-clone-'))
      await sh(dir, 'clone', '--quiet', remoteUrl(s.url, path, owner.token), 'c')
      expect(readFileSync(join(dir, 'c', 'README.md'), 'utf8').length).toBeGreaterThan(0)
    } finally {
      await setArchived(false)
    }
    await sh(work, 'push', '--quiet', remoteUrl(s.url, path, owner.token), 'HEAD:main')
    expect((await call(owner.token, 'GET', `/projects/${pid}/repository/files/pushed.txt/raw?ref=main`)).body).toBe(
      'pushed\n',
    )
  })

  it('python-gitlab: issue.notes.create raises GitlabCreateError 403 on an archived project, and works after unarchiving', async () => {
    const issue = await json(dev.token, 'POST', `/projects/${pid}/issues`, { title: 'Over the wire' })
    const script = (archived: boolean): string => `
project = gl.projects.get(${pid})
${archived ? 'project.archive()' : 'project.unarchive()'}
issue = project.issues.get(${issue.iid})
try:
    note = issue.notes.create({'body': 'from python'})
    out({'created': note.body})
except gitlab.exceptions.GitlabCreateError as e:
    out({'error': type(e).__name__, 'code': e.response_code, 'message': e.error_message, 'title': issue.title})
`
    expect(await withPythonGitlab(s.url, { private_token: owner.token }, script(true))).toEqual({
      error: 'GitlabCreateError',
      code: 403,
      message: '403 Forbidden',
      title: 'Over the wire',
    })
    expect(await withPythonGitlab(s.url, { private_token: owner.token }, script(false))).toEqual({
      created: 'from python',
    })
  })

  it('names only routes that exist in what stays writable (a misspelt entry would refuse the route)', () => {
    for (const entry of STAYS_WRITABLE) {
      const [method, rest] = entry.split(' ') as [Method, string]
      expect(s.app.hasRoute({ method, url: `/api/v4/projects/:id${rest}` }), entry).toBe(true)
    }
  })

  it('root (an administrator) is refused too', async () => {
    await setArchived(true)
    try {
      expect(
        (await call(ROOT_TOKEN, 'POST', `/projects/${pid}/labels`, { name: 'admin', color: '#123456' })).statusCode,
      ).toBe(403)
    } finally {
      await setArchived(false)
    }
  })
})
