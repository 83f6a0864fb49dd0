import { labelNames } from '../../../shared/labels'
import { arr, bool, isRecord, nestedId, num, obj, str, type JsonObject } from './json'

/** The cached resources that have rows of their own. */
export type ItemKind = 'issue' | 'merge_request' | 'epic' | 'milestone' | 'todo' | 'note' | 'project' | 'group' | 'user'

/** The resources with notes, labels, assignees and full-text search. */
export type NoteableKind = 'issue' | 'merge_request' | 'epic'

export const NOTEABLE_KINDS: readonly NoteableKind[] = ['issue', 'merge_request', 'epic']

export type ColumnValue = string | number | null

export interface KindSpec {
  readonly table: string
  /** Columns filled from the JSON, besides acct, id, json and base_json. */
  readonly columns: readonly string[]
  /** Whether the table has `base_json` (the outbox may patch its rows). */
  readonly patchable: boolean
  /** The columns' values for an item, in `columns` order (written straight into the row's insert). */
  values(json: JsonObject): ColumnValue[]
}

/** How one column's value is read from an item's JSON. */
type ColumnReader = (json: JsonObject) => ColumnValue

/**
 * A kind whose columns are the readers' keys, in their order. The values come as one array a
 * row, with no object keyed by column in between: a first sync writes some 12k rows.
 */
function kindSpec(table: string, patchable: boolean, readers: Readonly<Record<string, ColumnReader>>): KindSpec {
  const read = Object.values(readers)
  return {
    table,
    patchable,
    columns: Object.keys(readers),
    values: (json) => read.map((column) => column(json)),
  }
}

const int = (b: boolean): number => (b ? 1 : 0)

/** The titles of an item's `labels` (titles, or label objects with `with_labels_details=true`). */
export function labelTitles(json: JsonObject): string[] {
  return labelNames(json.labels)
}

function userIds(json: JsonObject, key: string): number[] {
  const ids: number[] = []
  for (const u of arr(json, key)) if (isRecord(u) && typeof u.id === 'number') ids.push(u.id)
  return ids
}

/** Assignees (and reviewers of merge requests) of an item, for the item_users table. */
export function itemUsers(kind: NoteableKind, json: JsonObject): { role: 'assignee' | 'reviewer'; userId: number }[] {
  const assignees = userIds(json, 'assignees')
  const single = nestedId(json, 'assignee')
  if (assignees.length === 0 && single !== null) assignees.push(single)
  const out: { role: 'assignee' | 'reviewer'; userId: number }[] = assignees.map((userId) => ({
    role: 'assignee' as const,
    userId,
  }))
  if (kind === 'merge_request') for (const userId of userIds(json, 'reviewers')) out.push({ role: 'reviewer', userId })
  return out
}

/** Every user object embedded in an API object (author, assignees, reviewers, closed_by…), for the users table. */
export function embeddedUsers(json: JsonObject): JsonObject[] {
  const out: JsonObject[] = []
  const add = (u: unknown): void => {
    if (isRecord(u) && typeof u.id === 'number' && typeof u.username === 'string') out.push(u)
  }
  for (const key of ['author', 'assignee', 'closed_by', 'merged_by', 'merge_user', 'updated_by']) add(json[key])
  for (const key of ['assignees', 'reviewers']) for (const u of arr(json, key)) add(u)
  return out
}

const NOTEABLE_TYPES: Readonly<Record<string, NoteableKind>> = {
  Issue: 'issue',
  MergeRequest: 'merge_request',
  Epic: 'epic',
}

export function noteableKindOf(type: string | null): NoteableKind | null {
  return type === null ? null : (NOTEABLE_TYPES[type] ?? null)
}

/** A field of a nested object (`milestone.title`), or null. */
function nestedStr(json: JsonObject, key: string, field: string): string | null {
  const nested = obj(json, key)
  return nested === null ? null : str(nested, field)
}

/** The columns issues, merge requests and epics share: what names an item and where it stands. */
const WORK_ITEM_COLUMNS: Readonly<Record<string, ColumnReader>> = {
  iid: (j) => num(j, 'iid'),
  title: (j) => str(j, 'title') ?? '',
  description: (j) => str(j, 'description'),
  state: (j) => str(j, 'state') ?? 'opened',
  author_id: (j) => nestedId(j, 'author'),
  upvotes: (j) => num(j, 'upvotes') ?? 0,
  user_notes_count: (j) => num(j, 'user_notes_count') ?? 0,
  created_at: (j) => str(j, 'created_at') ?? '',
  updated_at: (j) => str(j, 'updated_at') ?? '',
  closed_at: (j) => str(j, 'closed_at'),
}

/** The milestone columns of issues and merge requests. */
const MILESTONE_COLUMNS: Readonly<Record<string, ColumnReader>> = {
  milestone_id: (j) => nestedId(j, 'milestone'),
  milestone_title: (j) => nestedStr(j, 'milestone', 'title'),
  milestone_due: (j) => nestedStr(j, 'milestone', 'due_date'),
}

/** The kind of a note's item (null when it is not an issue, merge request or epic). */
export function noteParentKind(note: JsonObject): NoteableKind | null {
  return noteableKindOf(str(note, 'noteable_type'))
}

export const KINDS: Readonly<Record<ItemKind, KindSpec>> = {
  issue: kindSpec('issues', true, {
    ...WORK_ITEM_COLUMNS,
    project_id: (j) => num(j, 'project_id'),
    confidential: (j) => int(bool(j, 'confidential')),
    ...MILESTONE_COLUMNS,
    issue_type: (j) => str(j, 'issue_type'),
    weight: (j) => num(j, 'weight'),
    due_date: (j) => str(j, 'due_date'),
  }),
  merge_request: kindSpec('merge_requests', true, {
    ...WORK_ITEM_COLUMNS,
    project_id: (j) => num(j, 'project_id'),
    draft: (j) => int(bool(j, 'draft') || bool(j, 'work_in_progress')),
    ...MILESTONE_COLUMNS,
    source_branch: (j) => str(j, 'source_branch'),
    target_branch: (j) => str(j, 'target_branch'),
    source_project_id: (j) => num(j, 'source_project_id'),
    merged_at: (j) => str(j, 'merged_at'),
  }),
  epic: kindSpec('epics', true, {
    ...WORK_ITEM_COLUMNS,
    group_id: (j) => num(j, 'group_id'),
    confidential: (j) => int(bool(j, 'confidential')),
    parent_id: (j) => num(j, 'parent_id'),
    start_date: (j) => str(j, 'start_date'),
    due_date: (j) => str(j, 'due_date'),
  }),
  milestone: kindSpec('milestones', true, {
    project_id: (j) => num(j, 'project_id'),
    group_id: (j) => num(j, 'group_id'),
    iid: (j) => num(j, 'iid') ?? 0,
    title: (j) => str(j, 'title') ?? '',
    description: (j) => str(j, 'description'),
    state: (j) => str(j, 'state') ?? 'active',
    start_date: (j) => str(j, 'start_date'),
    due_date: (j) => str(j, 'due_date'),
    created_at: (j) => str(j, 'created_at'),
    updated_at: (j) => str(j, 'updated_at'),
  }),
  todo: kindSpec('todos', true, {
    project_id: (j) => nestedId(j, 'project'),
    group_id: (j) => nestedId(j, 'group'),
    target_type: (j) => str(j, 'target_type'),
    target_id: (j) => nestedId(j, 'target'),
    action_name: (j) => str(j, 'action_name'),
    state: (j) => str(j, 'state') ?? 'pending',
    author_id: (j) => nestedId(j, 'author'),
    created_at: (j) => str(j, 'created_at') ?? '',
    updated_at: (j) => str(j, 'updated_at'),
  }),
  note: kindSpec('notes', true, {
    noteable_kind: noteParentKind,
    noteable_id: (j) => num(j, 'noteable_id'),
    author_id: (j) => nestedId(j, 'author'),
    body: (j) => str(j, 'body') ?? '',
    system: (j) => int(bool(j, 'system')),
    created_at: (j) => str(j, 'created_at') ?? '',
    updated_at: (j) => str(j, 'updated_at'),
  }),
  project: kindSpec('projects', false, {
    name: (j) => str(j, 'name') ?? '',
    path_with_namespace: (j) => str(j, 'path_with_namespace') ?? '',
    namespace_id: (j) => nestedId(j, 'namespace'),
    namespace_full_path: (j) => nestedStr(j, 'namespace', 'full_path'),
    archived: (j) => int(bool(j, 'archived')),
    last_activity_at: (j) => str(j, 'last_activity_at'),
  }),
  group: kindSpec('groups', false, {
    name: (j) => str(j, 'name') ?? '',
    full_path: (j) => str(j, 'full_path') ?? '',
    parent_id: (j) => num(j, 'parent_id'),
  }),
  user: kindSpec('users', false, {
    username: (j) => str(j, 'username') ?? '',
    name: (j) => str(j, 'name') ?? '',
    state: (j) => str(j, 'state'),
  }),
}
