import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { commitFiles, remoteUrl, sh, shFails } from '../helpers/git'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>

describe('wikis', () => {
  let s: ListeningServer
  let project: ProjectRow
  let guest: SeededUser
  let reporter: SeededUser
  let developer: SeededUser
  let maintainer: SeededUser

  const base = (p: ProjectRow = project) => `/api/v4/projects/${p.id}/wikis`
  const call = (token: string | null, method: string, url: string, payload?: Json) =>
    s.request(token, { method: method as 'GET', url, ...(payload ? { payload } : {}) })
  const slugs = async (): Promise<string[]> =>
    ((await call(ROOT_TOKEN, 'GET', base())).json() as Json[]).map((p) => String(p.slug))
  const wikiCommits = async (): Promise<string[]> => {
    const dir = mkdtempSync(join(tmpdir(), 'burrow-wiki-'))
    await sh(dir, 'clone', '--quiet', remoteUrl(s.url, 'docs/handbook.wiki', ROOT_TOKEN), 'wiki')
    return (await sh(join(dir, 'wiki'), 'log', '--format=%s')).split('\n')
  }

  beforeAll(async () => {
    s = await startServer()
    const group = seedGroup(s, { path: 'docs', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'handbook', visibility: 'private' })
    guest = seedUser(s)
    reporter = seedUser(s)
    developer = seedUser(s, { username: 'wiki_dev' })
    maintainer = seedUser(s)
    seedMember(s, 'Project', project.id, guest.user.id, AccessLevel.GUEST)
    seedMember(s, 'Project', project.id, reporter.user.id, AccessLevel.REPORTER)
    seedMember(s, 'Project', project.id, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, maintainer.user.id, AccessLevel.MAINTAINER)
  })
  afterAll(async () => {
    await s.close()
  })

  it('lists no pages before the first one', async () => {
    const res = await call(guest.token, 'GET', base())
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual([])
  })

  it('creates pages for Developers: title to slug, format to file, committed to the wiki repository', async () => {
    const res = await call(developer.token, 'POST', base(), { title: 'Deploy notes', content: '# Deploying\n' })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toEqual({
      format: 'markdown',
      slug: 'Deploy-notes',
      title: 'Deploy notes',
      content: '# Deploying\n',
      encoding: 'UTF-8',
    })
    const nested = await call(developer.token, 'POST', base(), {
      title: 'Runbooks/On call',
      content: '* Page the on-call engineer',
      format: 'org',
    })
    expect(nested.json()).toMatchObject({ format: 'org', slug: 'Runbooks/On-call', title: 'On call' })
    expect(await slugs()).toEqual(['Deploy-notes', 'Runbooks/On-call'])
    expect(await wikiCommits()).toEqual(['wiki_dev created page: On call', 'wiki_dev created page: Deploy notes'])
  })

  it('reads pages with and without content, one by its slug, rendered, or at an older version', async () => {
    const list = (await call(guest.token, 'GET', `${base()}?with_content=true`)).json() as Json[]
    expect(list[0]).toEqual(expect.objectContaining({ slug: 'Deploy-notes', content: '# Deploying\n' }))
    expect((await call(guest.token, 'GET', base())).json()).toEqual([
      { format: 'markdown', slug: 'Deploy-notes', title: 'Deploy notes' },
      { format: 'org', slug: 'Runbooks/On-call', title: 'On call' },
    ])
    const nested = await call(guest.token, 'GET', `${base()}/${encodeURIComponent('Runbooks/On-call')}`)
    expect(nested.json()).toMatchObject({ slug: 'Runbooks/On-call', content: '* Page the on-call engineer' })
    await call(developer.token, 'PUT', `${base()}/Deploy-notes`, { content: 'Use <make deploy>' })
    expect((await call(guest.token, 'GET', `${base()}/Deploy-notes?render_html=true`)).json().content).toBe(
      '<p>Use &lt;make deploy&gt;</p>',
    )
    const dir = mkdtempSync(join(tmpdir(), 'burrow-wiki-'))
    await sh(dir, 'clone', '--quiet', remoteUrl(s.url, 'docs/handbook.wiki', ROOT_TOKEN), 'wiki')
    const first = await sh(join(dir, 'wiki'), 'rev-list', '--max-parents=0', 'HEAD')
    const old = await call(guest.token, 'GET', `${base()}/Deploy-notes?version=${first}`)
    expect(old.json().content).toBe('# Deploying\n')
    expect((await call(guest.token, 'GET', `${base()}/Nope`)).statusCode).toBe(404)
    expect((await call(guest.token, 'GET', `${base()}/Deploy-notes?version=0000000`)).statusCode).toBe(404)
  })

  it('renames and reformats a page, keeping its directory for a plain title', async () => {
    const res = await call(developer.token, 'PUT', `${base()}/${encodeURIComponent('Runbooks/On-call')}`, {
      title: 'Paging',
      format: 'markdown',
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ slug: 'Runbooks/Paging', title: 'Paging', format: 'markdown' })
    expect(await slugs()).toEqual(['Deploy-notes', 'Runbooks/Paging'])
  })

  it('refuses duplicates, blank or impossible titles and empty updates, writing nothing', async () => {
    const before = await wikiCommits()
    const cases: [string, string, Json, number, unknown][] = [
      [
        'POST',
        base(),
        { title: 'Deploy notes', content: 'x' },
        400,
        {
          message: { base: ['Duplicate page: A page with that title already exists'] },
        },
      ],
      ['POST', base(), { title: '  ', content: 'x' }, 400, { message: { title: ["can't be blank"] } }],
      ['POST', base(), { title: '../escape', content: 'x' }, 400, { message: { title: ['is invalid'] } }],
      ['POST', base(), { title: 'uploads/page', content: 'x' }, 400, { message: { title: ['is invalid'] } }],
      ['POST', base(), { title: 'Empty', content: ' ' }, 400, { message: { content: ["can't be blank"] } }],
      [
        'POST',
        base(),
        { title: 'Odd', content: 'x', format: 'textile' },
        400,
        {
          error: 'format does not have a valid value',
        },
      ],
      [
        'PUT',
        `${base()}/Deploy-notes`,
        {},
        400,
        {
          error: 'content, title, format are missing, at least one parameter must be provided',
        },
      ],
      [
        'PUT',
        `${base()}/Deploy-notes`,
        { title: 'Runbooks/Paging' },
        400,
        {
          message: { base: ['Duplicate page: A page with that title already exists'] },
        },
      ],
    ]
    for (const [method, url, body, status, answer] of cases) {
      const res = await call(developer.token, method, url, body)
      expect(res.statusCode, `${method} ${JSON.stringify(body)}`).toBe(status)
      expect(res.json()).toEqual(answer)
    }
    expect(await wikiCommits()).toEqual(before)
  })

  it('keeps writes to Developers and deletion to Maintainers; anonymous and outsiders see nothing', async () => {
    expect((await call(reporter.token, 'POST', base(), { title: 'R', content: 'r' })).statusCode).toBe(403)
    expect((await call(null, 'POST', base(), { title: 'R', content: 'r' })).statusCode).toBe(401)
    expect((await call(null, 'GET', base())).statusCode).toBe(404)
    expect((await call(seedUser(s).token, 'GET', base())).statusCode).toBe(404)
    expect((await call(developer.token, 'DELETE', `${base()}/Deploy-notes`)).statusCode).toBe(403)
    expect((await call(maintainer.token, 'DELETE', `${base()}/Deploy-notes`)).statusCode).toBe(204)
    expect((await call(maintainer.token, 'DELETE', `${base()}/Deploy-notes`)).statusCode).toBe(404)
    expect(await slugs()).toEqual(['Runbooks/Paging'])
  })

  it('commits an attachment under uploads/ and links it as GitLab does', async () => {
    const form = new FormData()
    form.append('file', new Blob([Buffer.from('PNGDATA')]), 'diagram.png')
    const res = await fetch(`${s.url}${base()}/attachments`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': developer.token },
      body: form,
    })
    expect(res.status).toBe(201)
    const body = (await res.json()) as Json
    expect(body).toMatchObject({ file_name: 'diagram.png', branch: 'main' })
    expect(body.file_path).toMatch(/^uploads\/[0-9a-f]{32}\/diagram\.png$/)
    expect(body.link).toEqual({ url: body.file_path, markdown: `![diagram.png](${String(body.file_path)})` })
    expect(await slugs()).toEqual(['Runbooks/Paging'])
  })

  it('answers 403 when the wiki feature is off', async () => {
    const closed = seedProject(s, { namespaceId: project.namespace_id, path: 'closed', visibility: 'public' })
    await call(ROOT_TOKEN, 'PUT', `/api/v4/projects/${closed.id}`, { wiki_access_level: 'disabled' })
    expect((await call(reporter.token, 'GET', base(closed))).statusCode).toBe(403)
  })

  describe('the wiki repository over smart HTTP', () => {
    it('is cloned, and a pushed page is read by the API', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'burrow-wiki-'))
      await sh(dir, 'clone', '--quiet', remoteUrl(s.url, 'docs/handbook.wiki', developer.token), 'wiki')
      const work = join(dir, 'wiki')
      commitFiles(work, { 'Pushed-page.md': 'From git', 'notes.txt': 'not a page' }, 'Add a page')
      await sh(work, 'push', '--quiet', 'origin', 'HEAD:main')
      const page = await call(guest.token, 'GET', `${base()}/Pushed-page`)
      expect(page.json()).toMatchObject({ title: 'Pushed page', content: 'From git' })
      expect(await slugs()).toEqual(['Pushed-page', 'Runbooks/Paging'])
    })

    it('takes pushes from Developers only, and clones from readers of the wiki only', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'burrow-wiki-'))
      await sh(dir, 'clone', '--quiet', remoteUrl(s.url, 'docs/handbook.wiki', reporter.token), 'wiki')
      const work = join(dir, 'wiki')
      commitFiles(work, { 'Reporter.md': 'no' }, 'Try')
      expect(await shFails(work, 'push', '--quiet', 'origin', 'HEAD:main')).toMatch(/not allowed to write/)
      expect(await shFails(dir, 'clone', remoteUrl(s.url, 'docs/handbook.wiki', seedUser(s).token), 'x')).toMatch(
        /not found|could not be found/i,
      )
      expect(await slugs()).not.toContain('Reporter')
    })
  })
})
