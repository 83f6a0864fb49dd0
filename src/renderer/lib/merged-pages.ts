/**
 * Several ordered lists read page by page and merged into one ordered list: what "All accounts"
 * needs, since the cache lists (and searches) one account at a time. Each source is read in its
 * own order, a chunk at a time, only as far as the merged list is wanted; the merged list never
 * reorders a source's rows, so it is exact whenever `compare` agrees with the sources' order.
 */

export interface MergeSource<T> {
  /** Names the source in the rows it gives (an account id). */
  readonly key: string
  /** Rows `offset`… of the source, at most `limit`, and how many it holds in all. */
  fetch(offset: number, limit: number): Promise<{ readonly items: readonly T[]; readonly total: number }>
}

interface Stream<T> {
  readonly source: MergeSource<T>
  /** Unknown (Infinity) until the first answer. */
  total: number
  buffer: T[]
  next: number
}

export class MergedPages<T> {
  private readonly streams: Stream<T>[]
  private readonly merged: T[] = []
  private queue: Promise<void> = Promise.resolve()

  /**
   * `chunk`: rows asked of a source at a time at least; `maxChunk`: at most (the cache's page
   * limit), used when the wanted position is far below what is merged.
   */
  constructor(
    sources: readonly MergeSource<T>[],
    private readonly compare: (a: T, b: T) => number,
    private readonly chunk = 100,
    private readonly maxChunk = 500,
  ) {
    this.streams = sources.map((source) => ({ source, total: Number.POSITIVE_INFINITY, buffer: [], next: 0 }))
  }

  /** The merged rows known so far, in order. */
  get rows(): readonly T[] {
    return this.merged
  }

  /** Rows in all the sources (as they last said); the sum of their totals. */
  get total(): number {
    return this.streams.reduce((n, s) => n + (Number.isFinite(s.total) ? s.total : 0), 0)
  }

  /** True while a source may hold rows not merged yet. */
  get hasMore(): boolean {
    return this.streams.some((s) => s.buffer.length > 0 || s.next < s.total)
  }

  /** Merges until `count` rows are known or every source is exhausted; calls run one after another. */
  fillTo(count: number): Promise<void> {
    const run = this.queue.then(() => this.merge(count))
    // A failed fill leaves what was merged; the next call may try again.
    this.queue = run.catch(() => undefined)
    return run
  }

  private async merge(count: number): Promise<void> {
    while (this.merged.length < count) {
      const dry = this.streams.filter((s) => s.buffer.length === 0 && s.next < s.total)
      if (dry.length > 0) {
        const limit = Math.min(this.maxChunk, Math.max(this.chunk, count - this.merged.length))
        await Promise.all(dry.map((s) => this.refill(s, limit)))
        continue
      }
      let best: Stream<T> | null = null
      for (const s of this.streams)
        if (s.buffer.length > 0 && (best === null || this.compare(s.buffer[0], best.buffer[0]) < 0)) best = s
      if (best === null) return
      this.merged.push(best.buffer.shift() as T)
    }
  }

  private async refill(stream: Stream<T>, limit: number): Promise<void> {
    const page = await stream.source.fetch(stream.next, limit)
    stream.buffer.push(...page.items)
    stream.next += page.items.length
    // A source that shrank under us (or estimates its total) ends where its rows end.
    stream.total = page.items.length === 0 ? stream.next : Math.max(page.total, stream.next)
  }
}
