import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedGroup, seedMember } from '../helpers/fixtures'
import { commitFiles, remoteUrl, sh, shFails } from '../helpers/git'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

describe('protected branches', () => {
  let s: ListeningServer
  let dev: SeededUser
  let maintainer: SeededUser
  let projectId: number
  let devWork: string
  let maintainerWork: string
  const api = (path: string): string => `/api/v4/projects/${projectId}/protected_branches${path}`

  async function clone(token: string): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'burrow-protected-'))
    await sh(dir, 'clone', '--quiet', remoteUrl(s.url, 'shop/cart', token), 'w')
    return join(dir, 'w')
  }

  beforeAll(async () => {
    s = await startServer()
    dev = seedUser(s)
    maintainer = seedUser(s)
    const group = seedGroup(s, { path: 'shop', visibility: 'private' })
    seedMember(s, 'Namespace', group.id, maintainer.user.id, AccessLevel.MAINTAINER)
    const created = await s.request(maintainer.token, {
      method: 'POST',
      url: '/api/v4/projects',
      payload: { name: 'cart', namespace_id: group.id, initialize_with_readme: true },
    })
    projectId = created.json().id
    seedMember(s, 'Project', projectId, dev.user.id, AccessLevel.DEVELOPER)
    devWork = await clone(dev.token)
    maintainerWork = await clone(maintainer.token)
  })
  afterAll(async () => {
    await s.close()
  })

  it('protects the default branch of a new project for Maintainers', async () => {
    const res = await s.request(dev.token, { method: 'GET', url: api('') })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual([
      {
        id: expect.any(Number),
        name: 'main',
        push_access_levels: [
          {
            id: expect.any(Number),
            access_level: 40,
            access_level_description: 'Maintainers',
            deploy_key_id: null,
            user_id: null,
            group_id: null,
          },
        ],
        merge_access_levels: [
          {
            id: expect.any(Number),
            access_level: 40,
            access_level_description: 'Maintainers',
            user_id: null,
            group_id: null,
          },
        ],
        unprotect_access_levels: [],
        allow_force_push: false,
        code_owner_approval_required: false,
        inherited: false,
      },
    ])
  })

  it('refuses a Developer push to a protected branch with GitLab message visible to git', async () => {
    commitFiles(devWork, { 'dev.txt': 'dev\n' }, 'Developer change')
    const stderr = await shFails(devWork, 'push', 'origin', 'main')
    expect(stderr).toContain('You are not allowed to push code to protected branches on this project.')
  })

  it('lets a Maintainer push to the protected default branch', async () => {
    commitFiles(maintainerWork, { 'm.txt': 'm\n' }, 'Maintainer change')
    await sh(maintainerWork, 'push', '--quiet', 'origin', 'main')
    expect(await sh(maintainerWork, 'ls-remote', 'origin', 'refs/heads/main')).toContain(
      await sh(maintainerWork, 'rev-parse', 'HEAD'),
    )
  })

  it('refuses a Maintainer force push to a protected branch', async () => {
    await sh(maintainerWork, 'reset', '--quiet', '--hard', 'HEAD~1')
    commitFiles(maintainerWork, { 'rewrite.txt': 'x\n' }, 'Rewritten history')
    const stderr = await shFails(maintainerWork, 'push', '--force', 'origin', 'main')
    expect(stderr).toContain('You are not allowed to force push code to a protected branch on this project.')
  })

  it('accepts the force push once allow_force_push is set', async () => {
    const patched = await s.request(maintainer.token, {
      method: 'PATCH',
      url: api('/main'),
      payload: { allow_force_push: true },
    })
    expect(patched.statusCode).toBe(200)
    expect(patched.json().allow_force_push).toBe(true)
    await sh(maintainerWork, 'push', '--quiet', '--force', 'origin', 'main')
  })

  it('refuses deleting a protected branch with git push', async () => {
    await sh(maintainerWork, 'push', '--quiet', 'origin', 'main:release/1')
    const created = await s.request(maintainer.token, {
      method: 'POST',
      url: api(''),
      payload: { name: 'release/*', push_access_level: 30, merge_access_level: 40 },
    })
    expect(created.statusCode).toBe(201)
    const stderr = await shFails(maintainerWork, 'push', 'origin', ':release/1')
    expect(stderr).toContain('You can only delete protected branches using the web interface.')
  })

  it('lets a Developer push to a wildcard rule that allows Developers', async () => {
    await sh(devWork, 'fetch', '--quiet', 'origin')
    await sh(devWork, 'checkout', '--quiet', '-b', 'rel', 'origin/release/1')
    commitFiles(devWork, { 'rel.txt': 'r\n' }, 'Release fix')
    await sh(devWork, 'push', '--quiet', 'origin', 'rel:release/1')
    const branch = await s.request(dev.token, {
      method: 'GET',
      url: `/api/v4/projects/${projectId}/repository/branches/release%2F1`,
    })
    expect(branch.json()).toMatchObject({
      protected: true,
      developers_can_push: true,
      developers_can_merge: false,
      can_push: true,
    })
  })

  it('answers 409 for an existing rule and shows and deletes a rule by URL-encoded name', async () => {
    const again = await s.request(maintainer.token, { method: 'POST', url: api(''), payload: { name: 'release/*' } })
    expect([again.statusCode, again.json()]).toEqual([409, { message: "Protected branch 'release/*' already exists" }])
    const one = await s.request(dev.token, { method: 'GET', url: api('/release%2F*') })
    expect(one.json()).toMatchObject({
      name: 'release/*',
      push_access_levels: [{ access_level: 30, access_level_description: 'Developers + Maintainers' }],
    })
    expect((await s.request(maintainer.token, { method: 'DELETE', url: api('/release%2F*') })).statusCode).toBe(204)
    expect((await s.request(maintainer.token, { method: 'GET', url: api('/release%2F*') })).statusCode).toBe(404)
  })

  it('needs Maintainer to protect a branch and validates access levels', async () => {
    expect((await s.request(dev.token, { method: 'POST', url: api(''), payload: { name: 'x' } })).statusCode).toBe(403)
    const bad = await s.request(maintainer.token, {
      method: 'POST',
      url: api(''),
      payload: { name: 'x', push_access_level: 35 },
    })
    expect([bad.statusCode, bad.json()]).toEqual([400, { error: 'push_access_level does not have a valid value' }])
  })

  it('grants push to a listed user through allowed_to_push', async () => {
    const res = await s.request(maintainer.token, {
      method: 'POST',
      url: api(''),
      payload: { name: 'hotfix', push_access_level: 0, allowed_to_push: [{ user_id: dev.user.id }] },
    })
    expect(res.statusCode).toBe(201)
    expect(res.json().push_access_levels).toEqual([
      expect.objectContaining({ access_level: 0, access_level_description: 'No one' }),
      expect.objectContaining({ user_id: dev.user.id, access_level_description: dev.user.name }),
    ])
    await sh(devWork, 'push', '--quiet', 'origin', 'rel:hotfix')
  })
})
