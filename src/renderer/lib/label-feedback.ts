import { perfEnd, perfStart, PERF } from './perf'

/**
 * The `burrow:label-feedback` measure: from a label picked in the triage picker until a view
 * shows the item with it (or without it, when it was taken off).
 */

// The label just applied, until a view shows it.
let expected: {
  readonly accountId: string
  readonly id: number
  readonly label: string
  readonly present: boolean
} | null = null

/**
 * Starts the measure for one item getting (`present`) or losing a label, from `pickedAt` (when
 * the label was picked, `performance.now()`), so the work done between the pick and this call
 * (closing the picker) counts too.
 */
export function expectLabel(accountId: string, id: number, label: string, present: boolean, pickedAt: number): void {
  expected = { accountId, id, label, present }
  perfStart(PERF.labelFeedback, pickedAt)
}

/**
 * Ends the measure when `item`, as shown now, carries the expected label (or no longer carries
 * it). `pending`: still marked pending then (the measure's detail says which). Views call it
 * after rendering the item.
 */
export function noteShownLabels(
  accountId: string,
  item: { readonly id: number; readonly labels: readonly string[] },
  pending: boolean,
): void {
  const e = expected
  if (e === null || e.accountId !== accountId || e.id !== item.id) return
  if (item.labels.includes(e.label) !== e.present) return
  expected = null
  perfEnd(PERF.labelFeedback, { pending })
}

/** True while an applied label waits to be shown (views skip the check otherwise). */
export function awaitingLabel(): boolean {
  return expected !== null
}
