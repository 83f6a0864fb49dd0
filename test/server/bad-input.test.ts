import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commitFiles, makeWorkRepo, remoteUrl, sh } from '../helpers/git'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

// "Bad input never gives a 500": malformed ids, parameters of the wrong type, unknown enum values,
// dates that are not dates and refs that look like options, sent to the endpoints of the server
// core and the repository API. Each answer must be a 4xx with a GitLab-style JSON body, or a 2xx
// where GitLab ignores the parameter.

const BAD_IDS = ['abc', '-1', '0', '99999999999999999999', '1.5', '%00', '..%2F..%2Fetc', 'a%2Fb%2Fc%2Fd']

const BAD_QUERIES = [
  'page=-1',
  'page=abc',
  'per_page=0',
  'per_page=1000000000000',
  'sort=sideways',
  'order_by=nothing',
  'created_after=notadate',
  'created_before=2020-13-45',
  'before=yesterday',
  'after=2020-02-30x',
  'action=exploded',
  'target_type=alien',
  'search[]=a&search[]=b',
  'search[x]=y',
  'ref=--upload-pack=touch%20%2Ftmp%2Fpwned',
  'ref=-x',
  'path=..%2F..%2Fetc%2Fpasswd',
  'from=--output=%2Ftmp%2Fx',
  'to=%24(id)',
  'sha=zz',
  'recursive=maybe',
  'user_ids=one',
  'user_ids[]=x',
  'id_after=abc',
  'visibility=secret',
  'min_access_level=7',
  'entity_type=Alien',
  'entity_id=abc',
  'refs[]=--all',
  'straight=perhaps',
  'pagination=keyset&order_by=name',
  'format=exe',
  'two_factor=sometimes',
  'custom_attributes=x',
]

/** The parameters the repository endpoints read; the others cannot reach git there. */
const REPOSITORY_QUERY =
  /^(page|per_page|sort|order_by|ref|path|from|to|sha|recursive|refs|straight|pagination|format|search)/

const BAD_BODIES: readonly unknown[] = [
  { name: { nested: true } },
  { name: ['a', 'b'] },
  { access_level: 'high' },
  { access_level: 999 },
  { user_id: [1, 2] },
  { user_id: 'me' },
  { email: 123, name: 'x', username: 'y', password: 'z' },
  { visibility: 'secret' },
  { expires_at: 'soon' },
  { path: '../../x' },
  { branch: '-delete', ref: 'main' },
  { branch: 'ok', ref: '--orphan' },
  { scopes: 'api' },
  { scopes: ['root'] },
  { content: 1, commit_message: 2, branch: 3 },
]

describe('bad input never gives a 500', () => {
  let s: ListeningServer
  let user: SeededUser
  let projectId = 0
  let groupId = 0
  const sha = 'a'.repeat(40)

  beforeAll(async () => {
    s = await startServer()
    user = seedUser(s, { username: 'fuzzer' })
    const group = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: '/api/v4/groups',
      payload: { name: 'fuzz', path: 'fuzz', visibility: 'public' },
    })
    expect(group.statusCode).toBe(201)
    groupId = group.json().id
    const project = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: '/api/v4/projects',
      payload: { name: 'target', namespace_id: String(groupId), visibility: 'public' },
    })
    expect(project.json()).toMatchObject({ path_with_namespace: 'fuzz/target' })
    projectId = project.json().id
    const work = makeWorkRepo()
    commitFiles(work, { 'README.md': '# fuzz\n', 'src/a.txt': 'a\n' }, 'Initial')
    await sh(work, 'push', '--quiet', remoteUrl(s.url, 'fuzz/target', ROOT_TOKEN), 'main')
  })
  afterAll(async () => {
    await s.close()
  })

  /** Every answer below 500; error answers are JSON with `message` or `error`. */
  function expectClean(
    label: string,
    res: { statusCode: number; body: string; headers: Record<string, unknown> },
  ): void {
    expect([label, res.statusCode < 500 ? 'ok' : `${res.statusCode} ${res.body.slice(0, 200)}`]).toEqual([label, 'ok'])
    if (res.statusCode >= 400 && String(res.headers['content-type'] ?? '').startsWith('application/json')) {
      const body = JSON.parse(res.body) as Record<string, unknown>
      expect([label, 'message' in body || 'error' in body]).toEqual([label, true])
    }
  }

  const readPaths = (): string[] => {
    const p = `/projects/${projectId}`
    const g = `/groups/${groupId}`
    return [
      '/users',
      '/user',
      '/projects',
      '/groups',
      '/namespaces',
      '/events',
      '/audit_events',
      '/personal_access_tokens',
      `/users/${user.user.id}`,
      `/users/${user.user.id}/events`,
      `/users/${user.user.id}/projects`,
      `/users/${user.user.id}/memberships`,
      p,
      `${p}/members`,
      `${p}/members/all`,
      `${p}/members/${user.user.id}`,
      `${p}/access_requests`,
      `${p}/events`,
      `${p}/audit_events`,
      `${p}/access_tokens`,
      `${p}/repository/tree`,
      `${p}/repository/blobs/${sha}`,
      `${p}/repository/blobs/${sha}/raw`,
      `${p}/repository/archive`,
      `${p}/repository/archive.zip`,
      `${p}/repository/compare`,
      `${p}/repository/contributors`,
      `${p}/repository/merge_base`,
      `${p}/repository/branches`,
      `${p}/repository/branches/main`,
      `${p}/repository/commits`,
      `${p}/repository/commits/main`,
      `${p}/repository/commits/main/diff`,
      `${p}/repository/commits/main/refs`,
      `${p}/repository/tags`,
      `${p}/repository/files/README.md`,
      `${p}/repository/files/README.md/raw`,
      `${p}/protected_branches`,
      `${p}/repository/changelog`,
      g,
      `${g}/members`,
      `${g}/members/all`,
      `${g}/subgroups`,
      `${g}/descendant_groups`,
      `${g}/projects`,
      `${g}/billable_members`,
      `${g}/access_requests`,
      `${g}/audit_events`,
    ]
  }

  it('answers every list and read endpoint with malformed query parameters without a 500', async () => {
    for (const path of readPaths()) {
      for (const query of BAD_QUERIES) {
        // Every path as an administrator; as a member and anonymously where no git runs (the
        // repository paths' access checks come before their parameters, so this keeps it quick).
        const repository = path.includes('/repository/')
        if (repository && !REPOSITORY_QUERY.test(query)) continue
        const tokens = repository ? [ROOT_TOKEN] : [ROOT_TOKEN, user.token, null]
        for (const token of tokens) {
          const res = await s.request(token, { method: 'GET', url: `/api/v4${path}?${query}` })
          expectClean(
            `GET ${path}?${query} as ${token === null ? 'anonymous' : token === ROOT_TOKEN ? 'root' : 'user'}`,
            res,
          )
        }
      }
    }
  }, 240_000)

  it('answers a page beyond exact integers with 400 on offset-paginated lists, SQL and git alike', async () => {
    const p = `/projects/${projectId}`
    const g = `/groups/${groupId}`
    const lists = [
      '/projects',
      '/users',
      '/groups',
      '/events',
      `/users/${user.user.id}/projects`,
      `${p}/members`,
      `${p}/events`,
      `${p}/repository/tree`,
      `${p}/repository/commits`,
      `${p}/repository/branches`,
      `${p}/repository/tags`,
      `${p}/repository/contributors`,
      `${p}/repository/commits/main/diff`,
      `${p}/issues`,
      `${p}/merge_requests`,
      `${p}/labels`,
      `${p}/milestones`,
      `${g}/projects`,
      `${g}/subgroups`,
      `${g}/members`,
    ]
    for (const path of lists) {
      for (const page of ['1e20', '99999999999999999999', String(2 ** 64)]) {
        const res = await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4${path}?page=${page}` })
        expect([path, page, res.statusCode, res.json()]).toEqual([path, page, 400, { error: 'page is invalid' }])
      }
    }
  })

  it('refuses names and texts with a NUL byte with a 400 and writes nothing', async () => {
    const p = `/api/v4/projects/${projectId}/repository`
    const post = (path: string, payload: Record<string, unknown>) =>
      s.request(ROOT_TOKEN, { method: 'POST', url: `${p}${path}`, payload })
    const head = async (): Promise<string> =>
      (await s.request(ROOT_TOKEN, { method: 'GET', url: `${p}/branches/main` })).json().commit.id
    const before = await head()
    expect((await post('/tags', { tag_name: 'v\u00001', ref: 'main' })).json()).toEqual({ message: 'Tag name invalid' })
    expect((await post('/tags', { tag_name: 'v-nul', ref: 'main', message: 'cut\u0000here' })).json()).toEqual({
      error: 'message is invalid',
    })
    expect((await s.request(ROOT_TOKEN, { method: 'GET', url: `${p}/tags/v-nul` })).statusCode).toBe(404)
    expect((await post('/branches', { branch: 'b\u0000x', ref: 'main' })).json()).toEqual({
      message: 'Branch name is invalid',
    })
    const action = [{ action: 'create', file_path: 'nul.txt', content: 'x' }]
    for (const [field, value, error] of [
      ['commit_message', 'm\u0000x', 'commit_message is invalid'],
      ['author_name', 'a\u0000b', 'author_name is invalid'],
      ['author_name', ' <.> ', 'author_name is invalid'],
      ['author_email', 'a\u0000@b', 'author_email is invalid'],
      ['branch', 'ma\u0000in', 'branch is invalid'],
    ]) {
      const res = await post('/commits', { branch: 'main', commit_message: 'm', actions: action, [field]: value })
      expect([field, res.statusCode, res.json()]).toEqual([field, 400, { error }])
    }
    expect(await head()).toBe(before)
    for (const query of [
      'commits?ref_name=a%00b',
      'tree?ref=a%00b',
      'compare?from=a%00b&to=main',
      'files/README.md?ref=a%00b',
      'merge_base?refs[]=a%00b&refs[]=main',
    ]) {
      const res = await s.request(ROOT_TOKEN, { method: 'GET', url: `${p}/${query}` })
      expect([query, res.statusCode]).toEqual([query, 400])
    }
  })

  it('refuses parameters nested deeper than Rack allows (32) in a query, a form and a multipart body', async () => {
    const key = (depth: number): string => `a${'[b]'.repeat(depth - 1)}`
    const deep = `${key(33)}=1`
    const query = await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/projects?${deep}` })
    expect([query.statusCode, query.json()]).toEqual([400, { error: 'a is nested too deeply' }])
    const form = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: '/api/v4/groups',
      payload: `name=deep&path=deep&${deep}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect([form.statusCode, form.json()]).toEqual([400, { error: 'a is nested too deeply' }])
    const multipart = `--x\r\nContent-Disposition: form-data; name="${key(33)}"\r\n\r\n1\r\n--x--\r\n`
    const parts = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: '/api/v4/groups',
      payload: multipart,
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    })
    expect([parts.statusCode, parts.json()]).toEqual([400, { error: 'a is nested too deeply' }])
    expect((await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/groups/deep' })).statusCode).toBe(404)
    expect((await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/projects?${key(32)}=1` })).statusCode).toBe(200)
  })

  it('answers a hash where a route reading its own parameters expects text or a number with a 400', async () => {
    const p = `/api/v4/projects/${projectId}`
    const issue = (
      await s.request(ROOT_TOKEN, { method: 'POST', url: `${p}/issues`, payload: { title: 'shapes' } })
    ).json()
    const label = (
      await s.request(ROOT_TOKEN, { method: 'POST', url: `${p}/labels`, payload: { name: 'shapes', color: '#123456' } })
    ).json()
    const form = { 'content-type': 'application/x-www-form-urlencoded' }
    const cases: [string, string, string, unknown][] = [
      ['GET', `${p}/issues?state[a]=b`, '', { error: 'state is invalid' }],
      ['GET', `${p}/issues?milestone_id[a]=b`, '', { error: 'milestone_id is invalid' }],
      ['GET', `${p}/issues?not[author_id][a]=b`, '', { error: 'not[author_id] is invalid' }],
      ['GET', `/api/v4/groups/${groupId}/epics?search[toString]=x`, '', { error: 'search is invalid' }],
      ['GET', `/api/v4/projects?page[a]=b`, '', { error: 'page is invalid' }],
      ['POST', `${p}/issues/${issue.iid}/award_emoji`, 'name[a]=b', { error: 'name is invalid' }],
      ['POST', `${p}/issues/${issue.iid}/time_estimate`, 'duration[a]=b', { error: 'duration is invalid' }],
      ['PUT', `${p}/issues/${issue.iid}`, 'milestone_id[a]=b', { error: 'milestone_id is invalid' }],
      ['PUT', `${p}/issues/${issue.iid}`, 'due_date[a]=b', { error: 'due_date is invalid' }],
      [
        'PUT',
        `${p}/labels/${label.id}`,
        'priority[a]=b',
        { message: { priority: ['must be greater than or equal to 0'] } },
      ],
      [
        'POST',
        `/api/v4/users/${user.user.id}/personal_access_tokens`,
        'name=t&scopes[a]=b',
        { error: 'scopes is invalid' },
      ],
    ]
    for (const [method, url, payload, body] of cases) {
      const res = await s.request(ROOT_TOKEN, {
        method: method as 'GET',
        url,
        ...(payload ? { payload, headers: form } : {}),
      })
      expect([method, url, payload, res.statusCode, res.json()]).toEqual([method, url, payload, 400, body])
    }
    const branch = await s.request(ROOT_TOKEN, { method: 'DELETE', url: `${p}/repository/branches/%2Fetc%2Fpasswd` })
    expect([branch.statusCode, branch.json()]).toEqual([404, { message: '404 Branch Not Found' }])
  })

  it('answers malformed ids in every position without a 500', async () => {
    const templates = [
      '/users/:id',
      '/users/:id/events',
      '/users/:id/projects',
      '/users/:id/personal_access_tokens',
      '/projects/:id',
      '/projects/:id/members',
      '/projects/:id/members/:id',
      '/projects/:id/members/all/:id',
      '/projects/:id/events',
      '/projects/:id/audit_events/:id',
      '/projects/:id/repository/tree',
      '/projects/:id/repository/blobs/:id',
      '/projects/:id/repository/branches/:id',
      '/projects/:id/repository/commits/:id',
      '/projects/:id/repository/tags/:id',
      '/projects/:id/repository/files/:id',
      '/projects/:id/protected_branches/:id',
      '/projects/:id/access_tokens/:id',
      '/groups/:id',
      '/groups/:id/members/:id',
      '/groups/:id/billable_members/:id/memberships',
      '/groups/:id/audit_events/:id',
      '/audit_events/:id',
      '/personal_access_tokens/:id',
    ]
    for (const template of templates) {
      for (const id of BAD_IDS) {
        const url = `/api/v4${template.replaceAll(':id', id)}`
        expectClean(`GET ${url}`, await s.request(ROOT_TOKEN, { method: 'GET', url }))
        expectClean(`DELETE ${url}`, await s.request(ROOT_TOKEN, { method: 'DELETE', url }))
      }
    }
  }, 240_000)

  it('answers writes with bodies of the wrong shape without a 500', async () => {
    const p = `/projects/${projectId}`
    const g = `/groups/${groupId}`
    const writes: [string, string][] = [
      ['POST', '/users'],
      ['PUT', `/users/${user.user.id}`],
      ['POST', '/projects'],
      ['PUT', p],
      ['POST', '/groups'],
      ['PUT', g],
      ['POST', `${p}/members`],
      ['PUT', `${p}/members/${user.user.id}`],
      ['POST', `${g}/members`],
      ['POST', `${p}/access_requests`],
      ['PUT', `${p}/access_requests/${user.user.id}/approve`],
      ['POST', `/users/${user.user.id}/personal_access_tokens`],
      ['POST', `/users/${user.user.id}/impersonation_tokens`],
      ['POST', `${p}/access_tokens`],
      ['POST', `${p}/repository/branches`],
      ['POST', `${p}/repository/tags`],
      ['POST', `${p}/protected_branches`],
      ['POST', `${p}/repository/files/new.txt`],
      ['PUT', `${p}/repository/files/README.md`],
      ['POST', `${p}/repository/changelog`],
      ['POST', `${p}/repository/commits`],
      ['POST', '/oauth/token'],
    ]
    for (const [method, path] of writes) {
      const url = path.startsWith('/oauth') ? path : `/api/v4${path}`
      for (const body of BAD_BODIES) {
        const res = await s.request(ROOT_TOKEN, {
          method: method as 'POST',
          url,
          payload: body as Record<string, unknown>,
        })
        expectClean(`${method} ${path} ${JSON.stringify(body)}`, res)
      }
      const broken = await s.request(ROOT_TOKEN, {
        method: method as 'POST',
        url,
        payload: '{"name": ',
        headers: { 'content-type': 'application/json' },
      })
      expectClean(`${method} ${path} with broken JSON`, broken)
      const text = await s.request(ROOT_TOKEN, {
        method: method as 'POST',
        url,
        payload: 'name=x',
        headers: { 'content-type': 'text/plain' },
      })
      expectClean(`${method} ${path} as text/plain`, text)
    }
  }, 240_000)

  it('answers sudo and tokens of odd shapes without a 500', async () => {
    for (const sudo of ['', ' ', '0', '-1', '99999999999999999999', 'no such user', '%', 'ROOT']) {
      expectClean(
        `sudo ${sudo}`,
        await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/user', headers: { sudo } }),
      )
    }
    for (const header of [
      { 'private-token': '' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer ' },
      { authorization: 'Basic xyz' },
      { 'private-token': 'x'.repeat(10_000) },
    ]) {
      expectClean(
        `auth ${JSON.stringify(header).slice(0, 40)}`,
        await s.request(null, { method: 'GET', url: '/api/v4/user', headers: header }),
      )
    }
  })
})
