import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedGroup, seedMember } from '../helpers/fixtures'
import { commitFiles, remoteUrl, sh } from '../helpers/git'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

interface Branch {
  name: string
  merged: boolean
  protected: boolean
  default: boolean
  developers_can_push: boolean
  developers_can_merge: boolean
  can_push: boolean
  web_url: string
  commit: {
    id: string
    short_id: string
    title: string
    parent_ids: string[]
    author_name: string
    web_url: string
    trailers: Record<string, string>
  }
}

describe('branches API', () => {
  let s: ListeningServer
  let dev: SeededUser
  let maintainer: SeededUser
  let reporter: SeededUser
  let projectId: number
  let work: string
  let initial: string

  beforeAll(async () => {
    s = await startServer()
    dev = seedUser(s)
    maintainer = seedUser(s)
    reporter = seedUser(s)
    const group = seedGroup(s, { path: 'acme', visibility: 'private' })
    seedMember(s, 'Namespace', group.id, maintainer.user.id, AccessLevel.OWNER)
    const created = await s.request(maintainer.token, {
      method: 'POST',
      url: '/api/v4/projects',
      payload: { name: 'Rocket', namespace_id: group.id, initialize_with_readme: true, description: 'Goes up' },
    })
    expect(created.statusCode).toBe(201)
    projectId = created.json().id
    seedMember(s, 'Project', projectId, dev.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', projectId, reporter.user.id, AccessLevel.REPORTER)
    const dir = mkdtempSync(join(tmpdir(), 'burrow-branches-'))
    await sh(dir, 'clone', '--quiet', remoteUrl(s.url, 'acme/rocket', maintainer.token), 'w')
    work = join(dir, 'w')
    initial = await sh(work, 'rev-parse', 'HEAD')
    await sh(work, 'checkout', '--quiet', '-b', 'feature/merged')
    commitFiles(work, { 'a.txt': 'a\n' }, 'Add a\n\nChangelog: added')
    await sh(work, 'checkout', '--quiet', 'main')
    await sh(work, 'merge', '--quiet', '--ff-only', 'feature/merged')
    await sh(work, 'checkout', '--quiet', '-b', 'topic')
    commitFiles(work, { 'b.txt': 'b\n' }, 'Add b')
    await sh(work, 'push', '--quiet', 'origin', 'main', 'feature/merged', 'topic')
  })
  afterAll(async () => {
    await s.close()
  })

  it('lists branches sorted by name with merged, protected, default and commit fields', async () => {
    const res = await s.request(dev.token, { method: 'GET', url: `/api/v4/projects/${projectId}/repository/branches` })
    expect(res.statusCode).toBe(200)
    expect(res.headers['x-total']).toBe('3')
    const list = res.json() as Branch[]
    expect(list.map((b) => b.name)).toEqual(['feature/merged', 'main', 'topic'])
    const [merged, main, topic] = list
    expect(merged).toMatchObject({ merged: true, protected: false, default: false, can_push: true })
    expect(merged.web_url).toMatch(/\/acme\/rocket\/-\/tree\/feature\/merged$/)
    expect(merged.commit).toMatchObject({
      title: 'Add a',
      trailers: { Changelog: 'added' },
      author_name: 'Test Author',
      parent_ids: [initial],
    })
    expect(merged.commit.short_id).toBe(merged.commit.id.slice(0, 8))
    expect(main).toMatchObject({
      merged: false,
      protected: true,
      default: true,
      developers_can_push: false,
      developers_can_merge: false,
      can_push: false,
    })
    expect(topic).toMatchObject({ merged: false, protected: false })
  })

  it('computes can_push for the caller: Maintainers push to the protected default branch, Developers to others, Reporters nowhere', async () => {
    const canPush = async (token: string): Promise<Record<string, boolean>> =>
      Object.fromEntries(
        (
          (
            await s.request(token, { method: 'GET', url: `/api/v4/projects/${projectId}/repository/branches` })
          ).json() as Branch[]
        ).map((b) => [b.name, b.can_push]),
      )
    expect(await canPush(maintainer.token)).toEqual({ 'feature/merged': true, main: true, topic: true })
    expect(await canPush(dev.token)).toEqual({ 'feature/merged': true, main: false, topic: true })
    expect(await canPush(reporter.token)).toEqual({ 'feature/merged': false, main: false, topic: false })
  })

  it('reports developers_can_push and developers_can_merge from the protection rule', async () => {
    const rule = await s.request(maintainer.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/protected_branches`,
      payload: { name: 'topic', push_access_level: 30, merge_access_level: 30 },
    })
    expect(rule.statusCode).toBe(201)
    try {
      const topic = (
        await s.request(dev.token, { method: 'GET', url: `/api/v4/projects/${projectId}/repository/branches/topic` })
      ).json() as Branch
      expect(topic).toMatchObject({
        protected: true,
        developers_can_push: true,
        developers_can_merge: true,
        can_push: true,
      })
    } finally {
      await s.request(maintainer.token, {
        method: 'DELETE',
        url: `/api/v4/projects/${projectId}/protected_branches/topic`,
      })
    }
  })

  it('filters by ^prefix, suffix$ and substring search', async () => {
    const names = async (search: string): Promise<string[]> =>
      (
        (
          await s.request(dev.token, {
            method: 'GET',
            url: `/api/v4/projects/${projectId}/repository/branches`,
            query: { search },
          })
        ).json() as Branch[]
      ).map((b) => b.name)
    expect(await names('^feat')).toEqual(['feature/merged'])
    expect(await names('ic$')).toEqual(['topic'])
    expect(await names('A')).toEqual(['feature/merged', 'main'])
  })

  it('shows one branch by URL-encoded name and 404s a missing one', async () => {
    const res = await s.request(dev.token, {
      method: 'GET',
      url: `/api/v4/projects/${projectId}/repository/branches/feature%2Fmerged`,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().name).toBe('feature/merged')
    const missing = await s.request(dev.token, {
      method: 'GET',
      url: `/api/v4/projects/${projectId}/repository/branches/nope`,
    })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toEqual({ message: '404 Branch Not Found' })
  })

  it('answers HEAD with 204 for an existing branch and 404 otherwise', async () => {
    expect(
      (await s.request(dev.token, { method: 'HEAD', url: `/api/v4/projects/${projectId}/repository/branches/topic` }))
        .statusCode,
    ).toBe(204)
    expect(
      (await s.request(dev.token, { method: 'HEAD', url: `/api/v4/projects/${projectId}/repository/branches/nope` }))
        .statusCode,
    ).toBe(404)
  })

  it('creates a branch from a branch name or a SHA and records a pushed event', async () => {
    const res = await s.request(dev.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/repository/branches`,
      payload: { branch: 'from-sha', ref: initial },
    })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({ name: 'from-sha', commit: { id: initial }, merged: true, can_push: true })
    const byName = await s.request(dev.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/repository/branches`,
      payload: { branch: 'from-topic', ref: 'topic' },
    })
    expect(byName.statusCode).toBe(201)
    const events = s.app.burrow.db
      .prepare("SELECT push_data FROM events WHERE project_id = ? AND action = 'pushed' AND author_id = ?")
      .all(projectId, dev.user.id) as { push_data: string }[]
    expect(events.map((e) => JSON.parse(e.push_data).ref)).toEqual(expect.arrayContaining(['from-sha', 'from-topic']))
  })

  it('refuses an existing branch, an invalid name and an unknown ref with GitLab messages', async () => {
    const post = (payload: Record<string, string>) =>
      s.request(dev.token, { method: 'POST', url: `/api/v4/projects/${projectId}/repository/branches`, payload })
    const exists = await post({ branch: 'topic', ref: 'main' })
    expect([exists.statusCode, exists.json()]).toEqual([400, { message: 'Branch already exists' }])
    const invalid = await post({ branch: 'bad..name', ref: 'main' })
    expect([invalid.statusCode, invalid.json()]).toEqual([400, { message: 'Branch name is invalid' }])
    const unknown = await post({ branch: 'new', ref: 'nothing-here' })
    expect([unknown.statusCode, unknown.json()]).toEqual([400, { message: 'Invalid reference name: nothing-here' }])
    const missing = await s.request(dev.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/repository/branches`,
      payload: { branch: 'x' },
    })
    expect([missing.statusCode, missing.json()]).toEqual([400, { error: 'ref is missing' }])
  })

  it('needs Developer to create a branch', async () => {
    const res = await s.request(reporter.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/repository/branches`,
      payload: { branch: 'r', ref: 'main' },
    })
    expect(res.statusCode).toBe(403)
  })

  it('deletes a branch with 204 and explains refusals for missing, default and protected branches', async () => {
    await s.request(dev.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/repository/branches`,
      payload: { branch: 'doomed', ref: 'main' },
    })
    const del = (token: string, name: string) =>
      s.request(token, {
        method: 'DELETE',
        url: `/api/v4/projects/${projectId}/repository/branches/${encodeURIComponent(name)}`,
      })
    expect((await del(dev.token, 'doomed')).statusCode).toBe(204)
    const gone = await del(dev.token, 'doomed')
    expect([gone.statusCode, gone.json()]).toEqual([404, { message: '404 Branch Not Found' }])
    const main = await del(maintainer.token, 'main')
    expect([main.statusCode, main.json()]).toEqual([
      400,
      { message: 'The default branch of a project cannot be deleted.' },
    ])
    await s.request(maintainer.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/protected_branches`,
      payload: { name: 'from-*' },
    })
    const protectedDel = await del(dev.token, 'from-topic')
    expect([protectedDel.statusCode, protectedDel.json()]).toEqual([
      403,
      { message: 'You can only delete protected branches using the web interface.' },
    ])
  })

  it('deletes merged branches except the default and protected ones with 202', async () => {
    const res = await s.request(maintainer.token, {
      method: 'DELETE',
      url: `/api/v4/projects/${projectId}/repository/merged_branches`,
    })
    expect([res.statusCode, res.json()]).toEqual([202, { message: '202 Accepted' }])
    const names = (
      (
        await s.request(dev.token, { method: 'GET', url: `/api/v4/projects/${projectId}/repository/branches` })
      ).json() as Branch[]
    ).map((b) => b.name)
    // feature/merged is merged and unprotected: deleted. from-sha is merged but protected by `from-*`.
    expect(names).toEqual(['from-sha', 'from-topic', 'main', 'topic'])
    const dir = mkdtempSync(join(tmpdir(), 'burrow-branches-'))
    await sh(dir, 'clone', '--quiet', remoteUrl(s.url, 'acme/rocket', dev.token), 'c')
    expect(readFileSync(join(dir, 'c', 'README.md'), 'utf8')).toBe('# Rocket\n\nGoes up')
  })

  it('needs push rights (Developer) to delete merged branches', async () => {
    const res = await s.request(reporter.token, {
      method: 'DELETE',
      url: `/api/v4/projects/${projectId}/repository/merged_branches`,
    })
    expect(res.statusCode).toBe(403)
  })
})
