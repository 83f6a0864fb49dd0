/**
 * A CI job's log (its trace) as GitLab's runners write it, read for display: ANSI SGR colours
 * and styles become class names on text runs (never HTML), a carriage return keeps what was
 * written after it (progress bars), other terminal controls are dropped, and the runner's
 * `section_start:<time>:<name>[options]` / `section_end:<time>:<name>` markers become
 * collapsible sections with their duration.
 */

/** A run of text in one style: `classes` like `ci-fg-red ci-bold` (empty for plain text). */
export interface LogSpan {
  readonly text: string
  readonly classes: string
}

export interface LogLine {
  /** 1-based, counting every line of the log as shown (markers' lines included). */
  readonly number: number
  readonly spans: readonly LogSpan[]
}

export interface LogSection {
  readonly name: string
  /** The text on the marker's line: the section's heading. */
  readonly header: LogLine
  /** Seconds from start to end marker; null while the section is open (the job still runs). */
  readonly duration: number | null
  /** `[collapsed=true]` on the start marker. */
  readonly collapsed: boolean
  readonly children: readonly LogNode[]
}

export type LogNode = { readonly kind: 'line'; readonly line: LogLine } | ({ readonly kind: 'section' } & LogSection)

const COLOURS = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'] as const

interface Style {
  fg: string | null
  bg: string | null
  bold: boolean
  italic: boolean
  underline: boolean
}

const plain = (): Style => ({ fg: null, bg: null, bold: false, italic: false, underline: false })

function classesOf(s: Style): string {
  const out: string[] = []
  if (s.fg !== null) out.push(`ci-fg-${s.fg}`)
  if (s.bg !== null) out.push(`ci-bg-${s.bg}`)
  if (s.bold) out.push('ci-bold')
  if (s.italic) out.push('ci-italic')
  if (s.underline) out.push('ci-underline')
  return out.join(' ')
}

/** Applies one SGR sequence's parameters (`1;31`) to `s`. 256-colour and RGB colours are skipped. */
function applySgr(s: Style, params: string): void {
  const codes = params === '' ? [0] : params.split(';').map((p) => Number(p || '0'))
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]
    if (c === 0) Object.assign(s, plain())
    else if (c === 1) s.bold = true
    else if (c === 3) s.italic = true
    else if (c === 4) s.underline = true
    else if (c === 22) s.bold = false
    else if (c === 23) s.italic = false
    else if (c === 24) s.underline = false
    else if (c >= 30 && c <= 37) s.fg = COLOURS[c - 30]
    else if (c >= 90 && c <= 97) s.fg = `bright-${COLOURS[c - 90]}`
    else if (c === 39) s.fg = null
    else if (c >= 40 && c <= 47) s.bg = COLOURS[c - 40]
    else if (c >= 100 && c <= 107) s.bg = `bright-${COLOURS[c - 100]}`
    else if (c === 49) s.bg = null
    else if (c === 38 || c === 48) i += codes[i + 1] === 5 ? 2 : codes[i + 1] === 2 ? 4 : 1
  }
}

// eslint-disable-next-line no-control-regex -- ESC starts every terminal control sequence
const CSI = /\x1b\[([0-9;?]*)([A-Za-z])/g
// eslint-disable-next-line no-control-regex -- a runner's section marker ends in ESC[0K
const MARKER = /section_(start|end):(\d+):([\w.-]+)(\[[^\]\r\n]*\])?\r?(?:\x1b\[0K)?/g

/** One line's text (what follows its last carriage return) as styled spans; `style` carries over to the next line. */
function spansOf(text: string, style: Style): LogSpan[] {
  const spans: LogSpan[] = []
  let at = 0
  const push = (to: number): void => {
    if (to <= at) return
    const piece = text.slice(at, to)
    const classes = classesOf(style)
    const last = spans[spans.length - 1]
    if (last !== undefined && last.classes === classes) spans[spans.length - 1] = { text: last.text + piece, classes }
    else spans.push({ text: piece, classes })
  }
  for (const m of text.matchAll(CSI)) {
    push(m.index)
    if (m[2] === 'm') applySgr(style, m[1])
    at = m.index + m[0].length
  }
  push(text.length)
  return spans
}

/** What a line shows after carriage returns: the text written after the last one. */
function overwritten(line: string): string {
  const parts = line.replace(/\r$/, '').split('\r')
  return parts[parts.length - 1]
}

/**
 * The log as lines and sections. An end marker without its start (the start was cut off) is
 * ignored; sections still open at the end are shown open, without a duration.
 */
export function parseCiLog(raw: string): LogNode[] {
  const root: LogNode[] = []
  const open: { name: string; started: number; header: LogLine; collapsed: boolean; children: LogNode[] }[] = []
  const style = plain()
  const lines = raw.endsWith('\n') ? raw.slice(0, -1).split('\n') : raw.split('\n')
  const into = (): LogNode[] => open[open.length - 1]?.children ?? root
  const close = (index: number, ended: number | null): void => {
    const done = open.splice(index)
    for (let i = done.length - 1; i >= 0; i--) {
      const s = done[i]
      const node: LogNode = {
        kind: 'section',
        name: s.name,
        header: s.header,
        // Only the section the marker names ended; any still open inside it was cut short.
        duration: ended === null || i > 0 ? null : Math.max(0, ended - s.started),
        collapsed: s.collapsed,
        children: s.children,
      }
      ;(i === 0 ? into() : done[i - 1].children).push(node)
    }
  }
  lines.forEach((rawLine, index) => {
    const number = index + 1
    let starts: { name: string; time: number; collapsed: boolean }[] = []
    let text = rawLine
    for (const m of rawLine.matchAll(MARKER)) {
      const [, kind, time, name, options] = m
      if (kind === 'start') starts.push({ name, time: Number(time), collapsed: /collapsed=true/.test(options ?? '') })
      else {
        const at = open.findLastIndex((s) => s.name === name)
        if (at >= 0) close(at, Number(time))
        starts = starts.filter((s) => s.name !== name)
      }
    }
    text = text.replace(MARKER, '')
    const line: LogLine = { number, spans: spansOf(overwritten(text), style) }
    if (starts.length === 0) {
      if (text !== '' || rawLine === '') into().push({ kind: 'line', line })
      return
    }
    starts.forEach((s, i) =>
      open.push({
        name: s.name,
        started: s.time,
        // Several starts on one line: the last one takes the line's text as its heading.
        header: i === starts.length - 1 ? line : { number, spans: [] },
        collapsed: s.collapsed,
        children: [],
      }),
    )
  })
  if (open.length > 0) close(0, null)
  return root
}

/** A section's duration as GitLab shows it beside the heading: `00:42`, `01:02:03`. */
export function formatSectionDuration(seconds: number): string {
  const two = (n: number): string => String(n).padStart(2, '0')
  const h = Math.floor(seconds / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = seconds % 60
  return h > 0 ? `${two(h)}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`
}
