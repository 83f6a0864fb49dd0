import { mkdtempSync, readFileSync } from 'node:fs'
import * as fs from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import git from 'isomorphic-git'
import http from 'isomorphic-git/http/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../../src/server/platform/auth/access'
import type { ProjectRow } from '../../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../../helpers/fixtures'
import { commitFiles, makeWorkRepo, remoteUrl, sh, shFails } from '../../helpers/git'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../../helpers/server'

describe('git smart HTTP', () => {
  let s: ListeningServer
  let dev: SeededUser
  let reporter: SeededUser
  let guest: SeededUser
  let stranger: SeededUser
  let priv: ProjectRow
  let pub: ProjectRow

  beforeAll(async () => {
    s = await startServer()
    dev = seedUser(s)
    reporter = seedUser(s)
    guest = seedUser(s)
    stranger = seedUser(s)
    const group = seedGroup(s, { path: 'acme', visibility: 'public' })
    priv = seedProject(s, { namespaceId: group.id, path: 'secret', visibility: 'private' })
    pub = seedProject(s, { namespaceId: group.id, path: 'open', visibility: 'public' })
    for (const p of [priv, pub]) {
      seedMember(s, 'Project', p.id, dev.user.id, AccessLevel.DEVELOPER)
      seedMember(s, 'Project', p.id, reporter.user.id, AccessLevel.REPORTER)
      seedMember(s, 'Project', p.id, guest.user.id, AccessLevel.GUEST)
    }
  })
  afterAll(async () => {
    await s.close()
  })

  it('lets a Developer push with a token as basic-auth password and records a pushed event', async () => {
    const work = makeWorkRepo()
    const sha = commitFiles(work, { 'README.md': '# secret\n' }, 'Initial commit')
    await sh(work, 'push', '--quiet', remoteUrl(s.url, 'acme/secret', dev.token), 'main')
    const events = s.app.burrow.db
      .prepare("SELECT * FROM events WHERE project_id = ? AND action = 'pushed'")
      .all(priv.id) as { push_data: string; author_id: number }[]
    // The event is written after the push response; give the listener a moment to run.
    for (let i = 0; i < 50 && events.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50))
      events.push(
        ...(s.app.burrow.db
          .prepare("SELECT * FROM events WHERE project_id = ? AND action = 'pushed'")
          .all(priv.id) as typeof events),
      )
    }
    expect(events).toHaveLength(1)
    expect(events[0].author_id).toBe(dev.user.id)
    expect(JSON.parse(events[0].push_data)).toMatchObject({
      action: 'created',
      ref: 'main',
      ref_type: 'branch',
      commit_to: sha,
      commit_title: 'Initial commit',
      commit_count: 1,
    })
  })

  it('lets a Reporter clone a private project and refuses a Guest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'burrow-clone-'))
    await sh(dir, 'clone', '--quiet', remoteUrl(s.url, 'acme/secret', reporter.token), 'r')
    expect(readFileSync(join(dir, 'r', 'README.md'), 'utf8')).toBe('# secret\n')
    expect(await shFails(dir, 'clone', '--quiet', remoteUrl(s.url, 'acme/secret', guest.token), 'g')).toMatch(
      /403|not allowed/i,
    )
  })

  it('asks anonymous clients for credentials on a private project and hides it from strangers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'burrow-clone-'))
    expect(await shFails(dir, 'clone', '--quiet', remoteUrl(s.url, 'acme/secret'), 'a')).toMatch(
      /Authentication failed|could not read Username|401/i,
    )
    expect(await shFails(dir, 'clone', '--quiet', remoteUrl(s.url, 'acme/secret', stranger.token), 'x')).toMatch(
      /not found|404/i,
    )
  })

  it('refuses a push from a Reporter', async () => {
    const work = makeWorkRepo()
    commitFiles(work, { 'a.txt': 'a' }, 'a')
    expect(
      await shFails(work, 'push', '--quiet', remoteUrl(s.url, 'acme/secret', reporter.token), 'main:other'),
    ).toMatch(/403|not allowed/i)
  })

  it('serves anonymous clones of public projects', async () => {
    const work = makeWorkRepo()
    commitFiles(work, { 'pub.txt': 'public' }, 'Public commit')
    await sh(work, 'push', '--quiet', remoteUrl(s.url, 'acme/open', dev.token), 'main')
    const dir = mkdtempSync(join(tmpdir(), 'burrow-clone-'))
    await sh(dir, 'clone', '--quiet', remoteUrl(s.url, 'acme/open'), 'p')
    expect(readFileSync(join(dir, 'p', 'pub.txt'), 'utf8')).toBe('public')
  })

  it('refuses pushes with a clear message while the repository is read-only', async () => {
    s.app.burrow.db.prepare('UPDATE projects SET repository_read_only = 1 WHERE id = ?').run(pub.id)
    try {
      const work = makeWorkRepo()
      commitFiles(work, { 'ro.txt': 'x' }, 'ro')
      expect(await shFails(work, 'push', '--quiet', remoteUrl(s.url, 'acme/open', dev.token), 'main:ro')).toMatch(
        /read-only/,
      )
    } finally {
      s.app.burrow.db.prepare('UPDATE projects SET repository_read_only = 0 WHERE id = ?').run(pub.id)
    }
  })

  it('works with isomorphic-git clone and push using a token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'burrow-iso-'))
    const onAuth = () => ({ username: 'oauth2', password: dev.token })
    await git.clone({ fs, http, dir, url: `${s.url}/acme/secret.git`, onAuth, singleBranch: true, ref: 'main' })
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('# secret\n')
    fs.writeFileSync(join(dir, 'iso.txt'), 'from isomorphic-git\n')
    await git.add({ fs, dir, filepath: 'iso.txt' })
    const sha = await git.commit({
      fs,
      dir,
      message: 'From isomorphic-git',
      author: { name: 'Iso', email: 'iso@example.com' },
    })
    const result = await git.push({ fs, http, dir, remote: 'origin', ref: 'main', onAuth })
    expect(result.ok).toBe(true)
    const check = mkdtempSync(join(tmpdir(), 'burrow-clone-'))
    await sh(check, 'clone', '--quiet', remoteUrl(s.url, 'acme/secret', reporter.token), 'c')
    expect(await sh(join(check, 'c'), 'rev-parse', 'HEAD')).toBe(sha)
  })

  it('accepts an OAuth access token from the password grant as the password, with any username', async () => {
    const grant = await s.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'password', username: dev.user.username, password: dev.password },
    })
    expect(grant.statusCode).toBe(200)
    const accessToken = grant.json().access_token as string
    const url = new URL(`${s.url}/acme/secret.git`)
    url.username = 'any-name-at-all'
    url.password = accessToken
    const dir = mkdtempSync(join(tmpdir(), 'burrow-oauth-'))
    await sh(dir, 'clone', '--quiet', url.toString(), 'o')
    const work = join(dir, 'o')
    commitFiles(work, { 'oauth.txt': 'pushed with OAuth\n' }, 'OAuth push')
    await sh(work, 'push', '--quiet', 'origin', 'HEAD:oauth-branch')
    const branch = await s.request(dev.token, {
      method: 'GET',
      url: `/api/v4/projects/${priv.id}/repository/branches/oauth-branch`,
    })
    expect(branch.statusCode).toBe(200)
    expect(branch.json().commit.title).toBe('OAuth push')
  })

  it('lets a read_api token fetch but not push', async () => {
    const reader = seedUser(s, { scopes: ['read_api'] })
    seedMember(s, 'Project', priv.id, reader.user.id, AccessLevel.DEVELOPER)
    const dir = mkdtempSync(join(tmpdir(), 'burrow-scope-'))
    await sh(dir, 'clone', '--quiet', remoteUrl(s.url, 'acme/secret', reader.token), 'r')
    commitFiles(join(dir, 'r'), { 'nope.txt': 'x' }, 'nope')
    expect(await shFails(join(dir, 'r'), 'push', '--quiet', 'origin', 'HEAD:scoped')).toMatch(/403|write_repository/)
  })

  it('refuses a wrong token on a private project as failed authentication', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'burrow-clone-'))
    expect(await shFails(dir, 'clone', '--quiet', remoteUrl(s.url, 'acme/secret', 'not-a-token'), 'x')).toMatch(
      /Authentication failed|401/i,
    )
  })

  it('answers 404 for paths that are not git URLs', async () => {
    const res = await fetch(`${s.url}/acme/secret/blob/main`)
    expect(res.status).toBe(404)
  })

  it('answers 400 to a body that says it is gzip but is not, on fetch and push alike', async () => {
    const auth = `Basic ${Buffer.from(`${dev.user.username}:${dev.token}`).toString('base64')}`
    for (const service of ['git-upload-pack', 'git-receive-pack']) {
      for (const body of [
        Buffer.from('0032want 0000000000000000000000000000000000000000\n0000'),
        Buffer.from([0x1f, 0x8b, 0x08, 0x00]),
      ]) {
        const res = await fetch(`${s.url}/acme/secret.git/${service}`, {
          method: 'POST',
          headers: {
            authorization: auth,
            'content-type': `application/x-${service}-request`,
            'content-encoding': 'gzip',
          },
          body,
        })
        expect([service, res.status, await res.json()]).toEqual([
          service,
          400,
          { message: '400 Bad request - the request body is not valid gzip' },
        ])
      }
    }
  })
})
