import hljs from 'highlight.js/lib/common'

/**
 * Source files for the repository browser: the highlight.js language of a path, and the file
 * highlighted as one HTML string per line, so the viewer can number lines and a token that spans
 * lines (a block comment, a template string) keeps its colour on each of them.
 */

/** Past this many characters a file is shown as plain text: highlighting would stall the page. */
export const HIGHLIGHT_MAX_CHARS = 300_000

const BY_NAME: Readonly<Record<string, string>> = {
  dockerfile: 'dockerfile',
  makefile: 'makefile',
  gemfile: 'ruby',
  rakefile: 'ruby',
  'cmakelists.txt': 'cmake',
  '.gitlab-ci.yml': 'yaml',
  '.bashrc': 'bash',
  '.gitignore': 'plaintext',
}

const BY_EXTENSION: Readonly<Record<string, string>> = {
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'typescript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  vue: 'xml',
  svg: 'xml',
  htm: 'xml',
  lock: 'plaintext',
  txt: 'plaintext',
  toml: 'ini',
  cfg: 'ini',
  conf: 'ini',
  h: 'c',
  hpp: 'cpp',
  cc: 'cpp',
  gradle: 'groovy',
  tf: 'plaintext',
}

/** The highlight.js language for a file, or null for plain text. */
export function languageOf(path: string): string | null {
  const name = path.split('/').pop()?.toLowerCase() ?? ''
  const byName = BY_NAME[name]
  if (byName !== undefined) return byName === 'plaintext' ? null : byName
  const dot = name.lastIndexOf('.')
  if (dot <= 0) return null
  const extension = name.slice(dot + 1)
  const mapped = BY_EXTENSION[extension] ?? extension
  if (mapped === 'plaintext') return null
  return hljs.getLanguage(mapped) === undefined ? null : mapped
}

/** Markdown files are shown rendered (through the sanitised Markdown component) by default. */
export function isMarkdown(path: string): boolean {
  return /\.(md|markdown|mdown|mkd)$/i.test(path)
}

/** Text made safe to put in HTML (`&`, `<`, `>` and quotes as character references). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/**
 * Splits highlight.js output into lines: spans open at a line break are closed at its end and
 * opened again on the next line. The input is highlight.js's own markup (escaped text inside
 * `<span class="…">`), which is all this has to understand.
 */
export function splitHighlightedLines(html: string): string[] {
  const lines: string[] = []
  const open: string[] = []
  let current = ''
  const tag = /<span[^>]*>|<\/span>|\n/g
  let last = 0
  for (let match = tag.exec(html); match !== null; match = tag.exec(html)) {
    current += html.slice(last, match.index)
    last = tag.lastIndex
    const token = match[0]
    if (token === '\n') {
      lines.push(current + '</span>'.repeat(open.length))
      current = open.join('')
    } else if (token === '</span>') {
      open.pop()
      current += token
    } else {
      open.push(token)
      current += token
    }
  }
  lines.push(current + html.slice(last) + '</span>'.repeat(open.length))
  return lines
}

/**
 * One HTML string per line of `text`: highlighted when the language is known and the file is not
 * too large, else escaped plain text. A final newline does not make an empty last line.
 */
export function highlightLines(text: string, language: string | null): string[] {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text
  if (language === null || body.length > HIGHLIGHT_MAX_CHARS) return body.split('\n').map(escapeHtml)
  return splitHighlightedLines(hljs.highlight(body, { language, ignoreIllegals: true }).value)
}

/** `1.2 MB`, `640 B`: sizes as people read them. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${value >= 10 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`
}
