import type { ItemChanges } from '../../shared/ipc/outbox'
import { exclusiveLabels, labelsAfter } from '../../shared/labels'
import type { Issue, MergeRequest, MilestoneRef, UserRef } from './items'

/**
 * The item writes of the issue and merge request views as pure functions: what a change does
 * to the item on screen (before core or the server has seen it), which parts of a change would
 * change anything, and the change that takes it back (undo).
 */

export type WorkItem = Issue | MergeRequest

/** The objects a change's ids name, so the item on screen can show them at once. */
export interface ChangeDisplay {
  readonly assignees?: readonly UserRef[]
  readonly reviewers?: readonly UserRef[]
  readonly milestone?: MilestoneRef | null
  readonly epic?: Issue['epic']
}

/** A merge request's reviewers (none for an issue). */
const reviewersOf = (item: WorkItem): readonly UserRef[] => ('reviewers' in item ? (item.reviewers ?? []) : [])
/** The users of `ids`, as `known` has them (else a placeholder named by the id). */
const usersOf = (ids: readonly number[], known: readonly UserRef[]): UserRef[] => {
  const byId = new Map(known.map((u) => [u.id, u]))
  return ids.map((id) => byId.get(id) ?? { id, username: '', name: `User ${id}`, avatar_url: null })
}
const sameIds = (a: readonly number[], b: readonly number[]): boolean =>
  a.length === b.length && a.every((id, i) => id === b[i])
const hasLabel = (labels: readonly string[], name: string): boolean =>
  labels.some((l) => l.toLowerCase() === name.toLowerCase())

/** The labels `changes` leave on `item`. */
export function labelsAfterChanges(item: WorkItem, changes: ItemChanges): readonly string[] {
  if (changes.labels !== undefined) return exclusiveLabels(changes.labels)
  if (changes.add_labels === undefined && changes.remove_labels === undefined) return item.labels
  return labelsAfter(item.labels, changes.add_labels ?? [], changes.remove_labels ?? [])
}

/**
 * `item` as it looks once `changes` apply. Ids become the objects `display` gives (else a bare
 * `{id}`), as core's optimistic patch does with the cached users and milestones.
 */
export function applyChanges<T extends WorkItem>(item: T, changes: ItemChanges, display: ChangeDisplay = {}): T {
  const next: Record<string, unknown> = { ...item }
  if (changes.title !== undefined) next.title = changes.title.trim()
  if (changes.description !== undefined) next.description = changes.description
  if (changes.labels !== undefined || changes.add_labels !== undefined || changes.remove_labels !== undefined)
    next.labels = labelsAfterChanges(item, changes)
  if (changes.state_event !== undefined) next.state = changes.state_event === 'close' ? 'closed' : 'opened'
  if (changes.assignee_ids !== undefined)
    next.assignees = usersOf(changes.assignee_ids, [...item.assignees, ...(display.assignees ?? [])])
  if (changes.reviewer_ids !== undefined)
    next.reviewers = usersOf(changes.reviewer_ids, [...reviewersOf(item), ...(display.reviewers ?? [])])
  if (changes.milestone_id !== undefined)
    next.milestone =
      changes.milestone_id === null
        ? null
        : (display.milestone ?? {
            id: changes.milestone_id,
            iid: 0,
            title: `Milestone ${changes.milestone_id}`,
            state: 'active',
            due_date: null,
            start_date: null,
          })
  if (changes.due_date !== undefined) next.due_date = changes.due_date
  if (changes.weight !== undefined) next.weight = changes.weight
  if (changes.epic_id !== undefined)
    next.epic =
      changes.epic_id === null
        ? null
        : (display.epic ?? { id: changes.epic_id, iid: undefined, title: `Epic ${changes.epic_id}`, group_id: 0 })
  return next as T
}

/** The part of `changes` that would change `item` as it is on screen; null when none would. */
export function effectiveChanges(item: WorkItem, changes: ItemChanges): ItemChanges | null {
  const out: Record<string, unknown> = {}
  if (changes.title !== undefined && changes.title.trim() !== item.title) out.title = changes.title
  if (changes.description !== undefined && changes.description !== (item.description ?? ''))
    out.description = changes.description
  if (changes.labels !== undefined && !sameLabelSet(exclusiveLabels(changes.labels), item.labels))
    out.labels = changes.labels
  const add = (changes.add_labels ?? []).filter((l) => !hasLabel(item.labels, l))
  const remove = (changes.remove_labels ?? []).filter((l) => hasLabel(item.labels, l))
  if (add.length > 0) out.add_labels = add
  if (remove.length > 0) out.remove_labels = remove
  if (
    changes.assignee_ids !== undefined &&
    !sameIds(
      changes.assignee_ids,
      item.assignees.map((a) => a.id),
    )
  )
    out.assignee_ids = changes.assignee_ids
  if (
    changes.reviewer_ids !== undefined &&
    !sameIds(
      changes.reviewer_ids,
      reviewersOf(item).map((r) => r.id),
    )
  )
    out.reviewer_ids = changes.reviewer_ids
  if (changes.milestone_id !== undefined && changes.milestone_id !== (item.milestone?.id ?? null))
    out.milestone_id = changes.milestone_id
  if (changes.state_event !== undefined && (changes.state_event === 'close') === (item.state === 'opened'))
    out.state_event = changes.state_event
  const issue = item as Issue
  if (changes.due_date !== undefined && changes.due_date !== (issue.due_date ?? null)) out.due_date = changes.due_date
  if (changes.weight !== undefined && changes.weight !== (issue.weight ?? null)) out.weight = changes.weight
  if (changes.epic_id !== undefined && changes.epic_id !== (issue.epic?.id ?? null)) out.epic_id = changes.epic_id
  return Object.keys(out).length === 0 ? null : (out as ItemChanges)
}

function sameLabelSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((l) => hasLabel(b, l))
}

/**
 * The change that puts back what `changes` changed on `before` (the item as it was on screen
 * when the write was made): labels added come off and labels removed (a scoped label replaced
 * included) go back; other fields return to their old values. Null when there is nothing to undo.
 */
export function undoChanges(before: WorkItem, changes: ItemChanges): ItemChanges | null {
  const after = applyChanges(before, changes)
  const out: Record<string, unknown> = {}
  if (changes.title !== undefined) out.title = before.title
  if (changes.description !== undefined) out.description = before.description ?? ''
  const added = after.labels.filter((l) => !hasLabel(before.labels, l))
  const removed = before.labels.filter((l) => !hasLabel(after.labels, l))
  if (added.length > 0) out.remove_labels = added
  if (removed.length > 0) out.add_labels = removed
  if (changes.assignee_ids !== undefined) out.assignee_ids = before.assignees.map((a) => a.id)
  if (changes.reviewer_ids !== undefined) out.reviewer_ids = reviewersOf(before).map((r) => r.id)
  if (changes.milestone_id !== undefined) out.milestone_id = before.milestone?.id ?? null
  if (changes.state_event !== undefined) out.state_event = before.state === 'opened' ? 'reopen' : 'close'
  const issue = before as Issue
  if (changes.due_date !== undefined) out.due_date = issue.due_date ?? null
  if (changes.weight !== undefined) out.weight = issue.weight ?? null
  if (changes.epic_id !== undefined) out.epic_id = issue.epic?.id ?? null
  return Object.keys(out).length === 0 ? null : (out as ItemChanges)
}

/** What the display of an undo needs: the objects the old values were. */
export function undoDisplay(before: WorkItem): ChangeDisplay {
  return {
    assignees: before.assignees,
    reviewers: reviewersOf(before),
    milestone: before.milestone,
    epic: (before as Issue).epic ?? null,
  }
}
