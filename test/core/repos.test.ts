import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../src/main/core/index'
import { accountDirName } from '../../src/main/core/repos/index'
import type { IpcResponse } from '../../src/shared/ipc/contract'
import type {
  RepoBlame,
  RepoBlob,
  RepoChange,
  RepoClone,
  RepoCommitDetail,
  RepoCompare,
  RepoDiff,
  RepoLog,
  RepoProgress,
  RepoRefs,
  RepoTree,
} from '../../src/shared/ipc/repos'
import { commitFiles, makeWorkRepo, remoteUrl, sh } from '../helpers/git'
import { seedUser, type SeededUser } from '../helpers/server'
import { desktopServices, RequestLog, startRestartableServer, type RestartableServer } from '../helpers/sync'

/** The result of a successful IPC call, or a failure naming the channel's error. */
async function call<T>(core: Core, channel: string, ...args: unknown[]): Promise<T> {
  const response = (await core.dispatch(channel, args)) as IpcResponse<T>
  if (!response.ok)
    throw Object.assign(new Error(`${channel}: ${response.error.code} ${response.error.message}`), {
      code: response.error.code,
    })
  return response.result
}

/** The error code of a call that must fail. */
async function failure(core: Core, channel: string, ...args: unknown[]): Promise<string> {
  const response = await core.dispatch(channel, args)
  if (response.ok) throw new Error(`${channel} unexpectedly succeeded`)
  return response.error.code
}

async function api<T>(
  server: RestartableServer,
  token: string,
  method: 'GET' | 'POST',
  url: string,
  payload?: Record<string, unknown>,
): Promise<T> {
  const response = await server.request(token, { method, url: `/api/v4${url}`, payload })
  if (response.statusCode >= 400) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`)
  return response.json() as T
}

/** Waits for a condition the core reaches asynchronously (an account's clones leaving the disk). */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 25))
  expect(condition()).toBe(true)
}

/** Every file under `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [],
  )
}

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
)

interface World {
  server: RestartableServer
  log: RequestLog
  owner: SeededUser
  core: Core
  dir: string
  reposDir: string
  accountId: string
  projectId: number
  /** A second project, never cloned: its reads go to the server. */
  otherProjectId: number
  fullPath: string
  work: string
  commits: { c1: string; c2: string; c3: string; f1: string }
  changes: RepoChange[]
  progress: RepoProgress[]
  /** Set by a test to run at the next progress event of a fetch indexing what it downloaded. */
  onIndexing: (() => void) | null
  dispose(): Promise<void>
}

async function makeWorld(): Promise<World> {
  const server = await startRestartableServer()
  const log = new RequestLog()
  const owner = seedUser(server, { username: `cartographer${Math.random().toString(36).slice(2, 7)}` })
  const project = await api<{ id: number; path_with_namespace: string }>(server, owner.token, 'POST', '/projects', {
    name: 'Atlas',
    path: 'atlas',
  })
  const other = await api<{ id: number; path_with_namespace: string }>(server, owner.token, 'POST', '/projects', {
    name: 'Globe',
    path: 'globe',
  })

  // History: c1 (files of each kind, tags v0.9 and v1.0 later), c2 (edit, rename, add), c3 (README); feature: f1.
  const work = makeWorkRepo()
  mkdirSync(join(work, 'assets'))
  mkdirSync(join(work, 'bin'))
  writeFileSync(join(work, 'assets', 'logo.png'), PNG)
  writeFileSync(join(work, 'bin', 'data.bin'), Buffer.from([0, 1, 2, 3, 0, 255]))
  const c1 = commitFiles(
    work,
    {
      'README.md': '# Atlas\n\nMaps of **everything**.\n',
      'src/app.ts': 'export const a = 1\nexport const b = 2\nexport const c = 3\n',
      'docs/old.md': 'A guide.\n',
    },
    'Initial import',
  )
  renameSync(join(work, 'docs', 'old.md'), join(work, 'docs', 'guide.md'))
  writeFileSync(join(work, 'bin', 'data.bin'), Buffer.from([0, 9, 9, 9, 0, 255]))
  const c2 = commitFiles(
    work,
    {
      'src/app.ts': 'export const a = 1\nexport const b = 20\nexport const c = 3\n',
      'src/util.ts': 'export const twice = (n: number): number => 2 * n\n',
    },
    'Tune b, add util\n\nAnd move the guide.',
  )
  await sh(work, 'tag', 'v0.9', c1)
  await sh(work, 'tag', '-a', 'v1.0', '-m', 'First release', c2)
  const c3 = commitFiles(work, { 'README.md': '# Atlas\n\nMaps of **everything**, offline.\n' }, 'README: offline')
  await sh(work, 'checkout', '--quiet', '-b', 'feature', c2)
  const f1 = commitFiles(
    work,
    { 'src/util.ts': 'export const twice = (n: number): number => n + n\n', 'notes.txt': 'feature notes\n' },
    'Feature work',
  )
  await sh(work, 'checkout', '--quiet', 'main')
  const remote = remoteUrl(server.url, project.path_with_namespace, owner.token)
  await sh(work, 'push', '--quiet', remote, 'main', 'feature', '--tags')
  const otherWork = makeWorkRepo()
  commitFiles(otherWork, { 'README.md': '# Globe\n', 'lib/index.js': 'module.exports = 1\n' }, 'Globe')
  await sh(otherWork, 'push', '--quiet', remoteUrl(server.url, other.path_with_namespace, owner.token), 'main')

  const services = await desktopServices(log)
  const reposDir = join(services.dir, 'repos')
  const world: World = {
    server,
    log,
    owner,
    core: null as unknown as Core,
    dir: services.dir,
    reposDir,
    accountId: '',
    projectId: project.id,
    otherProjectId: other.id,
    fullPath: project.path_with_namespace,
    work,
    commits: { c1, c2, c3, f1 },
    changes: [],
    progress: [],
    onIndexing: null,
    async dispose() {
      await world.core.dispose()
      services.dispose()
      await server.close()
    },
  }
  world.core = createCore({
    version: '0.1.0',
    mode: 'browser',
    serverUrl: server.url,
    accounts: services.accounts,
    cache: services.cache,
    reposDir,
    fetch: log.fetch,
    repoOptions: { progressIntervalMs: 0 },
  })
  world.core.events.subscribe((event, payload) => {
    if (event === 'repos:did-change') world.changes.push(payload as RepoChange)
    if (event !== 'repos:did-progress') return
    const progress = payload as RepoProgress
    world.progress.push(progress)
    const hook = world.onIndexing
    if (hook !== null && progress.operation === 'fetch' && progress.phase === 'Receiving objects') {
      world.onIndexing = null
      hook()
    }
  })
  world.accountId = (await services.accounts.add({ baseUrl: server.url, token: owner.token })).id
  return world
}

const byPath = (a: RepoDiff, b: RepoDiff): number => a.new_path.localeCompare(b.new_path)
const shape = (d: RepoDiff) => ({
  old_path: d.old_path,
  new_path: d.new_path,
  new_file: d.new_file,
  renamed_file: d.renamed_file,
  deleted_file: d.deleted_file,
  diff: d.diff,
})

describe('repos: clone, browse offline, fetch', () => {
  let w: World
  let clone: RepoClone
  /** What the server's own API says about c2 and main...feature, read while it runs. */
  let serverCommit: {
    id: string
    title: string
    message: string
    parent_ids: string[]
    author_name: string
    author_email: string
    authored_date: string
    committed_date: string
  }
  let serverDiff: RepoDiff[]
  let serverCompare: { commits: { id: string }[]; diffs: RepoDiff[] }
  let serverBlame: { commit: { id: string }; lines: string[] }[]

  beforeAll(async () => {
    w = await makeWorld()
    serverCommit = await api(
      w.server,
      w.owner.token,
      'GET',
      `/projects/${w.projectId}/repository/commits/${w.commits.c2}`,
    )
    serverDiff = await api(
      w.server,
      w.owner.token,
      'GET',
      `/projects/${w.projectId}/repository/commits/${w.commits.c2}/diff`,
    )
    serverCompare = await api(
      w.server,
      w.owner.token,
      'GET',
      `/projects/${w.projectId}/repository/compare?from=main&to=feature`,
    )
    serverBlame = await api(
      w.server,
      w.owner.token,
      'GET',
      `/projects/${w.projectId}/repository/files/src%2Fapp.ts/blame?ref=main`,
    )
  }, 120_000)
  afterAll(async () => {
    await w.dispose()
  })

  it('clones every branch and tag into a bare repository under repos/<account>/<project>.git, with progress and change events', async () => {
    clone = await call<RepoClone>(w.core, 'repos:clone', w.accountId, w.projectId)
    expect(clone).toMatchObject({
      accountId: w.accountId,
      projectId: w.projectId,
      pathWithNamespace: w.fullPath,
      name: 'Atlas',
      state: 'ready',
      defaultBranch: 'main',
      lastError: null,
      progress: null,
    })
    expect(clone.sizeBytes).toBeGreaterThan(0)
    const gitdir = join(w.reposDir, accountDirName(w.accountId), `${w.projectId}.git`)
    expect(existsSync(join(gitdir, 'HEAD'))).toBe(true)
    expect(existsSync(join(gitdir, 'objects'))).toBe(true)
    expect(w.changes.map((c) => c.clone?.state)).toEqual(['cloning', 'ready'])
    expect(w.progress.length).toBeGreaterThan(0)
    expect(w.progress.at(-1)?.bytes).toBeGreaterThan(0)
    expect(await call<RepoClone[]>(w.core, 'repos:list', w.accountId)).toEqual([clone])
    expect(await call<RepoClone[]>(w.core, 'repos:list')).toEqual([clone])
  })

  it('keeps the token out of the clone’s config and out of every file in the data dir', async () => {
    const gitdir = join(w.reposDir, accountDirName(w.accountId), `${w.projectId}.git`)
    const config = readFileSync(join(gitdir, 'config'), 'utf8')
    expect(config).toContain(`url = ${w.server.url}/${w.fullPath}.git`)
    expect(config).not.toMatch(/:\/\/[^/\s]*@/)
    const files = filesUnder(w.dir)
    expect(files.length).toBeGreaterThan(10)
    const holding = files.filter((file) => readFileSync(file).includes(w.owner.token))
    expect(holding).toEqual([])
  })

  describe('with the server stopped', () => {
    beforeAll(async () => {
      await w.server.stop()
      w.log.clear()
    })

    it('lists branches (default first) and tags, annotated ones peeled to their commit', async () => {
      const refs = await call<RepoRefs>(w.core, 'repos:refs', w.accountId, w.projectId)
      expect(refs).toMatchObject({ source: 'clone', stale: false, defaultBranch: 'main', fetchedAt: clone.fetchedAt })
      expect(refs.branches).toEqual([
        { name: 'main', commit: w.commits.c3, default: true },
        { name: 'feature', commit: w.commits.f1, default: false },
      ])
      expect(refs.tags).toEqual([
        { name: 'v1.0', commit: w.commits.c2, message: 'First release' },
        { name: 'v0.9', commit: w.commits.c1, message: null },
      ])
    })

    it('reads the root tree, directories first, and a subdirectory', async () => {
      const root = await call<RepoTree>(w.core, 'repos:tree', w.accountId, { projectId: w.projectId, ref: 'main' })
      expect(root).toMatchObject({ source: 'clone', ref: 'main', commit: w.commits.c3, path: '' })
      expect(root.entries.map((e) => [e.name, e.type])).toEqual([
        ['assets', 'tree'],
        ['bin', 'tree'],
        ['docs', 'tree'],
        ['src', 'tree'],
        ['README.md', 'blob'],
      ])
      const src = await call<RepoTree>(w.core, 'repos:tree', w.accountId, {
        projectId: w.projectId,
        ref: 'v1.0',
        path: 'src',
      })
      expect(src.entries.map((e) => ({ path: e.path, mode: e.mode }))).toEqual([
        { path: 'src/app.ts', mode: '100644' },
        { path: 'src/util.ts', mode: '100644' },
      ])
    })

    it('reads text, image and binary files, at a branch, a tag or a commit id', async () => {
      const readme = await call<RepoBlob>(w.core, 'repos:blob', w.accountId, {
        projectId: w.projectId,
        ref: 'main',
        path: 'README.md',
      })
      expect(readme).toMatchObject({
        source: 'clone',
        binary: false,
        tooLarge: false,
        text: '# Atlas\n\nMaps of **everything**, offline.\n',
        imageDataUrl: null,
      })
      const old = await call<RepoBlob>(w.core, 'repos:blob', w.accountId, {
        projectId: w.projectId,
        ref: w.commits.c1.slice(0, 10),
        path: 'README.md',
      })
      expect(old.text).toBe('# Atlas\n\nMaps of **everything**.\n')
      const logo = await call<RepoBlob>(w.core, 'repos:blob', w.accountId, {
        projectId: w.projectId,
        ref: 'v0.9',
        path: 'assets/logo.png',
      })
      expect(logo).toMatchObject({
        binary: true,
        text: null,
        size: PNG.length,
        imageDataUrl: `data:image/png;base64,${PNG.toString('base64')}`,
      })
      const data = await call<RepoBlob>(w.core, 'repos:blob', w.accountId, {
        projectId: w.projectId,
        ref: 'main',
        path: 'bin/data.bin',
      })
      expect(data).toMatchObject({ binary: true, text: null, imageDataUrl: null, size: 6 })
    })

    it('searches file names and contents of the default branch, every word a prefix, names first', async () => {
      type Found = {
        hits: {
          projectId: number
          pathWithNamespace: string
          ref: string
          path: string
          matchedIn: string
          line: number | null
          snippet: { text: string; match: boolean }[]
        }[]
        truncated: boolean
        skippedFiles: number
      }
      const search = (query: string, extra: Record<string, unknown> = {}): Promise<Found> =>
        call<Found>(w.core, 'repos:search', w.accountId, { query, ...extra })
      const twice = await search('twice')
      expect(twice.hits).toEqual([
        {
          projectId: w.projectId,
          pathWithNamespace: w.fullPath,
          ref: 'main',
          path: 'src/util.ts',
          matchedIn: 'content',
          line: 1,
          snippet: expect.arrayContaining([{ text: 'twice', match: true }]),
        },
      ])
      // One line must hold every word: line 2 of app.ts, not line 1.
      expect((await search('const b')).hits.map((h) => [h.path, h.line])).toEqual([['src/app.ts', 2]])
      expect(
        (await search('maps everyth')).hits.map((h) => [
          h.path,
          h.line,
          h.snippet.filter((p) => p.match).map((p) => p.text),
        ]),
      ).toEqual([['README.md', 3, ['Maps', 'everything']]])
      // Names first: util.ts by its name; binary files match by name only.
      expect((await search('util')).hits.map((h) => [h.path, h.matchedIn])).toEqual([['src/util.ts', 'name']])
      expect((await search('logo')).hits.map((h) => h.path)).toEqual(['assets/logo.png'])
      expect((await search('data')).hits.map((h) => h.path)).toEqual(['bin/data.bin'])
      // The feature branch's notes.txt is not on the default branch.
      expect((await search('feature notes')).hits).toEqual([])
      expect((await search('twice', { projectId: w.otherProjectId })).hits).toEqual([])
      expect(await failure(w.core, 'repos:search', w.accountId, { query: '  ' })).toBe('invalid-arguments')
    })

    it('blames a file from the clone’s history as the server’s blame API does, and refuses a directory', async () => {
      const blame = await call<RepoBlame>(w.core, 'repos:blame', w.accountId, {
        projectId: w.projectId,
        ref: 'main',
        path: 'src/app.ts',
      })
      expect(blame).toMatchObject({ source: 'clone', binary: false, tooLarge: false })
      expect(blame.ranges.map((r) => [r.commit.id, r.lines])).toEqual(serverBlame.map((r) => [r.commit.id, r.lines]))
      expect(blame.ranges.map((r) => r.commit.title)).toEqual(['Initial import', 'Tune b, add util', 'Initial import'])
      const binary = await call<RepoBlame>(w.core, 'repos:blame', w.accountId, {
        projectId: w.projectId,
        ref: 'main',
        path: 'bin/data.bin',
      })
      expect(binary).toMatchObject({ binary: true, ranges: [] })
      expect(
        await failure(w.core, 'repos:blame', w.accountId, { projectId: w.projectId, ref: 'main', path: 'src' }),
      ).toBe('not-a-file')
    })

    it('answers not-found for a missing path or ref, and not-a-file for a directory', async () => {
      expect(
        await failure(w.core, 'repos:blob', w.accountId, { projectId: w.projectId, ref: 'main', path: 'nope.txt' }),
      ).toBe('not-found')
      expect(await failure(w.core, 'repos:tree', w.accountId, { projectId: w.projectId, ref: 'no-such-branch' })).toBe(
        'not-found',
      )
      expect(
        await failure(w.core, 'repos:blob', w.accountId, { projectId: w.projectId, ref: 'main', path: 'src' }),
      ).toBe('not-a-file')
      expect(
        await failure(w.core, 'repos:tree', w.accountId, { projectId: w.projectId, ref: 'main', path: 'README.md' }),
      ).toBe('not-a-directory')
    })

    it('pages through history newest first, and filters it by path', async () => {
      const first = await call<RepoLog>(w.core, 'repos:log', w.accountId, {
        projectId: w.projectId,
        ref: 'main',
        perPage: 2,
      })
      expect(first.commits.map((c) => c.id)).toEqual([w.commits.c3, w.commits.c2])
      expect(first.hasMore).toBe(true)
      const second = await call<RepoLog>(w.core, 'repos:log', w.accountId, {
        projectId: w.projectId,
        ref: 'main',
        perPage: 2,
        page: 2,
      })
      expect(second.commits.map((c) => c.id)).toEqual([w.commits.c1])
      expect(second.hasMore).toBe(false)
      const app = await call<RepoLog>(w.core, 'repos:log', w.accountId, {
        projectId: w.projectId,
        ref: 'main',
        path: 'src/app.ts',
      })
      expect(app.commits.map((c) => c.title)).toEqual(['Tune b, add util', 'Initial import'])
      const docs = await call<RepoLog>(w.core, 'repos:log', w.accountId, {
        projectId: w.projectId,
        ref: 'feature',
        path: 'notes.txt',
      })
      expect(docs.commits.map((c) => c.id)).toEqual([w.commits.f1])
    })

    it('shows a commit as the server’s API does, with the same diff against its first parent', async () => {
      const detail = await call<RepoCommitDetail>(w.core, 'repos:commit', w.accountId, {
        projectId: w.projectId,
        sha: w.commits.c2,
      })
      expect(detail.source).toBe('clone')
      const c = detail.commit
      expect({
        id: c.id,
        title: c.title,
        message: c.message.trim(),
        parent_ids: c.parent_ids,
        author_name: c.author_name,
        author_email: c.author_email,
      }).toEqual({
        id: serverCommit.id,
        title: serverCommit.title,
        message: serverCommit.message.trim(),
        parent_ids: serverCommit.parent_ids,
        author_name: serverCommit.author_name,
        author_email: serverCommit.author_email,
      })
      expect(Date.parse(c.authored_date)).toBe(Date.parse(serverCommit.authored_date))
      expect(Date.parse(c.committed_date)).toBe(Date.parse(serverCommit.committed_date))
      expect(detail.overflow).toBe(false)
      const mine = [...detail.diffs].sort(byPath).map(shape)
      const theirs = [...serverDiff].sort(byPath).map(shape)
      expect(mine.map((d) => d.new_path)).toEqual(['bin/data.bin', 'docs/guide.md', 'src/app.ts', 'src/util.ts'])
      expect(mine.find((d) => d.new_path === 'docs/guide.md')).toMatchObject({
        old_path: 'docs/old.md',
        renamed_file: true,
        diff: '',
      })
      expect(mine.find((d) => d.new_path === 'src/app.ts')?.diff).toBe(
        '@@ -1,3 +1,3 @@\n export const a = 1\n-export const b = 2\n+export const b = 20\n export const c = 3\n',
      )
      expect(mine.find((d) => d.new_path === 'bin/data.bin')?.diff).toMatch(
        /^Binary files a\/bin\/data.bin and b\/bin\/data.bin differ/,
      )
      // Text diffs byte for byte as the server's git prints them.
      const text = (list: ReturnType<typeof shape>[]) =>
        list.filter((d) => !d.diff.startsWith('Binary') && d.new_path !== 'bin/data.bin')
      expect(text(mine)).toEqual(text(theirs))
    })

    it('diffs a root commit against the empty tree', async () => {
      const detail = await call<RepoCommitDetail>(w.core, 'repos:commit', w.accountId, {
        projectId: w.projectId,
        sha: 'v0.9',
      })
      expect(detail.commit.parent_ids).toEqual([])
      expect(detail.diffs.every((d) => d.new_file)).toBe(true)
      expect(detail.diffs.find((d) => d.new_path === 'src/app.ts')?.diff).toBe(
        '@@ -0,0 +1,3 @@\n+export const a = 1\n+export const b = 2\n+export const c = 3\n',
      )
    })

    it('compares two refs from their merge base, like the server’s compare', async () => {
      const compare = await call<RepoCompare>(w.core, 'repos:compare', w.accountId, {
        projectId: w.projectId,
        from: 'main',
        to: 'feature',
      })
      expect(compare).toMatchObject({
        source: 'clone',
        mergeBase: w.commits.c2,
        commitsTruncated: false,
        overflow: false,
      })
      expect(compare.commits.map((c) => c.id)).toEqual(serverCompare.commits.map((c) => c.id))
      expect(compare.diffs.map(shape).sort((a, b) => a.new_path.localeCompare(b.new_path))).toEqual(
        serverCompare.diffs.map(shape).sort((a, b) => a.new_path.localeCompare(b.new_path)),
      )
      const straight = await call<RepoCompare>(w.core, 'repos:compare', w.accountId, {
        projectId: w.projectId,
        from: 'main',
        to: 'feature',
        straight: true,
      })
      expect(straight.mergeBase).toBeNull()
      // main's README change shows up reverted when diffing the tips directly.
      expect(straight.diffs.map((d) => d.new_path)).toContain('README.md')
    })

    it('asked nothing of the server while browsing the clone', () => {
      expect(w.log.entries).toEqual([])
    })

    it('refuses to fetch or clone while the server is away, and leaves the clone readable', async () => {
      expect(await failure(w.core, 'repos:fetch', w.accountId, w.projectId)).toBe('offline')
      expect(await failure(w.core, 'repos:clone', w.accountId, w.otherProjectId)).toBe('offline')
      const [listed] = await call<RepoClone[]>(w.core, 'repos:list', w.accountId)
      expect(listed).toMatchObject({
        state: 'ready',
        fetchedAt: clone.fetchedAt,
        lastError: expect.stringMatching(/cannot be reached/),
      })
    })
  })

  it('fetch picks up new commits, branches and tags, and prunes what the server deleted', async () => {
    await w.server.restart()
    await w.core.dispatch('accounts:verify', [w.accountId])
    const c4 = commitFiles(w.work, { 'CHANGELOG.md': '# Changes\n\n- offline browsing\n' }, 'Add a changelog')
    const remote = remoteUrl(w.server.url, w.fullPath, w.owner.token)
    await sh(
      w.work,
      'push',
      '--quiet',
      remote,
      'main',
      `${w.commits.c3}:refs/heads/next`,
      ':refs/heads/feature',
      ':refs/tags/v0.9',
    )
    await sh(w.work, 'tag', 'v2.0', c4)
    await sh(w.work, 'push', '--quiet', remote, 'v2.0')
    const fetched = await call<RepoClone>(w.core, 'repos:fetch', w.accountId, w.projectId)
    expect(fetched.state).toBe('ready')
    expect(Date.parse(fetched.fetchedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(clone.fetchedAt ?? ''))
    const refs = await call<RepoRefs>(w.core, 'repos:refs', w.accountId, w.projectId)
    expect(refs.branches.map((b) => [b.name, b.commit])).toEqual([
      ['main', c4],
      ['next', w.commits.c3],
    ])
    expect(refs.tags.map((t) => t.name)).toEqual(['v2.0', 'v1.0'])
    const log = await call<RepoLog>(w.core, 'repos:log', w.accountId, {
      projectId: w.projectId,
      ref: 'main',
      perPage: 1,
    })
    expect(log.commits[0]).toMatchObject({ id: c4, title: 'Add a changelog' })
  })

  it('a fetch cancelled after its refs were written (isomorphic-git writes them before the pack) leaves the refs as they were', async () => {
    const c5 = commitFiles(
      w.work,
      { 'CHANGELOG.md': '# Changes\n\n- offline browsing\n- cancel\n' },
      'Changelog: cancel',
    )
    await sh(w.work, 'push', '--quiet', remoteUrl(w.server.url, w.fullPath, w.owner.token), 'main')
    const before = await call<RepoRefs>(w.core, 'repos:refs', w.accountId, w.projectId)
    w.onIndexing = () => void w.core.dispatch('repos:cancel', [w.accountId, w.projectId])
    expect(await failure(w.core, 'repos:fetch', w.accountId, w.projectId)).toBe('cancelled')
    const after = await call<RepoRefs>(w.core, 'repos:refs', w.accountId, w.projectId)
    expect(after.branches).toEqual(before.branches)
    const gitdir = join(w.reposDir, accountDirName(w.accountId), `${w.projectId}.git`)
    await sh(gitdir, 'fsck', '--no-progress')
    expect(
      readdirSync(join(gitdir, 'objects', 'pack'))
        .filter((n) => n.endsWith('.pack'))
        .every((n) => existsSync(join(gitdir, 'objects', 'pack', n.replace(/\.pack$/, '.idx')))),
    ).toBe(true)
    // The next fetch completes.
    await call<RepoClone>(w.core, 'repos:fetch', w.accountId, w.projectId)
    expect((await call<RepoRefs>(w.core, 'repos:refs', w.accountId, w.projectId)).branches[0]).toEqual({
      name: 'main',
      commit: c5,
      default: true,
    })
  })

  it('a clone cancelled at once leaves no record and no directory behind', async () => {
    const cloning = w.core.dispatch('repos:clone', [w.accountId, w.otherProjectId])
    await call(w.core, 'repos:cancel', w.accountId, w.otherProjectId)
    const answer = await cloning
    expect(answer.ok ? 'ok' : answer.error.code).toBe('cancelled')
    expect((await call<RepoClone[]>(w.core, 'repos:list', w.accountId)).map((c) => c.projectId)).toEqual([w.projectId])
    expect(readdirSync(join(w.reposDir, accountDirName(w.accountId)))).toEqual([`${w.projectId}.git`])
  })

  it('reads a project that is not cloned through the API, and from the URL cache once the server is gone', async () => {
    const tree = await call<RepoTree>(w.core, 'repos:tree', w.accountId, { projectId: w.otherProjectId, ref: 'main' })
    expect(tree).toMatchObject({ source: 'server', stale: false })
    expect(tree.entries.map((e) => [e.name, e.type])).toEqual([
      ['lib', 'tree'],
      ['README.md', 'blob'],
    ])
    const blob = await call<RepoBlob>(w.core, 'repos:blob', w.accountId, {
      projectId: w.otherProjectId,
      ref: 'main',
      path: 'lib/index.js',
    })
    expect(blob).toMatchObject({ source: 'server', text: 'module.exports = 1\n', binary: false })
    const log = await call<RepoLog>(w.core, 'repos:log', w.accountId, { projectId: w.otherProjectId, ref: 'main' })
    expect(log.commits.map((c) => c.title)).toEqual(['Globe'])
    const blame = await call<RepoBlame>(w.core, 'repos:blame', w.accountId, {
      projectId: w.otherProjectId,
      ref: 'main',
      path: 'lib/index.js',
    })
    expect(blame).toMatchObject({ source: 'server', stale: false })
    expect(blame.ranges.map((r) => [r.commit.short_id, r.commit.title, r.lines])).toEqual([
      [log.commits[0].id.slice(0, 8), 'Globe', ['module.exports = 1']],
    ])
    const refs = await call<RepoRefs>(w.core, 'repos:refs', w.accountId, w.otherProjectId)
    expect(refs).toMatchObject({ source: 'server', defaultBranch: 'main', branches: [{ name: 'main', default: true }] })
    const detail = await call<RepoCommitDetail>(w.core, 'repos:commit', w.accountId, {
      projectId: w.otherProjectId,
      sha: log.commits[0].id,
    })
    expect(detail.diffs.map((d) => d.new_path).sort()).toEqual(['README.md', 'lib/index.js'])

    await w.server.stop()
    const stale = await call<RepoTree>(w.core, 'repos:tree', w.accountId, { projectId: w.otherProjectId, ref: 'main' })
    expect(stale).toMatchObject({ source: 'server', stale: true, entries: tree.entries })
    expect(
      await failure(w.core, 'repos:tree', w.accountId, { projectId: w.otherProjectId, ref: 'main', path: 'lib' }),
    ).toBe('offline')
    await w.server.restart()
    await w.core.dispatch('accounts:verify', [w.accountId])
  })

  it('refuses paths and refs that climb out, are absolute or read as options, in the contract and in core', async () => {
    const bad: [string, unknown][] = [
      ['repos:tree', { projectId: w.projectId, ref: 'main', path: '../../etc' }],
      ['repos:tree', { projectId: w.projectId, ref: 'main', path: 'src/../..' }],
      ['repos:tree', { projectId: w.projectId, ref: 'main', path: '/etc' }],
      ['repos:tree', { projectId: w.projectId, ref: 'main', path: 'src//app.ts' }],
      ['repos:tree', { projectId: w.projectId, ref: '--upload-pack=touch /tmp/x' }],
      ['repos:tree', { projectId: w.projectId, ref: 'main..feature' }],
      ['repos:tree', { projectId: w.projectId, ref: 'refs/heads/../../config' }],
      ['repos:tree', { projectId: w.projectId, ref: 'main', extra: 1 }],
      ['repos:blob', { projectId: w.projectId, ref: 'main', path: '' }],
      ['repos:blob', { projectId: w.projectId, ref: 'main', path: 'a\u0000b' }],
      ['repos:log', { projectId: w.projectId, ref: 'main', perPage: 1000 }],
      ['repos:commit', { projectId: w.projectId, sha: '-n1' }],
      ['repos:compare', { projectId: w.projectId, from: 'main', to: 'HEAD@{1}' }],
      ['repos:compare', { projectId: w.projectId, from: 'main~1', to: 'main' }],
    ]
    for (const [channel, request] of bad)
      expect(await failure(w.core, channel, w.accountId, request), `${channel} ${JSON.stringify(request)}`).toBe(
        'invalid-arguments',
      )
    expect(await failure(w.core, 'repos:clone', w.accountId, -1)).toBe('invalid-arguments')
    // Core checks again, for callers that do not come through the contract.
    const repos = w.core.repos
    if (repos === null) throw new Error('no repos service')
    await expect(repos.tree(w.accountId, w.projectId, 'main', '../x')).rejects.toMatchObject({
      code: 'invalid-arguments',
    })
    await expect(repos.blob(w.accountId, w.projectId, '--output=/tmp/x', 'README.md')).rejects.toMatchObject({
      code: 'invalid-arguments',
    })
    await expect(repos.log(w.accountId, w.otherProjectId, 'main', '/etc/passwd', 1, 10)).rejects.toMatchObject({
      code: 'invalid-arguments',
    })
  })

  it('clones for an account signed in with a password (OAuth), whose access token goes to git as oauth2', async () => {
    const reporter = seedUser(w.server, { username: `surveyor${Math.random().toString(36).slice(2, 7)}` })
    await api(w.server, w.owner.token, 'POST', `/projects/${w.projectId}/members`, {
      user_id: reporter.user.id,
      access_level: 20,
    })
    const oauthAccount = await call<{ id: string; authKind: string }>(w.core, 'accounts:add', {
      baseUrl: w.server.url,
      username: reporter.user.username,
      password: reporter.password,
    })
    expect(oauthAccount.authKind).toBe('oauth')
    const cloned = await call<RepoClone>(w.core, 'repos:clone', oauthAccount.id, w.projectId)
    expect(cloned.state).toBe('ready')
    const tree = await call<RepoTree>(w.core, 'repos:tree', oauthAccount.id, { projectId: w.projectId, ref: 'main' })
    expect(tree.source).toBe('clone')
    const gitdir = join(w.reposDir, accountDirName(oauthAccount.id), `${w.projectId}.git`)
    expect(readFileSync(join(gitdir, 'config'), 'utf8')).not.toMatch(/:\/\/[^/\s]*@/)
    await call(w.core, 'accounts:remove', oauthAccount.id)
    await until(() => !existsSync(join(w.reposDir, accountDirName(oauthAccount.id))))
  })

  it('remove deletes the clone and its record; removing the account deletes its clones', async () => {
    const gitdir = join(w.reposDir, accountDirName(w.accountId), `${w.projectId}.git`)
    w.changes.length = 0
    expect(await call(w.core, 'repos:remove', w.accountId, w.projectId)).toBeNull()
    expect(existsSync(gitdir)).toBe(false)
    expect(await call<RepoClone[]>(w.core, 'repos:list', w.accountId)).toEqual([])
    expect(w.changes).toEqual([{ accountId: w.accountId, projectId: w.projectId, clone: null }])
    // Reads now go to the server.
    expect(
      (await call<RepoTree>(w.core, 'repos:tree', w.accountId, { projectId: w.projectId, ref: 'main' })).source,
    ).toBe('server')

    await call<RepoClone>(w.core, 'repos:clone', w.accountId, w.projectId)
    expect(statSync(gitdir).isDirectory()).toBe(true)
    await call(w.core, 'accounts:remove', w.accountId)
    await until(() => !existsSync(join(w.reposDir, accountDirName(w.accountId))))
  })
})
