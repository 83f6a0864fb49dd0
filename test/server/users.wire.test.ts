import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer } from '../helpers/server'
import { withPythonGitlab } from '../helpers/python-gitlab'

describe('users and tokens over the wire', () => {
  let s: ListeningServer

  beforeAll(async () => {
    s = await startServer()
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab creates, lists, gets, updates, blocks, unblocks and deletes a user', async () => {
    const result = await withPythonGitlab<Record<string, unknown>>(
      s.url,
      { private_token: ROOT_TOKEN },
      `
u = gl.users.create({'email': 'py@example.com', 'username': 'pyuser', 'name': 'Py User', 'password': 'py-secret-123', 'skip_confirmation': True})
listed = [x.username for x in gl.users.list(search='pyuser')]
got = gl.users.get(u.id)
got.bio = 'from python'
got.save()
after_save = gl.users.get(u.id).bio
blocked = u.block()
state_blocked = gl.users.get(u.id).state
unblocked = u.unblock()
state_active = gl.users.get(u.id).state
u.delete()
try:
    gl.users.get(u.id)
    gone = False
except gitlab.exceptions.GitlabGetError as e:
    gone = e.response_code == 404
out({'id': u.id, 'listed': listed, 'bio': after_save, 'blocked': blocked, 'state_blocked': state_blocked,
     'unblocked': unblocked, 'state_active': state_active, 'gone': gone})
`,
    )
    expect(result).toMatchObject({
      listed: ['pyuser'],
      bio: 'from python',
      blocked: true,
      state_blocked: 'blocked',
      unblocked: true,
      state_active: 'active',
      gone: true,
    })
  })

  it('python-gitlab uploads a user avatar that the avatar_url then serves', async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
    const result = await withPythonGitlab<{ url: string; same: boolean }>(
      s.url,
      { private_token: ROOT_TOKEN },
      `
import base64, io, urllib.request
data = base64.b64decode("${png}")
u = gl.users.create({'email': 'pyav@example.com', 'username': 'pyav', 'name': 'Py Av', 'password': 'py-secret-123', 'avatar': io.BytesIO(data)})
served = urllib.request.urlopen(u.avatar_url).read()
out({'url': u.avatar_url, 'same': served == data})
`,
    )
    expect(result.url).toMatch(/\/uploads\/-\/system\/user\/avatar\/\d+\/[A-Za-z0-9._-]+$/)
    expect(result.same).toBe(true)
  })

  it('python-gitlab gets a 409 for a duplicate username', async () => {
    seedUser(s, { username: 'taken_py' })
    const code = await withPythonGitlab<number>(
      s.url,
      { private_token: ROOT_TOKEN },
      `
try:
    gl.users.create({'email': 'other-py@example.com', 'username': 'TAKEN_PY', 'name': 'X', 'password': 'py-secret-123'})
    out(0)
except gitlab.exceptions.GitlabCreateError as e:
    out(e.response_code)
`,
    )
    expect(code).toBe(409)
  })

  it('python-gitlab manages personal and impersonation tokens', async () => {
    const u = seedUser(s)
    const result = await withPythonGitlab<Record<string, unknown>>(
      s.url,
      { private_token: ROOT_TOKEN },
      `
user = gl.users.get(${u.user.id})
pat = user.personal_access_tokens.create({'name': 'py-pat', 'scopes': ['api']})
imp = user.impersonationtokens.create({'name': 'py-imp', 'scopes': ['read_user']})
imp_list = [t.name for t in user.impersonationtokens.list(state='active')]
pats = [t.name for t in gl.personal_access_tokens.list(user_id=${u.user.id})]
user_gl = gitlab.Gitlab(os.environ['GL_URL'], private_token=pat.token)
user_gl.auth()
me = user_gl.user.username
self_token = user_gl.http_get('/personal_access_tokens/self')['name']
gl.personal_access_tokens.delete(pat.id)
try:
    user_gl.auth()
    revoked_ok = False
except gitlab.exceptions.GitlabAuthenticationError:
    revoked_ok = True
out({'imp_list': imp_list, 'pats': pats, 'me': me, 'self_token': self_token, 'revoked_ok': revoked_ok, 'imp_token': bool(imp.token)})
`,
    )
    expect(result).toMatchObject({
      imp_list: ['py-imp'],
      me: u.user.username,
      self_token: 'py-pat',
      revoked_ok: true,
      imp_token: true,
    })
    expect(result.pats).toContain('py-pat')
  })

  it('gitbeaker creates, lists, shows, edits, blocks, unblocks and removes a user', async () => {
    const api = new Gitlab({ host: s.url, token: ROOT_TOKEN })
    const created = await api.Users.create({
      email: 'gb@example.com',
      username: 'gbuser',
      name: 'GB User',
      password: 'gb-secret-123',
    })
    expect(created.username).toBe('gbuser')
    const listed = await api.Users.all({ search: 'gbuser' })
    expect(listed.map((u) => u.id)).toEqual([created.id])
    const shown = await api.Users.show(created.id)
    expect(shown.email).toBe('gb@example.com')
    const edited = await api.Users.edit(created.id, { bio: 'from gitbeaker' })
    expect(edited.bio).toBe('from gitbeaker')
    await api.Users.block(created.id)
    expect((await api.Users.show(created.id)).state).toBe('blocked')
    await api.Users.unblock(created.id)
    expect((await api.Users.show(created.id)).state).toBe('active')
    await api.Users.remove(created.id)
    await expect(api.Users.show(created.id)).rejects.toThrow()
  })

  it('gitbeaker pages through all users following Link headers', async () => {
    for (let i = 0; i < 5; i += 1) seedUser(s)
    const api = new Gitlab({ host: s.url, token: ROOT_TOKEN })
    const all = await api.Users.all({ perPage: 2, maxPages: 100 })
    const total = (s.app.burrow.db.prepare('SELECT COUNT(*) AS n FROM users').get() as { n: number }).n
    expect(all).toHaveLength(total)
  })

  it('gitbeaker manages personal access tokens for a user', async () => {
    const u = seedUser(s)
    const api = new Gitlab({ host: s.url, token: ROOT_TOKEN })
    const created = await api.PersonalAccessTokens.create(u.user.id, 'gb-pat', ['read_api'])
    expect(created.token).toBeTruthy()
    const asUser = new Gitlab({ host: s.url, token: created.token as string })
    expect((await asUser.Users.showCurrentUser()).id).toBe(u.user.id)
    const mine = await asUser.PersonalAccessTokens.all()
    expect(mine.map((t) => t.name)).toContain('gb-pat')
    await api.PersonalAccessTokens.remove({ tokenId: created.id as number })
    await expect(asUser.Users.showCurrentUser()).rejects.toThrow()
  })
})
