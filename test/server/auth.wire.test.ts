import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { seedProject } from '../helpers/fixtures'

describe('authentication over the wire', () => {
  let s: ListeningServer
  let alice: SeededUser

  beforeAll(async () => {
    s = await startServer()
    alice = seedUser(s, { username: 'alice_wire' })
  })
  afterAll(async () => {
    await s.close()
  })

  async function passwordGrant(): Promise<string> {
    const res = await fetch(`${s.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', username: 'alice_wire', password: alice.password }),
    })
    expect(res.status).toBe(200)
    return ((await res.json()) as { access_token: string }).access_token
  }

  it('python-gitlab authenticates with a private token', async () => {
    const username = await withPythonGitlab<string>(
      s.url,
      { private_token: alice.token },
      'gl.auth()\nout(gl.user.username)',
    )
    expect(username).toBe('alice_wire')
  })

  it('python-gitlab authenticates with an OAuth token from the password grant', async () => {
    const token = await passwordGrant()
    const username = await withPythonGitlab<string>(s.url, { oauth_token: token }, 'gl.auth()\nout(gl.user.username)')
    expect(username).toBe('alice_wire')
  })

  it('python-gitlab runs calls as another user with sudo', async () => {
    const result = await withPythonGitlab<Record<string, unknown>>(
      s.url,
      { private_token: ROOT_TOKEN },
      `
via_kwarg = gl.users.list(sudo='alice_wire', username='alice_wire')[0].username
gl.headers['Sudo'] = 'ALICE_WIRE'
gl.auth()
me = gl.user.username
out({'via_kwarg': via_kwarg, 'me': me})
`,
    )
    expect(result).toEqual({ via_kwarg: 'alice_wire', me: 'alice_wire' })
  })

  it('python-gitlab reports 401 for a bad token', async () => {
    const code = await withPythonGitlab<number>(
      s.url,
      { private_token: 'glpat-nope' },
      `
try:
    gl.auth()
    out(0)
except gitlab.exceptions.GitlabAuthenticationError as e:
    out(e.response_code)
`,
    )
    expect(code).toBe(401)
  })

  it('gitbeaker authenticates with a token', async () => {
    const api = new Gitlab({ host: s.url, token: alice.token })
    expect((await api.Users.showCurrentUser()).username).toBe('alice_wire')
  })

  it('gitbeaker authenticates with an OAuth token', async () => {
    const api = new Gitlab({ host: s.url, oauthToken: await passwordGrant() })
    expect((await api.Users.showCurrentUser()).username).toBe('alice_wire')
  })

  it('gitbeaker runs calls as another user with the sudo option', async () => {
    const api = new Gitlab({ host: s.url, token: ROOT_TOKEN, sudo: 'alice_wire' })
    expect((await api.Users.showCurrentUser()).username).toBe('alice_wire')
  })

  it('gitbeaker authenticates with an impersonation token', async () => {
    const admin = new Gitlab({ host: s.url, token: ROOT_TOKEN })
    const imp = await admin.UserImpersonationTokens.create(alice.user.id, 'gb-imp', ['api'])
    const api = new Gitlab({ host: s.url, token: imp.token as string })
    expect((await api.Users.showCurrentUser()).username).toBe('alice_wire')
  })

  it('gitbeaker authenticates with a project access token', async () => {
    const api = new Gitlab({ host: s.url, token: alice.token })
    const project = seedProject(s, { ownerId: alice.user.id })
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)
    const created = await api.ProjectAccessTokens.create(project.id, 'gb-bot', ['read_api'], expiresAt)
    const bot = new Gitlab({ host: s.url, token: created.token as string })
    expect((await bot.Users.showCurrentUser()).username).toMatch(/^project_\d+_bot_/)
  })
})
