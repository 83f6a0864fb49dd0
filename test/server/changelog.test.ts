import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commitFiles, remoteUrl, sh } from '../helpers/git'
import { ROOT_TOKEN, startServer, type ListeningServer } from '../helpers/server'

describe('changelog API', () => {
  let s: ListeningServer
  let projectId: number
  let work: string
  let webUrl: string
  const shas: Record<string, string> = {}

  beforeAll(async () => {
    s = await startServer()
    const created = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: '/api/v4/projects',
      payload: { name: 'lib', initialize_with_readme: true },
    })
    projectId = created.json().id
    webUrl = created.json().web_url
    const dir = mkdtempSync(join(tmpdir(), 'burrow-changelog-'))
    await sh(dir, 'clone', '--quiet', remoteUrl(s.url, 'root/lib', ROOT_TOKEN), 'w')
    work = join(dir, 'w')
    commitFiles(work, { 'a.txt': '1' }, 'First release work\n\nChangelog: added')
    await sh(work, 'tag', 'v1.0.0')
    shas.feature = commitFiles(work, { 'b.txt': '2' }, 'Add search\n\nChangelog: added')
    shas.fix = commitFiles(work, { 'c.txt': '3' }, 'Fix crash\n\nChangelog: fixed')
    await sh(work, 'tag', 'v1.1.0-rc1')
    commitFiles(work, { 'd.txt': '4' }, 'Refactor internals')
    shas.feature2 = commitFiles(work, { 'e.txt': '5' }, 'Add export\n\nChangelog: added')
    shas.lower = commitFiles(work, { 'f.txt': '6' }, 'Lowercase trailer\n\nchangelog: fixed')
    await sh(work, 'push', '--quiet', 'origin', 'main', '--tags')
  })
  afterAll(async () => {
    await s.close()
  })

  it('previews notes since the last stable tag, ignoring pre-release tags and commits without the trailer', async () => {
    const res = await s.request(ROOT_TOKEN, {
      method: 'GET',
      url: `/api/v4/projects/${projectId}/repository/changelog`,
      query: { version: '1.1.0', date: '2024-03-01T10:00:00Z' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().notes).toBe(
      '## 1.1.0 (2024-03-01)\n\n' +
        '### added (2 changes)\n\n' +
        `- [Add export](${webUrl}/-/commit/${shas.feature2})\n` +
        `- [Add search](${webUrl}/-/commit/${shas.feature})\n` +
        '\n### fixed (1 change)\n\n' +
        `- [Fix crash](${webUrl}/-/commit/${shas.fix})\n`,
    )
  })

  it('commits the section to CHANGELOG.md on the default branch with the default message', async () => {
    const res = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/repository/changelog`,
      payload: { version: '1.1.0', date: '2024-03-01' },
    })
    expect(res.statusCode).toBe(200)
    await sh(work, 'pull', '--quiet', 'origin', 'main')
    expect(await sh(work, 'log', '-1', '--format=%s')).toBe('Add changelog for version 1.1.0')
    expect(await sh(work, 'show', 'HEAD:CHANGELOG.md')).toContain('## 1.1.0 (2024-03-01)')
  })

  it('prepends a later release above the earlier one, honouring from, trailer, file and message', async () => {
    const res = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/repository/changelog`,
      payload: {
        version: '1.2.0',
        from: shas.feature2,
        trailer: 'changelog',
        file: 'CHANGELOG.md',
        message: 'Release notes 1.2.0',
        date: '2024-04-02',
      },
    })
    expect(res.statusCode).toBe(200)
    await sh(work, 'pull', '--quiet', 'origin', 'main')
    expect(await sh(work, 'log', '-1', '--format=%s')).toBe('Release notes 1.2.0')
    const text = await sh(work, 'show', 'HEAD:CHANGELOG.md')
    expect(text.indexOf('## 1.2.0 (2024-04-02)')).toBe(0)
    expect(text).toContain(`### fixed (1 change)\n\n- [Lowercase trailer](${webUrl}/-/commit/${shas.lower})`)
    expect(text.indexOf('## 1.1.0')).toBeGreaterThan(0)
  })

  it('answers 422 when no from is given and no earlier stable tag exists', async () => {
    const res = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/repository/changelog`,
      payload: { version: '0.9.0' },
    })
    expect([res.statusCode, res.json()]).toEqual([
      422,
      {
        message:
          'Failed to generate the changelog: The commit start range is unspecified, and no previous tag could be found to use instead',
      },
    ])
  })

  it('rejects a version that is not semantic', async () => {
    const res = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/repository/changelog`,
      payload: { version: 'one' },
    })
    expect([res.statusCode, res.json()]).toEqual([400, { error: 'version is invalid' }])
  })
})

describe('changelog API: to, branch, date and X.Y.Z tags', () => {
  let s: ListeningServer
  let projectId: number
  let work: string
  const shas: Record<string, string> = {}

  beforeAll(async () => {
    s = await startServer()
    const created = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: '/api/v4/projects',
      payload: { name: 'tool', initialize_with_readme: true },
    })
    projectId = created.json().id
    const dir = mkdtempSync(join(tmpdir(), 'burrow-changelog-'))
    await sh(dir, 'clone', '--quiet', remoteUrl(s.url, 'root/tool', ROOT_TOKEN), 'w')
    work = join(dir, 'w')
    commitFiles(work, { 'a.txt': '1' }, 'Before the tag\n\nChangelog: added')
    await sh(work, 'tag', '2.0.0')
    shas.kept = commitFiles(work, { 'b.txt': '2' }, 'Within range\n\nChangelog: changed')
    shas.after = commitFiles(work, { 'c.txt': '3' }, 'After to\n\nChangelog: changed')
    await sh(work, 'push', '--quiet', 'origin', 'main', 'main:release', '--tags')
  })
  afterAll(async () => {
    await s.close()
  })

  it('starts after a tag named X.Y.Z, stops at `to` inclusive, commits to `branch` and dates the section today', async () => {
    const res = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/repository/changelog`,
      payload: { version: '2.1.0', to: shas.kept, branch: 'release' },
    })
    expect(res.statusCode).toBe(200)
    await sh(work, 'fetch', '--quiet', 'origin')
    const text = await sh(work, 'show', 'origin/release:CHANGELOG.md')
    const today = new Date().toISOString().slice(0, 10)
    expect(text.startsWith(`## 2.1.0 (${today})\n\n### changed (1 change)\n\n- [Within range](`)).toBe(true)
    expect(text).not.toContain('After to')
    expect(text).not.toContain('Before the tag')
    expect(await sh(work, 'log', '-1', '--format=%s', 'origin/release')).toBe('Add changelog for version 2.1.0')
    expect(await sh(work, 'ls-tree', '--name-only', 'origin/main')).not.toContain('CHANGELOG.md')
  })

  it('answers 422 for a `to` that does not exist', async () => {
    const res = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/repository/changelog`,
      payload: { version: '2.2.0', to: 'f'.repeat(40) },
    })
    expect(res.statusCode).toBe(422)
    expect(typeof res.json().message).toBe('string')
  })
})
