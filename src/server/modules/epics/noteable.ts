/**
 * Epics as a noteable family (`/groups/:id/epics/:epic_id/notes`, by the epic's global id as
 * GitLab has it) and as references (`&2`, `group/path&2`).
 */
import type { Caller } from '../../platform/caller'
import type { NamespaceRow } from '../../platform/db/rows'
import { notFound } from '../../platform/http/errors'
import { findNamespaceById } from '../../platform/db/platform-queries'
import type { NoteableKind, ReferenceFamily } from '../notes'
import type { Noteable } from '../notes'
import { epicTarget } from '../notes'
import { epicWebUrl } from './entity'
import { epicQuickActions } from './quick-actions'
import { findEpicById, findEpicByIid, updateEpicRow, type EpicRow } from './queries'
import { loadEpic } from './service'
import { canReadEpicWith, requireEpicsFeature } from './policy'

/** An epic as a noteable: comments, threads, mention to-dos, the epic family's quick actions. */
export function epicNoteable(caller: Caller, group: NamespaceRow, epic: EpicRow): Noteable {
  return {
    type: 'Epic',
    id: epic.id,
    iid: epic.iid,
    container: { kind: 'group', group },
    title: epic.title,
    webUrl: epicWebUrl(caller.baseUrl, group.full_path, epic.iid),
    discussionLocked: false,
    todoTarget: true,
    canRead: (perms) => canReadEpicWith(perms, group, epic),
    quickActions: epicQuickActions(group, epic),
    touch: (caller, at) => {
      updateEpicRow(caller.db, epic.id, { updated_at: at })
    },
  }
}

/** The epic `epic_id` (its global id, as GitLab's notes routes name it) of the group as a noteable. */
function epicNoteableById(caller: Caller, group: NamespaceRow, id: number): Noteable {
  const epic = findEpicById(caller.db, id)
  if (!epic || epic.group_id !== group.id || !canReadEpicWith(caller.perms, group, epic)) throw notFound('Epic')
  return epicNoteable(caller, group, epic)
}

/** The notes and discussions family of epics; award emoji of epic notes name the epic by iid. */
export const epicNoteableKind: NoteableKind = {
  parent: 'groups',
  segment: 'epics',
  param: 'epic_id',
  precheck: requireEpicsFeature,
  find: epicNoteableById,
  awardKind: {
    parent: 'groups',
    segment: 'epics',
    param: 'epic_iid',
    precheck: requireEpicsFeature,
    find: (caller, group, iid) => epicNoteable(caller, group, loadEpic(caller, group, iid)),
  },
}

/** Epics as references: `&2` in their group (or its projects), `group/path&2` elsewhere. */
export const epicReferences: ReferenceFamily = {
  type: 'Epic',
  sigil: '&',
  scope: 'group',
  find(db, groupId, iid, reader) {
    const group = findNamespaceById(db, groupId) as NamespaceRow
    const epic = findEpicByIid(db, groupId, iid)
    return epic && canReadEpicWith(reader, group, epic) ? epicTarget(epic) : null
  },
  target(db, id) {
    const epic = findEpicById(db, id)
    return epic ? epicTarget(epic) : undefined
  },
  noun: () => 'epic',
  touch(db, id, at) {
    updateEpicRow(db, id, { updated_at: at })
  },
}
