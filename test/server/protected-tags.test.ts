import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { remoteUrl, sh, shFails } from '../helpers/git'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, unknown>

describe('protected tags', () => {
  let s: ListeningServer
  let project: ProjectRow
  let developer: SeededUser
  let maintainer: SeededUser

  const call = (token: string | null, method: string, url: string, payload?: Json) =>
    s.request(token, {
      method: method as 'GET',
      url: `/api/v4/projects/${project.id}${url}`,
      ...(payload ? { payload } : {}),
    })
  const tagNames = async (): Promise<string[]> =>
    ((await call(ROOT_TOKEN, 'GET', '/repository/tags')).json() as Json[]).map((t) => String(t.name)).sort()
  const clone = async (token: string): Promise<string> => {
    const dir = mkdtempSync(join(tmpdir(), 'burrow-tags-'))
    await sh(dir, 'clone', '--quiet', remoteUrl(s.url, 'tagged/app', token), 'app')
    return join(dir, 'app')
  }

  beforeAll(async () => {
    s = await startServer()
    const group = seedGroup(s, { path: 'tagged', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'private' })
    developer = seedUser(s)
    maintainer = seedUser(s)
    seedMember(s, 'Project', project.id, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, maintainer.user.id, AccessLevel.MAINTAINER)
    const commit = await call(ROOT_TOKEN, 'POST', '/repository/commits', {
      branch: 'main',
      commit_message: 'Initial commit',
      actions: [{ action: 'create', file_path: 'README.md', content: '# App\n' }],
    })
    expect(commit.statusCode, commit.body).toBe(201)
  })
  afterAll(async () => {
    await s.close()
  })

  it('protects a wildcard for Maintainers by default, and an exact name for Developers', async () => {
    const res = await call(maintainer.token, 'POST', '/protected_tags', { name: 'v*' })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toEqual({
      name: 'v*',
      create_access_levels: [
        {
          id: expect.any(Number),
          access_level: 40,
          access_level_description: 'Maintainers',
          user_id: null,
          group_id: null,
          deploy_key_id: null,
        },
      ],
    })
    const exact = await call(maintainer.token, 'POST', '/protected_tags', { name: 'nightly', create_access_level: 30 })
    expect(exact.json()).toMatchObject({ create_access_levels: [{ access_level: 30 }] })
    expect(((await call(maintainer.token, 'GET', '/protected_tags')).json() as Json[]).map((t) => t.name)).toEqual([
      'nightly',
      'v*',
    ])
    expect((await call(maintainer.token, 'GET', `/protected_tags/${encodeURIComponent('v*')}`)).json()).toMatchObject({
      name: 'v*',
    })
  })

  it('refuses a second protection of a name, a role GitLab does not offer, and non-Maintainers', async () => {
    // GitLab's model validations, rendered as their full messages.
    const again = await call(maintainer.token, 'POST', '/protected_tags', { name: 'v*' })
    expect([again.statusCode, again.json()]).toEqual([422, { message: ['Name has already been taken'] }])
    const blank = await call(maintainer.token, 'POST', '/protected_tags', { name: ' ' })
    expect([blank.statusCode, blank.json()]).toEqual([422, { message: ["Name can't be blank"] }])
    // Its params refuse a role outside no one, Developers and Maintainers.
    const role = await call(maintainer.token, 'POST', '/protected_tags', { name: 'x', create_access_level: 20 })
    expect([role.statusCode, role.json()]).toEqual([400, { error: 'create_access_level does not have a valid value' }])
    const listed = await call(maintainer.token, 'POST', '/protected_tags', {
      name: 'x',
      allowed_to_create: [{ access_level: 40 }, { access_level: 50 }],
    })
    expect([listed.statusCode, listed.json()]).toEqual([
      400,
      { error: 'allowed_to_create[access_level] does not have a valid value' },
    ])
    expect((await call(developer.token, 'GET', '/protected_tags')).statusCode).toBe(403)
    expect((await call(developer.token, 'POST', '/protected_tags', { name: 'dev-*' })).statusCode).toBe(403)
    expect((await call(maintainer.token, 'GET', '/protected_tags/x')).statusCode).toBe(404)
    expect(((await call(maintainer.token, 'GET', '/protected_tags')).json() as Json[]).length).toBe(2)
  })

  it('keeps Developers from creating and deleting protected tags through the tags API; Maintainers may', async () => {
    const refused = await call(developer.token, 'POST', '/repository/tags', { tag_name: 'v9.9.9', ref: 'main' })
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toEqual({ message: 'You are not allowed to create this tag as it is protected.' })
    const viaRelease = await call(developer.token, 'POST', '/releases', { tag_name: 'v9.9.8', ref: 'main' })
    expect(viaRelease.statusCode).toBe(400)
    expect(await tagNames()).toEqual([])

    expect(
      (await call(developer.token, 'POST', '/repository/tags', { tag_name: 'nightly', ref: 'main' })).statusCode,
    ).toBe(201)
    expect(
      (await call(developer.token, 'POST', '/repository/tags', { tag_name: 'plain', ref: 'main' })).statusCode,
    ).toBe(201)
    expect(
      (await call(maintainer.token, 'POST', '/repository/tags', { tag_name: 'v1.0.0', ref: 'main' })).statusCode,
    ).toBe(201)

    const deleteRefused = await call(developer.token, 'DELETE', '/repository/tags/v1.0.0')
    expect(deleteRefused.statusCode).toBe(400)
    expect(deleteRefused.json()).toMatchObject({ message: expect.stringMatching(/Only a project maintainer or owner/) })
    expect((await call(developer.token, 'DELETE', '/repository/tags/plain')).statusCode).toBe(204)
    expect(await tagNames()).toEqual(['nightly', 'v1.0.0'])
  })

  it('refuses a protected tag pushed by a Developer, and any push that deletes or moves one', async () => {
    const dev = await clone(developer.token)
    await sh(dev, 'tag', 'v2.0.0')
    expect(await shFails(dev, 'push', 'origin', 'v2.0.0')).toMatch(/not allowed to create this tag as it is protected/)
    await sh(dev, 'tag', 'unprotected')
    await sh(dev, 'push', '--quiet', 'origin', 'unprotected')

    const lead = await clone(maintainer.token)
    await sh(lead, 'tag', 'v2.0.0')
    await sh(lead, 'push', '--quiet', 'origin', 'v2.0.0')
    expect(await shFails(lead, 'push', 'origin', ':refs/tags/v1.0.0')).toMatch(
      /only delete protected tags using the web interface/,
    )
    await sh(lead, 'commit', '--quiet', '--allow-empty', '-m', 'Later')
    await sh(lead, 'tag', '-f', 'v2.0.0')
    expect(await shFails(lead, 'push', '--force', 'origin', 'v2.0.0')).toMatch(/Protected tags cannot be updated/)
    expect(await tagNames()).toEqual(['nightly', 'unprotected', 'v1.0.0', 'v2.0.0'])
  })

  it('lifts the protection on unprotect', async () => {
    expect((await call(developer.token, 'DELETE', '/protected_tags/nightly')).statusCode).toBe(403)
    expect((await call(maintainer.token, 'DELETE', `/protected_tags/${encodeURIComponent('v*')}`)).statusCode).toBe(204)
    expect(
      (await call(developer.token, 'POST', '/repository/tags', { tag_name: 'v3.0.0', ref: 'main' })).statusCode,
    ).toBe(201)
  })

  it('answers python-gitlab', async () => {
    const result = await withPythonGitlab<{ created: number[]; listed: string[]; after: string[] }>(
      s.url,
      { private_token: maintainer.token },
      `
project = gl.projects.get(${project.id}, lazy=True)
p = project.protectedtags.create({'name': 'release-*', 'create_access_level': 40})
created = [a['access_level'] for a in p.create_access_levels]
listed = sorted(t.name for t in project.protectedtags.list(get_all=True))
project.protectedtags.delete('release-*')
after = sorted(t.name for t in project.protectedtags.list(get_all=True))
out({'created': created, 'listed': listed, 'after': after})
`,
    )
    expect(result).toEqual({ created: [40], listed: ['nightly', 'release-*'], after: ['nightly'] })
  })
})
