import type { Caller } from '../../platform/caller'
import type { Db } from '../../platform/db/connection'
import { scopedLabelKey } from '../../../shared/labels'
import {
  deleteLabelRow,
  findLabelInScope,
  findLabelTitleInScope,
  insertLabel,
  labelCounts,
  labelTitlesById,
  mergeLabelInto,
  sameTitledProjectLabels,
  subscribedLabelIds,
  updateLabelRow,
  type IssueReader,
  type LabelRow,
  type LabelScope,
} from './queries'
import { readableProjects } from '../../platform/auth/issue-read-queries'
import { findNamespaceById, groupAndDescendantIds, namespaceAncestors } from '../namespaces'
import { projectsInNamespaces } from '../projects'
import type { NamespaceRow, ProjectRow } from '../../platform/db/rows'
import type { Label } from '../../../shared/api/label'
import { labelEntity } from './entity'
import { conflict, missingParam, noneGiven, notFound, validationFailed } from '../../platform/http/errors'
import { normalizeColor } from './colors'
import { checkLabelDescription, checkLengths, TEXT_LIMITS } from '../../platform/text/limits'

/** The include flags of the group label endpoints, with GitLab's defaults applied by the caller. */
export interface GroupLabelFlags {
  readonly includeAncestorGroups: boolean
  readonly includeDescendantGroups: boolean
  readonly onlyGroupLabels: boolean
}

/** Group ids, nearest first, whose labels a project sees: its group, then (optionally) the group's ancestors. */
function projectGroupChain(db: Db, project: ProjectRow, includeAncestors: boolean): number[] {
  const ns = findNamespaceById(db, project.namespace_id)
  if (!ns || ns.kind !== 'group') return []
  return includeAncestors ? [ns.id, ...namespaceAncestors(db, ns.id).map((g) => g.id)] : [ns.id]
}

/** Labels a project sees: its own and its group's (and the group's ancestors' unless disabled). */
export function projectLabelScope(
  caller: Caller,
  project: ProjectRow,
  includeAncestorGroups = true,
): LabelScope & { readonly order: readonly number[] } {
  const chain = projectGroupChain(caller.db, project, includeAncestorGroups)
  return { groupIds: chain, projectIds: [project.id], order: chain }
}

/**
 * Labels a group sees: its own, its ancestors' (default), readable descendant groups' when asked,
 * and the labels of its readable projects when `only_group_labels` is false.
 */
export function groupLabelScope(
  caller: Caller,
  group: NamespaceRow,
  flags: GroupLabelFlags,
): LabelScope & { readonly order: readonly number[] } {
  const db = caller.db
  const order = [group.id, ...(flags.includeAncestorGroups ? namespaceAncestors(db, group.id).map((g) => g.id) : [])]
  const descendants = flags.includeDescendantGroups
    ? groupAndDescendantIds(db, group.id).filter((id) => id !== group.id && readableGroup(caller, id))
    : []
  const groupIds = [...order, ...descendants]
  let projectIds: number[] = []
  if (!flags.onlyGroupLabels) {
    const owners = [group.id, ...descendants]
    projectIds = projectsInNamespaces(db, owners)
      .filter((p) => caller.perms.canReadProject(p))
      .map((p) => p.id)
  }
  return { groupIds, projectIds, order }
}

function readableGroup(caller: Caller, id: number): boolean {
  const g = findNamespaceById(caller.db, id)
  return g !== undefined && caller.perms.canReadGroup(g)
}

/**
 * Scoped labels are exclusive, as in GitLab's editions with scoped labels (Burrow Server reports
 * one): an issue, merge request or epic keeps one label per scope. When a change adds a label to a
 * scope that then holds several, the one added last stays and the others of that scope go; scopes
 * the change added nothing to are left as they were.
 */
export function keepOneLabelPerScope(db: Db, currentIds: readonly number[], nextIds: readonly number[]): number[] {
  const ids = [...new Set(nextIds)]
  const added = ids.filter((id) => !currentIds.includes(id))
  if (added.length === 0) return ids
  const titles = labelTitlesById(db, ids)
  const winner = new Map<string, number>()
  for (const id of added) {
    const key = scopedLabelKey(titles.get(id) ?? '')
    if (key !== undefined) winner.set(key, id)
  }
  return ids.filter((id) => {
    const key = scopedLabelKey(titles.get(id) ?? '')
    return key === undefined || !winner.has(key) || winner.get(key) === id
  })
}

/** A label in the scope by id or title, or 404 `Label Not Found`. */
export function requireLabel(
  caller: Caller,
  scope: LabelScope & { readonly order?: readonly number[] },
  idOrTitle: string,
): LabelRow {
  const label = findLabelInScope(caller.db, scope, idOrTitle, scope.order ?? [])
  if (!label) throw notFound('Label')
  return label
}

/** The issues the caller reads, for counts: every readable project's, with the confidential rule; null for administrators. */
function issueReaderOf(caller: Caller): IssueReader | null {
  const user = caller.user
  if (caller.perms.isAdmin) return null
  const viewer = user ? { id: user.id, isAdmin: false, external: user.external === 1 } : null
  const { ids, reporterIds } = readableProjects(caller.db, viewer, { nonArchived: false })
  return { projectIds: ids, viewerId: user?.id ?? null, reporterProjectIds: reporterIds }
}

/** Serializes labels for the caller: subscriptions (and counts when asked) fetched once for the page. */
export function presentLabels(
  caller: Caller,
  rows: readonly LabelRow[],
  options: { readonly withCounts: boolean; readonly forProject: boolean },
): Label[] {
  const db = caller.db
  const ids = rows.map((r) => r.id)
  const subscribed = subscribedLabelIds(db, caller.user?.id ?? null, ids)
  const counts = options.withCounts ? labelCounts(db, ids, issueReaderOf(caller)) : undefined
  return rows.map((r) =>
    labelEntity(r, { subscribed: subscribed.has(r.id), counts: counts?.get(r.id), forProject: options.forProject }),
  )
}

function colorOf(raw: string): string {
  const color = normalizeColor(raw)
  if (!color) throw validationFailed({ color: ['must be a valid color code'] })
  return color
}

function titleOf(raw: string): string {
  const title = raw.trim()
  if (title === '') throw validationFailed({ title: ["can't be blank"] })
  // GitLab's label title format forbids commas: label lists are comma-separated everywhere.
  if (title.includes(',')) throw validationFailed({ title: ['is invalid'] })
  checkLengths({ title }, TEXT_LIMITS.label)
  return title
}

function priorityOf(raw: unknown): number | null | undefined {
  if (raw === undefined) return undefined
  if (raw === null || raw === '') return null
  const n = typeof raw === 'object' ? Number.NaN : Number(raw)
  if (!Number.isInteger(n) || n < 0) throw validationFailed({ priority: ['must be greater than or equal to 0'] })
  return n
}

/** Parameters of label creation as the routes receive them. */
export interface LabelCreateParams {
  readonly name?: string
  readonly color?: string
  readonly description?: string | null
  readonly priority?: unknown
}

/**
 * Creates a label owned by `owner`. `visible` is the scope a duplicate is looked for in: GitLab
 * refuses a title the owner already sees (its own or an ancestor group's) with 409.
 */
export function createLabel(
  caller: Caller,
  owner: { readonly groupId?: number; readonly projectId?: number },
  visible: LabelScope,
  params: LabelCreateParams,
): LabelRow {
  const missing = [params.name === undefined ? 'name' : null, params.color === undefined ? 'color' : null].filter(
    (p): p is string => p !== null,
  )
  if (missing.length > 0) throw missingParam(...missing)
  const title = titleOf(params.name as string)
  const color = colorOf(params.color as string)
  checkLabelDescription(params.description)
  const db = caller.db
  if (findLabelTitleInScope(db, visible, title)) throw conflict('Label already exists')
  const priority = owner.projectId !== undefined ? priorityOf(params.priority) : undefined
  return insertLabel(db, {
    title,
    color,
    description: params.description ?? null,
    groupId: owner.groupId,
    projectId: owner.projectId,
    priority,
  })
}

/** Parameters of a label update. */
export interface LabelUpdateParams {
  readonly new_name?: string
  readonly color?: string
  readonly description?: string | null
  readonly priority?: unknown
}

/** Updates a label; 400 when none of the updatable parameters was given (their names listed as GitLab does). */
export function updateLabel(caller: Caller, label: LabelRow, params: LabelUpdateParams, forProject: boolean): LabelRow {
  const names = forProject ? ['new_name', 'color', 'description', 'priority'] : ['new_name', 'color', 'description']
  const given = names.filter((n) => (params as Record<string, unknown>)[n] !== undefined)
  if (given.length === 0) throw noneGiven(names)
  const db = caller.db
  const title = params.new_name !== undefined ? titleOf(params.new_name) : undefined
  checkLabelDescription(params.description)
  if (title !== undefined && title.toLowerCase() !== label.title.toLowerCase()) {
    const owner: LabelScope = {
      groupIds: label.group_id !== null ? [label.group_id] : [],
      projectIds: label.project_id !== null ? [label.project_id] : [],
    }
    if (findLabelTitleInScope(db, owner, title)) throw validationFailed({ title: ['has already been taken'] })
  }
  return updateLabelRow(db, label.id, {
    title,
    color: params.color !== undefined ? colorOf(params.color) : undefined,
    description: params.description,
    priority: forProject ? priorityOf(params.priority) : undefined,
  })
}

/** Deletes a label (its links and subscriptions go with it). */
export function destroyLabel(caller: Caller, label: LabelRow): void {
  deleteLabelRow(caller.db, label.id)
}

/**
 * Promotes a project label to a label of the project's group. Same-titled labels of the group's
 * other projects are merged into it (their links move over), as GitLab's promotion does, so the
 * group ends up with one label where its projects had several.
 */
export function promoteLabel(caller: Caller, group: NamespaceRow, label: LabelRow): LabelRow {
  const db = caller.db
  return db.transaction(() => {
    const existing = findLabelTitleInScope(db, { groupIds: [group.id], projectIds: [] }, label.title)
    const target = existing ?? updateLabelRow(db, label.id, { group_id: group.id, project_id: null, priority: null })
    const projectIds = projectsInNamespaces(db, groupAndDescendantIds(db, group.id)).map((p) => p.id)
    for (const twin of sameTitledProjectLabels(db, label.title, target.id, projectIds)) {
      mergeLabelInto(db, twin.id, target.id)
      deleteLabelRow(db, twin.id)
    }
    return target
  })()
}
