import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchAllRefs, RemoteFetchError, remoteHeadBranch } from '../../src/server/platform/git/fetch-remote'
import { git, GitError } from '../../src/server/platform/git/git'
import type { CheckedUrl } from '../../src/server/platform/outbound/outbound'
import { importsIdle } from '../../src/server/modules/imports/service'
import { commitFiles, makeWorkRepo, sh } from '../helpers/git'
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

// Every way Burrow Server could reach another host, and what keeps each behind the outbound guard
// (platform/outbound/outbound.ts). Node's sockets and name lookups: imported by the guard's file
// alone, so webhooks, system hooks and imports (the callers, tested in hooks.test.ts and
// outbound-guard.test.ts) can only request through outboundFetch. git: every command runs with
// GIT_ALLOW_PROTOCOL=file, so no URL, config or submodule takes it off the machine; the one
// exception, platform/git/fetch-remote.ts, takes only a CheckedUrl, allows http and https alone
// and pins the checked addresses. The server has no remote mirrors, no integrations that call out,
// no avatar URLs it downloads and no CI remote includes (refused in pipelines/config/config.ts).

const SERVER = join(__dirname, '../../src/server')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

/** Files under src/server (relative) whose code matches `pattern`, comments left out. */
function filesMatching(pattern: RegExp): string[] {
  return sourceFiles(SERVER)
    .filter((file) => {
      const code = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '')
      return pattern.test(code)
    })
    .map((file) => relative(SERVER, file))
    .sort()
}

/** A module specifier imported anywhere, as `from 'x'` or `import('x')`. */
const imports = (specifiers: string): RegExp => new RegExp(`(from\\s+|import\\()'(node:)?(${specifiers})'`)

describe('outbound inventory: what can reach another host', () => {
  it('only the guard imports Node’s HTTP clients, sockets and name lookups', () => {
    expect(filesMatching(imports('http|https|http2|dns|dns/promises|dgram|undici|ws'))).toEqual([
      'platform/outbound/outbound.ts',
    ])
    // addresses.ts takes only isIPv4/isIPv6; certificates.ts only tls.rootCertificates.
    expect(filesMatching(imports('net'))).toEqual(['platform/outbound/addresses.ts', 'platform/outbound/outbound.ts'])
    expect(filesMatching(imports('tls'))).toEqual(['platform/crypto/certificates.ts'])
    expect(
      filesMatching(/\bimport\s*\{[^}]*\b(connect|createConnection|Socket)\b[^}]*\}\s*from\s*'node:(net|tls)'/),
    ).toEqual([])
  })

  it('no server code calls fetch, XMLHttpRequest or WebSocket other than the guard’s outboundFetch', () => {
    expect(filesMatching(/(^|[^\w.])(fetch|XMLHttpRequest|WebSocket|EventSource)\s*\(/m)).toEqual([])
    expect(filesMatching(/new\s+(XMLHttpRequest|WebSocket|EventSource)\b/)).toEqual([])
  })

  it('only git.ts and archive.ts start processes, and only fetch-remote.ts lets git use a network transport', () => {
    expect(filesMatching(imports('child_process|worker_threads|cluster'))).toEqual([
      'platform/git/archive.ts',
      'platform/git/git.ts',
    ])
    expect(filesMatching(/GIT_ALLOW_PROTOCOL|protocol\.[a-z]+\.allow|GIT_PROTOCOL_FROM_USER|GIT_SSH/)).toEqual([
      'platform/git/fetch-remote.ts',
      'platform/git/git.ts',
    ])
  })
})

describe('outbound inventory: git never leaves the machine on its own', () => {
  let root: string
  let work: string
  let server: GitHttpServer
  let marker: string
  const account = { user: 'svc', password: 'git-secret' }
  const credentials = { username: account.user, password: account.password }

  /** A CheckedUrl the guard would never have produced: what git itself does with it. */
  const forged = (href: string): CheckedUrl => ({ url: { href } as URL, host: 'forged', port: 80, addresses: [] })

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'burrow-outbound-inventory-'))
    marker = join(root, 'pwned')
    work = makeWorkRepo()
    commitFiles(work, { 'README.md': '# source\n' }, 'Start')
    await sh(root, 'clone', '--quiet', '--bare', work, join(root, 'source.git'))
    server = await startGitHttpServer(root, account)
  })
  afterAll(async () => {
    await server.close()
    rmSync(root, { recursive: true, force: true })
    rmSync(work, { recursive: true, force: true })
  })

  it('the git wrapper refuses http, ssh, git:// and ext:: transports, and the server hears nothing', async () => {
    const before = server.requests.length
    for (const url of [
      `${server.url}/source.git`,
      `ext::sh -c touch% ${marker}`,
      'ssh://git@127.0.0.1:1/x.git',
      'git://127.0.0.1:1/x.git',
    ]) {
      const refused = await git(['ls-remote', '--end-of-options', url]).then(
        () => 'reached',
        (error: unknown) => (error instanceof GitError ? error.stderr : String(error)),
      )
      expect([url, refused]).toEqual([url, expect.stringMatching(/transport '[a-z]+' not allowed/)])
    }
    expect(server.requests.length).toBe(before)
    expect(existsSync(marker)).toBe(false)
  })

  it('the git wrapper still fetches from a local repository (a fork from its source)', async () => {
    const out = await git(['ls-remote', '--end-of-options', join(root, 'source.git')])
    expect(out.stdout.toString()).toMatch(/refs\/heads\//)
  })

  it('fetch-remote takes http and https only: file://, ext:: and option-shaped URLs are refused by git itself', async () => {
    const gitDir = join(root, `target-${Date.now()}.git`)
    await git(['init', '--quiet', '--bare', gitDir])
    for (const href of [
      `file://${join(root, 'source.git')}`,
      join(root, 'source.git'),
      `ext::sh -c touch% ${marker}`,
      `--upload-pack=touch ${marker}`,
    ]) {
      await expect(fetchAllRefs(gitDir, forged(href), credentials), href).rejects.toBeInstanceOf(RemoteFetchError)
      await expect(remoteHeadBranch(forged(href), credentials), href).rejects.toBeInstanceOf(RemoteFetchError)
    }
    expect((await git(['for-each-ref'], { gitDir })).stdout.toString()).toBe('')
    expect(existsSync(marker)).toBe(false)
  })
})

/**
 * The import routes with git's own transports in the URL: refused with GitLab's 400 whether or
 * not local requests are allowed (the setting is about addresses, never schemes), and an
 * option-shaped project or repository name only ever becomes a path of the checked URL.
 */
describe('outbound inventory: the import routes and git transports', () => {
  let s: TestServer
  let importer: SeededUser
  let root: string
  let marker: string

  const settings = (allow: boolean) =>
    s.request(ROOT_TOKEN, {
      method: 'PUT',
      url: '/api/v4/application/settings',
      payload: { allow_local_requests_from_web_hooks_and_services: allow },
    })
  const gitServer = (url: string, project = 'group', repo = 'repo') =>
    s.request(importer.token, {
      method: 'POST',
      url: '/api/v4/import/git_server',
      payload: {
        git_server_url: url,
        git_server_username: 'someone',
        personal_access_token: 'secret',
        git_server_project: project,
        git_server_repo: repo,
        new_name: `imported-${Math.random().toString(36).slice(2, 8)}`,
      },
    })
  const projectCount = () => (s.app.burrow.db.prepare('SELECT COUNT(*) AS n FROM projects').get() as { n: number }).n

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'burrow-outbound-routes-'))
    marker = join(root, 'pwned')
    s = await makeServer()
    importer = seedUser(s, { username: 'transport_importer' })
  })
  afterAll(async () => {
    await s.close()
    rmSync(root, { recursive: true, force: true })
  })

  it.each([false, true])(
    'refuses file://, ext::, ssh://, git:// and option-shaped source URLs with 400 (local requests allowed: %s)',
    async (allow) => {
      expect((await settings(allow)).statusCode).toBe(200)
      const before = projectCount()
      for (const url of [
        `file://${root}`,
        `ext::sh -c touch% ${marker}`,
        'ssh://git@127.0.0.1/x.git',
        'git://127.0.0.1/x.git',
        `--upload-pack=touch ${marker}`,
        `-u touch ${marker}`,
      ]) {
        const res = await gitServer(url)
        expect([url, res.statusCode, res.json()]).toEqual([url, 400, { errors: `Invalid URL: ${url}` }])
      }
      expect(projectCount()).toBe(before)
      expect(existsSync(marker)).toBe(false)
      await settings(false)
    },
  )

  it('an option-shaped project and repository name become a path of the checked URL, never an option of git', async () => {
    expect((await settings(true)).statusCode).toBe(200)
    try {
      const res = await gitServer('http://127.0.0.1:1', `--upload-pack=touch ${marker}`, `--config=core.x=1`)
      expect(res.statusCode).toBe(201)
      await importsIdle(s.app.burrow)
      const status = (
        await s.request(importer.token, { method: 'GET', url: `/api/v4/projects/${res.json().id}/import` })
      ).json()
      expect(status).toMatchObject({ import_status: 'failed' })
      expect(existsSync(marker)).toBe(false)
    } finally {
      await settings(false)
    }
  })
})
