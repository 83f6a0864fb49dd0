import type { Epic, EpicIssueLink, LinkedEpic } from '../../../shared/api/epic'
import type { Issue, IssueEpic } from '../../../shared/api/issue'
import type { EpicIssueRow, EpicRow, InheritedDates } from './queries'
import type { LabelRow } from '../labels'
import type { UserRow } from '../../platform/db/rows'
import { labelBasicEntity } from '../labels'
import { userRef } from '../users'

/** Where an epic is requested from, for `references.relative`. */
export type EpicOrigin = { readonly kind: 'group'; readonly groupId: number } | { readonly kind: 'none' }

/** A group as epic references and URLs need it. */
export interface EpicGroupPath {
  readonly full_path: string
  readonly path: string
  readonly parent_id: number | null
}

/** Everything a page of epics needs beyond the rows, loaded in a fixed number of queries. */
export interface EpicPageData {
  readonly baseUrl: string
  readonly origin: EpicOrigin
  readonly withLabelsDetails: boolean
  readonly groups: ReadonlyMap<number, EpicGroupPath>
  readonly users: ReadonlyMap<number, UserRow>
  readonly labels: ReadonlyMap<number, readonly LabelRow[]>
  readonly votes: ReadonlyMap<number, { readonly upvotes: number; readonly downvotes: number }>
  readonly dates: ReadonlyMap<number, InheritedDates>
  /** Parents of the page's epics (for parent_iid and the parent link). */
  readonly parents: ReadonlyMap<number, EpicRow>
  /** Whether the caller may edit epics of this group: the fixed-date fields are shown only then. */
  canEdit(groupId: number): boolean
  /** Only for single-epic responses. */
  readonly subscribed?: boolean
  /** `reference` in full form (the epic embedded in an epic-issue link). */
  readonly fullReference?: boolean
}

/** `&5`, or `group/path&5` with the group's full path. */
export function epicReference(epic: Pick<EpicRow, 'iid'>, groupFullPath?: string): string {
  return `${groupFullPath ?? ''}&${epic.iid}`
}

/** Relative reference: bare within its group, the group path from the parent group, else the full path. */
function relativeReference(epic: EpicRow, group: EpicGroupPath, origin: EpicOrigin): string {
  if (origin.kind === 'group' && origin.groupId === epic.group_id) return epicReference(epic)
  if (origin.kind === 'group' && origin.groupId === group.parent_id) return epicReference(epic, group.path)
  return epicReference(epic, group.full_path)
}

/** `${base}/groups/${group}/-/epics/${iid}` */
export function epicWebUrl(baseUrl: string, groupFullPath: string, iid: number): string {
  return `${baseUrl}/groups/${groupFullPath}/-/epics/${iid}`
}

/** The start and due dates an epic shows: fixed ones when fixed, inherited ones otherwise. */
export function effectiveDates(
  epic: EpicRow,
  inherited: InheritedDates | undefined,
): { start: string | null; due: string | null } {
  return {
    start: epic.start_date_is_fixed ? epic.start_date_fixed : (inherited?.start ?? null),
    due: epic.due_date_is_fixed ? epic.due_date_fixed : (inherited?.due ?? null),
  }
}

/**
 * GitLab's Epic entity. `start_date`/`due_date` (and the deprecated `end_date`) are the effective
 * dates; `*_from_inherited_source` (and the deprecated `*_from_milestones`) what the epic's issues'
 * milestones and child epics give; `*_is_fixed`/`*_fixed` appear only for callers who may edit.
 */
export function epicEntity(epic: EpicRow, d: EpicPageData): Epic {
  const group = d.groups.get(epic.group_id) as EpicGroupPath
  const parent = epic.parent_id !== null ? d.parents.get(epic.parent_id) : undefined
  const parentGroup = parent ? d.groups.get(parent.group_id) : undefined
  const inherited = d.dates.get(epic.id) ?? { start: null, due: null }
  const dates = effectiveDates(epic, inherited)
  const editable = d.canEdit(epic.group_id)
  const author = d.users.get(epic.author_id)
  const labels = d.labels.get(epic.id) ?? []
  const votes = d.votes.get(epic.id) ?? { upvotes: 0, downvotes: 0 }
  const api = `${d.baseUrl}/api/v4/groups/${epic.group_id}`
  return {
    id: epic.id,
    iid: epic.iid,
    group_id: epic.group_id,
    parent_id: epic.parent_id,
    parent_iid: parent?.iid ?? null,
    title: epic.title,
    description: epic.description,
    state: epic.state,
    confidential: epic.confidential === 1,
    web_url: epicWebUrl(d.baseUrl, group.full_path, epic.iid),
    reference: d.fullReference ? epicReference(epic, group.full_path) : epicReference(epic),
    references: {
      short: epicReference(epic),
      relative: relativeReference(epic, group, d.origin),
      full: epicReference(epic, group.full_path),
    },
    author: author ? userRef(author, d.baseUrl) : null,
    start_date: dates.start,
    ...(editable
      ? { start_date_is_fixed: epic.start_date_is_fixed === 1, start_date_fixed: epic.start_date_fixed }
      : {}),
    start_date_from_milestones: inherited.start,
    start_date_from_inherited_source: inherited.start,
    end_date: dates.due,
    due_date: dates.due,
    ...(editable ? { due_date_is_fixed: epic.due_date_is_fixed === 1, due_date_fixed: epic.due_date_fixed } : {}),
    due_date_from_milestones: inherited.due,
    due_date_from_inherited_source: inherited.due,
    created_at: epic.created_at,
    updated_at: epic.updated_at,
    closed_at: epic.closed_at,
    labels: d.withLabelsDetails ? labels.map(labelBasicEntity) : labels.map((l) => l.title),
    upvotes: votes.upvotes,
    downvotes: votes.downvotes,
    ...(d.subscribed !== undefined ? { subscribed: d.subscribed } : {}),
    _links: {
      self: `${api}/epics/${epic.iid}`,
      epic_issues: `${api}/epics/${epic.iid}/issues`,
      group: api,
      parent: parent && parentGroup ? `${d.baseUrl}/api/v4/groups/${parent.group_id}/epics/${parent.iid}` : null,
    },
  }
}

/** GitLab's EpicIssueLink entity: the link, its epic (full reference) and its issue. */
export function epicIssueLinkEntity(link: EpicIssueRow, epic: Epic, issue: Issue): EpicIssueLink {
  return { id: link.id, relative_position: link.relative_position, epic, issue }
}

/** GitLab's LinkedEpic entity (a child epic created under a parent). */
export function linkedEpicEntity(
  epic: EpicRow,
  x: {
    readonly baseUrl: string
    readonly group: EpicGroupPath
    readonly parent: EpicRow
    readonly parentGroup: EpicGroupPath
    readonly hasChildren: boolean
    readonly hasIssues: boolean
  },
): LinkedEpic {
  return {
    id: epic.id,
    iid: epic.iid,
    title: epic.title,
    group_id: epic.group_id,
    parent_id: epic.parent_id,
    has_children: x.hasChildren,
    has_issues: x.hasIssues,
    reference: epic.group_id === x.parent.group_id ? epicReference(epic) : epicReference(epic, x.group.full_path),
    url: epicWebUrl(x.baseUrl, x.group.full_path, epic.iid),
    relation_url: `${epicWebUrl(x.baseUrl, x.parentGroup.full_path, x.parent.iid)}/links/${epic.id}`,
  }
}

/** The `epic` object an issue embeds (GitLab's EpicBaseEntity): `url` is a path, as GitLab gives it. */
export function issueEpicRef(
  epic: Pick<EpicRow, 'id' | 'iid' | 'title' | 'group_id'>,
  groupFullPath: string,
): IssueEpic {
  return {
    id: epic.id,
    iid: epic.iid,
    title: epic.title,
    url: `/groups/${groupFullPath}/-/epics/${epic.iid}`,
    group_id: epic.group_id,
  }
}
