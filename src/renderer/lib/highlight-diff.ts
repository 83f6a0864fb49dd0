import hljs from 'highlight.js/lib/common'
import { escapeHtml, splitHighlightedLines } from './code'
import type { DiffLine } from './diff'

/**
 * Syntax highlighting inside diffs. Each hunk is highlighted as code, one side at a time (the
 * old side: context and deleted lines; the new side: context and added lines), so a string or
 * comment spanning lines is coloured as it is in the file; the result is cut back into lines,
 * closing and reopening highlight.js's spans at each line break. highlight.js escapes the text
 * and only adds `<span class="hljs-…">`, so the lines are safe to insert as HTML and need no
 * inline style (the CSP allows none from scripts' output anyway).
 */

// Extensions and file names highlight.js does not know by itself.
const ALIASES: Readonly<Record<string, string>> = {
  vue: 'xml',
  svelte: 'xml',
  htm: 'xml',
  mjs: 'javascript',
  cjs: 'javascript',
  mts: 'typescript',
  cts: 'typescript',
  jsx: 'javascript',
  tsx: 'typescript',
  yml: 'yaml',
  makefile: 'makefile',
  gemfile: 'ruby',
  rakefile: 'ruby',
  h: 'c',
  hpp: 'cpp',
  cc: 'cpp',
  kt: 'kotlin',
  kts: 'kotlin',
  toml: 'ini',
  cfg: 'ini',
  conf: 'ini',
}

/** The highlight.js language for a path, or null when it has none (plain text, unknown). */
export function languageOf(path: string): string | null {
  const name = path.split('/').pop()?.toLowerCase() ?? ''
  const ext = name.includes('.') ? (name.split('.').pop() ?? '') : name
  const candidate = ALIASES[ext] ?? ALIASES[name] ?? ext
  return candidate !== '' && hljs.getLanguage(candidate) !== undefined ? candidate : null
}

function highlightText(lines: readonly string[], language: string): string[] {
  const html = hljs.highlight(lines.join('\n'), { language, ignoreIllegals: true }).value
  const out = splitHighlightedLines(html)
  // highlight.js keeps every line break, so the count matches; anything else falls back to plain text.
  return out.length === lines.length ? out : lines.map(escapeHtml)
}

/** Above this many lines a file is shown without colours: highlighting it would hold up the page. */
export const HIGHLIGHT_MAX_LINES = 5_000

/** What highlighting a diff line needs of it. */
export type HighlightLine = Pick<DiffLine, 'kind' | 'text'>

/**
 * HTML for each diff line's code (null for hunk headers and notes), or null when the file is
 * not highlighted (unknown language, too long).
 */
export function highlightDiffLines(lines: readonly HighlightLine[], language: string | null): (string | null)[] | null {
  if (language === null || lines.length > HIGHLIGHT_MAX_LINES) return null
  const result: (string | null)[] = lines.map(() => null)
  let start = 0
  while (start < lines.length) {
    // One hunk: up to the next hunk header.
    let end = start + 1
    while (end < lines.length && lines[end].kind !== 'hunk') end++
    const oldSide: number[] = []
    const newSide: number[] = []
    for (let i = start; i < end; i++) {
      const kind = lines[i].kind
      if (kind === 'context' || kind === 'deletion') oldSide.push(i)
      if (kind === 'context' || kind === 'addition') newSide.push(i)
    }
    const oldHtml = highlightText(
      oldSide.map((i) => lines[i].text),
      language,
    )
    const newHtml = highlightText(
      newSide.map((i) => lines[i].text),
      language,
    )
    oldSide.forEach((i, k) => {
      if (lines[i].kind === 'deletion') result[i] = oldHtml[k]
    })
    newSide.forEach((i, k) => (result[i] = newHtml[k]))
    start = end
  }
  return result
}
