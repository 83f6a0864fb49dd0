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

// Blame computed from history (core/repos/blame.ts) must say what `git blame --porcelain` says
// on a real repository: edits, insertions, deletions, a file that is deleted and comes back, a
// merge bringing changes from a branch, and commit times that tie.

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

/** The history of `path` as git has it, for blameCommits. */
function gitHistory(path: string): BlameHistory {
  return {
    commit: async (id) => {
      const [time, ...parents] = git('show', '-s', '--format=%ct %P', id).split(' ').filter(Boolean)
      return { time: Number(time), parents }
    },
    file: async (id): Promise<BlameFile | null> => {
      const listed = git('ls-tree', id, '--', path)
      if (listed === '') return null
      const blob = listed.split(/\s+/)[2]
      return {
        id: blob,
        lines: blameLinesOf(execFileSync('git', ['cat-file', 'blob', blob], { cwd: work, encoding: 'utf8' })),
      }
    },
  }
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
const head = git('rev-parse', 'HEAD')

afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('blame computed from history', () => {
  it.each(['src/app.ts', 'notes.txt', 'README.md'])('says what git blame says of %s', async (path) => {
    const owners = await blameCommits(gitHistory(path), head)
    expect(owners).toEqual(gitBlame(head, path))
  })

  it('blames an older revision as git does, through the merge', async () => {
    expect(await blameCommits(gitHistory('src/app.ts'), merged)).toEqual(gitBlame(merged, 'src/app.ts'))
  })

  it('has nothing to say of an empty file, and refuses a file the commit does not have', async () => {
    expect(await blameCommits(gitHistory('empty.txt'), empty)).toEqual([])
    await expect(blameCommits(gitHistory('empty.txt'), c1)).rejects.toThrow(/does not exist/)
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
