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
  extract(json: JsonObject): Readonly<Record<string, ColumnValue>>
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

export const KINDS: Readonly<Record<ItemKind, KindSpec>> = {
  issue: {
    table: 'issues',
    patchable: true,
    columns: [
      'project_id',
      'iid',
      'title',
      'description',
      'state',
      'confidential',
      'author_id',
      'milestone_id',
      'milestone_title',
      'milestone_due',
      'issue_type',
      'weight',
      'due_date',
      'upvotes',
      'user_notes_count',
      'created_at',
      'updated_at',
      'closed_at',
    ],
    extract: (j) => {
      const m = obj(j, 'milestone')
      return {
        project_id: num(j, 'project_id'),
        iid: num(j, 'iid'),
        title: str(j, 'title') ?? '',
        description: str(j, 'description'),
        state: str(j, 'state') ?? 'opened',
        confidential: int(bool(j, 'confidential')),
        author_id: nestedId(j, 'author'),
        milestone_id: m === null ? null : num(m, 'id'),
        milestone_title: m === null ? null : str(m, 'title'),
        milestone_due: m === null ? null : str(m, 'due_date'),
        issue_type: str(j, 'issue_type'),
        weight: num(j, 'weight'),
        due_date: str(j, 'due_date'),
        upvotes: num(j, 'upvotes') ?? 0,
        user_notes_count: num(j, 'user_notes_count') ?? 0,
        created_at: str(j, 'created_at') ?? '',
        updated_at: str(j, 'updated_at') ?? '',
        closed_at: str(j, 'closed_at'),
      }
    },
  },
  merge_request: {
    table: 'merge_requests',
    patchable: true,
    columns: [
      'project_id',
      'iid',
      'title',
      'description',
      'state',
      'draft',
      'author_id',
      'milestone_id',
      'milestone_title',
      'milestone_due',
      'source_branch',
      'target_branch',
      'source_project_id',
      'upvotes',
      'user_notes_count',
      'created_at',
      'updated_at',
      'merged_at',
      'closed_at',
    ],
    extract: (j) => {
      const m = obj(j, 'milestone')
      return {
        project_id: num(j, 'project_id'),
        iid: num(j, 'iid'),
        title: str(j, 'title') ?? '',
        description: str(j, 'description'),
        state: str(j, 'state') ?? 'opened',
        draft: int(bool(j, 'draft') || bool(j, 'work_in_progress')),
        author_id: nestedId(j, 'author'),
        milestone_id: m === null ? null : num(m, 'id'),
        milestone_title: m === null ? null : str(m, 'title'),
        milestone_due: m === null ? null : str(m, 'due_date'),
        source_branch: str(j, 'source_branch'),
        target_branch: str(j, 'target_branch'),
        source_project_id: num(j, 'source_project_id'),
        upvotes: num(j, 'upvotes') ?? 0,
        user_notes_count: num(j, 'user_notes_count') ?? 0,
        created_at: str(j, 'created_at') ?? '',
        updated_at: str(j, 'updated_at') ?? '',
        merged_at: str(j, 'merged_at'),
        closed_at: str(j, 'closed_at'),
      }
    },
  },
  epic: {
    table: 'epics',
    patchable: true,
    columns: [
      'group_id',
      'iid',
      'title',
      'description',
      'state',
      'confidential',
      'author_id',
      'parent_id',
      'start_date',
      'due_date',
      'upvotes',
      'user_notes_count',
      'created_at',
      'updated_at',
      'closed_at',
    ],
    extract: (j) => ({
      group_id: num(j, 'group_id'),
      iid: num(j, 'iid'),
      title: str(j, 'title') ?? '',
      description: str(j, 'description'),
      state: str(j, 'state') ?? 'opened',
      confidential: int(bool(j, 'confidential')),
      author_id: nestedId(j, 'author'),
      parent_id: num(j, 'parent_id'),
      start_date: str(j, 'start_date'),
      due_date: str(j, 'due_date'),
      upvotes: num(j, 'upvotes') ?? 0,
      user_notes_count: num(j, 'user_notes_count') ?? 0,
      created_at: str(j, 'created_at') ?? '',
      updated_at: str(j, 'updated_at') ?? '',
      closed_at: str(j, 'closed_at'),
    }),
  },
  milestone: {
    table: 'milestones',
    patchable: true,
    columns: [
      'project_id',
      'group_id',
      'iid',
      'title',
      'description',
      'state',
      'start_date',
      'due_date',
      'created_at',
      'updated_at',
    ],
    extract: (j) => ({
      project_id: num(j, 'project_id'),
      group_id: num(j, 'group_id'),
      iid: num(j, 'iid') ?? 0,
      title: str(j, 'title') ?? '',
      description: str(j, 'description'),
      state: str(j, 'state') ?? 'active',
      start_date: str(j, 'start_date'),
      due_date: str(j, 'due_date'),
      created_at: str(j, 'created_at'),
      updated_at: str(j, 'updated_at'),
    }),
  },
  todo: {
    table: 'todos',
    patchable: true,
    columns: [
      'project_id',
      'group_id',
      'target_type',
      'target_id',
      'action_name',
      'state',
      'author_id',
      'created_at',
      'updated_at',
    ],
    extract: (j) => {
      const target = obj(j, 'target')
      return {
        project_id: nestedId(j, 'project'),
        group_id: nestedId(j, 'group'),
        target_type: str(j, 'target_type'),
        target_id: target === null ? null : num(target, 'id'),
        action_name: str(j, 'action_name'),
        state: str(j, 'state') ?? 'pending',
        author_id: nestedId(j, 'author'),
        created_at: str(j, 'created_at') ?? '',
        updated_at: str(j, 'updated_at'),
      }
    },
  },
  note: {
    table: 'notes',
    patchable: true,
    columns: ['noteable_kind', 'noteable_id', 'author_id', 'body', 'system', 'created_at', 'updated_at'],
    extract: (j) => ({
      noteable_kind: noteableKindOf(str(j, 'noteable_type')),
      noteable_id: num(j, 'noteable_id'),
      author_id: nestedId(j, 'author'),
      body: str(j, 'body') ?? '',
      system: int(bool(j, 'system')),
      created_at: str(j, 'created_at') ?? '',
      updated_at: str(j, 'updated_at'),
    }),
  },
  project: {
    table: 'projects',
    patchable: false,
    columns: ['name', 'path_with_namespace', 'namespace_id', 'namespace_full_path', 'archived', 'last_activity_at'],
    extract: (j) => {
      const ns = obj(j, 'namespace')
      return {
        name: str(j, 'name') ?? '',
        path_with_namespace: str(j, 'path_with_namespace') ?? '',
        namespace_id: ns === null ? null : num(ns, 'id'),
        namespace_full_path: ns === null ? null : str(ns, 'full_path'),
        archived: int(bool(j, 'archived')),
        last_activity_at: str(j, 'last_activity_at'),
      }
    },
  },
  group: {
    table: 'groups',
    patchable: false,
    columns: ['name', 'full_path', 'parent_id'],
    extract: (j) => ({
      name: str(j, 'name') ?? '',
      full_path: str(j, 'full_path') ?? '',
      parent_id: num(j, 'parent_id'),
    }),
  },
  user: {
    table: 'users',
    patchable: false,
    columns: ['username', 'name', 'state'],
    extract: (j) => ({ username: str(j, 'username') ?? '', name: str(j, 'name') ?? '', state: str(j, 'state') }),
  },
}
