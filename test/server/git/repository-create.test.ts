import * as fs from 'node:fs'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import git from 'isomorphic-git'
import http from 'isomorphic-git/http/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectGitDir, repoExists } from '../../../src/server/platform/git/project-repo'
import { findProjectById } from '../../../src/server/modules/namespaces/queries'
import type { ProjectRow } from '../../../src/server/platform/db/rows'
import { remoteUrl, sh } from '../../helpers/git'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../../helpers/server'

describe('project repositories', () => {
  let s: ListeningServer
  let owner: SeededUser

  beforeAll(async () => {
    s = await startServer()
    owner = seedUser(s, { name: 'Olive Owner' })
  })
  afterAll(async () => {
    await s.close()
  })

  it('initialize_with_readme commits README.md by the creator on the requested default branch', async () => {
    const res = await s.request(owner.token, {
      method: 'POST',
      url: '/api/v4/projects',
      payload: { name: 'Notes', description: 'My notes', initialize_with_readme: true, default_branch: 'trunk' },
    })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({ empty_repo: false, default_branch: 'trunk' })
    expect(res.json().readme_url).toMatch(/\/notes\/-\/blob\/trunk\/README\.md$/)
    const dir = mkdtempSync(join(tmpdir(), 'burrow-create-'))
    await sh(dir, 'clone', '--quiet', remoteUrl(s.url, `${owner.user.username}/notes`, owner.token), 'c')
    expect(readFileSync(join(dir, 'c', 'README.md'), 'utf8')).toBe('# Notes\n\nMy notes')
    expect(await sh(join(dir, 'c'), 'log', '--format=%an|%s|%D')).toBe(
      'Olive Owner|Initial commit|HEAD -> trunk, origin/trunk, origin/HEAD',
    )
  })

  it('creates an empty bare repository whose HEAD names the default branch', async () => {
    const res = await s.request(owner.token, { method: 'POST', url: '/api/v4/projects', payload: { name: 'Blank' } })
    expect(res.json()).toMatchObject({ empty_repo: true, readme_url: null, default_branch: 'main' })
    const gitDir = projectGitDir(s.app.burrow, findProjectById(s.app.burrow.db, res.json().id) as ProjectRow)
    expect(readFileSync(join(gitDir, 'HEAD'), 'utf8').trim()).toBe('ref: refs/heads/main')
  })

  it('keeps empty_repo in lists up to date after a push', async () => {
    const id = (
      await s.request(owner.token, { method: 'POST', url: '/api/v4/projects', payload: { name: 'Later' } })
    ).json().id
    const dir = mkdtempSync(join(tmpdir(), 'burrow-create-'))
    await sh(dir, 'init', '--quiet', '--initial-branch=main')
    await sh(dir, 'commit', '--quiet', '--allow-empty', '-m', 'first')
    await sh(dir, 'push', '--quiet', remoteUrl(s.url, `${owner.user.username}/later`, owner.token), 'main')
    let listed: { id: number; empty_repo: boolean } | undefined
    // The flag is written by a push listener that runs just after the push response.
    for (let i = 0; i < 50 && listed?.empty_repo !== false; i++) {
      const list = (
        await s.request(owner.token, { method: 'GET', url: '/api/v4/projects', query: { owned: 'true' } })
      ).json() as { id: number; empty_repo: boolean }[]
      listed = list.find((p) => p.id === id)
      if (listed?.empty_repo !== false) await new Promise((r) => setTimeout(r, 50))
    }
    expect(listed?.empty_repo).toBe(false)
  })

  it('removes the repository directory when the project is deleted', async () => {
    const id = (
      await s.request(owner.token, {
        method: 'POST',
        url: '/api/v4/projects',
        payload: { name: 'Gone', initialize_with_readme: true },
      })
    ).json().id
    const gitDir = projectGitDir(s.app.burrow, findProjectById(s.app.burrow.db, id) as ProjectRow)
    expect(repoExists(gitDir)).toBe(true)
    expect((await s.request(owner.token, { method: 'DELETE', url: `/api/v4/projects/${id}` })).statusCode).toBe(202)
    expect(fs.existsSync(gitDir)).toBe(false)
  })

  it('serves isomorphic-git: clone, then push a new branch the API lists', async () => {
    const id = (
      await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: '/api/v4/projects',
        payload: { name: 'iso', initialize_with_readme: true },
      })
    ).json().id
    const dir = mkdtempSync(join(tmpdir(), 'burrow-iso-'))
    const onAuth = () => ({ username: 'oauth2', password: ROOT_TOKEN })
    await git.clone({ fs, http, dir, url: `${s.url}/root/iso.git`, onAuth, singleBranch: true })
    fs.writeFileSync(join(dir, 'iso.txt'), 'iso\n')
    await git.add({ fs, dir, filepath: 'iso.txt' })
    await git.commit({ fs, dir, message: 'From isomorphic-git', author: { name: 'Iso', email: 'iso@example.com' } })
    await git.branch({ fs, dir, ref: 'iso-branch' })
    const result = await git.push({ fs, http, dir, url: `${s.url}/root/iso.git`, ref: 'iso-branch', onAuth })
    expect(result.ok).toBe(true)
    const branch = await s.request(ROOT_TOKEN, {
      method: 'GET',
      url: `/api/v4/projects/${id}/repository/branches/iso-branch`,
    })
    expect(branch.json()).toMatchObject({
      name: 'iso-branch',
      commit: { title: 'From isomorphic-git', author_name: 'Iso' },
    })
  })
})

describe('repository storages', () => {
  let s: ListeningServer

  beforeAll(async () => {
    s = await startServer({ storages: ['default', 'fast-ssd'] })
  })
  afterAll(async () => {
    await s.close()
  })

  const create = (payload: Record<string, unknown>) =>
    s.request(ROOT_TOKEN, { method: 'POST', url: '/api/v4/projects', payload })
  const storageOf = (id: number): string => (findProjectById(s.app.burrow.db, id) as ProjectRow).repository_storage

  it('puts a new project on the first configured storage, under repositories/<storage>/@hashed', async () => {
    const res = await create({ name: 'On Default' })
    expect(res.statusCode).toBe(201)
    expect(res.json().repository_storage).toBe('default')
    const gitDir = projectGitDir(s.app.burrow, findProjectById(s.app.burrow.db, res.json().id) as ProjectRow)
    expect(gitDir.startsWith(join(s.dataDir, 'repositories', 'default', '@hashed') + '/')).toBe(true)
    expect(readFileSync(join(gitDir, 'HEAD'), 'utf8').trim()).toBe('ref: refs/heads/main')
  })

  it('creates the repository on another configured storage when an administrator names it, and serves git from there', async () => {
    const res = await create({ name: 'On Ssd', repository_storage: 'fast-ssd', initialize_with_readme: true })
    expect(res.statusCode).toBe(201)
    expect(storageOf(res.json().id)).toBe('fast-ssd')
    const gitDir = projectGitDir(s.app.burrow, findProjectById(s.app.burrow.db, res.json().id) as ProjectRow)
    expect(gitDir.startsWith(join(s.dataDir, 'repositories', 'fast-ssd', '@hashed') + '/')).toBe(true)
    const dir = mkdtempSync(join(tmpdir(), 'burrow-storage-'))
    await sh(dir, 'clone', '--quiet', remoteUrl(s.url, 'root/on-ssd', ROOT_TOKEN), 'c')
    expect(readFileSync(join(dir, 'c', 'README.md'), 'utf8')).toMatch(/^# On Ssd\n/)
  })

  it('refuses a storage that is not configured with 400 and a message', async () => {
    const res = await create({ name: 'Nowhere', repository_storage: 'tape' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ message: { repository_storage: ['is not included in the list'] } })
  })

  it('lists the projects of one storage with GET /projects?repository_storage=', async () => {
    const names = async (storage: string): Promise<string[]> =>
      (
        (
          await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/projects?repository_storage=${storage}` })
        ).json() as { path: string }[]
      ).map((p) => p.path)
    expect(await names('fast-ssd')).toEqual(['on-ssd'])
    expect(await names('default')).toEqual(['on-default'])
  })
})
