import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { filePathProblem, git } from '../../../src/server/platform/git/git'
import { readRef } from '../../../src/server/platform/git/refs'
import { InvalidPathError, writeCommit } from '../../../src/server/platform/git/write-commit'

describe('filePathProblem', () => {
  it('accepts ordinary file names, dots and dashes inside them and pathspec-looking names', () => {
    for (const path of [
      'README.md',
      'src/a-b/.gitignore',
      'docs/..hidden',
      'a/-x',
      ':(glob)**',
      'é/ü.txt',
      '.github/workflows/ci.yml',
    ]) {
      expect([path, filePathProblem(path)]).toEqual([path, null])
    }
  })

  it('names the problem with paths git refuses or drops', () => {
    const cases: [string, string][] = [
      ['', 'empty'],
      ['..', 'traversal'],
      ['a/../b', 'traversal'],
      ['/abs', 'invalid'],
      ['a//b', 'invalid'],
      ['a/', 'invalid'],
      ['./a', 'invalid'],
      ['.git', 'invalid'],
      ['x/.Git/config', 'invalid'],
      ['.git. /x', 'invalid'],
      ['GIT~1/x', 'invalid'],
      ['a\\.git\\x', 'invalid'],
      ['-rf', 'invalid'],
      ['a\0b', 'invalid'],
      ['x'.repeat(4097), 'invalid'],
    ]
    for (const [path, problem] of cases)
      expect([path.slice(0, 20), filePathProblem(path)]).toEqual([path.slice(0, 20), problem])
  })
})

describe('writeCommit', () => {
  let gitDir = ''
  const identity = { name: 'T', email: 't@example.com' }

  beforeAll(async () => {
    gitDir = mkdtempSync(join(tmpdir(), 'burrow-write-commit-'))
    await git(['init', '--quiet', '--bare', gitDir])
  })
  afterAll(() => {
    rmSync(gitDir, { recursive: true, force: true })
  })

  it('refuses a move to a path git drops from the index instead of committing the deletion alone', async () => {
    const ref = 'refs/heads/main'
    const first = await writeCommit(gitDir, {
      ref,
      parent: null,
      expectedOld: null,
      actions: [{ action: 'create', filePath: 'keep.txt', content: Buffer.from('data') }],
      message: 'first',
      author: identity,
      committer: identity,
    })
    const move = writeCommit(gitDir, {
      ref,
      parent: first,
      expectedOld: first,
      actions: [{ action: 'move', filePath: '.git/config', previousPath: 'keep.txt' }],
      message: 'move',
      author: identity,
      committer: identity,
    })
    await expect(move).rejects.toBeInstanceOf(InvalidPathError)
    await expect(move).rejects.toMatchObject({ path: '.git/config' })
    expect(await readRef(gitDir, ref)).toBe(first)
  })
})
