import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { commitFiles, makeWorkRepo, remoteUrl, sh } from '../helpers/git'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

describe('repository, commits and tags over the wire', () => {
  let s: ListeningServer
  let dev: SeededUser
  let project: ProjectRow
  let c1 = ''
  let c2 = ''
  let f1 = ''
  let readmeBlob = ''

  beforeAll(async () => {
    s = await startServer()
    dev = seedUser(s)
    const group = seedGroup(s, { path: 'wired', visibility: 'public' })
    project = seedProject(s, { namespaceId: group.id, path: 'code', visibility: 'private' })
    seedMember(s, 'Project', project.id, dev.user.id, AccessLevel.DEVELOPER)
    const work = makeWorkRepo()
    const files: Record<string, string> = { 'README.md': '# code\n' }
    // More than one default page of entries, so clients must follow pagination.
    for (let i = 0; i < 30; i++) files[`src/file-${String(i).padStart(2, '0')}.txt`] = `file ${i}\n`
    c1 = commitFiles(work, files, 'Initial commit')
    await sh(work, 'checkout', '--quiet', '-b', 'feature')
    f1 = commitFiles(work, { 'feature.txt': 'feature\n' }, 'Feature')
    await sh(work, 'checkout', '--quiet', 'main')
    c2 = commitFiles(work, { 'README.md': '# code\nmore\n' }, 'Main')
    readmeBlob = await sh(work, 'rev-parse', `${c2}:README.md`)
    await sh(work, 'push', '--quiet', remoteUrl(s.url, 'wired/code', dev.token), 'main', 'feature')
  })
  afterAll(async () => {
    await s.close()
  })

  describe('python-gitlab', () => {
    const py = <T>(body: string): Promise<T> =>
      withPythonGitlab<T>(
        s.url,
        { private_token: dev.token },
        `project = gl.projects.get(${project.id}, lazy=True)\n${body}`,
      )

    it('reads the recursive tree across pages', async () => {
      const paths = await py<string[]>('out([e["path"] for e in project.repository_tree(recursive=True, all=True)])')
      expect(paths).toHaveLength(32)
      expect(paths).toContain('src/file-29.txt')
    })

    it('reads a blob as JSON and raw', async () => {
      const [content, raw] = await py<[string, string]>(
        `import base64\nb = project.repository_blob("${readmeBlob}")\nout([base64.b64decode(b["content"]).decode(), project.repository_raw_blob("${readmeBlob}").decode()])`,
      )
      expect(content).toBe('# code\nmore\n')
      expect(raw).toBe('# code\nmore\n')
    })

    it('downloads a zip archive of a sha', async () => {
      const head = await py<string>(`data = project.repository_archive(sha="${c1}", format="zip")\nout(data[:4].hex())`)
      expect(head).toBe('504b0304')
    })

    it('compares, lists contributors and finds a merge base', async () => {
      const result = await py<{ commits: string[]; contributors: number; base: string }>(
        `c = project.repository_compare("main", "feature")\nout({"commits": [x["id"] for x in c["commits"]], "contributors": len(project.repository_contributors()), "base": project.repository_merge_base(["main", "feature"])["id"]})`,
      )
      expect(result).toEqual({ commits: [f1], contributors: 1, base: c1 })
    })

    it('lists commits and creates and deletes a tag', async () => {
      const result = await py<{ commits: string[]; tag: string; after: string[] }>(
        `commits = [c.id for c in project.commits.list(all=True)]\nt = project.tags.create({"tag_name": "py-1", "ref": "main", "message": "from python"})\nproject.tags.delete("py-1")\nout({"commits": commits, "tag": t.name, "after": [x.name for x in project.tags.list(all=True)]})`,
      )
      expect(result).toEqual({ commits: [c2, c1], tag: 'py-1', after: [] })
    })
  })

  describe('@gitbeaker/rest', () => {
    const api = () => new Gitlab({ host: s.url, token: dev.token })

    it('reads the recursive tree and a blob', async () => {
      const tree = await api().Repositories.allRepositoryTrees(project.id, { recursive: true, perPage: 100 })
      expect(tree.map((e) => e.path)).toContain('src/file-00.txt')
      const blob = await api().Repositories.showBlob(project.id, readmeBlob)
      expect(Buffer.from(String(blob.content), 'base64').toString()).toBe('# code\nmore\n')
    })

    it('downloads a tar.gz archive', async () => {
      const archive = await api().Repositories.showArchive(project.id, { fileType: 'tar.gz' })
      const bytes = Buffer.from(await (archive as unknown as Blob).arrayBuffer())
      expect(bytes.subarray(0, 2).toString('hex')).toBe('1f8b')
    })

    it('compares two refs and lists commits', async () => {
      const cmp = await api().Repositories.compare(project.id, 'main', 'feature')
      expect((cmp.commits ?? []).map((c) => c.id)).toEqual([f1])
      const commits = await api().Commits.all(project.id, { refName: 'feature' })
      expect(commits.map((c) => c.id)).toEqual([f1, c1])
    })

    it('creates, shows and removes a tag', async () => {
      const created = await api().Tags.create(project.id, 'gb-1', 'main', { message: 'from gitbeaker' })
      expect(created.name).toBe('gb-1')
      expect((await api().Tags.show(project.id, 'gb-1')).message).toBe('from gitbeaker')
      await api().Tags.remove(project.id, 'gb-1')
      expect(await api().Tags.all(project.id)).toEqual([])
    })
  })
})
