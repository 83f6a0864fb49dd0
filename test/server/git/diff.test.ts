import { execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { compareCommits } from '../../../src/server/platform/git/compare'
import { diffCollection } from '../../../src/server/platform/git/diff'
import { resolveCommits } from '../../../src/server/platform/git/refs'

/**
 * The git runs the server made, seen by wrapping the functions every git call goes through: how
 * many, how many were `git diff`, and the most that were running at once.
 */
const runs = vi.hoisted(() => ({ all: 0, diff: 0, running: 0, mostAtOnce: 0 }))
vi.mock('../../../src/server/platform/git/git', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/server/platform/git/git')>()
  const counted = async <T>(args: readonly string[], run: () => Promise<T>): Promise<T> => {
    if (args[0] === 'diff') runs.diff += 1
    runs.all += 1
    runs.running += 1
    runs.mostAtOnce = Math.max(runs.mostAtOnce, runs.running)
    try {
      return await run()
    } finally {
      runs.running -= 1
    }
  }
  const git: typeof actual.git = (args, opts) => counted(args, () => actual.git(args, opts))
  const gitText: typeof actual.gitText = (args, opts) => counted(args, () => actual.gitText(args, opts))
  return { ...actual, git, gitText }
})

const LIMITS = { maxPatchBytes: 100_000, maxFiles: 100, maxLines: 5_000 }

let dir: string
const sha: Record<string, string> = {}

function run(...args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@x',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@x',
    },
  }).trim()
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'burrow-diff-'))
  run('init', '-q', '-b', 'main')
  writeFileSync(join(dir, 'spaced name.txt'), 'a\nb\n')
  writeFileSync(join(dir, 'moved.txt'), 'one\ntwo\nthree\nfour\nfive\n')
  writeFileSync(join(dir, 'tool.sh'), 'echo hi\n')
  writeFileSync(join(dir, 'gone.txt'), 'bye\n')
  run('add', '-A')
  run('commit', '-qm', 'first')
  sha.first = run('rev-parse', 'HEAD')
  // A rename to a name with a newline and non-ASCII letters, an edit, a mode change, an addition and a deletion.
  run('mv', 'moved.txt', 'ré\nnamed.txt')
  writeFileSync(join(dir, 'spaced name.txt'), 'a\nb\nc\n')
  chmodSync(join(dir, 'tool.sh'), 0o755)
  writeFileSync(join(dir, 'added.txt'), 'new\n')
  run('rm', '-q', 'gone.txt')
  run('add', '-A')
  run('commit', '-qm', 'second')
  sha.second = run('rev-parse', 'HEAD')
  run('tag', '-a', 'v1', '-m', 'annotated', sha.first)
  // A history sharing nothing with main.
  run('checkout', '-q', '--orphan', 'alone')
  run('rm', '-rq', '--cached', '.')
  writeFileSync(join(dir, 'alone.txt'), 'alone\n')
  run('add', 'alone.txt')
  run('commit', '-qm', 'alone')
  sha.alone = run('rev-parse', 'HEAD')
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('diffCollection', () => {
  it('pairs every file with its own patch, from one git diff run', async () => {
    const before = runs.diff
    const { diffs, overflow } = await diffCollection(join(dir, '.git'), sha.first, sha.second, LIMITS)
    // Raw records and patches come from the same run, so rename detection is done once.
    expect(runs.diff - before).toBe(1)
    expect(overflow).toBe(false)
    const byPath = new Map(diffs.map((d) => [d.newPath, d]))
    expect([...byPath.keys()].sort()).toEqual(['added.txt', 'gone.txt', 'ré\nnamed.txt', 'spaced name.txt', 'tool.sh'])
    expect(byPath.get('ré\nnamed.txt')).toMatchObject({ oldPath: 'moved.txt', renamedFile: true, diff: '' })
    expect(byPath.get('spaced name.txt')).toMatchObject({ diff: '@@ -1,2 +1,3 @@\n a\n b\n+c\n', newFile: false })
    expect(byPath.get('tool.sh')).toMatchObject({ aMode: '100644', bMode: '100755', diff: '' })
    expect(byPath.get('added.txt')).toMatchObject({ newFile: true, aMode: '0', diff: '@@ -0,0 +1 @@\n+new\n' })
    expect(byPath.get('gone.txt')).toMatchObject({ deletedFile: true, bMode: '0', diff: '@@ -1 +0,0 @@\n-bye\n' })
  })

  it('answers no files for two equal trees', async () => {
    const { diffs, overflow } = await diffCollection(join(dir, '.git'), sha.second, sha.second, LIMITS)
    expect(diffs).toEqual([])
    expect(overflow).toBe(false)
  })
})

describe('compareCommits', () => {
  it('asks git for the commits and the diff at once, and nothing else', async () => {
    runs.mostAtOnce = 0
    const before = runs.all
    const c = await compareCommits(join(dir, '.git'), sha.first, sha.second, { straight: false, limits: LIMITS })
    // Every process started costs the server a few milliseconds: the diff finds the merge base itself.
    expect(runs.all - before).toBe(2)
    expect(runs.mostAtOnce).toBe(2)
    expect(c?.commits.map((x) => x.id)).toEqual([sha.second])
    expect(c?.diffs.map((d) => d.newPath).sort()).toEqual([
      'added.txt',
      'gone.txt',
      'ré\nnamed.txt',
      'spaced name.txt',
      'tool.sh',
    ])
  })

  it('diffs from the merge base, not from `from`', async () => {
    const c = await compareCommits(join(dir, '.git'), sha.second, sha.first, { straight: false, limits: LIMITS })
    expect(c).toEqual({ commits: [], diffs: [], overflow: false })
    const straight = await compareCommits(join(dir, '.git'), sha.second, sha.first, { straight: true, limits: LIMITS })
    expect(straight?.diffs.map((d) => d.newPath).sort()).toEqual([
      'added.txt',
      'gone.txt',
      'moved.txt',
      'spaced name.txt',
      'tool.sh',
    ])
  })

  it('answers null for histories that share nothing', async () => {
    await expect(
      compareCommits(join(dir, '.git'), sha.first, sha.alone, { straight: false, limits: LIMITS }),
    ).resolves.toBeNull()
  })
})

describe('resolveCommits', () => {
  it('resolves several revisions in one git run, each to its commit or null', async () => {
    const before = runs.all
    const resolved = await resolveCommits(join(dir, '.git'), ['main', 'v1', sha.first.slice(0, 10), 'nope', 'alone'])
    expect(runs.all - before).toBe(1)
    // The annotated tag is peeled to its commit.
    expect(resolved).toEqual([sha.second, sha.first, sha.first, null, sha.alone])
  })
})
