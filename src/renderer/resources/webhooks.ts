/**
 * Webhooks of a project or a group (GitLab's Project and Group webhooks APIs): the receivers
 * Burrow Server posts events to, with their events, auto-disable state and a manual test. One
 * description builder serves both scopes; the secret token is write-only.
 */
import type { Action, FieldView, FormField, ResourceDescription, Role } from './types'

type Item = Readonly<Record<string, unknown>>

/** The events a project or group hook may take, as GitLab names the flags. */
const EVENTS = [
  ['push_events', 'Push'],
  ['tag_push_events', 'Tag push'],
  ['issues_events', 'Issues'],
  ['confidential_issues_events', 'Confidential issues'],
  ['merge_requests_events', 'Merge requests'],
  ['note_events', 'Comments'],
  ['confidential_note_events', 'Confidential comments'],
  ['pipeline_events', 'Pipelines'],
  ['job_events', 'Jobs'],
  ['releases_events', 'Releases'],
  ['wiki_page_events', 'Wiki pages'],
] as const

/** The events a hook takes, by their labels. */
const subscribed = (hook: Item): string[] => EVENTS.filter(([flag]) => hook[flag] === true).map(([, label]) => label)

const ALERT_TONES = { executable: 'success', temporarily_disabled: 'warning', disabled: 'error' } as const

const FIELDS: readonly FieldView[] = [
  { field: 'url', label: 'URL', format: 'code' },
  { field: 'name', label: 'Name' },
  { field: 'description', label: 'Description' },
  { field: 'alert_status', label: 'Status', format: 'state', tones: ALERT_TONES },
  { field: 'disabled_until', label: 'Disabled until', format: 'datetime' },
  { field: 'push_events', label: 'Events', format: 'list', value: subscribed },
  { field: 'push_events_branch_filter', label: 'Push branch filter', format: 'code' },
  { field: 'enable_ssl_verification', label: 'SSL verification', format: 'boolean' },
  { field: 'custom_headers', label: 'Custom headers', format: 'list', value: (h) => keys(h.custom_headers) },
  { field: 'url_variables', label: 'URL variables', format: 'list', value: (h) => keys(h.url_variables) },
  { field: 'created_at', label: 'Created', format: 'datetime' },
]

function keys(value: unknown): string[] {
  return Array.isArray(value) ? value.map((entry) => String((entry as Item).key)) : []
}

const EVENT_FIELDS: readonly FormField[] = EVENTS.map(([name, label]) => ({
  name,
  label,
  type: 'boolean',
  ...(name === 'push_events' ? { default: true } : {}),
}))

const SETTINGS: readonly FormField[] = [
  { name: 'url', label: 'URL', type: 'url', required: true, placeholder: 'https://ci.example.com/hooks/burrow' },
  { name: 'name', label: 'Name', type: 'text', maxLength: 255 },
  { name: 'description', label: 'Description', type: 'textarea' },
  ...EVENT_FIELDS,
  {
    name: 'push_events_branch_filter',
    label: 'Push branch filter',
    type: 'text',
    placeholder: 'main, release/*',
    help: 'Wildcards allowed; empty for every branch.',
  },
  { name: 'enable_ssl_verification', label: 'Verify SSL certificates', type: 'boolean', default: true },
]

const TOKEN: FormField = {
  name: 'token',
  label: 'Secret token',
  type: 'password',
  help: 'Sent as X-Gitlab-Token with every delivery; never shown again.',
}

/** The manual test of one trigger: the project's latest data of that kind, posted now. */
function testAction(base: string, role: Role, trigger: string, label: string): Action {
  return {
    key: `test-${trigger.replace(/_/g, '-')}`,
    label,
    method: 'POST',
    path: `${base}/{id}/test/${trigger}`,
    on: 'item',
    role,
    done: 'Test delivered.',
  }
}

/** The description of one scope's webhooks: a project's for Maintainers, a group's for Owners. */
function webhooks(scope: 'project' | 'group'): ResourceDescription {
  const base = scope === 'project' ? '/projects/:project/hooks' : '/groups/:group/hooks'
  const role: Role = scope === 'project' ? 'maintainer' : 'owner'
  return {
    key: 'webhooks',
    family: scope === 'project' ? 'projects' : 'groups',
    title: 'Webhooks',
    singular: 'webhook',
    scope,
    description:
      scope === 'project'
        ? 'Receivers Burrow Server posts the project’s events to (GitLab’s webhooks).'
        : 'Receivers Burrow Server posts the events of the group’s projects to.',
    readRole: role,
    titleField: 'url',
    titleOf: (hook) => String(hook.name || hook.url),
    list: {
      path: base,
      query: { per_page: 20 },
      columns: [
        { field: 'url', label: 'URL', format: 'code', primary: true, width: 'minmax(0, 2fr)' },
        { field: 'name', label: 'Name', width: 'minmax(0, 1fr)' },
        { field: 'push_events', label: 'Events', format: 'list', value: subscribed, width: 'minmax(0, 2fr)' },
        { field: 'alert_status', label: 'Status', format: 'state', tones: ALERT_TONES, width: '170px' },
      ],
    },
    detail: { path: `${base}/{id}`, fields: FIELDS, deliveries: { path: `${base}/{id}/events`, role } },
    create: {
      title: 'New webhook',
      method: 'POST',
      path: base,
      role,
      outcome: 'detail',
      submitLabel: 'Add webhook',
      fields: [...SETTINGS.slice(0, 3), TOKEN, ...SETTINGS.slice(3)],
    },
    edit: { title: 'Edit webhook', method: 'PUT', path: `${base}/{id}`, role, fields: SETTINGS },
    actions: [
      testAction(base, role, 'push_events', 'Test push'),
      testAction(base, role, 'issues_events', 'Test issue'),
      {
        key: 'delete',
        label: 'Delete',
        method: 'DELETE',
        path: `${base}/{id}`,
        on: 'item',
        role,
        danger: true,
        confirm: (hook) => `Delete the webhook to ${String(hook.url)}? Its recent deliveries go with it.`,
        outcome: 'list',
        done: 'Webhook deleted.',
      },
    ],
  }
}

export const projectWebhooks = webhooks('project')
export const groupWebhooks = webhooks('group')
