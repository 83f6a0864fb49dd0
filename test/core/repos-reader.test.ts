import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CloneReader } from '../../src/main/core/repos/reader'

// Every commit at the same instant: walks ordered by commit time must not depend on the order
// ties happen to come out in.
const ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: tmpdir(),
  GIT_AUTHOR_NAME: 'T',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 'T',
  GIT_COMMITTER_EMAIL: 't@example.com',
  GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
}
const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' }).trim()

function commit(dir: string, files: Record<string, string>, message: string): string {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
  git(dir, 'add', '-A')
  git(dir, 'commit', '--quiet', '-m', message)
  return git(dir, 'rev-parse', 'HEAD')
}

describe('CloneReader on a history whose commit times all tie', () => {
  const work = mkdtempSync(join(tmpdir(), 'burrow-ties-'))
  git(work, 'init', '--quiet', '--initial-branch=main')
  const c1 = commit(work, { 'a.txt': '1\n' }, 'c1')
  const c2 = commit(work, { 'a.txt': '2\n' }, 'c2')
  const c3 = commit(work, { 'b.txt': 'main\n' }, 'c3')
  git(work, 'checkout', '--quiet', '-b', 'feature', c2)
  const f1 = commit(work, { 'c.txt': 'f1\n' }, 'f1')
  const f2 = commit(work, { 'c.txt': 'f2\n' }, 'f2')
  git(work, 'checkout', '--quiet', '-b', 'merged', c3)
  git(work, 'merge', '--quiet', '--no-edit', f2)
  const m = git(work, 'rev-parse', 'HEAD')
  const reader = new CloneReader(join(work, '.git'), () => null)

  it('compares both ways from the merge base, listing only what the other side lacks', async () => {
    const forward = await reader.compare(c3, f2, false)
    expect(forward.mergeBase).toBe(c2)
    expect(new Set(forward.commits.map((c) => c.id))).toEqual(new Set([f1, f2]))
    const back = await reader.compare(f2, c3, false)
    expect(back.commits.map((c) => c.id)).toEqual([c3])
    const merged = await reader.compare(c1, m, false)
    expect(new Set(merged.commits.map((c) => c.id))).toEqual(new Set([m, c2, c3, f1, f2]))
    expect((await reader.compare(m, c3, false)).commits).toEqual([])
  })

  it('walks a merge’s history once per commit, and filters it by path through the merge', async () => {
    const all = await reader.log(m, '', 1, 100)
    expect(all.commits.map((c) => c.id).sort()).toEqual([m, c1, c2, c3, f1, f2].sort())
    const c = await reader.log(m, 'c.txt', 1, 100)
    expect(new Set(c.commits.map((x) => x.id))).toEqual(new Set([f1, f2]))
    const a = await reader.log(m, 'a.txt', 1, 100)
    expect(a.commits.map((x) => x.id)).toEqual([c2, c1])
  })
})
