import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Gitlab } from '@gitbeaker/rest'
import { buildApp } from '../../src/server/app'
import { AccessLevel } from '../../src/server/platform/auth/access'
import {
  findStorageMove,
  insertStorageMove,
  isProjectReadOnly,
  setStorageMoveState,
  switchProjectStorage,
} from '../../src/server/modules/storage-moves/queries'
import { git } from '../../src/server/platform/git/git'
import { RepositoryStorage } from '../../src/server/platform/git/storage'
import {
  holdStorageMoves,
  READ_ONLY_MESSAGE,
  resumeStorageMoves,
  storageMovesIdle,
} from '../../src/server/modules/storage-moves/service'
import { seedGroup, seedMember } from '../helpers/fixtures'
import {
  makeServer,
  ROOT_TOKEN,
  seedUser,
  startServer,
  type ListeningServer,
  type SeededUser,
  type TestServer,
} from '../helpers/server'

const API = '/api/v4'
const STORAGES = ['default', 'fast-ssd']

interface Move {
  id: number
  state: string
  source_storage_name: string
  destination_storage_name: string
  error_message: string | null
  created_at: string
  project?: Record<string, unknown>
  snippet?: Record<string, unknown>
  group?: Record<string, unknown>
}

describe('repository storage moves', () => {
  let s: TestServer
  let admin: SeededUser
  let dev: SeededUser

  const asRoot = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    s.request(ROOT_TOKEN, { method, url: `${API}${url}`, payload })
  const repoPath = (storage: string, kind: 'project' | 'wiki' | 'snippet' | 'group', id: number): string =>
    join(s.dataDir, 'repositories', storage, RepositoryStorage.hashedPath(kind, id))
  const createProject = async (name: string): Promise<{ id: number; path_with_namespace: string }> => {
    const res = await asRoot('POST', '/projects', { name, initialize_with_readme: true })
    expect(res.statusCode).toBe(201)
    return res.json()
  }
  const storageOf = async (id: number): Promise<string> =>
    (await asRoot('GET', `/projects/${id}`)).json().repository_storage

  beforeAll(async () => {
    s = await makeServer({ storages: STORAGES })
    admin = seedUser(s, { admin: true })
    dev = seedUser(s)
  })
  afterAll(async () => {
    await s.close()
  })

  it('moves a project repository to the destination storage and finishes', async () => {
    const project = await createProject('mover')
    const old = repoPath('default', 'project', project.id)
    const head = (await git(['rev-parse', 'refs/heads/main'], { gitDir: old })).stdout.toString().trim()

    const res = await asRoot('POST', `/projects/${project.id}/repository_storage_moves`, {
      destination_storage_name: 'fast-ssd',
    })
    expect(res.statusCode).toBe(201)
    const move = res.json() as Move
    expect(move).toEqual({
      id: expect.any(Number),
      created_at: expect.any(String),
      state: 'scheduled',
      source_storage_name: 'default',
      destination_storage_name: 'fast-ssd',
      error_message: null,
      project: {
        id: project.id,
        description: null,
        name: 'mover',
        name_with_namespace: 'Administrator / mover',
        path: 'mover',
        path_with_namespace: project.path_with_namespace,
        created_at: expect.any(String),
      },
    })

    await storageMovesIdle(s.app.burrow)
    expect((await asRoot('GET', `/project_repository_storage_moves/${move.id}`)).json().state).toBe('finished')
    expect(await storageOf(project.id)).toBe('fast-ssd')
    const moved = repoPath('fast-ssd', 'project', project.id)
    expect((await git(['rev-parse', 'refs/heads/main'], { gitDir: moved })).stdout.toString().trim()).toBe(head)
    expect(existsSync(old)).toBe(false)
    // The repository is served from its new place and is writable again.
    const file = await asRoot('GET', `/projects/${project.id}/repository/files/README.md?ref=main`)
    expect(file.statusCode).toBe(200)
    const commit = await asRoot('POST', `/projects/${project.id}/repository/files/NEW.md`, {
      branch: 'main',
      content: 'after the move',
      commit_message: 'After',
    })
    expect(commit.statusCode).toBe(201)
  })

  it('lists a moved project under its new storage with GET /projects?repository_storage=', async () => {
    const project = await createProject('listed-after-move')
    await asRoot('POST', `/projects/${project.id}/repository_storage_moves`, { destination_storage_name: 'fast-ssd' })
    await storageMovesIdle(s.app.burrow)
    const on = async (storage: string): Promise<number[]> =>
      ((await asRoot('GET', `/projects?repository_storage=${storage}&per_page=100`)).json() as { id: number }[]).map(
        (p) => p.id,
      )
    expect(await on('fast-ssd')).toContain(project.id)
    expect(await on('default')).not.toContain(project.id)
  })

  it('keeps the repository read-only while a move is scheduled: API writes (files, commits, branches, tags, merge, rebase) refused with the message, reads served', async () => {
    const project = await createProject('frozen')
    await asRoot('POST', `/projects/${project.id}/repository/files/topic.md`, {
      branch: 'topic',
      start_branch: 'main',
      content: 't',
      commit_message: 'Topic',
    })
    const mr = (
      await asRoot('POST', `/projects/${project.id}/merge_requests`, {
        source_branch: 'topic',
        target_branch: 'main',
        title: 'Topic',
      })
    ).json() as { iid: number }
    const release = holdStorageMoves(s.app.burrow)
    try {
      const move = (
        await asRoot('POST', `/projects/${project.id}/repository_storage_moves`, {
          destination_storage_name: 'fast-ssd',
        })
      ).json() as Move
      expect((await asRoot('GET', `/project_repository_storage_moves/${move.id}`)).json().state).toBe('scheduled')
      const refused = { message: READ_ONLY_MESSAGE }
      const file = await asRoot('POST', `/projects/${project.id}/repository/files/x.md`, {
        branch: 'main',
        content: 'x',
        commit_message: 'x',
      })
      expect([file.statusCode, file.json()]).toEqual([400, refused])
      const commit = await asRoot('POST', `/projects/${project.id}/repository/commits`, {
        branch: 'main',
        commit_message: 'c',
        actions: [{ action: 'create', file_path: 'c.md', content: 'c' }],
      })
      expect([commit.statusCode, commit.json()]).toEqual([400, refused])
      const branch = await asRoot('POST', `/projects/${project.id}/repository/branches`, {
        branch: 'feature',
        ref: 'main',
      })
      expect([branch.statusCode, branch.json()]).toEqual([400, refused])
      const tag = await asRoot('POST', `/projects/${project.id}/repository/tags`, { tag_name: 'v1', ref: 'main' })
      expect([tag.statusCode, tag.json()]).toEqual([400, refused])
      const removal = await asRoot('DELETE', `/projects/${project.id}/repository/branches/main`)
      expect([removal.statusCode, removal.json()]).toEqual([400, refused])
      const merge = await asRoot('PUT', `/projects/${project.id}/merge_requests/${mr.iid}/merge`)
      expect([merge.statusCode, merge.json()]).toEqual([400, refused])
      const rebase = await asRoot('PUT', `/projects/${project.id}/merge_requests/${mr.iid}/rebase`)
      expect([rebase.statusCode, rebase.json()]).toEqual([400, refused])
      expect((await asRoot('GET', `/projects/${project.id}/repository/branches/main`)).statusCode).toBe(200)
      // A second move of the same project is refused while this one is pending.
      const again = await asRoot('POST', `/projects/${project.id}/repository_storage_moves`, {
        destination_storage_name: 'fast-ssd',
      })
      expect([again.statusCode, again.json()]).toEqual([400, { message: { project: ['is read-only'] } }])
      // Released, the move starts at once (its first step runs before anything else can): started, still read-only.
      release()
      expect(findStorageMove(s.app.burrow.db, move.id)?.state).toBe('started')
      expect(isProjectReadOnly(s.app.burrow.db, project.id)).toBe(true)
    } finally {
      release()
    }
    await storageMovesIdle(s.app.burrow)
    const branch = await asRoot('POST', `/projects/${project.id}/repository/branches`, {
      branch: 'feature',
      ref: 'main',
    })
    expect(branch.statusCode).toBe(201)
  })

  it('schedules every project of a storage with the bulk endpoint (202) and moves them all', async () => {
    const a = await createProject('bulk-a')
    const b = await createProject('bulk-b')
    const res = await asRoot('POST', '/project_repository_storage_moves', {
      source_storage_name: 'default',
      destination_storage_name: 'fast-ssd',
    })
    expect([res.statusCode, res.json()]).toEqual([202, { message: '202 Accepted' }])
    await storageMovesIdle(s.app.burrow)
    expect(await storageOf(a.id)).toBe('fast-ssd')
    expect(await storageOf(b.id)).toBe('fast-ssd')
    expect(((await asRoot('GET', '/projects?repository_storage=default')).json() as unknown[]).length).toBe(0)
    const moves = (await asRoot('GET', `/projects/${b.id}/repository_storage_moves`)).json() as Move[]
    expect(moves.map((m) => [m.state, m.source_storage_name, m.destination_storage_name])).toEqual([
      ['finished', 'default', 'fast-ssd'],
    ])
    // And back again, so later tests start from the default storage.
    await asRoot('POST', '/project_repository_storage_moves', {
      source_storage_name: 'fast-ssd',
      destination_storage_name: 'default',
    })
    await storageMovesIdle(s.app.burrow)
    expect(await storageOf(a.id)).toBe('default')
    expect(existsSync(join(repoPath('default', 'project', a.id), 'HEAD'))).toBe(true)
    expect(existsSync(repoPath('fast-ssd', 'project', a.id))).toBe(false)
  })

  it('fails a move whose copy cannot be made, leaving the original in place and writable', async () => {
    const project = await createProject('unmovable')
    // A file where the destination's directory tree must go makes the copy fail.
    const blocker = join(
      s.dataDir,
      'repositories',
      'fast-ssd',
      RepositoryStorage.hashedPath('project', project.id).split('/').slice(0, 3).join('/'),
    )
    mkdirSync(join(blocker, '..'), { recursive: true })
    writeFileSync(blocker, 'not a directory')
    try {
      const move = (
        await asRoot('POST', `/projects/${project.id}/repository_storage_moves`, {
          destination_storage_name: 'fast-ssd',
        })
      ).json() as Move
      expect(move.error_message).toBeNull()
      await storageMovesIdle(s.app.burrow)
      const failed = (await asRoot('GET', `/project_repository_storage_moves/${move.id}`)).json() as Move
      // GitLab's BasicRepositoryStorageMove shows why: here the copy's mkdir under a file.
      expect(failed).toMatchObject({ state: 'failed', error_message: expect.stringMatching(/\S/) })
      expect(await storageOf(project.id)).toBe('default')
      expect(existsSync(join(repoPath('default', 'project', project.id), 'HEAD'))).toBe(true)
      const commit = await asRoot('POST', `/projects/${project.id}/repository/files/still.md`, {
        branch: 'main',
        content: 'ok',
        commit_message: 'Still writable',
      })
      expect(commit.statusCode).toBe(201)
    } finally {
      ;(await import('node:fs')).rmSync(blocker, { force: true })
    }
  })

  it('moves the repository when an administrator changes repository_storage with PUT /projects/:id', async () => {
    const project = await createProject('put-storage')
    const res = await asRoot('PUT', `/projects/${project.id}`, { repository_storage: 'fast-ssd' })
    expect(res.statusCode).toBe(200)
    await storageMovesIdle(s.app.burrow)
    expect(await storageOf(project.id)).toBe('fast-ssd')
    const moves = (await asRoot('GET', `/projects/${project.id}/repository_storage_moves`)).json() as Move[]
    expect(moves.map((m) => m.state)).toEqual(['finished'])
    expect(existsSync(join(repoPath('fast-ssd', 'project', project.id), 'HEAD'))).toBe(true)
  })

  it('answers GitLab validation errors for bad storage names', async () => {
    const project = await createProject('validated')
    const unknown = await asRoot('POST', `/projects/${project.id}/repository_storage_moves`, {
      destination_storage_name: 'tape',
    })
    expect([unknown.statusCode, unknown.json()]).toEqual([
      400,
      { message: { destination_storage_name: ['is not included in the list'] } },
    ])
    const missing = await asRoot('POST', '/project_repository_storage_moves', {})
    expect([missing.statusCode, missing.json()]).toEqual([400, { error: 'source_storage_name is missing' }])
    const badSource = await asRoot('POST', '/project_repository_storage_moves', {
      source_storage_name: 'tape',
      destination_storage_name: 'fast-ssd',
    })
    expect([badSource.statusCode, badSource.json()]).toEqual([
      400,
      { error: 'source_storage_name does not have a valid value' },
    ])
    const badDestination = await asRoot('POST', '/snippet_repository_storage_moves', {
      source_storage_name: 'default',
      destination_storage_name: 'tape',
    })
    expect([badDestination.statusCode, badDestination.json()]).toEqual([
      400,
      { error: 'destination_storage_name does not have a valid value' },
    ])
    const put = await asRoot('PUT', `/projects/${project.id}`, { repository_storage: 'tape' })
    expect([put.statusCode, put.json()]).toEqual([
      400,
      { message: { repository_storage: ['is not included in the list'] } },
    ])
  })

  it('schedules the bulk moves without a destination: each goes where a single move would pick', async () => {
    const a = await createProject('bulk-auto-a')
    const b = await createProject('bulk-auto-b')
    const res = await asRoot('POST', '/project_repository_storage_moves', { source_storage_name: 'default' })
    expect([res.statusCode, res.json()]).toEqual([202, { message: '202 Accepted' }])
    await storageMovesIdle(s.app.burrow)
    expect([await storageOf(a.id), await storageOf(b.id)]).toEqual(['fast-ssd', 'fast-ssd'])
    const moves = (await asRoot('GET', `/projects/${a.id}/repository_storage_moves`)).json() as Move[]
    expect(moves.map((m) => [m.state, m.source_storage_name, m.destination_storage_name])).toEqual([
      ['finished', 'default', 'fast-ssd'],
    ])
    // And back again (the picked destination of a project on fast-ssd is default).
    await asRoot('POST', '/project_repository_storage_moves', { source_storage_name: 'fast-ssd' })
    await storageMovesIdle(s.app.burrow)
    expect([await storageOf(a.id), await storageOf(b.id)]).toEqual(['default', 'default'])
  })

  it('picks another configured storage when no destination is given', async () => {
    const project = await createProject('auto-destination')
    const move = (await asRoot('POST', `/projects/${project.id}/repository_storage_moves`, {})).json() as Move
    expect(move.destination_storage_name).toBe('fast-ssd')
    await storageMovesIdle(s.app.burrow)
  })

  it('answers the query endpoints newest first with pagination headers, and 404 for other kinds or containers', async () => {
    const a = await createProject('query-a')
    const b = await createProject('query-b')
    const first = (
      await asRoot('POST', `/projects/${a.id}/repository_storage_moves`, { destination_storage_name: 'fast-ssd' })
    ).json() as Move
    const second = (
      await asRoot('POST', `/projects/${b.id}/repository_storage_moves`, { destination_storage_name: 'fast-ssd' })
    ).json() as Move
    await storageMovesIdle(s.app.burrow)
    const page = await asRoot('GET', '/project_repository_storage_moves?per_page=2')
    expect(page.statusCode).toBe(200)
    expect((page.json() as Move[]).map((m) => m.id)).toEqual([second.id, first.id])
    expect(Number(page.headers['x-total'])).toBeGreaterThanOrEqual(2)
    expect(page.headers.link).toContain('rel="first"')
    const nested = (await asRoot('GET', `/projects/${a.id}/repository_storage_moves`)).json() as Move[]
    expect(nested.map((m) => m.id)).toEqual([first.id])
    expect((await asRoot('GET', `/projects/${a.id}/repository_storage_moves/${first.id}`)).json().id).toBe(first.id)
    const otherProject = await asRoot('GET', `/projects/${b.id}/repository_storage_moves/${first.id}`)
    expect([otherProject.statusCode, otherProject.json()]).toEqual([404, { message: '404 Not found' }])
    const otherKind = await asRoot('GET', `/snippet_repository_storage_moves/${first.id}`)
    expect([otherKind.statusCode, otherKind.json()]).toEqual([404, { message: '404 Not found' }])
    const noProject = await asRoot('GET', '/projects/999999/repository_storage_moves')
    expect([noProject.statusCode, noProject.json()]).toEqual([404, { message: '404 Project Not Found' }])
    const byPath = await asRoot(
      'GET',
      `/projects/${encodeURIComponent(a.path_with_namespace)}/repository_storage_moves`,
    )
    expect((byPath.json() as Move[]).map((m) => m.id)).toEqual([first.id])
  })

  it('records a snippet move, which finishes without a copy (snippets keep their content in the database)', async () => {
    const project = await createProject('snippets-home')
    const snippet = (
      await asRoot('POST', `/projects/${project.id}/snippets`, {
        title: 'Notes',
        file_name: 'notes.md',
        content: 'hello',
        visibility: 'private',
      })
    ).json() as { id: number }
    const res = await asRoot('POST', `/snippets/${snippet.id}/repository_storage_moves`, {
      destination_storage_name: 'fast-ssd',
    })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({
      state: 'scheduled',
      source_storage_name: 'default',
      destination_storage_name: 'fast-ssd',
      snippet: {
        id: snippet.id,
        title: 'Notes',
        description: null,
        visibility: 'private',
        author: { username: 'root' },
        project_id: project.id,
        web_url: `http://burrow.test/${project.path_with_namespace}/-/snippets/${snippet.id}`,
      },
    })
    await storageMovesIdle(s.app.burrow)
    const moves = (await asRoot('GET', `/snippets/${snippet.id}/repository_storage_moves`)).json() as Move[]
    expect(moves.map((m) => m.state)).toEqual(['finished'])
    // Its storage is now fast-ssd: a bulk move from fast-ssd brings it back.
    const bulk = await asRoot('POST', '/snippet_repository_storage_moves', {
      source_storage_name: 'fast-ssd',
      destination_storage_name: 'default',
    })
    expect(bulk.statusCode).toBe(202)
    await storageMovesIdle(s.app.burrow)
    const after = (await asRoot('GET', `/snippets/${snippet.id}/repository_storage_moves`)).json() as Move[]
    expect(after.map((m) => [m.state, m.source_storage_name, m.destination_storage_name])).toEqual([
      ['finished', 'fast-ssd', 'default'],
      ['finished', 'default', 'fast-ssd'],
    ])
    const missing = await asRoot('GET', '/snippets/999999/repository_storage_moves')
    expect([missing.statusCode, missing.json()]).toEqual([404, { message: '404 Snippet Not Found' }])
  })

  it("keeps a snippet's files read-only while its move is under way; title and visibility stay editable", async () => {
    const project = await createProject('snippet-move-home')
    const snippet = (
      await asRoot('POST', `/projects/${project.id}/snippets`, {
        title: 'Frozen',
        file_name: 'a.md',
        content: 'before',
        visibility: 'private',
      })
    ).json() as { id: number }
    const url = `/projects/${project.id}/snippets/${snippet.id}`
    const release = holdStorageMoves(s.app.burrow)
    try {
      const move = (
        await asRoot('POST', `/snippets/${snippet.id}/repository_storage_moves`, {
          destination_storage_name: 'fast-ssd',
        })
      ).json() as Move
      expect(move.state).toBe('scheduled')
      const content = await asRoot('PUT', url, { content: 'during' })
      expect([content.statusCode, content.json()]).toEqual([400, { message: READ_ONLY_MESSAGE }])
      const renamed = await asRoot('PUT', url, { file_name: 'b.md' })
      expect([renamed.statusCode, renamed.json()]).toEqual([400, { message: READ_ONLY_MESSAGE }])
      const title = await asRoot('PUT', url, { title: 'Still frozen', visibility: 'internal' })
      expect(title.statusCode).toBe(200)
      expect((await asRoot('GET', `${url}/raw`)).body).toBe('before')
      const again = await asRoot('POST', `/snippets/${snippet.id}/repository_storage_moves`, {
        destination_storage_name: 'fast-ssd',
      })
      expect([again.statusCode, again.json()]).toEqual([400, { message: { snippet: ['is read-only'] } }])
    } finally {
      release()
    }
    await storageMovesIdle(s.app.burrow)
    const after = await asRoot('PUT', url, { content: 'after' })
    expect(after.statusCode).toBe(200)
    expect((await asRoot('GET', `${url}/raw`)).body).toBe('after')
  })

  it('ends in cleanup failed when the source copy cannot be deleted: the project stays on the destination, writable', async () => {
    const project = await createProject('cleanup-fails')
    const move = leaveReplicated(s, project.id)
    expect((await asRoot('GET', `/project_repository_storage_moves/${move}`)).json().state).toBe('replicated')
    // A file where the source copy's parent directory was: deleting below it fails (ENOTDIR).
    const source = repoPath('default', 'project', project.id)
    rmSync(dirname(source), { recursive: true, force: true })
    writeFileSync(dirname(source), 'not a directory')
    try {
      resumeStorageMoves(s.app.burrow)
      await storageMovesIdle(s.app.burrow)
      const shown = (await asRoot('GET', `/project_repository_storage_moves/${move}`)).json() as Move
      expect(shown.state).toBe('cleanup failed')
      expect(findStorageMove(s.app.burrow.db, move)?.error_message).toMatch(/ENOTDIR/)
      expect(await storageOf(project.id)).toBe('fast-ssd')
      const commit = await asRoot('POST', `/projects/${project.id}/repository/files/AFTER.md`, {
        branch: 'main',
        content: 'x',
        commit_message: 'After',
      })
      expect(commit.statusCode).toBe(201)
      const audits = (await asRoot('GET', `/projects/${project.id}/audit_events`)).json() as {
        details: Record<string, unknown>
      }[]
      expect(audits.map((a) => a.details.custom_message)).toContain(
        'Moved the repository from default to fast-ssd; the copy on default could not be deleted',
      )
    } finally {
      rmSync(dirname(source), { force: true })
    }
  })

  it('moves a group wiki repository between storages and records the group storage', async () => {
    const group = seedGroup(s, { path: 'wiki-group', name: 'Wiki group' })
    const wiki = repoPath('default', 'group', group.id)
    await s.app.burrow.repos.create(wiki, 'main')
    const res = await asRoot('POST', `/groups/${group.id}/repository_storage_moves`, {
      destination_storage_name: 'fast-ssd',
    })
    expect(res.statusCode).toBe(201)
    expect(res.json().group).toEqual({
      id: group.id,
      web_url: 'http://burrow.test/groups/wiki-group',
      name: 'Wiki group',
    })
    await storageMovesIdle(s.app.burrow)
    expect((await asRoot('GET', `/group_repository_storage_moves/${res.json().id}`)).json().state).toBe('finished')
    expect(existsSync(join(repoPath('fast-ssd', 'group', group.id), 'HEAD'))).toBe(true)
    expect(existsSync(wiki)).toBe(false)
    const row = s.app.burrow.db.prepare('SELECT repository_storage FROM namespaces WHERE id = ?').get(group.id) as {
      repository_storage: string
    }
    expect(row.repository_storage).toBe('fast-ssd')
    const bulk = await asRoot('POST', '/group_repository_storage_moves', {
      source_storage_name: 'fast-ssd',
      destination_storage_name: 'default',
    })
    expect(bulk.statusCode).toBe(202)
    await storageMovesIdle(s.app.burrow)
    expect(existsSync(join(wiki, 'HEAD'))).toBe(true)
  })

  it('records audit events for a move and no activity event (GitLab keeps none for moves)', async () => {
    const project = await createProject('audited-move')
    const move = (
      await s.request(admin.token, {
        method: 'POST',
        url: `${API}/projects/${project.id}/repository_storage_moves`,
        payload: { destination_storage_name: 'fast-ssd' },
      })
    ).json() as Move
    await storageMovesIdle(s.app.burrow)
    const audits = (await asRoot('GET', `/projects/${project.id}/audit_events`)).json() as {
      author_id: number
      details: Record<string, unknown>
    }[]
    const messages = audits
      .filter((a) => a.details.target_type === 'Projects::RepositoryStorageMove')
      .map((a) => [a.author_id, a.details.custom_message, a.details.target_id])
    expect(messages).toEqual(
      expect.arrayContaining([
        [admin.user.id, 'Scheduled a repository storage move from default to fast-ssd', move.id],
        [admin.user.id, 'Moved the repository from default to fast-ssd', move.id],
      ]),
    )
    expect((await asRoot('GET', `/projects/${project.id}/events?action=updated`)).json()).toEqual([])
  })

  it('is for administrators only: 403 for others, 401 without credentials', async () => {
    const group = seedGroup(s, { path: 'devs-group' })
    seedMember(s, 'Namespace', group.id, dev.user.id, AccessLevel.OWNER)
    const own = (
      await s.request(dev.token, {
        method: 'POST',
        url: `${API}/projects`,
        payload: { name: 'mine', namespace_id: group.id },
      })
    ).json() as { id: number }
    const calls: [string, string, Record<string, unknown>?][] = [
      ['GET', '/project_repository_storage_moves'],
      ['GET', '/project_repository_storage_moves/1'],
      [
        'POST',
        '/project_repository_storage_moves',
        { source_storage_name: 'default', destination_storage_name: 'fast-ssd' },
      ],
      ['GET', `/projects/${own.id}/repository_storage_moves`],
      ['POST', `/projects/${own.id}/repository_storage_moves`, { destination_storage_name: 'fast-ssd' }],
      ['GET', '/snippet_repository_storage_moves'],
      [
        'POST',
        '/snippet_repository_storage_moves',
        { source_storage_name: 'default', destination_storage_name: 'fast-ssd' },
      ],
      ['GET', '/group_repository_storage_moves'],
      ['POST', `/groups/${group.id}/repository_storage_moves`, { destination_storage_name: 'fast-ssd' }],
    ]
    for (const [method, url, payload] of calls) {
      const res = await s.request(dev.token, { method: method as 'GET', url: `${API}${url}`, payload })
      expect([url, res.statusCode, res.json()]).toEqual([url, 403, { message: '403 Forbidden' }])
      const anonymous = await s.request(null, { method: method as 'GET', url: `${API}${url}`, payload })
      expect([url, anonymous.statusCode]).toEqual([url, 401])
    }
    expect(await storageOf(own.id)).toBe('default')
  })

  it('checks the administrator before the params: a bad body, path or query still answers 403 to others, 401 without credentials', async () => {
    const group = seedGroup(s, { path: 'devs-bad-params' })
    seedMember(s, 'Namespace', group.id, dev.user.id, AccessLevel.OWNER)
    const own = (
      await s.request(dev.token, {
        method: 'POST',
        url: `${API}/projects`,
        payload: { name: 'mine-bad', namespace_id: group.id },
      })
    ).json() as { id: number }
    const moves = (await asRoot('GET', '/project_repository_storage_moves')).json() as Move[]
    const calls: [string, string, Record<string, unknown>?][] = []
    for (const kind of ['project', 'snippet', 'group']) {
      calls.push(
        ['GET', `/${kind}_repository_storage_moves?page=abc`],
        ['GET', `/${kind}_repository_storage_moves/not-a-number`],
        ['POST', `/${kind}_repository_storage_moves`, {}],
        [
          'POST',
          `/${kind}_repository_storage_moves`,
          { source_storage_name: 'default', destination_storage_name: ['x'] },
        ],
      )
    }
    for (const nested of [`/projects/${own.id}`, `/groups/${group.id}`, '/snippets/1']) {
      calls.push(
        ['GET', `${nested}/repository_storage_moves?per_page=many`],
        ['GET', `${nested}/repository_storage_moves/not-a-number`],
        ['POST', `${nested}/repository_storage_moves`, { destination_storage_name: { a: 1 } }],
      )
    }
    for (const [method, url, payload] of calls) {
      // The admin is refused these for the params (the calls are bad, not merely forbidden).
      const byRoot = await s.request(ROOT_TOKEN, { method: method as 'GET', url: `${API}${url}`, payload })
      expect([method, url, byRoot.statusCode]).toEqual([method, url, 400])
      const res = await s.request(dev.token, { method: method as 'GET', url: `${API}${url}`, payload })
      expect([method, url, res.statusCode, res.json()]).toEqual([method, url, 403, { message: '403 Forbidden' }])
      const anonymous = await s.request(null, { method: method as 'GET', url: `${API}${url}`, payload })
      expect([method, url, anonymous.statusCode]).toEqual([method, url, 401])
    }
    expect((await asRoot('GET', '/project_repository_storage_moves')).json()).toEqual(moves)
    expect(await storageOf(own.id)).toBe('default')
  })
})

/**
 * Leaves a project as a stop between a move's switch and its cleanup would: the repository copied
 * to fast-ssd and the project switched to it, the source copy still on default, the move
 * `replicated`. Returns the move id.
 */
function leaveReplicated(server: TestServer, projectId: number): number {
  const db = server.app.burrow.db
  const from = join(server.dataDir, 'repositories', 'default', RepositoryStorage.hashedPath('project', projectId))
  const to = join(server.dataDir, 'repositories', 'fast-ssd', RepositoryStorage.hashedPath('project', projectId))
  mkdirSync(dirname(to), { recursive: true })
  cpSync(from, to, { recursive: true })
  const move = insertStorageMove(db, 'project', projectId, 'default', 'fast-ssd', null)
  switchProjectStorage(db, projectId, 'fast-ssd')
  setStorageMoveState(db, move.id, 'replicated')
  return move.id
}

describe('repository storage moves across a restart', () => {
  it('resumes a move left replicated by a stop: only the source copy is left to delete, then finished', async () => {
    const first = await makeServer({ storages: STORAGES })
    const { dataDir } = first
    const project = (
      await first.request(ROOT_TOKEN, {
        method: 'POST',
        url: `${API}/projects`,
        payload: { name: 'half-moved', initialize_with_readme: true },
      })
    ).json() as { id: number }
    const move = leaveReplicated(first, project.id)
    const source = join(dataDir, 'repositories', 'default', RepositoryStorage.hashedPath('project', project.id))
    expect(
      (
        await first.request(ROOT_TOKEN, { method: 'GET', url: `${API}/project_repository_storage_moves/${move}` })
      ).json().state,
    ).toBe('replicated')
    await first.app.close()
    expect(existsSync(join(source, 'HEAD'))).toBe(true)

    const second = await buildApp({
      dataDir,
      rootToken: ROOT_TOKEN,
      externalUrl: 'http://burrow.test',
      storages: STORAGES,
    })
    try {
      await second.ready()
      await storageMovesIdle(second.burrow)
      const get = (url: string) =>
        second.inject({ method: 'GET', url: `${API}${url}`, headers: { 'private-token': ROOT_TOKEN } })
      expect((await get(`/project_repository_storage_moves/${move}`)).json().state).toBe('finished')
      expect(existsSync(source)).toBe(false)
      expect((await get(`/projects/${project.id}`)).json().repository_storage).toBe('fast-ssd')
      expect((await get(`/projects/${project.id}/repository/files/README.md?ref=main`)).statusCode).toBe(200)
    } finally {
      await second.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('resumes a move left scheduled when the server stopped', async () => {
    const first = await makeServer({ storages: STORAGES })
    const { dataDir } = first
    const project = (
      await first.request(ROOT_TOKEN, {
        method: 'POST',
        url: `${API}/projects`,
        payload: { name: 'survivor', initialize_with_readme: true },
      })
    ).json() as { id: number }
    holdStorageMoves(first.app.burrow)
    const move = (
      await first.request(ROOT_TOKEN, {
        method: 'POST',
        url: `${API}/projects/${project.id}/repository_storage_moves`,
        payload: { destination_storage_name: 'fast-ssd' },
      })
    ).json() as Move
    await first.app.close()

    const second = await buildApp({
      dataDir,
      rootToken: ROOT_TOKEN,
      externalUrl: 'http://burrow.test',
      storages: STORAGES,
    })
    try {
      await second.ready()
      await storageMovesIdle(second.burrow)
      const get = (url: string) =>
        second.inject({ method: 'GET', url: `${API}${url}`, headers: { 'private-token': ROOT_TOKEN } })
      expect((await get(`/project_repository_storage_moves/${move.id}`)).json().state).toBe('finished')
      expect((await get(`/projects/${project.id}`)).json().repository_storage).toBe('fast-ssd')
    } finally {
      await second.close()
      ;(await import('node:fs')).rmSync(dataDir, { recursive: true, force: true })
    }
  })
})

describe('repository storage moves over the wire', () => {
  let s: ListeningServer

  beforeAll(async () => {
    s = await startServer({ storages: STORAGES })
  })
  afterAll(async () => {
    await s.close()
  })

  it('@gitbeaker/rest schedules a project move, a bulk move naming its source storage only, and reads them', async () => {
    const api = new Gitlab({ host: s.url, token: ROOT_TOKEN })
    const project = await api.Projects.create({ name: 'wired', initializeWithReadme: true })
    const move = await api.ProjectRepositoryStorageMoves.schedule('default', {
      projectId: project.id,
      destinationStorageName: 'fast-ssd',
    })
    expect(move).toMatchObject({
      state: 'scheduled',
      source_storage_name: 'default',
      destination_storage_name: 'fast-ssd',
      error_message: null,
      project: { id: project.id, path_with_namespace: project.path_with_namespace },
    })
    await storageMovesIdle(s.app.burrow)
    expect((await api.ProjectRepositoryStorageMoves.show(move.id, { projectId: project.id })).state).toBe('finished')
    // gitbeaker's bulk schedule sends the source storage alone: GitLab picks each destination.
    expect(await api.ProjectRepositoryStorageMoves.schedule('fast-ssd')).toEqual({ message: '202 Accepted' })
    await storageMovesIdle(s.app.burrow)
    const moves = await api.ProjectRepositoryStorageMoves.all()
    expect(moves.map((m) => [m.state, m.source_storage_name, m.destination_storage_name])).toEqual([
      ['finished', 'fast-ssd', 'default'],
      ['finished', 'default', 'fast-ssd'],
    ])
  })
})
