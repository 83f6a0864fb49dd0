import { execFile } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeWorkRepo, remoteUrl, sh } from '../helpers/git'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

async function commitAt(
  dir: string,
  files: Readonly<Record<string, string>>,
  message: string,
  date: string,
  author = 'Alice <alice@example.com>',
): Promise<string> {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
  await sh(dir, 'add', '-A')
  // `since`/`until` filter on committer dates, so both dates are set (sh cannot pass an environment).
  await new Promise<void>((resolve, reject) => {
    const env = {
      ...process.env,
      HOME: tmpdir(),
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_COMMITTER_NAME: 'Committer',
      GIT_COMMITTER_EMAIL: 'c@example.com',
      GIT_COMMITTER_DATE: date,
    }
    execFile(
      'git',
      ['commit', '--quiet', `--author=${author}`, `--date=${date}`, '-m', message],
      { cwd: dir, env },
      (error, _out, stderr) => (error ? reject(new Error(stderr)) : resolve()),
    )
  })
  return sh(dir, 'rev-parse', 'HEAD')
}

interface CommitJson {
  readonly id: string
  readonly title: string
  readonly parent_ids: readonly string[]
  readonly stats?: { additions: number; deletions: number; total: number }
  readonly trailers: Readonly<Record<string, string>>
}

describe('commits API', () => {
  let s: ListeningServer
  let dev: SeededUser
  let guest: SeededUser
  let pub: ProjectRow
  let priv: ProjectRow
  let empty: ProjectRow
  const sha: Record<string, string> = {}

  beforeAll(async () => {
    s = await startServer()
    dev = seedUser(s)
    guest = seedUser(s)
    const group = seedGroup(s, { path: 'hist', visibility: 'public' })
    pub = seedProject(s, { namespaceId: group.id, path: 'open', visibility: 'public' })
    priv = seedProject(s, { namespaceId: group.id, path: 'secret', visibility: 'private' })
    empty = seedProject(s, { namespaceId: group.id, path: 'empty', visibility: 'public' })
    for (const p of [pub, priv]) {
      seedMember(s, 'Project', p.id, dev.user.id, AccessLevel.DEVELOPER)
      seedMember(s, 'Project', p.id, guest.user.id, AccessLevel.GUEST)
    }
    const work = makeWorkRepo()
    sha.c1 = await commitAt(work, { 'README.md': 'one\n', 'docs/a.md': 'a\n' }, 'First', '2023-01-01T10:00:00Z')
    sha.c2 = await commitAt(
      work,
      { 'README.md': 'one\ntwo\nthree\n' },
      'Second\n\nChangelog: added',
      '2023-02-01T10:00:00Z',
      'Bob <bob@example.com>',
    )
    await sh(work, 'checkout', '--quiet', '-b', 'feature')
    sha.f1 = await commitAt(work, { 'docs/b.md': 'b\n' }, 'Feature', '2023-03-01T10:00:00Z')
    await sh(work, 'checkout', '--quiet', 'main')
    sha.c3 = await commitAt(work, { 'docs/a.md': 'a changed\n' }, 'Third', '2023-04-01T10:00:00Z')
    await sh(work, 'merge', '--quiet', '--no-ff', '-m', 'Merge feature', 'feature')
    sha.m = await sh(work, 'rev-parse', 'HEAD')
    await sh(work, 'tag', 'v1', sha.c2)
    for (const path of ['hist/open', 'hist/secret'])
      await sh(work, 'push', '--quiet', remoteUrl(s.url, path, dev.token), 'main', 'feature', '--tags')
  })
  afterAll(async () => {
    await s.close()
  })

  const api = (token: string | null, url: string) =>
    s.request(token, { method: 'GET', url: `/api/v4/projects/${pub.id}/repository${url}` })
  const ids = async (url: string): Promise<string[]> => ((await api(null, url)).json() as CommitJson[]).map((c) => c.id)

  it('lists the default branch newest first with pagination headers', async () => {
    const res = await api(null, '/commits?per_page=2')
    expect(res.statusCode).toBe(200)
    expect((res.json() as CommitJson[]).map((c) => c.id)).toEqual([sha.m, sha.c3])
    expect(res.headers['x-total']).toBe('5')
    expect(res.headers['x-total-pages']).toBe('3')
    expect(res.headers.link).toContain('rel="next"')
  })

  it('lists another ref or a range with ref_name', async () => {
    expect(await ids('/commits?ref_name=feature')).toEqual([sha.f1, sha.c2, sha.c1])
    expect(await ids(`/commits?ref_name=${sha.c1}..main`)).toEqual([sha.m, sha.c3, sha.f1, sha.c2])
    expect(await ids('/commits?ref_name=nope')).toEqual([])
  })

  it('filters by since, until, path and author', async () => {
    expect(await ids('/commits?since=2023-03-15T00:00:00Z')).toEqual([sha.m, sha.c3])
    expect(await ids('/commits?until=2023-01-15T00:00:00Z')).toEqual([sha.c1])
    expect(await ids('/commits?path=docs/a.md')).toEqual([sha.c3, sha.c1])
    expect(await ids('/commits?author=bob')).toEqual([sha.c2])
  })

  it('follows first parents only with first_parent and orders topologically with order=topo', async () => {
    expect(await ids('/commits?first_parent=true')).toEqual([sha.m, sha.c3, sha.c2, sha.c1])
    expect((await ids('/commits?order=topo')).length).toBe(5)
    expect((await api(null, '/commits?order=random')).statusCode).toBe(400)
  })

  it('lists every branch with all=true', async () => {
    expect((await ids('/commits?all=true')).sort()).toEqual([sha.c1, sha.c2, sha.c3, sha.f1, sha.m].sort())
  })

  it('adds stats with with_stats and trailers with trailers=true', async () => {
    const list = (await api(null, '/commits?with_stats=true&trailers=true&ref_name=v1')).json() as CommitJson[]
    expect(list[0].stats).toEqual({ additions: 2, deletions: 0, total: 2 })
    expect(list[0].trailers).toEqual({ Changelog: 'added' })
    const plain = (await api(null, '/commits?ref_name=v1')).json() as CommitJson[]
    expect(plain[0].stats).toBeUndefined()
    expect(plain[0].trailers).toEqual({})
  })

  it('answers 400 for a malformed date, ref or path', async () => {
    expect((await api(null, '/commits?since=yesterday-ish')).statusCode).toBe(400)
    expect((await api(null, '/commits?ref_name=-rf')).statusCode).toBe(400)
    expect((await api(null, '/commits?path=../x')).statusCode).toBe(400)
  })

  it('lists nothing for an empty repository', async () => {
    const res = await s.request(null, { method: 'GET', url: `/api/v4/projects/${empty.id}/repository/commits` })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual([])
  })

  it('shows one commit by SHA, branch or tag with stats, status and last_pipeline', async () => {
    const res = await api(null, `/commits/${sha.c2}`)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      id: sha.c2,
      short_id: sha.c2.slice(0, 8),
      title: 'Second',
      author_name: 'Bob',
      parent_ids: [sha.c1],
      stats: { additions: 2, deletions: 0, total: 2 },
      status: null,
      last_pipeline: null,
      project_id: pub.id,
    })
    expect((await api(null, '/commits/v1')).json()).toMatchObject({ id: sha.c2 })
    expect((await api(null, '/commits/feature')).json()).toMatchObject({ id: sha.f1 })
    expect((await api(null, `/commits/${sha.c2}?stats=false`)).json()).not.toHaveProperty('stats')
  })

  it('answers 404 Commit Not Found for an unknown commit', async () => {
    for (const path of [
      '/commits/0123456789abcdef0123456789abcdef01234567',
      '/commits/nope/diff',
      '/commits/nope/refs',
    ]) {
      const res = await api(null, path)
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: '404 Commit Not Found' })
    }
    // Merge request calls need a signed-in caller: the unknown commit is looked for once there is one.
    const mrs = await s.request(dev.token, {
      method: 'GET',
      url: `/api/v4/projects/${pub.id}/repository/commits/nope/merge_requests`,
    })
    expect([mrs.statusCode, mrs.json()]).toEqual([404, { message: '404 Commit Not Found' }])
  })

  it('shows a commit diff, a root commit against the empty tree, and paginates it', async () => {
    const diff = (await api(null, `/commits/${sha.c3}/diff`)).json() as { new_path: string; diff: string }[]
    expect(diff).toEqual([
      expect.objectContaining({
        old_path: 'docs/a.md',
        new_path: 'docs/a.md',
        new_file: false,
        diff: '@@ -1 +1 @@\n-a\n+a changed\n',
      }),
    ])
    const root = await api(null, `/commits/${sha.c1}/diff?per_page=1`)
    expect((root.json() as { new_file: boolean }[])[0].new_file).toBe(true)
    expect(root.headers['x-total']).toBe('2')
    const uni = (await api(null, `/commits/${sha.c3}/diff?unidiff=true`)).json() as { diff: string }[]
    expect(uni[0].diff.startsWith('--- a/docs/a.md\n+++ b/docs/a.md\n@@')).toBe(true)
  })

  it('lists the branches and tags containing a commit, by type', async () => {
    expect((await api(null, `/commits/${sha.c2}/refs`)).json()).toEqual([
      { type: 'branch', name: 'feature' },
      { type: 'branch', name: 'main' },
      { type: 'tag', name: 'v1' },
    ])
    expect((await api(null, `/commits/${sha.c2}/refs?type=tag`)).json()).toEqual([{ type: 'tag', name: 'v1' }])
    expect((await api(null, `/commits/${sha.c3}/refs?type=branch`)).json()).toEqual([{ type: 'branch', name: 'main' }])
  })

  it("tells a commit's sequence: the commits of its history, itself included, or of its first parents", async () => {
    expect((await api(null, `/commits/${sha.c1}/sequence`)).json()).toEqual({ count: 1 })
    expect((await api(null, `/commits/${sha.m}/sequence`)).json()).toEqual({ count: 5 })
    expect((await api(null, '/commits/main/sequence?first_parent=true')).json()).toEqual({ count: 4 })
    const unknown = await api(null, '/commits/nope/sequence')
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toEqual({ message: '404 Commit Not Found' })
  })

  it('lists no merge requests for a commit, to a signed-in caller only (every merge request call is authenticated)', async () => {
    const url = `/api/v4/projects/${pub.id}/repository/commits/${sha.c3}/merge_requests`
    const res = await s.request(dev.token, { method: 'GET', url })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual([])
    const anonymous = await api(null, `/commits/${sha.c3}/merge_requests`)
    expect([anonymous.statusCode, anonymous.json()]).toEqual([401, { message: '401 Unauthorized' }])
  })

  it('refuses a Guest of a private project', async () => {
    const res = await s.request(guest.token, { method: 'GET', url: `/api/v4/projects/${priv.id}/repository/commits` })
    expect(res.statusCode).toBe(403)
    expect(
      (await s.request(dev.token, { method: 'GET', url: `/api/v4/projects/${priv.id}/repository/commits` })).statusCode,
    ).toBe(200)
  })
})
