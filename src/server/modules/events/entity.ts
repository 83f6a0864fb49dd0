import type * as Api from '../../../shared/api/index'
import type { EventRow } from './queries'
import { userWebUrl, type UserRef } from '../users'

/** The author as an activity event embeds it (GitLab's UserBasic). */
export type EventAuthor = UserRef

/** GitLab's Event entity. */
export type ActivityEvent = Api.ActivityEvent

const WIKI_TARGET = 'WikiPage::Meta'
const DESIGN_TARGET = 'DesignManagement::Design'
const DESIGN_ACTION_NAMES: Readonly<Record<string, string>> = {
  created: 'added',
  updated: 'updated',
  destroyed: 'removed',
}

/**
 * A JSON column of an event as its writer stored it: recordEvent takes only the wire model's
 * shapes (`PushData`, `EventNote`, an object for `data`), and the answer serves them as stored.
 */
function parseJson<T extends object>(text: string | null): T | undefined {
  if (text === null) return undefined
  const value: unknown = JSON.parse(text)
  return value !== null && typeof value === 'object' ? (value as T) : undefined
}

function pushActionName(pushData: Readonly<Record<string, unknown>> | undefined): string {
  if (pushData?.action === 'created') return 'pushed new'
  if (pushData?.action === 'removed') return 'deleted'
  return 'pushed to'
}

/**
 * The human verb GitLab shows for a stored action, following the order of its
 * Event#action_name: pushes name the ref change, designs use their own verbs, a project's
 * creation is "created", and opening or reopening any work item reads "opened".
 */
export function actionName(
  action: string,
  targetType: string | null,
  pushData?: Readonly<Record<string, unknown>>,
): string {
  if (action === 'pushed') return pushActionName(pushData)
  if (targetType === DESIGN_TARGET && DESIGN_ACTION_NAMES[action]) return DESIGN_ACTION_NAMES[action]
  switch (action) {
    case 'closed':
      return 'closed'
    case 'merged':
      return 'accepted'
    case 'joined':
      return 'joined'
    case 'left':
      return 'left'
    case 'expired':
      return 'removed due to membership expiration from'
    case 'destroyed':
      return 'destroyed'
    case 'commented':
      return 'commented on'
    case 'approved':
      return 'approved'
  }
  if (targetType === WIKI_TARGET && (action === 'created' || action === 'updated')) return action
  if (action === 'created' && (targetType === null || targetType === 'Project')) return 'created'
  return 'opened'
}

/** An `events` row (with its author's columns) → GitLab's Event JSON. */
export function activityEvent(row: EventRow, baseUrl: string): ActivityEvent {
  const pushData = parseJson<Api.PushData>(row.push_data)
  const note = parseJson<Api.EventNote>(row.note)
  const data = parseJson<Readonly<Record<string, unknown>>>(row.data)
  // One literal, the optional fields undefined when absent (the serializer leaves them out): spreading them onto the
  // event gave nearly every object of a page its own hidden class, and serializing 1,000 slowed to 20 ms.
  return {
    id: row.id,
    title: null,
    project_id: row.project_id,
    action_name: actionName(row.action, row.target_type, pushData),
    target_id: row.target_id,
    target_iid: row.target_iid,
    target_type: row.target_type,
    author_id: row.author_id,
    target_title: row.target_title,
    created_at: row.created_at,
    author: {
      id: row.author_id,
      username: row.author_username,
      name: row.author_name,
      state: row.author_state,
      locked: false,
      avatar_url: row.author_avatar_url,
      web_url: userWebUrl(baseUrl, row.author_username),
    },
    author_username: row.author_username,
    imported: false,
    imported_from: 'none',
    push_data: pushData,
    note,
    data,
  }
}
