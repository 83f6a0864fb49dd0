/** A small max-heap of commits by committer time: the order `git log` walks history in. */
export class CommitQueue<T extends { readonly time: number }> {
  private readonly items: T[] = []
  get size(): number {
    return this.items.length
  }
  push(item: T): void {
    const items = this.items
    items.push(item)
    let i = items.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (items[parent].time >= items[i].time) break
      ;[items[parent], items[i]] = [items[i], items[parent]]
      i = parent
    }
  }
  pop(): T | undefined {
    const items = this.items
    const top = items[0]
    const last = items.pop()
    if (items.length > 0 && last !== undefined) {
      items[0] = last
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        const r = l + 1
        let largest = i
        if (l < items.length && items[l].time > items[largest].time) largest = l
        if (r < items.length && items[r].time > items[largest].time) largest = r
        if (largest === i) break
        ;[items[largest], items[i]] = [items[i], items[largest]]
        i = largest
      }
    }
    return top
  }
  toArray(): readonly T[] {
    return this.items
  }
}
