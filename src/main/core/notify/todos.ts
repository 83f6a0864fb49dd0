import type { NotifyTodo } from '../../../shared/ipc/notify'
import { num, obj, str, type JsonObject } from '../cache/json'

/** How GitLab's notification emails and to-do list word each action (`action_name`). */
const ACTIONS: Readonly<Record<string, string>> = {
  assigned: 'assigned you',
  mentioned: 'mentioned you',
  directly_addressed: 'addressed you',
  build_failed: 'has a failed pipeline',
  marked: 'added a to-do',
  approval_required: 'asked for your approval',
  unmergeable: 'cannot be merged',
  merge_train_removed: 'was removed from the merge train',
  review_requested: 'requested your review',
  review_submitted: 'reviewed your merge request',
  member_access_requested: 'requested access',
  added_approver: 'made you an approver',
  okr_checkin_requested: 'asked for a check-in',
}

/** Actions about the target rather than something a person did to you: the title names the target. */
const TARGET_ACTIONS = new Set(['build_failed', 'unmergeable', 'merge_train_removed'])

const TARGET_SEGMENTS: Readonly<
  Record<string, { readonly parent: 'projects' | 'groups'; readonly path: string; readonly sigil: string }>
> = {
  Issue: { parent: 'projects', path: 'issues', sigil: '#' },
  MergeRequest: { parent: 'projects', path: 'merge_requests', sigil: '!' },
  Epic: { parent: 'groups', path: 'epics', sigil: '&' },
  'AlertManagement::Alert': { parent: 'projects', path: 'alerts', sigil: '^alert#' },
}

/**
 * The renderer route of a to-do's target: the item's detail view (`/a/ACCOUNT/projects/P/issues/IID`,
 * `…/merge_requests/IID`, `/a/ACCOUNT/groups/G/epics/IID`, `…/projects/P/alerts/IID`), else the to-do list.
 */
export function todoRoute(accountId: string, todo: JsonObject): string {
  const segments = TARGET_SEGMENTS[str(todo, 'target_type') ?? '']
  const target = obj(todo, 'target')
  const iid = target === null ? null : num(target, 'iid')
  if (segments === undefined || iid === null) return '/todos'
  const parent = obj(todo, segments.parent === 'projects' ? 'project' : 'group')
  const parentId =
    parent === null
      ? target === null
        ? null
        : num(target, segments.parent === 'projects' ? 'project_id' : 'group_id')
      : num(parent, 'id')
  if (parentId === null) return '/todos'
  return `/a/${encodeURIComponent(accountId)}/${segments.parent}/${parentId}/${segments.path}/${iid}`
}

/** `kestrel/api#12`: the target's reference, from the to-do's own fields. */
function reference(todo: JsonObject): string | null {
  const segments = TARGET_SEGMENTS[str(todo, 'target_type') ?? '']
  const target = obj(todo, 'target')
  if (segments === undefined || target === null) return null
  const iid = num(target, 'iid')
  const parent = obj(todo, segments.parent === 'projects' ? 'project' : 'group')
  const path = parent === null ? null : (str(parent, 'path_with_namespace') ?? str(parent, 'full_path'))
  return iid === null || path === null ? null : `${path}${segments.sigil}${iid}`
}

/** A cached to-do as the tray lists it and a notification shows it. */
export function presentTodo(accountId: string, todo: JsonObject): NotifyTodo {
  const action = str(todo, 'action_name') ?? ''
  const target = obj(todo, 'target')
  const targetTitle = (target === null ? null : str(target, 'title')) ?? str(todo, 'body') ?? 'A to-do'
  const author = obj(todo, 'author')
  const who = author === null ? null : (str(author, 'name') ?? str(author, 'username'))
  const verb = ACTIONS[action] ?? action.replace(/_/g, ' ')
  const ref = reference(todo)
  const title = TARGET_ACTIONS.has(action) || who === null ? `${ref ?? targetTitle} ${verb}` : `${who} ${verb}`
  return {
    accountId,
    id: num(todo, 'id') ?? 0,
    title,
    body: ref === null ? targetTitle : `${targetTitle} · ${ref}`,
    createdAt: str(todo, 'created_at') ?? '',
    url: str(todo, 'target_url'),
    route: todoRoute(accountId, todo),
  }
}
