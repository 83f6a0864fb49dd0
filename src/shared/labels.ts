/**
 * How an item's label set changes, the same in core's optimistic cache patches and in the
 * renderer's instant view: by title, case-insensitively as GitLab matches them, with scoped
 * labels exclusive as in GitLab's enterprise edition (one `key::value` per key).
 */
import { isRecord } from './json'

/**
 * Label titles from an item's `labels`, which hold titles, or label objects when the list was
 * asked `with_labels_details=true` — as sync asks, so cached items carry objects.
 */
export function labelNames(labels: unknown): string[] {
  if (!Array.isArray(labels)) return []
  const names: string[] = []
  for (const l of labels) {
    if (typeof l === 'string') names.push(l)
    else if (isRecord(l) && typeof l.name === 'string') names.push(l.name)
  }
  return names
}

/** The scope of a scoped label (`workflow` of `workflow::ready`, `a::b` of `a::b::c`), or undefined for a plain label. */
export function scopedLabelKey(title: string): string | undefined {
  const at = title.lastIndexOf('::')
  return at === -1 ? undefined : title.slice(0, at)
}

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()

/**
 * The labels after removing `remove` and adding `add`: an added scoped label takes the place of
 * the item's other labels of its scope (of two added to one scope, the last stays), as the
 * server does; scopes nothing was added to stay as they were.
 */
export function labelsAfter(current: readonly string[], add: readonly string[], remove: readonly string[]): string[] {
  let out = current.filter((l) => !remove.some((r) => same(r, l)))
  for (const a of add) {
    const key = scopedLabelKey(a)
    if (key !== undefined) out = out.filter((l) => same(l, a) || scopedLabelKey(l) !== key)
    if (!out.some((l) => same(l, a))) out.push(a)
  }
  return out
}

/** A whole label set as the server keeps it: of several labels of one scope, the last one given. */
export function exclusiveLabels(labels: readonly string[]): string[] {
  return labelsAfter([], labels, [])
}
