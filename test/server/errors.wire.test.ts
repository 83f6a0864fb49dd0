import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedGroup, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

// The Errors section as real clients see it: status codes and bodies through python-gitlab's
// exceptions and @gitbeaker/rest's request errors.
describe('error bodies over the wire', () => {
  let s: ListeningServer
  let user: SeededUser
  let privateProjectId = 0

  beforeAll(async () => {
    s = await startServer({ settings: { throttle_authenticated_api_requests_per_period: 0 } })
    user = seedUser(s, { username: 'plainuser' })
    const group = seedGroup(s, { path: 'hidden', visibility: 'private' })
    privateProjectId = seedProject(s, { namespaceId: group.id, path: 'secret', visibility: 'private' }).id
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab sees each error code with its GitLab body', async () => {
    const result = await withPythonGitlab<Record<string, [number, unknown]>>(
      s.url,
      { private_token: user.token },
      `
def attempt(fn):
    try:
        fn()
        return [200, None]
    except gitlab.exceptions.GitlabError as e:
        return [e.response_code, e.error_message]
admin = gitlab.Gitlab(os.environ["GL_URL"], private_token="${ROOT_TOKEN}")
out({
  "not_admin": attempt(lambda: gl.users.create({"email": "x@example.com", "name": "X", "username": "xx", "password": "secret-pass-1"})),
  "private_project": attempt(lambda: gl.projects.get(${privateProjectId})),
  "missing_param": attempt(lambda: admin.http_post("/groups", post_data={"name": "no path"})),
  "validation": attempt(lambda: admin.http_post("/users", post_data={"email": "bad", "name": "B", "username": "bad user", "password": "secret-pass-1"})),
  "conflict": attempt(lambda: admin.http_post("/users", post_data={"email": "other@example.com", "name": "P", "username": "plainuser", "password": "secret-pass-1"})),
  "sudo_not_admin": attempt(lambda: gl.http_get("/user", sudo="root")),
  "sudo_unknown": attempt(lambda: admin.http_get("/user", sudo="nobody-at-all")),
  "unknown_route": attempt(lambda: admin.http_get("/no/such/route")),
  "v3": attempt(lambda: admin.http_get(os.environ["GL_URL"] + "/api/v3/projects")),
})
`,
    )
    expect(result.not_admin).toEqual([403, '403 Forbidden'])
    expect(result.private_project).toEqual([404, '404 Project Not Found'])
    expect(result.missing_param).toEqual([400, 'path is missing'])
    expect(result.validation[0]).toBe(400)
    expect(result.validation[1]).toMatchObject({ email: expect.any(Array), username: expect.any(Array) })
    expect(result.conflict).toEqual([409, 'Username has already been taken'])
    expect(result.sudo_not_admin[0]).toBe(403)
    expect(result.sudo_unknown).toEqual([404, "404 User with ID or username 'nobody-at-all' Not Found"])
    expect(result.unknown_route).toEqual([404, '404 Not Found'])
    expect(result.v3).toEqual([404, '404 Not Found'])
  })

  it('python-gitlab gets 429 once the per-user limit is passed', async () => {
    s.app.burrow.settings.update({ throttle_authenticated_api_requests_per_period: 2 })
    try {
      const result = await withPythonGitlab<[number, string | null]>(
        s.url,
        { private_token: user.token },
        `
# Prints only when refused: without a 429 nothing is printed and the helper fails.
for i in range(3):
    try:
        gl.http_get("/user", obey_rate_limit=False)
    except gitlab.exceptions.GitlabHttpError as e:
        out([e.response_code, e.response_body.decode() if e.response_body else None])
        break
`,
      )
      expect(result[0]).toBe(429)
      expect(JSON.parse(result[1] ?? '{}')).toHaveProperty('message')
    } finally {
      s.app.burrow.settings.update({ throttle_authenticated_api_requests_per_period: 0 })
    }
  })

  it('gitbeaker reports the status and GitLab message of refused calls', async () => {
    const api = new Gitlab({ host: s.url, token: user.token })
    const failure = async (call: () => Promise<unknown>): Promise<[number | undefined, string]> => {
      try {
        await call()
        return [200, '']
      } catch (error) {
        const cause = (error as { cause?: { response?: Response; description?: string } }).cause
        return [cause?.response?.status, String(cause?.description ?? '')]
      }
    }
    expect(await failure(() => api.Projects.show(privateProjectId))).toEqual([404, '404 Project Not Found'])
    expect(
      await failure(() =>
        api.Users.create({ email: 'y@example.com', name: 'Y', username: 'yy', password: 'secret-pass-1' }),
      ),
    ).toEqual([403, '403 Forbidden'])
    const anonymous = new Gitlab({ host: s.url, token: 'not-a-token' })
    expect(await failure(() => anonymous.Users.showCurrentUser())).toEqual([401, '401 Unauthorized'])
  })
})
