/**
 * Reading ```suggestion blocks out of a note's Markdown (GitLab's suggestion parser): a fenced code
 * block whose info string is `suggestion`, optionally `suggestion:-N+M` for N lines above and M
 * lines below the note's line. Pure: no database, no git. Shared by the server (which records them)
 * and the app (which shows each block as its suggestion's diff, in place).
 */

/** One suggestion block: how far it reaches around the note's line, and the text it proposes. */
export interface ParsedSuggestion {
  readonly linesAbove: number
  readonly linesBelow: number
  /** The block's lines, each ending in a newline; empty when the block proposes deleting the lines. */
  readonly content: string
  /** Where the block is in the note's lines: its opening fence, and the line after its closing fence. */
  readonly startLine: number
  readonly endLine: number
}

/** How far one block may reach either way (GitLab refuses wider ranges in its editor). */
export const MAX_REACH = 100

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/
const SUGGESTION_INFO = /^suggestion(?::-(\d+)(?:\+(\d+))?|:\+(\d+))?\s*$/

/**
 * The suggestion blocks of `body`, in order. Other fenced blocks are skipped whole (a ```suggestion
 * line inside one is text), a block left open runs to the end as CommonMark reads it, and a
 * block whose range is not `-N+M` (or reaches past MAX_REACH) is an ordinary code block.
 */
export function parseSuggestions(body: string): ParsedSuggestion[] {
  const lines = body.split(/\r?\n/)
  const found: ParsedSuggestion[] = []
  let i = 0
  while (i < lines.length) {
    const open = FENCE.exec(lines[i])
    if (!open || (open[1][0] === '`' && open[2].includes('`'))) {
      i++
      continue
    }
    const marker = open[1]
    const closes = (line: string): boolean => {
      const m = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line)
      return m !== null && m[1][0] === marker[0] && m[1].length >= marker.length
    }
    let end = i + 1
    while (end < lines.length && !closes(lines[end])) end++
    const info = SUGGESTION_INFO.exec(open[2].trim())
    if (info) {
      const above = Number(info[1] ?? 0)
      const below = Number(info[2] ?? info[3] ?? 0)
      if (above <= MAX_REACH && below <= MAX_REACH) {
        const content = lines.slice(i + 1, end)
        found.push({
          linesAbove: above,
          linesBelow: below,
          content: content.length === 0 ? '' : `${content.join('\n')}\n`,
          startLine: i,
          endLine: Math.min(end + 1, lines.length),
        })
      }
    }
    i = end + 1
  }
  return found
}

/** A file's text as lines that keep their newline (the last may lack one). */
export function fileLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? []
}
