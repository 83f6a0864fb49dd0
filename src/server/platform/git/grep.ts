import { spawnGit } from './git'

/** A run of matching lines with their context, as GitLab's blob search shows a hit. */
export interface GrepChunk {
  readonly path: string
  /** The 1-based number of the chunk's first line. */
  readonly startline: number
  /** The chunk's lines (matches and up to two lines of context around them). */
  readonly data: string
}

/** How far one grep may go: at most `maxChunks` chunks, and it is stopped at `deadline` (epoch ms). */
export interface GrepLimits {
  readonly maxChunks: number
  readonly deadline: number
}

/** Lines of context around a match, as GitLab's basic blob search gives. */
const CONTEXT_LINES = 2

/**
 * Searches the text files of commit `rev` (a resolved commit id) for `term`, case-insensitively
 * and as a fixed string (`git grep -F -i`: the term is never a pattern), returning chunks of
 * matching lines with their context in path order. The output is read as it streams and git is
 * killed once `maxChunks` chunks are read or the deadline passes, so a term that matches
 * everywhere in a large repository costs a bounded time and memory: what was found so far is
 * the answer.
 */
export function grepChunks(gitDir: string, rev: string, term: string, limits: GrepLimits): Promise<GrepChunk[]> {
  // No process takes an argument with a NUL byte (spawn would throw), and no text file holds one.
  if (term.includes('\0')) return Promise.resolve([])
  const child = spawnGit(
    ['grep', '-I', '-n', '-z', '-F', '-i', `-C${CONTEXT_LINES}`, '--no-color', '-e', term, rev, '--'],
    { gitDir },
  )
  child.stdin?.end()
  const parser = new GrepParser(`${rev}:`)
  return new Promise((resolve) => {
    let settled = false
    const finish = (): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      child.kill('SIGKILL')
      resolve(parser.chunks.slice(0, limits.maxChunks))
    }
    const timer = setTimeout(finish, Math.max(0, limits.deadline - Date.now()))
    child.stdout?.setEncoding('utf8')
    child.stdout?.on('data', (text: string) => {
      parser.push(text)
      if (parser.chunks.length > limits.maxChunks) finish()
    })
    child.stderr?.resume()
    child.on('error', finish)
    child.on('close', () => {
      parser.end()
      finish()
    })
  })
}

/** Reads `git grep -n -z -C` output (`<rev>:<path>\0<line>\0<text>` lines, `--` between runs) into chunks. */
class GrepParser {
  readonly chunks: GrepChunk[] = []
  private rest = ''
  private current: { path: string; startline: number; last: number; lines: string[] } | null = null

  constructor(private readonly prefix: string) {}

  push(text: string): void {
    const lines = (this.rest + text).split('\n')
    this.rest = lines.pop() ?? ''
    for (const line of lines) this.line(line)
  }

  end(): void {
    if (this.rest !== '') this.line(this.rest)
    this.rest = ''
    this.close()
  }

  private line(line: string): void {
    if (line === '--') return this.close()
    if (!line.startsWith(this.prefix)) return
    const [path, lineNo, ...text] = line.slice(this.prefix.length).split('\0')
    const n = Number(lineNo)
    if (path === undefined || !Number.isInteger(n)) return
    if (this.current === null || this.current.path !== path || this.current.last + 1 !== n) {
      this.close()
      this.current = { path, startline: n, last: n, lines: [] }
    }
    this.current.lines.push(text.join('\0'))
    this.current.last = n
  }

  private close(): void {
    if (this.current === null) return
    const { path, startline, lines } = this.current
    this.chunks.push({ path, startline, data: `${lines.join('\n')}\n` })
    this.current = null
  }
}
