import {
  isTemporaryIid,
  temporaryReference,
  type ItemFields,
  type Mutation,
  type OutboxEntry,
  type OutboxState,
} from '../../shared/ipc/outbox'
import { formatDuration } from './items'

/** How the outbox panel and the item views name an entry's state. */
export const STATE_LABEL: Readonly<Record<OutboxState, string>> = {
  queued: 'waiting to be sent',
  sending: 'sending',
  done: 'sent',
  failed: 'failed',
  conflict: 'conflict',
  'unknown-outcome': 'outcome unknown',
  reconciled: 'confirmed',
  discarded: 'discarded',
}

/** A line as the diff names it: `12` (new side), `−7` (a removed line). */
function lineLabel(p: { readonly old_line: number | null; readonly new_line: number | null }): string {
  return p.new_line !== null ? String(p.new_line) : `−${p.old_line ?? ''}`
}

const LINK_VERBS = { relates_to: 'Relate to', blocks: 'Mark as blocking', is_blocked_by: 'Mark as blocked by' } as const

function describeMutation(m: Mutation): string {
  switch (m.kind) {
    case 'comment':
      return m.position === undefined ? 'Comment' : `Comment on ${m.position.new_path}:${lineLabel(m.position)}`
    case 'submit-review':
      return m.drafts.length === 0
        ? 'Submit the review'
        : `Submit the review (${m.drafts.length} ${m.drafts.length === 1 ? 'comment' : 'comments'} written offline)`
    case 'approve':
      return 'Approve'
    case 'reply':
      return 'Reply'
    case 'time-estimate':
      return m.seconds === 0 ? 'Reset the estimate' : `Estimate ${formatDuration(m.seconds)}`
    case 'add-spent-time':
      return `${m.seconds < 0 ? 'Remove' : 'Add'} ${formatDuration(Math.abs(m.seconds))} spent`
    case 'todo':
      return 'Add a to-do'
    case 'todo-done':
      return 'Mark a to-do done'
    case 'subscription':
      return m.subscribed ? 'Subscribe' : 'Unsubscribe'
    case 'link':
      return `${LINK_VERBS[m.linkType]} issue ${m.targetIid} of project ${m.targetProjectId}`
    case 'unlink':
      return `Remove the link to issue ${m.targetIid} of project ${m.targetProjectId}`
    case 'create-issue':
      return `New issue “${m.fields.title}”`
    case 'create-merge-request':
      return `New merge request “${m.fields.title}” (${m.fields.source_branch} → ${m.fields.target_branch})`
    case 'update': {
      const c = m.changes
      const parts: string[] = []
      if (c.state_event) parts.push(c.state_event === 'close' ? 'Close' : 'Reopen')
      if (c.title !== undefined) parts.push('Rename')
      if (c.description !== undefined) parts.push('Edit the description')
      if (c.labels !== undefined) parts.push(`Set labels to ${c.labels.join(', ') || 'none'}`)
      if (c.add_labels?.length) parts.push(`Add label ${c.add_labels.join(', ')}`)
      if (c.remove_labels?.length) parts.push(`Remove label ${c.remove_labels.join(', ')}`)
      if (c.assignee_ids !== undefined) parts.push(c.assignee_ids.length ? 'Change assignees' : 'Unassign')
      if (c.milestone_id !== undefined)
        parts.push(c.milestone_id === null ? 'Remove the milestone' : 'Change the milestone')
      if (c.due_date !== undefined)
        parts.push(c.due_date === null ? 'Remove the due date' : `Set the due date to ${c.due_date}`)
      if (c.weight !== undefined) parts.push(c.weight === null ? 'Remove the weight' : `Set the weight to ${c.weight}`)
      if (c.epic_id !== undefined) parts.push(c.epic_id === null ? 'Take out of its epic' : 'Change the epic')
      return parts.join(', ') || 'Update'
    }
  }
}

/** "Add label bug on #12" (or on `group/app#12` given the project's path) — what the user did, in their words. */
export function describeEntry(entry: OutboxEntry, projectPath: string | null = null): string {
  const what = describeMutation(entry.mutation)
  const t = entry.target
  if (t.type === 'todo') return what
  if (t.type === 'commit') return `${what} on ${projectPath ?? ''}@${t.sha.slice(0, 8)}`
  const iid = entry.createdIid ?? t.iid
  const reference = isTemporaryIid(iid) ? temporaryReference(t.type, iid) : `${t.type === 'issue' ? '#' : '!'}${iid}`
  const preposition = entry.mutation.kind.startsWith('create-') ? 'as' : 'on'
  return `${what} ${preposition} ${projectPath ?? ''}${reference}`
}

/** A field value for the side-by-side conflict view. */
export function formatField(key: keyof ItemFields, value: ItemFields[keyof ItemFields]): string {
  if (value === undefined) return '—'
  if (value === null) return 'none'
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(', ')
  if (key === 'time_estimate' && typeof value === 'number') return formatDuration(value)
  return String(value)
}
