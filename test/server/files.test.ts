import { mkdtempSync, readFileSync, existsSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedGroup, seedMember } from '../helpers/fixtures'
import { remoteUrl, sh } from '../helpers/git'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

describe('repository files API', () => {
  let s: ListeningServer
  let dev: SeededUser
  let maintainer: SeededUser
  let projectId: number
  const url = (path: string): string => `/api/v4/projects/${projectId}/repository/files/${encodeURIComponent(path)}`

  async function cloneDir(): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'burrow-files-'))
    await sh(dir, 'clone', '--quiet', '--branch', 'work', remoteUrl(s.url, 'docs/site', dev.token), 'c')
    return join(dir, 'c')
  }

  beforeAll(async () => {
    s = await startServer()
    dev = seedUser(s, { name: 'Dee Veloper' })
    maintainer = seedUser(s)
    const group = seedGroup(s, { path: 'docs', visibility: 'private' })
    seedMember(s, 'Namespace', group.id, maintainer.user.id, AccessLevel.MAINTAINER)
    projectId = (
      await s.request(maintainer.token, {
        method: 'POST',
        url: '/api/v4/projects',
        payload: { name: 'site', namespace_id: group.id, initialize_with_readme: true },
      })
    ).json().id
    seedMember(s, 'Project', projectId, dev.user.id, AccessLevel.DEVELOPER)
    await s.request(dev.token, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/repository/branches`,
      payload: { branch: 'work', ref: 'main' },
    })
  })
  afterAll(async () => {
    await s.close()
  })

  it('creates a file in a subdirectory with a commit authored by the caller', async () => {
    const res = await s.request(dev.token, {
      method: 'POST',
      url: url('guide/intro.md'),
      payload: { branch: 'work', content: '# Intro\n', commit_message: 'Add intro' },
    })
    expect([res.statusCode, res.json()]).toEqual([201, { file_path: 'guide/intro.md', branch: 'work' }])
    const dir = await cloneDir()
    expect(readFileSync(join(dir, 'guide', 'intro.md'), 'utf8')).toBe('# Intro\n')
    expect(await sh(dir, 'log', '-1', '--format=%an <%ae>|%s')).toBe(`Dee Veloper <${dev.user.email}>|Add intro`)
  })

  it('reads a file with metadata, Base64 content and X-Gitlab headers', async () => {
    const res = await s.request(dev.token, { method: 'GET', url: url('guide/intro.md'), query: { ref: 'work' } })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body).toMatchObject({
      file_name: 'intro.md',
      file_path: 'guide/intro.md',
      size: 8,
      encoding: 'base64',
      ref: 'work',
      execute_filemode: false,
    })
    expect(Buffer.from(body.content, 'base64').toString()).toBe('# Intro\n')
    expect(body.content_sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(body.last_commit_id).toBe(body.commit_id)
    expect(res.headers['x-gitlab-blob-id']).toBe(body.blob_id)
    const head = await s.request(dev.token, { method: 'HEAD', url: url('guide/intro.md'), query: { ref: 'work' } })
    expect([head.statusCode, head.headers['x-gitlab-file-path'], head.body]).toEqual([200, 'guide/intro.md', ''])
  })

  it('serves raw content on the default branch when no ref is given', async () => {
    const res = await s.request(dev.token, { method: 'GET', url: `${url('README.md')}/raw` })
    expect([res.statusCode, res.body]).toEqual([200, '# site\n\n'])
  })

  it('answers 404 File Not Found and 400 ref is missing', async () => {
    const missing = await s.request(dev.token, { method: 'GET', url: url('nope.md'), query: { ref: 'work' } })
    expect([missing.statusCode, missing.json()]).toEqual([404, { message: '404 File Not Found' }])
    const noRef = await s.request(dev.token, { method: 'GET', url: url('README.md') })
    expect([noRef.statusCode, noRef.json()]).toEqual([400, { error: 'ref is missing' }])
  })

  it('refuses creating an existing file', async () => {
    const res = await s.request(dev.token, {
      method: 'POST',
      url: url('guide/intro.md'),
      payload: { branch: 'work', content: 'x', commit_message: 'again' },
    })
    expect([res.statusCode, res.json()]).toEqual([400, { message: 'A file with this name already exists' }])
  })

  it('updates a file from Base64 content with the executable bit', async () => {
    const res = await s.request(dev.token, {
      method: 'PUT',
      url: url('guide/intro.md'),
      payload: {
        branch: 'work',
        content: Buffer.from('#!/bin/sh\n').toString('base64'),
        encoding: 'base64',
        execute_filemode: true,
        commit_message: 'Make it a script',
      },
    })
    expect([res.statusCode, res.json()]).toEqual([200, { file_path: 'guide/intro.md', branch: 'work' }])
    const dir = await cloneDir()
    expect(readFileSync(join(dir, 'guide', 'intro.md'), 'utf8')).toBe('#!/bin/sh\n')
    expect(statSync(join(dir, 'guide', 'intro.md')).mode & 0o111).not.toBe(0)
  })

  it('refuses an update whose last_commit_id is stale', async () => {
    const first = await s.request(dev.token, { method: 'GET', url: url('README.md'), query: { ref: 'work' } })
    const seen = first.json().last_commit_id
    await s.request(dev.token, {
      method: 'PUT',
      url: url('README.md'),
      payload: { branch: 'work', content: 'one\n', commit_message: 'One', last_commit_id: seen },
    })
    const stale = await s.request(dev.token, {
      method: 'PUT',
      url: url('README.md'),
      payload: { branch: 'work', content: 'two\n', commit_message: 'Two', last_commit_id: seen },
    })
    expect([stale.statusCode, stale.json()]).toEqual([
      400,
      { message: 'You are attempting to update a file that has changed since you started editing it.' },
    ])
  })

  it('refuses updating a missing file', async () => {
    const res = await s.request(dev.token, {
      method: 'PUT',
      url: url('ghost.md'),
      payload: { branch: 'work', content: 'x', commit_message: 'x' },
    })
    expect([res.statusCode, res.json()]).toEqual([400, { message: "A file with this name doesn't exist" }])
  })

  it('deletes a file with 204', async () => {
    const res = await s.request(dev.token, {
      method: 'DELETE',
      url: url('guide/intro.md'),
      query: { branch: 'work', commit_message: 'Remove intro' },
    })
    expect(res.statusCode).toBe(204)
    const dir = await cloneDir()
    expect(existsSync(join(dir, 'guide', 'intro.md'))).toBe(false)
    expect(await sh(dir, 'log', '-1', '--format=%s')).toBe('Remove intro')
  })

  it('creates a new branch from start_branch', async () => {
    const res = await s.request(dev.token, {
      method: 'POST',
      url: url('new.txt'),
      payload: { branch: 'fresh', start_branch: 'work', content: 'n', commit_message: 'New on fresh' },
    })
    expect(res.statusCode).toBe(201)
    const branch = await s.request(dev.token, {
      method: 'GET',
      url: `/api/v4/projects/${projectId}/repository/branches/fresh`,
    })
    expect(branch.json().commit.title).toBe('New on fresh')
  })

  it('refuses a Developer commit to the protected default branch', async () => {
    const res = await s.request(dev.token, {
      method: 'POST',
      url: url('x.txt'),
      payload: { branch: 'main', content: 'x', commit_message: 'x' },
    })
    expect([res.statusCode, res.json()]).toEqual([
      403,
      { message: '403 Forbidden - You are not allowed to push into this branch' },
    ])
  })

  it('rejects a path with .. segments as invalid', async () => {
    const res = await s.request(dev.token, {
      method: 'POST',
      url: url('../etc/passwd'),
      payload: { branch: 'work', content: 'x', commit_message: 'x' },
    })
    expect(res.statusCode).toBe(400)
  })

  it('keeps a concurrent commit when two writes race on one branch', async () => {
    const writes = await Promise.all(
      ['r1.txt', 'r2.txt', 'r3.txt'].map((p) =>
        s.request(dev.token, {
          method: 'POST',
          url: url(p),
          payload: { branch: 'work', content: p, commit_message: `Add ${p}` },
        }),
      ),
    )
    const ok = writes.filter((w) => w.statusCode === 201)
    for (const w of writes.filter((x) => x.statusCode !== 201))
      expect(w.json().message).toBe('Could not update branch work. Please refresh and try again.')
    const dir = await cloneDir()
    const log = (await sh(dir, 'log', '--format=%s')).split('\n')
    expect(log.filter((l) => /^Add r\d\.txt$/.test(l))).toHaveLength(ok.length)
  })
})
