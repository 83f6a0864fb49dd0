import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>

// One public project and one private one, each holding the word "needle" in an issue, a note, a
// commit message, a file, a milestone and (the public one) a merge request and a wiki page. What
// a caller finds is exactly what they may read: confidential issues and internal notes for
// Reporters and up, nothing of the private project for outsiders.
describe('search API', () => {
  let s: ListeningServer
  let group: NamespaceRow
  let open: ProjectRow
  let secret: ProjectRow
  let outsider: SeededUser
  let guest: SeededUser
  let reporter: SeededUser

  const get = (token: string | null, url: string) => s.request(token, { method: 'GET', url: `/api/v4${url}` })
  const post = async (url: string, payload: Json): Promise<Json> => {
    const res = await s.request(ROOT_TOKEN, { method: 'POST', url: `/api/v4${url}`, payload })
    expect(res.statusCode, res.body).toBeLessThan(300)
    return res.json() as Json
  }
  const found = async (token: string | null, url: string): Promise<Json[]> => {
    const res = await get(token, url)
    expect(res.statusCode, res.body).toBe(200)
    const items = res.json() as Json[]
    expect(res.headers['x-total']).toBe(String(items.length))
    return items
  }
  const titles = async (token: string | null, url: string): Promise<string[]> =>
    (await found(token, url)).map((i) => String(i.title ?? i.body ?? i.name ?? i.username ?? i.path)).sort()

  async function fill(project: ProjectRow, label: string): Promise<void> {
    const p = `/projects/${project.id}`
    await post(`${p}/repository/commits`, {
      branch: 'main',
      commit_message: `Add the ${label} needle finder`,
      actions: [
        {
          action: 'create',
          file_path: 'src/finder.ts',
          content: `const a = 1\nconst b = 2\n// find the NEEDLE ${label}\nconst c = 3\nconst d = 4\nconst e = 5\n`,
        },
        { action: 'create', file_path: 'README.md', content: 'Nothing to see\n' },
      ],
    })
    const issue = await post(`${p}/issues`, { title: `Lost needle ${label}`, description: 'In the haystack' })
    await post(`${p}/issues`, { title: `Confidential needle ${label}`, confidential: true })
    const closed = await post(`${p}/issues`, { title: `Closed needle ${label}` })
    const close = await s.request(ROOT_TOKEN, {
      method: 'PUT',
      url: `/api/v4${p}/issues/${String(closed.iid)}`,
      payload: { state_event: 'close' },
    })
    expect(close.statusCode, close.body).toBe(200)
    await post(`${p}/issues/${String(issue.iid)}/notes`, { body: `Found the needle ${label}` })
    await post(`${p}/issues/${String(issue.iid)}/notes`, { body: `Internal needle ${label}`, internal: true })
    await post(`${p}/milestones`, { title: `Needle milestone ${label}` })
  }

  beforeAll(async () => {
    s = await startServer()
    group = seedGroup(s, { path: 'haystack', visibility: 'public' })
    open = seedProject(s, { namespaceId: group.id, path: 'open', visibility: 'public' })
    const hidden = seedGroup(s, { path: 'vault', visibility: 'private' })
    secret = seedProject(s, { namespaceId: hidden.id, path: 'secret', visibility: 'private' })
    outsider = seedUser(s, { username: 'outsider', name: 'Out Sider' })
    guest = seedUser(s, { username: 'needle_guest', name: 'Needle Guest' })
    reporter = seedUser(s, { username: 'needle_reporter', name: 'Needle Reporter' })
    seedMember(s, 'Project', open.id, guest.user.id, AccessLevel.GUEST)
    seedMember(s, 'Project', open.id, reporter.user.id, AccessLevel.REPORTER)
    await fill(open, 'public')
    await fill(secret, 'private')
    const p = `/projects/${open.id}`
    await post(`${p}/repository/branches`, { branch: 'feature', ref: 'main' })
    await post(`${p}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'Sharpen the needle' })
    await post(`${p}/wikis`, { title: 'Haystack', content: 'Where the needle hides' })
  })
  afterAll(async () => {
    await s.close()
  })

  it('refuses a search without a term or scope, with an unknown scope or order, or a term too long', async () => {
    const refused = async (url: string, body: Json): Promise<void> => {
      const res = await get(outsider.token, url)
      expect(res.statusCode, res.body).toBe(400)
      expect(res.json()).toEqual(body)
    }
    await refused('/search?scope=issues', { error: 'search is missing' })
    await refused('/search?search=needle', { error: 'scope is missing' })
    await refused('/search?search=needle&scope=haystacks', { error: 'scope does not have a valid value' })
    await refused(`/projects/${open.id}/search?search=needle&scope=projects`, {
      error: 'scope does not have a valid value',
    })
    await refused('/search?search=needle&scope=issues&order_by=title', {
      error: 'order_by does not have a valid value',
    })
    await refused('/search?search=needle&scope=issues&state=lost', { error: 'state does not have a valid value' })
    await refused(`/search?scope=issues&search=${'n'.repeat(4097)}`, { error: 'Search query is too long' })
    await refused(`/search?scope=issues&search=${Array(65).fill('n').join('+')}`, {
      error: 'Too many search terms specified',
    })
    expect((await get(outsider.token, `/projects/${secret.id}/search?search=needle&scope=issues`)).statusCode).toBe(404)
    expect((await get(outsider.token, `/groups/vault/search?search=needle&scope=issues`)).statusCode).toBe(404)
  })

  it('finds nothing for a one-character term (GitLab treats it as abusive)', async () => {
    expect(await found(ROOT_TOKEN, '/search?search=n&scope=issues')).toEqual([])
  })

  it('finds issues the caller may read, never a confidential one or one of a private project', async () => {
    expect(await titles(outsider.token, '/search?search=needle&scope=issues')).toEqual([
      'Closed needle public',
      'Lost needle public',
    ])
    expect(await titles(null, '/search?search=NEEDLE&scope=issues')).toEqual([
      'Closed needle public',
      'Lost needle public',
    ])
    expect(await titles(guest.token, `/projects/${open.id}/search?search=needle&scope=issues`)).toEqual([
      'Closed needle public',
      'Lost needle public',
    ])
    expect(await titles(reporter.token, '/search?search=needle&scope=issues')).toEqual([
      'Closed needle public',
      'Confidential needle public',
      'Lost needle public',
    ])
    expect(await titles(ROOT_TOKEN, '/search?search=needle&scope=issues')).toHaveLength(6)
  })

  it('filters issues by state and confidentiality and orders them by creation', async () => {
    expect(await titles(reporter.token, '/search?search=needle&scope=issues&state=opened')).toEqual([
      'Confidential needle public',
      'Lost needle public',
    ])
    expect(await titles(reporter.token, '/search?search=needle&scope=issues&confidential=true')).toEqual([
      'Confidential needle public',
    ])
    const oldestFirst = await found(reporter.token, '/search?search=needle&scope=issues&order_by=created_at&sort=asc')
    expect(oldestFirst.map((i) => i.title)).toEqual([
      'Lost needle public',
      'Confidential needle public',
      'Closed needle public',
    ])
    const page = await get(reporter.token, '/search?search=needle&scope=issues&per_page=1&page=2')
    expect(page.headers['x-total']).toBe('3')
    expect(page.headers['x-total-pages']).toBe('3')
    expect(page.headers['x-next-page']).toBe('3')
    expect((page.json() as Json[]).map((i) => i.title)).toEqual(['Confidential needle public'])
  })

  it('finds notes without an internal note for a Guest, with it for a Reporter', async () => {
    const url = `/projects/${open.id}/search?search=needle&scope=notes`
    expect(await titles(guest.token, url)).toEqual(['Found the needle public'])
    expect(await titles(reporter.token, url)).toEqual(['Found the needle public', 'Internal needle public'])
    expect(await titles(outsider.token, '/search?search=needle&scope=notes')).toEqual(['Found the needle public'])
    const [note] = await found(guest.token, url)
    expect(note).toMatchObject({ noteable_type: 'Issue', noteable_iid: 1, project_id: open.id, internal: false })
  })

  it('finds blobs in GitLab shape, only in repositories the caller may read', async () => {
    const [blob, ...rest] = await found(outsider.token, `/projects/${open.id}/search?search=needle&scope=blobs`)
    expect(rest).toEqual([])
    expect(blob).toEqual({
      basename: 'src/finder',
      data: 'const a = 1\nconst b = 2\n// find the NEEDLE public\nconst c = 3\nconst d = 4\n',
      path: 'src/finder.ts',
      filename: 'src/finder.ts',
      id: null,
      ref: 'main',
      startline: 1,
      project_id: open.id,
    })
    const everywhere = await found(outsider.token, '/search?search=needle&scope=blobs')
    expect(everywhere.map((b) => b.project_id)).toEqual([open.id])
    const admin = await found(ROOT_TOKEN, '/search?search=needle&scope=blobs')
    expect(admin.map((b) => b.project_id).sort()).toEqual([open.id, secret.id].sort())
    // A term that is no pattern: the dot is a dot, the bracket a bracket.
    expect(
      await found(ROOT_TOKEN, `/projects/${open.id}/search?search=${encodeURIComponent('c.=[')}&scope=blobs`),
    ).toEqual([])
    expect(await found(ROOT_TOKEN, `/projects/${open.id}/search?search=needle&scope=blobs&ref=nowhere`)).toEqual([])
    expect(await found(ROOT_TOKEN, `/projects/${open.id}/search?search=needle&scope=blobs&ref=--output`)).toEqual([])
    for (const scope of ['blobs', 'commits', 'wiki_blobs', 'notes'])
      expect(await found(ROOT_TOKEN, `/projects/${open.id}/search?search=ne%00edle&scope=${scope}`)).toEqual([])
  })

  it('finds commits by message on the default branch, never of a private project for an outsider', async () => {
    const commits = await found(outsider.token, '/search?search=needle+finder&scope=commits')
    expect(commits.map((c) => c.title)).toEqual(['Add the public needle finder'])
    expect(commits[0]).toMatchObject({ project_id: open.id, status: null, last_pipeline: null })
    expect(await titles(ROOT_TOKEN, '/search?search=needle+finder&scope=commits')).toEqual([
      'Add the private needle finder',
      'Add the public needle finder',
    ])
  })

  it('finds wiki pages, projects, merge requests, milestones and users', async () => {
    const [page] = await found(outsider.token, `/projects/${open.id}/search?search=needle&scope=wiki_blobs`)
    expect(page).toMatchObject({ path: 'Haystack.md', data: 'Where the needle hides\n', project_id: open.id })
    expect((await found(outsider.token, '/search?search=secret&scope=projects')).map((p) => p.id)).toEqual([])
    expect((await found(ROOT_TOKEN, '/search?search=secret&scope=projects')).map((p) => p.id)).toEqual([secret.id])
    expect((await found(outsider.token, '/groups/haystack/search?search=ope&scope=projects')).map((p) => p.id)).toEqual(
      [open.id],
    )
    expect(await titles(outsider.token, '/groups/haystack/search?search=needle&scope=merge_requests')).toEqual([
      'Sharpen the needle',
    ])
    expect(await titles(outsider.token, '/search?search=needle&scope=milestones')).toEqual(['Needle milestone public'])
    expect(await titles(ROOT_TOKEN, '/search?search=needle&scope=milestones')).toEqual([
      'Needle milestone private',
      'Needle milestone public',
    ])
    const usernames = async (url: string): Promise<unknown[]> =>
      (await found(outsider.token, url)).map((u) => u.username)
    expect(await usernames('/search?search=needle_&scope=users')).toEqual(['needle_guest', 'needle_reporter'])
    expect(await usernames(`/projects/${open.id}/search?search=reporter&scope=users`)).toEqual(['needle_reporter'])
    expect(await usernames('/groups/haystack/search?search=needle&scope=users')).toEqual([])
  })

  it('finds snippets by title, description or file name instance-wide, only those the caller may read', async () => {
    await post(`/projects/${open.id}/snippets`, {
      title: 'Needle snippet public',
      file_name: 'a.rb',
      content: 'x',
      visibility: 'public',
    })
    await post(`/projects/${open.id}/snippets`, {
      title: 'Sewing kit',
      file_name: 'needle.rb',
      content: 'x',
      visibility: 'private',
    })
    await post(`/projects/${secret.id}/snippets`, {
      title: 'Vault',
      description: 'The needle of the vault',
      file_name: 'v.rb',
      content: 'x',
      visibility: 'private',
    })
    expect(await titles(outsider.token, '/search?search=needle&scope=snippet_titles')).toEqual([
      'Needle snippet public',
    ])
    expect(await titles(reporter.token, '/search?search=needle&scope=snippet_titles')).toEqual([
      'Needle snippet public',
      'Sewing kit',
    ])
    expect(await titles(ROOT_TOKEN, '/search?search=needle&scope=snippet_titles')).toEqual([
      'Needle snippet public',
      'Sewing kit',
      'Vault',
    ])
    const [first] = await found(null, '/search?search=needle&scope=snippet_titles')
    expect(first).toMatchObject({
      title: 'Needle snippet public',
      project_id: open.id,
      file_name: 'a.rb',
      web_url: expect.stringMatching(/\/haystack\/open\/-\/snippets\/\d+$/),
    })
    const paged = await get(ROOT_TOKEN, '/search?search=needle&scope=snippet_titles&per_page=2&page=2')
    expect(paged.headers['x-total']).toBe('3')
    expect((paged.json() as Json[]).map((i) => i.title)).toEqual(['Needle snippet public'])
    for (const url of [
      `/groups/haystack/search?search=needle&scope=snippet_titles`,
      `/projects/${open.id}/search?search=needle&scope=snippet_titles`,
    ]) {
      const res = await get(ROOT_TOKEN, url)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'scope does not have a valid value' })
    }
    const viaClient = await withPythonGitlab<string[]>(
      s.url,
      { private_token: reporter.token },
      `
import gitlab
out(sorted(i['title'] for i in gl.search(gitlab.const.SearchScope.GLOBAL_SNIPPET_TITLES, 'needle')))
`,
    )
    expect(viaClient).toEqual(['Needle snippet public', 'Sewing kit'])
  })

  it('python-gitlab searches the instance, a group and a project', async () => {
    const result = await withPythonGitlab<{ issues: string[]; group: string[]; blobs: string[]; notes: string[] }>(
      s.url,
      { private_token: guest.token },
      `
import gitlab
issues = sorted(i['title'] for i in gl.search(gitlab.const.SearchScope.ISSUES, 'needle'))
group = [m['title'] for m in gl.groups.get('haystack', lazy=True).search(gitlab.const.SearchScope.MERGE_REQUESTS, 'needle')]
project = gl.projects.get(${open.id}, lazy=True)
blobs = [b['path'] for b in project.search(gitlab.const.SearchScope.BLOBS, 'needle')]
notes = [n['body'] for n in project.search(gitlab.const.SearchScope.PROJECT_NOTES, 'needle', get_all=True)]
out({'issues': issues, 'group': group, 'blobs': blobs, 'notes': notes})
`,
    )
    expect(result).toEqual({
      issues: ['Closed needle public', 'Lost needle public'],
      group: ['Sharpen the needle'],
      blobs: ['src/finder.ts'],
      notes: ['Found the needle public'],
    })
  })

  it('finds nothing of a feature limited to members for an outsider, and what a member may read', async () => {
    const walled = seedProject(s, { namespaceId: group.id, path: 'walled', visibility: 'public' })
    seedMember(s, 'Project', walled.id, guest.user.id, AccessLevel.GUEST)
    await fill(walled, 'walled')
    const limit = await s.request(ROOT_TOKEN, {
      method: 'PUT',
      url: `/api/v4/projects/${walled.id}`,
      payload: {
        issues_access_level: 'private',
        repository_access_level: 'private',
        merge_requests_access_level: 'private',
        builds_access_level: 'private',
      },
    })
    expect(limit.statusCode, limit.body).toBe(200)
    const walledIssues = (items: Json[]): unknown[] =>
      items.filter((i) => i.project_id === walled.id).map((i) => i.title)
    expect(walledIssues(await found(outsider.token, '/search?search=needle&scope=issues'))).toEqual([])
    expect(walledIssues(await found(guest.token, '/search?search=needle&scope=issues')).sort()).toEqual([
      'Closed needle walled',
      'Lost needle walled',
    ])
    expect(walledIssues(await found(outsider.token, '/search?search=needle&scope=notes'))).toEqual([])
    // The code of a repository limited to members is for Reporters and up: a Guest finds none of it.
    for (const token of [outsider.token, guest.token]) {
      expect(walledIssues(await found(token, '/search?search=needle&scope=blobs'))).toEqual([])
      expect(await found(token, `/projects/${walled.id}/search?search=needle&scope=commits`)).toEqual([])
    }
    expect(await found(ROOT_TOKEN, `/projects/${walled.id}/search?search=needle&scope=commits`)).toHaveLength(1)
  })
})
