import { describe, expect, it } from 'vitest'
import {
  formatBytes,
  highlightLines,
  isMarkdown,
  languageOf,
  splitHighlightedLines,
} from '../../../src/renderer/lib/code'
import {
  breadcrumbs,
  cloneStatusText,
  parentPath,
  progressPercent,
  repositoryRoute,
} from '../../../src/renderer/lib/repository'
import type { RepoClone } from '../../../src/shared/ipc/repos'

describe('code', () => {
  it('picks highlight.js languages by extension and by well-known file names, plain text otherwise', () => {
    expect(languageOf('src/app.ts')).toBe('ts')
    expect(languageOf('web/App.tsx')).toBe('typescript')
    expect(languageOf('main.py')).toBe('py')
    expect(languageOf('Dockerfile')).toBe('dockerfile')
    expect(languageOf('Cargo.lock')).toBeNull()
    expect(languageOf('LICENSE')).toBeNull()
    expect(languageOf('notes.unknownext')).toBeNull()
    expect(isMarkdown('docs/README.md')).toBe(true)
    expect(isMarkdown('docs/readme.txt')).toBe(false)
  })

  it('closes spans at line ends and reopens them on the next line', () => {
    expect(splitHighlightedLines('<span class="a">x\ny<span class="b">z\n</span></span>w')).toEqual([
      '<span class="a">x</span>',
      '<span class="a">y<span class="b">z</span></span>',
      '<span class="a"><span class="b"></span></span>w',
    ])
  })

  it('highlights a file into one line of HTML per source line, escaping text it does not highlight', () => {
    const lines = highlightLines('const a = "<b>"\n/* one\ntwo */\n', 'typescript')
    expect(lines).toHaveLength(3)
    expect(lines[0]).toContain('&lt;b&gt;')
    expect(lines[2]).toMatch(/^<span class="hljs-comment">two \*\/<\/span>$/)
    expect(highlightLines('<script>\n', null)).toEqual(['&#60;script&#62;'])
  })

  it('formats sizes', () => {
    expect(formatBytes(640)).toBe('640 B')
    expect(formatBytes(2048)).toBe('2.0 KB')
    expect(formatBytes(15 * 1024 * 1024)).toBe('15 MB')
  })
})

describe('repository addresses and states', () => {
  it('builds breadcrumbs and parents of repository paths', () => {
    expect(breadcrumbs('')).toEqual([])
    expect(breadcrumbs('src/lib/a.ts')).toEqual([
      { name: 'src', path: 'src' },
      { name: 'lib', path: 'src/lib' },
      { name: 'a.ts', path: 'src/lib/a.ts' },
    ])
    expect(parentPath('src/lib/a.ts')).toBe('src/lib')
    expect(parentPath('a.ts')).toBe('')
  })

  it('puts ref and path in the query, leaving out empty ones and page 1', () => {
    expect(
      repositoryRoute({ accountId: 'acc', projectId: 5 }, 'tree', { ref: 'feature/x', path: 'src', page: 1 }),
    ).toEqual({
      name: 'repository-tree',
      params: { account: 'acc', projectId: '5' },
      query: { ref: 'feature/x', path: 'src' },
    })
    expect(repositoryRoute({ accountId: 'acc', projectId: 5 }, 'commits', { ref: null, page: 3 })).toEqual({
      name: 'repository-commits',
      params: { account: 'acc', projectId: '5' },
      query: { page: '3' },
    })
  })

  it('describes clone states and progress', () => {
    const base: RepoClone = {
      accountId: 'a',
      projectId: 1,
      pathWithNamespace: 'g/p',
      name: 'p',
      webUrl: null,
      state: 'ready',
      defaultBranch: 'main',
      clonedAt: null,
      fetchedAt: null,
      lastError: null,
      sizeBytes: null,
      progress: null,
    }
    expect(cloneStatusText(null)).toMatch(/Not cloned/)
    expect(cloneStatusText(base)).toBe('Cloned: readable offline')
    expect(cloneStatusText({ ...base, lastError: 'refused' })).toBe('Cloned: readable offline · the last fetch failed')
    expect(cloneStatusText({ ...base, state: 'failed', lastError: 'gone' })).toBe('Clone failed: gone')
    expect(
      progressPercent({
        ...base,
        progress: {
          accountId: 'a',
          projectId: 1,
          operation: 'clone',
          phase: 'Receiving objects',
          loaded: 1,
          total: 3,
          bytes: 0,
        },
      }),
    ).toBe(33)
    expect(
      progressPercent({
        ...base,
        progress: {
          accountId: 'a',
          projectId: 1,
          operation: 'clone',
          phase: 'Connecting',
          loaded: 0,
          total: null,
          bytes: 0,
        },
      }),
    ).toBeNull()
  })
})
