/**
 * Review suggestions in the app: the ```suggestion block the comment form inserts (GitLab's
 * "Insert suggestion"), and a note's body cut into its Markdown and its suggestion blocks, so each
 * block shows as its suggestion's diff in place.
 */
import type { Suggestion } from '../../shared/api/suggestion'
import { parseSuggestions } from '../../shared/suggestions'
import type { DiffLine, ParsedDiffFile } from './diff'

/**
 * The new-side text of the commented lines `from`..`to` of `file` (context and added lines; removed
 * ones skipped), or null when the comment is not on the new side: its last line was removed, where
 * GitLab offers no suggestion (a suggestion replaces lines of the source branch, anchored on the
 * note's new line). A range across hunks keeps only the lines of the last hunk, which are
 * contiguous in the file as the block's `-N` must be.
 */
export function suggestionLines(file: ParsedDiffFile, from: DiffLine, to: DiffLine): readonly string[] | null {
  if (to.newLine === null) return null
  const start = file.lines.indexOf(from)
  const end = file.lines.indexOf(to)
  if (start < 0 || end < start) return [to.text]
  const picked: string[] = []
  let expected = to.newLine
  for (let i = end; i >= start; i--) {
    const line = file.lines[i]
    if (line.kind === 'deletion') continue
    if (line.newLine !== expected) break
    picked.unshift(line.text)
    expected--
  }
  return picked
}

/**
 * The block "Insert suggestion" puts in the form: the lines as they are now, to edit into the
 * suggestion, reaching `-N` lines above the note's line (GitLab writes `-0+0` for one line).
 * `cursor` is the offset in `text` at the end of the last line, where the user starts typing.
 */
export function suggestionBlock(lines: readonly string[]): { readonly text: string; readonly cursor: number } {
  const head = `\`\`\`suggestion:-${Math.max(lines.length - 1, 0)}+0\n`
  const content = lines.join('\n')
  return { text: `${head}${content}\n\`\`\``, cursor: head.length + content.length }
}

/** `text` with `insert` put at `at` on a line of its own; the inserted text's offset in the result. */
export function insertBlock(
  text: string,
  at: number,
  insert: string,
): { readonly text: string; readonly offset: number } {
  const before = text.slice(0, at)
  const after = text.slice(at)
  const lead = before === '' || before.endsWith('\n') ? '' : '\n'
  const trail = after === '' || after.startsWith('\n') ? '' : '\n'
  return { text: `${before}${lead}${insert}${trail}${after}`, offset: before.length + lead.length }
}

/** A part of a note's body: Markdown, or one of its suggestions (the block it was written as). */
export type NotePart =
  | { readonly kind: 'markdown'; readonly text: string }
  | { readonly kind: 'suggestion'; readonly suggestion: Suggestion }

/**
 * The note's body in order, each suggestion block replaced by its suggestion. The server reads the
 * blocks with the same parser, so the n-th block is the n-th suggestion; a note whose blocks and
 * suggestions do not match up (edited since, not a diff note on the new side) is all Markdown.
 */
export function noteParts(body: string, suggestions: readonly Suggestion[] | undefined): readonly NotePart[] {
  const blocks = parseSuggestions(body)
  if (suggestions === undefined || suggestions.length === 0 || blocks.length !== suggestions.length)
    return [{ kind: 'markdown', text: body }]
  const lines = body.split(/\r?\n/)
  const parts: NotePart[] = []
  let at = 0
  blocks.forEach((block, i) => {
    const text = lines.slice(at, block.startLine).join('\n')
    if (text.trim() !== '') parts.push({ kind: 'markdown', text })
    parts.push({ kind: 'suggestion', suggestion: suggestions[i] })
    at = block.endLine
  })
  const rest = lines.slice(at).join('\n')
  if (rest.trim() !== '') parts.push({ kind: 'markdown', text: rest })
  return parts
}

/** A suggestion's text as diff lines: each line without its newline (an empty text has none). */
export function contentLines(content: string): readonly string[] {
  if (content === '') return []
  return (content.endsWith('\n') ? content.slice(0, -1) : content).split('\n')
}

/** What the default commit message needs to know of a suggestion: its file and its note's author. */
export interface SuggestionSource {
  readonly path: string
  readonly authorId: number
  readonly authorName: string
}

/**
 * GitLab's default message for applying `sources` (the one Burrow Server writes when none is
 * given): the counts, then a `Co-authored-by` trailer for each author other than the user. The
 * server adds each co-author's commit email, which the app does not know, so only names show.
 */
export function defaultSuggestionMessage(sources: readonly SuggestionSource[], userId: number): string {
  const files = new Set(sources.map((s) => s.path)).size
  const head = `Apply ${sources.length} suggestion(s) to ${files} file(s)`
  const coAuthors = new Map<number, string>()
  for (const s of sources) if (s.authorId !== userId) coAuthors.set(s.authorId, s.authorName)
  const trailers = [...coAuthors.values()].map((name) => `Co-authored-by: ${name}`)
  return trailers.length === 0 ? head : `${head}\n\n${trailers.join('\n')}`
}
