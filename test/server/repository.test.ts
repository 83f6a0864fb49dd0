import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeWorkRepo, remoteUrl, sh } from '../helpers/git'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

/** Writes files and commits them as `author` ("Name <email>"); returns the new commit id. */
async function commitAs(
  dir: string,
  files: Readonly<Record<string, string | Buffer>>,
  message: string,
  author = 'Alice <alice@example.com>',
): Promise<string> {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
  await sh(dir, 'add', '-A')
  await sh(dir, 'commit', '--quiet', `--author=${author}`, '-m', message)
  return sh(dir, 'rev-parse', 'HEAD')
}

/** Runs a system tool on a file and resolves with its stdout (async: the server shares this loop). */
function tool(cmd: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args as string[], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(stderr)) : resolve(stdout),
    )
  })
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])

describe('repository read API', () => {
  let s: ListeningServer
  let dev: SeededUser
  let reporter: SeededUser
  let guest: SeededUser
  let priv: ProjectRow
  let pub: ProjectRow
  let empty: ProjectRow
  const sha: Record<string, string> = {}

  beforeAll(async () => {
    s = await startServer()
    dev = seedUser(s)
    reporter = seedUser(s)
    guest = seedUser(s)
    const group = seedGroup(s, { path: 'acme', visibility: 'public' })
    priv = seedProject(s, { namespaceId: group.id, path: 'secret', visibility: 'private' })
    pub = seedProject(s, { namespaceId: group.id, path: 'open', visibility: 'public' })
    empty = seedProject(s, { namespaceId: group.id, path: 'empty', visibility: 'public' })
    for (const p of [priv, pub, empty]) {
      seedMember(s, 'Project', p.id, dev.user.id, AccessLevel.DEVELOPER)
      seedMember(s, 'Project', p.id, reporter.user.id, AccessLevel.REPORTER)
      seedMember(s, 'Project', p.id, guest.user.id, AccessLevel.GUEST)
    }
    const work = makeWorkRepo()
    sha.c1 = await commitAs(
      work,
      { 'README.md': '# open\n', 'src/a.txt': 'a\n', 'src/lib/b.txt': 'b\n', 'logo.png': PNG },
      'Initial commit',
    )
    await sh(work, 'tag', 'v1.0')
    sha.c2 = await commitAs(work, { 'src/a.txt': 'a\na2\n' }, 'Second commit', 'Bob <bob@example.com>')
    await sh(work, 'tag', '-a', 'v2.0', '-m', 'Release 2.0')
    await sh(work, 'checkout', '--quiet', '-b', 'feature')
    sha.c3 = await commitAs(work, { 'feature.txt': 'feature\n' }, 'Feature work', 'Bob <bob@example.com>')
    await sh(work, 'checkout', '--quiet', 'main')
    sha.c4 = await commitAs(work, { 'README.md': '# open\nmore\n' }, 'Main work', 'Carol <carol@example.com>')
    await sh(work, 'checkout', '--quiet', '-b', 'other', sha.c2)
    sha.c5 = await commitAs(work, { 'other.txt': 'other\n' }, 'Other work', 'Bob <bob@example.com>')
    await sh(work, 'checkout', '--quiet', 'main')
    // A submodule entry (a gitlink) shows up in trees as type `commit`.
    await sh(work, 'update-index', '--add', '--cacheinfo', `160000,${sha.c1},vendor/sub`)
    sha.c6 = await sh(work, 'commit', '--quiet', '--author=Alice <alice@example.com>', '-m', 'Add submodule')
    sha.c6 = await sh(work, 'rev-parse', 'HEAD')
    for (const path of ['acme/open', 'acme/secret']) {
      await sh(work, 'push', '--quiet', remoteUrl(s.url, path, dev.token), 'main', 'feature', 'other', '--tags')
    }
  })
  afterAll(async () => {
    await s.close()
  })

  const api = (token: string | null, url: string) => s.request(token, { method: 'GET', url: `/api/v4${url}` })

  describe('tree', () => {
    it('lists the root of the default branch: trees first, then blobs, then submodules', async () => {
      const res = await api(null, `/projects/${pub.id}/repository/tree`)
      expect(res.statusCode).toBe(200)
      const entries = res.json() as { name: string; type: string; mode: string; path: string; id: string }[]
      expect(entries.map((e) => [e.name, e.type])).toEqual([
        ['src', 'tree'],
        ['vendor', 'tree'],
        ['README.md', 'blob'],
        ['logo.png', 'blob'],
      ])
      expect(entries[0]).toMatchObject({ mode: '040000', path: 'src' })
      expect(entries[2]).toMatchObject({ mode: '100644', path: 'README.md' })
      expect(entries[2].id).toMatch(/^[0-9a-f]{40}$/)
      expect(res.headers['x-total']).toBe('4')
    })

    it('lists a subdirectory with full paths and a submodule as type commit', async () => {
      const src = (await api(null, `/projects/${pub.id}/repository/tree?path=src`)).json() as { path: string }[]
      expect(src.map((e) => e.path)).toEqual(['src/lib', 'src/a.txt'])
      const vendor = (await api(null, `/projects/${pub.id}/repository/tree?path=vendor/`)).json() as {
        type: string
        mode: string
        id: string
      }[]
      expect(vendor).toEqual([{ id: sha.c1, name: 'sub', type: 'commit', path: 'vendor/sub', mode: '160000' }])
    })

    it('lists every directory and file with recursive=true', async () => {
      const entries = (await api(null, `/projects/${pub.id}/repository/tree?recursive=true&per_page=100`)).json() as {
        path: string
        type: string
      }[]
      expect(entries.map((e) => e.path).sort()).toEqual([
        'README.md',
        'logo.png',
        'src',
        'src/a.txt',
        'src/lib',
        'src/lib/b.txt',
        'vendor',
        'vendor/sub',
      ])
    })

    it('reads another ref given by branch, tag or SHA', async () => {
      const feature = (await api(null, `/projects/${pub.id}/repository/tree?ref=feature`)).json() as { name: string }[]
      expect(feature.map((e) => e.name)).toContain('feature.txt')
      const tag = (await api(null, `/projects/${pub.id}/repository/tree?ref=v1.0&path=src`)).json() as {
        name: string
      }[]
      expect(tag.map((e) => e.name)).toEqual(['lib', 'a.txt'])
      expect((await api(null, `/projects/${pub.id}/repository/tree?ref=${sha.c1}`)).statusCode).toBe(200)
    })

    it('paginates with per_page and page, with Link headers', async () => {
      const res = await api(null, `/projects/${pub.id}/repository/tree?recursive=true&per_page=3&page=2`)
      expect((res.json() as unknown[]).length).toBe(3)
      expect(res.headers['x-total']).toBe('8')
      expect(res.headers['x-total-pages']).toBe('3')
      expect(res.headers.link).toContain('rel="next"')
    })

    it('pages with pagination=keyset and page_token until no next link is left', async () => {
      const seen: string[] = []
      let url: string | null = `/api/v4/projects/${pub.id}/repository/tree?recursive=true&pagination=keyset&per_page=3`
      while (url) {
        const res = await s.request(null, { method: 'GET', url })
        expect(res.statusCode).toBe(200)
        seen.push(...(res.json() as { path: string }[]).map((e) => e.path))
        const link = /<([^>]+)>; rel="next"/.exec(String(res.headers.link ?? ''))
        url = link ? new URL(link[1]).pathname + new URL(link[1]).search : null
      }
      expect(seen).toHaveLength(8)
      expect(new Set(seen).size).toBe(8)
    })

    it('answers 404 Tree Not Found for an unknown ref, an unknown path and a file path', async () => {
      for (const q of ['ref=nope', 'path=missing', 'path=README.md']) {
        const res = await api(null, `/projects/${pub.id}/repository/tree?${q}`)
        expect(res.statusCode).toBe(404)
        expect(res.json()).toEqual({ message: '404 Tree Not Found' })
      }
    })

    it('answers 400 for a malformed ref or a path escaping the repository', async () => {
      expect((await api(null, `/projects/${pub.id}/repository/tree?ref=-x`)).statusCode).toBe(400)
      expect((await api(null, `/projects/${pub.id}/repository/tree?ref=a..b`)).statusCode).toBe(400)
      expect((await api(null, `/projects/${pub.id}/repository/tree?path=../etc`)).statusCode).toBe(400)
    })

    it('answers 404 Tree Not Found on an empty repository', async () => {
      const res = await api(null, `/projects/${empty.id}/repository/tree`)
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: '404 Tree Not Found' })
    })

    it('hides private code from anonymous callers (404), refuses Guests (403) and serves Reporters', async () => {
      expect((await api(null, `/projects/${priv.id}/repository/tree`)).statusCode).toBe(404)
      expect((await api(guest.token, `/projects/${priv.id}/repository/tree`)).statusCode).toBe(403)
      expect((await api(reporter.token, `/projects/${priv.id}/repository/tree`)).statusCode).toBe(200)
      expect((await api(reporter.token, `/projects/acme%2Fsecret/repository/tree`)).statusCode).toBe(200)
    })
  })

  describe('blobs', () => {
    it('returns a blob as Base64 with its size and sha', async () => {
      const readme = (
        (await api(null, `/projects/${pub.id}/repository/tree`)).json() as { name: string; id: string }[]
      ).find((e) => e.name === 'README.md')
      const res = await api(null, `/projects/${pub.id}/repository/blobs/${readme?.id}`)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({
        size: 12,
        encoding: 'base64',
        content: Buffer.from('# open\nmore\n').toString('base64'),
        sha: readme?.id,
      })
    })

    it('serves raw bytes with a content type guessed from them', async () => {
      const entries = (await api(null, `/projects/${pub.id}/repository/tree`)).json() as { name: string; id: string }[]
      const text = await api(
        null,
        `/projects/${pub.id}/repository/blobs/${entries.find((e) => e.name === 'README.md')?.id}/raw`,
      )
      expect(text.statusCode).toBe(200)
      expect(text.headers['content-type']).toBe('text/plain; charset=utf-8')
      expect(text.body).toBe('# open\nmore\n')
      const png = await api(
        null,
        `/projects/${pub.id}/repository/blobs/${entries.find((e) => e.name === 'logo.png')?.id}/raw`,
      )
      expect(png.headers['content-type']).toBe('image/png')
      expect(png.rawPayload.equals(PNG)).toBe(true)
    })

    it('answers 404 Blob Not Found for unknown ids, non-hex ids and ids of trees', async () => {
      const tree = (
        (await api(null, `/projects/${pub.id}/repository/tree`)).json() as { type: string; id: string }[]
      ).find((e) => e.type === 'tree')
      for (const id of ['0123456789abcdef0123456789abcdef01234567', 'main', tree?.id]) {
        for (const suffix of ['', '/raw']) {
          const res = await api(null, `/projects/${pub.id}/repository/blobs/${id}${suffix}`)
          expect(res.statusCode).toBe(404)
          expect(res.json()).toEqual({ message: '404 Blob Not Found' })
        }
      }
    })
  })

  describe('archive', () => {
    const download = async (
      suffix: string,
      query = '',
    ): Promise<{ status: number; body: Buffer; disposition: string; file: string }> => {
      const res = await api(null, `/projects/${pub.id}/repository/archive${suffix}${query}`)
      const file = join(mkdtempSync(join(tmpdir(), 'burrow-archive-')), 'archive')
      writeFileSync(file, res.rawPayload)
      return {
        status: res.statusCode,
        body: res.rawPayload,
        disposition: String(res.headers['content-disposition']),
        file,
      }
    }

    it('defaults to tar.gz of the default branch, named <path>-<ref>-<sha>', async () => {
      const a = await download('')
      expect(a.status).toBe(200)
      expect(a.body.subarray(0, 2).toString('hex')).toBe('1f8b')
      expect(a.disposition).toBe(`attachment; filename="open-main-${sha.c6}.tar.gz"`)
      const tar = gunzipSync(a.body)
      expect(tar.subarray(257, 262).toString('latin1')).toBe('ustar')
      const list = (await tool('tar', ['-tzf', a.file])).split('\n')
      expect(list).toContain(`open-main-${sha.c6}/src/lib/b.txt`)
    })

    it('makes tar.bz2 under every bzip2 alias', async () => {
      for (const suffix of ['.tar.bz2', '.tbz', '.tbz2', '.tb2', '.bz2']) {
        const a = await download(suffix)
        expect(a.status).toBe(200)
        expect(a.body.subarray(0, 3).toString('latin1')).toBe('BZh')
        expect(a.disposition).toContain('.tar.bz2"')
        expect((await tool('tar', ['-tjf', a.file])).split('\n')).toContain(`open-main-${sha.c6}/README.md`)
      }
    })

    it('makes plain tar and zip', async () => {
      const tar = await download('.tar')
      expect(tar.body.subarray(257, 262).toString('latin1')).toBe('ustar')
      expect((await tool('tar', ['-tf', tar.file])).split('\n')).toContain(`open-main-${sha.c6}/src/a.txt`)
      const zip = await download('.zip')
      expect(zip.body.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04')
      expect(await tool('unzip', ['-l', zip.file])).toContain(`open-main-${sha.c6}/src/a.txt`)
    })

    it('archives the commit named by sha (tag, branch or SHA) and only `path` when given', async () => {
      const tagged = await download('.tar', '?sha=v1.0')
      expect(tagged.disposition).toBe(`attachment; filename="open-v1.0-${sha.c1}.tar"`)
      expect((await tool('tar', ['-tf', tagged.file])).split('\n')).not.toContain(`open-v1.0-${sha.c1}/feature.txt`)
      const feature = await download('.tar', '?sha=feature&path=src/lib')
      const prefix = `open-feature-${sha.c3}-src-lib`
      expect(feature.disposition).toBe(`attachment; filename="${prefix}.tar"`)
      const list = (await tool('tar', ['-tf', feature.file])).split('\n').filter((l) => l && !l.endsWith('/'))
      expect(list).toEqual([`${prefix}/src/lib/b.txt`])
    })

    it('answers 404 for an unknown sha, an unknown path, an unknown format and an empty repository', async () => {
      expect((await download('.zip', '?sha=nope')).status).toBe(404)
      expect((await download('.zip', '?path=nothing')).status).toBe(404)
      expect((await download('.rar')).status).toBe(404)
      expect((await api(null, `/projects/${empty.id}/repository/archive`)).statusCode).toBe(404)
    })

    it('refuses a Guest of a private project and serves its Reporter', async () => {
      expect((await api(guest.token, `/projects/${priv.id}/repository/archive.zip`)).statusCode).toBe(403)
      expect((await api(reporter.token, `/projects/${priv.id}/repository/archive.zip`)).statusCode).toBe(200)
    })
  })

  describe('compare', () => {
    it('compares against the merge base by default (from...to)', async () => {
      const res = await api(null, `/projects/${pub.id}/repository/compare?from=main&to=feature`)
      expect(res.statusCode).toBe(200)
      const body = res.json() as {
        commit: { id: string }
        commits: { id: string }[]
        diffs: { new_path: string; new_file: boolean; diff: string; a_mode: string; b_mode: string }[]
        compare_same_ref: boolean
        compare_timeout: boolean
        web_url: string
      }
      expect(body.commits.map((c) => c.id)).toEqual([sha.c3])
      expect(body.commit.id).toBe(sha.c3)
      expect(body.diffs).toHaveLength(1)
      expect(body.diffs[0]).toMatchObject({
        old_path: 'feature.txt',
        new_path: 'feature.txt',
        new_file: true,
        renamed_file: false,
        deleted_file: false,
        a_mode: '0',
        b_mode: '100644',
      })
      expect(body.diffs[0].diff).toBe('@@ -0,0 +1 @@\n+feature\n')
      expect(body).toMatchObject({ compare_same_ref: false, compare_timeout: false })
      expect(body.web_url).toMatch(/\/acme\/open\/-\/compare\/main\.\.\.feature$/)
    })

    it('compares the two trees directly with straight=true (from..to)', async () => {
      const body = (
        await api(null, `/projects/${pub.id}/repository/compare?from=main&to=feature&straight=true`)
      ).json() as { commits: { id: string }[]; diffs: { new_path: string; deleted_file: boolean }[] }
      expect(body.commits.map((c) => c.id)).toEqual([sha.c3])
      // The direct diff also undoes main's own changes since the fork point.
      expect(body.diffs.map((d) => d.new_path).sort()).toEqual(['README.md', 'feature.txt', 'vendor/sub'])
      expect(body.diffs.find((d) => d.new_path === 'vendor/sub')?.deleted_file).toBe(true)
    })

    it('lists commits oldest first and adds file headers with unidiff=true', async () => {
      const body = (
        await api(null, `/projects/${pub.id}/repository/compare?from=${sha.c1}&to=${sha.c4}&unidiff=true`)
      ).json() as { commit: { id: string }; commits: { id: string }[]; diffs: { new_path: string; diff: string }[] }
      expect(body.commits.map((c) => c.id)).toEqual([sha.c2, sha.c4])
      expect(body.commit.id).toBe(sha.c4)
      expect(body.diffs.find((d) => d.new_path === 'src/a.txt')?.diff).toMatch(
        /^--- a\/src\/a.txt\n\+\+\+ b\/src\/a.txt\n@@/,
      )
    })

    it('reports the same ref with no commits and no diffs', async () => {
      const body = (await api(null, `/projects/${pub.id}/repository/compare?from=main&to=main`)).json() as Record<
        string,
        unknown
      >
      expect(body).toMatchObject({ commit: null, commits: [], diffs: [], compare_same_ref: true })
    })

    it('answers 404 for an unknown ref and 400 without from or to', async () => {
      const res = await api(null, `/projects/${pub.id}/repository/compare?from=main&to=nope`)
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: '404 Ref Not Found' })
      const missing = await api(null, `/projects/${pub.id}/repository/compare?from=main`)
      expect(missing.statusCode).toBe(400)
      expect(missing.json()).toEqual({ error: 'to is missing' })
    })

    it('compares from a ref of another readable project with from_project_id', async () => {
      const res = await api(
        reporter.token,
        `/projects/${pub.id}/repository/compare?from=v1.0&to=main&from_project_id=${priv.id}`,
      )
      expect(res.statusCode).toBe(200)
      expect((res.json() as { commits: { id: string }[] }).commits.map((c) => c.id)).toEqual([sha.c2, sha.c4, sha.c6])
      const refused = await api(
        guest.token,
        `/projects/${pub.id}/repository/compare?from=v1.0&to=main&from_project_id=${priv.id}`,
      )
      expect(refused.statusCode).toBe(400)
    })
  })

  describe('contributors', () => {
    it('orders by commits ascending by default', async () => {
      const res = await api(null, `/projects/${pub.id}/repository/contributors`)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual(
        [
          { name: 'Carol', email: 'carol@example.com', commits: 1, additions: 0, deletions: 0 },
          { name: 'Bob', email: 'bob@example.com', commits: 1, additions: 0, deletions: 0 },
          { name: 'Alice', email: 'alice@example.com', commits: 2, additions: 0, deletions: 0 },
        ].sort((a, b) => a.commits - b.commits || a.name.localeCompare(b.name)),
      )
    })

    it('orders by name or email in either direction and paginates', async () => {
      const byName = (
        await api(null, `/projects/${pub.id}/repository/contributors?order_by=name&sort=desc`)
      ).json() as { name: string }[]
      expect(byName.map((c) => c.name)).toEqual(['Carol', 'Bob', 'Alice'])
      const byEmail = (await api(null, `/projects/${pub.id}/repository/contributors?order_by=email`)).json() as {
        email: string
      }[]
      expect(byEmail.map((c) => c.email)).toEqual(['alice@example.com', 'bob@example.com', 'carol@example.com'])
      const paged = await api(null, `/projects/${pub.id}/repository/contributors?per_page=2&page=2`)
      expect((paged.json() as unknown[]).length).toBe(1)
      expect(paged.headers['x-total']).toBe('3')
    })

    it('rejects an unknown order_by and lists nobody for an empty repository', async () => {
      expect((await api(null, `/projects/${pub.id}/repository/contributors?order_by=size`)).statusCode).toBe(400)
      expect((await api(null, `/projects/${empty.id}/repository/contributors`)).json()).toEqual([])
    })
  })

  describe('merge_base', () => {
    it('returns the common ancestor commit of three refs', async () => {
      const res = await api(null, `/projects/${pub.id}/repository/merge_base?refs[]=main&refs[]=feature&refs[]=other`)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({
        id: sha.c2,
        short_id: sha.c2.slice(0, 8),
        title: 'Second commit',
        author_name: 'Bob',
        parent_ids: [sha.c1],
      })
    })

    it('accepts comma-separated refs as python-gitlab sends them', async () => {
      expect((await api(null, `/projects/${pub.id}/repository/merge_base?refs=main,feature`)).json()).toMatchObject({
        id: sha.c2,
      })
    })

    it('answers 400 with fewer than two refs or unknown refs', async () => {
      const one = await api(null, `/projects/${pub.id}/repository/merge_base?refs[]=main`)
      expect(one.statusCode).toBe(400)
      expect(one.json()).toEqual({ message: 'Provide at least 2 refs' })
      const unknown = await api(null, `/projects/${pub.id}/repository/merge_base?refs[]=main&refs[]=nope&refs[]=gone`)
      expect(unknown.statusCode).toBe(400)
      expect(unknown.json()).toEqual({ message: 'Could not find refs: nope, gone' })
      expect((await api(null, `/projects/${pub.id}/repository/merge_base`)).statusCode).toBe(400)
    })
  })
})

describe('repository limits', () => {
  let s: ListeningServer
  let dev: SeededUser
  let project: ProjectRow
  let base = ''
  let head = ''
  let tweaked = ''
  let oversized = ''

  beforeAll(async () => {
    s = await startServer({
      settings: {
        diff_max_patch_bytes: 200,
        diff_max_files: 3,
        diff_max_lines: 12,
        repository_archive_requests_per_minute: 2,
      },
    })
    dev = seedUser(s)
    const group = seedGroup(s, { path: 'lim', visibility: 'public' })
    project = seedProject(s, { namespaceId: group.id, path: 'big', visibility: 'public' })
    seedMember(s, 'Project', project.id, dev.user.id, AccessLevel.DEVELOPER)
    const work = makeWorkRepo()
    base = await commitAs(work, { 'keep.txt': 'x\n' }, 'base')
    head = await commitAs(
      work,
      {
        'a-small.txt': 'one\n',
        'b-huge.txt': 'y'.repeat(500) + '\n',
        'c-lines.txt': Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n') + '\n',
        'd-more.txt': 'more\n',
        'e-more.txt': 'more\n',
      },
      'many files',
    )
    tweaked = await commitAs(work, { 'd-more.txt': 'less\n' }, 'one small change')
    oversized = await commitAs(work, { 'b-huge.txt': 'z'.repeat(500) + '\n' }, 'one oversized change')
    await sh(work, 'push', '--quiet', remoteUrl(s.url, 'lim/big', dev.token), 'main')
  })
  afterAll(async () => {
    await s.close()
  })

  it('empties patches over diff_max_patch_bytes or past diff_max_lines and stops at diff_max_files', async () => {
    const body = (
      await s.request(dev.token, {
        method: 'GET',
        url: `/api/v4/projects/${project.id}/repository/compare?from=${base}&to=${head}`,
      })
    ).json() as { diffs: { new_path: string; diff: string }[]; compare_timeout: boolean }
    expect(body.compare_timeout).toBe(true)
    expect(body.diffs.map((d) => d.new_path)).toEqual(['a-small.txt', 'b-huge.txt', 'c-lines.txt'])
    expect(body.diffs[0].diff).toBe('@@ -0,0 +1 @@\n+one\n')
    expect(body.diffs[1].diff).toBe('')
    // a-small.txt used 2 lines; the 11 of c-lines.txt would pass the limit of 12.
    expect(body.diffs[2].diff).toBe('')
  })

  it('reports compare_timeout false when the diff fits the limits, even with one oversized patch', async () => {
    const compare = async (
      from: string,
      to: string,
    ): Promise<{ diffs: { diff: string }[]; compare_timeout: boolean }> =>
      (
        await s.request(dev.token, {
          method: 'GET',
          url: `/api/v4/projects/${project.id}/repository/compare?from=${from}&to=${to}`,
        })
      ).json()
    const small = await compare(head, tweaked)
    expect(small.diffs.map((d) => d.diff)).toEqual(['@@ -1 +1 @@\n-more\n+less\n'])
    expect(small.compare_timeout).toBe(false)
    const huge = await compare(tweaked, oversized)
    expect(huge.diffs.map((d) => d.diff)).toEqual([''])
    expect(huge.compare_timeout).toBe(false)
  })

  it('throttles archive downloads per user per minute with 429 and Retry-After', async () => {
    const get = () =>
      s.request(dev.token, { method: 'GET', url: `/api/v4/projects/${project.id}/repository/archive.zip` })
    expect((await get()).statusCode).toBe(200)
    expect((await get()).statusCode).toBe(200)
    const third = await get()
    expect(third.statusCode).toBe(429)
    expect(third.json()).toEqual({
      message: { error: 'This archive has been requested too many times. Try again later.' },
    })
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0)
  })
})
