import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { parseHunks } from '../../../src/renderer/lib/diff'
import type { DiffHighlightRequest } from '../../../src/renderer/lib/diff-highlighter'
import { highlightDiffLines } from '../../../src/renderer/lib/highlight-diff'

const lines = parseHunks('@@ -1,2 +1,2 @@\n const a = 1\n-let b = "two"\n+let b = `two`').lines

/**
 * A stand-in for the browser's Worker running the real worker module's answer (highlight-diff.worker.ts
 * calls answerHighlightRequest), a task later and through a structured clone as postMessage does.
 */
class FakeWorker {
  static made: FakeWorker[] = []
  static fail = false
  readonly posted: DiffHighlightRequest[] = []
  private readonly listeners = new Map<string, ((event: { data?: unknown }) => void)[]>()
  constructor(
    readonly url: URL,
    readonly options: WorkerOptions,
  ) {
    FakeWorker.made.push(this)
  }
  addEventListener(type: string, listener: (event: { data?: unknown }) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener])
  }
  postMessage(request: DiffHighlightRequest): void {
    const copy = structuredClone(request)
    this.posted.push(copy)
    setTimeout(async () => {
      if (FakeWorker.fail) return this.emit('error', {})
      const { answerHighlightRequest } = await import('../../../src/renderer/lib/diff-highlighter')
      this.emit('message', { data: structuredClone(answerHighlightRequest(copy)) })
    }, 0)
  }
  terminate(): void {}
  private emit(type: string, event: { data?: unknown }): void {
    for (const listener of this.listeners.get(type) ?? []) listener(event)
  }
}

/** The module afresh (it keeps its worker), with `worker` as the global Worker. */
async function load(worker: unknown): Promise<typeof import('../../../src/renderer/lib/diff-highlighter')> {
  vi.resetModules()
  vi.stubGlobal('Worker', worker)
  return import('../../../src/renderer/lib/diff-highlighter')
}

describe('diff highlighting off the main thread', () => {
  beforeEach(() => {
    FakeWorker.made = []
    FakeWorker.fail = false
  })
  afterEach(() => vi.unstubAllGlobals())

  it('sends a file to one module worker made from highlight-diff.worker.ts and gives back its lines', async () => {
    const { highlightDiff } = await load(FakeWorker)
    const [first, second] = await Promise.all([highlightDiff(lines, 'javascript'), highlightDiff(lines, 'typescript')])
    expect(first).toEqual(highlightDiffLines(lines, 'javascript'))
    expect(second).toEqual(highlightDiffLines(lines, 'typescript'))
    expect(first?.[1]).toContain('hljs-keyword')
    expect(FakeWorker.made).toHaveLength(1)
    const [worker] = FakeWorker.made
    expect(worker.url.pathname).toMatch(/\/highlight-diff\.worker\.ts$/)
    expect(worker.options.type).toBe('module')
    // Only what highlighting reads is sent, not the line numbers.
    expect(worker.posted.map((r) => r.language)).toEqual(['javascript', 'typescript'])
    expect(worker.posted[0].lines).toEqual(lines.map(({ kind, text }) => ({ kind, text })))
  })

  it('sends nothing for a file without colours', async () => {
    const { highlightDiff } = await load(FakeWorker)
    expect(await highlightDiff(lines, null)).toBeNull()
    expect(FakeWorker.made).toHaveLength(0)
  })

  it('highlights on the page what a failed worker owed, and everything after it', async () => {
    FakeWorker.fail = true
    const { highlightDiff } = await load(FakeWorker)
    expect(await highlightDiff(lines, 'javascript')).toEqual(highlightDiffLines(lines, 'javascript'))
    expect(await highlightDiff(lines, 'typescript')).toEqual(highlightDiffLines(lines, 'typescript'))
    expect(FakeWorker.made).toHaveLength(1)
    expect(FakeWorker.made[0].posted).toHaveLength(1)
  })

  it('highlights on the page where no worker can run', async () => {
    const { highlightDiff } = await load(undefined)
    expect(await highlightDiff(lines, 'javascript')).toEqual(highlightDiffLines(lines, 'javascript'))
    let tries = 0
    class BlockedWorker {
      constructor() {
        tries++
        throw new Error('blocked by the page')
      }
    }
    const again = await load(BlockedWorker)
    expect(await again.highlightDiff(lines, 'javascript')).toEqual(highlightDiffLines(lines, 'javascript'))
    expect(await again.highlightDiff(lines, 'typescript')).toEqual(highlightDiffLines(lines, 'typescript'))
    expect(tries).toBe(1)
  })
})
