import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  blameCommits,
  blameLinesOf,
  blameRuns,
  type BlameFile,
  type BlameHistory,
} from '../../src/main/core/repos/blame'
import { CloneReader } from '../../src/main/core/repos/reader'
import { MAX_SCORE, renameScore } from '../../src/main/core/repos/similarity'

// Blame computed from history (core/repos/blame.ts) must say what `git blame --porcelain` says
// on a real repository: edits, insertions, deletions, a file that is deleted and comes back, a
// merge bringing changes from a branch, commit times that tie, and renames (exact, with edits,
// on a merged branch) — but not copies nor an unlike file taking a removed one's place.

const work = mkdtempSync(join(tmpdir(), 'burrow-blame-'))
let clock = Date.parse('2024-03-01T09:00:00Z') / 1000

function git(...args: string[]): string {
  return execFileSync('git', args, {
    cwd: work,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: tmpdir(),
      GIT_AUTHOR_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_COMMITTER_NAME: 'Ada',
      GIT_COMMITTER_EMAIL: 'ada@example.com',
      GIT_AUTHOR_DATE: `@${clock} +0000`,
      GIT_COMMITTER_DATE: `@${clock} +0000`,
    },
  }).trimEnd()
}

/** Writes files (null deletes one) and commits; `tie` keeps the previous commit's time. */
function commit(files: Record<string, string | null>, message: string, tie = false): string {
  if (!tie) clock += 3600
  for (const [path, content] of Object.entries(files)) {
    if (content === null) rmSync(join(work, path))
    else {
      mkdirSync(dirname(join(work, path)), { recursive: true })
      writeFileSync(join(work, path), content)
    }
  }
  git('add', '-A')
  git('commit', '--quiet', '--allow-empty', '-m', message)
  return git('rev-parse', 'HEAD')
}

const lines = (...values: string[]): string => values.map((v) => `${v}\n`).join('')

/** The history as git has it, for blameCommits. */
const gitHistory: BlameHistory = {
  commit: async (id) => {
    const [time, ...parents] = git('show', '-s', '--format=%ct %P', id).split(' ').filter(Boolean)
    return { time: Number(time), parents }
  },
  file: async (id, path): Promise<BlameFile | null> => {
    const [, type, blob] = git('ls-tree', id, '--', path).split(/\s+/)
    if (type !== 'blob') return null
    const bytes = execFileSync('git', ['cat-file', 'blob', blob], { cwd: work })
    return { id: blob, bytes, lines: blameLinesOf(bytes.toString('utf8')) }
  },
  removed: async (parent, child) =>
    git('diff-tree', '-r', '--no-renames', '--diff-filter=D', parent, child)
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [meta, path] = line.split('\t')
        return { path, id: meta.split(' ')[2] }
      }),
}

/** The commit of each line, as `git blame --porcelain` tells it. */
function gitBlame(rev: string, path: string): string[] {
  const owners: string[] = []
  for (const line of git('blame', '--porcelain', rev, '--', path).split('\n')) {
    const header = /^([0-9a-f]{40}) \d+ (\d+)/.exec(line)
    if (header) owners[Number(header[2]) - 1] = header[1]
  }
  return owners
}

git('init', '--quiet', '--initial-branch=main')
const c1 = commit({ 'src/app.ts': lines('a', 'b', 'c', 'd', 'e', 'f', 'g'), 'notes.txt': 'one\n' }, 'c1')
commit({ 'src/app.ts': lines('a', 'B', 'c', 'd', 'e', 'f', 'g') }, 'change b')
commit({ 'src/app.ts': lines('a', 'B', 'c', 'x1', 'x2', 'd', 'e', 'g') }, 'insert, drop f')
commit({ 'README.md': 'readme\n' }, 'other file only')
git('checkout', '--quiet', '-b', 'feature')
commit({ 'src/app.ts': lines('top', 'a', 'B', 'c', 'x1', 'x2', 'd', 'e', 'g') }, 'feature: top line')
commit({ 'src/app.ts': lines('top', 'a', 'B', 'c', 'x1', 'x2', 'd', 'E', 'g') }, 'feature: E', true)
git('checkout', '--quiet', 'main')
commit({ 'src/app.ts': lines('a', 'B', 'c', 'x1', 'x2', 'd', 'e', 'g', 'tail') }, 'main: tail')
clock += 3600
git('merge', '--quiet', '--no-edit', 'feature')
const merged = commit({ 'src/app.ts': lines('top', 'a', 'B', 'c', 'x1', 'X2', 'd', 'E', 'g', 'tail') }, 'after merge')
commit({ 'notes.txt': null }, 'drop notes')
commit({ 'notes.txt': lines('one', 'two') }, 'notes again')
const empty = commit({ 'empty.txt': '' }, 'empty file')

// Renames. Ten lines long enough that a rename's similarity is clear of git's 50% threshold.
const ten = Array.from({ length: 10 }, (_, i) => `line ${i + 1} of the module, long enough to weigh`)
const withLines = (changes: Record<number, string>, extra: string[] = []): string =>
  lines(...ten.map((line, i) => changes[i] ?? line), ...extra)
commit({ 'lib/old.ts': withLines({}) }, 'old module')
commit({ 'lib/old.ts': withLines({ 1: 'second line, edited before any move' }) }, 'edit old')
git('mv', 'lib/old.ts', 'src/moved.ts')
commit({}, 'move exactly')
commit({ 'src/moved.ts': withLines({ 1: 'second line, edited before any move' }, ['grown after the move']) }, 'grow')
git('mv', 'src/moved.ts', 'src/renamed.ts')
const renameEdit = withLines({ 1: 'second line, edited before any move', 3: 'fourth, edited in the rename' }, [
  'grown after the move',
])
const renamedWithEdit = commit({ 'src/renamed.ts': renameEdit }, 'rename with an edit')
// A copy leaves the original in place: blame does not follow it without -C.
const copied = commit({ 'src/copy.ts': `${renameEdit}copied\n` }, 'copy')
// Under a new name, too little of a removed file survives to be its rename (3 of 10 lines).
git('rm', '--quiet', 'src/copy.ts')
commit({ 'src/unlike.ts': withLines({ 0: 'x', 1: 'y', 2: 'z', 4: 'u', 5: 'v', 6: 'w', 7: 't' }) }, 'unlike')
// A branch renames a file while main edits it; the merge holds main's edit under the new name.
commit({ 'docs/guide.md': withLines({}) }, 'guide')
git('checkout', '--quiet', '-b', 'rename-guide')
git('mv', 'docs/guide.md', 'docs/handbook.md')
commit({}, 'rename guide')
git('checkout', '--quiet', 'main')
commit({ 'docs/guide.md': withLines({ 9: 'last line, edited on main' }) }, 'edit guide on main')
clock += 3600
git('merge', '--quiet', '--no-edit', 'rename-guide')
const head = git('rev-parse', 'HEAD')

afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('blame computed from history', () => {
  it.each(['src/app.ts', 'notes.txt', 'README.md'])('says what git blame says of %s', async (path) => {
    const owners = await blameCommits(gitHistory, head, path)
    expect(owners).toEqual(gitBlame(head, path))
  })

  it('blames an older revision as git does, through the merge', async () => {
    expect(await blameCommits(gitHistory, merged, 'src/app.ts')).toEqual(gitBlame(merged, 'src/app.ts'))
  })

  it('has nothing to say of an empty file, and refuses a file the commit does not have', async () => {
    expect(await blameCommits(gitHistory, empty, 'empty.txt')).toEqual([])
    await expect(blameCommits(gitHistory, c1, 'empty.txt')).rejects.toThrow(/does not exist/)
  })

  it.each(['src/renamed.ts', 'src/unlike.ts', 'docs/handbook.md'])(
    'follows renames as git blame does, of %s',
    async (path) => {
      const owners = await blameCommits(gitHistory, head, path)
      expect(owners).toEqual(gitBlame(head, path))
    },
  )

  it('gives a moved line to the commit that wrote it before the move, not to the move', async () => {
    const owners = await blameCommits(gitHistory, head, 'src/renamed.ts')
    const titles = owners.map((id) => git('show', '-s', '--format=%s', id))
    expect(titles.slice(0, 5)).toEqual(['old module', 'edit old', 'old module', 'rename with an edit', 'old module'])
    expect(titles[10]).toBe('grow')
    // A copy is not followed: every line of it is the copy's.
    const ofCopy = await blameCommits(gitHistory, copied, 'src/copy.ts')
    expect(ofCopy).toEqual(gitBlame(copied, 'src/copy.ts'))
    expect(new Set(ofCopy)).toEqual(new Set([copied]))
  })

  it('blames from the clone (CloneReader over isomorphic-git) as git does, through renames', async () => {
    const reader = new CloneReader(join(work, '.git'), () => null)
    for (const path of ['src/renamed.ts', 'docs/handbook.md', 'src/app.ts']) {
      const blame = await reader.blame(head, path)
      const owners = blame.ranges.flatMap((range) => range.lines.map(() => range.commit.id))
      expect(owners, path).toEqual(gitBlame(head, path))
    }
  })

  it('scores similarity as git does (the percentage of its rename status)', () => {
    const [status] = git('diff-tree', '-r', '-M', '--name-status', `${renamedWithEdit}~1`, renamedWithEdit).split('\t')
    const before = execFileSync('git', ['show', `${renamedWithEdit}~1:src/moved.ts`], { cwd: work })
    const after = execFileSync('git', ['show', `${renamedWithEdit}:src/renamed.ts`], { cwd: work })
    expect(status).toMatch(/^R\d+$/)
    expect(Math.floor((renameScore(before, after) * 100) / MAX_SCORE)).toBe(Number(status.slice(1)))
    expect(renameScore(Buffer.from('a\r\nb\r\n'), Buffer.from('a\nb\n'))).toBe(MAX_SCORE * (4 / 6))
    expect(renameScore(Buffer.from('tiny\n'), Buffer.from('a much longer file than the first one\n'))).toBe(0)
  })

  it('groups consecutive lines of one commit into runs', () => {
    expect(blameRuns(['a', 'a', 'b', 'a', 'a', 'a'])).toEqual([
      { commit: 'a', start: 0, count: 2 },
      { commit: 'b', start: 2, count: 1 },
      { commit: 'a', start: 3, count: 3 },
    ])
    expect(blameRuns([])).toEqual([])
  })

  it('counts lines as git does: a last newline ends a line, a missing one still leaves a line', () => {
    expect(blameLinesOf('')).toEqual([])
    expect(blameLinesOf('a\nb\n')).toEqual(['a', 'b'])
    expect(blameLinesOf('a\nb')).toEqual(['a', 'b'])
    expect(blameLinesOf('\n')).toEqual([''])
  })
})
