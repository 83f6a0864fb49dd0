/**
 * User Timing marks around what the user waits for, read by `npm run bench -- ui` through
 * Playwright (`performance.getEntriesByName`). Each measure ends after the change is painted:
 * the end mark is taken in a task queued from the next animation frame, i.e. after that frame
 * was rendered (`afterPaint`, frames.ts).
 */

import { afterPaint } from './frames'

/** Measure names (also their start marks, with `:start`). */
export const PERF = {
  /** A route change (sidebar, `g i`, a link) until the issue list shows its first rows. */
  issueListFirstRows: 'burrow:issue-list-first-rows',
  /** The label shortcut (`l`) until the triage picker lists the labels. */
  labelPickerOpen: 'burrow:label-picker-open',
  /** Applying a label from the triage picker until the row or page shows the change (`detail.pending`: still marked pending then). */
  labelFeedback: 'burrow:label-feedback',
  /** Text typed in the search view until its results are on screen. */
  searchResults: 'burrow:search-results',
  /** Opening a merge request's Changes until the first file's diff lines are painted. */
  reviewFirstDiff: 'burrow:review-first-diff',
  /** Submitting a line comment until it shows under its line (`detail.pending`: still marked pending then). */
  reviewCommentFeedback: 'burrow:review-comment-feedback',
} as const

export type PerfName = (typeof PERF)[keyof typeof PERF]

const hasTiming = (): boolean => typeof performance !== 'undefined' && typeof performance.mark === 'function'

/** Sets (or resets) the start mark of a measure: now, or at `startTime` (a `performance.now()` taken earlier). */
export function perfStart(name: PerfName, startTime?: number): void {
  if (!hasTiming()) return
  performance.clearMarks(`${name}:start`)
  performance.mark(`${name}:start`, startTime === undefined ? undefined : { startTime })
}

/** True while a start mark waits for its end. */
export function perfPending(name: PerfName): boolean {
  return hasTiming() && performance.getEntriesByName(`${name}:start`, 'mark').length > 0
}

/**
 * Ends the measure started by `perfStart`, once what is on screen now has been painted; does
 * nothing without a start mark, so only the first end after a start counts.
 */
export function perfEnd(name: PerfName, detail?: Readonly<Record<string, unknown>>): void {
  if (!perfPending(name)) return
  const start = `${name}:start`
  afterPaint(() => {
    if (performance.getEntriesByName(start, 'mark').length === 0) return
    performance.measure(name, { start, detail })
    performance.clearMarks(start)
  })
}

/** Drops a start mark that will not be ended (the picker was closed before it showed anything). */
export function perfCancel(name: PerfName): void {
  if (hasTiming()) performance.clearMarks(`${name}:start`)
}
