import type { Epic, EpicIssue, EpicIssueLink, LinkedEpic } from '../../../shared/api/epic'
import type { IssueEpic } from '../../../shared/api/issue'
/**
 * Epics (PREMIUM): group-level issuables holding issues and child epics. The writes that seeding
 * and other families call take the database (`createEpic`, `updateEpic`, `linkIssue`…); the
 * request-level helpers below them parse API parameters and check the caller's rights first.
 */

import type { Caller } from '../../platform/caller'
import { canAdminEpics, canReadEpicWith, epicsEnabled, requireAdminEpics, requireEpicsFeature } from './policy'
import { AccessLevel } from '../../platform/auth/access'
import type { Db } from '../../platform/db/connection'
import { nowIso } from '../../platform/db/connection'
import {
  childEpicIds,
  deleteEpicIssue,
  deleteEpicRow,
  epicAncestorIds,
  epicHasChildrenAndIssues,
  epicIssueLinks,
  epicIssuesOfIssues,
  epicLabelsOf,
  epicNoteAuthorIds,
  epicsById,
  epicSubtreeDepth,
  epicVotes,
  findEpicById,
  findEpicByIid,
  findEpicIssueByIssue,
  groupAccessLevels,
  groupPathsOf,
  inheritedDates,
  insertEpicRow,
  namespacesById,
  nextChildPosition,
  publicContentsOf,
  renumberChildEpics,
  repointEpicIssue,
  renumberEpicIssues,
  setEpicLabels,
  updateEpicRow,
  upsertEpicIssue,
  type EpicColumnChanges,
  type EpicIssueRow,
  type EpicRow,
} from './queries'
import { issueViewerOf, readableProjects } from '../../platform/auth/issue-read-queries'
import { findIssueById, labelsOf, listIssues, updateIssueRow, type IssueRow } from '../issues'
import { findLabelTitleInScope, insertLabel, type LabelRow } from '../labels'
import { findNamespaceById, findProjectById, groupAndDescendantIds, namespaceAncestors } from '../namespaces'
import { usersByIds } from '../users'
import { resolveTodosForTarget } from '../todos'
import { findProjectWithNamespace } from '../projects'
import type { NamespaceRow, ProjectRow } from '../../platform/db/rows'
import {
  epicEntity,
  epicIssueLinkEntity,
  issueEpicRef,
  linkedEpicEntity,
  type EpicOrigin,
  type EpicPageData,
} from './entity'
import type { ReferenceOrigin } from '../issues'
import { todayIso } from '../milestones'
import {
  apiMessage,
  invalidParam,
  missingParam,
  noneGiven,
  notFound,
  paramError,
  unauthorized,
  validationFailed,
} from '../../platform/http/errors'
import { recordEvent } from '../events'
import { copyAwards } from '../award-emoji'
import { canAdminIssues, canReadIssue, editColumns, presentIssues, updateIssue } from '../issues'
import { keepOneLabelPerScope } from '../labels'
import { isSubscribed } from '../subscriptions'
import { epicSnapshot, noteEpicIssue } from './system-notes'
import { addSystemNote, copyNotes, epicTarget, issueTarget, recordCreation, recordUpdate } from '../notes'
import {
  boolOf,
  datetimeOf,
  given,
  intOf,
  dateParam,
  descriptionOf,
  labelList,
  titleOf,
} from '../../platform/http/loose-params'

// GitLab's default colour for labels created on the fly.
const NEW_LABEL_COLOR = '#6699cc'
// Multi-level epics nest at most this deep, counting the top-level epic.
const MAX_HIERARCHY_DEPTH = 7

// ---------------------------------------------------------------------------------------------
// Permissions.

/** The group's epic `iid` the caller may read, or 404 `Epic Not Found`. */
export function loadEpic(caller: Caller, group: NamespaceRow, iid: number): EpicRow {
  const epic = findEpicByIid(caller.db, group.id, iid)
  if (!epic || !canReadEpicWith(caller.perms, group, epic)) throw notFound('Epic')
  return epic
}

// ---------------------------------------------------------------------------------------------
// Presentation.

/** Options of an epic page presentation. */
export interface EpicPresentOptions {
  readonly origin: EpicOrigin
  readonly withLabelsDetails?: boolean
  /** Adds `subscribed` for the caller (single-epic responses). */
  readonly withSubscribed?: boolean
  readonly fullReference?: boolean
}

/**
 * Serializes a page of epics in a fixed number of queries whatever its size: groups, authors,
 * labels, votes, parents, inherited dates (one recursive query over the subtrees), the caller's
 * level in the page's groups.
 */
export function presentEpics(caller: Caller, rows: readonly EpicRow[], options: EpicPresentOptions): Epic[] {
  const db = caller.db
  const ids = rows.map((r) => r.id)
  const parents = epicsById(
    db,
    rows.filter((r) => r.parent_id !== null).map((r) => r.parent_id as number),
  )
  const groupIds = [...rows.map((r) => r.group_id), ...[...parents.values()].map((p) => p.group_id)]
  const user = caller.user
  const levels =
    user && !caller.perms.isAdmin
      ? groupAccessLevels(
          db,
          user.id,
          rows.map((r) => r.group_id),
        )
      : new Map<number, number>()
  const base: Omit<EpicPageData, 'subscribed'> = {
    baseUrl: caller.baseUrl,
    origin: options.origin,
    withLabelsDetails: options.withLabelsDetails ?? false,
    groups: groupPathsOf(db, groupIds),
    users: usersByIds(
      db,
      rows.map((r) => r.author_id),
    ),
    labels: epicLabelsOf(db, ids),
    votes: epicVotes(db, ids),
    dates: inheritedDates(db, ids),
    parents,
    canEdit: (groupId) => caller.perms.isAdmin || (levels.get(groupId) ?? 0) >= AccessLevel.REPORTER,
    fullReference: options.fullReference,
  }
  return rows.map((r) => {
    const subscribed = options.withSubscribed
      ? isSubscribed(db, 'Epic', r.id, user?.id ?? null, epicParticipantIds(db, r))
      : undefined
    return epicEntity(r, { ...base, subscribed })
  })
}

/** Epics by id as their entities (the to-do list's Epic targets), one page's worth of queries. */
export function presentEpicsById(caller: Caller, ids: readonly number[]): Map<number, Epic> {
  const rows = [...epicsById(caller.db, ids).values()]
  const presented = presentEpics(caller, rows, { origin: { kind: 'none' } })
  return new Map(rows.map((r, n) => [r.id, presented[n]]))
}

/** One epic as a single-resource response (with `subscribed`). */
export function presentEpic(caller: Caller, epic: EpicRow, origin: EpicOrigin): Epic {
  return presentEpics(caller, [epic], { origin, withSubscribed: true })[0]
}

/** Author and commenters: who counts as subscribed without an explicit choice. */
export function epicParticipantIds(db: Db, epic: EpicRow): number[] {
  return [...new Set([epic.author_id, ...epicNoteAuthorIds(db, epic.id)])]
}

/**
 * The `epic` an issue shows, per issue of a page, for issues of group projects while the feature
 * is on: `null` when the issue has no epic or the caller may not read it, absent (no key) for
 * personal projects, as GitLab leaves the fields out there. Two queries for the page.
 */
export function issueEpicFields(
  caller: Caller,
  issues: readonly IssueRow[],
  groupProjectIds: ReadonlySet<number>,
): Map<number, IssueEpic | null> {
  const out = new Map<number, IssueEpic | null>()
  if (!epicsEnabled(caller)) return out
  const inGroups = issues.filter((i) => groupProjectIds.has(i.project_id))
  if (inGroups.length === 0) return out
  const db = caller.db
  const links = epicIssuesOfIssues(
    db,
    inGroups.map((i) => i.id),
  )
  const epics = epicsById(
    db,
    [...links.values()].map((l) => l.epic_id),
  )
  const byGroup = namespacesById(
    db,
    [...epics.values()].map((e) => e.group_id),
  )
  for (const issue of inGroups) {
    const link = links.get(issue.id)
    const epic = link ? epics.get(link.epic_id) : undefined
    const group = epic ? byGroup.get(epic.group_id) : undefined
    out.set(
      issue.id,
      epic && group && canReadEpicWith(caller.perms, group, epic) ? issueEpicRef(epic, group.full_path) : null,
    )
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Labels and hierarchy rules.

/** Groups whose labels an epic of `groupId` may carry: its own and its ancestors'. */
function epicLabelScope(db: Db, groupId: number): { groupIds: number[]; projectIds: number[] } {
  return { groupIds: [groupId, ...namespaceAncestors(db, groupId).map((g) => g.id)], projectIds: [] }
}

/**
 * Label ids for titles (case-insensitive) among the labels the epic's group sees; unknown titles
 * become labels of the epic's group when `create` is set, as GitLab's find-or-create does.
 */
export function resolveEpicLabels(db: Db, groupId: number, titles: readonly string[], create: boolean): LabelRow[] {
  const scope = epicLabelScope(db, groupId)
  const out: LabelRow[] = []
  for (const title of titles) {
    const found = findLabelTitleInScope(db, scope, title)
    if (found) out.push(found)
    else if (create && !title.includes(','))
      out.push(insertLabel(db, { title, color: NEW_LABEL_COLOR, description: null, groupId }))
  }
  return out
}

/**
 * Why `parent` cannot hold an epic (of `child.group_id`, id `child.id` when it exists), in
 * GitLab's words; null when it can.
 */
export function parentProblem(
  db: Db,
  child: { readonly id?: number; readonly group_id: number; readonly confidential: boolean },
  parent: EpicRow,
): { field: 'parent' | 'confidential'; message: string } | null {
  const prefix = 'This epic cannot be added.'
  if (child.id === parent.id) return { field: 'parent', message: `${prefix} An epic cannot be added to itself.` }
  const ancestors = epicAncestorIds(db, parent.id)
  if (child.id !== undefined && ancestors.includes(child.id))
    return { field: 'parent', message: `${prefix} It is already an ancestor of the parent epic.` }
  if (!groupAndDescendantIds(db, parent.group_id).includes(child.group_id)) {
    return {
      field: 'parent',
      message: `${prefix} An epic must belong to the same group or subgroup as its parent epic.`,
    }
  }
  const below = child.id !== undefined ? epicSubtreeDepth(db, child.id) : 0
  if (ancestors.length + 2 + below > MAX_HIERARCHY_DEPTH) {
    return {
      field: 'parent',
      message: `${prefix} One or more epics would exceed the maximum depth (${MAX_HIERARCHY_DEPTH}) from its most distant ancestor.`,
    }
  }
  if (!child.confidential && parent.confidential === 1)
    return {
      field: 'confidential',
      message: 'A non-confidential epic cannot be assigned to a confidential parent epic',
    }
  return null
}

function assertParent(
  db: Db,
  child: { readonly id?: number; readonly group_id: number; readonly confidential: boolean },
  parent: EpicRow,
): void {
  const problem = parentProblem(db, child, parent)
  if (problem) throw validationFailed({ [problem.field]: [problem.message] })
}

/** Why an epic may not become confidential (it holds public issues or child epics), or null. */
function confidentialityProblem(db: Db, epicId: number): string | null {
  const held = publicContentsOf(db, epicId)
  if (held.publicIssue) return 'Cannot make the epic confidential if it contains non-confidential issues'
  if (held.publicChild) return 'Cannot make the epic confidential if it contains non-confidential child epics'
  return null
}

// ---------------------------------------------------------------------------------------------
// Writes (database level: seeding and other families call these directly).

/** What a new epic is made of. `labels` are titles, found or created in the group's label scope. */
export interface NewEpic {
  readonly groupId: number
  readonly authorId: number
  readonly title: string
  readonly description?: string | null
  readonly confidential?: boolean
  readonly labels?: readonly string[]
  /** Existing labels to carry as they are (promotion copies them); no find-or-create. */
  readonly labelIds?: readonly number[]
  readonly parentId?: number | null
  readonly startDateIsFixed?: boolean
  readonly startDateFixed?: string | null
  readonly dueDateIsFixed?: boolean
  readonly dueDateFixed?: string | null
  readonly createdAt?: string
}

/**
 * Creates an epic with the next iid of its group (gapless under concurrency: the counter and the
 * row commit in one transaction), its labels, and the `created` activity event. A parent must
 * pass GitLab's hierarchy rules (400 otherwise). Safe to call inside an outer transaction.
 */
export function createEpic(db: Db, n: NewEpic): EpicRow {
  return db.transaction(() => {
    const parent = n.parentId != null ? findEpicById(db, n.parentId) : undefined
    if (n.parentId != null && !parent) throw notFound('Parent epic')
    if (parent) assertParent(db, { group_id: n.groupId, confidential: n.confidential ?? false }, parent)
    const epic = insertEpicRow(db, {
      groupId: n.groupId,
      authorId: n.authorId,
      title: n.title,
      description: n.description ?? null,
      confidential: n.confidential ?? false,
      parentId: parent?.id ?? null,
      startDateIsFixed: n.startDateIsFixed ?? false,
      startDateFixed: n.startDateFixed ?? null,
      dueDateIsFixed: n.dueDateIsFixed ?? false,
      dueDateFixed: n.dueDateFixed ?? null,
      createdAt: n.createdAt,
    })
    const labelIds = [...(n.labelIds ?? []), ...resolveEpicLabels(db, n.groupId, n.labels ?? [], true).map((l) => l.id)]
    if (labelIds.length > 0) setEpicLabels(db, epic.id, keepOneLabelPerScope(db, [], labelIds))
    recordCreation(db, epicTarget(epic), n.authorId, epicSnapshot(db, epic.id))
    recordEvent(db, {
      authorId: n.authorId,
      action: 'created',
      groupId: n.groupId,
      targetType: 'Epic',
      targetId: epic.id,
      targetIid: epic.iid,
      targetTitle: epic.title,
    })
    return epic
  })()
}

/** What an update may change (normalized). `parentId: null` detaches from the parent. */
export interface EpicChanges {
  readonly title?: string
  readonly description?: string | null
  readonly confidential?: boolean
  readonly stateEvent?: 'close' | 'reopen'
  readonly labels?: readonly string[]
  readonly addLabels?: readonly string[]
  readonly removeLabels?: readonly string[]
  readonly parentId?: number | null
  readonly startDateIsFixed?: boolean
  readonly startDateFixed?: string | null
  readonly dueDateIsFixed?: boolean
  readonly dueDateFixed?: string | null
  /** Administrators and owners may backdate an update. */
  readonly updatedAt?: string
}

/**
 * Applies changes to an epic: state transitions record `closed`/`reopened` events, confidentiality
 * and parent changes are checked against GitLab's rules (400 with the validation message).
 */
export function updateEpic(db: Db, epic: EpicRow, changes: EpicChanges, actorId: number): EpicRow {
  return db.transaction(() => {
    resolveTodosForTarget(db, actorId, 'Epic', epic.id)
    const before = epicSnapshot(db, epic.id)
    const now = nowIso()
    const { columns, transition } = editColumns(epic, changes, actorId, now)
    const cols: { -readonly [K in keyof EpicColumnChanges]: EpicColumnChanges[K] } = {
      updated_at: changes.updatedAt ?? now,
      ...columns,
    }
    const confidential = changes.confidential ?? epic.confidential === 1
    if (changes.confidential !== undefined) {
      if (changes.confidential && epic.confidential === 0) {
        const problem = confidentialityProblem(db, epic.id)
        if (problem) throw validationFailed({ confidential: [problem] })
      }
      cols.confidential = changes.confidential ? 1 : 0
    }
    if (changes.parentId !== undefined && changes.parentId !== epic.parent_id) {
      if (changes.parentId === null) {
        cols.parent_id = null
        cols.relative_position = null
      } else {
        const parent = findEpicById(db, changes.parentId)
        if (!parent) throw notFound('Parent epic')
        assertParent(db, { id: epic.id, group_id: epic.group_id, confidential }, parent)
        cols.parent_id = parent.id
        cols.relative_position = nextChildPosition(db, parent.id)
      }
    } else if (changes.confidential === false && epic.parent_id !== null) {
      const parent = findEpicById(db, epic.parent_id)
      if (parent?.confidential === 1)
        throw validationFailed({
          confidential: ['A non-confidential epic cannot be assigned to a confidential parent epic'],
        })
    }
    if (changes.startDateIsFixed !== undefined) cols.start_date_is_fixed = changes.startDateIsFixed ? 1 : 0
    if (changes.startDateFixed !== undefined) cols.start_date_fixed = changes.startDateFixed
    if (changes.dueDateIsFixed !== undefined) cols.due_date_is_fixed = changes.dueDateIsFixed ? 1 : 0
    if (changes.dueDateFixed !== undefined) cols.due_date_fixed = changes.dueDateFixed
    if (changes.labels !== undefined || changes.addLabels !== undefined || changes.removeLabels !== undefined) {
      const current = epicLabelsOf(db, [epic.id]).get(epic.id) ?? []
      let labels = changes.labels !== undefined ? resolveEpicLabels(db, epic.group_id, changes.labels, true) : current
      if (changes.addLabels) labels = [...labels, ...resolveEpicLabels(db, epic.group_id, changes.addLabels, true)]
      if (changes.removeLabels) {
        const remove = new Set(changes.removeLabels.map((t) => t.toLowerCase()))
        labels = labels.filter((l) => !remove.has(l.title.toLowerCase()))
      }
      setEpicLabels(
        db,
        epic.id,
        keepOneLabelPerScope(
          db,
          current.map((l) => l.id),
          labels.map((l) => l.id),
        ),
      )
    }
    const row = updateEpicRow(db, epic.id, cols)
    recordUpdate(db, epicTarget(row), actorId, before, epicSnapshot(db, row.id))
    if (transition) {
      recordEvent(db, {
        authorId: actorId,
        action: transition,
        groupId: row.group_id,
        targetType: 'Epic',
        targetId: row.id,
        targetIid: row.iid,
        targetTitle: row.title,
      })
    }
    return row
  })()
}

/** Deletes an epic; its issues leave it and its children become top-level epics. */
export function destroyEpic(db: Db, epic: EpicRow): void {
  db.transaction(() => deleteEpicRow(db, epic.id))()
}

/**
 * Puts an issue in an epic (moving it out of another epic if it was in one), with the system
 * notes on both. 409 `Issue(s) already assigned` when it is in this epic already; 422 for a
 * public issue and a confidential epic, which holds confidential issues only.
 */
export function linkIssue(db: Db, epic: EpicRow, issue: IssueRow, actorId: number): EpicIssueRow {
  return db.transaction(() => {
    const previous = findEpicIssueByIssue(db, issue.id)
    if (previous?.epic_id === epic.id) throw apiMessage(409, 'Issue(s) already assigned')
    if (epic.confidential === 1 && issue.confidential === 0)
      throw apiMessage(
        422,
        'Cannot assign a confidential epic to a non-confidential issue. Make the issue confidential and try again.',
      )
    const link = upsertEpicIssue(db, epic.id, issue.id)
    updateEpicRow(db, epic.id, {})
    noteEpicIssue(db, issue, actorId, previous?.epic_id ?? null, epic.id)
    return link
  })()
}

/** Takes an issue out of its epic, with the system notes on both. */
export function unlinkIssue(db: Db, link: EpicIssueRow, actorId: number): void {
  db.transaction(() => {
    deleteEpicIssue(db, link.id)
    updateEpicRow(db, link.epic_id, {})
    const issue = findIssueById(db, link.issue_id)
    if (issue) noteEpicIssue(db, issue, actorId, link.epic_id, null)
  })()
}

/**
 * Places `item` after `before` and before `after` (either may be absent) in an ordered list,
 * renumbering the whole list: lists are an epic's issues or children, short enough to rewrite.
 */
function reorder<T extends { readonly id: number }>(
  items: readonly T[],
  itemId: number,
  beforeId: number | undefined,
  afterId: number | undefined,
): number[] | null {
  const rest = items.filter((i) => i.id !== itemId).map((i) => i.id)
  if (beforeId !== undefined && !rest.includes(beforeId)) return null
  if (afterId !== undefined && !rest.includes(afterId)) return null
  let at: number
  if (beforeId !== undefined) at = rest.indexOf(beforeId) + 1
  else if (afterId !== undefined) at = rest.indexOf(afterId)
  else return null
  if (afterId !== undefined && beforeId !== undefined && rest.indexOf(afterId) < at) return null
  return [...rest.slice(0, at), itemId, ...rest.slice(at)]
}

/** Moves an issue link within its epic: after `moveBeforeId`'s link, before `moveAfterId`'s. False when not possible. */
export function moveEpicIssue(
  db: Db,
  epic: EpicRow,
  link: EpicIssueRow,
  moveBeforeId: number | undefined,
  moveAfterId: number | undefined,
): boolean {
  return db.transaction(() => {
    const order = reorder(epicIssueLinks(db, epic.id), link.id, moveBeforeId, moveAfterId)
    if (!order) return false
    renumberEpicIssues(db, order)
    return true
  })()
}

/** Moves a child epic among its siblings: after `moveBeforeId`, before `moveAfterId` (epic ids). */
export function moveChildEpic(
  db: Db,
  parent: EpicRow,
  child: EpicRow,
  moveBeforeId: number | undefined,
  moveAfterId: number | undefined,
): boolean {
  return db.transaction(() => {
    const order = reorder(
      childEpicIds(db, parent.id).map((id) => ({ id })),
      child.id,
      moveBeforeId,
      moveAfterId,
    )
    if (!order) return false
    renumberChildEpics(db, order)
    return true
  })()
}

// ---------------------------------------------------------------------------------------------
// Request-level operations (parameters and rights).

function mayChooseDates(caller: Caller, group: NamespaceRow): boolean {
  return caller.perms.isAdmin || caller.perms.canInGroup(group.id, AccessLevel.OWNER)
}

/** The parent named by `parent_id`: an epic the caller can read, else 404. */
function parentParam(caller: Caller, raw: unknown): number | null | undefined {
  if (raw === undefined) return undefined
  if (raw === null || raw === '') return null
  const id = intOf('parent_id', raw)
  if (id === 0) return null
  const parent = findEpicById(caller.db, id)
  const group = parent ? findNamespaceById(caller.db, parent.group_id) : undefined
  if (!parent || !group || !canReadEpicWith(caller.perms, group, parent)) throw notFound('Parent epic')
  return parent.id
}

/** `POST /groups/:id/epics` parameters → a new epic (Reporter+; created_at for administrators and owners). */
export function createEpicFromParams(
  caller: Caller,
  group: NamespaceRow,
  p: Readonly<Record<string, unknown>>,
): EpicRow {
  const user = requireEpicsFeature(caller)
  requireAdminEpics(caller, group)
  if (p.title === undefined || p.title === null) throw missingParam('title')
  const title = titleOf(p.title)
  return createEpic(caller.db, {
    groupId: group.id,
    authorId: user.id,
    title,
    description: descriptionOf(p.description) ?? null,
    confidential: boolOf('confidential', p.confidential) ?? false,
    labels: labelList(p.labels) ?? [],
    parentId: parentParam(caller, p.parent_id) ?? null,
    startDateIsFixed: boolOf('start_date_is_fixed', p.start_date_is_fixed) ?? false,
    // start_date / end_date are the deprecated spellings of the fixed dates.
    startDateFixed: dateParam('start_date_fixed', p.start_date_fixed ?? p.start_date) ?? null,
    dueDateIsFixed: boolOf('due_date_is_fixed', p.due_date_is_fixed) ?? false,
    dueDateFixed: dateParam('due_date_fixed', p.due_date_fixed ?? p.end_date) ?? null,
    createdAt: mayChooseDates(caller, group) ? datetimeOf('created_at', p.created_at) : undefined,
  })
}

/** The parameters PUT accepts; at least one must be present. */
export const EPIC_UPDATE_PARAMS = [
  'add_labels',
  'confidential',
  'description',
  'due_date_fixed',
  'due_date_is_fixed',
  'labels',
  'parent_id',
  'remove_labels',
  'start_date_fixed',
  'start_date_is_fixed',
  'state_event',
  'title',
  'start_date',
  'end_date',
] as const

/** `PUT /groups/:id/epics/:epic_iid` parameters → the updated epic (Reporter+). */
export function updateEpicFromParams(
  caller: Caller,
  group: NamespaceRow,
  epic: EpicRow,
  p: Readonly<Record<string, unknown>>,
): EpicRow {
  const user = requireEpicsFeature(caller)
  requireAdminEpics(caller, group)
  if (EPIC_UPDATE_PARAMS.every((k) => p[k] === undefined)) throw noneGiven(EPIC_UPDATE_PARAMS)
  if (p.state_event !== undefined && p.state_event !== 'close' && p.state_event !== 'reopen')
    throw invalidParam('state_event', 'does not have a valid value')
  return updateEpic(
    caller.db,
    epic,
    {
      title: p.title !== undefined && p.title !== null ? titleOf(p.title) : undefined,
      description: descriptionOf(p.description),
      confidential: boolOf('confidential', p.confidential),
      stateEvent: p.state_event as 'close' | 'reopen' | undefined,
      labels: labelList(p.labels),
      addLabels: labelList(p.add_labels),
      removeLabels: labelList(p.remove_labels),
      parentId: parentParam(caller, p.parent_id),
      startDateIsFixed: boolOf('start_date_is_fixed', p.start_date_is_fixed),
      startDateFixed: dateParam(
        'start_date_fixed',
        p.start_date_fixed !== undefined ? p.start_date_fixed : p.start_date,
      ),
      dueDateIsFixed: boolOf('due_date_is_fixed', p.due_date_is_fixed),
      dueDateFixed: dateParam('due_date_fixed', p.due_date_fixed !== undefined ? p.due_date_fixed : p.end_date),
      updatedAt: mayChooseDates(caller, group) ? datetimeOf('updated_at', p.updated_at) : undefined,
    },
    user.id,
  )
}

/**
 * Issues of an epic the caller may read, in the epic's order, each with `epic_issue_id` and
 * `relative_position` (GitLab's EpicIssue entity); one page.
 */
export function epicIssuesPage(
  caller: Caller,
  epic: EpicRow,
  origin: ReferenceOrigin,
  page: { readonly limit: number; readonly offset: number },
): { rows: EpicIssue[]; total: number } {
  const db = caller.db
  const viewer = issueViewerOf(caller.user)
  const { ids, reporterIds } = readableProjects(db, viewer, {
    namespaceIds: groupAndDescendantIds(db, epic.group_id),
    nonArchived: false,
  })
  const { rows, total } = listIssues(
    db,
    {
      projectIds: ids,
      confidentialProjectIds: viewer?.isAdmin ? null : reporterIds,
      viewerId: viewer?.id ?? null,
      epicId: epic.id,
      orderBy: 'epic_position',
      sort: 'asc',
      today: todayIso(),
    },
    page,
  )
  const links = epicIssuesOfIssues(
    db,
    rows.map((r) => r.id),
  )
  const presented = presentIssues(caller, rows, { origin })
  return {
    rows: presented.map((issue, n) => {
      const link = links.get(rows[n].id)
      return { ...issue, epic_issue_id: link?.id ?? null, relative_position: link?.relative_position ?? null }
    }),
    total,
  }
}

/**
 * `POST /groups/:id/epics/:epic_iid/issues/:issue_id`: the caller edits the epic (Reporter) and
 * reads the issue, which must live in a project of the epic's group or its subgroups; else 404
 * `No Issue found for given params`.
 */
export function assignIssueToEpic(caller: Caller, group: NamespaceRow, epic: EpicRow, issueId: number): EpicIssueRow {
  requireEpicsFeature(caller)
  requireAdminEpics(caller, group)
  const db = caller.db
  const issue = findIssueById(db, issueId)
  const project = issue ? findProjectById(db, issue.project_id) : undefined
  const linkable =
    issue &&
    project &&
    canReadIssue(caller, project, issue) &&
    caller.perms.canInProject(project, AccessLevel.GUEST) &&
    groupAndDescendantIds(db, epic.group_id).includes(project.namespace_id)
  if (!issue || !linkable) throw apiMessage(404, 'No Issue found for given params')
  return linkIssue(db, epic, issue, requireEpicsFeature(caller).id)
}

/** An epic-issue link response: the link, its epic and its issue. */
export function presentEpicIssueLink(caller: Caller, link: EpicIssueRow, epic: EpicRow): EpicIssueLink {
  const db = caller.db
  const issue = findIssueById(db, link.issue_id) as IssueRow
  const epicJson = presentEpics(caller, [epic], { origin: { kind: 'none' }, fullReference: true })[0]
  const issueJson = presentIssues(caller, [issue], { origin: { kind: 'none' } })[0]
  return epicIssueLinkEntity(link, epicJson, issueJson)
}

/** The LinkedEpic response for a child created under `parent`. */
export function presentLinkedEpic(caller: Caller, child: EpicRow, parent: EpicRow): LinkedEpic {
  const db = caller.db
  const groups = groupPathsOf(db, [child.group_id, parent.group_id])
  const { hasChildren, hasIssues } = epicHasChildrenAndIssues(db, child.id)
  return linkedEpicEntity(child, {
    baseUrl: caller.baseUrl,
    group: groups.get(child.group_id) as { full_path: string; path: string; parent_id: number | null },
    parent,
    parentGroup: groups.get(parent.group_id) as { full_path: string; path: string; parent_id: number | null },
    hasChildren,
    hasIssues,
  })
}

/**
 * An issue's epic as `epic_id` / `epic_iid` name it on issue create and update: undefined when
 * neither is given, null to leave the epic (0), else an epic of the project's group or its
 * ancestors that the caller can read (404 `Epic Not Found` otherwise).
 */
export function issueEpicParam(
  caller: Caller,
  project: ProjectRow,
  p: Readonly<Record<string, unknown>>,
): EpicRow | null | undefined {
  if (given(p.epic_id) && given(p.epic_iid)) throw paramError('epic_id, epic_iid are mutually exclusive')
  const raw = given(p.epic_id) ? p.epic_id : p.epic_iid
  if (!given(raw)) return p.epic_id === null || p.epic_iid === null ? null : undefined
  const n = intOf(given(p.epic_id) ? 'epic_id' : 'epic_iid', raw)
  if (n === 0) return null
  const db = caller.db
  const ns = findNamespaceById(db, project.namespace_id)
  if (!ns || ns.kind !== 'group' || !epicsEnabled(caller)) throw notFound('Epic')
  const groups = [ns, ...namespaceAncestors(db, ns.id)]
  const epic = given(p.epic_id) ? findEpicById(db, n) : findEpicByIid(db, ns.id, n)
  const group = epic ? groups.find((g) => g.id === epic.group_id) : undefined
  if (!epic || !group || !canReadEpicWith(caller.perms, group, epic)) throw notFound('Epic')
  return epic
}

/**
 * The epic of an issue being moved or cloned goes with the copy, when the caller may edit that
 * epic (GitLab's move and clone services): a move hands the copy the original's link (same place
 * in the epic's order), a clone links the copy as well. Nothing happens with epics turned off.
 */
export function carryEpic(caller: Caller, from: IssueRow, to: IssueRow, mode: 'move' | 'clone'): void {
  if (!epicsEnabled(caller)) return
  const db = caller.db
  const link = findEpicIssueByIssue(db, from.id)
  const epic = link ? findEpicById(db, link.epic_id) : undefined
  if (!link || !epic || !canAdminEpics(caller.perms, epic.group_id)) return
  if (epic.confidential === 1 && to.confidential === 0) return
  if (mode === 'move') repointEpicIssue(db, link.id, to.id)
  else upsertEpicIssue(db, epic.id, to.id)
  updateEpicRow(db, epic.id, {})
}

/** Applies an issue's `epic_id`/`epic_iid` choice by `actorId`: link, move or leave. */
export function setIssueEpic(db: Db, issue: IssueRow, epic: EpicRow | null, actorId: number): void {
  const current = findEpicIssueByIssue(db, issue.id)
  if (epic === null) {
    if (current) unlinkIssue(db, current, actorId)
  } else if (current?.epic_id !== epic.id) {
    linkIssue(db, epic, issue, actorId)
  }
}

// ---------------------------------------------------------------------------------------------
// Promotion (`/promote`).

/** A refusal of GitLab's IssuePromoteService, with its message. */
function promoteError(status: number, message: string): never {
  throw apiMessage(status, message)
}

/**
 * Promotes an issue to an epic in its project's group, as GitLab's IssuePromoteService does: the
 * epic (created by the caller) takes the issue's title, description, confidentiality, parent
 * epic, the group labels matching the issue's labels, its notes and award emoji; the issue is
 * closed, remembers the epic (`promoted_to_epic_id`) and both get a system note. Needs Reporter
 * on the issue and the right to create epics in the group.
 */
export function promoteIssueToEpic(caller: Caller, project: ProjectRow, issueRow: IssueRow): EpicRow {
  const user = caller.user
  if (!user) throw unauthorized()
  const db = caller.db
  const issue = findIssueById(db, issueRow.id) as IssueRow
  const group = findNamespaceById(db, project.namespace_id)
  if (!group || group.kind !== 'group') promoteError(400, 'Cannot promote issue because it does not belong to a group.')
  if (!epicsEnabled(caller) || !canAdminIssues(caller, project) || !canAdminEpics(caller.perms, group.id)) {
    promoteError(403, 'Cannot promote issue due to insufficient permissions.')
  }
  if (issue.promoted_to_epic_id !== null) promoteError(400, 'Issue already promoted to epic.')
  return db.transaction(() => {
    const parentLink = findEpicIssueByIssue(db, issue.id)
    const parent = parentLink ? findEpicById(db, parentLink.epic_id) : undefined
    const scope = epicLabelScope(db, group.id)
    const labelIds = (labelsOf(db, [issue.id]).get(issue.id) ?? [])
      .map((l) => findLabelTitleInScope(db, scope, l.title))
      .filter((l): l is LabelRow => l !== undefined && l.group_id !== null)
      .map((l) => l.id)
    const epic = createEpic(db, {
      groupId: group.id,
      authorId: user.id,
      title: issue.title,
      description: issue.description,
      confidential: issue.confidential === 1,
      labelIds,
      // A parent the new epic may not have (another hierarchy, confidentiality) is left out.
      parentId:
        parent && parentProblem(db, { group_id: group.id, confidential: issue.confidential === 1 }, parent) === null
          ? parent.id
          : null,
    })
    copyNotes(db, issueTarget(issue), epicTarget(epic), caller.perms)
    copyAwards(db, { type: 'Issue', id: issue.id }, { type: 'Epic', id: epic.id })
    const projectPath = findProjectWithNamespace(db, project.id)
    const issueRef = `${projectPath ? `${projectPath.ns_full_path}/${project.path}` : ''}#${issue.iid}`
    addSystemNote(db, epicTarget(epic), user.id, `promoted from issue ${issueRef}`, 'moved', {
      ref: issueTarget(issue),
    })
    if (issue.state === 'opened') updateIssue(caller, project, issue, { state_event: 'close' })
    updateIssueRow(db, issue.id, { promoted_to_epic_id: epic.id })
    addSystemNote(db, issueTarget(issue), user.id, `promoted to epic &${epic.iid}`, 'moved', { ref: epicTarget(epic) })
    return findEpicById(db, epic.id) as EpicRow
  })()
}
