import type { ItemChanges, ItemFields } from '../../../shared/ipc/outbox'

/**
 * The fields of an issue or merge request that queued writes set, read from the API's JSON,
 * and the comparisons that decide whether a write is already applied, still to send, or in
 * conflict with a change made on the server since.
 */

/** An issue or merge request as the API returns it (only what the outbox reads). */
export interface ItemJson {
  readonly id?: number
  readonly iid?: number
  readonly created_at?: string
  readonly target_branch?: string
  readonly updated_at?: string
  readonly title?: string
  readonly description?: string | null
  readonly state?: string
  readonly labels?: readonly (string | { readonly name: string })[]
  readonly assignees?: readonly { readonly id: number }[]
  readonly assignee?: { readonly id: number } | null
  readonly reviewers?: readonly { readonly id: number }[]
  readonly milestone?: { readonly id: number } | null
  readonly time_stats?: { readonly time_estimate?: number; readonly total_time_spent?: number }
  readonly subscribed?: boolean
  readonly due_date?: string | null
  readonly weight?: number | null
  readonly epic?: { readonly id: number } | null
}

/** The item's current values of every field a write can set, plus its `updated_at`. */
export interface ItemSnapshot {
  readonly updatedAt: string | null
  readonly fields: Required<ItemFields>
  readonly subscribed: boolean | null
}

export function snapshotOf(item: ItemJson): ItemSnapshot {
  const labels = (item.labels ?? []).map((l) => (typeof l === 'string' ? l : l.name))
  const assignees =
    item.assignees !== undefined ? item.assignees.map((a) => a.id) : item.assignee ? [item.assignee.id] : []
  return {
    updatedAt: item.updated_at ?? null,
    fields: {
      title: item.title ?? '',
      description: item.description ?? '',
      labels,
      assignee_ids: assignees,
      reviewer_ids: (item.reviewers ?? []).map((r) => r.id),
      milestone_id: item.milestone?.id ?? null,
      state: item.state ?? 'opened',
      time_estimate: item.time_stats?.time_estimate ?? 0,
      due_date: item.due_date ?? null,
      weight: item.weight ?? null,
      epic_id: item.epic?.id ?? null,
    },
    subscribed: item.subscribed ?? null,
  }
}

export type FieldName = keyof ItemFields

/** Title trimmed, labels trimmed and without case-insensitive duplicates: the form the server stores. */
export function normalizeChanges(changes: ItemChanges): ItemChanges {
  const labels = (list: readonly string[] | undefined): readonly string[] | undefined => {
    if (list === undefined) return undefined
    const out: string[] = []
    for (const l of list.map((s) => s.trim()).filter((s) => s !== ''))
      if (!out.some((o) => o.toLowerCase() === l.toLowerCase())) out.push(l)
    return out
  }
  const out: { -readonly [K in keyof ItemChanges]: ItemChanges[K] } = { ...changes }
  if (changes.title !== undefined) out.title = changes.title.trim()
  if (changes.labels !== undefined) out.labels = labels(changes.labels)
  if (changes.add_labels !== undefined) out.add_labels = labels(changes.add_labels)
  if (changes.remove_labels !== undefined) out.remove_labels = labels(changes.remove_labels)
  if (changes.assignee_ids !== undefined) out.assignee_ids = [...new Set(changes.assignee_ids)]
  if (changes.reviewer_ids !== undefined) out.reviewer_ids = [...new Set(changes.reviewer_ids)]
  return out
}

/** The values an update sets outright (label deltas excluded: they apply to whatever is there). */
export function desiredFields(changes: ItemChanges): ItemFields {
  const out: { -readonly [K in FieldName]?: ItemFields[K] } = {}
  if (changes.title !== undefined) out.title = changes.title
  if (changes.description !== undefined) out.description = changes.description
  if (changes.labels !== undefined) out.labels = changes.labels
  if (changes.assignee_ids !== undefined) out.assignee_ids = changes.assignee_ids
  if (changes.reviewer_ids !== undefined) out.reviewer_ids = changes.reviewer_ids
  if (changes.milestone_id !== undefined) out.milestone_id = changes.milestone_id
  if (changes.state_event !== undefined) out.state = changes.state_event === 'close' ? 'closed' : 'opened'
  if (changes.due_date !== undefined) out.due_date = changes.due_date
  if (changes.weight !== undefined) out.weight = changes.weight
  if (changes.epic_id !== undefined) out.epic_id = changes.epic_id
  return out
}

/** The base values of the fields a write sets, read from the item it was made against. */
export function baseFields(fields: ItemFields, from: Required<ItemFields>): ItemFields {
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(fields) as FieldName[]) out[key] = from[key]
  return out as ItemFields
}

const lower = (list: readonly string[]): string[] => list.map((s) => s.toLowerCase()).sort()

/** Field equality as the server means it: label titles case-insensitively and unordered, ids unordered. */
export function sameValue(field: FieldName, a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return a === b
  switch (field) {
    case 'labels':
      return JSON.stringify(lower(a as string[])) === JSON.stringify(lower(b as string[]))
    case 'assignee_ids':
    case 'reviewer_ids':
      return (
        JSON.stringify([...(a as number[])].sort((x, y) => x - y)) ===
        JSON.stringify([...(b as number[])].sort((x, y) => x - y))
      )
    case 'description':
      return (a ?? '') === (b ?? '')
    default:
      return a === b
  }
}

/** Whether the label deltas of `changes` hold in `labels`. */
export function labelDeltasApplied(changes: ItemChanges, labels: readonly string[]): boolean {
  const have = new Set(lower(labels))
  return (
    (changes.add_labels ?? []).every((l) => have.has(l.toLowerCase())) &&
    (changes.remove_labels ?? []).every((l) => !have.has(l.toLowerCase()))
  )
}

export interface Classification {
  /** Fields the server already has as this write wants them. */
  readonly applied: readonly FieldName[]
  /** Fields to send: unchanged on the server since the base (or without a base). */
  readonly toSend: readonly FieldName[]
  /** Fields changed on the server since the base, to something other than what this write wants. */
  readonly conflicting: readonly FieldName[]
  /** Whether add_labels/remove_labels still need sending. */
  readonly deltasToSend: boolean
}

/**
 * Compares a write against the server's current item, field by field: a field the server
 * already has as wanted is applied; one still equal to the base is sent; one changed on the
 * server to something else is a conflict. Fields without a recorded base are sent.
 */
export function classify(changes: ItemChanges, base: ItemFields | null, remote: Required<ItemFields>): Classification {
  const fields = classifyFields(desiredFields(changes), base, remote)
  const hasDeltas = changes.add_labels !== undefined || changes.remove_labels !== undefined
  return { ...fields, deltasToSend: hasDeltas && !labelDeltasApplied(changes, remote.labels) }
}

/** `classify` for any set of wanted field values (an update's, or a time estimate's). */
export function classifyFields(
  wanted: ItemFields,
  base: ItemFields | null,
  remote: Required<ItemFields>,
): Classification {
  const applied: FieldName[] = []
  const toSend: FieldName[] = []
  const conflicting: FieldName[] = []
  for (const field of Object.keys(wanted) as FieldName[]) {
    const want = wanted[field]
    const now = remote[field]
    if (sameValue(field, now, want)) applied.push(field)
    else if (base === null || base[field] === undefined || sameValue(field, now, base[field])) toSend.push(field)
    else conflicting.push(field)
  }
  return { applied, toSend, conflicting, deltasToSend: false }
}

/** The PUT body for the fields still to send (API parameter names; a null milestone or epic is sent as 0, a cleared due date or weight as null). */
export function updateBody(changes: ItemChanges, c: Classification): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (const field of c.toSend) {
    switch (field) {
      case 'state':
        body.state_event = changes.state_event
        break
      case 'milestone_id':
        body.milestone_id = changes.milestone_id ?? 0
        break
      case 'epic_id':
        // 0 takes the issue out of its epic, as GitLab reads it.
        body.epic_id = changes.epic_id ?? 0
        break
      default:
        body[field] = changes[field as keyof ItemChanges]
    }
  }
  if (c.deltasToSend) {
    if (changes.add_labels !== undefined) body.add_labels = changes.add_labels
    if (changes.remove_labels !== undefined) body.remove_labels = changes.remove_labels
  }
  return body
}

/** `{title: 'x'}` style subset of the remote fields, for a conflict's `remote`. */
export function pick(fields: Required<ItemFields>, keys: readonly FieldName[]): ItemFields {
  const out: Record<string, unknown> = {}
  for (const key of keys) out[key] = fields[key]
  return out as ItemFields
}

/** Readable field names for failure reasons. */
export const FIELD_LABELS: Readonly<Record<FieldName, string>> = {
  title: 'title',
  description: 'description',
  labels: 'labels',
  assignee_ids: 'assignees',
  reviewer_ids: 'reviewers',
  milestone_id: 'milestone',
  state: 'state',
  time_estimate: 'time estimate',
  due_date: 'due date',
  weight: 'weight',
  epic_id: 'epic',
}
