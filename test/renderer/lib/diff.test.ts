import { describe, expect, it } from 'vitest'
import {
  initiallyExpanded,
  parseDiffFile,
  parseHunks,
  splitGitDiff,
  type ParsedDiffFile,
} from '../../../src/renderer/lib/diff'

describe('parseHunks', () => {
  it('numbers context, deleted and added lines from the hunk header', () => {
    const { lines, additions, deletions } = parseHunks('@@ -10,3 +10,3 @@ function f()\n a\n-b\n+B\n c\n')
    expect(lines).toEqual([
      { kind: 'hunk', oldLine: null, newLine: null, text: '@@ -10,3 +10,3 @@ function f()' },
      { kind: 'context', oldLine: 10, newLine: 10, text: 'a' },
      { kind: 'deletion', oldLine: 11, newLine: null, text: 'b' },
      { kind: 'addition', oldLine: null, newLine: 11, text: 'B' },
      { kind: 'context', oldLine: 12, newLine: 12, text: 'c' },
    ])
    expect([additions, deletions]).toEqual([1, 1])
  })

  it('restarts numbering at each hunk and reads single-line hunk headers', () => {
    const { lines } = parseHunks('@@ -1 +1 @@\n-x\n+y\n@@ -50,2 +50,3 @@\n k\n+n\n l')
    expect(lines.filter((l) => l.kind !== 'hunk').map((l) => [l.oldLine, l.newLine])).toEqual([
      [1, null],
      [null, 1],
      [50, 50],
      [null, 51],
      [51, 52],
    ])
  })

  it('keeps "No newline at end of file" as a note without a number', () => {
    const { lines } = parseHunks('@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n')
    expect(lines[2]).toEqual({ kind: 'note', oldLine: null, newLine: null, text: 'No newline at end of file' })
    expect(lines[3]).toMatchObject({ kind: 'addition', newLine: 1 })
  })
})

describe('parseDiffFile', () => {
  const base = {
    old_path: 'a.txt',
    new_path: 'a.txt',
    new_file: false,
    renamed_file: false,
    deleted_file: false,
    diff: '',
  }

  it('derives the status from the API flags', () => {
    expect(parseDiffFile({ ...base, new_file: true }).status).toBe('added')
    expect(parseDiffFile({ ...base, deleted_file: true }).status).toBe('deleted')
    expect(parseDiffFile({ ...base, renamed_file: true, old_path: 'b.txt' }).status).toBe('renamed')
    expect(parseDiffFile(base).status).toBe('modified')
  })

  it('marks binary files and files the server left out', () => {
    expect(parseDiffFile({ ...base, diff: 'Binary files a/x.png and b/x.png differ\n' }).binary).toBe(true)
    expect(parseDiffFile({ ...base, too_large: true }).omitted).toBe(true)
  })
})

describe('splitGitDiff', () => {
  it('splits git diff output into API-shaped files with paths, flags and hunks', () => {
    const text = [
      'diff --git a/src/app.ts b/src/app.ts',
      'index 111..222 100644',
      '--- a/src/app.ts',
      '+++ b/src/app.ts',
      '@@ -1 +1 @@',
      '-old',
      '+new',
      'diff --git a/new.md b/new.md',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/new.md',
      '@@ -0,0 +1 @@',
      '+hello',
      'diff --git a/old name.txt b/new name.txt',
      'similarity index 100%',
      'rename from old name.txt',
      'rename to new name.txt',
      'diff --git a/gone.txt b/gone.txt',
      'deleted file mode 100644',
      '--- a/gone.txt',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
      '',
    ].join('\n')
    const files = splitGitDiff(text)
    expect(files.map((f) => [f.old_path, f.new_path, f.new_file, f.renamed_file, f.deleted_file])).toEqual([
      ['src/app.ts', 'src/app.ts', false, false, false],
      ['new.md', 'new.md', true, false, false],
      ['old name.txt', 'new name.txt', false, true, false],
      ['gone.txt', 'gone.txt', false, false, true],
    ])
    expect(files[0].diff).toBe('@@ -1 +1 @@\n-old\n+new\n')
    expect(files[2].diff).toBe('')
  })
})

describe('initiallyExpanded', () => {
  const file = (lines: number, extra: Partial<ParsedDiffFile> = {}): ParsedDiffFile => ({
    oldPath: 'f',
    newPath: 'f',
    status: 'modified',
    binary: false,
    omitted: false,
    lines: Array.from({ length: lines }, (_, i) => ({
      kind: 'context' as const,
      oldLine: i + 1,
      newLine: i + 1,
      text: '',
    })),
    additions: 0,
    deletions: 0,
    ...extra,
  })

  it('collapses large, binary and omitted files, and files beyond the budget', () => {
    expect(
      initiallyExpanded(
        [file(10), file(1_001), file(5, { binary: true }), file(5, { omitted: true }), file(50), file(50)],
        100,
      ),
    ).toEqual([true, false, false, false, true, false])
  })
})
