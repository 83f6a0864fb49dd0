import type { DiffRefs } from './review-threads'

/**
 * A range of a merge request's commits picked in its review ("from commit A through commit B"):
 * its diff is B against A's first parent, what GitLab's straight compare of the two shows, and a
 * line comment on it is positioned at those refs (base and start A's parent, head B). A range of
 * one commit is that commit's own diff; a range whose refs are the merge request's base and head
 * is all its changes.
 */
export interface CommitRange {
  /** The oldest commit of the range. */
  readonly from: string
  /** The newest commit of the range (`from` itself for one commit). */
  readonly to: string
}

/** What the range reads of a merge request's commits, listed newest first as GitLab lists them. */
export interface RangeCommit {
  readonly id: string
  readonly parent_ids?: readonly string[]
}

/** The commits a range starting at `from` can end at: `from` and every newer commit, newest first. */
export function rangeEnds<T extends RangeCommit>(commits: readonly T[], from: string): T[] {
  const at = commits.findIndex((c) => c.id === from)
  return at === -1 ? [] : commits.slice(0, at + 1)
}

/**
 * The diff refs of a range: base and start its first commit's first parent, head its last commit;
 * null when that parent is not known (a root commit has none, and no compare starts before it).
 */
export function rangeDiffRefs(commits: readonly RangeCommit[], range: CommitRange): DiffRefs | null {
  const parent = commits.find((c) => c.id === range.from)?.parent_ids?.[0]
  return parent === undefined ? null : { base_sha: parent, start_sha: parent, head_sha: range.to }
}

/**
 * The range the review shows once a reviewer picked its ends, or null for all the changes: a
 * range whose refs are the merge request's own base and head is its whole diff, shown (and
 * commented on) at the merge request's refs, which name its target's head as their start.
 * An end older than the start is taken as the start (one commit).
 */
export function pickedRange(
  commits: readonly RangeCommit[],
  range: CommitRange,
  mergeRequest: DiffRefs | null,
): CommitRange | null {
  const ends = rangeEnds(commits, range.from)
  const picked = ends.some((c) => c.id === range.to) ? range : { from: range.from, to: range.from }
  if (picked.from === picked.to) return picked
  const refs = rangeDiffRefs(commits, picked)
  const whole = refs !== null && refs.base_sha === mergeRequest?.base_sha && refs.head_sha === mergeRequest.head_sha
  return whole ? null : picked
}
