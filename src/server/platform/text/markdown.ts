/**
 * A deliberately tiny Markdown stand-in for `*_html` fields: no library, nothing a user writes
 * can become markup. Labels render their description on a single line, as GitLab does.
 */

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** HTML-escapes text. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c])
}

/** Single-line rendering (label descriptions): escaped text, line breaks collapsed to spaces. */
export function renderSingleLine(text: string | null): string | null {
  if (text === null) return null
  return escapeHtml(text.replace(/\s*\r?\n\s*/g, ' ').trim())
}

/**
 * Multi-line rendering (release notes, wiki pages asked with `render_html`): escaped text in
 * paragraphs split at blank lines, single line breaks kept as `<br>`; nothing becomes markup.
 */
export function renderParagraphs(text: string | null): string {
  if (!text) return ''
  return text
    .split(/\r?\n[ \t]*\r?\n/)
    .filter((p) => p.trim() !== '')
    .map((p) => `<p>${escapeHtml(p.trim()).replace(/\r?\n/g, '<br>')}</p>`)
    .join('\n')
}
