import type { AccountItem, Epic } from './items'

export interface EpicNode {
  readonly row: AccountItem<Epic>
  readonly depth: number
  readonly childCount: number
}

/**
 * Epics as a tree flattened for display: each epic under its parent (by `parent_id`, within one
 * account), siblings by start date then title; an epic whose parent is not in the list is a root.
 * Children of collapsed epics (by `accountId:id`) are left out.
 */
export function flattenEpicTree(
  rows: readonly AccountItem<Epic>[],
  collapsed: ReadonlySet<string> = new Set(),
): EpicNode[] {
  const key = (accountId: string, id: number): string => `${accountId}:${id}`
  const present = new Set(rows.map((r) => key(r.accountId, r.item.id)))
  const children = new Map<string, AccountItem<Epic>[]>()
  const roots: AccountItem<Epic>[] = []
  for (const row of rows) {
    const parent = row.item.parent_id
    if (parent !== null && present.has(key(row.accountId, parent))) {
      const list = children.get(key(row.accountId, parent)) ?? []
      list.push(row)
      children.set(key(row.accountId, parent), list)
    } else roots.push(row)
  }
  const order = (a: AccountItem<Epic>, b: AccountItem<Epic>): number =>
    (a.item.start_date ?? '9999').localeCompare(b.item.start_date ?? '9999') || a.item.title.localeCompare(b.item.title)
  const out: EpicNode[] = []
  const visit = (row: AccountItem<Epic>, depth: number, seen: Set<string>): void => {
    const k = key(row.accountId, row.item.id)
    if (seen.has(k)) return
    seen.add(k)
    const kids = (children.get(k) ?? []).sort(order)
    out.push({ row, depth, childCount: kids.length })
    if (!collapsed.has(k)) for (const kid of kids) visit(kid, depth + 1, seen)
  }
  const seen = new Set<string>()
  for (const root of roots.sort(order)) visit(root, 0, seen)
  return out
}

/** The date span covering every epic with a date, for the timeline column; null when none has one. */
export function dateSpan(epics: readonly Epic[]): { readonly start: number; readonly end: number } | null {
  const days = epics
    .flatMap((e) => [e.start_date, e.due_date])
    .filter((d): d is string => d !== null)
    .map((d) => Date.parse(`${d}T00:00:00Z`))
  if (days.length === 0) return null
  const start = Math.min(...days)
  const end = Math.max(...days)
  return { start, end: end === start ? start + 86_400_000 : end }
}
