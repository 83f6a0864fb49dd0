/** The epic family's quick actions: references to epics, which commands apply, and running them. */
import type { Caller } from '../../platform/caller'
import type { NamespaceRow } from '../../platform/db/rows'
import { findNamespaceByFullPath, findNamespaceById } from '../../platform/db/platform-queries'
import type { QuickActionSet } from '../notes'
import {
  itemCommand,
  quickActionSet,
  type ItemCommands,
  type QuickAction,
  type QuickActionName,
  type QuickActionResult,
} from '../quick-actions'
import { findEpicById, findEpicByIid, hasChildEpics, type EpicRow } from './queries'
import { updateEpic } from './service'
import { canAdminEpics, canReadEpicWith } from './policy'

/** The quick actions of one epic, for its noteable. */
export function epicQuickActions(group: NamespaceRow, epic: EpicRow): QuickActionSet {
  return quickActionSet(
    (caller, name) => epicCommandAvailable(caller, epic, name),
    (caller, actions) => executeEpicQuickActions(caller, group, epic, actions),
  )
}

/**
 * The epic an argument names, as GitLab's `/epic` and `/parent_epic` take it: `&5` (an epic of
 * `context`), `group/path&5`, or the epic's URL (`…/groups/group/path/-/epics/5`). Undefined when
 * nothing matches or the caller may not read it.
 */
export function findEpicByReference(caller: Caller, context: NamespaceRow, arg: string): EpicRow | undefined {
  const db = caller.db
  const text = arg.trim()
  const m = /^(?:https?:\/\/[^/]+)?\/groups\/(.+?)\/-\/epics\/(\d+)\/?$/.exec(text) ?? /^([\w.\-/]*)&(\d+)$/.exec(text)
  if (!m) return undefined
  const group = m[1] === '' ? context : findNamespaceByFullPath(db, m[1])
  if (!group || group.kind !== 'group') return undefined
  const epic = findEpicByIid(db, group.id, Number(m[2]))
  return epic && canReadEpicWith(caller.perms, group, epic) ? epic : undefined
}

/**
 * Whether the caller may run this command on the epic now: the epic family's commands (labels,
 * state, title, confidentiality, parent and child epics) need the right to edit the group's
 * epics (Reporter), and each is offered only when it applies, as GitLab does.
 */
export function epicCommandAvailable(caller: Caller, epic: EpicRow, name: QuickActionName): boolean {
  if (!caller.user || !canAdminEpics(caller.perms, epic.group_id)) return false
  switch (name) {
    case 'label':
    case 'relabel':
    case 'unlabel':
    case 'title':
    case 'parent_epic':
    case 'child_epic':
      return true
    case 'close':
      return epic.state === 'opened'
    case 'reopen':
      return epic.state === 'closed'
    case 'confidential':
      return epic.confidential === 0
    case 'remove_parent_epic':
      return epic.parent_id !== null
    case 'remove_child_epic':
      return hasChildEpics(caller.db, epic.id)
    default:
      return false
  }
}

/**
 * Runs an epic's commands: labels, state, title, confidentiality and parent through one
 * updateEpic call, children through updates of the children (each needing the right to edit its
 * own group's epics). GitLab's hierarchy and confidentiality rules answer as they do for PUT.
 */
export function executeEpicQuickActions(
  caller: Caller,
  group: NamespaceRow,
  epic: EpicRow,
  actions: readonly QuickAction[],
): QuickActionResult {
  const db = caller.db
  const user = caller.user
  if (!user) return { changes: {}, messages: [] }
  const changes: Record<string, unknown> = {}
  const messages: string[] = []
  const update: { -readonly [K in keyof Parameters<typeof updateEpic>[2]]: Parameters<typeof updateEpic>[2][K] } = {}
  // Labels, state and title collect as every item's commands spell them; the epic's own fields above.
  const common: ItemCommands = { update: {}, changes, messages, noun: 'epic', clearedLabelsAs: 'remove_label_names' }
  const childSteps: (() => void)[] = []
  const refOf = (e: EpicRow): string =>
    e.group_id === epic.group_id ? `&${e.iid}` : `${findNamespaceById(db, e.group_id)?.full_path ?? ''}&${e.iid}`
  const other = (arg: string): EpicRow | undefined => {
    const found = findEpicByReference(caller, group, arg)
    return found && found.id !== epic.id ? found : undefined
  }

  for (const action of actions) {
    switch (action.name) {
      case 'confidential':
        update.confidential = true
        changes.confidential = true
        messages.push('Made this epic confidential.')
        break
      case 'parent_epic': {
        const parent = other(action.arg)
        if (!parent || !canAdminEpics(caller.perms, parent.group_id)) {
          messages.push("This parent epic does not exist or you don't have sufficient permission.")
          break
        }
        update.parentId = parent.id
        changes.parent_epic = parent.id
        messages.push(`Set ${refOf(parent)} as the parent epic.`)
        break
      }
      case 'remove_parent_epic':
        update.parentId = null
        changes.parent_epic = null
        messages.push('Removed the parent epic.')
        break
      case 'child_epic':
      case 'remove_child_epic': {
        const child = other(action.arg)
        const adding = action.name === 'child_epic'
        if (!child || !canAdminEpics(caller.perms, child.group_id) || (!adding && child.parent_id !== epic.id)) {
          messages.push(
            adding
              ? "This child epic does not exist or you don't have sufficient permission."
              : 'Child epic does not exist.',
          )
          break
        }
        childSteps.push(() =>
          updateEpic(db, findEpicById(db, child.id) as EpicRow, { parentId: adding ? epic.id : null }, user.id),
        )
        changes[adding ? 'child_epic' : 'remove_child_epic'] = child.id
        messages.push(adding ? `Added ${refOf(child)} as a child epic.` : `Removed ${refOf(child)} from child epics.`)
        break
      }
      default:
        itemCommand(action, common)
        break
    }
  }
  const { title, state_event: stateEvent, labels, add_labels: addLabels, remove_labels: removeLabels } = common.update
  db.transaction(() => {
    if (Object.keys(update).length + Object.keys(common.update).length > 0)
      updateEpic(db, epic, { ...update, title, stateEvent, labels, addLabels, removeLabels }, user.id)
    for (const step of childSteps) step()
  })()
  return { changes, messages }
}
