import { HIGHLIGHT_MAX_LINES, highlightDiffLines, type HighlightLine } from './highlight-diff'

/**
 * Diff highlighting for the review (`ReviewDiff`), off the main thread: highlight.js takes a few
 * milliseconds a file, and done on the page it landed in scroll frames. A Web Worker
 * (highlight-diff.worker.ts, same origin, so the CSP's `default-src 'self'` allows it) tokenizes
 * one file per message; the page only puts the finished lines in. Where no worker can run (tests
 * under jsdom) or the worker fails, files are highlighted on the page in idle time instead.
 */

/** A file's highlighted lines (HTML by line index, null for headers), or null when it has no colours. */
export type HighlightedLines = readonly (string | null)[] | null

/** A message to the worker: one file's lines. */
export interface DiffHighlightRequest {
  readonly id: number
  readonly lines: readonly HighlightLine[]
  readonly language: string
}

/** The worker's answer to the request of the same id. */
export interface DiffHighlightResult {
  readonly id: number
  readonly html: HighlightedLines
}

/** What the worker does with a request (exported for it and its tests). */
export function answerHighlightRequest(request: DiffHighlightRequest): DiffHighlightResult {
  return { id: request.id, html: highlightDiffLines(request.lines, request.language) }
}

interface Job {
  readonly lines: readonly HighlightLine[]
  readonly language: string
  readonly resolve: (html: HighlightedLines) => void
}

/** The worker once started; null when none can run (then every job is done on the page). */
let worker: Worker | null | undefined
const sent = new Map<number, Job>()
let lastId = 0

const idle: (run: () => void) => void =
  typeof requestIdleCallback === 'function' ? (run) => void requestIdleCallback(run) : (run) => void setTimeout(run, 0)

function highlightOnPage(job: Job): void {
  idle(() => job.resolve(highlightDiffLines(job.lines, job.language)))
}

/** The worker failed (could not load, or threw): what it still owed is highlighted on the page. */
function giveUpWorker(failed: Worker): void {
  failed.terminate()
  worker = null
  for (const job of sent.values()) highlightOnPage(job)
  sent.clear()
}

function startWorker(): Worker | null {
  if (typeof Worker === 'undefined') return null
  try {
    const started = new Worker(new URL('./highlight-diff.worker.ts', import.meta.url), {
      type: 'module',
      name: 'highlight-diff',
    })
    started.addEventListener('message', (event: MessageEvent<DiffHighlightResult>) => {
      const job = sent.get(event.data.id)
      sent.delete(event.data.id)
      job?.resolve(event.data.html)
    })
    started.addEventListener('error', () => giveUpWorker(started))
    return started
  } catch {
    return null
  }
}

/**
 * The HTML of each line of a diff (null for hunk headers and notes), made in the highlighting
 * worker; null when the file is not highlighted (no language, too long). Files are answered in
 * the order they are asked for.
 */
export function highlightDiff(lines: readonly HighlightLine[], language: string | null): Promise<HighlightedLines> {
  if (language === null || lines.length > HIGHLIGHT_MAX_LINES) return Promise.resolve(null)
  if (worker === undefined) worker = startWorker()
  const target = worker
  // Only what highlighting reads is copied to the worker, not the lines' numbers.
  const copy = lines.map(({ kind, text }) => ({ kind, text }))
  return new Promise((resolve) => {
    const job: Job = { lines: copy, language, resolve }
    if (target === null) return highlightOnPage(job)
    const id = ++lastId
    sent.set(id, job)
    target.postMessage({ id, lines: copy, language } satisfies DiffHighlightRequest)
  })
}
